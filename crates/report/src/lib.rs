//! # sudoku-report
//!
//! What sudoku-bench draws from a run: the SVG and PNG charts ([`plots`]), the
//! critical-difference diagram ([`plots::cd_svg`]) and the self-contained HTML page of a results
//! folder ([`report`]), all from the [`RunOutputs`] that `sudoku-analysis` computes. Apart from
//! that crate so that what only computes (`sudoku-repro`, the statistics) builds without a
//! plotting library or an embedded font.
//!
//! [`write`] writes a run's every output: the text files (`RunOutputs::write_text`), then, with
//! charts, cd.svg, each chart and report.html, each SVG made once and inlined from memory.
#![deny(missing_docs)]

use std::path::{Path, PathBuf};

use sudoku_analysis::{write_whole, AnalysisError, RunOutputs};

pub mod charts;
pub mod plots;
pub mod report;

pub use report::{Report, Section};

/// What can go wrong drawing or writing a run's charts and page.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The text files, or a file written as they are.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// A chart could not be drawn or written.
    #[error("chart {}: {message}", path.display())]
    Chart {
        /// The chart file (or the folder, for the font).
        path: PathBuf,
        /// The drawing library's message.
        message: String,
    },
}

impl ReportError {
    /// A file that could not be read, written or removed.
    pub(crate) fn io(path: &Path, source: std::io::Error) -> ReportError {
        ReportError::Analysis(AnalysisError::io(path, source))
    }
}

/// What [`write`] did.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// Every file of the folder's results, inputs included, in a fixed order.
    pub files: Vec<PathBuf>,
    /// The charts left out, and why.
    pub skipped: Vec<plots::Skipped>,
}

/// Writes every output of `run` into `dir`: the summaries and findings.md; with `charts`,
/// cd.svg (when a group has a Friedman test), the charts and report.html. A cd.svg or chart an
/// earlier run left that this data does not support is removed. Returns every file of the
/// folder's results (trials.csv, traces.csv and meta.json too), those that exist.
pub fn write(run: &RunOutputs, dir: &Path, charts: bool) -> Result<Written, ReportError> {
    let mut written = Written {
        files: run.write_text(dir)?,
        skipped: Vec::new(),
    };
    let files = &mut written.files;
    let cd = if charts {
        plots::cd_svg(&run.comparisons)?
    } else {
        None
    };
    let cd_path = dir.join(sudoku_analysis::files::CD);
    match &cd {
        Some(svg) => files.push(write_whole(&cd_path, svg)?),
        // A diagram from an earlier run would no longer match the statistics.
        None if cd_path.exists() => {
            std::fs::remove_file(&cd_path).map_err(|e| ReportError::io(&cd_path, e))?
        }
        None => {}
    }
    if charts && !run.trials.is_empty() {
        let drawn = plots::draw_all(dir, &run.trials, &run.traces)?;
        files.extend(drawn.files());
        let report = Report::new(dir, run, &drawn, cd.as_deref());
        files.push(report.write(dir)?);
        written.skipped = drawn.skipped;
    }
    Ok(written)
}
