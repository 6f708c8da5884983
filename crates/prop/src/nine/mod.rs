//! The order-3 classic path of `prop`: the same rules (singles, and optional locked candidates
//! at the root), depth-first on a cell with fewest candidates, digits in increasing order, on a
//! board made for 9×9 (see [`board`]). Every rule works on whole units at once with bitwise operations,
//! and a guess copies the 128-byte board on the stack instead of keeping a trail.
//!
//! Ideas taken from published designs (no code): per-digit band bitboards as in JCZSolve and
//! fsss2, bit-sliced candidate counting over all cells, and bivalue-first branching as in
//! tdoku's notes.

mod board;

use sudoku_core::{Budget, Grid, Order, Puzzle, Stats, Variant};

use crate::kernel::{Meter, SearchEnd, Strategy};
use crate::search::{Engine, OnSolution};
use board::Board;

/// The 9×9 classic engine of `prop`.
pub(crate) struct NineEngine {
    locked: bool,
    /// Search with the BMI-compiled version (the processor has the instructions).
    fast: bool,
    stats: Stats,
}

impl NineEngine {
    /// An engine; `locked` switches locked candidates on.
    pub(crate) fn new(locked: bool) -> NineEngine {
        NineEngine::with_path(locked, true)
    }

    /// An engine that searches with the BMI-compiled version if `fast` and the processor has
    /// its instructions (tests run both versions).
    pub(crate) fn with_path(locked: bool, fast: bool) -> NineEngine {
        NineEngine {
            locked,
            fast: fast && board::fast_path(),
            stats: Stats::default(),
        }
    }

    /// Does the specialised path serve this shape?
    pub(crate) fn serves(order: Order, variant: Variant) -> bool {
        order.size() == 9 && variant == Variant::Classic
    }
}

/// What a subtree search tells its caller.
enum Flow {
    /// Go on with the next branch.
    Continue,
    /// Stop everything with this end.
    Stop(SearchEnd),
}

/// One search node, written once for both compiled versions: `$prop` is the board's
/// propagation and `$rec` the search to recurse into (the same version).
macro_rules! search_body {
    ($ctx:ident, $board:ident, $prop:ident, $rec:ident) => {{
        let (b, i) = $board.branch_cell();
        let mut digits = $board.digits(b, i);
        <Meter as Strategy<1>>::branch(&mut $ctx.meter);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if let Some(end) = <Meter as Strategy<1>>::node(&mut $ctx.meter, 0) {
                return Flow::Stop(end);
            }
            let mut child = $board;
            child.place(d, b, i);
            // Locked candidates only at the root: in the search they cost more than the
            // nodes they save (measured on magictour_top1465 and norvig_top95).
            if child.$prop(0).is_err() {
                continue;
            }
            let flow = if child.solved() {
                $ctx.solution(&child)
            } else {
                $ctx.$rec(child)
            };
            if let Flow::Stop(end) = flow {
                return Flow::Stop(end);
            }
        }
        Flow::Continue
    }};
}

/// The search's fixed inputs and its meter.
struct Ctx<'a> {
    order: Order,
    fast: bool,
    meter: Meter,
    on_solution: &'a mut dyn FnMut(Grid) -> bool,
}

impl Ctx<'_> {
    /// Hands a full board to the caller.
    fn solution(&mut self, board: &Board) -> Flow {
        // 81 cells always make an order-3 grid, so the error arm is never taken.
        match Grid::from_cells(self.order, board.cells()) {
            Ok(g) => {
                if (self.on_solution)(g) {
                    Flow::Continue
                } else {
                    Flow::Stop(SearchEnd::Stopped)
                }
            }
            Err(_) => Flow::Stop(SearchEnd::Stopped),
        }
    }

    /// Branches on a propagated, unsolved, contradiction-free board.
    fn search(&mut self, board: Board) -> Flow {
        search_body!(self, board, propagate, search)
    }

    /// [`Ctx::search`] compiled for the bit-manipulation instructions (see
    /// [`Board::propagate_bmi`]); only called where [`board::fast_path`] said yes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    fn search_bmi(&mut self, board: Board) -> Flow {
        search_body!(self, board, propagate_bmi, search_bmi)
    }

    /// Searches below the root in the fastest version this processor runs.
    fn search_root(&mut self, board: Board) -> Flow {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is set only when `board::fast_path` found every feature that
            // `search_bmi` is compiled for on this processor.
            return unsafe { self.search_bmi(board) };
        }
        self.search(board)
    }
}

impl Engine for NineEngine {
    fn fits(&self, order: Order, variant: Variant) -> bool {
        NineEngine::serves(order, variant)
    }

    fn stats(&mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }

    fn run(&mut self, puzzle: &Puzzle, budget: &Budget, on_solution: OnSolution) -> SearchEnd {
        let mut ctx = Ctx {
            order: puzzle.order(),
            fast: self.fast,
            meter: Meter::new(budget, puzzle.order()),
            on_solution,
        };
        let end = match load(puzzle, self.locked, self.fast) {
            None => SearchEnd::Complete,
            Some(board) => {
                let flow = if board.solved() {
                    ctx.solution(&board)
                } else {
                    ctx.search_root(board)
                };
                match flow {
                    Flow::Continue => SearchEnd::Complete,
                    Flow::Stop(end) => end,
                }
            }
        };
        self.stats = ctx.meter.stats;
        end
    }
}

/// The board of the givens after propagation, or `None` if that shows a contradiction.
fn load(puzzle: &Puzzle, locked: bool, fast: bool) -> Option<Board> {
    let mut board = Board::new();
    for (cell, &v) in puzzle.givens().cells().iter().enumerate() {
        if v != 0 {
            board.give(cell, usize::from(v) - 1).ok()?;
        }
    }
    // At the root, locked candidates to their fixpoint: more puzzles fall without a guess.
    let rounds = if locked { u32::MAX } else { 0 };
    #[cfg(target_arch = "x86_64")]
    if fast {
        // SAFETY: `fast` is set only when `board::fast_path` found every feature that
        // `propagate_bmi` is compiled for on this processor.
        return unsafe { board.propagate_bmi(rounds) }.ok().map(|()| board);
    }
    let _ = fast;
    board.propagate(rounds).ok()?;
    Some(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{count_with, solve_with};
    use sudoku_core::fixtures::public_grids;

    /// The BMI-compiled search and the portable one are the same search: same answers, same
    /// counts, same nodes and guesses, on every puzzle of two hard public sets.
    #[test]
    fn both_compiled_versions_search_alike() {
        let budget = Budget::unlimited();
        for file in ["norvig_top95.txt", "norvig_hardest.txt"] {
            let grids = public_grids(file).unwrap().unwrap();
            for g in grids {
                let p = Puzzle::new(g, Variant::Classic);
                let mut runs = Vec::new();
                for fast in [false, true] {
                    let mut e = NineEngine::with_path(true, fast);
                    let s = solve_with(&mut e, &p, &budget);
                    let c = count_with(&mut e, &p, 2, true, &budget);
                    runs.push((s.status, s.stats, c.count, c.solutions, c.stats));
                }
                assert_eq!(runs[0], runs[1], "{file}");
                assert_eq!(runs[0].2, 1, "{file}: every puzzle has one solution");
            }
        }
    }
}
