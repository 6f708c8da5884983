//! Drawing inside one panel: its axes with titles fitted whole to their room, its marks
//! (bands, lines, points, boxes, bars, guides) with hover texts, each marker, and marks of more
//! points than pixels thinned to a point a pixel. Apart from the figure around it (`render.rs`)
//! because it is the one long drawing routine, with the helpers only it and the legend use.

use plotters::coord::Shift;
use plotters::prelude::*;

use sudoku_analysis::number::num;

use super::{colour, err, layout, shape, tag, Axis, Fitted, Mark, Panel, Res, Shape, Style};

/// One marker at pixel `c` on any drawing area.
pub(super) fn draw_marker<DB: DrawingBackend>(
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

pub(super) fn draw_panel<DB: DrawingBackend>(
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
                // With steps, a corner before each point but the first; made as they are
                // thinned, so a line of a million points is never copied whole.
                let corners = |k: usize, q: (f64, f64)| {
                    let corner = (*step && k > 0).then(|| (q.0, raw[k - 1].1));
                    corner.into_iter().chain(std::iter::once(q))
                };
                let drawn = raw.iter().enumerate().flat_map(|(k, &q)| corners(k, q));
                let len = if *step {
                    (2 * raw.len()).saturating_sub(1)
                } else {
                    raw.len()
                };
                let v = thin_line(drawn, len, pixel);
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
/// The points come one at a time (`len` of them).
fn thin_line(
    pts: impl Iterator<Item = (f64, f64)>,
    len: usize,
    pixel: impl Fn((f64, f64)) -> (i32, i32),
) -> Vec<(f64, f64)> {
    if len <= THIN_ABOVE {
        return pts.collect();
    }
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut at = None;
    for (i, q) in pts.enumerate() {
        let p = pixel(q);
        if at != Some(p) {
            out.push(q);
            at = Some(p);
        } else if i + 1 == len {
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
mod tests {
    use super::*;

    /// Marks of more points than a panel has pixels are drawn a pixel at a time; smaller ones whole.
    #[test]
    fn large_marks_are_drawn_a_pixel_at_a_time() {
        let px = |q: (f64, f64)| ((q.0 * 100.0).round() as i32, (q.1 * 100.0).round() as i32);
        let few: Vec<(f64, f64)> = (0..THIN_ABOVE).map(|i| (i as f64, 0.0)).collect();
        assert_eq!(thin_line(few.iter().copied(), few.len(), px), few);
        assert_eq!(thin_points(few.clone(), px), few);
        // A rising line of 50,000 points over 100 × 100 pixels: one point per pixel it crosses,
        // its first and last kept, no two kept neighbours on one pixel.
        let n = 50_000;
        let line: Vec<(f64, f64)> = (0..n)
            .map(|i| (i as f64 / n as f64, (i as f64 / n as f64).powi(2)))
            .collect();
        let thin = thin_line(line.iter().copied(), line.len(), px);
        assert!(thin.len() <= 202, "{}", thin.len());
        assert_eq!((thin[0], thin.last()), (line[0], line.last()));
        assert!(thin.windows(2).all(|w| px(w[0]) != px(w[1])));
        // Markers: the last one drawn on each pixel, in drawing order.
        let mut pts = line;
        pts.push((0.0, 0.0));
        let kept = thin_points(pts.clone(), px);
        let pixels: std::collections::BTreeSet<(i32, i32)> = pts.iter().map(|&q| px(q)).collect();
        assert_eq!(kept.len(), pixels.len());
        assert_eq!(kept.last(), Some(&(0.0, 0.0)));
        assert!(kept.windows(2).all(|w| {
            let at = |q| pts.iter().rposition(|p| *p == q).unwrap();
            at(w[0]) < at(w[1])
        }));
    }
}
