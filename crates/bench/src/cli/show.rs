//! `show`: pretty-prints puzzles with block separators.

use std::io::Write;

use anyhow::Context;
use clap::Args;
use sudoku_core::format;

use crate::cli::{Failure, InputPath};
use crate::io::{display_name, label_of, read_puzzles};

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
