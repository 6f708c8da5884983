//! Kind `logic-lp`: seed 004's experiment on one puzzle. Which nested rule sets of
//! sudoku-logic solve it (singles, pigeonhole, two-unit, all); whether the LP relaxation of the
//! ILP crate is integral, equal to the solution, and the polytope's only point (the relaxation's
//! exact check, and independently a random objective minimised and maximised).
//!
//! Theorem 4 (Teles after Provan) says: solvable by the pigeonhole rule ⇒ LP unique and
//! integral. A pigeonhole-solvable puzzle with `lp_unique = false` would refute the theorem
//! or one of the two implementations.

use anyhow::Result;
use sudoku_core::{rng_from_seed, Budget, Deadline, Puzzle, Rng, Solver};
use sudoku_logic::{trace, End, LogicConfig, RuleSet};
use sudoku_prop::Prop;

use crate::runner::judge::Answer;
use crate::runner::kind::{Job, TrialMethod};

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

/// The trial of kind `logic-lp` (method `ilp`, whose relaxation it uses).
pub struct LogicLpTrial {
    prop: Prop,
}

impl LogicLpTrial {
    pub fn new() -> LogicLpTrial {
        LogicLpTrial {
            prop: Prop::default(),
        }
    }
}

impl TrialMethod for LogicLpTrial {
    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        Ok(Answer::LogicLp(analyse(
            &mut self.prop,
            job.puzzle,
            job.budget,
            rng,
        )?))
    }
}

fn analyse(
    prop: &mut Prop,
    puzzle: &Puzzle,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<LogicLpReport> {
    let count = prop.count(puzzle, 2, true, budget, rng)?;
    let mut r = LogicLpReport {
        solutions: count.count,
        ..LogicLpReport::default()
    };
    for (i, rules) in RuleSet::ALL.into_iter().enumerate() {
        let config = LogicConfig {
            rules,
            ..LogicConfig::default()
        };
        let run = trace(puzzle, &config, &mut Deadline::new(budget, 64));
        r.solvable[i] = matches!(run.end, End::Solved(_));
        if rules == RuleSet::All {
            r.steps = run.steps.len();
        }
    }
    // The relaxation is deterministic; the random objective is drawn from the trial's seed.
    let mut fixed = rng_from_seed(0);
    let lp = sudoku_ilp::relax(puzzle, &sudoku_ilp::RelaxConfig::default(), &mut fixed)?;
    r.lp_feasible = lp.feasible;
    r.lp_integral = lp.integral;
    r.lp_unique = lp.unique;
    r.lp_iterations = lp.iterations;
    r.lp_equals_solution = match (&lp.grid, count.solutions.first()) {
        (Some(g), Some(s)) => Some(g == s),
        _ => None,
    };
    r.lp_random_unique = sudoku_ilp::random_objective_range(puzzle, rng)?
        .map(|(lo, hi)| hi - lo <= RANGE_TOL * hi.abs().max(1.0));
    Ok(r)
}
