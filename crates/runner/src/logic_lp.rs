//! Kind `logic-lp`: Teles's experiment on one puzzle. Which nested rule sets of
//! sudoku-logic solve it (singles, pigeonhole, two-unit, all); whether the LP relaxation of a
//! method's reduced model (its [`PolytopeCheck`] capability) is integral, equal to the
//! solution, and the polytope's only point (the relaxation's exact check, and independently a
//! random objective minimised and maximised).
//!
//! Theorem 4 (Teles after Provan) says: solvable by the pigeonhole rule ⇒ LP unique and
//! integral. A pigeonhole-solvable puzzle with `lp_unique = false` would refute the theorem
//! or one of the two implementations.

use std::time::Instant;

use crate::error::{Result, RunError};
use crate::results::LogicLpColumns;
use sudoku_core::{
    Budget, Count, CountEnd, Deadline, Limit, PolytopeCheck, Puzzle, RelaxError, Rng, Solver,
};
use sudoku_logic::{trace, End, LogicConfig, RuleSet};
use sudoku_prop::Prop;

/// Relative gap under which the random objective's minimum and maximum count as equal.
const RANGE_TOL: f64 = 1e-7;

/// What the experiment finds about one puzzle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogicLpReport {
    /// Solutions, counted up to 2.
    pub solutions: u64,
    /// Solved by each rule set of [`RuleSet::ALL`], in that order.
    pub solvable: [bool; 4],
    /// Steps of the run with every rule.
    pub steps: usize,
    /// The LP relaxation is feasible.
    pub lp_feasible: bool,
    /// Its optimum is integral.
    pub lp_integral: bool,
    /// The integral optimum is the puzzle's (first) solution.
    pub lp_equals_solution: Option<bool>,
    /// The relaxation's exact check: the polytope is that one integral point.
    pub lp_unique: Option<bool>,
    /// A random objective has the same minimum and maximum over the polytope.
    pub lp_random_unique: Option<bool>,
    /// Simplex iterations of the relaxation.
    pub lp_iterations: u64,
    /// The budget ran out before the analysis was complete (the rest is then not filled in).
    pub stopped: Option<Limit>,
}

impl LogicLpReport {
    /// The smallest rule set that solves the puzzle, or `none`.
    pub fn rules_needed(&self) -> &'static str {
        RuleSet::ALL
            .iter()
            .zip(self.solvable)
            .find(|(_, s)| *s)
            .map_or("none", |(r, _)| r.name())
    }

    /// Its columns in the trial's row.
    pub fn columns(&self) -> LogicLpColumns {
        LogicLpColumns {
            rules_needed: self.rules_needed().to_string(),
            lp_integral: self.lp_feasible.then_some(self.lp_integral),
            lp_unique: self.lp_unique,
        }
    }

    /// Name/value pairs for the `extra` column.
    pub fn extra(&self) -> Vec<(String, String)> {
        let opt = |o: Option<bool>| o.map_or(String::new(), |b| b.to_string());
        let mut v: Vec<(String, String)> = RuleSet::ALL
            .iter()
            .zip(self.solvable)
            .map(|(r, s)| (r.name().to_string(), s.to_string()))
            .collect();
        v.extend([
            ("solutions".into(), self.solutions.to_string()),
            ("steps".into(), self.steps.to_string()),
            ("lp_feasible".into(), self.lp_feasible.to_string()),
            ("lp_equals_solution".into(), opt(self.lp_equals_solution)),
            ("lp_random_unique".into(), opt(self.lp_random_unique)),
            ("lp_iterations".into(), self.lp_iterations.to_string()),
        ]);
        v
    }
}

/// The experiment with a method's polytope check (from the registry), ready for puzzles.
pub struct LogicLp {
    /// Counts the solutions (up to 2).
    counter: Prop,
    check: PolytopeCheck,
}

impl LogicLp {
    /// The experiment on the relaxation that `check` examines.
    pub fn new(check: PolytopeCheck) -> LogicLp {
        LogicLp {
            counter: Prop::default(),
            check,
        }
    }

    /// The analysis of one puzzle ([`analyse`]).
    pub fn attempt(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Result<LogicLpReport> {
        analyse(&mut self.counter, &self.check, puzzle, budget, rng)
    }
}

/// The puzzle's analysis, every stage within what is left of the trial's time limit (a stage
/// that runs out ends the whole trial as a timeout, never as a verdict).
fn analyse(
    prop: &mut Prop,
    check: &PolytopeCheck,
    puzzle: &Puzzle,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<LogicLpReport> {
    let at = budget.deadline(Instant::now());
    let rest = || Budget {
        time: at.map(|a| a.saturating_duration_since(Instant::now())),
        ..*budget
    };
    let stopped = |limit| LogicLpReport {
        stopped: Some(limit),
        ..LogicLpReport::default()
    };
    let count = prop.count(puzzle, Count::collecting(2), &rest(), rng)?;
    if let CountEnd::Exhausted(limit) = count.end {
        return Ok(stopped(limit));
    }
    let mut r = LogicLpReport {
        solutions: count.count,
        ..LogicLpReport::default()
    };
    for (i, rules) in RuleSet::ALL.into_iter().enumerate() {
        let config = LogicConfig {
            rules,
            ..LogicConfig::default()
        };
        let run = trace(puzzle, &config, &mut Deadline::new(&rest(), 64));
        if matches!(run.end, End::Timeout) {
            return Ok(stopped(Limit::Time));
        }
        r.solvable[i] = matches!(run.end, End::Solved(_));
        if rules == RuleSet::All {
            r.steps = run.steps.len();
        }
    }
    // The relaxation is deterministic; the random objective is drawn from the trial's seed.
    let Some(lp) = (check.relax)(puzzle, at).map_err(failed)? else {
        return Ok(stopped(Limit::Time));
    };
    r.lp_feasible = lp.feasible;
    r.lp_integral = lp.grid.is_some();
    r.lp_unique = lp.unique;
    r.lp_iterations = lp.iterations;
    r.lp_equals_solution = match (&lp.grid, count.solutions.first()) {
        (Some(g), Some(s)) => Some(g == s),
        _ => None,
    };
    let Some(range) = (check.random_range)(puzzle, at, rng).map_err(failed)? else {
        return Ok(stopped(Limit::Time));
    };
    r.lp_random_unique = range.map(|(lo, hi)| hi - lo <= RANGE_TOL * hi.abs().max(1.0));
    Ok(r)
}

/// The relaxation's own message, as the trial's error.
fn failed(e: RelaxError) -> RunError {
    RunError::Trial(e.0)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use sudoku_core::{format, rng_from_seed, Order, Variant};

    use super::*;

    /// The polytope check the registry holds for `ilp`, as `run` finds it.
    fn ilp() -> PolytopeCheck {
        crate::registry::Registry::standard()
            .relaxer("ilp")
            .and_then(|r| r.polytope)
            .expect("the ILP's relaxation checks its polytope")
    }

    /// Budgets (issue 14): the analysis of a grid too large to finish stops on time as a
    /// timeout, whichever stage the deadline falls in; a timed assertion on purpose, as in
    /// tests/budgets.rs.
    #[test]
    fn a_large_grid_stops_on_time() {
        for n in [6, 7] {
            let puzzle = Puzzle::empty(Order::new(n).unwrap(), Variant::Classic);
            let limit = Duration::from_secs(1);
            let t = Instant::now();
            let r = analyse(
                &mut Prop::default(),
                &ilp(),
                &puzzle,
                &Budget::time(limit),
                &mut rng_from_seed(1),
            )
            .unwrap();
            let elapsed = t.elapsed();
            eprintln!("order {n}: {elapsed:?}");
            assert_eq!(r.stopped, Some(Limit::Time), "order {n}: {r:?}");
            assert!(
                elapsed <= limit.mul_f64(1.1) + Duration::from_millis(250),
                "order {n}: {elapsed:?}"
            );
        }
    }

    #[test]
    fn a_small_puzzle_is_analysed_whole() {
        let text =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let grid = format::parse_str(text, "t").unwrap().remove(0).grid;
        let puzzle = Puzzle::new(grid, Variant::Classic);
        let r = analyse(
            &mut Prop::default(),
            &ilp(),
            &puzzle,
            &Budget::time(Duration::from_secs(60)),
            &mut rng_from_seed(1),
        )
        .unwrap();
        assert_eq!(r.stopped, None);
        assert_eq!(r.solutions, 1);
        assert!(r.lp_feasible);
    }
}
