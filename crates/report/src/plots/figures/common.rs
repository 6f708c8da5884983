//! What every chart builder shares: the rows with each configuration's colour index
//! ([`Data`]), facets (order and variant), the figure frame with its legend, and quartile
//! bands; apart from the families, which each use some of it.

use std::collections::{BTreeMap, BTreeSet};

use crate::plots::{Figure, Key, Mark, Panel, PALETTE};
use sudoku_analysis::escape;
use sudoku_analysis::meta::config_label;
use sudoku_analysis::stats::{quantile_sorted, sorted};
use sudoku_analysis::{TraceRow, Trial};

/// Why a chart is not drawn.
pub(super) type Built = Result<Figure, String>;
/// The rows, with each configuration's index in the sorted list of configurations.
pub(super) struct Data<'a> {
    pub(super) rows: &'a [Trial],
    pub(super) traces: &'a [TraceRow],
    pub(super) configs: Vec<String>,
}

/// A configuration's name as drawn: method and parameters come from files, so control
/// characters are made visible (the SVG writer escapes markup).
fn config_name(method: &str, params: &str) -> String {
    escape::chart(&config_label(method, params))
}

/// A facet's key: a number to sort by (the order), and its title.
pub(super) type Facet = (usize, String);

/// A facet: order and variant, as `9×9` or `9×9 diagonal`.
pub(super) fn facet(order: usize, variant: &str) -> String {
    let n = order * order;
    if variant == "classic" || variant.is_empty() {
        format!("{n}×{n}")
    } else {
        format!("{n}×{n} {}", escape::chart(variant))
    }
}

impl<'a> Data<'a> {
    pub(super) fn new(rows: &'a [Trial], traces: &'a [TraceRow]) -> Data<'a> {
        // Each (method, params) once, then named: a set collected from a million names holds
        // them all in a list first.
        let mut pairs: BTreeSet<(&str, &str)> = BTreeSet::new();
        for r in rows {
            pairs.insert((&r.method, &r.params));
        }
        for t in traces {
            pairs.insert((&t.method, &t.params));
        }
        let configs: BTreeSet<String> = pairs
            .into_iter()
            .map(|(method, params)| config_name(method, params))
            .collect();
        Data {
            rows,
            traces,
            configs: configs.into_iter().collect(),
        }
    }

    pub(super) fn style(&self, method: &str, params: &str) -> usize {
        let name = config_name(method, params);
        self.configs.binary_search(&name).unwrap_or(0)
    }

    pub(super) fn cfg(&self, r: &Trial) -> usize {
        self.style(&r.method, &r.params)
    }

    pub(super) fn keys(&self, styles: impl IntoIterator<Item = usize>) -> Vec<Key> {
        styles
            .into_iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|i| Key {
                label: self.configs[i].clone(),
                style: i,
            })
            .collect()
    }
}

/// One panel per facet, each with every series of its facet (configuration → data): methods
/// a reader compares are side by side in one panel, never split over several; `panel` draws
/// one facet.
pub(super) fn facets<T>(
    groups: &BTreeMap<Facet, BTreeMap<usize, T>>,
    mut panel: impl FnMut(&str, &[(usize, &T)]) -> Panel,
) -> Vec<Panel> {
    groups
        .iter()
        .map(|((_, title), series)| {
            let items: Vec<(usize, &T)> = series.iter().map(|(k, v)| (*k, v)).collect();
            panel(title, &items)
        })
        .collect()
}

pub(super) fn figure(
    d: &Data,
    stem: &str,
    title: &str,
    caption: String,
    panels: Vec<Panel>,
    panel_h: (f64, f64),
) -> Figure {
    let styles = panels
        .iter()
        .flat_map(|p| p.marks.iter().filter_map(Mark::style));
    let keys = d.keys(styles);
    // Two panels a row, unless a panel holds more series than the palette has colours: then
    // one a row, twice as wide, so the lines stay apart.
    let crowded = panels.iter().any(|p| p.series() > PALETTE.len());
    let cols = if panels.len() > 1 && !crowded { 2 } else { 1 };
    Figure {
        stem: stem.into(),
        title: title.into(),
        caption,
        cols,
        panel_h: if cols == 1 { panel_h.0 } else { panel_h.1 },
        keys,
        panels,
        configs: true,
    }
}

/// Median and quartiles (type 7) of a sample.
pub(super) fn quartiles(v: &[f64]) -> (f64, f64, f64) {
    let s = sorted(v);
    let q = |p| quantile_sorted(&s, p).unwrap_or(f64::NAN);
    (q(0.25), q(0.5), q(0.75))
}

/// A median line over an interquartile band, from `(x, (q1, median, q3))`.
pub(super) fn median_band(style: usize, q: &[(f64, (f64, f64, f64))], marks: &mut Vec<Mark>) {
    marks.push(Mark::Band {
        style,
        upper: q.iter().map(|(x, q)| (*x, q.2)).collect(),
        lower: q.iter().map(|(x, q)| (*x, q.0)).collect(),
    });
    marks.push(Mark::Line {
        style,
        pts: q.iter().map(|(x, q)| (*x, q.1)).collect(),
        step: false,
    });
}

pub(super) const WALL: &str = "wall time (ms)";

/// Runs grouped by facet (order, variant) and configuration.
pub(super) fn by_facet<'a>(d: &'a Data) -> BTreeMap<Facet, BTreeMap<usize, Vec<&'a Trial>>> {
    let mut g: BTreeMap<Facet, BTreeMap<usize, Vec<&Trial>>> = BTreeMap::new();
    for r in d.rows {
        g.entry((r.order, facet(r.order, &r.variant)))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .push(r);
    }
    g
}
