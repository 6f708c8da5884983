//! The per-instance comparisons: each configuration's time relative to the best on each
//! puzzle (`profile`) and two configurations against each other (`scatter`); apart because both
//! pair runs by instance, with a failure counted as slower than any time.

use std::collections::{BTreeMap, BTreeSet};

use crate::plots::{Axis, Mark, Panel};
use sudoku_analysis::stats::sorted;
use sudoku_analysis::Name;

use super::common::{figure, Built, Data};

/// Median of a sample where `None` (no answer) counts as larger than any time: `None` when at
/// least half the runs failed.
fn median_or_fail(v: &[Option<f64>]) -> Option<f64> {
    let mut t: Vec<f64> = v.iter().map(|x| x.unwrap_or(f64::INFINITY)).collect();
    t.sort_by(f64::total_cmp);
    let n = t.len();
    if n == 0 {
        return None;
    }
    let m = if n % 2 == 1 {
        t[n / 2]
    } else {
        (t[n / 2 - 1] + t[n / 2]) / 2.0
    };
    m.is_finite().then_some(m)
}

/// An instance: variant and instance name.
type Instance = (Name, Name);

/// Per instance (variant and instance) and configuration: the median wall time over its trials
/// (`None`: no answer in at least half of them).
fn per_instance(d: &Data) -> BTreeMap<Instance, BTreeMap<usize, Option<f64>>> {
    let mut runs: BTreeMap<Instance, BTreeMap<usize, Vec<Option<f64>>>> = BTreeMap::new();
    for r in d.rows {
        runs.entry((r.variant.clone(), r.instance.clone()))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .push(r.success().then_some(r.wall_ms));
    }
    runs.into_iter()
        .map(|(k, m)| {
            (
                k,
                m.into_iter()
                    .map(|(c, v)| (c, median_or_fail(&v)))
                    .collect(),
            )
        })
        .collect()
}

pub(super) fn profile(d: &Data) -> Built {
    let per = per_instance(d);
    let all: BTreeSet<usize> = per.values().flat_map(|m| m.keys().copied()).collect();
    if all.len() < 2 {
        return Err("one configuration only: nothing to compare".into());
    }
    let common: Vec<&BTreeMap<usize, Option<f64>>> =
        per.values().filter(|m| m.len() == all.len()).collect();
    if common.len() < 2 {
        return Err(format!(
            "fewer than 2 instances were run by all {} configurations",
            all.len()
        ));
    }
    let p = common.len() as f64;
    // log2 of each configuration's ratio to the best on each instance (None: no answer).
    let mut ratios: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for m in &common {
        let best = m.values().flatten().copied().fold(f64::INFINITY, f64::min);
        for (&c, t) in m.iter() {
            let e = ratios.entry(c).or_default();
            if let Some(t) = t {
                e.push((t / best).log2().max(0.0));
            }
        }
    }
    let worst = ratios.values().flatten().copied().fold(0.0, f64::max);
    let right = (worst * 1.08).max(1.0);
    let cfgs: Vec<usize> = all.into_iter().collect();
    let marks = cfgs
        .iter()
        .map(|&c| {
            let v = sorted(ratios.get(&c).map_or(&[][..], |v| &v[..]));
            let mut pts = vec![(0.0, 0.0)];
            for (k, &r) in v.iter().enumerate() {
                pts.push((r, (k + 1) as f64 / p));
            }
            let last = v.len() as f64 / p;
            pts.push((right, last));
            Mark::Line {
                style: c,
                pts,
                step: true,
            }
        })
        .collect();
    let panels = vec![Panel {
        title: String::new(),
        x: Axis::linear("log₂ τ (ratio to fastest)", 0.0, right),
        y: Axis::linear("fraction of instances", 0.0, 1.02),
        marks,
    }];
    Ok(figure(
        d,
        "profile",
        "Performance profile (Dolan and Moré 2002)",
        format!(
            "Over the {} instances every configuration ran: the fraction on which a configuration's median wall time is within a factor τ of the fastest configuration's. At log₂ τ = 0, how often it is the fastest; the height at the right, how often it answers at all (no answer in half the trials or more counts as an infinite ratio). Ratios are to the best of all {} configurations.",
            common.len(),
            cfgs.len()
        ),
        panels,
        (280.0, 260.0),
    ))
}

pub(super) fn scatter(d: &Data) -> Built {
    let per = per_instance(d);
    // Successes and total median time: the flagship is the configuration with most instances
    // answered, then the fastest.
    let mut score: BTreeMap<usize, (usize, f64)> = BTreeMap::new();
    for m in per.values() {
        for (&c, t) in m {
            let e = score.entry(c).or_default();
            if let Some(t) = t {
                e.0 += 1;
                e.1 += t;
            }
        }
    }
    if score.len() < 2 {
        return Err("one configuration only: nothing to compare".into());
    }
    let mut ranked: Vec<(usize, (usize, f64))> = score.into_iter().collect();
    ranked.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.1 .1.total_cmp(&b.1 .1)));
    let flag = ranked[0].0;
    const PAIRS: usize = 4;
    let others: Vec<usize> = ranked[1..]
        .iter()
        .map(|r| r.0)
        .filter(|&c| {
            per.values()
                .filter(|m| m.contains_key(&c) && m.contains_key(&flag))
                .count()
                >= 2
        })
        .take(PAIRS)
        .collect();
    if others.is_empty() {
        return Err("no configuration shares 2 or more instances with another".into());
    }
    let fname = d.configs[flag].clone();
    let panels = others
        .iter()
        .map(|&c| {
            // Both axes over the times of this pair, so the diagonal is the 45° line.
            let times: Vec<f64> = per
                .values()
                .filter_map(|m| Some([*m.get(&flag)?, *m.get(&c)?]))
                .flatten()
                .flatten()
                .collect();
            let span = || times.iter().copied().chain(times.iter().map(|v| v * 4.0));
            // The panel names the other configuration, so a long name has the panel's width.
            let x = Axis::log(format!("{fname} (ms)"), span());
            let y = Axis::log("other configuration (ms)", span());
            let edge = 10f64.powf(x.hi - 0.12);
            let lo = 10f64.powf(x.lo);
            let (mut ok, mut out) = (Vec::new(), Vec::new());
            for m in per.values() {
                if let (Some(a), Some(b)) = (m.get(&flag), m.get(&c)) {
                    let p = (a.unwrap_or(edge), b.unwrap_or(edge));
                    if a.is_some() && b.is_some() {
                        ok.push(p);
                    } else {
                        out.push(p);
                    }
                }
            }
            Panel {
                title: format!("{} (y)", d.configs[c]),
                x,
                y,
                marks: vec![
                    Mark::Guide {
                        pts: vec![(lo, lo), (edge * 1.5, edge * 1.5)],
                    },
                    Mark::Points {
                        style: c,
                        pts: ok,
                        hollow: false,
                    },
                    Mark::Points {
                        style: c,
                        pts: out,
                        hollow: true,
                    },
                ],
            }
        })
        .collect();
    let names: Vec<&str> = others.iter().map(|&c| d.configs[c].as_str()).collect();
    Ok(figure(
        d,
        "scatter",
        "Per-instance wall time against the flagship",
        format!(
            "Each point is one instance: median wall time over its trials of {fname} (x; the configuration that answered the most instances, then the fastest) against {} (y, one panel each, titled by its name: the next {} by the same ranking{}). Below the diagonal the other configuration is faster. Hollow markers at the top or right edge: no answer in half the trials or more. Log scales.",
            names.join(", "),
            names.len(),
            if ranked.len() - 1 > names.len() { format!("; {} others not shown", ranked.len() - 1 - names.len()) } else { String::new() }
        ),
        panels,
        (300.0, 300.0),
    ))
    .map(|mut f| {
        // An axis titled by a configuration's name needs the figure's width.
        f.cols = 1;
        f
    })
}
