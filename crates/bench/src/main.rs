//! `sudoku-bench`: the command-line tool. A short pipeline per subcommand: options → inputs →
//! methods from the registry → outputs. All errors print once, as `error: …`, and set the exit
//! code (1: a check failed or an answer was wrong; 2: bad input or usage).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sudoku_core::Variant;

mod io;
mod textcmd;

#[derive(Parser)]
#[command(
    name = "sudoku-bench",
    version,
    about = "Compare exact and metaheuristic Sudoku methods of any order: solve, generate, run experiments, plot.",
    long_about = "Compare exact and metaheuristic Sudoku methods of any order.\n\nWith no subcommand, runs the default experiment (scripts/experiments/default.toml)."
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
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Input(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Check(a)) => textcmd::check(&a),
        Some(Command::Show(a)) => textcmd::show(&a),
        Some(Command::Convert(a)) => textcmd::convert(&a),
        None => {
            println!("nothing to run yet: the experiment runner is not built (see README)");
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Check) => ExitCode::from(1),
        Err(Failure::Input(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A path argument; `-` is standard input.
pub type InputPath = PathBuf;
