//! # sudoku-sat
//!
//! Sudoku of any order and variant as a Boolean satisfiability problem, solved by CaDiCaL, a
//! conflict-driven clause-learning (CDCL) SAT solver (registered as `sat`). Exact and complete:
//! it solves, proves infeasibility and counts solutions (each solution found is excluded by a
//! blocking clause and the solver is asked again, up to the limit).
//!
//! - [`encode`]: the CNF ([`Encoding`]: minimal, extended, optimised; [`Amo`]: how "at most
//!   one" is written), streamed into any [`ClauseSink`]; [`Cnf`] keeps one in memory and
//!   writes DIMACS.
//! - `logic=` ([`SatConfig`]): the rules of `sudoku-logic` run before encoding; what they
//!   place is fixed and what they eliminate gets no variable (sound, so counts stay exact).
//! - [`Session`]: one puzzle's CNF loaded into CaDiCaL, solved slice by slice (a conflict
//!   budget and a deadline per call) with everything learned kept between calls; `sat` and
//!   the `hybrid` method of `sudoku-hybrid` both drive it.
//! - [`Sat`]: the [`sudoku_core::Solver`]. The time limit stops CaDiCaL through its terminate
//!   callback, and from 36×36 on the call runs in a child process killed at the deadline
//!   (CaDiCaL polls the callback too rarely on formulas that size); the node limit is
//!   CaDiCaL's conflict limit. Encoding time is reported apart
//!   from solving, in [`Stats::build_time`](sudoku_core::Stats::build_time), as `ilp` does.
//!
//! - `solver=kissat` / `command=`: the same CNF ([`formula`]) handed to an outside DIMACS
//!   program instead, its answer decoded and verified the same way.
//!
//! Why CaDiCaL and which encoding is the default: docs/notes/sat-backend-and-large-orders.md (measured).
//!
//! ```
//! use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Count, Puzzle, Solver, Status,
//!     Variant};
//! use sudoku_sat::Sat;
//!
//! let text = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
//! let grid = format::parse_str(text, "example").unwrap().remove(0).grid;
//! let puzzle = Puzzle::new(grid, Variant::Classic);
//! let mut sat = Sat::default();
//! let out = sat.solve(&puzzle, &Budget::unlimited(), &mut rng_from_seed(1));
//! let Status::Solved(answer) = out.status else { panic!("expected a solution") };
//! assert!(verify_solution(&puzzle, &answer).is_ok());
//! let count = sat.count(&puzzle, Count::upto(2), &Budget::unlimited(), &mut rng_from_seed(1)).unwrap();
//! assert_eq!(count.count, 1);
//! ```
#![deny(missing_docs)]

mod carve;
mod cdcl;
mod config;
mod copy;
mod encode;
mod error;
mod outside;
mod program;
mod reduce;
mod session;
mod solve;

use sudoku_core::{Capabilities, MethodInfo};

pub use crate::config::{Backend, CopyBy, Preset, SatConfig};
pub use crate::encode::{encode, Amo, ClauseSink, Cnf, Encoding, Layout, AUTO_PAIRWISE_MAX};
pub use crate::error::SatError;
pub use crate::outside::{find_kissat, Program, KISSAT_INSTALL};
pub use crate::session::{formula, Answer, Session, SessionError, CADICAL_VERSION};
pub use crate::solve::Sat;

/// The registry name, also returned by [`Solver::name`](sudoku_core::Solver::name).
const SAT: &str = "sat";

/// The registry entry of this crate: `sat`.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: SAT,
        summary: "CNF encoding (optimised/extended/minimal) solved by the CaDiCaL CDCL SAT \
                  solver; counts with blocking clauses",
        params: SatConfig::PARAMS,
        caps: Capabilities {
            complete: true,
            thread_safe: true,
            randomized: false,
        },
        build: |params| Ok(Box::new(Sat::from_params(params)?)),
    }]
}
