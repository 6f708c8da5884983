//! What differs between the two runs besides the times (configurations, instances, seeds,
//! time limits, trials, interleaving, machines), and each run's one-line description from its
//! meta.json: the comparison's notes, apart from the numbers `compute.rs` makes.

use std::collections::{BTreeMap, BTreeSet};

use super::{PerInstance, Side};
use crate::meta::RunMeta;
use crate::number::num;
use crate::tables::SetKey;

/// `commit abc, 2026-11-23, AMD EPYC (2 cores)` from a meta.json.
pub(super) fn describe(meta: Option<&RunMeta>) -> String {
    match meta {
        None => "no meta.json".into(),
        Some(m) => format!(
            "commit {}{}, {}, {} ({} cores)",
            m.commit,
            if m.dirty == Some(true) { "+dirty" } else { "" },
            m.started.get(..10).unwrap_or(&m.started),
            m.cpu,
            m.cores
        ),
    }
}

/// What differs between the runs besides the times.
pub(super) fn notes(a: &Side, b: &Side, va: &PerInstance, vb: &PerInstance) -> Vec<String> {
    let mut out = Vec::new();
    let configs = |v: &PerInstance| -> BTreeSet<String> { v.keys().map(|k| k.1.clone()).collect() };
    let (ca, cb) = (configs(va), configs(vb));
    let list = |s: Vec<&String>| {
        s.iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let only_a: Vec<&String> = ca.difference(&cb).collect();
    let only_b: Vec<&String> = cb.difference(&ca).collect();
    if !only_a.is_empty() {
        out.push(format!("Only in A (not compared): {}.", list(only_a)));
    }
    if !only_b.is_empty() {
        out.push(format!("Only in B (not compared): {}.", list(only_b)));
    }
    let instances = |v: &PerInstance| -> BTreeSet<(SetKey, String)> {
        v.iter()
            .flat_map(|(k, m)| m.keys().map(move |i| (k.0.clone(), i.clone())))
            .collect()
    };
    let (ia, ib) = (instances(va), instances(vb));
    let both = ia.intersection(&ib).count();
    if both != ia.len() || both != ib.len() {
        out.push(format!(
            "The runs share {both} instances (A ran {}, B {}): only shared ones are compared.",
            ia.len(),
            ib.len()
        ));
    }
    let settings = |s: &Side| s.meta.and_then(|m| m.settings.clone());
    if let (Some(sa), Some(sb)) = (settings(a), settings(b)) {
        if sa.seed != sb.seed {
            out.push(format!(
                "The seeds differ: {} in A, {} in B.",
                sa.seed, sb.seed
            ));
        }
        let by_label =
            |s: &crate::meta::RunSettings| -> BTreeMap<String, crate::meta::ConfigSettings> {
                s.configs
                    .iter()
                    .map(|c| (c.label.clone(), c.clone()))
                    .collect()
            };
        let (la, lb) = (by_label(&sa), by_label(&sb));
        for (label, x) in &la {
            let Some(y) = lb.get(label) else { continue };
            let secs = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{} s", num(t)));
            if x.time_limit != y.time_limit {
                out.push(format!(
                    "`{label}`: time limit {} in A, {} in B (its PAR-2 penalty differs with it).",
                    secs(x.time_limit),
                    secs(y.time_limit)
                ));
            }
            if x.trials != y.trials || x.repeat != y.repeat {
                out.push(format!(
                    "`{label}`: {} trials × {} repeats in A, {} × {} in B.",
                    x.trials, x.repeat, y.trials, y.repeat
                ));
            }
        }
    }
    // A run that times each configuration in its own stretch of time confounds the two (a
    // duet runs each trial by both builds together, whatever the order of its trials).
    let duet = [a, b]
        .iter()
        .any(|s| s.meta.is_some_and(|m| m.duet.is_some()));
    let sequential: Vec<&str> = [a, b]
        .iter()
        .zip(["A", "B"])
        .filter(|(s, _)| {
            !duet
                && s.meta.is_some_and(|m| {
                    !m.experiment_text.is_empty() && !interleaves(&m.experiment_text)
                })
        })
        .map(|(_, n)| n)
        .collect();
    if !sequential.is_empty() {
        out.push(format!(
            "{} ran configuration by configuration (`interleave` is not set): a change in the machine's load while one configuration ran reads as a change of that configuration. A regression that is real comes back when B is run again; with `interleave = true` a burst of load falls on every configuration of a few instances alike.",
            if sequential.len() == 2 { "Both runs".to_string() } else { format!("Run {}", sequential[0]) }
        ));
    }
    for (s, name) in [(a, "A"), (b, "B")] {
        if let Some(m) = s.meta.filter(|m| !m.test_slowdown.is_empty()) {
            out.push(format!(
                "TEST ONLY: run {name} made configurations slower on purpose (`{}`): its times of them are not the methods' own.",
                m.test_slowdown.join("`, `")
            ));
        }
    }
    if let Some(d) = [a, b]
        .iter()
        .find_map(|s| s.meta.and_then(|m| m.duet.as_ref()))
    {
        out.push(format!(
            "A duet: the old build `{}` ({}) and this one ran each trial one right after the other, from the same seed, which went first alternating, each through its own `serve` ({}). On the methods' own clocks (`--clock own`, `solve_ms`) both time the same call, `serve`'s clock around it; the pipe is on neither.",
            d.baseline, d.baseline_version, d.placement
        ));
    }
    if let (Some(ma), Some(mb)) = (a.meta, b.meta) {
        if ma.cpu != mb.cpu || ma.cores != mb.cores {
            out.push(format!(
                "The machines differ: {} ({} cores) in A, {} ({} cores) in B.",
                ma.cpu, ma.cores, mb.cpu, mb.cores
            ));
        }
    }
    out
}

/// Whether an experiment file's text sets `interleave = true` at its top level.
fn interleaves(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .any(|(k, v)| {
            k.trim() == "interleave" && v.split('#').next().map(str::trim) == Some("true")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_is_read_at_the_top_of_the_experiment_text() {
        // The note on runs that do not interleave, read from the experiment's text.
        assert!(interleaves(
            "name = \"x\"\ninterleave = true # compare\n[budget]\n"
        ));
        assert!(!interleaves("name = \"x\"\n[budget]\ninterleave = true\n"));
        assert!(!interleaves("interleave = false\n"));
    }
}
