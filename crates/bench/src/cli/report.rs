//! `report`: writes a results folder's report.html (with its summaries and charts) from its CSV
//! alone, so a merged cluster run or a copied folder gets the same page as `run` writes.

use std::path::PathBuf;

use clap::Args;

use crate::cli::plot::redraw;
use crate::cli::Failure;
use crate::io::Out;

#[derive(Args)]
pub struct ReportArgs {
    /// A results folder holding trials.csv.
    pub dir: PathBuf,
}

/// Redraws the folder's outputs and prints the report's path.
pub fn report(a: &ReportArgs) -> Result<(), Failure> {
    redraw(&a.dir, "report")?;
    let mut out = Out::new();
    out.line(a.dir.join(sudoku_analysis::files::REPORT).display())?;
    Ok(out.finish()?)
}
