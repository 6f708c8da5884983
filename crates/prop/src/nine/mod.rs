//! The order-3 classic path of `prop` (default rules), on a board made for 9×9 (see
//! [`board`]). The propagation runs per band of one digit (rows and boxes of the band,
//! box-to-column pointing and column-to-box claiming with the other bands) plus naked singles;
//! hidden singles of columns come from the claiming. Each search node then runs the segment
//! rules (three digits per three-cell segment) and branches on the configurations of one digit
//! in one band or stack (its ways through the band's rows and boxes, or the stack's columns and
//! boxes): the digit with the fewest in the band or stack with the fewest; a cell only where no
//! digit has two or more left anywhere. Every rule works on whole bands at once with bitwise
//! operations and small tables, and a guess copies the board on the stack instead of keeping a
//! trail (the last way reuses its parent's board).
//!
//! Ideas taken from published designs (no code): per-digit band bitboards and the update of
//! one (digit, band) at a time as in JCZSolve and fsss2, bit-sliced candidate counting over
//! all cells, and tdoku's configurations, three-of-nine segment clauses and its choice of the
//! band and digit to branch on (from its notes).

mod board;

use sudoku_core::{
    Budget, CountEnd, CountOutcome, Grid, Order, OtherSolution, Puzzle, Stats, Variant,
};

use crate::kernel::{Meter, SearchEnd, Strategy};
use crate::search::{Engine, OnSolution};
use board::{Board, Occupancy};

/// The 9×9 classic engine of `prop`.
pub(crate) struct NineEngine {
    /// Search with the BMI-compiled version (the processor has the instructions).
    fast: bool,
    stats: Stats,
}

impl NineEngine {
    /// An engine, in the fastest version this processor runs.
    pub(crate) fn new() -> NineEngine {
        NineEngine::with_path(true)
    }

    /// An engine that searches with the BMI-compiled version if `fast` and the processor has
    /// its instructions (tests run both versions).
    pub(crate) fn with_path(fast: bool) -> NineEngine {
        NineEngine {
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
/// propagation and `$rec` the search to recurse into (the same version). It branches on the
/// configurations of one digit in a band or stack (see [`Board::branch_band`]); where every
/// digit has one left in each, on a cell.
macro_rules! search_body {
    ($ctx:ident, $board:ident, $prop:ident, $rec:ident) => {{
        let mut board = $board;
        // The segment rules, to a common fixpoint with the propagation.
        let mut occ = Occupancy::default();
        loop {
            match board.segment_rules(&mut occ) {
                Err(_) => return Flow::Continue,
                Ok(false) => break,
                Ok(true) => {
                    if board.$prop().is_err() {
                        return Flow::Continue;
                    }
                    if board.solved() {
                        return $ctx.solution(&board);
                    }
                }
            }
        }
        if let Some(choice) = board.branch_band(&occ) {
            try_each!($ctx, board, $prop, $rec, choice.ways, |child, p| child
                .take(&choice, p))
        } else {
            let (b, i) = board.branch_cell();
            let digits = board.digits(b, i);
            if digits == 0 {
                return Flow::Continue;
            }
            try_each!($ctx, board, $prop, $rec, digits, |child, d| child
                .place(d, b, i))
        }
    }};
}

/// Tries each way (bit k of `$ways`, in increasing order) of a branching: `$apply` makes
/// the child of way k, which is then propagated and searched.
macro_rules! try_each {
    ($ctx:ident, $board:ident, $prop:ident, $rec:ident, $ways:expr,
     |$child:ident, $k:ident| $apply:expr) => {{
        let mut board = $board;
        let mut ways = $ways;
        <Meter as Strategy<1>>::branch(&mut $ctx.meter);
        loop {
            let $k = ways.trailing_zeros() as usize;
            ways &= ways - 1;
            if let Some(end) = <Meter as Strategy<1>>::node(&mut $ctx.meter, 0) {
                return Flow::Stop(end);
            }
            // The last way needs no copy: the board is not needed after it.
            let last = ways == 0;
            let mut copy;
            let $child = if last {
                &mut board
            } else {
                copy = board;
                &mut copy
            };
            $apply;
            if $child.$prop().is_ok() {
                let flow = if $child.solved() {
                    $ctx.solution($child)
                } else {
                    $ctx.$rec(*$child)
                };
                if let Flow::Stop(end) = flow {
                    return Flow::Stop(end);
                }
            }
            if last {
                return Flow::Continue;
            }
        }
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
        let end = ctx.run(load(puzzle, self.fast, &[], None));
        self.stats = ctx.meter.stats;
        end
    }

    /// A solution other than `solution` differs from it at a removed cell (the puzzle before
    /// the removal had no other), so for each removed cell k in turn: is there a solution with
    /// another digit at k and the solution's digits at the removed cells before k? Each is a
    /// search for one solution of a more constrained puzzle, which propagation often settles
    /// at once, where a count to 2 must find the known solution and exhaust the rest.
    fn count_other(&mut self, ask: OtherSolution<'_>, budget: &Budget) -> Option<CountOutcome> {
        let OtherSolution {
            puzzle,
            solution,
            removed,
        } = ask;
        let known = solution.cells();
        if known.len() != 81 || removed.iter().any(|&c| c >= 81 || known[c] == 0) {
            return None;
        }
        let digit = |c: usize| (c, usize::from(known[c]) - 1);
        // The first solution found answers the question: stop there.
        let mut on_solution = |_: Grid| false;
        let mut ctx = Ctx {
            order: puzzle.order(),
            fast: self.fast,
            meter: Meter::new(budget, puzzle.order()),
            on_solution: &mut on_solution,
        };
        let mut fixed = Vec::with_capacity(removed.len());
        let mut end = SearchEnd::Complete;
        for &c in removed {
            end = ctx.run(load(puzzle, self.fast, &fixed, Some(digit(c))));
            if end != SearchEnd::Complete {
                break;
            }
            fixed.push(digit(c));
        }
        let stats = std::mem::take(&mut ctx.meter.stats);
        let (count, end) = match end {
            SearchEnd::Complete => (1, CountEnd::Complete),
            SearchEnd::Exhausted(limit) => (1, CountEnd::Exhausted(limit)),
            SearchEnd::Stopped | SearchEnd::Cutoff => (2, CountEnd::LimitReached),
        };
        Some(CountOutcome {
            count,
            end,
            solutions: Vec::new(),
            stats,
        })
    }
}

impl Ctx<'_> {
    /// Searches from a loaded board (`None`: the loading found a contradiction).
    fn run(&mut self, board: Option<Board>) -> SearchEnd {
        let Some(board) = board else {
            return SearchEnd::Complete;
        };
        let flow = if board.solved() {
            self.solution(&board)
        } else {
            self.search_root(board)
        };
        match flow {
            Flow::Continue => SearchEnd::Complete,
            Flow::Stop(end) => end,
        }
    }
}

/// The board of the givens and of the `fixed` (cell, digit index) pairs, without the digit
/// `banned` at its cell, after propagation; `None` if that shows a contradiction.
fn load(
    puzzle: &Puzzle,
    fast: bool,
    fixed: &[(usize, usize)],
    banned: Option<(usize, usize)>,
) -> Option<Board> {
    let mut board = Board::new();
    for (cell, &v) in puzzle.givens().cells().iter().enumerate() {
        if v != 0 {
            board.give(cell, usize::from(v) - 1).ok()?;
        }
    }
    for &(cell, d) in fixed {
        board.give(cell, d).ok()?;
    }
    if let Some((cell, d)) = banned {
        board.ban(cell, d);
    }
    #[cfg(target_arch = "x86_64")]
    if fast {
        // SAFETY: `fast` is set only when `board::fast_path` found every feature that
        // `propagate_bmi` is compiled for on this processor.
        return unsafe { board.propagate_bmi() }.ok().map(|()| board);
    }
    let _ = fast;
    board.propagate().ok()?;
    Some(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{count_with, solve_with};
    use sudoku_fixtures::public_grids;

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
                    let mut e = NineEngine::with_path(fast);
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
