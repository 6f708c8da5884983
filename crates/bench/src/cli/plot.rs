//! `plot`: redraws summaries and charts of a results folder from its CSV alone.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;

use sudoku_analysis::files;
use sudoku_analysis::RunOutputs;

use crate::cli::Failure;
use crate::io::Out;
use crate::outputs::{check_meta_experiment, write_run};

#[derive(Args)]
pub struct PlotArgs {
    /// A results folder holding trials.csv.
    pub dir: PathBuf,
}

/// Redraws summaries and charts from a results folder's CSV alone.
pub fn plot(a: &PlotArgs) -> Result<(), Failure> {
    let files = redraw(&a.dir, "plot")?;
    let mut out = Out::new();
    for f in files {
        out.line(f.display())?;
    }
    Ok(out.finish()?)
}

/// Rewrites every derived file of the results folder `dir` (summaries, charts, report.html)
/// from its CSV (and meta.json) alone, titled by the experiment of its rows; `command` names
/// the command in errors. Returns the folder's files.
pub fn redraw(dir: &Path, command: &str) -> Result<Vec<PathBuf>, Failure> {
    let run = read_run(dir, command)?;
    Ok(write_run(&run, dir, true)?)
}

/// A results folder's rows and everything computed from them, for `command` (named in the
/// errors): a folder without trials.csv, or with no row in it, is an error.
pub fn read_run(dir: &Path, command: &str) -> Result<RunOutputs, Failure> {
    let trials = dir.join(files::TRIALS);
    if !trials.exists() {
        return Err(anyhow!(
            "{} not found: `{command}` needs a results folder written by `run`",
            trials.display()
        )
        .into());
    }
    check_meta_experiment(dir)?;
    let run = RunOutputs::read(dir, None)?;
    if run.trials.is_empty() {
        return Err(anyhow!(
            "{}: no trial rows (the file is empty or only a header): nothing for `{command}` to do",
            trials.display()
        )
        .into());
    }
    Ok(run)
}
