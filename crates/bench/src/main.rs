//! `sudoku-bench`: compare exact and metaheuristic Sudoku methods of any order.
//!
//! Each subcommand is a short pipeline: options → inputs → methods from the one
//! [`registry::Registry`] → outputs. Errors print once, as `error: …`; the exit code is 1 when
//! a check failed or a method returned a wrong answer, 2 for bad input or usage.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sudoku_core::Variant;

mod clock;
mod experiment;
mod io;
mod meta;
mod plots;
mod progress;
mod registry;
mod results;
mod runcmd;
mod runner;
mod solvecmd;
mod stats;
mod summary;
mod textcmd;

#[cfg(test)]
mod tests;

#[derive(Parser)]
#[command(
    name = "sudoku-bench",
    version,
    about = "Compare exact and metaheuristic Sudoku methods of any order: solve, generate, run experiments, plot.",
    long_about = "Compare exact and metaheuristic Sudoku methods of any order.\n\nWith no subcommand, runs (or resumes) the default experiment, scripts/experiments/default.toml, and prints where its CSV, tables and charts are."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check puzzles for contradictory givens, and solutions against their puzzles.
    Check(textcmd::CheckArgs),
    /// Pretty-print puzzles with block separators.
    Show(textcmd::ShowArgs),
    /// Convert puzzles between the line and grid-block formats.
    Convert(textcmd::ConvertArgs),
    /// Solve, count or relax every puzzle of a file with one method.
    Solve(solvecmd::SolveArgs),
    /// Generate full grids or puzzles.
    Generate(solvecmd::GenerateArgs),
    /// List methods, generators and their parameters.
    List,
    /// Run an experiment file: trials.csv, summaries, tables and charts.
    Run(runcmd::RunArgs),
    /// Redraw summaries and charts of a results folder from its CSV.
    Plot(runcmd::PlotArgs),
    /// Merge results folders (shards) and re-summarise.
    Merge(runcmd::MergeArgs),
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

/// A path argument; `-` is standard input.
pub type InputPath = PathBuf;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let registry = registry::Registry::standard();
    let result = match cli.command {
        Some(Command::Check(a)) => textcmd::check(&a),
        Some(Command::Show(a)) => textcmd::show(&a),
        Some(Command::Convert(a)) => textcmd::convert(&a),
        Some(Command::Solve(a)) => solvecmd::solve(&a, &registry),
        Some(Command::Generate(a)) => solvecmd::generate(&a, &registry),
        Some(Command::List) => solvecmd::list(&registry),
        Some(Command::Run(a)) => runcmd::run(&a, &registry),
        Some(Command::Plot(a)) => runcmd::plot(&a),
        Some(Command::Merge(a)) => runcmd::merge(&a),
        None => runcmd::default_experiment()
            .map_err(Failure::from)
            .and_then(|experiment| {
                // The main job resumes what an earlier run of it left, so running it twice just
                // re-summarises.
                let a = runcmd::RunArgs {
                    experiment,
                    resume: true,
                    jobs: 1,
                    ..Default::default()
                };
                runcmd::run(&a, &registry)
            }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Check) => ExitCode::from(1),
        Err(Failure::Malformed) => ExitCode::from(2),
        Err(Failure::Input(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
