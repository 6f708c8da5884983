//! Charts from trials (and traces), as SVG and PNG, sized for one column of a two-column paper
//! (about 3.3 in wide; the PNG at twice the resolution). Text is drawn with an embedded DejaVu
//! Sans, so nothing depends on fonts installed on the machine.
//!
//! Every chart is a [`Figure`]: panels (small multiples) in a grid and one legend in its own
//! band below them, never over the data ([`layout`]). Panels are facets of the data (grid size,
//! variant), never parts of the list of methods: every configuration of a facet is in its panel,
//! side by side with the others. Each configuration (method and parameters) has one colour and
//! marker in every chart of a run, from its place in the sorted list of configurations, out of
//! the Okabe–Ito colour-blind-safe palette (the 9th and later share a colour with a different
//! marker). Axis titles are never cut: a long one is drawn smaller until it fits (measured with
//! the embedded font, [`Fitted`]). In the SVG, each series and legend entry is a group naming its
//! configuration (`data-config`) and each marked point has a hover text ([`tag`]), which the
//! report's method filter and tooltips use. A chart the data cannot support is not drawn;
//! [`draw_all`] returns why ([`Skipped`]).
//!
//! This module holds what a chart is made of (`Figure`, its panels, axes and marks), the
//! palette, and what drawing returns; `figures/` builds the figures from the rows,
//! `render.rs` draws each into its SVG and PNG files, `panel.rs` draws one panel (axes, marks,
//! markers, fitted titles).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use plotters::prelude::*;

use sudoku_analysis::{TraceRow, Trial};

use crate::ReportError;

mod cd;
mod figures;
pub mod layout;
mod panel;
mod render;
mod tag;

pub use cd::cd_svg;
pub use layout::{Layout, Rect, Style};
pub use panel::text_px;
pub use render::{draw, draw_all};

/// Okabe & Ito's colour-blind-safe palette, yellow last (faint on white).
pub const PALETTE: [(u8, u8, u8); 8] = [
    (0, 114, 178),   // blue
    (213, 94, 0),    // vermillion
    (0, 158, 115),   // bluish green
    (230, 159, 0),   // orange
    (204, 121, 167), // reddish purple
    (86, 180, 233),  // sky blue
    (0, 0, 0),       // black
    (240, 228, 66),  // yellow
];

/// A series' colour: `style` is the configuration's place in the sorted list of a run's
/// configurations, so the colour is the same in every chart.
pub fn colour(style: usize) -> RGBColor {
    let (r, g, b) = PALETTE[style % PALETTE.len()];
    RGBColor(r, g, b)
}

/// Markers tell apart configurations that share a colour (the 9th and later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Circle,
    Triangle,
    Square,
    Cross,
}

fn shape(style: usize) -> Shape {
    [Shape::Circle, Shape::Triangle, Shape::Square, Shape::Cross][(style / PALETTE.len()) % 4]
}

/// A chart that was drawn.
#[derive(Clone, Debug)]
pub struct Chart {
    /// File name without extension (`cactus` → `cactus.svg`, `cactus.png`).
    pub stem: String,
    /// A one-line title.
    pub title: String,
    /// What is drawn, how to read it, and what was left out.
    pub caption: String,
    /// The files written (SVG first).
    pub files: Vec<PathBuf>,
    /// The SVG file's text, which the report inlines.
    pub svg: String,
    /// Each panel's title and number of series.
    pub panels: Vec<(String, usize)>,
    /// Where the panels and the legend are in the SVG.
    pub layout: Layout,
    /// The axis and panel titles of the SVG, as fitted.
    pub texts: Vec<Fitted>,
}

/// A title as drawn in the SVG: whole, at the size at which it fits its room.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The text, whole.
    pub text: String,
    /// Its font size (px).
    pub px: f64,
    /// Its width at that size, measured with the embedded font (px).
    pub width: f64,
    /// The room it has (px): the plotting area's width or height, or the panel's width.
    pub room: f64,
}

/// A chart that was not drawn, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// The chart's file stem.
    pub stem: String,
    /// Why the data cannot support it.
    pub reason: String,
}

/// What [`draw_all`] made.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    /// The charts drawn, in reading order.
    pub charts: Vec<Chart>,
    /// The charts left out.
    pub skipped: Vec<Skipped>,
}

impl Drawn {
    /// Every file written.
    pub fn files(&self) -> Vec<PathBuf> {
        self.charts.iter().flat_map(|c| c.files.clone()).collect()
    }
}

/// One axis: its title (with the unit), range in data units, and whether it is logarithmic.
#[derive(Clone, Debug)]
struct Axis {
    title: String,
    lo: f64,
    hi: f64,
    log: bool,
    /// Tick labels at given positions (categories) instead of numbers.
    labels: Option<Vec<(f64, String)>>,
}

impl Axis {
    fn linear(title: impl Into<String>, lo: f64, hi: f64) -> Axis {
        // An infinite or NaN bound (a ratio to a time of 0) sends plotters' tick search into an
        // endless loop: keep the range finite.
        let finite = |v: f64| {
            if v.is_nan() {
                0.0
            } else {
                v.clamp(-1e300, 1e300)
            }
        };
        let (lo, hi) = (finite(lo), finite(hi));
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            (lo - 1.0, lo + 1.0)
        };
        Axis {
            title: title.into(),
            lo,
            hi,
            log: false,
            labels: None,
        }
    }

    /// A log axis over the positive values, padded by a third of a decade each side.
    fn log(title: impl Into<String>, values: impl IntoIterator<Item = f64>) -> Axis {
        let (lo, hi) = values
            .into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let (lo, hi) = if lo.is_finite() {
            (lo, hi)
        } else {
            (1e-3, 1.0)
        };
        let (lo, hi) = (lo.log10() - 0.3, hi.log10().max(lo.log10() + 0.7) + 0.3);
        Axis {
            title: title.into(),
            lo,
            hi,
            log: true,
            labels: None,
        }
    }

    fn categories(title: impl Into<String>, labels: Vec<(f64, String)>) -> Axis {
        let lo = labels.iter().map(|l| l.0).fold(f64::INFINITY, f64::min);
        let hi = labels.iter().map(|l| l.0).fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        Axis {
            title: title.into(),
            lo: lo - 0.6,
            hi: hi + 0.6,
            log: false,
            labels: Some(labels),
        }
    }

    /// A data value in drawing coordinates (log10 on a log axis).
    fn at(&self, v: f64) -> f64 {
        if self.log {
            v.max(1e-12).log10()
        } else {
            v
        }
    }

    /// The data value at the top of the axis (for marks drawn "at the edge").
    fn top(&self) -> f64 {
        if self.log {
            10f64.powf(self.hi)
        } else {
            self.hi
        }
    }

    /// How many tick labels to ask for, `room` the most that fit side by side.
    fn ticks(&self, room: usize) -> usize {
        match &self.labels {
            Some(l) => l.len().max(1) * 2 + 1,
            None if self.log => ((self.hi - self.lo).ceil() as usize + 1).min(room),
            None => 6.min(room),
        }
    }

    fn tick(&self, v: f64) -> String {
        match &self.labels {
            Some(l) => l
                .iter()
                .find(|(p, _)| (p - v).abs() < 1e-6)
                .map(|(_, t)| t.clone())
                .unwrap_or_default(),
            None if self.log => {
                let k = v.round();
                if (v - k).abs() > 1e-6 {
                    String::new()
                } else if (-3.0..=4.0).contains(&k) {
                    let x = 10f64.powi(k as i32);
                    number(x)
                } else {
                    format!("1e{k}")
                }
            }
            None => number(v),
        }
    }
}

/// A tick number: integers plainly, others with two decimals at most.
fn number(x: f64) -> String {
    if x.abs() >= 100.0 || (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        let t = format!("{x:.3}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Five-number summary of a box with Tukey whiskers (1.5 IQR) and the points beyond them.
#[derive(Clone, Debug)]
struct BoxStats {
    n: usize,
    lo: f64,
    q1: f64,
    med: f64,
    q3: f64,
    hi: f64,
    outliers: Vec<f64>,
}

/// What a panel draws, in data units; `style` names the series (its colour and marker).
#[derive(Clone, Debug)]
enum Mark {
    /// A line with markers at a few of its points; `step` draws it as a staircase.
    Line {
        style: usize,
        pts: Vec<(f64, f64)>,
        step: bool,
    },
    /// A filled band between two lines over the same x values.
    Band {
        style: usize,
        upper: Vec<(f64, f64)>,
        lower: Vec<(f64, f64)>,
    },
    /// Markers; hollow ones mark values drawn at the edge (no answer within the limit).
    Points {
        style: usize,
        pts: Vec<(f64, f64)>,
        hollow: bool,
    },
    /// A box at category position `x` (on the y axis when the panel's y axis holds the
    /// categories: a horizontal box).
    Box { style: usize, x: f64, b: BoxStats },
    /// Vertical bars `(x, lo, hi)`.
    Bars {
        style: usize,
        pts: Vec<(f64, f64, f64)>,
    },
    /// A thin grey reference line (the diagonal of a scatter).
    Guide { pts: Vec<(f64, f64)> },
}

impl Mark {
    fn style(&self) -> Option<usize> {
        match self {
            Mark::Line { style, .. }
            | Mark::Band { style, .. }
            | Mark::Points { style, .. }
            | Mark::Box { style, .. }
            | Mark::Bars { style, .. } => Some(*style),
            Mark::Guide { .. } => None,
        }
    }
}

/// One panel of a figure.
#[derive(Clone, Debug)]
struct Panel {
    title: String,
    x: Axis,
    y: Axis,
    marks: Vec<Mark>,
}

impl Panel {
    /// The series it shows.
    fn series(&self) -> usize {
        self.marks
            .iter()
            .filter_map(Mark::style)
            .collect::<BTreeSet<_>>()
            .len()
    }
}

/// A legend entry.
#[derive(Clone, Debug)]
struct Key {
    label: String,
    style: usize,
}

/// A chart: panels in `cols` columns and one legend below.
#[derive(Clone, Debug)]
struct Figure {
    stem: String,
    title: String,
    caption: String,
    cols: usize,
    panel_h: f64,
    keys: Vec<Key>,
    panels: Vec<Panel>,
    /// Whether the series are method configurations (named in the SVG for the report's
    /// filter); a sweep's series are grid sizes.
    configs: bool,
}

impl Figure {
    fn layout(&self, s: &Style) -> Layout {
        let labels: Vec<Vec<String>> = self
            .keys
            .iter()
            .map(|k| layout::wrap_label(&k.label))
            .collect();
        layout::layout(self.panels.len(), self.cols, self.panel_h, &labels, s)
    }
}

/// Registers the embedded DejaVu Sans (regular and bold) with the drawing library, once; `out`
/// names the file or folder in the error.
fn ensure_font(out: &Path) -> Result<(), ReportError> {
    static FONT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *FONT.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .is_ok()
            && plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold())
                .is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(ReportError::Chart {
            path: out.to_path_buf(),
            message: "the embedded chart font could not be loaded".into(),
        })
    }
}

type Res = std::result::Result<(), String>;

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// What every chart of a run shows, before anything is drawn: each chart's stem with its
/// data, or the reason the rows cannot support it.
#[derive(Clone, Debug)]
pub struct Figures(Vec<(String, Result<Figure, String>)>);

impl Figures {
    /// The charts of `rows` and `traces`, in reading order.
    pub fn of(rows: &[Trial], traces: &[TraceRow]) -> Figures {
        Figures(figures::all(rows, traces))
    }
}

/// The stems of the charts a run may draw, in reading order, as the chart list builds them
/// (a run adds one `sweep_*` chart per parameter it sweeps).
pub fn stems() -> Vec<String> {
    figures::all(&[], &[])
        .into_iter()
        .map(|(stem, _)| stem)
        .collect()
}

/// The stem of the chart of `method`'s sweep over `parameter`: `sweep_tabu_alpha`, with every
/// character that is not an ASCII letter or digit as `_` (a stem is a file name).
pub fn sweep_stem(method: &str, parameter: &str) -> String {
    format!("sweep_{method}_{parameter}").replace(|c: char| !c.is_ascii_alphanumeric(), "_")
}

/// Every configuration of `rows` and `traces` as the charts name it (control characters made
/// visible), sorted: its place in the list is its colour ([`PALETTE`], repeating) and marker in
/// every chart, and the SVG's `data-config` attributes hold these names.
pub fn config_names(rows: &[Trial], traces: &[TraceRow]) -> Vec<String> {
    figures::configs(rows, traces)
}

#[cfg(test)]
mod tests;
