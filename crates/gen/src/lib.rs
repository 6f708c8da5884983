//! # sudoku-gen
//!
//! Full Sudoku grids of any order `n` (2..=16) and puzzles carved from them.
//!
//! Full-grid generators, each a [`sudoku_core::Generator`] registered by [`generators`]:
//!
//! - `pattern` ([`Pattern`]): Takano et al.'s two polynomial constructions (`circular`, `rows`),
//!   and our `linear` one that also satisfies the diagonals, followed by random symmetries
//!   ([`shuffle`]). Milliseconds even at 256×256.
//! - `backtrack`, `prune`, `weighted-prune` ([`PaperSearch`]): Raggi et al.'s searches (Raggi et
//!   al.), faithfully: diagonal blocks first, lists refreshed at the start of each row, one or
//!   two tries per cell with restarts. Kept for comparison; they are slow by design.
//! - `prop-fill` ([`PropFill`]): ours; random digit order, fewest-candidates cell, naked and
//!   hidden singles, restarts with a doubling node allowance.
//!
//! Puzzles: [`make_puzzle`] removes clues while the solution stays unique (checked by any
//! counting [`sudoku_core::Solver`], e.g. `sudoku_prop::Prop` or this crate's
//! [`FillCounter`]), down to a clue target, a [`Level`] or a minimal puzzle; or keeps a random
//! share of cells (Lewis's protocol). [`latin_to_sudoku`] turns a partial Latin square into an
//! equivalent Sudoku instance (Takano et al.'s NP-hardness reduction); [`LatinSquare`] and
//! [`parse_latin`] read, check and count such squares on their own.
//!
//! Not for solving puzzles (see the solver crates; [`FillCounter`] is only a uniqueness
//! checker) and not for grading puzzles by human techniques; the ILP generator lives in
//! `sudoku-ilp`.
//!
//! ```
//! use sudoku_core::{rng_from_seed, verify_solution, Budget, Generator, Order, Puzzle, Status, Variant};
//! use sudoku_gen::{make_puzzle, FillCounter, PropFill, PuzzleSpec, Symmetry};
//!
//! let order = Order::new(3).unwrap();
//! let mut rng = rng_from_seed(1);
//! let out = PropFill::default().generate(order, Variant::Classic, &Budget::unlimited(), &mut rng);
//! let Status::Solved(grid) = out.status else { panic!("prop-fill always fills 9x9") };
//! assert!(verify_solution(&Puzzle::empty(order, Variant::Classic), &grid).is_ok());
//!
//! let carved = make_puzzle(&grid, Variant::Classic, PuzzleSpec::Minimal, Symmetry::None,
//!                          &mut FillCounter::new(), &Budget::unlimited(), &mut rng).unwrap();
//! assert!(carved.clues >= 17 && carved.clues < 81);
//! ```
#![deny(missing_docs)]

mod carve;
mod engine;
mod fill;
mod latin;
mod pattern;
mod prune;
mod rated;
mod registry;

pub use carve::{make_puzzle, CarveEnd, Carved, Level, PuzzleSpec, Symmetry};
pub use fill::{FillCounter, PropFill};
pub use latin::{
    latin_to_sudoku, parse_latin, sudoku_to_latin, LatinEntry, LatinError, LatinFileError,
    LatinSquare,
};
pub use pattern::{construct, shuffle, Construction, Pattern};
pub use prune::{FillOrder, PaperSearch, Stale, TryRule};
pub use rated::{make_rated_puzzle, RATED_ATTEMPTS};
pub use registry::generators;

/// What can go wrong when carving a puzzle or reducing a Latin square.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The grid to carve is not a full grid satisfying the variant.
    #[error("the grid to carve is not a valid full grid: {0}")]
    NotASolution(sudoku_core::Violation),
    /// The checker cannot count solutions.
    #[error("uniqueness checker: {0}")]
    Checker(sudoku_core::Unsupported),
    /// The checker found no solution to a puzzle carved from a valid grid.
    #[error("checker `{checker}` found no solution to a puzzle carved from a valid grid")]
    CheckerDisagrees {
        /// The checker's name.
        checker: String,
    },
    /// A rated puzzle was asked of the carver that has no rater.
    #[error("a puzzle of a given rating needs a rater (make_rated_puzzle)")]
    NeedsRater,
    /// No attempt reached the rating asked for.
    #[error("no puzzle rated in {min}..={max} after {attempts} attempts (best {best})")]
    RatingNotReached {
        /// Lowest score accepted.
        min: f64,
        /// Highest score accepted.
        max: f64,
        /// Carving attempts made.
        attempts: u32,
        /// The closest score reached.
        best: f64,
    },
    /// A share outside `0..=1`.
    #[error("share {0} is outside 0..=1")]
    Share(f64),
    /// An unsupported order.
    #[error(transparent)]
    Order(sudoku_core::OrderError),
    /// A Latin square with the wrong number of cells.
    #[error("a Latin square of side {side} has {} cells, {found} given", side * side)]
    LatinShape {
        /// Its side.
        side: usize,
        /// Cells given.
        found: usize,
    },
    /// A symbol outside `0..=n`.
    #[error("Latin square cell {cell} holds {value}, symbols are 1..={n} (0 = empty)")]
    LatinSymbol {
        /// Row-major cell.
        cell: usize,
        /// The value.
        value: u16,
        /// The side.
        n: usize,
    },
}
