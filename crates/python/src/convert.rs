//! `convert`: puzzles written in the line or grid-block format by `sudoku-core`'s writers, or a
//! puzzle's DIMACS CNF exactly as `sat` builds it (`sudoku-bench convert`).

use pyo3::prelude::*;
use sudoku_core::{format, Puzzle};

use crate::answers::{params_of, variant_of};
use crate::errors::input;
use crate::input::{items, one};

/// The puzzles in the format `to`, as text, as `sudoku-bench convert --to` writes them.
///
/// "line": one puzzle per line (up to 25×25); "block": grid blocks of integers; labels are
/// kept as comments. "dimacs": one puzzle's CNF exactly as `sat` with `params` builds it.
#[pyfunction]
#[pyo3(signature = (puzzles, to, params=None, *, variant="classic"))]
fn convert(
    puzzles: &Bound<'_, PyAny>,
    to: &str,
    params: Option<&Bound<'_, PyAny>>,
    variant: &str,
) -> PyResult<String> {
    let params = params_of(params)?;
    if to == "dimacs" {
        let item = one(puzzles, "convert on each puzzle: DIMACS holds one formula")?;
        let sat =
            sudoku_sat::Sat::from_params(&params).map_err(|e| input(format!("params: {e}")))?;
        let puzzle = Puzzle::new(item.grid, variant_of(variant)?);
        let (cnf, layout) = sudoku_sat::formula(&puzzle, sat.config())
            .map_err(|e| input(format!("{}: {e}", item.place)))?;
        let shown = params.to_string();
        let mut out = format!(
            "c sudoku-bench sat {}: {}\n",
            if shown.is_empty() {
                "(defaults)"
            } else {
                &shown
            },
            item.place
        )
        .into_bytes();
        cnf.write_dimacs(layout.vars, &mut out)
            .map_err(|e| input(format!("writing DIMACS: {e}")))?;
        return String::from_utf8(out).map_err(|e| input(format!("writing DIMACS: {e}")));
    }
    if !params.is_empty() {
        return Err(input("params: only with to=\"dimacs\""));
    }
    variant_of(variant)?;
    let mut text = String::new();
    for item in items(puzzles)? {
        if let Some(l) = &item.label {
            for part in l.split("; ") {
                text.push_str(&format!("# {part}\n"));
            }
        }
        match to {
            "line" => {
                let l = format::to_line(&item.grid)
                    .map_err(|e| input(format!("{}: {e}", item.place)))?;
                text.push_str(&l);
                text.push('\n');
            }
            "block" => {
                text.push_str(&format::to_block(&item.grid));
                text.push('\n');
            }
            other => {
                return Err(input(format!(
                    "to: `{other}` is no format: give line, block or dimacs"
                )))
            }
        }
    }
    Ok(text)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(convert, m)?)
}
