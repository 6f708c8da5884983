//! The command line: one file per command, each parsing its flags into typed values and running
//! a short pipeline (options → inputs → methods from the registry → outputs). Flags are parsed
//! here and nowhere else.

use anyhow::{anyhow, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_core::limits::time_limit;
use sudoku_core::{Budget, Params, Variant};

use crate::experiment::Kind;
use crate::registry::Registry;
use crate::runner::kind::{capability, KindSettings, TrialMethod};

pub mod check;
pub mod compare;
pub mod convert;
pub mod explain;
pub mod generate;
pub mod list;
pub mod merge;
pub mod plot;
pub mod report;
pub mod repro;
pub mod run;
pub mod show;
pub mod solve;

#[derive(Parser)]
#[command(
    name = "sudoku-bench",
    version,
    about = "Compare exact and metaheuristic Sudoku methods of any order: solve, generate, run experiments, plot.",
    long_about = "Compare exact and metaheuristic Sudoku methods of any order.\n\nWith no subcommand, runs (or resumes) the default experiment, scripts/experiments/default.toml, and prints where its CSV, tables and charts are."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check puzzles for contradictory givens, and solutions against their puzzles.
    Check(check::CheckArgs),
    /// Pretty-print puzzles with block separators.
    Show(show::ShowArgs),
    /// Convert puzzles between the line and grid-block formats.
    Convert(convert::ConvertArgs),
    /// Solve, count or relax every puzzle of a file with one method.
    Solve(solve::SolveArgs),
    /// Generate full grids or puzzles.
    Generate(generate::GenerateArgs),
    /// List methods, generators, their parameters, and the papers `repro` reproduces.
    List(list::ListArgs),
    /// Print every step of the rule solver on each puzzle (`--json` for machines).
    Explain(explain::ExplainArgs),
    /// Rate each puzzle: hardest rule needed, steps, score and level.
    Rate(explain::RateArgs),
    /// Run an experiment file: trials.csv, summaries, tables and charts.
    Run(run::RunArgs),
    /// Redraw summaries and charts of a results folder from its CSV.
    Plot(plot::PlotArgs),
    /// Write a results folder's self-contained report.html (tables, charts) from its CSV.
    Report(report::ReportArgs),
    /// Merge results folders (shards) and re-summarise.
    Merge(merge::MergeArgs),
    /// Compare two results folders of one experiment (B against the baseline A): ratios with
    /// intervals, a paired test, regressions beyond a threshold.
    Compare(compare::CompareArgs),
    /// Reproduce a paper (unicamp-ilp, jump, takano, raggi, teles, lewis, all): its experiments,
    /// then the paper's values beside ours (comparison.md).
    Repro(repro::ReproArgs),
}

impl Cli {
    /// Runs the command (with none: the default experiment, resumed).
    pub fn dispatch(self, registry: &Registry) -> Result<(), Failure> {
        match self.command {
            Some(Command::Check(a)) => check::check(&a),
            Some(Command::Show(a)) => show::show(&a),
            Some(Command::Convert(a)) => convert::convert(&a),
            Some(Command::Solve(a)) => solve::solve(&a, registry),
            Some(Command::Generate(a)) => generate::generate(&a, registry),
            Some(Command::List(a)) => list::list(&a, registry),
            Some(Command::Explain(a)) => explain::explain(&a),
            Some(Command::Rate(a)) => explain::rate(&a),
            Some(Command::Run(a)) => run::run(&a, registry),
            Some(Command::Plot(a)) => plot::plot(&a),
            Some(Command::Report(a)) => report::report(&a),
            Some(Command::Merge(a)) => merge::merge(&a),
            Some(Command::Compare(a)) => compare::compare(&a),
            Some(Command::Repro(a)) => repro::repro(&a, registry),
            None => run::default_experiment()
                .map_err(Failure::from)
                .and_then(|experiment| {
                    // The main job resumes what an earlier run of it left, so running it twice
                    // just re-summarises.
                    let a = run::RunArgs {
                        experiment,
                        resume: true,
                        jobs: 1,
                        ..Default::default()
                    };
                    run::run(&a, registry)
                }),
        }
    }
}

/// Options shared by commands that read puzzles.
#[derive(Args, Clone, Debug)]
pub struct VariantArg {
    /// Which units the puzzles have: classic, or diagonal (Sudoku-X).
    #[arg(long, default_value = "classic")]
    pub variant: Variant,
}

/// A failure that decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad input or usage: exit 2.
    Input(anyhow::Error),
    /// A check failed or an answer was wrong: exit 1 (details already printed).
    Check,
    /// Malformed input whose errors were already printed: exit 2.
    Malformed,
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::Input(e.into())
    }
}

impl Failure {
    /// The exit code of a command's result; an input error is printed once, as `error: …`.
    pub fn exit_code(result: Result<(), Failure>) -> ExitCode {
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(Failure::Check) => ExitCode::from(1),
            Err(Failure::Malformed) => ExitCode::from(2),
            Err(Failure::Input(e)) => {
                eprintln!("error: {}", chain_text(&e));
                ExitCode::from(2)
            }
        }
    }
}

/// An error and its causes joined by `: `, each said once: many errors already put their
/// source in their own message (`path: why`), and `{:#}` would then print `why` twice.
pub fn chain_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if text.is_empty() {
            text = c;
        } else if !text.ends_with(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

/// A path argument; `-` is standard input.
pub type InputPath = PathBuf;

/// The limits of `--time-limit`, `--node-limit` and `--iteration-limit`. Seconds go through
/// [`sudoku_core::limits::time_limit`] (finite, positive, at most 10⁹ s); a node or iteration
/// limit of 0 would stop every method before it starts, so it is an error too.
pub fn budget_from(
    time: Option<f64>,
    nodes: Option<u64>,
    iterations: Option<u64>,
) -> Result<Budget> {
    let time = time
        .map(|t| time_limit(t).map_err(|e| anyhow!("--time-limit: {e}")))
        .transpose()?;
    for (flag, v) in [("--node-limit", nodes), ("--iteration-limit", iterations)] {
        if v == Some(0) {
            return Err(anyhow!(
                "{flag}: 0 is not a limit (give at least 1, or leave it out for none)"
            ));
        }
    }
    Ok(Budget {
        time,
        nodes,
        iterations,
    })
}

/// The params of a `--param` list.
pub fn params_from(pairs: &[String]) -> Result<Params> {
    let mut p = Params::new();
    for pair in pairs {
        p.push_pair(pair).map_err(|e| anyhow!("--param: {e}"))?;
    }
    Ok(p)
}

/// The method `name` configured by `--param` pairs for `kind`, and its label (`name k=v …`,
/// which seeds derive from).
pub fn configured(
    kind: Kind,
    registry: &Registry,
    name: &str,
    pairs: &[String],
    settings: &KindSettings,
) -> Result<(Box<dyn TrialMethod>, String)> {
    let cap = capability(kind, registry, name, settings).map_err(|e| anyhow!("--method: {e:#}"))?;
    let params = params_from(pairs)?;
    let method = (cap.build)(&params).map_err(|e| anyhow!("--param: {e:#}"))?;
    let label = if params.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", params.shown())
    };
    Ok((method, label))
}

#[cfg(test)]
mod chain_tests {
    use super::chain_text;

    /// An error that quotes its source in its own message, as many library errors do.
    #[derive(Debug)]
    struct Quoting {
        source: std::io::Error,
    }

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "f.txt: {}", self.source)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = anyhow::Error::new(Quoting { source: io() });
        assert_eq!(format!("{e:#}"), "f.txt: gone: gone");
        assert_eq!(chain_text(&e), "f.txt: gone");
        let e = anyhow::Error::new(io()).context("reading f.txt");
        assert_eq!(chain_text(&e), "reading f.txt: gone");
    }
}
