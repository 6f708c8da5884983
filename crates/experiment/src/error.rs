//! What can be wrong with an experiment file ([`ExperimentError`]) or a time limit
//! ([`BadSeconds`]): one enum for every module that reads a file, so each message is written
//! once, apart from the code that raises it.

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

use crate::{MAX_CONFIGURATIONS, MAX_SECONDS};

/// What can be wrong with an experiment file.
#[derive(Debug, Error)]
pub enum ExperimentError {
    /// The file could not be read.
    #[error("reading {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is too large or not text.
    #[error(transparent)]
    Text(sudoku_core::format::ReadError),
    /// An error in the named file.
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error.
        error: Box<ExperimentError>,
    },
    /// Not TOML, an unknown key, or a bad value: toml's message, with the line and the key.
    #[error("{}", .0.to_string().trim_end())]
    Toml(#[from] toml::de::Error),
    /// `name` is empty or a path.
    #[error("key `name`: `{0}` must be non-empty and contain no path separator")]
    Name(String),
    /// No `[[method]]`.
    #[error("no [[method]]: an experiment needs at least one method")]
    NoMethod,
    /// No `[[instances]]`.
    #[error("no [[instances]]: an experiment needs at least one instance source")]
    NoInstances,
    /// A top-level `carve` without `kind = "generate"`.
    #[error("key `carve`: only with kind = \"generate\" (it carves puzzles from generated grids)")]
    CarveWithoutGenerate,
    /// An `[[instances]]` entry with no source or several.
    #[error("instances[{0}]: give exactly one of `file`, `glob`, `generate`, `orders`, `latin`")]
    Sources(usize),
    /// Latin squares where the reduction cannot serve: another kind, or the diagonal variant.
    #[error("instances[{0}].latin: only with kind = \"solve\" or \"count\" and the classic variant (each square becomes a classic Sudoku whose solutions are read back as its completions)")]
    LatinUse(usize),
    /// A `clues` that carving cannot reach or that does not apply (as `generate --clues`).
    #[error("{what}: key `clues`: {problem}")]
    Clues {
        /// Where: `instances[0].generate`, `carve`, `instances[1].carve`.
        what: String,
        /// What is wrong.
        problem: String,
    },
    /// An `[[instances]]` `carve` where it cannot apply.
    #[error("instances[{0}].carve: only with kind = \"generate\" and `orders` (it carves puzzles from the grids generated on those empty grids)")]
    SourceCarve(usize),
    /// Two `[[method]]` entries configure the same thing.
    #[error("method[{index}]: `{method}` with parameters `{params}` is already configured by an earlier [[method]]; give each configuration once")]
    Duplicate {
        /// Index of the later `[[method]]`.
        index: usize,
        /// Method name.
        method: String,
        /// The configuration's parameters.
        params: String,
    },
    /// A bad parameter value or grid.
    #[error("{what}.params.{key}: {problem}")]
    Param {
        /// Where: `method[0]`, …
        what: String,
        /// The parameter.
        key: String,
        /// What is wrong.
        problem: String,
    },
    /// A parameter grid too large to expand.
    #[error("{what}.params: the grid has {size} configurations, more than {MAX_CONFIGURATIONS}; split it over several experiments")]
    GridTooLarge {
        /// Where: `method[0]`, …
        what: String,
        /// Its size (saturating).
        size: usize,
    },
}

/// A time limit that is not a number of seconds from a nanosecond to [`MAX_SECONDS`].
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub struct BadSeconds(pub f64);

impl fmt::Display for BadSeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 1e300 written out would be 301 digits.
        if self.0.abs() >= 1e15 {
            write!(f, "{:e}", self.0)?;
        } else {
            write!(f, "{}", self.0)?;
        }
        write!(f, " is not a positive number of seconds from 1e-9 to {MAX_SECONDS:e} (about 31 years; leave the limit out for none)")
    }
}
