//! The relaxation capability: a method that can solve a continuous relaxation of its model
//! registers a [`RelaxerInfo`] under its own name, so `kind = "relax"` runs only methods that
//! have one (today the ILP's LP relaxation); a relaxation that can also examine its polytope
//! ([`PolytopeCheck`]) serves `kind = "logic-lp"`.

use std::fmt;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{Budget, Grid, ParamError, Params, Puzzle, Rng};

/// What a relaxation reports: the one type of it, from the method that solves it to the runner.
/// It crosses from a forked child whole, as its derived encoding (`sudoku-isolate`), except the
/// child's CPU time, which only the parent measures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RelaxReport {
    /// Is the relaxation feasible at all? (When not, the puzzle has no solution.)
    pub feasible: bool,
    /// Is its optimum integral?
    pub integral: bool,
    /// Variables of the relaxation (the LP's columns).
    pub variables: usize,
    /// Number of fractional variables at the optimum.
    pub fractional: usize,
    /// Is the integral point the relaxation's only feasible point, when that was asked?
    /// (`Some(false)` for a fractional optimum, `None` when not asked or infeasible.)
    pub unique: Option<bool>,
    /// The optimum's objective value.
    pub objective: Option<f64>,
    /// The optimum as a grid, when it is integral.
    pub grid: Option<Grid>,
    /// Solver iterations over every relaxation solved (simplex iterations).
    pub iterations: u64,
    /// Method-specific details (name, value).
    pub extra: Vec<(String, String)>,
    /// Time spent building the model.
    pub build_time: Option<Duration>,
    /// Time in the solver of the relaxation.
    pub solve_time: Option<Duration>,
    /// The budget ran out before the relaxation was solved: the verdicts above are unknown.
    pub stopped: Option<crate::Limit>,
    /// CPU time of a child process the relaxation ran in (the caller's clock does not see it).
    #[serde(skip)]
    pub child_cpu: Option<Duration>,
}

/// A relaxation that failed to run (the solver library's error, as text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("relaxation failed: {0}")]
pub struct RelaxError(pub String);

/// A method that solves a relaxation of a puzzle.
pub trait Relaxer {
    /// Solves the relaxation of `puzzle` within `budget`.
    fn relax(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Result<RelaxReport, RelaxError>;

    /// Checks the configuration against puzzles of `order` before any is relaxed (as
    /// [`crate::Solver::check_order`]); the default accepts every order.
    fn check_order(&self, order: crate::Order) -> Result<(), crate::ParamError> {
        let _ = order;
        Ok(())
    }
}

/// What a relaxation of a puzzle's reduced model says about its polytope, for
/// [`PolytopeCheck::relax`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolytopeReport {
    /// Is the relaxation feasible?
    pub feasible: bool,
    /// Its optimum, when that is integral.
    pub grid: Option<Grid>,
    /// Is the integral optimum the polytope's only point? (`Some(false)` for a fractional
    /// optimum, `None` when infeasible.)
    pub unique: Option<bool>,
    /// Simplex iterations.
    pub iterations: u64,
}

/// The polytope questions of Teles's Theorem 4 (pigeonhole-solvable ⇒ the LP has one
/// point, the solution), asked of the relaxation of a puzzle's reduced model without
/// parameters. Each gives up at the deadline, with `Ok(None)`.
#[derive(Clone, Copy, Debug)]
pub struct PolytopeCheck {
    /// The relaxation, and whether its integral optimum is its only point.
    pub relax: fn(&Puzzle, Option<Instant>) -> Result<Option<PolytopeReport>, RelaxError>,
    /// The smallest and largest value over the polytope of an objective drawn from `rng`
    /// (`Some(None)`: the relaxation is infeasible).
    #[allow(clippy::type_complexity)]
    pub random_range:
        fn(&Puzzle, Option<Instant>, &mut Rng) -> Result<Option<Option<(f64, f64)>>, RelaxError>,
}

/// The relaxation capability of a registered method.
#[derive(Clone, Copy)]
pub struct RelaxerInfo {
    /// The [`crate::MethodInfo`] name it belongs to; takes the same parameters.
    pub method: &'static str,
    /// May run on several threads at once.
    pub thread_safe: bool,
    /// Builds a configured relaxer; unknown keys and bad values are errors.
    pub build: fn(&Params) -> Result<Box<dyn Relaxer + Send>, ParamError>,
    /// The polytope questions of `kind = "logic-lp"`, when the relaxation can answer them.
    pub polytope: Option<PolytopeCheck>,
}

impl fmt::Debug for RelaxerInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RelaxerInfo")
            .field("method", &self.method)
            .finish()
    }
}
