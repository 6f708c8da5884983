//! `generate`: full grids, or puzzles carved from them, made by a generator of the registry as
//! `sudoku-bench generate` makes them (the same seeds for the same options), each judged by the
//! runner's judge: a grid that is not a solution never comes back.

use std::time::Instant;

use numpy::PyArray2;
use pyo3::prelude::*;
use sudoku_core::{derive_seed, rng_from_seed, Order, Outcome, Puzzle, Status};
use sudoku_gen::{CarveEnd, Carved};
use sudoku_runner::clock::{Clock, RealClock};
use sudoku_runner::experiment::{parse_rating, CarveSpec, Kind, Shape};
use sudoku_runner::judge::{judge, Answer as Said};
use sudoku_runner::kind::{Job, KindSettings};
use sudoku_runner::results::{ms, TrialStatus};

use crate::answers::{budget_of, configured, params_of, variant_of};
use crate::errors::{guard, input, method as method_error};
use crate::input::array;

/// How often the loop looks for Ctrl-C between grids.
const SIGNAL_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// One generated grid, and the puzzle carved from it when one was asked for.
#[pyclass(module = "sudoku_bench", frozen, get_all)]
pub struct Generated {
    /// The full grid (verified), an n²×n² array.
    grid: Py<PyArray2<i64>>,
    /// The carved puzzle (0 = empty), or `None` when only grids were asked for.
    puzzle: Option<Py<PyArray2<i64>>>,
    /// The carved puzzle's clues, or `None`.
    clues: Option<usize>,
    /// Why carving stopped: `target` (the clues asked), `minimal` (no clue can go), `kept`
    /// (a share kept), `time`/`nodes`/`iterations` (a limit ran out: unique, maybe not
    /// minimal), `undecided` (checks ran out of their nodes: unique, maybe not minimal);
    /// `None` without carving.
    carve_end: Option<String>,
    /// Uniqueness checks made while carving.
    checks: u64,
    /// Wall time of the call (ms).
    wall_ms: f64,
    /// CPU time of the call on its thread (ms).
    cpu_ms: f64,
    /// Restarts of the generator.
    restarts: u64,
    /// The grid's seed (derived as `sudoku-bench generate` derives it).
    seed: u64,
}

#[pymethods]
impl Generated {
    fn __repr__(&self) -> String {
        format!(
            "Generated(clues={}, carve_end={}, wall_ms={:.3})",
            crate::input::py_repr(&self.clues),
            crate::input::py_repr(&self.carve_end),
            self.wall_ms
        )
    }
}

/// `carve_end` in words.
fn end_name(end: CarveEnd) -> String {
    match end {
        CarveEnd::Target => "target".into(),
        CarveEnd::Minimal => "minimal".into(),
        CarveEnd::Kept => "kept".into(),
        CarveEnd::Budget(l) => l.name().into(),
        CarveEnd::Undecided(_) => "undecided".into(),
    }
}

/// Makes `count` full grids of `order` (n, for n²×n² grids), or puzzles carved from them, as
/// `sudoku-bench generate` does (the same grids for the same arguments).
///
/// `method`, `params`: a full-grid generator of `methods()`. `puzzle`: carve puzzles of a shape
/// ("unique", "minimal", a rating level such as "hard", "clues-easy", or "keep=0.4");
/// `rating`: puzzles rated in "MIN..MAX" (0 to 10); `checker`: the complete method that checks
/// uniqueness while carving (default prop); `clues`: with puzzle="unique", stop at this many;
/// `check_nodes`: nodes each uniqueness check may spend. `time_limit`: seconds per grid. Every
/// grid is verified. Returns a list of `Generated`. Ctrl-C stops between two grids.
#[pyfunction]
#[pyo3(signature = (order, count=1, method="prop-fill", params=None, *, seed=0, puzzle=None, rating=None, checker=None, clues=None, check_nodes=None, variant="classic", time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    order: usize,
    count: usize,
    method: &str,
    params: Option<&Bound<'_, PyAny>>,
    seed: u64,
    puzzle: Option<&str>,
    rating: Option<&str>,
    checker: Option<String>,
    clues: Option<usize>,
    check_nodes: Option<u64>,
    variant: &str,
    time_limit: Option<f64>,
) -> PyResult<Vec<Generated>> {
    let order = Order::new(order).map_err(|e| input(format!("order: {e}")))?;
    if count == 0 {
        return Err(input("count: give at least 1"));
    }
    let shape = match (puzzle, rating) {
        (Some(_), Some(_)) => {
            return Err(input(
                "puzzle and rating: give one (rating makes puzzles rated in MIN..MAX)",
            ))
        }
        (Some(p), None) => Some(
            p.parse::<Shape>()
                .map_err(|e| input(format!("puzzle: {e}")))?,
        ),
        (None, Some(r)) => Some(
            parse_rating(r)
                .map(|(lo, hi)| Shape::Rated(lo, hi))
                .map_err(|e| input(format!("rating: {e}")))?,
        ),
        (None, None) => None,
    };
    if shape.is_none() && (checker.is_some() || check_nodes.is_some()) {
        return Err(input(
            "checker and check_nodes apply to puzzle or rating only (they check uniqueness while carving)",
        ));
    }
    if check_nodes == Some(0) {
        return Err(input("check_nodes: give at least 1"));
    }
    if let Some(c) = clues {
        if !matches!(shape, Some(Shape::Unique)) {
            return Err(input("clues applies to puzzle=\"unique\" only"));
        }
        if c == 0 || c > order.cells() {
            return Err(input(format!(
                "clues: give 1 to {} (the cells of a {order} grid)",
                order.cells()
            )));
        }
    }
    let carve = shape.map(|puzzle| CarveSpec {
        puzzle,
        clues,
        checker: checker.unwrap_or_else(|| "prop".to_string()),
        check_nodes,
    });
    let settings = KindSettings {
        carves: carve.iter().cloned().collect(),
        ..KindSettings::default()
    };
    let params = params_of(params)?;
    let (mut gen, label, _) = configured(Kind::Generate, method, &params, &settings)?;
    let budget = budget_of(time_limit, None, None)?;
    let variant = variant_of(variant)?;
    let empty = Puzzle::empty(order, variant);
    let made = guard(&label, || {
        py.detach(|| {
            let clock = RealClock::new();
            let mut made = Vec::with_capacity(count);
            let mut asked = Instant::now();
            for k in 0..count {
                let seed = derive_seed(
                    seed,
                    &label,
                    &format!("generate {order} {variant}"),
                    k as u64,
                );
                let mut rng = rng_from_seed(seed);
                let (w0, c0) = (clock.wall(), clock.cpu());
                let answer = gen
                    .attempt(
                        &Job {
                            puzzle: &empty,
                            carve: carve.as_ref(),
                            budget: &budget,
                        },
                        &mut rng,
                    )
                    .map_err(|e| method_error(format!("grid {k}: {label}: {e}")))?;
                let times = (
                    ms(clock.wall().saturating_sub(w0)),
                    ms(clock.cpu().saturating_sub(c0)),
                );
                let trial = judge(&answer, &empty);
                match trial.status {
                    TrialStatus::Solved => {}
                    _ => {
                        let stats = answer.stats();
                        if let Some((_, why)) = stats.extra.iter().find(|(k, _)| k == "unsupported")
                        {
                            return Err(input(format!(
                                "params: `{method}` with variant {variant}: {why}"
                            )));
                        }
                        return Err(method_error(format!(
                            "grid {k}: {label}: {}; {k} of {count} made",
                            trial.describe()
                        )));
                    }
                }
                made.push((answer, times, seed));
                if asked.elapsed() >= SIGNAL_EVERY {
                    Python::attach(|py| py.check_signals())?;
                    asked = Instant::now();
                }
            }
            Ok(made)
        })
    })?;
    made.into_iter()
        .map(|(answer, (wall_ms, cpu_ms), seed)| {
            let restarts = answer.stats().restarts;
            let Said::Generate {
                outcome:
                    Outcome {
                        status: Status::Solved(grid),
                        ..
                    },
                carved,
            } = answer
            else {
                return Err(method_error(format!("{label} gave no grid")));
            };
            let carved: Option<Carved> = carved.and_then(Result::ok);
            Ok(Generated {
                grid: array(py, &grid)?.unbind(),
                puzzle: carved
                    .as_ref()
                    .map(|c| array(py, &c.givens).map(Bound::unbind))
                    .transpose()?,
                clues: carved.as_ref().map(|c| c.clues),
                carve_end: carved.as_ref().map(|c| end_name(c.end)),
                checks: carved.as_ref().map_or(0, |c| c.checks),
                wall_ms,
                cpu_ms,
                restarts,
                seed,
            })
        })
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Generated>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)
}
