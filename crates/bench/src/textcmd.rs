//! `check`, `show` and `convert`: the commands that only read and write puzzles.

use std::io::Write;

use anyhow::Context;
use clap::{Args, ValueEnum};
use sudoku_core::format::{self, Entry};
use sudoku_core::{check_givens, verify_solution, Puzzle};

use crate::io::{display_name, read_entries, read_puzzles};
use crate::{Failure, InputPath, VariantArg};

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

fn label_of(name: &str, e: &Entry) -> String {
    match &e.label {
        Some(l) => format!("{name}:{} [{l}]", e.line),
        None => format!("{name}:{}", e.line),
    }
}

#[derive(Args)]
pub struct ShowArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
}

/// Pretty-prints every puzzle under a heading naming it.
pub fn show(a: &ShowArgs) -> Result<(), Failure> {
    let name = display_name(&a.file);
    let entries = read_puzzles(&a.file)?;
    let mut out = std::io::stdout().lock();
    for e in &entries {
        writeln!(
            out,
            "{} ({}, {} givens)",
            label_of(&name, e),
            e.grid.order(),
            e.grid.filled()
        )
        .context("writing to standard output")?;
        writeln!(out, "{}", format::pretty(&e.grid)).context("writing to standard output")?;
    }
    Ok(())
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Target {
    /// One puzzle per line (orders 2..=5).
    Line,
    /// Grid blocks of integers (any order).
    Block,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
    /// Output format.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Output file (standard output when absent).
    #[arg(long, short)]
    pub output: Option<InputPath>,
}

/// Rewrites every puzzle in the target format, keeping labels as comments.
pub fn convert(a: &ConvertArgs) -> Result<(), Failure> {
    let entries = read_puzzles(&a.file)?;
    let mut text = String::new();
    for e in &entries {
        if let Some(l) = &e.label {
            for part in l.split("; ") {
                text.push_str(&format!("# {part}\n"));
            }
        }
        match a.to {
            Target::Line => match format::to_line(&e.grid) {
                Ok(l) => {
                    text.push_str(&l);
                    text.push('\n');
                }
                Err(err) => {
                    return Err(Failure::Input(anyhow::anyhow!(
                        "{}:{}: {err}",
                        display_name(&a.file),
                        e.line
                    )))
                }
            },
            Target::Block => {
                text.push_str(&format::to_block(&e.grid));
                text.push('\n');
            }
        }
    }
    match &a.output {
        Some(p) => std::fs::write(p, text).with_context(|| format!("writing {}", p.display()))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .context("writing to standard output")?,
    }
    Ok(())
}
