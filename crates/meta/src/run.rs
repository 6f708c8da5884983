//! What both methods share: preprocessing, budget accounting, the best-so-far record and the
//! convergence trace, and turning a run into an [`Outcome`].

use std::time::Instant;

use sudoku_core::{Budget, Deadline, Grid, Limit, Outcome, Puzzle, Rng, Stats, Status, TracePoint};

use crate::board::Board;
use crate::propagate::propagate_singles;
use crate::Preprocess;

/// The iteration cap (moves evaluated) used when a budget gives neither a time nor an
/// iteration limit, so that every call ends: about 10 to 60 s on a 9×9 puzzle on one core.
pub const DEFAULT_ITERATIONS: u64 = 500_000_000;

/// The start of a run: either already decided, or a board to search with the statistics so far.
pub(crate) enum Start {
    /// Decided before any search.
    Done(Outcome),
    /// A board with its free cells empty and at least one block with a move.
    Search(Board, Stats),
}

/// Checks the givens, applies the preprocessing and builds the board, its moves restricted to
/// candidate digits when `candidates` says so: a board with its free cells empty and at least
/// one block with a move, or the outcome when no search is needed (proved infeasible, or every
/// block forced: then the free cells are filled at random, the one draw a search would make).
pub(crate) fn start(
    puzzle: &Puzzle,
    preprocess: Preprocess,
    candidates: bool,
    rng: &mut Rng,
) -> Start {
    let mut stats = Stats::default();
    let infeasible = |stats: Stats| {
        Start::Done(Outcome {
            status: Status::Infeasible,
            stats,
        })
    };
    let fixed = match preprocess {
        Preprocess::None => {
            if sudoku_core::check_givens(puzzle).is_err() {
                return infeasible(stats);
            }
            puzzle.givens().clone()
        }
        Preprocess::Singles => match propagate_singles(puzzle) {
            Ok(p) => {
                stats
                    .extra
                    .push(("preprocess_naked".into(), p.naked.to_string()));
                stats
                    .extra
                    .push(("preprocess_hidden".into(), p.hidden.to_string()));
                p.grid
            }
            Err(why) => {
                stats.extra.push(("infeasible".into(), why.to_string()));
                return infeasible(stats);
            }
        },
    };
    match Board::new(puzzle, &fixed) {
        Ok(mut board) => {
            if candidates {
                board.restrict_to_candidates();
            }
            if board.movable_blocks().is_empty() {
                board.fill_random(rng);
                return Start::Done(forced(&board, stats));
            }
            Start::Search(board, stats)
        }
        // Unreachable after check_givens (a block repeat is a unit repeat), kept as a proof.
        Err(_) => infeasible(stats),
    }
}

/// Budget, best-so-far and trace bookkeeping for one run.
pub(crate) struct Run {
    start: Instant,
    deadline: Deadline,
    cap: u64,
    limit_if_cap: Limit,
    trace: bool,
    /// Moves evaluated so far.
    pub iterations: u64,
    /// Best cost so far.
    pub best_cost: u64,
    /// The stats being gathered.
    pub stats: Stats,
    /// Set once a limit ran out.
    pub stopped: Option<Limit>,
}

impl Run {
    pub(crate) fn new(budget: &Budget, stride: u32, trace: bool, stats: Stats) -> Run {
        let (cap, limit_if_cap) = match (budget.iterations, budget.time) {
            (Some(i), _) => (i, Limit::Iterations),
            (None, Some(_)) => (u64::MAX, Limit::Iterations),
            (None, None) => (DEFAULT_ITERATIONS, Limit::Iterations),
        };
        Run {
            start: Instant::now(),
            deadline: Deadline::new(budget, stride),
            cap,
            limit_if_cap,
            trace,
            iterations: 0,
            best_cost: u64::MAX,
            stats,
            stopped: None,
        }
    }

    /// Should the run stop? Checks the iteration cap exactly and the clock cheaply.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.iterations >= self.cap {
            self.stopped = Some(self.limit_if_cap);
        } else if self.deadline.expired() {
            self.stopped = Some(Limit::Time);
        }
        self.stopped.is_some()
    }

    /// Records `cost` if it beats the best; returns whether it did.
    #[inline]
    pub(crate) fn offer(&mut self, cost: u64) -> bool {
        if cost >= self.best_cost {
            return false;
        }
        self.best_cost = cost;
        let elapsed = self.start.elapsed();
        self.stats.time_to_best = Some(elapsed);
        if self.trace {
            self.stats.trace.push(TracePoint {
                iteration: self.iterations,
                elapsed,
                best_cost: cost,
            });
        }
        true
    }

    /// The outcome of a method whose best is a partial assignment (`acs`, `cp-ils`): a
    /// solution, or `Exhausted` with no grid (`Status::Exhausted` holds complete assignments
    /// only); `best_cost` counts the cells the best partial assignment leaves open.
    pub(crate) fn finish_partial(self, best: Grid) -> Outcome {
        let mut out = self.finish(best);
        if let Status::Exhausted { best, .. } = &mut out.status {
            *best = None;
        }
        out
    }

    /// The outcome, given the best assignment found.
    pub(crate) fn finish(mut self, best: Grid) -> Outcome {
        self.stats.iterations = self.iterations;
        self.stats.best_cost = Some(self.best_cost);
        let status = if self.best_cost == 0 {
            Status::Solved(best)
        } else {
            Status::Exhausted {
                limit: self.stopped.unwrap_or(self.limit_if_cap),
                best: Some(best),
            }
        };
        Outcome {
            status,
            stats: self.stats,
        }
    }
}

/// A solved outcome for a board that needs no search (no free cell, or preprocessing
/// filled it), or an infeasible one when the forced assignment violates a line.
pub(crate) fn forced(board: &Board, mut stats: Stats) -> Outcome {
    stats.best_cost = Some(board.cost());
    if board.cost() == 0 {
        stats.time_to_best = Some(std::time::Duration::ZERO);
        Outcome {
            status: Status::Solved(board.to_grid()),
            stats,
        }
    } else {
        // Every block has at most one free cell, so the assignment is the only one
        // the fixed cells allow: a violation proves infeasibility.
        Outcome {
            status: Status::Infeasible,
            stats,
        }
    }
}
