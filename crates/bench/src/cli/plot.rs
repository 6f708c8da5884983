//! `plot`: redraws summaries and charts of a results folder from its CSV alone.

use std::path::PathBuf;

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
    let trials = a.dir.join("trials.csv");
    if !trials.exists() {
        return Err(anyhow!(
            "{} not found: `plot` needs a results folder written by `run`",
            trials.display()
        )
        .into());
    }
    let rows: Vec<Row> = read_rows(&trials)?;
    if rows.is_empty() {
        return Err(anyhow!(
            "{}: no trial rows (the file is empty or only a header): nothing to plot",
            trials.display()
        )
        .into());
    }
    let title = rows
        .first()
        .map(|r| r.experiment.clone())
        .unwrap_or_else(|| "results".into());
    for f in write_outputs(&a.dir, &title, true)? {
        println!("{}", f.display());
    }
    Ok(())
}
