//! Drawing figures to files: each chart into its SVG (tagged for the report's script) and its
//! PNG at twice the size, the figure's panels and its legend, and the files of a chart the data
//! no longer supports removed. Apart from what a figure is (`mod.rs`) and from drawing inside
//! one panel (`panel.rs`).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use sudoku_analysis::{write_whole, write_with};
use sudoku_analysis::{TraceRow, Trial};

use super::panel::{draw_marker, draw_panel};
use super::{
    colour, ensure_font, err, figures, layout, tag, Chart, Drawn, Figure, Figures, Fitted, Layout,
    Skipped, Style,
};
use crate::ReportError;

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
    // Drawn into memory, encoded and written as every file is (whole or not at all): the
    // backend's own file writing would leave half a PNG on a full disk.
    let (w, h) = l2.size;
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, l2.size).into_drawing_area();
        draw_figure(&root, fig, &l2, &s2, None).map_err(|e| chart_error(&png, "drawing", e))?;
        root.present()
            .map_err(|e| chart_error(&png, "drawing", e))?;
    }
    write_with(&png, |out| {
        use image::ImageEncoder;
        image::codecs::png::PngEncoder::new(out)
            .write_image(&pixels, w, h, image::ColorType::Rgb8)
            .map_err(std::io::Error::other)
    })?;
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

fn chart_error(path: &Path, what: &str, e: impl std::fmt::Display) -> ReportError {
    ReportError::Chart {
        path: path.to_path_buf(),
        message: format!("{what}: {e}"),
    }
}
