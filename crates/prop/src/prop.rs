//! The improved propagator of Takano et al. as a solver: the [`crate::kernel`] with its default
//! strategy (O(1) minimum-remaining-values cell, digits in increasing order) under a
//! [`Meter`], the extra rules switched by [`PropConfig`].

use sudoku_core::{Budget, Order, Puzzle, Stats, Variant};

use crate::kernel::{Kernel, Meter, Rules, SearchEnd};
use crate::search::{Engine, OnSolution};

sudoku_core::config! {
    /// The switches of [`crate::Prop`]: which extra propagation rules run after the singles
    /// reach their fixpoint. Naked and hidden singles always run.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct PropConfig for crate::PROP {
        locked_candidates: bool = true,
            "locked candidates (pointing and claiming) between blocks and rows/columns, run when \
             the singles reach their fixpoint";
        naked_pairs: bool = false,
            "naked pairs within each unit, run after locked candidates find nothing";
    }
}

impl PropConfig {
    /// The kernel rules these switches select.
    pub fn rules(self) -> Rules {
        Rules {
            hidden_singles: true,
            locked_candidates: self.locked_candidates,
            naked_pairs: self.naked_pairs,
        }
    }
}

/// The `prop` engine for one (order, variant) and one candidate width.
pub(crate) struct PropEngine<const W: usize> {
    kernel: Kernel<W>,
    stats: Stats,
}

impl<const W: usize> PropEngine<W> {
    pub(crate) fn new(order: Order, variant: Variant, cfg: PropConfig) -> Self {
        PropEngine {
            kernel: Kernel::new(order, variant, cfg.rules()),
            stats: Stats::default(),
        }
    }
}

impl<const W: usize> Engine for PropEngine<W> {
    fn fits(&self, order: Order, variant: Variant) -> bool {
        self.kernel.order() == order && self.kernel.variant() == variant
    }

    fn stats(&mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }

    fn run(&mut self, puzzle: &Puzzle, budget: &Budget, on_solution: OnSolution) -> SearchEnd {
        let mut meter = Meter::new(budget, self.kernel.order());
        let end = if self.kernel.load(puzzle.givens()).is_err() {
            SearchEnd::Complete
        } else {
            self.kernel.search(&mut meter, |k| on_solution(k.grid()))
        };
        self.stats = meter.stats;
        end
    }
}
