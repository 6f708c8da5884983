//! Committed runs remade: their summaries (summary.csv, summary.md, summary.tex, stats.md,
//! stats.tex) come out byte for byte as committed when made again, by the code `plot` uses,
//! from a copy of their trials.csv, traces.csv and meta.json.

use std::path::{Path, PathBuf};

use sudoku_analysis::{RunOutputs, TrialStatus};

/// Runs of each shape: with traces and recorded settings (the reference run); settings with
/// time limits and thousands of rows, best of 3 (the public sets); a meta.json from before
/// settings were recorded, of generators (caps from the rows); a reproduction's run of another
/// kind of method.
const RUNS: [&str; 5] = [
    "default-reference",
    "prop-sets",
    "baselines-sets",
    "gen-grids",
    "repro-teles/004-logic-lp",
];

/// The summaries a run writes besides the charts.
const SUMMARIES: [&str; 5] = [
    "summary.csv",
    "summary.md",
    "summary.tex",
    "stats.md",
    "stats.tex",
];

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results")
}

#[test]
fn committed_summaries_are_remade_byte_for_byte() {
    for run in RUNS {
        let from = results().join(run);
        let dir = tempfile::tempdir().unwrap();
        for f in ["trials.csv", "traces.csv", "meta.json"] {
            if from.join(f).exists() {
                std::fs::copy(from.join(f), dir.path().join(f)).unwrap();
            }
        }
        let outputs = RunOutputs::read(dir.path(), None).unwrap();
        assert!(!outputs.trials.is_empty(), "{run}");
        let written = outputs.write_summaries(dir.path()).unwrap();
        assert_eq!(written.len(), SUMMARIES.len());
        for f in SUMMARIES {
            // Most runs commit no LaTeX (results/README.md); those that do are compared.
            if f.ends_with(".tex") && !from.join(f).exists() {
                continue;
            }
            let made = std::fs::read(dir.path().join(f)).unwrap();
            let committed = std::fs::read(from.join(f)).unwrap();
            assert!(
                made == committed,
                "{run}/{f} differs from the committed file:\n{}",
                String::from_utf8_lossy(&made)
            );
        }
    }
}

#[test]
fn the_reference_run_is_sound() {
    let dir = results().join("default-reference");
    let run = RunOutputs::read(&dir, None).unwrap();
    assert!(!run.trials.is_empty() && !run.traces.is_empty());
    assert!(run.trials.iter().all(|r| r.status != TrialStatus::Wrong));
    let rows = RunOutputs::read_rows(&dir).unwrap();
    assert_eq!(rows.len(), run.trials.len());
    assert!(rows.iter().all(|r| r.repeats == 1));
    let settings = run.meta.and_then(|m| m.settings).unwrap();
    assert!(!settings.configs.is_empty());
}
