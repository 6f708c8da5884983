//! Committed runs remade: their summaries (summary.csv, summary.md, summary.tex, stats.md,
//! stats.tex) come out byte for byte as committed when made again, by the code `plot` uses,
//! from a copy of their trials.csv, traces.csv and meta.json.

use std::path::{Path, PathBuf};

use sudoku_analysis::{read_rows, write_rows, Row, RunOutputs, TrialStatus};

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
    // Its traces.csv is not committed (results/ stays under its size limit): trials only.
    assert!(!run.trials.is_empty());
    assert!(run.trials.iter().all(|r| r.status != TrialStatus::Wrong));
    let rows = RunOutputs::read_rows(&dir).unwrap();
    assert_eq!(rows.len(), run.trials.len());
    assert!(rows.iter().all(|r| r.repeats == 1));
    let settings = run.meta.and_then(|m| m.settings).unwrap();
    assert!(!settings.configs.is_empty());
}

/// Every committed trials.csv is read and written back byte for byte by the row schema, a
/// kind's own columns (logic-lp's) through their typed value. A file of an older version's
/// columns is compared in its own: the columns it lacks, which today's rows add, are left out
/// of what is written before comparing.
#[test]
fn committed_trials_are_written_back_byte_for_byte() {
    let mut files = Vec::new();
    let mut dirs = vec![results()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.file_name().is_some_and(|n| n == "trials.csv") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 10, "{files:?}");
    let mut kind_rows = 0;
    for from in files {
        let rows: Vec<Row> = read_rows(&from).unwrap();
        kind_rows += rows.iter().filter(|r| r.kind_columns.is_some()).count();
        let dir = tempfile::tempdir().unwrap();
        let to = dir.path().join("trials.csv");
        write_rows(&to, &rows).unwrap();
        let committed = std::fs::read_to_string(&from).unwrap();
        assert!(
            in_columns_of(&std::fs::read_to_string(&to).unwrap(), &committed) == committed,
            "{} is not written back as committed",
            from.display()
        );
    }
    assert!(kind_rows > 0, "no committed row has a kind's own columns");
}

/// The CSV `text` with only the columns of `like`'s header, which must be in the same order.
fn in_columns_of(text: &str, like: &str) -> String {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().clone();
    let wanted = csv::Reader::from_reader(like.as_bytes())
        .headers()
        .unwrap()
        .clone();
    let at: Vec<usize> = wanted
        .iter()
        .map(|c| header.iter().position(|h| h == c).unwrap())
        .collect();
    assert!(
        at.windows(2).all(|p| p[0] < p[1]),
        "{wanted:?} in {header:?}"
    );
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&wanted).unwrap();
    for record in r.records() {
        let record = record.unwrap();
        w.write_record(at.iter().map(|&i| &record[i])).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}
