//! The package's exceptions (defined in `sudoku_bench/_errors.py`, documented there): every
//! failure is raised as one of them with the message the command line prints for it, the
//! file, line and what is wrong; a panic below is caught and raised as `MethodError`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use sudoku_runner::{chain_text, RunError};

pyo3::import_exception!(sudoku_bench._errors, SudokuBenchError);
pyo3::import_exception!(sudoku_bench._errors, InputError);
pyo3::import_exception!(sudoku_bench._errors, FolderInUseError);
pyo3::import_exception!(sudoku_bench._errors, MethodError);

/// Bad input: a malformed puzzle, an unknown method or parameter, a value out of range.
pub fn input(message: impl Into<String>) -> PyErr {
    InputError::new_err(message.into())
}

/// A method that could not run or answer.
pub fn method(message: impl Into<String>) -> PyErr {
    MethodError::new_err(message.into())
}

/// Any error of the workspace's libraries as bad input, with its causes said once.
pub fn input_from(e: &(dyn std::error::Error + 'static)) -> PyErr {
    input(chain_text(e))
}

/// A runner error as the class a caller tells apart: a folder in use, a method that failed,
/// an I/O failure (the base class), or bad input (everything a person fixes in what they gave).
pub fn run_error(e: &RunError) -> PyErr {
    let text = chain_text(e);
    match innermost(e) {
        RunError::Busy { .. } => FolderInUseError::new_err(text),
        RunError::Trial(_) => MethodError::new_err(text),
        RunError::Io { .. } | RunError::Report(_) => SudokuBenchError::new_err(text),
        _ => InputError::new_err(text),
    }
}

/// The error under the places an error was wrapped in (`method[0] (`x`): …`).
fn innermost(e: &RunError) -> &RunError {
    match e {
        RunError::At { source, .. } => innermost(source),
        e => e,
    }
}

/// Runs `f`, turning a panic into `MethodError` naming what panicked (`what`) and the panic's
/// message, so that no panic reaches Python as pyo3's `PanicException`.
pub fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(method(format!("{what}: panic: {}", panic_text(&*payload)))),
    }
}

/// A panic's message, from its payload.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-text payload".to_string())
}
