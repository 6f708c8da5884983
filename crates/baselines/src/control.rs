//! What every search here shares: budget checks, solution collection, and the mapping of a
//! finished search to core's [`Outcome`] and [`CountOutcome`].

use std::time::Instant;

use sudoku_core::{
    check_givens, Budget, CountEnd, CountOutcome, Deadline, Grid, Limit, Outcome, Puzzle, Stats,
    Status,
};

/// How often (in nodes) the wall clock is read: a 9×9 node costs tens of nanoseconds, a 25×25
/// DLX node a few microseconds, so 128 keeps the overshoot of a time limit well under 1 ms.
const CLOCK_STRIDE: u32 = 128;

/// The running state of one search call: counters, limits and the solutions found.
pub(crate) struct Control {
    pub(crate) nodes: u64,
    pub(crate) guesses: u64,
    node_limit: Option<u64>,
    deadline: Deadline,
    /// The limit that stopped the search, if one did.
    stopped: Option<Limit>,
    solution_limit: u64,
    collect: bool,
    count: u64,
    solutions: Vec<Grid>,
    givens: Grid,
    pub(crate) stats: Stats,
}

impl Control {
    pub(crate) fn new(
        puzzle: &Puzzle,
        budget: &Budget,
        solution_limit: u64,
        collect: bool,
    ) -> Self {
        Control {
            nodes: 0,
            guesses: 0,
            node_limit: budget.nodes,
            deadline: Deadline::new(budget, CLOCK_STRIDE),
            stopped: None,
            solution_limit,
            collect,
            count: 0,
            solutions: Vec::new(),
            givens: puzzle.givens().clone(),
            stats: Stats::default(),
        }
    }

    /// Called before each new search node (a digit placed in a cell, or a DLX row chosen).
    /// Returns `false` when a budget has run out; the search must then unwind and return.
    #[inline]
    pub(crate) fn node(&mut self) -> bool {
        if let Some(limit) = self.node_limit {
            if self.nodes >= limit {
                self.stopped = Some(Limit::Nodes);
                return false;
            }
        }
        if self.deadline.expired() {
            self.stopped = Some(Limit::Time);
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Records a full assignment; `cells` holds the digit of every cell (givens included).
    /// Returns `false` when the solution limit is reached and the search must stop.
    pub(crate) fn solution(&mut self, cells: &[u16]) -> bool {
        self.count += 1;
        // The first solution is always kept: `solve` returns it.
        if self.collect || self.solutions.is_empty() {
            let grid = Grid::from_cells(self.givens.order(), cells.to_vec())
                .expect("search grids have the puzzle's order and digits in range");
            self.solutions.push(grid);
        }
        self.count < self.solution_limit
    }

    fn finish_stats(&mut self) -> Stats {
        let mut stats = std::mem::take(&mut self.stats);
        stats.nodes = self.nodes;
        stats.guesses = self.guesses;
        stats
    }

    /// The result of `solve`, once the search has returned.
    pub(crate) fn into_outcome(mut self) -> Outcome {
        let stats = self.finish_stats();
        let status = if self.count > 0 {
            Status::Solved(self.solutions.swap_remove(0))
        } else if let Some(limit) = self.stopped {
            Status::Exhausted { limit, best: None }
        } else {
            Status::Infeasible
        };
        Outcome { status, stats }
    }

    /// The result of `count`, once the search has returned.
    pub(crate) fn into_count(mut self) -> CountOutcome {
        let stats = self.finish_stats();
        let end = if let Some(limit) = self.stopped {
            CountEnd::Exhausted(limit)
        } else if self.count >= self.solution_limit {
            CountEnd::LimitReached
        } else {
            CountEnd::Complete
        };
        if !self.collect {
            self.solutions.clear();
        }
        CountOutcome {
            count: self.count,
            end,
            solutions: self.solutions,
            stats,
        }
    }
}

/// The search every method here implements: enumerate solutions of `puzzle`, reporting nodes
/// and solutions to `ctl`, until the space is exhausted or `ctl` says stop. Givens are known
/// to be consistent (no digit twice in a unit) when this is called.
pub(crate) trait Search {
    fn search(&mut self, puzzle: &Puzzle, ctl: &mut Control);
}

/// Implements core's `Solver` for a [`Search`] type under a registry name: `solve` and
/// `count` both run the search through [`Control`] (the generator is not used: these
/// searches are deterministic).
macro_rules! search_solver {
    ($ty:ty, $name:expr) => {
        impl sudoku_core::Solver for $ty {
            fn name(&self) -> &str {
                $name
            }

            fn solve(
                &mut self,
                puzzle: &sudoku_core::Puzzle,
                budget: &sudoku_core::Budget,
                _rng: &mut sudoku_core::Rng,
            ) -> sudoku_core::Outcome {
                $crate::control::solve_with(self, puzzle, budget)
            }

            fn count(
                &mut self,
                puzzle: &sudoku_core::Puzzle,
                ask: sudoku_core::Count,
                budget: &sudoku_core::Budget,
                _rng: &mut sudoku_core::Rng,
            ) -> sudoku_core::Counted {
                let sudoku_core::Count { limit, collect } = ask;
                Ok($crate::control::count_with(
                    self, puzzle, limit, collect, budget,
                ))
            }
        }
    };
}
pub(crate) use search_solver;

/// Runs `search` for `solve`: first solution, or proof that there is none, or a spent budget.
pub(crate) fn solve_with<S: Search>(search: &mut S, puzzle: &Puzzle, budget: &Budget) -> Outcome {
    let mut ctl = Control::new(puzzle, budget, 1, false);
    if check_givens(puzzle).is_ok() {
        search.search(puzzle, &mut ctl);
    }
    ctl.into_outcome()
}

/// Runs `search` for `count`.
pub(crate) fn count_with<S: Search>(
    search: &mut S,
    puzzle: &Puzzle,
    limit: u64,
    collect: bool,
    budget: &Budget,
) -> CountOutcome {
    let mut ctl = Control::new(puzzle, budget, limit, collect);
    if limit > 0 && check_givens(puzzle).is_ok() {
        search.search(puzzle, &mut ctl);
    }
    ctl.into_count()
}

/// Times a model build (DLX's matrix) into [`Stats::build_time`].
pub(crate) fn timed<T>(ctl: &mut Control, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    ctl.stats.build_time = Some(start.elapsed());
    out
}
