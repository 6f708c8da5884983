//! # sudoku-logic
//!
//! Sudoku solved the way people and constraint programmers solve it, for every order `n` and
//! both variants: a rule solver (`logic`) that applies the easiest rule that makes progress and
//! explains each step, a difficulty rating built on it, and `gac`, a CP solver that keeps
//! generalised arc consistency on every AllDifferent unit. Seed paper 004 (Teles) supplies the
//! pigeonhole rule and its LP-relaxation theorem; paper 002 the CP model it compares.
//!
//! - [`trace`]: the run of the rules on a puzzle, every [`Step`] recorded (rule, units, cells,
//!   digits placed or eliminated); [`Step::describe`] prints one.
//! - [`Rating`] and [`rate`]: hardest rule, steps, score and [`Level`] (scale in the README).
//! - [`Logic`]: the `logic` method; ends `solved`, `stuck` (a new [`sudoku_core::Status`]: the
//!   enabled rules cannot finish), or `infeasible` when the rules meet a contradiction;
//!   `fallback=prop` searches from where the rules stopped, which makes it complete.
//!
//! The rules, easiest first (each in its own module behind one trait): naked single, hidden
//! single, locked candidates (pointing, claiming), the pigeonhole rule in sizes 2, 3, 4 and
//! larger (naked and hidden subsets), fish (X-wing, swordfish, jellyfish), XY-wing, XYZ-wing.
//! `rules=` picks the nested sets `singles`, `pigeonhole`, `two-unit`, `all`.
//!
//! [`methods`] is the registry the benchmark runner reads.
//!
//! ```
//! use sudoku_core::{format, Budget, Deadline, Puzzle, Variant};
//! use sudoku_logic::{rate, trace, End, Level, LogicConfig};
//!
//! let text = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
//! let puzzle = Puzzle::new(format::parse_str(text, "ex").unwrap().remove(0).grid, Variant::Classic);
//! let run = trace(&puzzle, &LogicConfig::default(), &mut Deadline::new(&Budget::unlimited(), 64));
//! assert!(matches!(run.end, End::Solved(_)));
//! assert_eq!(rate(&puzzle).level, Level::Easy);
//! ```
#![deny(missing_docs)]

mod board;
pub mod gac;
mod rate;
mod rules;
mod solve;
mod step;

use std::time::Instant;

use sudoku_core::{
    choices, number_param, Budget, Capabilities, Deadline, Limit, MethodInfo, Outcome, Param,
    ParamError, ParamSpec, Params, Puzzle, Rng, Solver, Stats, Status,
};
use sudoku_prop::Prop;

pub use crate::board::Contradiction;
pub use crate::rate::{rate, Level, Rating, Unrateable};
pub use crate::solve::{first_step, trace, End, LogicConfig, Trace};
pub use crate::step::{cell_name, RuleKind, RuleSet, Step, UnknownRuleSet};

const LOGIC: &str = "logic";

const RULES: Param<RuleSet> = Param::choice(
    "rules",
    "all",
    choices![
        "singles" => RuleSet::Singles,
        "pigeonhole" => RuleSet::Pigeonhole,
        "two-unit" => RuleSet::TwoUnit,
        "all" => RuleSet::All,
    ],
    "rule set: singles; + the pigeonhole rule (every one-unit strategy); + locked candidates \
     (two units); + fish, XY-wing, XYZ-wing",
);
const SUBSET_MAX: Param<usize> = number_param!(
    "subset_max",
    usize,
    4,
    1..=128,
    "largest pigeonhole pattern searched by enumeration, in naked or hidden form; complete for \
     units with at most 2·subset_max+1 open cells (every 9×9 unit at 4)"
);
const HALL: Param<bool> = Param::on_off(
    "hall",
    true,
    "find pigeonhole patterns beyond subset_max exactly, through a perfect matching per unit",
);
const FALLBACK: Param<bool> = Param::choice(
    "fallback",
    "none",
    choices!["none" => false, "prop" => true],
    "when stuck: none (status stuck) or prop (search with sudoku-prop from the rules' grid)",
);

/// The documented parameters of `logic`.
pub const LOGIC_PARAMS: &[ParamSpec] = &[RULES.spec, SUBSET_MAX.spec, HALL.spec, FALLBACK.spec];

/// The rule solver (registered as `logic`).
pub struct Logic {
    config: LogicConfig,
    fallback: Option<Prop>,
}

impl Logic {
    /// A solver with these rules; `fallback` searches with `prop` when they are stuck.
    pub fn new(config: LogicConfig, fallback: bool) -> Logic {
        Logic {
            config,
            fallback: fallback.then(Prop::default),
        }
    }

    /// A solver configured from named parameters (see [`LOGIC_PARAMS`]).
    pub fn from_params(params: &Params) -> Result<Logic, ParamError> {
        params.check_known(LOGIC, LOGIC_PARAMS)?;
        let config = LogicConfig {
            rules: RULES.read(params)?,
            subset_max: SUBSET_MAX.read(params)?,
            hall: HALL.read(params)?,
        };
        Ok(Logic::new(config, FALLBACK.read(params)?))
    }
}

impl Solver for Logic {
    fn name(&self) -> &str {
        LOGIC
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let start = Instant::now();
        let mut deadline = Deadline::new(budget, 16);
        let run = trace(puzzle, &self.config, &mut deadline);
        let rating = Rating::of(&run);
        let mut stats = Stats {
            iterations: run.steps.len() as u64,
            extra: vec![
                ("steps".into(), run.steps.len().to_string()),
                (
                    "hardest".into(),
                    rating.hardest.map_or("none".into(), |r| r.name()),
                ),
                ("score".into(), format!("{:.1}", rating.score)),
                ("level".into(), rating.level.name().into()),
            ],
            ..Stats::default()
        };
        let status = match run.end {
            End::Solved(g) => Status::Solved(g),
            End::Contradiction => Status::Infeasible,
            End::Timeout => Status::Exhausted {
                limit: Limit::Time,
                best: None,
            },
            End::Stuck { grid, candidates } => match &mut self.fallback {
                None => Status::Stuck { grid, candidates },
                Some(prop) => {
                    let left = Budget {
                        time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
                        ..*budget
                    };
                    let out = prop.solve(&Puzzle::new(grid, puzzle.variant()), &left, rng);
                    stats.nodes = out.stats.nodes;
                    stats.guesses = out.stats.guesses;
                    out.status
                }
            },
        };
        Outcome { status, stats }
    }
}

fn build_logic(params: &Params) -> Result<Box<dyn Solver + Send>, ParamError> {
    Ok(Box::new(Logic::from_params(params)?))
}

/// The methods of this crate, for the runner's registry.
pub fn methods() -> Vec<MethodInfo> {
    vec![
        MethodInfo {
            name: LOGIC,
            summary: "human rules (singles, seed 004's pigeonhole rule, locked candidates, fish, \
                  XY/XYZ-wings), easiest first; stuck when they cannot finish (fallback=prop \
                  searches)",
            params: LOGIC_PARAMS,
            caps: Capabilities {
                complete: false,
                thread_safe: true,
                randomized: false,
            },
            build: build_logic,
        },
        gac::method_info(),
    ]
}
