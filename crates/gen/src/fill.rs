//! `prop-fill` (our own generator: randomized search with propagation and restarts) and
//! [`FillCounter`], the same engine used as an exact solution counter.

use sudoku_core::{
    choices, Budget, Count, CountOutcome, Counted, Generator, Grid, Limit, Order, Outcome, Puzzle,
    Rng, Solver, Stats, Status, Variant,
};

use crate::engine::{count_with, rules, search, with_engine, AnyEngine, Limits, SearchEnd};

/// The registry name, also returned by [`Generator::name`].
pub(crate) const PROP_FILL: &str = "prop-fill";

sudoku_core::config! {
    /// The `prop-fill` generator: from the empty grid, pick the cell with fewest candidates
    /// (lowest index among ties, i.e. reading order), try its digits with the most pressing
    /// first (fewest places left in one of its units; ties at random) or in random order,
    /// propagate naked and (by default) hidden singles, backtrack on a contradiction, and restart
    /// from the empty grid when an attempt has used its node allowance.
    ///
    /// Attempts are bimodal (an order-10 attempt either fills the grid in about `N²` nodes or
    /// thrashes for ages), so the allowance starts near `N²` and grows slowly: it is
    /// `restart · N²` nodes, multiplied by `growth` at each restart (growth above 1 keeps the
    /// method complete).
    pub struct PropFill for PROP_FILL {
        /// First allowance in units of `N²` nodes; 0 = never restart.
        restart: f64 = 1.3 in 0.0..=1000.0 "(0 = never)",
            "first restart after restart*N^2 search nodes (an attempt that succeeds needs about \
             N^2)";
        /// Factor applied to the allowance at each restart (≥ 1).
        growth: f64 = 1.1 in 1.0..=10.0,
            "the node allowance is multiplied by this at each restart (above 1 keeps the search \
             complete)";
        hidden: bool = true, "propagate hidden singles as well as naked singles";
        /// Most pressing digit first (else uniformly random digit order).
        pressure as "value": bool = "pressure" of choices!["pressure" => true, "random" => false],
            "digit order: fewest places left in the cell's units first (ties random), or uniformly \
             random";
        engine: Option<AnyEngine>;
    }
}

impl PropFill {
    /// A configured generator (see the fields).
    pub fn new(restart: f64, growth: f64, hidden: bool, pressure: bool) -> PropFill {
        PropFill {
            restart,
            growth,
            hidden,
            pressure,
            ..PropFill::default()
        }
    }
}

impl Generator for PropFill {
    fn name(&self) -> &str {
        PROP_FILL
    }

    fn generate(
        &mut self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Outcome {
        let mut stats = Stats::default();
        let mut limits = Limits::new(budget);
        let engine = AnyEngine::reuse(&mut self.engine, order, variant);
        let (hidden, pressure, growth) = (self.hidden, self.pressure, self.growth.max(1.0));
        let first = (self.restart * order.cells() as f64).max(1.0);
        let mut cutoff = (self.restart > 0.0).then_some(first);
        let empty = Grid::empty(order);
        let status = with_engine!(engine, e => {
            e.set_rules(rules(hidden));
            loop {
                if budget.iterations.is_some_and(|m| stats.iterations >= m) {
                    break Status::Exhausted { limit: Limit::Iterations, best: None };
                }
                stats.iterations += 1;
                let ok = e.load(&empty).is_ok();
                debug_assert!(ok, "the empty grid never contradicts");
                let mut found = None;
                let allowance = cutoff.map(|c| c as u64);
                let end = search(e, Some(&mut *rng), pressure, &mut limits, &mut stats, allowance, |s| {
                    found = Some(s.grid());
                    false
                });
                match (end, found) {
                    (_, Some(g)) => break Status::Solved(g),
                    (SearchEnd::Cutoff, None) => {
                        stats.restarts += 1;
                        cutoff = cutoff.map(|c| c * growth);
                    }
                    (SearchEnd::Exhausted(l), None) => {
                        break Status::Exhausted { limit: l, best: None }
                    }
                    // The empty grid of every order and variant here has solutions, so a
                    // complete search without one would be a bug; report it honestly.
                    (_, None) => break Status::Infeasible,
                }
            }
        });
        Outcome { status, stats }
    }
}

/// An exact solution counter on the `prop-fill` engine (naked and hidden singles, fewest
/// candidates first, digits in increasing order). It exists so that this crate can check
/// uniqueness on its own and cross-check `sudoku-prop`; it is not registered as a method.
#[derive(Default)]
pub struct FillCounter {
    engine: Option<AnyEngine>,
}

impl FillCounter {
    /// A counter (its engine is built on first use and reused while the order stays).
    pub fn new() -> FillCounter {
        FillCounter::default()
    }
}

impl Solver for FillCounter {
    fn name(&self) -> &str {
        "gen-counter"
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        // The first solution in digit order: deterministic, the rng is not needed.
        let _ = rng;
        let engine = AnyEngine::reuse(&mut self.engine, puzzle.order(), puzzle.variant());
        let (count, end, mut sols, stats) = count_with(engine, puzzle, 1, true, budget);
        // With a limit of 1 and collection on, a count of 1 is the one grid collected.
        debug_assert_eq!(count, sols.len() as u64);
        Outcome {
            status: Status::of_search(sols.pop(), end),
            stats,
        }
    }

    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, _rng: &mut Rng) -> Counted {
        let Count { limit, collect } = ask;
        let engine = AnyEngine::reuse(&mut self.engine, puzzle.order(), puzzle.variant());
        let (count, end, solutions, stats) = count_with(engine, puzzle, limit, collect, budget);
        Ok(CountOutcome {
            count,
            end,
            solutions,
            stats,
        })
    }
}
