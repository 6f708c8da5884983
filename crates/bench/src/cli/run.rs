//! `run`: an experiment file → trials.csv, summaries, tables, charts and meta.json.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::Args;
use sudoku_analysis::escape::visible;
use sudoku_runner::duet::Slowdown;
use sudoku_runner::{Experiment, Registry, RunOptions, Shard};

use crate::cli::{whole, Failure};
use crate::io::{shown, Out};
use crate::progress::Console;

#[derive(Args, Default)]
pub struct RunArgs {
    /// Experiment file (TOML), e.g. scripts/experiments/default.toml.
    pub experiment: PathBuf,
    /// Trials per (configuration, instance), overriding the file (at least 1).
    #[arg(long, value_parser = whole(1, None::<u32>), allow_negative_numbers = true)]
    pub trials: Option<u32>,
    /// Time limit per trial in seconds, overriding the file (positive, at most 1e9).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Output folder (default: results/<name>, or results/<name>/shard-K-of-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// A fast smoke run: the file's [quick] settings (1 trial, 3 instances per source, ≤ 2 s),
    /// each trial run once (no best-of-R repetitions).
    #[arg(long)]
    pub quick: bool,
    /// Continue an interrupted run: skip trials already in trials.csv. Refused when the
    /// settings differ from those recorded in the folder's meta.json (trials, limits, seed,
    /// methods and parameters, instances): use --fresh or another --out then.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard earlier results in the output folder and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Run only every N-th task, starting at the K-th (1-based), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Worker threads for thread-safe methods (CBC solves never overlap).
    #[arg(long, default_value_t = 1, value_parser = whole(1, None::<usize>), allow_negative_numbers = true)]
    pub jobs: usize,
    /// Skip what is drawn: the charts, cd.svg and report.html (`plot` draws them later).
    #[arg(long)]
    pub no_plots: bool,
    /// A duet: the old build's sudoku-bench binary (e.g. built in a git worktree of the old
    /// commit) runs every trial too, right before or after this build on the same instance
    /// (which goes first alternates), from the same seed, both through their own `serve`, every
    /// answer verified. Its rows go to OUT/baseline/, and OUT/compare.md and compare.html
    /// compare the two builds on the methods' own clocks, as `compare` does (docs/report.md).
    /// Solve and count experiments, one trial at a time, no shard.
    #[arg(long, value_name = "PATH")]
    pub baseline: Option<PathBuf>,
    /// TEST ONLY (never for real measurements): make the configuration LABEL PERCENT % slower
    /// inside its own clock (a busy wait after each call), to check that a comparison finds a
    /// known slowdown; `baseline:LABEL=PERCENT` slows a duet's old build instead. Repeatable.
    /// meta.json, every row it touches (`test_slowdown` in `extra`), findings.md, report.html
    /// and compare.md say so.
    #[arg(long, value_name = "[baseline:]LABEL=PERCENT")]
    pub test_slowdown: Vec<Slowdown>,
}

/// Runs an experiment and writes everything under its output folder.
pub fn run(a: &RunArgs, registry: &Registry) -> Result<(), Failure> {
    let exp = Experiment::load(&a.experiment)?;
    let opts = RunOptions {
        out: a.out.clone(),
        jobs: a.jobs,
        shard: a.shard.as_deref().map(str::parse::<Shard>).transpose()?,
        resume: a.resume,
        fresh: a.fresh,
        quick: a.quick,
        trials: a.trials,
        time_limit: a.time_limit,
        no_plots: a.no_plots,
        command: None,
        baseline: a.baseline.clone(),
        this_binary: std::env::current_exe().ok(),
        test_slowdown: a.test_slowdown.clone(),
    };
    let summary = sudoku_runner::run(&exp, registry, &opts, &Console::default())?;
    let report = &summary.trials;
    let mut stdout = Out::new();
    stdout.line(format_args!(
        "{}: {} trials run, {} definitive answers, {} wrong, {} errors",
        visible(&summary.experiment),
        report.ran,
        report.succeeded,
        report.wrong,
        report.errors
    ))?;
    if let Some(d) = &summary.duet {
        let b = &d.baseline;
        stdout.line(format_args!(
            "baseline (the old build, through its serve): {} trials run, {} definitive answers, {} wrong, {} errors, in {}",
            b.ran,
            b.succeeded,
            b.wrong,
            b.errors,
            shown(&d.baseline_out)
        ))?;
    }
    stdout.line(format_args!("results in {}:", shown(&summary.out)))?;
    for f in &summary.files {
        stdout.line(format_args!("  {}", shown(f)))?;
    }
    stdout.finish()?;
    if let Some(d) = &summary.duet {
        eprintln!("{}", d.verdict);
    }
    if !a.test_slowdown.is_empty() {
        let list: Vec<String> = a.test_slowdown.iter().map(Slowdown::to_string).collect();
        eprintln!(
            "WARNING: TEST ONLY: this run slowed {} on purpose (--test-slowdown): its times are not the methods'",
            list.join(", ")
        );
    }
    if report.wrong > 0 {
        say!(
            "WARNING: {} trials returned wrong answers (status `wrong` in trials.csv)",
            report.wrong
        );
    }
    if report.errors > 0 {
        say!(
            "WARNING: {} trials ended in `error`: the method could not run or answer (the `message` column of trials.csv says why)",
            report.errors
        );
    }
    let (wrong, errors) = summary.duet.as_ref().map_or((0, 0), |d| {
        if d.baseline.wrong > 0 || d.baseline.errors > 0 {
            eprintln!(
                "WARNING: the old build: {} wrong answers, {} trials in `error` (its trials.csv in {} says which)",
                d.baseline.wrong,
                d.baseline.errors,
                shown(&d.baseline_out)
            );
        }
        (d.baseline.wrong, d.baseline.errors)
    });
    Failure::of_trials(report.wrong + wrong, report.errors + errors)
}

/// Where the default experiment lives: `scripts/experiments/default.toml` of the checkout in
/// the current folder. Only there: its dataset paths are relative to the checkout, and its
/// results go to `results/default/` beside them, so a binary started elsewhere (an installed
/// one) must not write into whatever tree it was built in.
pub fn default_experiment() -> Result<PathBuf> {
    let rel = Path::new("scripts/experiments/default.toml");
    if rel.is_file() {
        return Ok(rel.to_path_buf());
    }
    let here = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| "the current folder".to_string());
    bail!("no subcommand, and {here} is not a sudoku-bench checkout (no scripts/experiments/default.toml): the default experiment runs from the checkout's top folder; elsewhere give a command (`sudoku-bench --help`), e.g. `run EXPERIMENT.toml`")
}
