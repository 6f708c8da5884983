//! # sudoku-bench-python
//!
//! The native module of the Python package `sudoku_bench` (`sudoku_bench._native`), built by
//! maturin from `python/pyproject.toml`. It is a thin layer over the workspace: every function
//! calls the crates the command line calls (the runner's registry, attempt, run and redraw;
//! `sudoku-core`'s parsers and verifier; `sudoku-logic`'s rules; `sudoku-analysis`'s rows,
//! findings and comparison) and converts between their types and Python's. Nothing here solves,
//! parses, judges or computes a statistic of its own.
//!
//! Rooms: [`input`] (puzzles from strings, files, lists and NumPy arrays), [`errors`] (the
//! package's exception classes, with the messages the command line prints), [`answers`]
//! (`solve`, `solve_many`, `count`), [`generate`], [`rules`] (`check`, `rate`, `explain`),
//! [`convert`], [`experiments`] (`run` with progress and Ctrl-C, the trials' columns,
//! `findings`, `compare`, `plot`) and [`methods`] (what `sudoku-bench list` shows).
//!
//! Long calls release the GIL and look for Ctrl-C between puzzles (and a run between trials,
//! through its sink); a method's own time limit bounds the puzzle in hand. A panic anywhere
//! below is caught and raised as `MethodError`, never as pyo3's `PanicException`.

use std::sync::OnceLock;

use pyo3::prelude::*;
use sudoku_runner::Registry;

mod answers;
mod convert;
mod errors;
mod experiments;
mod generate;
mod input;
mod methods;
mod rules;

/// Every method, generator and relaxation of the workspace, built once per process.
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::standard)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BUILD", sudoku_runner::provenance::VERSION)?;
    answers::register(m)?;
    generate::register(m)?;
    rules::register(m)?;
    convert::register(m)?;
    experiments::register(m)?;
    methods::register(m)?;
    input::register(m)?;
    Ok(())
}
