//! # sudoku-logic
//!
//! Sudoku solved the way people and constraint programmers solve it, for every order `n` and
//! both variants: a rule solver (`logic`) that applies the easiest rule that makes progress and
//! explains each step, a difficulty rating built on it, and `gac`, a CP solver that keeps
//! generalised arc consistency on every AllDifferent unit. Teles supplies the
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
    choices, Budget, Capabilities, Deadline, Limit, MethodInfo, Outcome, ParamError, Params,
    Puzzle, Rng, Solver, Stats, Status,
};
use sudoku_prop::Prop;

pub use crate::board::Contradiction;
pub use crate::rate::{examine, rate, Examined, Level, Rating, Undecided, Unrateable};
pub use crate::solve::{first_step, trace, End, LogicConfig, Trace};
pub use crate::step::{cell_name, RuleKind, RuleSet, Step, UnknownRuleSet};

const LOGIC: &str = "logic";

sudoku_core::config! {
    /// What `logic` is configured by: its rules, and what it does when they are stuck.
    struct LogicParams for LOGIC {
        /// The rules.
        rules: LogicConfig = group;
        /// Search with `prop` when the rules are stuck.
        fallback: bool = "none" of choices!["none" => false, "prop" => true],
            "when stuck: none (status stuck) or prop (search with sudoku-prop from the rules' \
             grid)";
    }
}

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

    /// A solver configured from named parameters (`rules`, `subset_max` and `hall` of
    /// [`LogicConfig`], and `fallback`).
    pub fn from_params(params: &Params) -> Result<Logic, ParamError> {
        let LogicParams { rules, fallback } = LogicParams::from_params(params)?;
        Ok(Logic::new(rules, fallback))
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
        let mut extra = vec![("steps".into(), run.steps.len().to_string())];
        // A run the clock stopped has no rating: its score would read as beyond logic.
        if run.end != End::Timeout {
            extra.extend([
                (
                    "hardest".into(),
                    rating.hardest.map_or("none".into(), |r| r.name()),
                ),
                ("score".into(), format!("{:.1}", rating.score)),
                ("level".into(), rating.level.name().into()),
            ]);
        }
        let mut stats = Stats {
            iterations: run.steps.len() as u64,
            extra,
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

/// The methods of this crate, for the runner's registry.
pub fn methods() -> Vec<MethodInfo> {
    vec![
        MethodInfo {
            name: LOGIC,
            summary: "human rules (singles, Teles's pigeonhole rule, locked candidates, fish, \
                  XY/XYZ-wings), easiest first; stuck when they cannot finish (fallback=prop \
                  searches)",
            params: LogicParams::PARAMS,
            caps: Capabilities {
                complete: false,
                thread_safe: true,
                randomized: false,
            },
            build: |params| Ok(Box::new(Logic::from_params(params)?)),
        },
        gac::method_info(),
    ]
}
