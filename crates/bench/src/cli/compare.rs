//! `compare`: two results folders of one experiment (before and after a change, two machines,
//! two versions of a method), B against the baseline A: per configuration and instance group the
//! ratios of medians and of PAR-2 with bootstrap intervals, a paired test, and the regressions
//! beyond a threshold ([`sudoku_analysis::baseline`]).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::Args;

use sudoku_analysis::baseline::{self, Side};
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{read_rows, Row};
use sudoku_report::{Report, Section};

use crate::cli::findings::{clocked, ClockArg};
use crate::cli::Failure;
use crate::io::Out;
use sudoku_runner::outputs::check_meta_experiment;
use sudoku_runner::results::write_atomic;

#[derive(Args)]
pub struct CompareArgs {
    /// The baseline results folder (A).
    pub a: PathBuf,
    /// The results folder compared with it (B); ratios are B over A.
    pub b: PathBuf,
    /// A ratio whose whole 95 % interval lies above 1 + THRESHOLD is a regression (0.1: 10 %).
    #[arg(long, value_name = "T", default_value_t = baseline::THRESHOLD, allow_negative_numbers = true)]
    pub threshold: f64,
    /// Write compare.md and compare.html into this folder instead of printing Markdown.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Exit 1 when a line is a regression (for CI).
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Which clock the ratios use: `harness` (`wall_ms`) or `own` (`solve_ms`, each solver's
    /// search alone, where every answered trial of a group has it; see `findings --clock`).
    #[arg(long, value_enum, default_value_t = ClockArg::Harness)]
    pub clock: ClockArg,
}

/// A results folder's rows and meta.json.
fn load(dir: &Path) -> anyhow::Result<(Vec<Row>, Option<RunMeta>)> {
    let trials = dir.join(files::TRIALS);
    if !trials.exists() {
        bail!(
            "{} not found: `compare` needs two results folders written by `run`",
            trials.display()
        );
    }
    check_meta_experiment(dir)?;
    let rows: Vec<Row> = read_rows(&trials)?;
    if rows.is_empty() {
        bail!(
            "{}: no trial rows (the file is empty or only a header): nothing to compare",
            trials.display()
        );
    }
    Ok((rows, RunMeta::read(dir)?))
}

/// Compares B with A; prints Markdown, or writes compare.md and compare.html.
pub fn compare(a: &CompareArgs) -> Result<(), Failure> {
    if !(a.threshold.is_finite() && (0.0..10.0).contains(&a.threshold)) {
        return Err(anyhow!(
            "--threshold {}: give a share from 0 to 10 (0.1 is 10 %)",
            a.threshold
        )
        .into());
    }
    let (rows_a, meta_a) = load(&a.a)?;
    let (rows_b, meta_b) = load(&a.b)?;
    let (rows_a, on_clock) = clocked(rows_a, a.clock);
    let (rows_b, on_clock_b) = clocked(rows_b, a.clock);
    let (name_a, name_b) = (a.a.display().to_string(), a.b.display().to_string());
    let c = baseline::compare_runs(
        &Side {
            name: &name_a,
            rows: &rows_a,
            meta: meta_a.as_ref(),
        },
        &Side {
            name: &name_b,
            rows: &rows_b,
            meta: meta_b.as_ref(),
        },
        a.threshold,
    )?;
    let mut md = baseline::markdown(&c);
    if a.clock == ClockArg::Own {
        md = format!("_A:{on_clock}_\n\n_B:{on_clock_b}_\n\n{md}");
    }
    match &a.out {
        None => {
            let mut stdout = Out::new();
            stdout.text(&md)?;
            stdout.finish()?;
        }
        Some(out) => {
            std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
            let page = Report {
                title: format!("Compare: {}", c.experiment),
                lead: "Run B against the baseline A: ratios are B over A, above 1 is slower."
                    .into(),
                sections: vec![Section::new("compare", "B against A", baseline::html(&c))],
            };
            let mut stdout = Out::new();
            for (name, text) in [("compare.md", md), ("compare.html", page.to_html())] {
                let path = out.join(name);
                write_atomic(&path, &text)?;
                stdout.line(path.display())?;
            }
            stdout.finish()?;
            eprintln!("{}", baseline::summary(&c));
        }
    }
    if a.fail_on_regression && c.regressed() {
        return Err(Failure::Check);
    }
    Ok(())
}
