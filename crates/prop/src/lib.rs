//! # sudoku-prop
//!
//! Exact Sudoku solvers by constraint propagation and depth-first search, for any order
//! 2..=16 and every variant, with solution counting for uniqueness checks.
//!
//! - [`Norvig`] (`norvig`): Peter Norvig's propagator, kept faithful as the reference of the
//!   paper of Takano et al.: candidate sets, naked and hidden singles, search on the cell
//!   with the fewest candidates found by a scan, a full state copy per branch.
//! - [`Prop`] (`prop`): the improved propagator that paper proposes, made as fast as we could:
//!   bitset candidates, the minimum-remaining-values cell kept in buckets (O(1)), per-unit
//!   placed-digit masks, hidden singles by bitwise accumulation, a trail for undo (no
//!   allocation per node), and two switchable extra rules ([`PropConfig`]: locked candidates
//!   and naked pairs). On 9×9 classic puzzles it runs a specialised path instead (per-digit
//!   band bitboards, bitwise singles and locked candidates, a board copy per guess; see
//!   `src/nine/` and the README), unless naked pairs are switched on.
//! - Both implement [`sudoku_core::Solver`], including [`Solver::count`]: counting up to a
//!   limit, optionally keeping the solutions. [`methods`] registers them for the runner.
//!
//! Not here: human-style rule solving with difficulty grading, the pigeonhole rule, and
//! other exact methods (backtracking, DLX, ILP live in their own crates).
//!
//! ```
//! use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Count, CountEnd, Puzzle,
//!     Solver, Status, Variant};
//! use sudoku_prop::Prop;
//!
//! let text = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
//! let grid = format::parse_str(text, "example").unwrap().remove(0).grid;
//! let puzzle = Puzzle::new(grid, Variant::Classic);
//! let mut prop = Prop::default();
//! let mut rng = rng_from_seed(1);
//! let out = prop.solve(&puzzle, &Budget::unlimited(), &mut rng);
//! let Status::Solved(answer) = out.status else { panic!("expected a solution") };
//! assert!(verify_solution(&puzzle, &answer).is_ok());
//! // Uniqueness check: count up to 2.
//! let count = prop.count(&puzzle, Count::upto(2), &Budget::unlimited(), &mut rng).unwrap();
//! assert_eq!((count.count, count.end), (1, CountEnd::Complete));
//! ```
#![deny(missing_docs)]

pub mod kernel;
mod nine;
mod norvig;
mod prop;
mod search;

use sudoku_core::{
    for_width, Budget, Capabilities, Count, Counted, MethodInfo, OtherSolution, Outcome,
    ParamError, Params, Puzzle, Rng, Solver,
};

pub use crate::prop::PropConfig;
use crate::search::{cached, count_with, solve_with, Engine};

/// A cached engine of the width the last puzzle's order needed.
type CachedEngine = Option<Box<dyn Engine + Send>>;

/// Implements core's `Solver` for a type with an `engine(&mut self, &Puzzle)` method: `solve`
/// and `count` both run that engine's search (deterministic, so the generator is unused).
macro_rules! engine_solver {
    ($ty:ty, $name:expr $(, $extra:item)*) => {
        impl Solver for $ty {
            $($extra)*

            fn name(&self) -> &str {
                $name
            }

            fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, _rng: &mut Rng) -> Outcome {
                solve_with(self.engine(puzzle), puzzle, budget)
            }

            fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, _rng: &mut Rng) -> Counted {
                let Count { limit, collect } = ask;
                Ok(count_with(
                    self.engine(puzzle),
                    puzzle,
                    limit,
                    collect,
                    budget,
                ))
            }
        }
    };
}

/// Norvig's constraint propagation with depth-first search (registered as `norvig`).
///
/// Deterministic and complete: solves, proves infeasibility, counts. Keeps its tables for the
/// last (order, variant) it saw.
#[derive(Default)]
pub struct Norvig {
    engine: CachedEngine,
}

impl Norvig {
    /// A new solver.
    pub fn new() -> Norvig {
        Norvig::default()
    }

    fn engine(&mut self, puzzle: &Puzzle) -> &mut dyn Engine {
        cached(
            &mut self.engine,
            puzzle,
            |order, variant| for_width!(order, W => Box::new(norvig::NorvigEngine::<W>::new(order, variant))),
        )
    }
}

engine_solver!(Norvig, NORVIG);

/// The improved propagator of Takano et al. (registered as `prop`): the project's flagship exact
/// solver.
///
/// Deterministic and complete. Owns all its scratch space and reuses it across calls on the
/// same (order, variant), so solving many puzzles allocates only the answers.
pub struct Prop {
    cfg: PropConfig,
    engine: CachedEngine,
}

impl Default for Prop {
    fn default() -> Self {
        Prop::new(PropConfig::default())
    }
}

impl Prop {
    /// A solver with the given rule switches.
    pub fn new(cfg: PropConfig) -> Prop {
        Prop { cfg, engine: None }
    }

    /// The rule switches.
    pub fn config(&self) -> PropConfig {
        self.cfg
    }

    /// A solver configured from named parameters (see [`PropConfig::PARAMS`]).
    pub fn from_params(params: &Params) -> Result<Prop, ParamError> {
        Ok(Prop::new(PropConfig::from_params(params)?))
    }

    fn engine(&mut self, puzzle: &Puzzle) -> &mut dyn Engine {
        let cfg = self.cfg;
        cached(&mut self.engine, puzzle, |order, variant| {
            // 9×9 classic has its own board for the default rules (its band rules include
            // locked candidates, so "singles only" and naked pairs stay with the general kernel).
            if nine::NineEngine::serves(order, variant) && cfg.locked_candidates && !cfg.naked_pairs
            {
                return Box::new(nine::NineEngine::new());
            }
            for_width!(order, W => Box::new(prop::PropEngine::<W>::new(order, variant, cfg)))
        })
    }
}

engine_solver!(
    Prop,
    PROP,
    // The 9×9 path answers the carver's question by searching for a solution that differs
    // from the known one at a removed cell, instead of counting to 2.
    fn count_other(&mut self, ask: OtherSolution<'_>, budget: &Budget, rng: &mut Rng) -> Counted {
        if let Some(out) = self.engine(ask.puzzle).count_other(ask, budget) {
            return Ok(out);
        }
        self.count(ask.puzzle, Count::upto(2), budget, rng)
    }
);

/// The registry names, also returned by [`Solver::name`].
const NORVIG: &str = "norvig";
const PROP: &str = "prop";

const EXACT: Capabilities = Capabilities {
    complete: true,
    thread_safe: true,
    randomized: false,
};

/// The registry entries of this crate: `norvig` and `prop`.
pub fn methods() -> Vec<MethodInfo> {
    vec![
        MethodInfo {
            name: NORVIG,
            summary: "Norvig's constraint propagation (naked and hidden singles) with MRV \
                      depth-first search, state copied per branch; the reference of Takano et al.",
            params: &[],
            caps: EXACT,
            build: |params| {
                params.check_known(NORVIG, &[])?;
                Ok(Box::new(Norvig::new()))
            },
        },
        MethodInfo {
            name: PROP,
            summary:
                "improved Norvig propagator of Takano et al.: bitsets, O(1) MRV buckets, trail \
                      undo, optional locked candidates and naked pairs",
            params: PropConfig::PARAMS,
            caps: EXACT,
            build: |params| Ok(Box::new(Prop::from_params(params)?)),
        },
    ]
}
