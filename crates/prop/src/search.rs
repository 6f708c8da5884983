//! What both solvers share: the engine interface, the engine cache, and the mapping from a
//! finished search to the core [`Outcome`] and [`CountOutcome`].

use sudoku_core::{
    Budget, CountEnd, CountOutcome, Grid, Order, OtherSolution, Outcome, Puzzle, Stats, Status,
    Variant,
};

pub(crate) use crate::kernel::SearchEnd;

/// Receives each solution; returns whether to go on.
pub(crate) type OnSolution<'a> = &'a mut dyn FnMut(Grid) -> bool;

/// A search engine for one (order, variant), reusable across puzzles of that shape.
pub(crate) trait Engine {
    /// Is this engine built for `order` and `variant`?
    fn fits(&self, order: Order, variant: Variant) -> bool;

    /// Searches `puzzle`, handing each solution to `on_solution`, which returns whether to
    /// go on.
    fn run(&mut self, puzzle: &Puzzle, budget: &Budget, on_solution: OnSolution) -> SearchEnd;

    /// The statistics of the last run (taken out of the engine).
    fn stats(&mut self) -> Stats;

    /// The carver's question ([`sudoku_core::Solver::count_other`]) answered by a search of
    /// its own, or `None` to count to 2 instead.
    fn count_other(&mut self, ask: OtherSolution<'_>, budget: &Budget) -> Option<CountOutcome> {
        let _ = (ask, budget);
        None
    }
}

/// Solves: the first solution found, else infeasible or exhausted.
pub(crate) fn solve_with(engine: &mut dyn Engine, puzzle: &Puzzle, budget: &Budget) -> Outcome {
    let mut found = None;
    let end = engine.run(puzzle, budget, &mut |g| {
        found = Some(g);
        false
    });
    let status = match (found, end) {
        (Some(g), _) => Status::Solved(g),
        (None, SearchEnd::Exhausted(limit)) => Status::Exhausted { limit, best: None },
        // Stopped only happens after a solution, so this is a completed search.
        (None, _) => Status::Infeasible,
    };
    Outcome {
        status,
        stats: engine.stats(),
    }
}

/// Counts up to `limit` solutions (a limit of 0 asks for nothing and is reached at once).
pub(crate) fn count_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    limit: u64,
    collect: bool,
    budget: &Budget,
) -> CountOutcome {
    if limit == 0 {
        return CountOutcome::nothing_asked();
    }
    let mut count = 0u64;
    let mut solutions = Vec::new();
    let end = engine.run(puzzle, budget, &mut |g| {
        count += 1;
        if collect {
            solutions.push(g);
        }
        count < limit
    });
    let end = match end {
        SearchEnd::Complete => CountEnd::Complete,
        SearchEnd::Stopped | SearchEnd::Cutoff => CountEnd::LimitReached,
        SearchEnd::Exhausted(l) => CountEnd::Exhausted(l),
    };
    CountOutcome {
        count,
        end,
        solutions,
        stats: engine.stats(),
    }
}

/// Returns the cached engine if it fits `puzzle`, else builds one with `make`.
pub(crate) fn cached<'a>(
    slot: &'a mut Option<Box<dyn Engine + Send>>,
    puzzle: &Puzzle,
    make: impl FnOnce(Order, Variant) -> Box<dyn Engine + Send>,
) -> &'a mut dyn Engine {
    let (order, variant) = (puzzle.order(), puzzle.variant());
    if slot.as_ref().is_some_and(|e| !e.fits(order, variant)) {
        *slot = None;
    }
    slot.get_or_insert_with(|| make(order, variant)).as_mut()
}
