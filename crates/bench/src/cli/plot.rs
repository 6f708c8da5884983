//! `plot`: redraws summaries and charts of a results folder from its CSV alone.

use std::path::PathBuf;

use clap::Args;

use crate::cli::Failure;
use crate::io::{shown, Out};
use crate::progress::Console;

#[derive(Args)]
pub struct PlotArgs {
    /// A results folder holding trials.csv.
    pub dir: PathBuf,
}

/// Redraws summaries and charts from a results folder's CSV alone.
pub fn plot(a: &PlotArgs) -> Result<(), Failure> {
    let files = sudoku_runner::redraw(&a.dir, "plot", &Console::default())?;
    let mut out = Out::new();
    for f in files {
        out.line(shown(&f))?;
    }
    Ok(out.finish()?)
}
