//! `plot`: redraws summaries and charts of a results folder from its CSV alone.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;

use crate::cli::Failure;
use crate::outputs::write_outputs;
use crate::results::{read_rows, Row};

#[derive(Args)]
pub struct PlotArgs {
    /// A results folder holding trials.csv.
    pub dir: PathBuf,
}

/// Redraws summaries and charts from a results folder's CSV alone.
pub fn plot(a: &PlotArgs) -> Result<(), Failure> {
    for f in redraw(&a.dir, "plot")? {
        println!("{}", f.display());
    }
    Ok(())
}

/// Rewrites every derived file of the results folder `dir` (summaries, charts, report.html)
/// from its CSV alone; `command` names the command in errors. Returns the folder's files.
pub fn redraw(dir: &Path, command: &str) -> Result<Vec<PathBuf>, Failure> {
    let trials = dir.join("trials.csv");
    if !trials.exists() {
        return Err(anyhow!(
            "{} not found: `{command}` needs a results folder written by `run`",
            trials.display()
        )
        .into());
    }
    let rows: Vec<Row> = read_rows(&trials)?;
    if rows.is_empty() {
        return Err(anyhow!(
            "{}: no trial rows (the file is empty or only a header): nothing to {command}",
            trials.display()
        )
        .into());
    }
    let title = rows
        .first()
        .map(|r| r.experiment.clone())
        .unwrap_or_else(|| "results".into());
    Ok(write_outputs(dir, &title, true)?)
}
