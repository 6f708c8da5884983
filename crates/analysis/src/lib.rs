//! # sudoku-analysis
//!
//! What is computed from the rows of a sudoku-bench results folder alone, without running
//! anything: the trial-row schema ([`Row`], [`TraceRow`], the typed [`TrialStatus`]) and reading
//! and writing `trials.csv`/`traces.csv`; the typed `meta.json` ([`meta`]: what a run was made
//! with, and its settings, which give each configuration's time limit, named by
//! [`meta::config_label`]); descriptive [`stats`] for heavy-tailed timings; the
//! per-configuration [`summary`] as CSV, Markdown and LaTeX, and the performance table per
//! method configuration and instance set (solved/total, median, mean, shifted geometric mean,
//! PAR-2, IQR, best entries marked), both rendered by the one table maker in [`tables`]
//! (Markdown, LaTeX booktabs, HTML) with the one [`number`] formatter; the statistical
//! comparison of methods in [`compare`] (Wilcoxon signed-rank with Holm's correction and an
//! effect size, Friedman with the Nemenyi post-hoc test: stats.md, stats.tex) and the verdicts
//! of [`findings`], with text from data files [`escape`]d for each format.
//!
//! [`RunOutputs`] computes all of it once from a folder's rows, traces and meta.json, and writes
//! its text files. What is drawn from it (the charts, the critical-difference diagram and
//! report.html) is `sudoku-report`'s, so that a crate that only computes (`sudoku-repro`) builds
//! without a plotting library. The runner (`sudoku-bench`) writes rows; `run`, `plot`, `report`
//! and `merge` write everything else with these two crates.
#![deny(missing_docs)]

use std::path::{Path, PathBuf};

pub mod baseline;
pub mod clocks;
pub mod columns;
pub mod compare;
pub mod escape;
pub mod fidelity;
pub mod files;
pub mod findings;
mod header;
mod kinds;
pub mod meta;
pub mod number;
mod outputs;
mod row;
pub mod stats;
pub mod summary;
pub mod tables;
mod trials;
pub mod writing;

pub use header::csv_header;
pub use kinds::{KindColumns, LogicLpColumns};
pub use outputs::RunOutputs;
pub use trials::{ConfigFacts, Facts, Name, Names, Trial, Trials};
pub use writing::{write_whole, write_with};

pub use row::{
    join_extra, ms, parse_checked, parse_rows, read_checked, read_rows, read_rows_resuming,
    task_key, visit_checked, write_rows, CsvRow, Invalid, Row, TraceRow, TrialStatus,
    MAX_CSV_BYTES, MAX_MS,
};

/// What can go wrong reading rows or writing what is made from them.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A CSV line that is not a valid row.
    #[error("{}: line {row} is not a valid result row: {source}", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// Its line number (the header is line 1).
        row: usize,
        /// Why.
        source: csv::Error,
    },
    /// A row whose values the schema or the run's settings refuse.
    #[error("{}: line {line}, column `{column}`: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Its line number (the header is line 1).
        line: usize,
        /// The column.
        column: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A file too large, or not text.
    #[error(transparent)]
    Text(sudoku_core::format::ReadError),
    /// A last line without its newline: a row cut off while being written.
    #[error("{}: line {line} is cut off (no newline at its end), as a run killed while writing leaves it: `run --resume` removes it, or delete the line", path.display())]
    Torn {
        /// The file.
        path: PathBuf,
        /// The torn line's number.
        line: usize,
    },
    /// A file could not be written whole ([`writing`]): the file there, if any, is as it was.
    #[error("writing {}: {source}", path.display())]
    NotWritten {
        /// The file, as it was named.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A `meta.json` that is not JSON, or whose fields have the wrong type.
    #[error("{}: not a readable meta.json: {source}", path.display())]
    Meta {
        /// The file.
        path: PathBuf,
        /// Why (with the line and column).
        source: serde_json::Error,
    },
}

impl AnalysisError {
    /// A file that could not be read or written.
    pub fn io(path: &Path, source: std::io::Error) -> AnalysisError {
        AnalysisError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
