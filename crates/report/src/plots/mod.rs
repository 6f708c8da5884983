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

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use sudoku_analysis::number::num;
use sudoku_analysis::write_whole;
use sudoku_analysis::{TraceRow, Trial};

use crate::ReportError;

mod cd;
mod figures;
pub mod layout;
mod tag;

pub use cd::cd_svg;
pub use layout::{Layout, Rect, Style};

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

fn chart_error(path: &Path, what: &str, e: impl std::fmt::Display) -> ReportError {
    ReportError::Chart {
        path: path.to_path_buf(),
        message: format!("{what}: {e}"),
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

/// Every configuration of `rows` and `traces` as the charts name it (control characters made
/// visible), sorted: its place in the list is its colour ([`PALETTE`], repeating) and marker in
/// every chart, and the SVG's `data-config` attributes hold these names.
pub fn config_names(rows: &[Trial], traces: &[TraceRow]) -> Vec<String> {
    figures::configs(rows, traces)
}

/// Draws every chart the rows support into `out` (`<stem>.svg` and `<stem>.png`); says which
/// were left out and why, and removes their files if an earlier run left them. Each chart's
/// data is built, drawn and dropped before the next one's is built.
pub fn draw_all(out: &Path, rows: &[Trial], traces: &[TraceRow]) -> Result<Drawn, ReportError> {
    ensure_font(out)?;
    let mut drawn = Drawn::default();
    figures::each(rows, traces, |stem, built| {
        place(out, stem, &built, &mut drawn)
    })?;
    Ok(drawn)
}

/// Draws `figures` into `out`, as [`draw_all`] does.
pub fn draw(out: &Path, figures: &Figures) -> Result<Drawn, ReportError> {
    ensure_font(out)?;
    let mut drawn = Drawn::default();
    for (stem, built) in &figures.0 {
        place(out, stem.clone(), built, &mut drawn)?;
    }
    Ok(drawn)
}

/// Draws one chart into `out` and adds it to `drawn`, or adds why it is left out.
fn place(
    out: &Path,
    stem: String,
    built: &Result<Figure, String>,
    drawn: &mut Drawn,
) -> Result<(), ReportError> {
    match built {
        Ok(fig) => drawn.charts.push(render(out, fig)?),
        Err(reason) => {
            // A chart an earlier run drew from other data must not outlive it.
            for ext in ["svg", "png"] {
                let old = out.join(format!("{stem}.{ext}"));
                if old.is_file() {
                    std::fs::remove_file(&old).map_err(|e| ReportError::io(&old, e))?;
                }
            }
            drawn.skipped.push(Skipped {
                stem,
                reason: reason.clone(),
            })
        }
    }
    Ok(())
}

fn render(out: &Path, fig: &Figure) -> Result<Chart, ReportError> {
    let svg = out.join(format!("{}.svg", fig.stem));
    let png = out.join(format!("{}.png", fig.stem));
    let s1 = Style { scale: 1.0 };
    let l1 = fig.layout(&s1);
    let tags = tag::Tags::default();
    let mut text = String::new();
    let texts = {
        let root = SVGBackend::with_string(&mut text, l1.size).into_drawing_area();
        let texts = draw_figure(&root, fig, &l1, &s1, Some(&tags))
            .map_err(|e| chart_error(&svg, "drawing", e))?;
        root.present()
            .map_err(|e| chart_error(&svg, "writing", e))?;
        texts
    };
    let names = |style: usize| {
        fig.configs
            .then(|| fig.keys.iter().find(|k| k.style == style))
            .flatten()
            .map(|k| k.label.clone())
    };
    let text = tag::finish(&text, &tags, names);
    write_whole(&svg, &text)?;
    let s2 = Style { scale: 2.0 };
    let l2 = fig.layout(&s2);
    {
        let root = BitMapBackend::new(&png, l2.size).into_drawing_area();
        draw_figure(&root, fig, &l2, &s2, None).map_err(|e| chart_error(&png, "drawing", e))?;
        root.present()
            .map_err(|e| chart_error(&png, "writing", e))?;
    }
    Ok(Chart {
        stem: fig.stem.clone(),
        title: fig.title.clone(),
        caption: fig.caption.clone(),
        files: vec![svg, png],
        svg: text,
        panels: fig
            .panels
            .iter()
            .map(|p| (p.title.clone(), p.series()))
            .collect(),
        layout: l1,
        texts,
    })
}

/// Draws the figure; returns its titles as fitted.
fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    l: &Layout,
    s: &Style,
    t: tag::Tagger,
) -> std::result::Result<Vec<Fitted>, String> {
    root.fill(&WHITE).map_err(err)?;
    let names: std::collections::BTreeMap<usize, &str> = fig
        .keys
        .iter()
        .map(|k| (k.style, k.label.as_str()))
        .collect();
    let mut texts = Vec::new();
    for (p, r) in fig.panels.iter().zip(&l.panels) {
        let area = root.clone().shrink((r.x, r.y), (r.w, r.h));
        texts.extend(draw_panel(&area, p, s, t, &names)?);
    }
    let line_h = l.legend_cell.1 as i32;
    for (i, k) in fig.keys.iter().enumerate() {
        let e = l.legend_entry(i);
        let (x, y) = (e.x as i32, e.y as i32 + line_h / 2);
        let sw = s.px(layout::SWATCH - 6.0) as i32;
        let c = colour(k.style);
        tag::key(t, root, k.style)?;
        root.draw(&PathElement::new(
            vec![(x, y), (x + sw, y)],
            c.stroke_width(s.px(2.0)),
        ))
        .map_err(err)?;
        draw_marker(root, (x + sw / 2, y), k.style, false, s)?;
        let font = ("sans-serif", s.font(Style::TEXT))
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (j, text) in layout::wrap_label(&k.label).into_iter().enumerate() {
            root.draw(&Text::new(
                text,
                (x + s.px(layout::SWATCH) as i32, y + j as i32 * line_h),
                font.clone(),
            ))
            .map_err(err)?;
        }
        tag::end(t, root)?;
    }
    Ok(texts)
}

/// One marker at pixel `c` on any drawing area.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    c: (i32, i32),
    style: usize,
    hollow: bool,
    s: &Style,
) -> Res {
    let col = colour(style);
    let st = if hollow {
        col.stroke_width(s.px(1.5))
    } else {
        col.filled()
    };
    let r = s.px(3.5) as i32;
    match shape(style) {
        Shape::Circle => area.draw(&Circle::new(c, r, st)),
        Shape::Triangle => area.draw(&TriangleMarker::new(c, r + 1, st)),
        Shape::Square => area.draw(&Rectangle::new(
            [(c.0 - r, c.1 - r), (c.0 + r, c.1 + r)],
            st,
        )),
        Shape::Cross => area.draw(&Cross::new(c, r, col.stroke_width(s.px(2.0)))),
    }
    .map_err(err)
}

/// The width (px) of `text` at font size `px` in the embedded font (an estimate if the font
/// cannot lay it out).
pub fn text_px(text: &str, px: f64) -> f64 {
    ("sans-serif", px)
        .into_font()
        .box_size(text)
        .map_or_else(|_| layout::text_width(text, px), |(w, _)| f64::from(w))
}

/// `text` at the largest size up to `px` at which it fits `room` pixels: whole, never cut.
fn fitted(text: &str, px: f64, room: f64) -> Fitted {
    let mut size = px;
    let mut width = text_px(text, size);
    if width > room && width > 0.0 {
        size = (px * room / width).floor().max(1.0);
        width = text_px(text, size);
        // Widths do not scale exactly with the size (hinting): step down until it fits.
        while width > room && size > 1.0 {
            size -= 0.5;
            width = text_px(text, size);
        }
    }
    Fitted {
        text: text.to_string(),
        px: size,
        width,
        room,
    }
}

/// Margins of a panel's chart (px at scale 1): left, right, top and bottom.
const MARGIN: f64 = 6.0;
const MARGIN_RIGHT: f64 = 14.0;
/// The label area beside a numeric y axis (ticks and the axis title).
const Y_AREA: f64 = 54.0;
/// The label area below an x axis with a title.
const X_AREA: f64 = 44.0;

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &Panel,
    s: &Style,
    t: tag::Tagger,
    names: &std::collections::BTreeMap<usize, &str>,
) -> std::result::Result<Vec<Fitted>, String> {
    let (w, h) = area.dim_in_pixel();
    let (wf, hf) = (f64::from(w), f64::from(h));
    // Categories without names (boxes told apart by the legend) need no label area.
    let bare_x = p.x.title.is_empty();
    // Named categories on the y axis (horizontal boxes): a label area as wide as the longest
    // name, at most half the panel (smaller text beyond that).
    let y_names = p.y.labels.as_ref().map(|l| {
        let longest = l
            .iter()
            .map(|(_, n)| text_px(n, s.font(Style::TEXT)))
            .fold(0.0, f64::max);
        let room = wf * 0.5 - f64::from(s.px(12.0));
        let px = if longest > room {
            (s.font(Style::TEXT) * room / longest).floor().max(1.0)
        } else {
            s.font(Style::TEXT)
        };
        (longest.min(room) + f64::from(s.px(12.0)), px)
    });
    let y_area = y_names.map_or(f64::from(s.px(Y_AREA)), |(a, _)| a.ceil());
    let x_area = f64::from(s.px(if bare_x { 6.0 } else { X_AREA }));
    let margins_x = f64::from(s.px(MARGIN) + s.px(MARGIN_RIGHT));
    let mut texts = Vec::new();
    let caption =
        (!p.title.is_empty()).then(|| fitted(&p.title, s.font(Style::TITLE), wf - margins_x));
    let caption_h = caption.as_ref().map_or(0.0, |c| c.px * 1.4);
    let x_title = fitted(&p.x.title, s.font(Style::TITLE), wf - margins_x - y_area);
    let y_title = fitted(
        &p.y.title,
        s.font(Style::TITLE),
        hf - x_area - 2.0 * f64::from(s.px(MARGIN)) - caption_h,
    );
    // One size for both axis titles (the drawing library has one style for both).
    let desc_px = x_title.px.min(y_title.px);
    let mut b = ChartBuilder::on(area);
    b.margin(s.px(MARGIN))
        .margin_right(s.px(MARGIN_RIGHT))
        .x_label_area_size(x_area as u32)
        .y_label_area_size(y_area as u32);
    if let Some(c) = &caption {
        b.caption(&p.title, ("sans-serif", c.px));
    }
    let mut chart = b
        .build_cartesian_2d(p.x.at_range(), p.y.at_range())
        .map_err(err)?;
    let x_room = (wf / (Style::TEXT * 3.6 * s.scale)) as usize;
    // Named categories: every k-th name when they do not all fit.
    let every =
        p.x.labels
            .as_ref()
            .map_or(1, |l| l.len().div_ceil(x_room.max(1)).max(1));
    let xf = |v: &f64| {
        let k = v.round();
        if every > 1 && (v - k).abs() < 1e-6 && (k as i64).rem_euclid(every as i64) != 0 {
            return String::new();
        }
        p.x.tick(*v)
    };
    let yf = |v: &f64| p.y.tick(*v);
    let y_room = y_names.map_or_else(
        || (hf / (Style::TEXT * 2.0 * s.scale)) as usize,
        |_| usize::MAX,
    );
    chart
        .configure_mesh()
        .x_desc(&p.x.title)
        .y_desc(&p.y.title)
        .x_labels(p.x.ticks(x_room))
        .y_labels(p.y.ticks(y_room))
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .label_style(("sans-serif", s.font(Style::TEXT)))
        .y_label_style((
            "sans-serif",
            y_names.map_or(s.font(Style::TEXT), |(_, px)| px),
        ))
        .axis_desc_style(("sans-serif", desc_px))
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.08))
        .draw()
        .map_err(err)?;
    if s.scale == 1.0 {
        texts.extend(caption);
        for mut f in [x_title, y_title] {
            if !f.text.is_empty() {
                f.px = desc_px;
                f.width = text_px(&f.text, desc_px);
                texts.push(f);
            }
        }
    }
    let (x, y) = (&p.x, &p.y);
    let at = |(a, b): (f64, f64)| (x.at(a), y.at(b));
    let finite = |q: &(f64, f64)| q.0.is_finite() && q.1.is_finite();
    let plot = chart.plotting_area().strip_coord_spec();
    let name = |style: usize| names.get(&style).copied().unwrap_or("");
    // A point's hover text from its drawing coordinates.
    let point_tip = |style: usize, q: (f64, f64)| {
        move || {
            format!(
                "{}\n{}: {}\n{}: {}",
                name(style),
                axis_name(x),
                x.value(q.0),
                axis_name(y),
                y.value(q.1)
            )
        }
    };
    // Bands first, so lines and points are drawn over them.
    for m in &p.marks {
        if let Mark::Band {
            style,
            upper,
            lower,
        } = m
        {
            let mut poly: Vec<(f64, f64)> = upper.iter().copied().map(at).collect();
            poly.extend(lower.iter().rev().copied().map(at));
            poly.retain(finite);
            tag::series(t, &plot, *style)?;
            chart
                .draw_series(std::iter::once(Polygon::new(
                    poly,
                    colour(*style).mix(0.2).filled(),
                )))
                .map_err(err)?;
            tag::end(t, &plot)?;
        }
    }
    let (pw, ph) = plot.dim_in_pixel();
    let pixel = |c: (f64, f64)| {
        let fx = (c.0 - x.lo) / (x.hi - x.lo);
        let fy = (y.hi - c.1) / (y.hi - y.lo);
        (
            (fx * f64::from(pw.saturating_sub(1))).round() as i32,
            (fy * f64::from(ph.saturating_sub(1))).round() as i32,
        )
    };
    for m in &p.marks {
        // Each mark of a series is a group naming it (bands were drawn, and grouped, above).
        let group = m.style().filter(|_| !matches!(m, Mark::Band { .. }));
        if let Some(style) = group {
            tag::series(t, &plot, style)?;
        }
        match m {
            Mark::Band { .. } => {}
            Mark::Line { style, pts, step } => {
                let raw: Vec<(f64, f64)> = pts.iter().copied().map(at).filter(finite).collect();
                let mut v = raw.clone();
                if *step {
                    let mut st = Vec::with_capacity(v.len() * 2);
                    for (k, &q) in v.iter().enumerate() {
                        if k > 0 {
                            st.push((q.0, v[k - 1].1));
                        }
                        st.push(q);
                    }
                    v = st;
                }
                let v = thin_line(v, pixel);
                chart
                    .draw_series(LineSeries::new(
                        v.clone(),
                        colour(*style).stroke_width(s.px(2.0)),
                    ))
                    .map_err(err)?;
                // A few markers, so a line can be told by its marker too; each with its values.
                let every = (raw.len() / 6).max(1);
                for q in raw.iter().step_by(every) {
                    tag::tip(t, &plot, point_tip(*style, *q))?;
                    draw_marker(&plot, pixel(*q), *style, false, s)?;
                    tag::end(t, &plot)?;
                }
            }
            Mark::Points { style, pts, hollow } => {
                let pts: Vec<(f64, f64)> = pts.iter().copied().map(at).filter(finite).collect();
                for q in thin_points(pts, pixel) {
                    tag::tip(t, &plot, point_tip(*style, q))?;
                    draw_marker(&plot, pixel(q), *style, *hollow, s)?;
                    tag::end(t, &plot)?;
                }
            }
            Mark::Box { style, x: bx, b } => {
                let horizontal = y.labels.is_some();
                let value = if horizontal { x } else { y };
                // A point (category position, value) in drawing coordinates.
                let pt = |c: f64, v: f64| {
                    if horizontal {
                        (value.at(v), c)
                    } else {
                        (c, value.at(v))
                    }
                };
                let c = colour(*style);
                let (l, r) = (bx - 0.32, bx + 0.32);
                tag::tip(t, &plot, || {
                    format!(
                        "{}: {} runs\nmedian {}, quartiles {} – {}\nwhiskers {} – {}, {} beyond ({})",
                        name(*style),
                        b.n,
                        num(b.med),
                        num(b.q1),
                        num(b.q3),
                        num(b.lo),
                        num(b.hi),
                        b.outliers.len(),
                        value.title
                    )
                })?;
                chart
                    .draw_series([
                        Rectangle::new([pt(l, b.q1), pt(r, b.q3)], c.mix(0.25).filled()),
                        Rectangle::new([pt(l, b.q1), pt(r, b.q3)], c.stroke_width(s.px(1.0))),
                    ])
                    .map_err(err)?;
                chart
                    .draw_series([
                        PathElement::new(
                            vec![pt(l, b.med), pt(r, b.med)],
                            c.stroke_width(s.px(2.5)),
                        ),
                        PathElement::new(
                            vec![pt(*bx, b.lo), pt(*bx, b.q1)],
                            c.stroke_width(s.px(1.0)),
                        ),
                        PathElement::new(
                            vec![pt(*bx, b.q3), pt(*bx, b.hi)],
                            c.stroke_width(s.px(1.0)),
                        ),
                    ])
                    .map_err(err)?;
                tag::end(t, &plot)?;
                let outliers = b.outliers.iter().map(|&o| pt(*bx, o)).collect();
                for q in thin_points(outliers, pixel) {
                    tag::tip(t, &plot, point_tip(*style, q))?;
                    draw_marker(&plot, pixel(q), *style, true, s)?;
                    tag::end(t, &plot)?;
                }
            }
            Mark::Bars { style, pts } => {
                chart
                    .draw_series(pts.iter().map(|&(bx, lo, hi)| {
                        PathElement::new(
                            vec![(x.at(bx), y.at(lo)), (x.at(bx), y.at(hi))],
                            colour(*style).stroke_width(s.px(1.0)),
                        )
                    }))
                    .map_err(err)?;
            }
            Mark::Guide { pts } => {
                chart
                    .draw_series(LineSeries::new(
                        pts.iter().copied().map(at),
                        BLACK.mix(0.4).stroke_width(s.px(1.0)),
                    ))
                    .map_err(err)?;
            }
        }
        if group.is_some() {
            tag::end(t, &plot)?;
        }
    }
    Ok(texts)
}

/// A mark with more points than this is drawn a pixel at a time ([`thin_line`],
/// [`thin_points`]): far more than a panel has pixels across (520 px wide at most), so every
/// point of a smaller mark is drawn as it was, and a mark of a million trials costs what its
/// pixels cost (a run of a million trials made a report of 44 MB).
const THIN_ABOVE: usize = 10_000;

/// A line of more than [`THIN_ABOVE`] points (drawing coordinates) without the points that fall
/// on the pixel of the point kept before them (`pixel` maps a point to its pixel); the first
/// and last points are kept. The line drawn differs by less than a pixel.
fn thin_line(pts: Vec<(f64, f64)>, pixel: impl Fn((f64, f64)) -> (i32, i32)) -> Vec<(f64, f64)> {
    if pts.len() <= THIN_ABOVE {
        return pts;
    }
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut at = None;
    for (i, &q) in pts.iter().enumerate() {
        let p = pixel(q);
        if at != Some(p) {
            out.push(q);
            at = Some(p);
        } else if i + 1 == pts.len() {
            // The line ends where it ends: its last point stands for its pixel.
            *out.last_mut().expect("a point was kept") = q;
        }
    }
    out
}

/// More than [`THIN_ABOVE`] markers (drawing coordinates): for each pixel only the last marker
/// drawn on it, in the order they are drawn. Each marker covers the ones drawn before it on its
/// pixel, so the chart looks the same, and the hover text is the one on top.
fn thin_points(pts: Vec<(f64, f64)>, pixel: impl Fn((f64, f64)) -> (i32, i32)) -> Vec<(f64, f64)> {
    if pts.len() <= THIN_ABOVE {
        return pts;
    }
    let mut last: std::collections::HashMap<(i32, i32), usize> = Default::default();
    for (i, &q) in pts.iter().enumerate() {
        last.insert(pixel(q), i);
    }
    let mut keep: Vec<usize> = last.into_values().collect();
    keep.sort_unstable();
    keep.into_iter().map(|i| pts[i]).collect()
}

/// An axis' name in a hover text: its title, or `configuration` for named categories without
/// one.
fn axis_name(a: &Axis) -> &str {
    if a.title.is_empty() {
        "configuration"
    } else {
        &a.title
    }
}

impl Axis {
    fn at_range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }

    /// A drawing coordinate as the value it stands for, as a reader would say it: the
    /// category's name, or the number (undoing the logarithm of a log axis).
    fn value(&self, v: f64) -> String {
        match &self.labels {
            Some(_) => self.tick(v.round()),
            None if self.log => num(10f64.powf(v)),
            None => num(v),
        }
    }
}

#[cfg(test)]
mod tests;
