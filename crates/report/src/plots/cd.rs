//! The critical-difference diagram (Demšar 2006, Fig. 1) of the Friedman–Nemenyi tests that
//! [`sudoku_analysis::compare`] computes: `cd.svg`, also inlined in the report.

use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ensure_font;
use sudoku_analysis::compare::{Comparison, RankTest};
use sudoku_analysis::escape;
use sudoku_analysis::number::p_value;

use crate::ReportError;

/// Width of the rank axis of a CD diagram (px).
const CD_AXIS: i32 = 300;

/// Horizontal layout of a CD diagram: the axis between margins wide enough for the longest
/// label (DejaVu Sans at 12 px averages under 7 px a character).
#[derive(Clone, Copy)]
struct CdLayout {
    left: i32,
    right: i32,
    width: u32,
}

fn cd_layout(panels: &[(&Comparison, &RankTest)]) -> CdLayout {
    let longest = panels
        .iter()
        .flat_map(|(_, r)| r.methods.iter())
        .map(|m| escape::chart(m).chars().count() + 7)
        .max()
        .unwrap_or(0) as i32;
    let margin = (7 * longest + 24).max(150);
    CdLayout {
        left: margin,
        right: margin + CD_AXIS,
        width: (2 * margin + CD_AXIS) as u32,
    }
}

fn panel_height(k: usize, cliques: usize) -> u32 {
    (110 + 8 * cliques + 22 * k.div_ceil(2)) as u32
}

/// The critical-difference diagrams (Demšar 2006, Fig. 1) of every group with a Friedman test,
/// one panel under another, as SVG text; `None` when no group has one. Methods hang from their
/// mean rank on an axis from 1 (left, fastest) to k; a thick bar joins methods not
/// significantly different (Nemenyi); the CD is drawn to scale above the axis.
pub fn cd_svg(comparisons: &[Comparison]) -> Result<Option<String>, ReportError> {
    let panels: Vec<(&Comparison, &RankTest)> = comparisons
        .iter()
        .filter_map(|c| c.ranks.as_ref().map(|r| (c, r)))
        .collect();
    if panels.is_empty() {
        return Ok(None);
    }
    let err = |e: String| ReportError::Chart {
        path: PathBuf::from(sudoku_analysis::files::CD),
        message: e,
    };
    ensure_font(Path::new(sudoku_analysis::files::CD))?;
    let heights: Vec<u32> = panels
        .iter()
        .map(|(_, r)| panel_height(r.methods.len(), r.cliques().len()))
        .collect();
    let layout = cd_layout(&panels);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (layout.width, heights.iter().sum()))
            .into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let mut top = 0i32;
        for ((c, rt), h) in panels.iter().zip(&heights) {
            draw_cd_panel(&root, layout, top, c, rt).map_err(err)?;
            top += *h as i32;
        }
        root.present().map_err(|e| err(e.to_string()))?;
    }
    Ok(Some(svg))
}

fn draw_cd_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    layout: CdLayout,
    top: i32,
    c: &Comparison,
    rt: &RankTest,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let k = rt.methods.len();
    let f = &rt.result;
    let (left, right) = (layout.left, layout.right);
    let x_of = |r: f64| left + ((r - 1.0) / (k as f64 - 1.0) * (right - left) as f64) as i32;
    let font = |size: i32, h: HPos, v: VPos| {
        ("sans-serif", size)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(h, v))
    };
    let title = format!(
        "{}: Friedman p {}, N = {}",
        escape::chart(&c.title()),
        p_value(f.p_ff),
        f.n
    );
    root.draw(&Text::new(
        title,
        (10, top + 6),
        font(14, HPos::Left, VPos::Top),
    ))
    .map_err(e)?;
    // CD to scale, above the axis.
    let y_cd = top + 34;
    let cd_end = x_of(1.0 + f.cd.min(k as f64 - 1.0));
    root.draw(&PathElement::new(
        vec![(x_of(1.0), y_cd), (cd_end, y_cd)],
        BLACK.stroke_width(2),
    ))
    .map_err(e)?;
    for x in [x_of(1.0), cd_end] {
        root.draw(&PathElement::new(vec![(x, y_cd - 4), (x, y_cd + 4)], BLACK))
            .map_err(e)?;
    }
    root.draw(&Text::new(
        format!("CD = {:.2}", f.cd),
        (cd_end + 6, y_cd),
        font(12, HPos::Left, VPos::Center),
    ))
    .map_err(e)?;
    // The rank axis.
    let y_axis = top + 64;
    root.draw(&PathElement::new(
        vec![(x_of(1.0), y_axis), (x_of(k as f64), y_axis)],
        BLACK,
    ))
    .map_err(e)?;
    for r in 1..=k {
        let x = x_of(r as f64);
        root.draw(&PathElement::new(vec![(x, y_axis - 5), (x, y_axis)], BLACK))
            .map_err(e)?;
        root.draw(&Text::new(
            r.to_string(),
            (x, y_axis - 7),
            font(11, HPos::Center, VPos::Bottom),
        ))
        .map_err(e)?;
    }
    // Groups not significantly different.
    let order = rt.by_rank();
    let cliques = rt.cliques();
    for (g, &(s, t)) in cliques.iter().enumerate() {
        let y = y_axis + 8 + 8 * g as i32;
        let (a, b) = (f.mean_ranks[order[s]], f.mean_ranks[order[t]]);
        root.draw(&PathElement::new(
            vec![(x_of(a) - 3, y), (x_of(b) + 3, y)],
            BLACK.stroke_width(4),
        ))
        .map_err(e)?;
    }
    // Methods: the better half labelled on the left, the rest on the right, so no lines cross.
    let half = k.div_ceil(2);
    let y0 = y_axis + 22 + 8 * cliques.len() as i32;
    for (pos, &i) in order.iter().enumerate() {
        let (row, on_left) = if pos < half {
            (pos, true)
        } else {
            (k - 1 - pos, false)
        };
        let y = y0 + 22 * row as i32;
        let x = x_of(f.mean_ranks[i]);
        let end = if on_left { left - 12 } else { right + 12 };
        root.draw(&PathElement::new(
            vec![(x, y_axis), (x, y), (end, y)],
            BLACK,
        ))
        .map_err(e)?;
        let label = format!("{} ({:.2})", escape::chart(&rt.methods[i]), f.mean_ranks[i]);
        let (tx, h) = if on_left {
            (end - 4, HPos::Right)
        } else {
            (end + 4, HPos::Left)
        };
        root.draw(&Text::new(label, (tx, y), font(12, h, VPos::Center)))
            .map_err(e)?;
    }
    Ok(())
}
