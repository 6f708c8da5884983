//! The charts from traces.csv: best cost over time (`convergence`) and the expected run time
//! to reach each cost (`ert`); apart because only these read the traces.

use std::collections::BTreeMap;

use crate::plots::{Axis, Mark, Panel};

use super::common::{facets, figure, median_band, quartiles, Built, Data, Facet};

/// Traces per facet (order), configuration and run (task): `(elapsed ms, best cost)` in order.
type Runs = BTreeMap<Facet, BTreeMap<usize, BTreeMap<usize, Vec<(f64, u64)>>>>;

fn trace_runs(d: &Data) -> Runs {
    let mut g: Runs = BTreeMap::new();
    for t in d.traces {
        let n = t.order * t.order;
        g.entry((t.order, format!("{n}×{n}")))
            .or_default()
            .entry(d.style(&t.method, &t.params))
            .or_default()
            .entry(t.task)
            .or_default()
            .push((t.elapsed_ms, t.best_cost));
    }
    g.into_iter()
        .map(|(k, mut v)| {
            for runs in v.values_mut() {
                for pts in runs.values_mut() {
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                }
            }
            (k, v)
        })
        .collect()
}

const NO_TRACES: &str = "no traces.csv rows (only metaheuristics run with trace=true write them)";

pub(super) fn convergence(d: &Data) -> Built {
    let g = trace_runs(d);
    if g.is_empty() {
        return Err(NO_TRACES.into());
    }
    let panels = facets(&g, |title, series| {
        let times = series
            .iter()
            .flat_map(|(_, r)| r.values().flatten().map(|p| p.0));
        let x = Axis::log("time (ms)", times.clone());
        let top = series
            .iter()
            .flat_map(|(_, r)| r.values().flatten().map(|p| p.1))
            .max()
            .unwrap_or(1);
        let y = Axis::linear("best cost (digits)", 0.0, top as f64 * 1.05 + 0.5);
        let mut marks = Vec::new();
        for &(style, runs) in series {
            let lo = runs
                .values()
                .flatten()
                .map(|p| p.0)
                .filter(|t| *t > 0.0)
                .fold(f64::INFINITY, f64::min);
            let hi = runs.values().flatten().map(|p| p.0).fold(0.0, f64::max);
            if !lo.is_finite() || hi <= 0.0 {
                continue;
            }
            let steps = 40;
            let grid: Vec<f64> = (0..=steps)
                .map(|i| lo * (hi / lo).max(1.0).powf(i as f64 / steps as f64))
                .collect();
            let q: Vec<(f64, (f64, f64, f64))> = grid
                .iter()
                .map(|&t| {
                    let at: Vec<f64> = runs
                        .values()
                        .filter_map(|pts| {
                            let first = pts.first()?;
                            let last = pts.iter().take_while(|p| p.0 <= t).last().unwrap_or(first);
                            Some(last.1 as f64)
                        })
                        .collect();
                    (t, quartiles(&at))
                })
                .collect();
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
        "convergence",
        "Convergence: best cost against time",
        "Best cost reached so far (digits missing from rows and columns; 0 is a solution) against time, median (line) and interquartile band over all traced runs of a configuration at a grid size; a run counts at its last cost after it stops. Log time scale.".into(),
        panels,
        (280.0, 260.0),
    ))
}

/// Targets of the fixed-target chart: 0, 1, 2, 5, 10, 20, 50, … up to `top`.
fn targets(top: u64) -> Vec<u64> {
    let mut t = vec![0];
    let mut base = 1;
    'outer: loop {
        for m in [1, 2, 5] {
            if base * m > top {
                break 'outer;
            }
            t.push(base * m);
        }
        base *= 10;
    }
    t.reverse();
    t
}

pub(super) fn ert(d: &Data) -> Built {
    let g = trace_runs(d);
    if g.is_empty() {
        return Err(NO_TRACES.into());
    }
    let wall: BTreeMap<usize, f64> = d
        .rows
        .iter()
        .map(|r| (r.task as usize, r.wall_ms))
        .collect();
    let top = g
        .values()
        .flat_map(|s| {
            s.values()
                .flat_map(|r| r.values().filter_map(|p| p.first().map(|x| x.1)))
        })
        .max()
        .unwrap_or(0);
    let ts = targets(top);
    let labels: Vec<(f64, String)> = ts
        .iter()
        .enumerate()
        .map(|(i, t)| (i as f64, t.to_string()))
        .collect();
    let panels = facets(&g, |title, series| {
        let mut marks = Vec::new();
        let mut all = Vec::new();
        for &(style, runs) in series {
            let pts: Vec<(f64, f64)> = ts
                .iter()
                .enumerate()
                .filter_map(|(i, &target)| {
                    let (mut total, mut hits) = (0.0, 0usize);
                    for (task, pts) in runs {
                        let end = wall
                            .get(task)
                            .copied()
                            .unwrap_or_else(|| pts.last().map_or(0.0, |p| p.0));
                        match pts.iter().find(|p| p.1 <= target) {
                            Some(p) => {
                                total += p.0;
                                hits += 1;
                            }
                            None => total += end,
                        }
                    }
                    (hits > 0).then(|| (i as f64, total / hits as f64))
                })
                .collect();
            all.extend(pts.iter().map(|p| p.1));
            marks.push(Mark::Line {
                style,
                pts,
                step: false,
            });
        }
        Panel {
            title: title.to_string(),
            x: Axis::categories("target cost (digits)", labels.clone()),
            y: Axis::log("ERT (ms)", all),
            marks,
        }
    });
    Ok(figure(
        d,
        "ert",
        "Expected running time to reach a target cost",
        "Fixed-target view: for each target cost (right: harder, 0 = solved), ERT as COCO and IOHprofiler define it, the summed time of all traced runs (a run that reached the target counts until it did, one that did not its whole wall time) divided by the number that reached it. A missing point: no run reached that target. Log scale.".into(),
        panels,
        (280.0, 260.0),
    ))
}
