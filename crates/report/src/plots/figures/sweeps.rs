//! One chart per swept parameter (time against its value, per grid size); apart because the
//! number of these charts comes from the data, not from a fixed list.

use std::collections::{BTreeMap, BTreeSet};

use crate::plots::{Axis, Figure, Key, Mark, Panel};
use sudoku_analysis::escape;
use sudoku_analysis::Trial;

use super::common::{facet, quartiles, Built, Data, WALL};

/// One chart per parameter that a method sweeps over numeric values with every other
/// parameter fixed: wall time against the value, one series per grid size.
pub(super) fn sweeps(d: &Data) -> Vec<(String, Built)> {
    let mut by_method: BTreeMap<&str, Vec<&Trial>> = BTreeMap::new();
    for r in d.rows {
        by_method.entry(&r.method).or_default().push(r);
    }
    let mut out = Vec::new();
    for (method, rs) in by_method {
        let parsed: Vec<BTreeMap<&str, &str>> = rs
            .iter()
            .map(|r| {
                r.params
                    .split_whitespace()
                    .filter_map(|kv| kv.split_once('='))
                    .collect()
            })
            .collect();
        let keys: BTreeSet<&str> = parsed.iter().flat_map(|m| m.keys().copied()).collect();
        for key in keys {
            let values: BTreeSet<&str> =
                parsed.iter().filter_map(|m| m.get(key).copied()).collect();
            if values.len() < 2 || values.iter().any(|v| v.parse::<f64>().is_err()) {
                continue;
            }
            // Every other parameter must be fixed for the sweep to mean something.
            let others: BTreeSet<Vec<(&str, &str)>> = parsed
                .iter()
                .map(|m| {
                    m.iter()
                        .filter(|(k, _)| **k != key)
                        .map(|(k, v)| (*k, *v))
                        .collect()
                })
                .collect();
            if others.len() != 1 {
                continue;
            }
            // order → value → wall times
            let mut series: BTreeMap<usize, BTreeMap<String, (f64, Vec<f64>)>> = BTreeMap::new();
            for (r, m) in rs.iter().zip(&parsed) {
                let Some(v) = m.get(key) else { continue };
                series
                    .entry(r.order)
                    .or_default()
                    .entry(v.to_string())
                    .or_insert((v.parse().unwrap_or(0.0), Vec::new()))
                    .1
                    .push(r.wall_ms);
            }
            let xs: Vec<f64> = series
                .values()
                .flat_map(|m| m.values().map(|p| p.0))
                .collect();
            let (lo, hi) = xs
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                    (a.min(x), b.max(x))
                });
            let pad = ((hi - lo) * 0.05).max(1e-9);
            let orders: Vec<usize> = series.keys().copied().collect();
            // One panel: the grid sizes of one sweep side by side.
            let mut marks = Vec::new();
            let mut all = Vec::new();
            for (style, o) in orders.iter().enumerate() {
                let mut pts: Vec<(f64, (f64, f64, f64))> = series[o]
                    .values()
                    .map(|(x, v)| (*x, quartiles(v)))
                    .collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                all.extend(pts.iter().flat_map(|p| [p.1 .0, p.1 .2]));
                marks.push(Mark::Bars {
                    style,
                    pts: pts.iter().map(|(x, q)| (*x, q.0, q.2)).collect(),
                });
                marks.push(Mark::Line {
                    style,
                    pts: pts.iter().map(|(x, q)| (*x, q.1)).collect(),
                    step: false,
                });
            }
            let panels = vec![Panel {
                title: String::new(),
                x: Axis::linear(
                    format!("{} (parameter value)", escape::chart(key)),
                    lo - pad,
                    hi + pad,
                ),
                y: Axis::log(WALL, all),
                marks,
            }];
            let keys = orders
                .iter()
                .enumerate()
                .map(|(i, o)| Key {
                    label: format!("{} {}", escape::chart(method), facet(*o, "")),
                    style: i,
                })
                .collect();
            let stem = crate::plots::sweep_stem(method, key);
            out.push((
                stem.clone(),
                Ok(Figure {
                    stem,
                    title: format!("{} against {}", escape::chart(method), escape::chart(key)),
                    caption: format!("Median wall time per run (line) and interquartile range (bars) of {} as {} varies, every other parameter fixed; one series per grid size (colours here are grid sizes, not configurations). Log scale.", escape::chart(method), escape::chart(key)),
                    cols: 1,
                    panel_h: 280.0,
                    keys,
                    panels,
                    configs: false,
                }),
            ));
        }
    }
    out
}
