//! `convert`: between the line and grid-block formats.

use anyhow::Context;
use clap::{Args, ValueEnum};
use sudoku_core::format;

use crate::cli::{Failure, InputPath};
use crate::io::{display_name, read_puzzles, Out};

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
        None => {
            let mut out = Out::new();
            out.text(&text)?;
            out.finish()?;
        }
    }
    Ok(())
}
