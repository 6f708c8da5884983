//! The order-3 classic path of `prop`: the same search (singles, optional locked candidates,
//! depth-first on a cell with fewest candidates, digits in increasing order) on a board made
//! for 9×9 (see [`board`]). Every rule works on whole units at once with bitwise operations,
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
    stats: Stats,
}

impl NineEngine {
    /// An engine; `locked` switches locked candidates on.
    pub(crate) fn new(locked: bool) -> NineEngine {
        NineEngine {
            locked,
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

/// The search's fixed inputs and its meter.
struct Ctx<'a> {
    order: Order,
    locked: bool,
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
        let (b, i) = board.branch_cell();
        let mut digits = board.digits(b, i);
        <Meter as Strategy<1>>::branch(&mut self.meter);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if let Some(end) = <Meter as Strategy<1>>::node(&mut self.meter, 0) {
                return Flow::Stop(end);
            }
            let mut child = board;
            child.place(d, b, i);
            if child.propagate(u32::from(self.locked)).is_err() {
                continue;
            }
            let flow = if child.solved() {
                self.solution(&child)
            } else {
                self.search(child)
            };
            if let Flow::Stop(end) = flow {
                return Flow::Stop(end);
            }
        }
        Flow::Continue
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
            locked: self.locked,
            meter: Meter::new(budget, puzzle.order()),
            on_solution,
        };
        let end = match load(puzzle, self.locked) {
            None => SearchEnd::Complete,
            Some(board) => {
                let flow = if board.solved() {
                    ctx.solution(&board)
                } else {
                    ctx.search(board)
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
fn load(puzzle: &Puzzle, locked: bool) -> Option<Board> {
    let mut board = Board::new();
    for (cell, &v) in puzzle.givens().cells().iter().enumerate() {
        if v != 0 {
            board.give(cell, usize::from(v) - 1).ok()?;
        }
    }
    // At the root, locked candidates to their fixpoint: more puzzles fall without a guess.
    board.propagate(if locked { u32::MAX } else { 0 }).ok()?;
    Some(board)
}
