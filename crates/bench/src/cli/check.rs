//! `check`: givens consistency of each puzzle, and solutions against their puzzles.

use std::io::Write;

use clap::Args;
use sudoku_core::{check_givens, verify_solution, Puzzle};

use crate::cli::{Failure, InputPath, VariantArg};
use crate::io::{display_name, label_of, read_entries, read_puzzles};

#[derive(Args)]
pub struct CheckArgs {
    /// Puzzle file (`-` for standard input).
    pub puzzles: InputPath,
    /// Optional file of solutions, one per puzzle in the same order.
    pub solutions: Option<InputPath>,
    #[command(flatten)]
    pub variant: VariantArg,
    /// Print only failures and the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Checks every puzzle (and solution); prints one line per puzzle and a summary.
pub fn check(a: &CheckArgs) -> Result<(), Failure> {
    let name = display_name(&a.puzzles);
    let entries = read_entries(&a.puzzles)?;
    let solutions = match &a.solutions {
        Some(p) => Some(read_puzzles(p)?),
        None => None,
    };
    if let Some(s) = &solutions {
        if s.len() != entries.len() {
            return Err(Failure::Input(anyhow::anyhow!(
                "{} holds {} solutions but {name} holds {} puzzles",
                display_name(a.solutions.as_ref().expect("solutions given")),
                s.len(),
                entries.len()
            )));
        }
    }
    let (mut ok, mut failed, mut malformed) = (0usize, 0usize, 0usize);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, entry) in entries.iter().enumerate() {
        let e = match entry {
            Ok(e) => e,
            Err(err) => {
                malformed += 1;
                eprintln!("error: {err}");
                continue;
            }
        };
        let what = label_of(&name, e);
        let puzzle = Puzzle::new(e.grid.clone(), a.variant.variant);
        let verdict = match check_givens(&puzzle) {
            Err(v) => Err(format!("contradictory givens: {v}")),
            Ok(()) => match solutions.as_ref().map(|s| &s[i]) {
                None => Ok("givens consistent".to_string()),
                Some(sol) => match verify_solution(&puzzle, &sol.grid) {
                    Ok(()) => Ok("solution valid".to_string()),
                    Err(v) => Err(format!("solution invalid: {v}")),
                },
            },
        };
        match verdict {
            Ok(msg) => {
                ok += 1;
                if !a.quiet {
                    writeln!(out, "{what}: ok ({msg})").ok();
                }
            }
            Err(msg) => {
                failed += 1;
                writeln!(out, "{what}: FAIL {msg}").ok();
            }
        }
    }
    writeln!(
        out,
        "{name}: {} puzzles, {ok} ok, {failed} failed{}",
        entries.len(),
        if malformed > 0 {
            format!(", {malformed} malformed")
        } else {
            String::new()
        }
    )
    .ok();
    // Malformed input is a usage error (exit 2), already reported line by line.
    if malformed > 0 {
        return Err(Failure::Malformed);
    }
    if failed > 0 {
        return Err(Failure::Check);
    }
    Ok(())
}
