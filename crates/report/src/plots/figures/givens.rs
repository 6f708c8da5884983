//! The success rate against the share of givens (`success_vs_givens`), per grid size; a
//! family of one chart, apart because it alone reads the puzzles' givens.

use std::collections::BTreeMap;

use crate::plots::{Axis, Mark, Panel};

use super::common::{facet, facets, figure, Built, Data, Facet};

pub(super) fn success_vs_givens(d: &Data) -> Built {
    type Buckets = BTreeMap<i64, (usize, usize)>;
    let mut g: BTreeMap<Facet, BTreeMap<usize, Buckets>> = BTreeMap::new();
    for r in d.rows.iter().filter(|r| r.kind == "solve") {
        let cells = (r.order * r.order * r.order * r.order) as f64;
        let bucket = ((r.givens as f64 / cells) * 20.0).round() as i64 * 5;
        let e = g
            .entry((r.order, facet(r.order, &r.variant)))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .entry(bucket)
            .or_default();
        e.0 += r.success() as usize;
        e.1 += 1;
    }
    g.retain(|_, s| s.values().any(|b| b.len() >= 3));
    if g.is_empty() {
        return Err("the share of givens spans fewer than 3 buckets of 5 % at every grid size: no trend over givens to show".into());
    }
    let panels = facets(&g, |title, series| {
        let xs: Vec<f64> = series
            .iter()
            .flat_map(|(_, b)| b.keys().map(|&k| k as f64))
            .collect();
        let (lo, hi) = xs
            .iter()
            .fold((100.0f64, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
        let marks = series
            .iter()
            .map(|(style, b)| Mark::Line {
                style: *style,
                pts: b
                    .iter()
                    .map(|(&x, &(ok, n))| (x as f64, 100.0 * ok as f64 / n as f64))
                    .collect(),
                step: false,
            })
            .collect();
        Panel {
            title: title.to_string(),
            x: Axis::linear("givens (% of cells)", lo - 2.5, hi + 2.5),
            y: Axis::linear("runs solved (%)", 0.0, 104.0),
            marks,
        }
    });
    Ok(figure(
        d,
        "success_vs_givens",
        "Success rate against the share of givens",
        "Share of runs that ended with a verified answer, by the proportion of cells given (as Lewis draws it) in bins of 5 %, one panel per grid size where the givens vary over at least three bins.".into(),
        panels,
        (280.0, 260.0),
    ))
}
