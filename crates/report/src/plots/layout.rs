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
    /// One legend line's cell: `(width, height)`.
    pub legend_cell: (u32, u32),
    /// Each entry's first line and number of lines (one column when a label wraps).
    pub legend_lines: Vec<(usize, usize)>,
}

impl Layout {
    /// The rectangle of legend entry `i`.
    pub fn legend_entry(&self, i: usize) -> Rect {
        let (cw, ch) = self.legend_cell;
        let pad = (self.legend.w - cw * self.legend_cols as u32) / 2;
        let (row, lines) = if self.legend_cols == 1 {
            self.legend_lines[i]
        } else {
            (i / self.legend_cols, 1)
        };
        Rect {
            x: self.legend.x + pad + (i % self.legend_cols) as u32 * cw,
            y: self.legend.y + row as u32 * ch,
            w: cw,
            h: lines as u32 * ch,
        }
    }
}

/// Width of a legend entry's swatch and the gap after it, at scale 1.
pub const SWATCH: f64 = 30.0;

/// The layout of `panels` panels in `cols` columns, each `panel_h` high at scale 1, with a
/// legend of `labels` (each already wrapped into lines by [`wrap_label`]) below: as many
/// entries per line as fit the width, one column when a label takes several lines.
pub fn layout(
    panels: usize,
    cols: usize,
    panel_h: f64,
    labels: &[Vec<String>],
    s: &Style,
) -> Layout {
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
        .flatten()
        .map(|l| text_width(l, s.font(Style::TEXT)))
        .fold(0.0, f64::max);
    let cell_w = (widest + f64::from(s.px(SWATCH + 12.0))).ceil() as u32;
    let margin = s.px(8.0);
    let usable = width - 2 * margin;
    let wrapped = labels.iter().any(|l| l.len() > 1);
    let legend_cols = if labels.is_empty() || wrapped {
        1
    } else {
        ((usable / cell_w.max(1)) as usize).clamp(1, labels.len())
    };
    let cell_w = cell_w.min(usable);
    let mut legend_lines = Vec::with_capacity(labels.len());
    let mut line = 0;
    for l in labels {
        legend_lines.push((line, l.len().max(1)));
        line += l.len().max(1);
    }
    let legend_rows = if legend_cols == 1 {
        line
    } else {
        labels.len().div_ceil(legend_cols)
    };
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
        legend_lines,
    }
}

/// The most characters of a legend line (at any scale, since text and width scale together).
fn legend_chars() -> usize {
    let room = f64::from(Style::WIDTH) - 2.0 * 8.0 - SWATCH - 12.0;
    (room / (Style::TEXT * 0.62)).floor() as usize
}

/// `label` in lines that fit a legend line of the figure's width, broken at spaces where it
/// can be: a long label is wrapped, never cut, so two configurations that differ at the end of
/// their parameters stay apart.
pub fn wrap_label(label: &str) -> Vec<String> {
    let max = legend_chars();
    let mut lines = Vec::new();
    let mut rest: Vec<char> = label.chars().collect();
    while rest.len() > max {
        let cut = rest[..=max]
            .iter()
            .rposition(|&c| c == ' ')
            .filter(|&i| i > 0)
            .unwrap_or(max);
        lines.push(rest[..cut].iter().collect::<String>());
        let skip = usize::from(rest.get(cut) == Some(&' '));
        rest.drain(..cut + skip);
    }
    lines.push(rest.into_iter().collect());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_is_below_every_panel_and_holds_every_entry() {
        for scale in [1.0, 2.0] {
            let s = Style { scale };
            for n in [0, 1, 5, 13] {
                let labels: Vec<Vec<String>> = (0..n)
                    .map(|i| wrap_label(&format!("method-{i} param={}", "x".repeat(i * 7))))
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
                        for line in label {
                            let text = text_width(line, s.font(Style::TEXT));
                            assert!(f64::from(e.w) >= text + f64::from(s.px(SWATCH)), "{i}");
                        }
                        assert_eq!(e.h, label.len() as u32 * l.legend_cell.1);
                        if i > 0 {
                            let before = l.legend_entry(i - 1);
                            assert!(!before.intersects(&e), "entries {i} and {} overlap", i - 1);
                        }
                    }
                    if n == 0 {
                        assert_eq!(l.legend.h, 0);
                    }
                }
            }
        }
    }

    #[test]
    fn long_labels_wrap_at_spaces_and_keep_every_character() {
        let l = "ilp objective=weighted search=cbc cuts=gomory,mir,probing presolve=on threads=1";
        let lines = wrap_label(l);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|x| x.chars().count() <= legend_chars()));
        assert_eq!(lines.join(" "), l);
        let word = "x".repeat(120);
        assert_eq!(wrap_label(&word).concat(), word);
        assert_eq!(wrap_label("prop"), ["prop"]);
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
