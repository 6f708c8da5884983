//! Puzzles from Python: text in either format (parsed by `sudoku-core`, so errors name the
//! line and column as the command line's do), a path (read as the command line reads a file),
//! a list of lists of digits (or one flat list of cells), a NumPy array (2-D: one grid; 3-D:
//! several), or a list of any of these. Each puzzle keeps its place (`<input>:3`,
//! `<array>[2]`), which messages name and seeds derive from.

use std::path::PathBuf;

use numpy::{PyArray2, PyArrayDescrMethods};
use numpy::{PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use sudoku_core::format::{self, read_text};
use sudoku_core::{Grid, Order};

use crate::errors::{input, input_from};

/// What text given as a string is called in messages, as the command line calls a file.
pub const TEXT: &str = "<input>";
/// What a list or an array is called in messages.
pub const ARRAY: &str = "<array>";

/// One puzzle and where it came from.
pub struct Item {
    /// The cells (0 = empty).
    pub grid: Grid,
    /// `name:line` for text (as `solve` names a puzzle of a file), `name[i]` for arrays.
    pub place: String,
    /// The comment lines above it in text, joined with `; `.
    pub label: Option<String>,
}

/// Every puzzle `obj` holds (one or several).
pub fn items(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Item>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return parse(s.to_str()?, TEXT);
    }
    if let Some(path) = path_of(obj)? {
        let name = path.display().to_string();
        let text = read_text(&path).map_err(|e| input_from(&e))?;
        return parse(&text, &name);
    }
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        return array_items(arr);
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        return list_items(obj);
    }
    Err(input(format!(
        "a puzzle is text (the line or grid-block format), a path to a puzzle file, a list of \
         lists of digits or a NumPy array; got a {}",
        obj.get_type().name()?
    )))
}

/// The one puzzle `obj` holds; several are an error that says how many.
pub fn one(obj: &Bound<'_, PyAny>, many: &str) -> PyResult<Item> {
    let mut all = items(obj)?;
    if all.len() != 1 {
        return Err(input(format!(
            "{}: {} puzzles where one was expected (`{many}` takes several)",
            all[0]
                .place
                .rsplit_once(':')
                .map_or(&*all[0].place, |p| p.0),
            all.len()
        )));
    }
    Ok(all.remove(0))
}

/// The path an `os.PathLike` names, or `None` for anything else.
fn path_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    if !obj.hasattr("__fspath__")? {
        return Ok(None);
    }
    let os = obj.py().import("os")?;
    Ok(Some(os.call_method1("fspath", (obj,))?.extract()?))
}

/// Every puzzle of `text`, named `name` in messages; the first problem is an error.
fn parse(text: &str, name: &str) -> PyResult<Vec<Item>> {
    let entries = format::parse_str(text, name).map_err(|e| input_from(&e))?;
    Ok(entries
        .into_iter()
        .map(|e| Item {
            place: format!("{name}:{}", e.line),
            grid: e.grid,
            label: e.label,
        })
        .collect())
}

/// A 2-D array (one grid) or a 3-D one (a grid per first index), of integers.
fn array_items(arr: &Bound<'_, PyUntypedArray>) -> PyResult<Vec<Item>> {
    let kind = arr.dtype().kind();
    if !matches!(kind, b'i' | b'u') {
        return Err(input(format!(
            "{ARRAY}: an array of {}: cells are integers (0 for an empty cell)",
            arr.dtype().str()?
        )));
    }
    let shape = arr.shape().to_vec();
    let cells: PyReadonlyArrayDyn<'_, i64> = arr.call_method1("astype", ("int64",))?.extract()?;
    let flat = cells
        .as_slice()
        .map_err(|e| input(format!("{ARRAY}: {e}")))?;
    match shape[..] {
        [rows, cols] => Ok(vec![Item {
            grid: grid_of(ARRAY, rows, cols, flat)?,
            place: ARRAY.to_string(),
            label: None,
        }]),
        [k, rows, cols] => (0..k)
            .map(|i| {
                let place = format!("{ARRAY}[{i}]");
                let size = rows * cols;
                Ok(Item {
                    grid: grid_of(&place, rows, cols, &flat[i * size..(i + 1) * size])?,
                    place,
                    label: None,
                })
            })
            .collect(),
        _ => Err(input(format!(
            "{ARRAY}: an array of {} dimensions: give one grid (2 dimensions) or several (3)",
            shape.len()
        ))),
    }
}

/// A list (or tuple): one grid as rows of digits or as a flat list of cells, or several
/// puzzles, each any of the forms [`items`] takes.
fn list_items(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Item>> {
    let elems: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
    let Some(first) = elems.first() else {
        return Err(input(format!("{ARRAY}: an empty list holds no puzzle")));
    };
    if is_cell(first) {
        let cells = cells_of(ARRAY, 0, &elems)?;
        let order = Order::from_cells(cells.len()).map_err(|e| {
            input(format!(
                "{ARRAY}: a flat list of {} cells is no grid ({e})",
                cells.len()
            ))
        })?;
        return Ok(vec![Item {
            grid: grid(ARRAY, order, cells)?,
            place: ARRAY.to_string(),
            label: None,
        }]);
    }
    if is_row(first)? {
        return Ok(vec![Item {
            grid: rows_grid(ARRAY, &elems)?,
            place: ARRAY.to_string(),
            label: None,
        }]);
    }
    // Several puzzles: each one of its own, named by its index.
    let mut out = Vec::with_capacity(elems.len());
    for (i, e) in elems.iter().enumerate() {
        let place = format!("{ARRAY}[{i}]");
        let mut got = if let Ok(s) = e.cast::<PyString>() {
            parse(s.to_str()?, &place)?
        } else {
            items(e)?
        };
        if got.len() != 1 {
            return Err(input(format!(
                "{place}: {} puzzles in one element of the list: give one puzzle per element",
                got.len()
            )));
        }
        let mut item = got.remove(0);
        if !item.place.starts_with(&place) {
            item.place = place;
        }
        out.push(item);
    }
    Ok(out)
}

/// A cell value: an integer or `None` (empty).
fn is_cell(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_none() || obj.extract::<i64>().is_ok()
}

/// A row of a grid: a list, tuple or 1-D array whose first element is a cell.
fn is_row(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.cast::<PyString>().is_ok() {
        return Ok(false);
    }
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        return Ok(arr.ndim() == 1);
    }
    if obj.cast::<PyList>().is_err() && obj.cast::<PyTuple>().is_err() {
        return Ok(false);
    }
    Ok(match obj.try_iter()?.next() {
        Some(first) => is_cell(&first?),
        None => true,
    })
}

/// The grid whose rows are `rows`.
fn rows_grid(place: &str, rows: &[Bound<'_, PyAny>]) -> PyResult<Grid> {
    let side = rows.len();
    let order = Order::from_size(side).map_err(|e| {
        input(format!(
            "{place}: a grid of {side} rows is no Sudoku grid ({e})"
        ))
    })?;
    let mut cells = Vec::with_capacity(side * side);
    for (r, row) in rows.iter().enumerate() {
        let row: Vec<Bound<'_, PyAny>> = row.try_iter()?.collect::<PyResult<_>>()?;
        if row.len() != side {
            return Err(input(format!(
                "{place}: row {} has {} cells; the grid has {side} rows, so every row has {side}",
                r + 1,
                row.len()
            )));
        }
        cells.extend(cells_of(place, r * side, &row)?);
    }
    grid(place, order, cells)
}

/// Cells from Python values (integers, `None` for empty); `at` is the first one's index.
fn cells_of(place: &str, at: usize, values: &[Bound<'_, PyAny>]) -> PyResult<Vec<i64>> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if v.is_none() {
                return Ok(0);
            }
            v.extract::<i64>().map_err(|_| {
                input(format!(
                    "{place}: cell {} is {}: cells are integers (0 or None for an empty cell)",
                    at + i + 1,
                    v.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })
        })
        .collect()
}

/// A grid of `rows` × `cols` cells from a flat slice.
fn grid_of(place: &str, rows: usize, cols: usize, flat: &[i64]) -> PyResult<Grid> {
    if rows != cols {
        return Err(input(format!(
            "{place}: a {rows}×{cols} array is not square: a Sudoku grid has as many rows as columns"
        )));
    }
    let order = Order::from_size(rows).map_err(|e| {
        input(format!(
            "{place}: a {rows}×{cols} array is no Sudoku grid ({e})"
        ))
    })?;
    grid(place, order, flat.to_vec())
}

/// The grid of `order` with `cells`, each checked to be empty or a digit of the grid.
fn grid(place: &str, order: Order, cells: Vec<i64>) -> PyResult<Grid> {
    let side = order.size();
    let mut out = Vec::with_capacity(cells.len());
    for (i, v) in cells.into_iter().enumerate() {
        if !(0..=side as i64).contains(&v) {
            return Err(input(format!(
                "{place}: row {}, column {} holds {v}: a {side}×{side} grid holds 0 (empty) or the digits 1..={side}",
                i / side + 1,
                i % side + 1
            )));
        }
        out.push(v as u16);
    }
    Grid::from_cells(order, out).map_err(|e| input(format!("{place}: {e}")))
}

/// A grid as a 2-D NumPy array of int64 (0 = empty): one array, filled in place.
pub fn array<'py>(py: Python<'py>, g: &Grid) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let side = g.order().size();
    // SAFETY: the array is new, C-ordered and not yet shared; every element is written below
    // before it is handed to Python.
    let arr = unsafe { PyArray2::<i64>::new(py, [side, side], false) };
    let cells = unsafe { arr.as_slice_mut() }.map_err(|e| input(format!("{ARRAY}: {e}")))?;
    for (c, &d) in cells.iter_mut().zip(g.cells()) {
        *c = i64::from(d);
    }
    Ok(arr)
}

/// An optional value as Python writes it in a repr: `None`, a number, or quoted text.
pub fn py_repr<T: std::fmt::Debug>(v: &Option<T>) -> String {
    v.as_ref().map_or("None".to_string(), |v| format!("{v:?}"))
}

/// Every puzzle of `source` as an n²×n² int64 array (0 = empty), in order.
///
/// `source`: text in either format, a path to a puzzle file, a list of puzzles, or an
/// array; a malformed puzzle raises `InputError` naming the file (or `<input>`), line and
/// column.
#[pyfunction]
fn read<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
) -> PyResult<Vec<Bound<'py, PyArray2<i64>>>> {
    items(source)?.iter().map(|i| array(py, &i.grid)).collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read, m)?)
}
