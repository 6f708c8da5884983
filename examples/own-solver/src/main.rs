//! Runs an experiment file that names `mrv` (this crate's solver) beside built-in methods,
//! then checks its results: every trial ran, none is wrong or failed, every answer of `mrv`
//! was verified, and on every puzzle `mrv` and each other method end the same way.
//!
//! Usage, from the checkout's top folder (the experiment's paths start there):
//!
//! ```text
//! cargo run --release --manifest-path examples/own-solver/Cargo.toml -- \
//!     [EXPERIMENT (default examples/own-solver/experiment.toml)] [--out DIR]
//! ```
//!
//! Exit status 0 when the checks pass, 1 when one fails, 2 when the run could not be made.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use sudoku_runner::results::{read_rows, Row, TrialStatus};
use sudoku_runner::{run, Event, Experiment, Registry, RunOptions};

fn main() -> ExitCode {
    let mut experiment = PathBuf::from("examples/own-solver/experiment.toml");
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = args.next().map(PathBuf::from),
            _ => experiment = PathBuf::from(a),
        }
    }
    match run_and_check(&experiment, out) {
        Ok(problems) if problems.is_empty() => ExitCode::SUCCESS,
        Ok(problems) => {
            for p in problems {
                eprintln!("check failed: {p}");
            }
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: {}", sudoku_runner::chain_text(&e));
            ExitCode::from(2)
        }
    }
}

/// Runs the experiment with `mrv` registered and returns what its results get wrong.
fn run_and_check(
    experiment: &std::path::Path,
    out: Option<PathBuf>,
) -> Result<Vec<String>, sudoku_runner::RunError> {
    let mut registry = Registry::standard();
    for m in own_solver::methods() {
        registry.register(m)?;
    }
    let exp = Experiment::load(experiment)?;
    let opts = RunOptions {
        out,
        fresh: true,
        no_plots: true,
        ..RunOptions::default()
    };
    // What the run says, on stderr; the trials' own lines are left out.
    let say = |e: Event<'_>| match e {
        Event::Planned(size) => eprintln!(
            "{} configurations × {} instances → {} tasks",
            size.configs, size.instances, size.mine
        ),
        Event::Note(n) => eprintln!("note: {n}"),
        Event::Warning(w) => eprintln!("warning: {w}"),
        _ => {}
    };
    let summary = run(&exp, &registry, &opts, &say)?;
    let rows: Vec<Row> = read_rows(&summary.out.join("trials.csv"))?;
    let mut problems = Vec::new();
    if !summary.clean() {
        problems.push(format!(
            "{} wrong answers and {} errors (trials.csv in {} says which)",
            summary.trials.wrong,
            summary.trials.errors,
            summary.out.display()
        ));
    }
    if rows.len() != summary.trials.planned {
        problems.push(format!(
            "{} rows for {} planned trials",
            rows.len(),
            summary.trials.planned
        ));
    }
    let mine: Vec<&Row> = rows
        .iter()
        .filter(|r| r.method == own_solver::NAME)
        .collect();
    if mine.is_empty() {
        problems.push(format!("no trial of `{}`", own_solver::NAME));
    }
    for r in &mine {
        if !r.status.is_success() || (r.status == TrialStatus::Solved && r.verified != Some(true)) {
            problems.push(format!(
                "{} trial {}: {} {}",
                r.instance, r.trial, r.status, r.message
            ));
        }
    }
    // Each instance ends one way for every method (solved, or shown to have no solution).
    let mut ends: BTreeMap<&str, BTreeMap<&str, TrialStatus>> = BTreeMap::new();
    for r in &rows {
        ends.entry(&r.instance)
            .or_default()
            .insert(&r.method, r.status);
    }
    for (instance, by_method) in &ends {
        let first = by_method.values().next();
        if by_method.values().any(|s| Some(s) != first) {
            problems.push(format!("{instance}: the methods disagree: {by_method:?}"));
        }
    }
    for method in ends
        .values()
        .flat_map(|m| m.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let of: Vec<&Row> = rows.iter().filter(|r| r.method == *method).collect();
        let solved = of.iter().filter(|r| r.status.is_success()).count();
        let mut ms: Vec<f64> = of.iter().map(|r| r.wall_ms).collect();
        ms.sort_by(f64::total_cmp);
        println!(
            "{method}: {solved}/{} trials answered and verified, median {:.3} ms",
            of.len(),
            ms.get(ms.len() / 2).copied().unwrap_or(0.0)
        );
    }
    println!(
        "{} instances, {} trials in {}: {}",
        ends.len(),
        rows.len(),
        summary.out.display(),
        if problems.is_empty() {
            "every check passed"
        } else {
            "some checks failed"
        }
    );
    Ok(problems)
}
