//! # sudoku-core
//!
//! The shared vocabulary of sudoku-bench: what a puzzle is, how it is read and written, how an
//! answer is checked, and the traits every method implements. Every other crate depends on this
//! one and on nothing else of the workspace (the generator may also use the propagator).
//!
//! - [`Order`]: `n`, for `n² × n²` grids of any order 2..=16; nothing assumes 9×9.
//! - [`Variant`] and [`Geometry`]: a variant is a set of units (classic; diagonal adds both main
//!   diagonals); methods iterate units and peers, so every method gets every variant.
//! - [`Grid`], [`Puzzle`], [`DigitSet`] (candidate bitsets, one word up to 64 digits).
//! - [`format`]: the line and grid-block text formats, with errors naming file, line and column.
//! - [`verify_solution`] and [`check_givens`]: the independent judge of every answer.
//! - [`Solver`], [`Generator`], [`Budget`], [`Outcome`]: the method contract; [`MethodInfo`] and
//!   [`Params`]: how methods register their names and documented parameters; [`Param`]: a
//!   parameter declared once (documentation, default, parsing).
//! - [`limits::time_limit`]: seconds given by people, checked into a `Duration` (no panic).
//! - [`derive_seed`] and [`Rng`]: every random stream comes from a seed derived from
//!   (experiment, method, instance, trial).
//!
//! It is not a solver: methods live in their own crates.
//!
//! ```
//! use sudoku_core::{format, verify_solution, Puzzle, Variant};
//!
//! let entries = format::parse_str("1.3.3.1.2.4.4.2.\n1234341221434321\n", "example").unwrap();
//! let puzzle = Puzzle::new(entries[0].grid.clone(), Variant::Classic);
//! let answer = &entries[1].grid;
//! assert!(verify_solution(&puzzle, answer).is_ok());
//! // Change one cell and the verifier says where the problem is.
//! let mut wrong = answer.clone();
//! wrong.set(1, 1);
//! let why = verify_solution(&puzzle, &wrong).unwrap_err();
//! assert_eq!(why.to_string(), "row 1 has digit 1 twice (at r1c1 and r1c2)");
//! assert!(format::parse_str("12345", "bad").unwrap_err().to_string().starts_with("bad:1:1:"));
//! ```
#![deny(missing_docs)]

mod config;
mod digits;
pub mod format;
mod geometry;
mod grid;
pub mod limits;
mod order;
mod params;
mod registry;
mod relax;
mod seed;
mod solver;
mod verify;

pub use config::concat_specs;
pub use digits::{DigitIter, DigitSet, Digits64};
pub use geometry::{Geometry, UnitKind, UnknownVariant, Variant};
pub use grid::{Grid, GridError, Puzzle};
pub use order::{Order, OrderError};
pub use params::{Choices, Param, ParamError, ParamSpec, Params, TextParam, NAME_KEY};
pub use registry::{Capabilities, GeneratorInfo, MethodInfo};
pub use relax::{PolytopeCheck, PolytopeReport, RelaxError, RelaxReport, Relaxer, RelaxerInfo};
pub use seed::{derive_seed, rng_from_seed, Rng};
pub use solver::{
    Budget, Count, CountEnd, CountOutcome, Counted, Deadline, Generator, Limit, OtherSolution,
    Outcome, Solver, Stats, Status, TracePoint, Unsupported,
};
pub use verify::{check_givens, verify_solution, Cell, Violation};
