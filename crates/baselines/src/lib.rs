//! # sudoku-baselines
//!
//! The classic exact solvers that Takano et al. compares, for every order
//! `n` in 2..=16 and every variant (they iterate the puzzle's [`sudoku_core::Geometry`] units,
//! so Sudoku-X comes for free):
//!
//! | registry name | type | what it is |
//! |---|---|---|
//! | `backtrack` | [`Backtrack`] | pure backtracking: row-major cells, digits in order, checks by scanning units |
//! | `backtrack-fc` | [`ForwardChecking`] | candidate domains, forward checking, minimum remaining values |
//! | `backtrack-bits` | [`BitsBacktrack`] | used-digit bitmask per unit, O(1) checks; MRV or row-major ([`Select`]) |
//! | `dlx` | [`Dlx`] | Knuth's Algorithm X with dancing links on the exact-cover matrix |
//!
//! All four are complete: they implement [`sudoku_core::Solver::solve`] and
//! [`sudoku_core::Solver::count`], prove infeasibility (contradictory givens end as
//! [`sudoku_core::Status::Infeasible`] without search), honour the node and time limits of a
//! [`sudoku_core::Budget`] by stopping with [`sudoku_core::Status::Exhausted`], and report
//! nodes (digits placed) and guesses (branchings with more than one choice). None uses
//! randomness: the `rng` argument is ignored, so every call is deterministic.
//!
//! This crate is not where the fast solver lives: constraint propagation (Norvig's method and
//! its improvements) is `sudoku-prop`. These are the baselines it is compared with.
//! [`methods`] is the registry the benchmark runner reads.
//!
//! ```
//! use sudoku_baselines::{methods, Dlx};
//! use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Count, Params, Puzzle, Solver,
//!                   Status, Variant};
//!
//! let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
//! let givens = format::parse_str(line, "example").unwrap().remove(0).grid;
//! let puzzle = Puzzle::new(givens, Variant::Classic);
//! let mut rng = rng_from_seed(1);
//!
//! let out = Dlx::new().solve(&puzzle, &Budget::unlimited(), &mut rng);
//! let Status::Solved(grid) = out.status else { panic!("a valid puzzle") };
//! assert!(verify_solution(&puzzle, &grid).is_ok());
//!
//! // Through the registry, as the runner does it.
//! let info = methods().into_iter().find(|m| m.name == "backtrack-bits").unwrap();
//! let mut params = Params::new();
//! params.set("select", "row-major");
//! let mut solver = (info.build)(&params).unwrap();
//! let n = solver.count(&puzzle, Count::upto(2), &Budget::unlimited(), &mut rng).unwrap();
//! assert_eq!(n.count, 1); // the puzzle has a unique solution
//! ```
#![deny(missing_docs)]

mod backtrack;
mod bits;
mod control;
mod dlx;
mod fc;

pub use backtrack::Backtrack;
pub use bits::{BitsBacktrack, Select};
pub use dlx::Dlx;
pub use fc::ForwardChecking;

use sudoku_core::{Capabilities, MethodInfo};

const COMPLETE: Capabilities = Capabilities {
    complete: true,
    thread_safe: true,
    randomized: false,
};

// The registry names, also returned by each solver's `Solver::name`.
pub(crate) const BACKTRACK: &str = "backtrack";
pub(crate) const FC: &str = "backtrack-fc";
pub(crate) const BITS: &str = "backtrack-bits";
pub(crate) const DLX: &str = "dlx";

/// The registry entries of this crate's solvers: `backtrack`, `backtrack-fc`,
/// `backtrack-bits`, `dlx`, in that order.
pub fn methods() -> Vec<MethodInfo> {
    vec![
        MethodInfo {
            name: BACKTRACK,
            summary: "pure backtracking, row-major cells, digits in order, checks by scanning units (Takano et al.)",
            params: &[],
            caps: COMPLETE,
            build: |p| {
                p.check_known(BACKTRACK, &[])?;
                Ok(Box::new(Backtrack::new()))
            },
        },
        MethodInfo {
            name: FC,
            summary: "backtracking with forward checking and minimum remaining values (Takano et al., after Skiena)",
            params: &[],
            caps: COMPLETE,
            build: |p| {
                p.check_known(FC, &[])?;
                Ok(Box::new(ForwardChecking::new()))
            },
        },
        MethodInfo {
            name: BITS,
            summary: "backtracking on a used-digit bitmask per unit, O(1) checks (Takano et al.)",
            params: BitsBacktrack::PARAMS,
            caps: COMPLETE,
            build: |p| Ok(Box::new(BitsBacktrack::from_params(p)?)),
        },
        MethodInfo {
            name: DLX,
            summary: "Knuth's Algorithm X with dancing links on the exact-cover matrix (Takano et al.)",
            params: &[],
            caps: COMPLETE,
            build: |p| {
                p.check_known(DLX, &[])?;
                Ok(Box::new(Dlx::new()))
            },
        },
    ]
}
