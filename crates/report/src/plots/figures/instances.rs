//! The per-instance comparisons: each configuration's time relative to the best on each
//! puzzle (`profile`) and two configurations against each other (`scatter`); apart because both
//! pair runs by instance, with a failure counted as slower than any time.

use std::collections::{BTreeMap, BTreeSet};

use crate::plots::{Axis, Mark, Panel};
use sudoku_analysis::stats::sorted;

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

/// One instance's median wall time (`None`: no answer in at least half its trials) for each
/// configuration that ran it, by configuration index: a short list, sorted, read as a map.
struct Medians(Vec<(usize, Option<f64>)>);

impl Medians {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn iter(&self) -> impl Iterator<Item = (&usize, &Option<f64>)> {
        self.0.iter().map(|(c, t)| (c, t))
    }

    fn keys(&self) -> impl Iterator<Item = &usize> {
        self.0.iter().map(|(c, _)| c)
    }

    fn values(&self) -> impl Iterator<Item = &Option<f64>> {
        self.0.iter().map(|(_, t)| t)
    }

    fn get(&self, c: &usize) -> Option<&Option<f64>> {
        self.0
            .binary_search_by_key(c, |(k, _)| *k)
            .ok()
            .map(|i| &self.0[i].1)
    }

    fn contains_key(&self, c: &usize) -> bool {
        self.get(c).is_some()
    }
}

impl<'a> IntoIterator for &'a Medians {
    type Item = (&'a usize, &'a Option<f64>);
    type IntoIter = Box<dyn Iterator<Item = Self::Item> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// Per instance (variant and instance, in their order) and configuration: the median wall time
/// over its trials. The trials are grouped by sorting their indices (8 bytes a trial), not in
/// a map per instance, which took about 500 bytes an instance.
fn per_instance(d: &Data) -> Vec<Medians> {
    // Each configuration's index once per (method, params) met, not once per trial.
    let mut styles: BTreeMap<(&str, &str), u32> = BTreeMap::new();
    let mut order: Vec<(u32, u32)> = d
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let c = *styles
                .entry((&r.method, &r.params))
                .or_insert_with(|| d.cfg(r) as u32);
            (i as u32, c)
        })
        .collect();
    let instance = |&(i, _): &(u32, u32)| {
        let r = &d.rows[i as usize];
        (&r.variant, &r.instance)
    };
    order.sort_unstable_by(|a, b| instance(a).cmp(&instance(b)).then(a.1.cmp(&b.1)));
    order
        .chunk_by(|a, b| instance(a) == instance(b))
        .map(|trials| {
            let medians = trials
                .chunk_by(|a, b| a.1 == b.1)
                .map(|runs| {
                    let times: Vec<Option<f64>> = runs
                        .iter()
                        .map(|&(i, _)| {
                            let r = &d.rows[i as usize];
                            r.success().then_some(r.wall_ms)
                        })
                        .collect();
                    (runs[0].1 as usize, median_or_fail(&times))
                })
                .collect();
            Medians(medians)
        })
        .collect()
}

pub(super) fn profile(d: &Data) -> Built {
    let per = per_instance(d);
    let all: BTreeSet<usize> = per.iter().flat_map(|m| m.keys().copied()).collect();
    if all.len() < 2 {
        return Err("one configuration only: nothing to compare".into());
    }
    let common: Vec<&Medians> = per.iter().filter(|m| m.len() == all.len()).collect();
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
    for m in per.iter() {
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
            per.iter()
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
                .iter()
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
            for m in per.iter() {
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
