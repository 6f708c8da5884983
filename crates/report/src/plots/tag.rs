//! What each element of an SVG chart belongs to, for the report's method filter and hover
//! values. The drawing library writes SVG element by element with no grouping, so while the SVG
//! is drawn, a one-pixel mark of a reserved colour is drawn before and after each series, each
//! legend entry and each point that has a hover text ([`Tags`]); [`finish`] then replaces the
//! marks by `<g data-config="…">` groups and `<title>` elements. The PNG is drawn without marks.

use std::cell::RefCell;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{err, Res};
use sudoku_analysis::escape;

/// A series' start: `(SERIES, style >> 8, style & 255)`.
const SERIES: u8 = 0xFE;
/// A legend entry's start, coded as a series.
const KEY: u8 = 0xFB;
/// The end of the innermost group.
const END: u8 = 0xFD;
/// A hover text's start: `(TIP | index >> 16, index >> 8, index & 255)`, `TIP..=TIP + 15`.
const TIP: u8 = 0xE0;
/// Hover texts one SVG can code (20 bits); the index of the last is "no text".
const MAX_TIPS: usize = (16 << 16) - 1;

/// The hover texts of one SVG being drawn.
#[derive(Default)]
pub(super) struct Tags {
    tips: RefCell<Vec<String>>,
}

/// Tags when drawing the SVG, none when drawing the PNG.
pub(super) type Tagger<'a> = Option<&'a Tags>;

fn mark<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, rgb: (u8, u8, u8)) -> Res {
    area.draw_pixel((0, 0), &RGBColor(rgb.0, rgb.1, rgb.2))
        .map_err(err)
}

/// Opens a group of kind `kind` ([`SERIES`] or [`KEY`]) for series `style`.
fn open<DB: DrawingBackend>(
    t: Tagger,
    area: &DrawingArea<DB, Shift>,
    kind: u8,
    style: usize,
) -> Res {
    let i = style.min(0xFFFF);
    match t {
        Some(_) => mark(area, (kind, (i >> 8) as u8, (i & 255) as u8)),
        None => Ok(()),
    }
}

/// Opens the group of series `style`.
pub(super) fn series<DB: DrawingBackend>(
    t: Tagger,
    area: &DrawingArea<DB, Shift>,
    style: usize,
) -> Res {
    open(t, area, SERIES, style)
}

/// Opens the group of the legend entry of series `style`.
pub(super) fn key<DB: DrawingBackend>(
    t: Tagger,
    area: &DrawingArea<DB, Shift>,
    style: usize,
) -> Res {
    open(t, area, KEY, style)
}

/// Opens a group whose hover text is `text` (its first child is the `<title>`).
pub(super) fn tip<DB: DrawingBackend>(
    t: Tagger,
    area: &DrawingArea<DB, Shift>,
    text: impl FnOnce() -> String,
) -> Res {
    let Some(tags) = t else { return Ok(()) };
    let mut tips = tags.tips.borrow_mut();
    // Past the most that can be coded, a point gets an empty title (never a wrong one).
    let i = tips.len().min(MAX_TIPS);
    if i < MAX_TIPS {
        tips.push(text());
    }
    drop(tips);
    mark(
        area,
        (TIP | (i >> 16) as u8, (i >> 8) as u8, (i & 255) as u8),
    )
}

/// Closes the innermost group opened by [`series`], [`key`] or [`tip`].
pub(super) fn end<DB: DrawingBackend>(t: Tagger, area: &DrawingArea<DB, Shift>) -> Res {
    match t {
        Some(_) => mark(area, (END, 0, 0)),
        None => Ok(()),
    }
}

/// The mark's colour when `line` is one of ours: a 1×1 rectangle of a reserved colour.
fn decode(line: &str) -> Option<(u8, usize)> {
    let rest = line.strip_prefix("<rect ")?;
    if !rest.contains(" width=\"1\" height=\"1\" stroke=\"none\" opacity=\"1\" fill=\"#") {
        return None;
    }
    let hex = rest.rsplit("fill=\"#").next()?.get(..6)?;
    let v = u32::from_str_radix(hex, 16).ok()?;
    let (r, g, b) = ((v >> 16) as u8, (v >> 8) as u8 as usize, v as u8 as usize);
    match r {
        SERIES | KEY | END => Some((r, (g << 8) | b)),
        r if r & 0xF0 == TIP => Some((TIP, ((r as usize & 0x0F) << 16) | (g << 8) | b)),
        _ => None,
    }
}

/// The SVG with every mark replaced: a series' and a legend entry's group carry
/// `data-config="<label>"` (`class="series"` or `class="key"`) when `label` names the series;
/// a hover group starts with its `<title>`.
pub(super) fn finish(svg: &str, tags: &Tags, label: impl Fn(usize) -> Option<String>) -> String {
    let tips = tags.tips.borrow();
    let mut out = String::with_capacity(svg.len() + svg.len() / 8);
    for line in svg.split_inclusive('\n') {
        let Some((kind, i)) = decode(line) else {
            out.push_str(line);
            continue;
        };
        match kind {
            SERIES | KEY => {
                let class = if kind == SERIES { "series" } else { "key" };
                match label(i) {
                    Some(l) => out.push_str(&format!(
                        "<g class=\"{class}\" data-config=\"{}\">\n",
                        escape::html(&l)
                    )),
                    None => out.push_str(&format!("<g class=\"{class}\">\n")),
                }
            }
            END => out.push_str("</g>\n"),
            _ => out.push_str(&format!(
                "<g class=\"tip\"><title>{}</title>\n",
                tips.get(i).map_or(String::new(), |t| xml_lines(t))
            )),
        }
    }
    out
}

/// A hover text as XML text: its lines kept (each already made visible by
/// [`escape::chart`] where it came from a file), markup escaped.
fn xml_lines(t: &str) -> String {
    t.split('\n')
        .map(escape::html)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_become_groups_and_titles() {
        let tags = Tags::default();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (40, 40)).into_drawing_area();
            let t = Some(&tags);
            series(t, &root, 300).unwrap();
            root.draw(&Circle::new((5, 5), 2, RED.filled())).unwrap();
            tip(t, &root, || "a < b\n& \"c\"".into()).unwrap();
            root.draw(&Circle::new((9, 9), 2, RED.filled())).unwrap();
            end(t, &root).unwrap();
            end(t, &root).unwrap();
            key(t, &root, 1).unwrap();
            end(t, &root).unwrap();
            root.present().unwrap();
        }
        let out = finish(&svg, &tags, |s| (s == 300).then(|| "m \"x\"".to_string()));
        assert!(!out.contains("width=\"1\" height=\"1\""), "{out}");
        assert!(out.contains("<g class=\"series\" data-config=\"m &quot;x&quot;\">\n<circle"));
        assert!(
            out.contains("<g class=\"tip\"><title>a &lt; b\n&amp; &quot;c&quot;</title>\n<circle")
        );
        assert!(out.contains("<g class=\"key\">\n</g>"));
        assert_eq!(out.matches("<g ").count(), out.matches("</g>").count());
        // The PNG's drawing: no tags, nothing drawn.
        let mut plain = String::new();
        {
            let root = SVGBackend::with_string(&mut plain, (40, 40)).into_drawing_area();
            series(None, &root, 1).unwrap();
            end(None, &root).unwrap();
            root.present().unwrap();
        }
        assert!(!plain.contains("<rect"));
    }
}
