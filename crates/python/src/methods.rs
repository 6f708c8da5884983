//! `methods`: every method and generator of the registry with its parameters (name, default,
//! values, what it does) and capabilities, read from the registry as `sudoku-bench list` reads
//! it, so the names and values are the same.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use sudoku_core::ParamSpec;

use crate::registry;

/// A parameter list as dicts.
fn params<'py>(py: Python<'py>, specs: &[ParamSpec]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for p in specs {
        let d = PyDict::new(py);
        d.set_item("name", p.name)?;
        d.set_item("default", p.default)?;
        d.set_item("values", p.range)?;
        d.set_item("help", p.help)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Every method and generator: one dict each, with `kind` (`method` or `generator`), `name`,
/// `summary`, `complete`, `thread_safe`, `randomized` and `params` (a list of dicts: `name`,
/// `default`, `values`, `help`), as `sudoku-bench list` shows them.
#[pyfunction]
fn methods(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let r = registry();
    let mut out = Vec::new();
    for m in &r.methods {
        let d = PyDict::new(py);
        d.set_item("kind", "method")?;
        d.set_item("name", m.name)?;
        d.set_item("summary", m.summary)?;
        d.set_item("complete", m.caps.complete)?;
        d.set_item("thread_safe", m.caps.thread_safe)?;
        d.set_item("randomized", m.caps.randomized)?;
        d.set_item("params", params(py, m.params)?)?;
        out.push(d);
    }
    for g in &r.generators {
        let d = PyDict::new(py);
        d.set_item("kind", "generator")?;
        d.set_item("name", g.name)?;
        d.set_item("summary", g.summary)?;
        // Generators make grids: complete and randomized say nothing of them.
        d.set_item("complete", py.None())?;
        d.set_item("thread_safe", g.thread_safe)?;
        d.set_item("randomized", py.None())?;
        d.set_item("params", params(py, g.params)?)?;
        out.push(d);
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(methods, m)?)
}
