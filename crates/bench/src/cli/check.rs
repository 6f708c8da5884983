//! `check`: givens consistency of each puzzle, and solutions against their puzzles. Both files
//! are streamed, so a collection of any size is checked as it is read.

use anyhow::anyhow;
use clap::Args;
use sudoku_core::format::{Entry, ParseErrorKind, ReadError};
use sudoku_core::{verify_solution, Puzzle};
use sudoku_logic::Unrateable;

use crate::cli::{Failure, InputPath, VariantArg};
use crate::io::{display_name, label_of, stream_entries, Out};

#[derive(Args)]
pub struct CheckArgs {
    /// Puzzle file (`-` for standard input).
    pub puzzles: InputPath,
    /// Optional file of solutions, one per puzzle in the same order (`-` for standard input,
    /// when the puzzles come from a file).
    pub solutions: Option<InputPath>,
    #[command(flatten)]
    pub variant: VariantArg,
    /// Print only failures and the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A stream item: a puzzle, a malformed one (reading goes on), or an error that ends the file
/// (a file with no puzzle at all is one error, not a malformed puzzle and a summary).
fn item(r: Option<Result<Entry, ReadError>>) -> Result<Option<Result<Entry, ReadError>>, Failure> {
    match r {
        Some(Err(ReadError::Parse(e))) if e.kind == ParseErrorKind::Empty => Err(anyhow!(e).into()),
        Some(Err(e)) if !matches!(e, ReadError::Parse(_)) => Err(anyhow!(e).into()),
        r => Ok(r),
    }
}

/// Checks every puzzle (and solution); prints one line per puzzle and a summary.
pub fn check(a: &CheckArgs) -> Result<(), Failure> {
    let name = display_name(&a.puzzles);
    if a.solutions.as_deref() == Some(std::path::Path::new("-")) && a.puzzles.as_os_str() == "-" {
        return Err(anyhow!(
            "`-` names standard input for both the puzzles and the solutions, but it can be read only once: give one of them as a file"
        )
        .into());
    }
    let mut puzzles = stream_entries(&a.puzzles)?;
    let mut solutions = a.solutions.as_deref().map(stream_entries).transpose()?;
    let sol_name = a.solutions.as_deref().map(display_name).unwrap_or_default();
    let (mut total, mut ok, mut failed, mut malformed) = (0usize, 0usize, 0usize, 0usize);
    let mut out = Out::new();
    while let Some(entry) = item(puzzles.next())? {
        total += 1;
        let solution = match solutions.as_mut() {
            None => None,
            Some(s) => match item(s.next())? {
                Some(sol) => Some(sol),
                None => {
                    return Err(anyhow!(
                        "{sol_name} holds {} solutions but {name} holds more puzzles",
                        total - 1
                    )
                    .into())
                }
            },
        };
        let e = match entry {
            Ok(e) => e,
            Err(err) => {
                malformed += 1;
                say!("error: {err}");
                continue;
            }
        };
        let what = label_of(&name, &e);
        let puzzle = Puzzle::new(e.grid, a.variant.variant);
        let verdict = match Unrateable::of_givens(&puzzle) {
            Some(why) => Err(why.to_string()),
            None => match solution {
                None => Ok("givens consistent".to_string()),
                Some(Err(err)) => {
                    malformed += 1;
                    say!("error: {err}");
                    continue;
                }
                Some(Ok(sol)) => match verify_solution(&puzzle, &sol.grid) {
                    Ok(()) => Ok("solution valid".to_string()),
                    Err(v) => Err(format!("solution invalid: {v}")),
                },
            },
        };
        match verdict {
            Ok(msg) => {
                ok += 1;
                if !a.quiet {
                    out.line(format_args!("{what}: ok ({msg})"))?;
                }
            }
            Err(msg) => {
                failed += 1;
                out.line(format_args!("{what}: FAIL {msg}"))?;
            }
        }
    }
    if let Some(s) = solutions.as_mut() {
        if item(s.next())?.is_some() {
            return Err(anyhow!(
                "{sol_name} holds more solutions than {name} holds puzzles ({total})"
            )
            .into());
        }
    }
    out.line(format_args!(
        "{}: {total} puzzles, {ok} ok, {failed} failed{}",
        sudoku_core::format::visible(&name),
        if malformed > 0 {
            format!(", {malformed} malformed")
        } else {
            String::new()
        }
    ))?;
    out.finish()?;
    // Malformed input is a usage error (exit 2), already reported line by line.
    if malformed > 0 {
        return Err(Failure::Malformed);
    }
    if failed > 0 {
        return Err(Failure::Check);
    }
    Ok(())
}
