//! sudoku-repro: the reproduced papers' own numbers beside ours ([`CATALOGUE`] names and cites
//! each paper).
//!
//! The papers' values are data, not code: `datasets/seeds/paper_values.csv` holds one line per
//! item of a paper (a table cell, a figure, a quantitative claim), with the experiment under
//! `scripts/experiments/repro/` that measures it, which trial rows to look at (`select`), what to
//! compute from them (`measure`) and how to judge agreement (`check`). [`parse_paper_values`]
//! reads that file (every error names the file and line), [`check_experiments`] checks that each
//! item names an experiment that exists, and [`compare`] turns a finished run's trial rows
//! ([`sudoku_analysis::Row`]) into one [`Comparison`] per item, which [`markdown`], [`latex`] and
//! [`write_csv`] print. The parser is a library function so that a fuzz target can call it.
//!
//! Columns of the values file, in order (a header line naming them is required; lines starting
//! with `#` are comments):
//!
//! | column | meaning |
//! |---|---|
//! | paper | `000`, `001`, `002`, `003`, `004` or `lewis` |
//! | item | what is compared; `Group \| Row \| Column` items are also laid out as a grid |
//! | page | where the paper prints it (page, figure, notebook cell) |
//! | quantity | what the number is |
//! | value | the paper's value, as printed (a number for the numeric checks) |
//! | unit | its unit (`s`, `count`, `status`, …) |
//! | experiment | the `name` of the repro experiment that measures it, or `-` (not yet: notes say why) |
//! | select | `field=value` / `field~text` filters joined by `;`; `A vs B` divides A's measure by B's |
//! | measure | [`Measure`] names: `status`, `count`, `objective`, `objectives`, `wall_s`, `mean_wall_s`, `max_wall_s`, `success`, `rows`, `lp_unique`, `hardest_givens`, `givens`, `min_givens`, `fastest:KEY` |
//! | check | [`Check`]: `equal`, `within:K` (ratio in [1/K, K]), `atmost`, `atleast`, `range:A..B` |
//! | notes | hardware, solver, and anything the comparison needs said |
//! | cause | for an item that differs: what an experiment that isolates the cause measured, and its command (shown in the reason); empty otherwise |

#![deny(missing_docs)]

use std::path::PathBuf;

use serde::de::IntoDeserializer;
use serde::Deserialize;
use thiserror::Error;

/// The papers `repro` knows, in the order `repro all` runs them.
pub const PAPERS: &[&str] = &["000", "001", "002", "003", "004", "lewis"];

/// The variant of `T` named `name` (serde's message lists the names when there is none).
pub(crate) fn by_name<'a, T: Deserialize<'a>>(name: &'a str) -> Result<T, String> {
    T::deserialize(name.into_deserializer()).map_err(|e: serde::de::value::Error| e.to_string())
}

/// What can be wrong with a values file or a comparison.
#[derive(Debug, Error)]
pub enum ReproError {
    /// The file could not be read.
    #[error("reading {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A line of the file is wrong.
    #[error("{}:{line}: {what}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// Writing a comparison failed.
    #[error("writing {}: {what}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        what: String,
    },
}

mod judge;
mod measure;
mod papers;
mod render;
mod select;
mod values;

pub use judge::{compare, Comparison, Verdict};
pub use measure::{Check, Measure, Ours};
pub use papers::{paper, Paper, CATALOGUE};
pub use render::{counts, counts_text, latex, markdown, write_csv};
pub use select::{Field, Filter, Select};
pub use values::{check_experiments, parse_paper_values, read_paper_values, PaperValue, COLUMNS};

#[cfg(test)]
mod tests;
