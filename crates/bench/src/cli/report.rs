//! `report`: writes a results folder's report.html (with its summaries and charts) from its CSV
//! alone, so a merged cluster run or a copied folder gets the same page as `run` writes.

use std::path::PathBuf;

use clap::Args;

use crate::cli::Failure;
use crate::io::{shown, Out};
use crate::progress::Console;

#[derive(Args)]
pub struct ReportArgs {
    /// A results folder holding trials.csv.
    pub dir: PathBuf,
}

/// Redraws the folder's outputs and prints the report's path.
pub fn report(a: &ReportArgs) -> Result<(), Failure> {
    sudoku_runner::redraw(&a.dir, "report", &Console::default())?;
    let mut out = Out::new();
    out.line(shown(&a.dir.join(sudoku_analysis::files::REPORT)))?;
    Ok(out.finish()?)
}
