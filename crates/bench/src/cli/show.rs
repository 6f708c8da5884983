//! `show`: pretty-prints puzzles with block separators.

use clap::Args;
use sudoku_core::format;

use crate::cli::{Failure, InputPath};
use crate::io::{display_name, label_of, read_puzzles, Out};

#[derive(Args)]
pub struct ShowArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
}

/// Pretty-prints every puzzle under a heading naming it.
pub fn show(a: &ShowArgs) -> Result<(), Failure> {
    let name = display_name(&a.file);
    let entries = read_puzzles(&a.file)?;
    let mut out = Out::new();
    for e in &entries {
        out.line(format_args!(
            "{} ({}, {} givens)",
            label_of(&name, e),
            e.grid.order(),
            e.grid.filled()
        ))?;
        out.line(format::pretty(&e.grid))?;
    }
    out.finish()?;
    Ok(())
}
