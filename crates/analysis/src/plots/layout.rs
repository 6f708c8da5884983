//! Where the panels and the legend of a figure go: pure arithmetic on pixel rectangles, so tests
//! can check that the legend never covers a plotting area without looking at pixels.

/// A rectangle in pixels, `(x, y)` its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Rect {
    /// Do the two rectangles share any pixel?
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// Is `o` wholly inside this rectangle?
    pub fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x
            && o.y >= self.y
            && o.x + o.w <= self.x + self.w
            && o.y + o.h <= self.y + self.h
    }
}

/// Sizes of one rendering. Every length is given at scale 1 (the SVG, about 3.3 in wide in a
/// paper column) and multiplied by `scale` (the PNG is drawn at scale 2 for print resolution).
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Multiplier of every length.
    pub scale: f64,
}

impl Style {
    /// Figure width at scale 1: one column of a two-column paper at about 160 px per inch.
    pub const WIDTH: u32 = 520;
    /// Tick labels and legend text (px at scale 1): about 7 pt when the figure is 3.3 in wide.
    pub const TEXT: f64 = 15.0;
    /// Axis titles and panel titles.
    pub const TITLE: f64 = 16.0;

    /// A length scaled.
    pub fn px(&self, x: f64) -> u32 {
        (x * self.scale).round() as u32
    }

    /// A font size scaled.
    pub fn font(&self, x: f64) -> f64 {
        x * self.scale
    }
}

/// The width a text of `chars` characters takes at font size `px`: DejaVu Sans averages about
/// 0.55 em per character; 0.62 leaves room for wide letters.
pub fn text_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.62
}

/// A figure's rectangles: panels in a grid, the legend in its own band below them.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The whole figure, in pixels.
    pub size: (u32, u32),
    /// One rectangle per panel, row by row.
    pub panels: Vec<Rect>,
    /// The legend (zero height when there is none).
    pub legend: Rect,
    /// Legend entries per line.
    pub legend_cols: usize,
    /// Lines of the legend.
    pub legend_rows: usize,
    /// One legend entry's rectangle: `(width, height)`.
    pub legend_cell: (u32, u32),
}

impl Layout {
    /// The rectangle of legend entry `i`.
    pub fn legend_entry(&self, i: usize) -> Rect {
        let (cw, ch) = self.legend_cell;
        let pad = (self.legend.w - cw * self.legend_cols as u32) / 2;
        Rect {
            x: self.legend.x + pad + (i % self.legend_cols) as u32 * cw,
            y: self.legend.y + (i / self.legend_cols) as u32 * ch,
            w: cw,
            h: ch,
        }
    }
}

/// Width of a legend entry's swatch and the gap after it, at scale 1.
pub const SWATCH: f64 = 30.0;

/// The layout of `panels` panels in `cols` columns, each `panel_h` high at scale 1, with a
/// legend of `labels` below: as many entries per line as fit the width (labels longer than the
/// width are shortened by the caller with [`fit_label`]).
pub fn layout(panels: usize, cols: usize, panel_h: f64, labels: &[String], s: &Style) -> Layout {
    let width = s.px(f64::from(Style::WIDTH));
    let cols = cols.clamp(1, panels.max(1));
    let pw = width / cols as u32;
    let ph = s.px(panel_h);
    let rows = panels.div_ceil(cols);
    let rects = (0..panels)
        .map(|i| Rect {
            x: (i % cols) as u32 * pw,
            y: (i / cols) as u32 * ph,
            w: pw,
            h: ph,
        })
        .collect();
    let top = rows as u32 * ph;
    let widest = labels
        .iter()
        .map(|l| text_width(l, s.font(Style::TEXT)))
        .fold(0.0, f64::max);
    let cell_w = (widest + f64::from(s.px(SWATCH + 12.0))).ceil() as u32;
    let margin = s.px(8.0);
    let usable = width - 2 * margin;
    let legend_cols = if labels.is_empty() {
        1
    } else {
        ((usable / cell_w.max(1)) as usize).clamp(1, labels.len())
    };
    let cell_w = cell_w.min(usable);
    let legend_rows = labels.len().div_ceil(legend_cols);
    let cell_h = s.px(Style::TEXT * 1.45);
    let legend_h = if labels.is_empty() {
        0
    } else {
        legend_rows as u32 * cell_h + 2 * margin
    };
    Layout {
        size: (width, top + legend_h),
        panels: rects,
        legend: Rect {
            x: margin,
            y: top + margin.min(legend_h),
            w: usable,
            h: legend_h.saturating_sub(2 * margin),
        },
        legend_cols,
        legend_rows,
        legend_cell: (cell_w, cell_h),
    }
}

/// `label` shortened with `…` so it fits a legend line of the figure's width (at any scale,
/// since text and width scale together).
pub fn fit_label(label: &str) -> String {
    let room = f64::from(Style::WIDTH) - 2.0 * 8.0 - SWATCH - 12.0;
    let max = (room / (Style::TEXT * 0.62)).floor() as usize;
    if label.chars().count() <= max {
        return label.to_string();
    }
    let mut t: String = label.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_is_below_every_panel_and_holds_every_entry() {
        for scale in [1.0, 2.0] {
            let s = Style { scale };
            for n in [0, 1, 5, 13] {
                let labels: Vec<String> = (0..n)
                    .map(|i| fit_label(&format!("method-{i} param={}", "x".repeat(i * 7))))
                    .collect();
                for (panels, cols) in [(1, 1), (3, 2), (6, 2)] {
                    let l = layout(panels, cols, 260.0, &labels, &s);
                    let fig = Rect {
                        x: 0,
                        y: 0,
                        w: l.size.0,
                        h: l.size.1,
                    };
                    assert_eq!(l.panels.len(), panels);
                    for p in &l.panels {
                        assert!(fig.contains(p), "{p:?} outside {fig:?}");
                        assert!(
                            !p.intersects(&l.legend),
                            "{p:?} meets legend {:?}",
                            l.legend
                        );
                    }
                    for (i, label) in labels.iter().enumerate() {
                        let e = l.legend_entry(i);
                        assert!(
                            l.legend.contains(&e),
                            "entry {i} {e:?} outside {:?}",
                            l.legend
                        );
                        let text = text_width(label, s.font(Style::TEXT));
                        assert!(f64::from(e.w) >= text + f64::from(s.px(SWATCH)), "{i}");
                    }
                    if n == 0 {
                        assert_eq!(l.legend.h, 0);
                    }
                }
            }
        }
    }

    #[test]
    fn rectangles() {
        let a = Rect {
            x: 0,
            y: 0,
            w: 10,
            h: 10,
        };
        assert!(a.intersects(&Rect {
            x: 9,
            y: 9,
            w: 5,
            h: 5
        }));
        assert!(!a.intersects(&Rect {
            x: 10,
            y: 0,
            w: 5,
            h: 5
        }));
        assert!(a.contains(&Rect {
            x: 2,
            y: 2,
            w: 8,
            h: 8
        }));
        assert!(!a.contains(&Rect {
            x: 2,
            y: 2,
            w: 9,
            h: 8
        }));
    }
}
