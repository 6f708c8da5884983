//! The time charts of every run, solved or not: median time against order (`time_vs_order`)
//! and its distribution per grid size and configuration (`boxplot`); apart from the charts
//! that keep only solved runs (`solved.rs`) or pair runs by instance (`instances.rs`).

use std::collections::{BTreeMap, BTreeSet};

use crate::plots::{Axis, BoxStats, Mark, Panel};
use sudoku_analysis::escape;
use sudoku_analysis::stats::{quantile_sorted, sorted};

use super::common::{by_facet, facets, figure, median_band, quartiles, Built, Data, Facet, WALL};

pub(super) fn time_vs_order(d: &Data) -> Built {
    let mut g: BTreeMap<Facet, BTreeMap<usize, BTreeMap<usize, Vec<f64>>>> = BTreeMap::new();
    for r in d.rows {
        g.entry((0, escape::chart(&r.variant)))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .entry(r.order)
            .or_default()
            .push(r.wall_ms);
    }
    g.retain(|_, s| {
        s.values()
            .flat_map(|m| m.keys())
            .collect::<BTreeSet<_>>()
            .len()
            >= 2
    });
    if g.is_empty() {
        return Err("every variant was run at one order only: no trend over orders to show".into());
    }
    let panels = facets(&g, |title, series| {
        let orders: BTreeSet<usize> = series.iter().flat_map(|(_, m)| m.keys().copied()).collect();
        let x = Axis::categories(
            "order n (grid n²×n²)",
            orders.iter().map(|&o| (o as f64, o.to_string())).collect(),
        );
        let y = Axis::log(
            WALL,
            series
                .iter()
                .flat_map(|(_, m)| m.values().flatten().copied()),
        );
        let mut marks = Vec::new();
        for &(style, m) in series {
            let q: Vec<(f64, (f64, f64, f64))> =
                m.iter().map(|(&o, v)| (o as f64, quartiles(v))).collect();
            median_band(style, &q, &mut marks);
        }
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    Ok(figure(
        d,
        "time_vs_order",
        "Wall time against order",
        "Median wall time per run (line) and interquartile range (band) of each configuration at each order; runs that hit a limit count at the time they stopped. Log scale.".into(),
        panels,
        (300.0, 250.0),
    ))
}

pub(super) fn boxplot(d: &Data) -> Built {
    if d.rows.is_empty() {
        return Err("no trials".into());
    }
    let g = by_facet(d);
    // Every facet's panel is as tall as the one with the most configurations, a row each.
    let most = g.values().map(BTreeMap::len).max().unwrap_or(1);
    let panels = facets(&g, |title, series| {
        let x = Axis::log(
            WALL,
            series.iter().flat_map(|(_, v)| v.iter().map(|r| r.wall_ms)),
        );
        // Horizontal boxes, named on the y axis, the first configuration at the top.
        let n = series.len();
        let at = |i: usize| (n - 1 - i) as f64;
        let y = Axis::categories(
            "",
            series
                .iter()
                .enumerate()
                .map(|(i, (style, _))| (at(i), d.configs[*style].clone()))
                .collect(),
        );
        let marks = series
            .iter()
            .enumerate()
            .map(|(i, (style, rs))| {
                let v = sorted(&rs.iter().map(|r| r.wall_ms).collect::<Vec<_>>());
                let q = |p| quantile_sorted(&v, p).unwrap_or(f64::NAN);
                let (q1, med, q3) = (q(0.25), q(0.5), q(0.75));
                let fence = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
                let inside: Vec<f64> = v
                    .iter()
                    .copied()
                    .filter(|t| (fence.0..=fence.1).contains(t))
                    .collect();
                Mark::Box {
                    style: *style,
                    x: at(i),
                    b: BoxStats {
                        n: v.len(),
                        lo: inside.first().copied().unwrap_or(q1),
                        q1,
                        med,
                        q3,
                        hi: inside.last().copied().unwrap_or(q3),
                        outliers: v
                            .iter()
                            .copied()
                            .filter(|t| !(fence.0..=fence.1).contains(t))
                            .collect(),
                    },
                }
            })
            .collect();
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    let h = 70.0 + 24.0 * most as f64;
    let mut fig = figure(
        d,
        "boxplot",
        "Wall time per run, by order",
        "One panel per grid size (and variant), one box per configuration: from the first to the third quartile, thick line at the median, whiskers to the furthest run within 1.5 interquartile ranges, hollow markers beyond. All runs, those that hit a limit at the time they stopped. Log scale.".into(),
        panels,
        (h, h),
    );
    // Names take room across: one panel a row.
    fig.cols = 1;
    Ok(fig)
}
