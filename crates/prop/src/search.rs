//! What both solvers share: the engine interface, the width dispatch, and the mapping from a
//! finished search to the core [`Outcome`] and [`CountOutcome`].

use sudoku_core::{
    Budget, CountEnd, CountOutcome, Deadline, Grid, Limit, Order, Outcome, Puzzle, Stats, Status,
    Variant,
};

/// How a depth-first search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchEnd {
    /// The whole tree was explored.
    Complete,
    /// The solution callback asked to stop.
    Stopped,
    /// A budget limit ran out.
    Exhausted(Limit),
}

/// A search engine for one (order, variant), reusable across puzzles of that shape.
pub(crate) trait Engine {
    /// Is this engine built for `order` and `variant`?
    fn fits(&self, order: Order, variant: Variant) -> bool;

    /// Searches `puzzle`, handing each solution to `on_solution`, which returns whether to
    /// go on.
    fn run(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd;

    /// The statistics of the last run (taken out of the engine).
    fn stats(&mut self) -> Stats;
}

/// A time check every `stride` nodes, scaled so that a check comes about every 64k cells of
/// work: 9×9 nodes cost ~100 ns, order-16 nodes can cost milliseconds.
pub(crate) fn deadline_for(budget: &Budget, order: Order) -> Deadline {
    let stride = (65_536 / order.cells()).clamp(1, 1024) as u32;
    Deadline::new(budget, stride)
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
        return CountOutcome {
            count: 0,
            end: CountEnd::LimitReached,
            solutions: Vec::new(),
            stats: Stats::default(),
        };
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
        SearchEnd::Stopped => CountEnd::LimitReached,
        SearchEnd::Exhausted(l) => CountEnd::Exhausted(l),
    };
    CountOutcome {
        count,
        end,
        solutions,
        stats: engine.stats(),
    }
}

/// One engine per candidate-set width, chosen from `order.words()` so 9×9 runs on one word.
pub(crate) enum Widths<A, B, C> {
    /// Orders 2..=8.
    W1(A),
    /// Orders 9..=11.
    W2(B),
    /// Orders 12..=16.
    W4(C),
}

impl<A: Engine, B: Engine, C: Engine> Widths<A, B, C> {
    pub(crate) fn engine(&mut self) -> &mut dyn Engine {
        match self {
            Widths::W1(e) => e,
            Widths::W2(e) => e,
            Widths::W4(e) => e,
        }
    }
}

/// Returns the cached engine if it fits `puzzle`, else builds one with `make`.
pub(crate) fn cached<'a, A: Engine, B: Engine, C: Engine>(
    slot: &'a mut Option<Widths<A, B, C>>,
    puzzle: &Puzzle,
    make: impl FnOnce(Order, Variant) -> Widths<A, B, C>,
) -> &'a mut dyn Engine {
    let (order, variant) = (puzzle.order(), puzzle.variant());
    let fits = slot
        .as_mut()
        .is_some_and(|w| w.engine().fits(order, variant));
    if !fits {
        *slot = None;
    }
    slot.get_or_insert_with(|| make(order, variant)).engine()
}
