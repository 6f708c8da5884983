//! `check`, `rate` and `explain`: the givens and a solution checked by `sudoku-core`'s verifier
//! and `sudoku-logic`'s checks of the givens, and the rule solver run on one puzzle
//! ([`sudoku_logic::examine`], as `sudoku-bench rate` and `explain` run it).

use numpy::PyArray2;
use pyo3::prelude::*;
use sudoku_core::{verify_solution, Params, Puzzle};
use sudoku_logic::{
    cell_name, examine, End, Examined, Logic, LogicConfig, Rating as Rated, RuleSet, Unrateable,
};

use crate::answers::{budget_of, variant_of};
use crate::errors::{guard, input};
use crate::input::{array, one, py_repr};

/// The default time limit of `rate` and `explain`, in seconds, as the command line's.
const RULES_TIME_LIMIT: f64 = 60.0;

/// What `check` says of a puzzle (and its solution).
#[pyclass(module = "sudoku_bench", frozen, get_all)]
pub struct Check {
    /// The puzzle's place.
    puzzle: String,
    /// The givens are consistent (and the solution, when given, solves the puzzle).
    ok: bool,
    /// `givens consistent`, `solution valid`, or what is wrong (`contradictory givens: row 1
    /// has digit 5 twice …`, `solution invalid: …`).
    message: String,
}

#[pymethods]
impl Check {
    fn __repr__(&self) -> String {
        format!(
            "Check(ok={}, message={:?})",
            if self.ok { "True" } else { "False" },
            self.message
        )
    }

    fn __bool__(&self) -> bool {
        self.ok
    }
}

/// Checks a puzzle's givens for contradictions, and `solution` against it when given, as
/// `sudoku-bench check` does.
///
/// Returns a `Check` (true when it passes): `message` is "givens consistent", "solution
/// valid", or what is wrong ("contradictory givens: row 1 has digit 5 twice …",
/// "solution invalid: …").
#[pyfunction]
#[pyo3(signature = (puzzle, solution=None, *, variant="classic"))]
fn check(
    puzzle: &Bound<'_, PyAny>,
    solution: Option<&Bound<'_, PyAny>>,
    variant: &str,
) -> PyResult<Check> {
    let item = one(puzzle, "check on each puzzle")?;
    let p = Puzzle::new(item.grid, variant_of(variant)?);
    let solution = solution
        .map(|s| one(s, "check on each solution"))
        .transpose()?;
    let verdict = match Unrateable::of_givens(&p) {
        Some(why) => Err(why.to_string()),
        None => match solution {
            None => Ok("givens consistent".to_string()),
            Some(sol) => match verify_solution(&p, &sol.grid) {
                Ok(()) => Ok("solution valid".to_string()),
                Err(v) => Err(format!("solution invalid: {v}")),
            },
        },
    };
    Ok(Check {
        puzzle: item.place,
        ok: verdict.is_ok(),
        message: verdict.unwrap_or_else(|e| e),
    })
}

/// A puzzle's rating by the rule solver.
#[pyclass(module = "sudoku_bench", frozen, get_all)]
#[derive(Clone)]
pub struct Rating {
    /// The puzzle's place.
    puzzle: String,
    /// How the rules ended: solved, stuck, infeasible or timeout.
    end: String,
    /// The hardest rule used (`naked-single`, `pigeonhole-2`, …), or `None`.
    hardest: Option<String>,
    /// Steps applied.
    steps: usize,
    /// The score, 0 to 10, or `None` when the puzzle has no rating.
    score: Option<f64>,
    /// The level (`easy` … `beyond-logic`), or `None` when the puzzle has no rating.
    level: Option<String>,
    /// Why it has no rating: no solution, or several; `None` otherwise.
    unrateable: Option<String>,
    /// The time limit stopped the rules (no rating).
    timeout: bool,
    /// The rules are stuck and the search for a second solution ran out of time: the rating
    /// is of the rules alone, on a grid that may have several solutions.
    undecided: bool,
}

#[pymethods]
impl Rating {
    fn __repr__(&self) -> String {
        format!(
            "Rating(end={:?}, hardest={}, steps={}, score={}, level={})",
            self.end,
            py_repr(&self.hardest),
            self.steps,
            py_repr(&self.score),
            py_repr(&self.level)
        )
    }
}

/// The rules' configuration, checked as the command line's flags are.
fn config(rules: &str, subset_max: usize, hall: bool) -> PyResult<LogicConfig> {
    let rules: RuleSet = rules
        .parse()
        .map_err(|e: sudoku_logic::UnknownRuleSet| input(format!("rules: {e}")))?;
    // The `logic` method's own parameter says which values it takes.
    let mut p = Params::new();
    p.set("subset_max", subset_max.to_string());
    Logic::from_params(&p).map_err(|e| input(format!("subset_max: {e}")))?;
    Ok(LogicConfig {
        rules,
        subset_max,
        hall,
    })
}

/// The rules run on one puzzle, with the GIL released.
fn examined(
    py: Python<'_>,
    puzzle: &Puzzle,
    cfg: &LogicConfig,
    time_limit: f64,
) -> PyResult<Examined> {
    let budget = budget_of(Some(time_limit), None, None)?;
    guard("the rules", || {
        Ok(py.detach(|| examine(puzzle, cfg, &budget)))
    })
}

/// The rating of a run.
fn rating_of(place: &str, e: &Examined) -> Rating {
    let r = Rated::of(&e.trace);
    let rated = e.why.is_none() && !e.timeout;
    Rating {
        puzzle: place.to_string(),
        end: r.end.to_string(),
        hardest: r.hardest.map(|h| h.name()),
        steps: r.steps,
        score: rated.then_some(r.score),
        level: rated.then(|| r.level.name().to_string()),
        unrateable: e.why.as_ref().map(ToString::to_string),
        timeout: e.timeout,
        undecided: e.undecided,
    }
}

/// Rates one puzzle with the rule solver, as `sudoku-bench rate` does.
///
/// `rules`: "singles", "pigeonhole", "two-unit" or "all"; `subset_max`: the largest pigeonhole
/// pattern searched by enumeration; `hall`: also look for larger ones through a matching;
/// `time_limit`: seconds for the rules and the search where they are stuck. Returns a
/// `Rating`: how the rules ended, the hardest rule, steps, score (0 to 10) and level; a puzzle
/// with no solution or several has no score and says why (`unrateable`).
#[pyfunction]
#[pyo3(signature = (puzzle, *, rules="all", subset_max=4, hall=true, variant="classic", time_limit=RULES_TIME_LIMIT))]
fn rate(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    rules: &str,
    subset_max: usize,
    hall: bool,
    variant: &str,
    time_limit: f64,
) -> PyResult<Rating> {
    let item = one(puzzle, "rate on each puzzle")?;
    let cfg = config(rules, subset_max, hall)?;
    let p = Puzzle::new(item.grid, variant_of(variant)?);
    Ok(rating_of(&item.place, &examined(py, &p, &cfg, time_limit)?))
}

/// One step of the rule solver.
#[pyclass(module = "sudoku_bench", frozen, get_all)]
pub struct Step {
    /// 1-based.
    step: usize,
    /// The rule (`naked-single`, `pigeonhole-2`, `x-wing`, …).
    rule: String,
    /// The units it looked at (`row 3`, `column 4`, `block 5`).
    units: Vec<String>,
    /// The cells of the pattern (`r1c4`).
    cells: Vec<String>,
    /// The digits of the pattern.
    digits: Vec<u16>,
    /// The cell filled and its digit (singles), or `None`.
    place: Option<(String, u16)>,
    /// The candidates removed, as (cell, digit).
    eliminate: Vec<(String, u16)>,
    /// The step as one line of text.
    text: String,
}

#[pymethods]
impl Step {
    fn __repr__(&self) -> String {
        format!("Step({}: {})", self.step, self.text)
    }
}

/// Every step of the rule solver on a puzzle, and how it ended.
#[pyclass(module = "sudoku_bench", frozen, get_all)]
pub struct Explanation {
    /// The puzzle's place.
    puzzle: String,
    /// Order n.
    order: usize,
    /// Givens.
    givens: usize,
    /// The rule set (`all`, `singles`, …).
    rules: String,
    /// The steps, in order.
    steps: Vec<Py<Step>>,
    /// solved, stuck, infeasible or timeout.
    end: String,
    /// Open cells at the end (0 when solved).
    open_at_end: usize,
    /// The grid at the end (solved, or where the rules got stuck), or `None`.
    grid: Option<Py<PyArray2<i64>>>,
    /// Why the puzzle has no solution, or `None`.
    no_solution: Option<String>,
    /// The puzzle has several solutions.
    several_solutions: bool,
    /// The rating, or `None` when the puzzle has none (no solution, several, out of time).
    rating: Option<Py<Rating>>,
}

#[pymethods]
impl Explanation {
    fn __repr__(&self) -> String {
        format!(
            "Explanation(puzzle={:?}, steps={}, end={:?})",
            self.puzzle,
            self.steps.len(),
            self.end
        )
    }
}

/// Every step of the rule solver on one puzzle, as `sudoku-bench explain --json` gives them.
///
/// The arguments are `rate`'s. Returns an `Explanation`: its `steps` (`Step` records: rule,
/// units, cells, digits, the cell placed, the candidates removed, the step as text), how the
/// rules ended, the grid at the end, and the rating (or why the puzzle has none).
#[pyfunction]
#[pyo3(signature = (puzzle, *, rules="all", subset_max=4, hall=true, variant="classic", time_limit=RULES_TIME_LIMIT))]
fn explain(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    rules: &str,
    subset_max: usize,
    hall: bool,
    variant: &str,
    time_limit: f64,
) -> PyResult<Explanation> {
    let item = one(puzzle, "explain on each puzzle")?;
    let cfg = config(rules, subset_max, hall)?;
    let p = Puzzle::new(item.grid, variant_of(variant)?);
    let e = examined(py, &p, &cfg, time_limit)?;
    let geo = p.geometry();
    let cell = |c: usize| cell_name(&geo, c);
    let steps = e
        .trace
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Py::new(
                py,
                Step {
                    step: i + 1,
                    rule: s.rule.name(),
                    units: s
                        .units
                        .iter()
                        .map(|&u| geo.unit_kind(u).to_string())
                        .collect(),
                    cells: s.cells.iter().map(|&c| cell(c)).collect(),
                    digits: s.digits.clone(),
                    place: s.place.map(|(c, d)| (cell(c), d)),
                    eliminate: s.eliminate.iter().map(|&(c, d)| (cell(c), d)).collect(),
                    text: s.describe(&geo),
                },
            )
        })
        .collect::<PyResult<_>>()?;
    let several = matches!(e.why, Some(Unrateable::Several { .. }));
    let rating = rating_of(&item.place, &e);
    let grid = match &e.trace.end {
        End::Solved(g) | End::Stuck { grid: g, .. } => Some(array(py, g)?.unbind()),
        End::Contradiction | End::Timeout => None,
    };
    Ok(Explanation {
        order: p.order().n(),
        givens: p.givens().filled(),
        rules: cfg.rules.name().to_string(),
        steps,
        end: rating.end.clone(),
        open_at_end: e.trace.open_at_end(),
        grid,
        no_solution: e.why.as_ref().filter(|_| !several).map(ToString::to_string),
        several_solutions: several,
        rating: if rating.score.is_some() {
            Some(Py::new(py, rating)?)
        } else {
            None
        },
        puzzle: item.place,
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Check>()?;
    m.add_class::<Rating>()?;
    m.add_class::<Step>()?;
    m.add_class::<Explanation>()?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)
}
