//! The search behind `prop-fill` and [`crate::FillCounter`]: the propagation kernel of
//! sudoku-prop ([`sudoku_prop::kernel`]: bitset candidates, naked and hidden singles, undo by
//! a trail) driven by this crate's [`Fill`] strategy: the fewest-candidates cell with the
//! lowest index, a random or "pressing" digit order for generation, restarts by a node
//! cutoff.

use rand::Rng as _;
use sudoku_core::{
    for_width, Budget, CountEnd, Deadline, DigitSet, Grid, Limit, Order, Puzzle, Rng, Stats,
    Variant,
};
use sudoku_prop::kernel::{Kernel, Rules, Strategy};

pub(crate) use sudoku_prop::kernel::SearchEnd;

/// Limits shared by every search call of one top-level request.
pub(crate) struct Limits {
    pub deadline: Deadline,
    pub max_nodes: Option<u64>,
}

impl Limits {
    pub fn new(budget: &Budget) -> Limits {
        Limits {
            deadline: Deadline::new(budget, 64),
            max_nodes: budget.nodes,
        }
    }
}

/// The kernel rules: naked singles, and hidden singles when `hidden`.
pub(crate) fn rules(hidden: bool) -> Rules {
    Rules {
        hidden_singles: hidden,
        ..Rules::SINGLES
    }
}

/// This crate's branching order and metering: `stats.nodes` counts every digit tried,
/// `stats.guesses` every digit tried while others were left.
struct Fill<'a> {
    /// With a generator: random digit order (generation); without: increasing (counting).
    rng: Option<&'a mut Rng>,
    /// Generation: prefer the digit with fewest places left in the cell's units.
    pressure: bool,
    limits: &'a mut Limits,
    stats: &'a mut Stats,
    start_nodes: u64,
    cutoff: Option<u64>,
}

impl<const W: usize> Strategy<W> for Fill<'_> {
    /// Row-major ties matter: filling in reading order among equals makes large grids far
    /// easier than random ties (order 8: about 0.1 s against timeouts of 10 s).
    fn cell(&mut self, k: &Kernel<W>) -> usize {
        k.mrv_first_cell().unwrap_or(0)
    }

    fn digit(&mut self, k: &Kernel<W>, cell: usize, rest: DigitSet<W>) -> usize {
        match self.rng.as_deref_mut() {
            Some(r) if self.pressure => pressing_digit(k, cell, rest, r),
            Some(r) => {
                let i = r.random_range(0..rest.len());
                rest.iter().nth(i).unwrap_or(1)
            }
            None => rest.first().unwrap_or(1),
        }
    }

    fn node(&mut self, left: usize) -> Option<SearchEnd> {
        if left > 1 {
            self.stats.guesses += 1;
        }
        self.stats.nodes += 1;
        if self.limits.max_nodes.is_some_and(|m| self.stats.nodes > m) {
            return Some(SearchEnd::Exhausted(Limit::Nodes));
        }
        if self.limits.deadline.expired() {
            return Some(SearchEnd::Exhausted(Limit::Time));
        }
        if self
            .cutoff
            .is_some_and(|c| self.stats.nodes - self.start_nodes > c)
        {
            return Some(SearchEnd::Cutoff);
        }
        None
    }
}

/// Among `rest`, a digit with the fewest places left in one of `cell`'s units (the unit that
/// needs it most urgently), ties broken at random.
fn pressing_digit<const W: usize>(
    k: &Kernel<W>,
    cell: usize,
    rest: DigitSet<W>,
    rng: &mut Rng,
) -> usize {
    let mut best = 0;
    let mut best_score = usize::MAX;
    let mut ties = 0u32;
    for d in rest.iter() {
        let score = k
            .cell_units(cell)
            .iter()
            .map(|&u| k.places(u as usize, d))
            .min()
            .unwrap_or(0);
        if score < best_score {
            best_score = score;
            best = d;
            ties = 1;
        } else if score == best_score {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = d;
            }
        }
    }
    best
}

/// Depth-first search from the loaded (propagated) state of `k`, with this crate's
/// [`Fill`] strategy. `on_solution` gets each full grid and says whether to go on.
/// `cutoff` ends the call with [`SearchEnd::Cutoff`] after that many nodes (restarts).
pub(crate) fn search<const W: usize>(
    k: &mut Kernel<W>,
    rng: Option<&mut Rng>,
    pressure: bool,
    limits: &mut Limits,
    stats: &mut Stats,
    cutoff: Option<u64>,
    on_solution: impl FnMut(&Kernel<W>) -> bool,
) -> SearchEnd {
    let start_nodes = stats.nodes;
    let mut fill = Fill {
        rng,
        pressure,
        limits,
        stats,
        start_nodes,
        cutoff,
    };
    k.search(&mut fill, on_solution)
}

/// A kernel of whichever width the order needs, so callers monomorphise once.
pub(crate) enum AnyEngine {
    W1(Kernel<1>),
    W2(Kernel<2>),
    W4(Kernel<4>),
}

/// Runs `$body` with `$e` bound to the kernel inside, whatever its width.
macro_rules! with_engine {
    ($any:expr, $e:ident => $body:expr) => {
        match $any {
            $crate::engine::AnyEngine::W1($e) => $body,
            $crate::engine::AnyEngine::W2($e) => $body,
            $crate::engine::AnyEngine::W4($e) => $body,
        }
    };
}
pub(crate) use with_engine;

impl From<Kernel<1>> for AnyEngine {
    fn from(k: Kernel<1>) -> Self {
        AnyEngine::W1(k)
    }
}

impl From<Kernel<2>> for AnyEngine {
    fn from(k: Kernel<2>) -> Self {
        AnyEngine::W2(k)
    }
}

impl From<Kernel<4>> for AnyEngine {
    fn from(k: Kernel<4>) -> Self {
        AnyEngine::W4(k)
    }
}

impl AnyEngine {
    pub fn new(order: Order, variant: Variant) -> AnyEngine {
        for_width!(order, W => {
            let mut k = Kernel::<W>::new(order, variant, rules(true));
            // `pressing_digit` asks for place counts at every node.
            k.set_place_counts(true);
            AnyEngine::from(k)
        })
    }

    /// Reuses `slot` when it already fits (order, variant), else builds a new engine there.
    pub fn reuse(slot: &mut Option<AnyEngine>, order: Order, variant: Variant) -> &mut AnyEngine {
        let fits = slot
            .as_ref()
            .is_some_and(|e| with_engine!(e, x => x.order() == order && x.variant() == variant));
        if !fits {
            *slot = Some(AnyEngine::new(order, variant));
        }
        slot.get_or_insert_with(|| AnyEngine::new(order, variant))
    }
}

/// Counts solutions of `puzzle` up to `limit` with `engine` (which must fit the puzzle).
pub(crate) fn count_with(
    engine: &mut AnyEngine,
    puzzle: &Puzzle,
    limit: u64,
    collect: bool,
    budget: &Budget,
) -> (u64, CountEnd, Vec<Grid>, Stats) {
    let mut limits = Limits::new(budget);
    let mut stats = Stats::default();
    let mut count = 0u64;
    let mut sols = Vec::new();
    let end = with_engine!(engine, e => {
        e.set_rules(rules(true));
        if e.load(puzzle.givens()).is_err() {
            SearchEnd::Complete
        } else if limit == 0 {
            SearchEnd::Stopped
        } else {
            search(e, None, false, &mut limits, &mut stats, None, |s| {
                count += 1;
                if collect {
                    sols.push(s.grid());
                }
                count < limit
            })
        }
    });
    let end = match end {
        SearchEnd::Complete => CountEnd::Complete,
        SearchEnd::Exhausted(l) => CountEnd::Exhausted(l),
        // No cutoff when counting.
        SearchEnd::Stopped | SearchEnd::Cutoff => CountEnd::LimitReached,
    };
    (count, end, sols, stats)
}
