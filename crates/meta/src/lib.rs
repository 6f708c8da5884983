//! # sudoku-meta
//!
//! Metaheuristics for Sudoku of any order (2..=16) and both variants (classic and Sudoku-X),
//! on R. Lewis's representation (2007, "Metaheuristics can solve sudoku puzzles",
//! J. Heuristics): every block holds each of its digits once, givens never move, and the
//! cost is the number of digits missing from the rows and columns (and diagonals), so a
//! solution has cost 0. A move swaps two free cells of one block; its change of cost is
//! computed in O(1) from per-line digit counts ([`Board`]).
//!
//! - [`Grasp`] (`grasp`): the GRASP of Takano et al. — restricted-candidate-list
//!   construction, then best- (or first-) improvement hill climbing with a limited number of
//!   sideways moves, restarted with a new construction when stuck.
//! - [`Sa`] (`sa`): Lewis's simulated annealing, with his parameter settings as defaults.
//! - [`Acs`] (`acs`): the ant colony system of Lloyd and Amos (2020): ants build partial
//!   assignments cell by cell with naked/hidden-single propagation after each choice,
//!   pheromone on (cell, digit), best-value evaporation. Not on Lewis's representation: its
//!   cost is the number of cells its best partial assignment leaves open.
//! - [`CpIls`] (`cp-ils`): this crate's hybrid, an iterated local search over partial
//!   assignments kept consistent by the shared propagation kernel (after Musliu & Winter's
//!   CP-based ILS); same cost as `acs`.
//! - [`Tabu`] (`tabu`): not on Lewis's representation either: TabuCol on Sudoku as list
//!   colouring after singles propagation (each open cell takes one of its candidates; the
//!   cost counts pairs of peers holding the same digit), the method of Jin and Hao (2019)
//!   for Latin square completion. [`TabuSearch`] exposes it step by step.
//! - [`Mmcol`] (`mmcol`): Jin and Hao's memetic algorithm for Latin square completion (MMCOL)
//!   on the same list colouring and `tabu`'s engine: a population improved by an iterated tabu
//!   search, a crossover that keeps digit classes, a distance-quality pool. [`mmcol::latin`]
//!   runs it on partial Latin squares of any side up to 128 ([`solve_latin`]).
//! - [`propagate_singles`]: the optional preprocessing (`preprocess=singles`): naked and
//!   hidden singles, repeated, on the shared propagation kernel of `sudoku-prop`
//!   (`sudoku_prop::kernel`), the one place where this crate uses another method crate.
//! - [`methods`]: the registry entries the runner lists.
//!
//! What it is not for: proving anything. All six methods are incomplete: they return
//! [`Status::Solved`](sudoku_core::Status::Solved) or stop with
//! [`Status::Exhausted`](sudoku_core::Status::Exhausted) and the best assignment found (its
//! cost in `Stats::best_cost`; `acs` and `cp-ils` keep partial assignments, so their
//! `Exhausted` holds no grid). They report [`Status::Infeasible`](sudoku_core::Status) only
//! when infeasibility is proved before the search: the givens repeat a digit in a unit, singles
//! propagation empties a cell or leaves a digit no place in a unit, or every block has at most
//! one free cell and the forced fill violates a line. They do not count solutions.
//!
//! Budgets: `Budget::iterations` counts moves evaluated (a best-improvement step evaluates
//! the whole neighbourhood; for `acs` and `cp-ils`, digits chosen or tried), `Budget::time` is checked cheaply; with neither, the run stops
//! after [`DEFAULT_ITERATIONS`] moves. With an iteration budget, the same seed gives the same
//! run.
//!
//! ```
//! use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Puzzle, Solver, Status, Variant};
//! use sudoku_meta::{Sa, SaConfig};
//!
//! let easy = "..6......92...34......8...156..3..8...7...5....4..6...7...........9...4.35...29..";
//! let puzzle = Puzzle::new(format::parse_str(easy, "jump").unwrap()[0].grid.clone(), Variant::Classic);
//! let mut sa = Sa::new(SaConfig::default());
//! let budget = Budget { iterations: Some(50_000_000), ..Budget::default() };
//! let outcome = sa.solve(&puzzle, &budget, &mut rng_from_seed(1));
//! if let Status::Solved(grid) = &outcome.status {
//!     assert!(verify_solution(&puzzle, grid).is_ok());
//! }
//! assert!(outcome.stats.best_cost.is_some());
//! ```
#![deny(missing_docs)]

mod acs;
mod board;
mod cpils;
mod grasp;
pub mod mmcol;
mod propagate;
mod run;
mod sa;
mod tabu;

use sudoku_core::{choices, Capabilities, Choices, MethodInfo, Param};

pub use acs::{deposit, Acs, AcsConfig, AntBoard, Pheromone};
pub use board::{Board, BoardError};
pub use cpils::{CpIls, CpIlsConfig};
pub use grasp::{Grasp, GraspConfig, LocalSearch};
pub use mmcol::{solve_latin, tabucol_latin, LatinRun, Mmcol, MmcolConfig};
pub use propagate::{propagate_singles, Contradiction, Propagated};
pub use run::DEFAULT_ITERATIONS;
pub use sa::{Sa, SaConfig};
pub use tabu::{PooledSearch, Select, Tabu, TabuConfig, TabuSearch};

/// Preprocessing before the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Preprocess {
    /// Search from the givens alone.
    #[default]
    None,
    /// Fix what naked and hidden singles force, repeatedly, before the search.
    Singles,
}

// The parameters several methods have.
const PREPROCESS: Param<Preprocess> = Param::choice(
    "preprocess",
    "none",
    choices!["none" => Preprocess::None, "singles" => Preprocess::Singles],
    "fix what naked and hidden singles force before the search (a contradiction found there \
     proves the puzzle infeasible)",
);
const TRACE: Param<bool> = Param::flag(
    "trace",
    false,
    "record the best cost each time it improves (Stats.trace)",
);
/// `moves=all|candidates`: whether moves are restricted to candidates (each method says how).
const MOVES_CHOICES: Choices<bool> = choices!["all" => false, "candidates" => true];

const CAPS: Capabilities = Capabilities {
    complete: false,
    thread_safe: true,
    randomized: true,
};

/// The methods of this crate, for the runner's registry: `grasp`, `sa`, `acs`, `cp-ils`,
/// `tabu` and `mmcol`.
pub fn methods() -> Vec<MethodInfo> {
    vec![
        MethodInfo {
            name: grasp::NAME,
            summary: "GRASP: restricted-candidate-list construction + hill climbing over \
                      block swaps, with restarts (Takano et al.; Lewis 2007 \
                      representation)",
            params: GraspConfig::PARAMS,
            caps: CAPS,
            build: |p| Ok(Box::new(Grasp::new(GraspConfig::from_params(p)?))),
        },
        MethodInfo {
            name: sa::NAME,
            summary: "simulated annealing over block swaps with reheating (R. Lewis 2007, \
                      J. Heuristics)",
            params: SaConfig::PARAMS,
            caps: CAPS,
            build: |p| Ok(Box::new(Sa::new(SaConfig::from_params(p)?))),
        },
        MethodInfo {
            name: acs::NAME,
            summary: "ant colony system with constraint propagation and best-value \
                      evaporation (Lloyd & Amos 2020, IEEE Trans. Games)",
            params: AcsConfig::PARAMS,
            caps: CAPS,
            build: |p| Ok(Box::new(Acs::new(AcsConfig::from_params(p)?))),
        },
        MethodInfo {
            name: cpils::NAME,
            summary: "iterated local search over arc-consistent partial assignments: \
                      propagating construction, destroy units around the dead end, rebuild \
                      (after Musliu & Winter 2017; not a paper's exact method)",
            params: CpIlsConfig::PARAMS,
            caps: CAPS,
            build: |p| Ok(Box::new(CpIls::new(CpIlsConfig::from_params(p)?))),
        },
        MethodInfo {
            name: tabu::NAME,
            summary: "tabu search on list colouring after singles propagation: TabuCol with \
                      Galinier & Hao's dynamic tenure (as Jin & Hao 2019 for Latin squares)",
            params: TabuConfig::PARAMS,
            caps: CAPS,
            build: |p| Ok(Box::new(Tabu::new(TabuConfig::from_params(p)?))),
        },
        MethodInfo {
            name: mmcol::NAME,
            summary: "memetic list colouring after Jin & Hao's MMCOL for Latin square \
                      completion (IEEE TEVC 2019): singles kernelization, a crossover that \
                      keeps digit classes, iterated tabu search, distance-quality pool",
            params: MmcolConfig::PARAMS,
            caps: CAPS,
            build: |p| Ok(Box::new(Mmcol::new(MmcolConfig::from_params(p)?))),
        },
    ]
}
