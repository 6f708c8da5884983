//! The fuzz targets' bodies, one function per parser, so the binaries under `src/bin/` stay one
//! line each. Each function must not panic on any input; where a parse succeeds it also checks
//! what the parser promises (writing a puzzle back and reading it gives the same grid).

use std::path::Path;

use sudoku_analysis::{compare, parse_rows, summary, tables, Row, RunOutputs, TraceRow, Trials};
use sudoku_core::format::{self, ParseOptions};
use sudoku_core::Order;

/// Puzzle text (line format and grid blocks, mixed), as `solve`, `check` and experiment
/// instance files read it.
pub fn puzzle_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let entries = format::parse_entries(text, "fuzz", ParseOptions::default());
    // With a required order too (what `check --order` and generated sets use), picked by the
    // input so both paths are explored.
    let n = 2 + data.first().map_or(0, |b| b % 4) as usize;
    if let Ok(order) = Order::new(n) {
        let _ = format::parse_entries(text, "fuzz", ParseOptions { order: Some(order) });
    }
    for entry in entries.into_iter().flatten() {
        let grid = &entry.grid;
        // The two writers read back to the same cells.
        for written in [format::to_text(grid), format::to_block(grid)] {
            let back = format::parse_str(&written, "written")
                .unwrap_or_else(|e| panic!("{e}: reading back\n{written}"));
            assert_eq!(back.len(), 1, "{written}");
            assert_eq!(back[0].grid.cells(), grid.cells(), "{written}");
        }
        let _ = format::pretty(grid);
    }
}

/// An experiment file (TOML), as `run` reads it, and the parameter grids it expands.
pub fn experiment_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(exp) = sudoku_experiment::parse(text) {
        for (i, m) in exp.methods.iter().enumerate() {
            let grid = sudoku_experiment::expand_params(&m.params, &format!("method[{i}]"))
                .expect("parse already expanded every grid");
            assert!(grid.len() <= sudoku_experiment::MAX_CONFIGURATIONS);
            let _ = m.budget.over(&exp.budget).budget();
        }
        for s in &exp.instances {
            if let Some(c) = &s.carve {
                let _ = c.describe();
            }
        }
    }
}

/// `trials.csv` and `traces.csv`, as `plot`, `merge` and `--resume` read them, and the
/// summaries `plot` makes from the rows (Markdown, LaTeX).
pub fn trial_csv(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.csv");
    let _ = parse_rows::<TraceRow>(text.to_string(), path, false);
    // Resuming reads the same text with a torn last line left out.
    let _ = parse_rows::<Row>(text.to_string(), path, true);
    if let Ok(rows) = parse_rows::<Row>(text.to_string(), path, false) {
        for r in &rows {
            let _ = (r.key(), r.success());
        }
        let trials = Trials::of_rows(&rows);
        let s = summary::summarise(&trials);
        let _ = summary::markdown("fuzz", &s);
        let _ = summary::latex("fuzz", &s);
        // The performance tables and the statistics `plot` and `report` make from the same
        // rows, with no time limits known (a CSV without its meta.json).
        let caps = tables::config_caps(&trials, &tables::TimeLimits::default());
        let perf = tables::perf_rows(&trials, &caps);
        let _ = tables::performance_markdown(&perf);
        let _ = tables::performance_latex(&perf);
        let _ = tables::performance_html(&perf);
        let comparisons = compare::compare(&trials, &caps);
        let _ = compare::markdown("fuzz", &comparisons);
        let _ = compare::latex("fuzz", &comparisons);
        let _ = compare::html(&comparisons);
    }
}

/// `trials.csv` as `plot` reads it, then everything `plot` makes from rows that pass the row
/// checks: summaries, tables, statistics, every chart (SVG and PNG) and report.html, written
/// into a temporary folder that is removed after each input. A hang here (an axis whose tick
/// search never ends) is what the 1 s timeout of the fuzzer catches.
pub fn trial_csv_plot(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rows) = parse_rows::<Row>(text.to_string(), Path::new("fuzz.csv"), false) else {
        return;
    };
    if rows.is_empty() {
        return;
    }
    // One folder per process (parallel fuzzers do not share it), emptied after each input.
    let dir = std::env::temp_dir().join(format!("sudoku-fuzz-plot-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let run = RunOutputs::new("fuzz", rows, Vec::new(), None);
    let written = sudoku_report::write(&run, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = written {
        // Drawing rows that passed the checks must not fail, except for the disk.
        assert!(
            matches!(
                e,
                sudoku_report::ReportError::Analysis(sudoku_analysis::AnalysisError::Io { .. })
            ),
            "{e}"
        );
    }
}

/// The papers' values file (`datasets/seeds/paper_values.csv`), as `repro` reads it, and the
/// comparison tables made from the items it parses (with no rows: every item `not yet`).
pub fn paper_values(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(values) = sudoku_repro::parse_paper_values(text, Path::new("fuzz.csv")) {
        let comparisons = sudoku_repro::compare(&values, &Default::default(), &Default::default());
        let _ = sudoku_repro::markdown("fuzz", &comparisons);
        let _ = sudoku_repro::latex("fuzz", &comparisons);
    }
}
