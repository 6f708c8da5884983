//! `tabu`: tabu search on Sudoku as list colouring.
//!
//! The puzzle is first reduced by naked and hidden singles ([`propagate_singles`]); every cell
//! still open is a vertex whose list of colours is its candidates (the digits no fixed peer
//! holds), and two open cells that share a unit are adjacent. An assignment gives every open
//! cell one of its candidates; its cost is the number of adjacent pairs with the same digit
//! (0 = a solution). This is how Jin and Hao (2019, IEEE Trans. Evol. Comput., "Solving the
//! Latin square completion problem by memetic graph coloring") treat Latin square completion;
//! Sudoku only adds the blocks (and the diagonals of Sudoku-X) to the units.
//!
//! The search is TabuCol (Hertz and de Werra 1987) with the dynamic tenure of Galinier and Hao
//! (1999): a move gives one conflicting cell another of its candidates; each step makes the
//! best move that is not tabu (ties at random), or a tabu one that reaches a cost below the
//! best so far (aspiration). The digit a cell leaves is tabu for it for
//! `U(0, tenure) + lambda · (conflicting cells)` steps.
//!
//! Speed (the step is all the method does): a count, per open cell and candidate, of the
//! neighbours holding that digit makes a move's change of cost one subtraction; a move updates
//! only the neighbours that have the digits it leaves and takes as candidates; and each cell
//! keeps its best moves between steps, rescanned only when a neighbour's move or a tabu
//! expiry touches it, so that a step reads one summary per conflicting cell instead of every
//! candidate of every conflicting cell. This makes 1.8–2.8× more steps per second than a
//! scan of every candidate at 36×36–64×64 (docs/notes/tabu-tenure-and-step.md), by the same rule.
//!
//! The start is greedy: cells with fewer candidates first (ties at random), each taking the
//! candidate that clashes least with the cells already filled.
//!
//! Two options come from AllDiff-LS's Sudoku-LS (github.com/Ailuras/AllDIff-LS; the scheme, not
//! its code), off by default: `select=cell` chooses the cell first (the conflicting one with the
//! most clashes among those a neighbour clashed with since it last moved: configuration
//! checking), then its digit; `pool=K` runs segments of `segment` steps, each from an
//! assignment drawn from up to K distinct ones of the best cost seen, and with `weights=k` the
//! pairs that still clash at a segment's end gain weight (probability 1/k) for the moves'
//! choice, until a better cost resets them. Together they answer 49×49 at 50 % givens far more
//! often within 30 s, and are slower at 36×36 (docs/notes/tabu-pooled-scheme.md).
//!
//! [`TabuSearch`] is the engine, usable step by step (the `hybrid` method of `sudoku-hybrid`
//! interleaves it with a complete solver); [`Tabu`] is the [`Solver`].
//!
//! The files: `state.rs` holds [`TabuSearch`]'s graph, assignment and clash books and how they
//! are built; `best.rs` the per-cell summaries a step reads; `step.rs` the TabuCol step (and the
//! tests of both schemes' books); `pooled.rs` the pooled scheme ([`PooledSearch`]) with the
//! segment restarts and pair weights it adds to the search; `solver.rs` the [`Solver`] adapter.

mod best;
mod memetic;
mod pooled;
mod solver;
mod state;
mod step;

pub use pooled::PooledSearch;
pub(crate) use solver::start;
pub use solver::Tabu;
pub use state::TabuSearch;
pub(crate) use state::{ListGraph, LINK_BUDGET};

#[cfg(doc)]
use sudoku_core::Solver;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "tabu";

/// How a step of [`TabuSearch`] chooses its move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// TabuCol: the best allowed (cell, digit) pair over every conflicting cell.
    #[default]
    Pair,
    /// The conflicting cell with the most (weighted) clashes, among those a neighbour has
    /// clashed with since the cell last moved (configuration checking), then its best allowed
    /// digit; a cell that no digit improves keeps its digit and waits. Pair steps take over
    /// for a while when such a cell's digit is already tabu.
    Cell,
}

sudoku_core::config! {
    /// The configuration of [`Tabu`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct TabuConfig for NAME {
        lambda: f64 = 0.5 in 0.0..=100.0,
            "tabu tenure per conflicting cell: a cell may not take back the digit it left for U(0, \
             tenure) + lambda × (cells in conflict) steps (Galinier & Hao: 0.6; why the default is \
             0.5, and which λ suits each order: docs/notes/tabu-tenure-and-step.md)";
        tenure: u64 = 10 in 0..=1000000,
            "random part of the tabu tenure, drawn from 0..tenure (Galinier & Hao: 10)";
        select: Select = "pair"
            of sudoku_core::choices!["pair" => Select::Pair, "cell" => Select::Cell],
            "pair: the best (cell, digit) move over every conflicting cell (TabuCol); cell: the \
             conflicting cell with the most clashes among those a neighbour clashed with since it \
             last moved, then its best digit (AllDiff-LS's Sudoku-LS)";
        pool: usize = 0 in 0..=10000,
            "0: one search. Else iterated segments: each starts, with an empty tabu list, from an \
             assignment drawn from a pool of up to this many distinct ones of the best cost seen; \
             a new best empties the pool (AllDiff-LS's Sudoku-LS: 50)";
        segment: u64 = 100000 in 1..=1000000000000,
            "with a pool: steps of a segment; a segment that ends above the best cost gives its \
             start 4 × this many more steps next time";
        weights: u32 = 0 in 0..=1000000,
            "with a pool: 0, no weights; k, each clashing pair of a segment that ends at the best \
             cost gains weight 1 with probability 1/k, and moves are chosen by weighted clashes; a \
             new best resets the weights (AllDiff-LS's Sudoku-LS: 5)";
        restart: u64 = 0 in 0..=1000000000000,
            "with a pool: 0, never; else after this many steps without a new lowest cost the pool \
             and weights are dropped and the search starts again from a new greedy start (measured \
             no help at 49x49 with 50 % givens, docs/notes/tabu-pooled-scheme.md)";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
    }
}
