//! `cp-ils`: iterated local search over partial assignments kept arc consistent by the
//! workspace's propagator ([`sudoku_prop::kernel`]), in the spirit of N. Musliu and F. Winter's
//! constraint-programming ILS for Sudoku (2017). It is this crate's own hybrid, not a paper's
//! exact method.
//!
//! A solution is a list of decisions (cell, digit); the state is the fixpoint of naked and
//! hidden singles over the givens plus the decisions, so it never breaks a constraint.
//! - Construction: take a cell with the fewest candidates, try a random candidate; if
//!   propagation fails, undo it and remove that digit from the cell (a one-step lookahead,
//!   itself propagated). When even that fails the construction is at a dead end; its cost is
//!   the number of cells left unplaced (0 = solved).
//! - Perturbation: drop every decision in a unit of the dead-end cell, and each other
//!   decision with probability `destroy`; replay the rest from the givens (a decision the
//!   propagation now refutes is dropped) and construct again.
//! - Acceptance: the new list replaces the current one when its cost is no worse, or with
//!   probability `walk`; after `restart` perturbations without a new best the search starts
//!   again from the givens.
//!
//! `Budget.iterations` counts digits tried; the same seed and iteration budget give the same
//! run.

use rand::Rng as _;
use sudoku_core::{
    check_givens, for_width, Budget, DigitSet, Grid, Outcome, Puzzle, Rng, Solver, Stats, Status,
};
use sudoku_prop::kernel::{Kernel, Rules};

use crate::run::Run;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "cp-ils";

sudoku_core::config! {
    /// The configuration of [`CpIls`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct CpIlsConfig for NAME {
        destroy: f64 = 0.05 in 0.0..=1.0,
            "perturbation: each decision outside the units of the dead-end cell is dropped with \
             this probability (those inside are always dropped)";
        walk: f64 = 0.02 in 0.0..=1.0,
            "probability of accepting a perturbed solution that is worse than the current one";
        restart: u64 = 2000 in 0..,
            "perturbations in a row without a new best before the search starts again from the \
             givens; 0 = never";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
    }
}

/// The CP-based iterated local search.
#[derive(Clone, Debug, Default)]
pub struct CpIls {
    /// Its configuration.
    pub config: CpIlsConfig,
}

impl CpIls {
    /// A solver with this configuration.
    pub fn new(config: CpIlsConfig) -> CpIls {
        CpIls { config }
    }
}

impl Solver for CpIls {
    fn name(&self) -> &str {
        NAME
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        for_width!(puzzle.order(), W => ils::<W>(puzzle, &cfg, budget, rng))
    }
}

/// A decision: cell and digit.
pub(crate) type Decision = (u32, u16);

/// The search state: the kernel at the givens' fixpoint (trail position `base`) plus decisions.
pub(crate) struct Partial<const W: usize> {
    pub(crate) k: Kernel<W>,
    base: usize,
    pub(crate) decisions: Vec<Decision>,
}

impl<const W: usize> Partial<W> {
    /// The givens propagated, or `None` when propagation proves the puzzle infeasible.
    pub(crate) fn new(puzzle: &Puzzle) -> Option<Self> {
        let mut k = Kernel::<W>::new(puzzle.order(), puzzle.variant(), Rules::SINGLES);
        k.load(puzzle.givens()).ok()?;
        let base = k.mark();
        Some(Partial {
            k,
            base,
            decisions: Vec::new(),
        })
    }

    /// Back to the givens, then `keep` replayed in order; a decision the propagation now
    /// refutes (or already implies) is left out of the list.
    pub(crate) fn replay(&mut self, keep: &[Decision]) {
        self.k.undo_to(self.base);
        self.decisions.clear();
        for &(c, d) in keep {
            let (c, d) = (c as usize, d as usize);
            if self.k.value(c) != 0 || !self.k.candidates(c).contains(d) {
                continue;
            }
            let mark = self.k.mark();
            if self.k.assign(c, d).and_then(|_| self.k.propagate()).is_ok() {
                self.decisions.push((c as u32, d as u16));
            } else {
                self.k.undo_to(mark);
            }
        }
    }

    /// Extends the decisions until the grid is full or a dead end; returns the dead-end cell
    /// (`None` when full or the budget ran out first). Counts one iteration per digit tried.
    pub(crate) fn construct(&mut self, run: &mut Run, rng: &mut Rng) -> Option<usize> {
        while self.k.unplaced() > 0 {
            if run.should_stop() {
                return None;
            }
            let c = self.k.mrv_cell()?;
            let cand = self.k.candidates(c);
            let pick = rng.random_range(0..cand.len());
            let d = cand.iter().nth(pick).unwrap_or(0);
            run.iterations += 1;
            let mark = self.k.mark();
            if self.k.assign(c, d).and_then(|_| self.k.propagate()).is_ok() {
                self.decisions.push((c as u32, d as u16));
                continue;
            }
            self.k.undo_to(mark);
            let without = DigitSet::<W>::single(d);
            if self
                .k
                .eliminate(c, without)
                .and_then(|_| self.k.propagate())
                .is_err()
            {
                self.k.undo_to(mark);
                return Some(c);
            }
        }
        None
    }
}

fn ils<const W: usize>(
    puzzle: &Puzzle,
    cfg: &CpIlsConfig,
    budget: &Budget,
    rng: &mut Rng,
) -> Outcome {
    let mut stats = Stats::default();
    let infeasible = |mut stats: Stats, why: &str| {
        stats.extra.push(("infeasible".into(), why.into()));
        Outcome {
            status: Status::Infeasible,
            stats,
        }
    };
    if check_givens(puzzle).is_err() {
        return infeasible(stats, "the givens repeat a digit in a unit");
    }
    let Some(mut p) = Partial::<W>::new(puzzle) else {
        return infeasible(stats, "propagating the givens empties a cell or a unit");
    };
    stats
        .extra
        .push(("initial_unplaced".into(), p.k.unplaced().to_string()));
    let mut run = Run::new(budget, 256, cfg.trace, stats);
    let geo = puzzle.geometry();
    let mut in_region = vec![false; geo.cells()];
    let mut current: Vec<Decision> = Vec::new();
    let mut keep: Vec<Decision> = Vec::new();
    let mut best_grid: Grid = p.k.grid();
    let mut cost_now = u64::MAX;
    let mut stale = 0u64;
    let mut perturbations = 0u64;
    run.offer(p.k.unplaced() as u64);
    let mut dead = p.construct(&mut run, rng);
    loop {
        let cost = p.k.unplaced() as u64;
        if run.offer(cost) {
            best_grid = p.k.grid();
            stale = 0;
        } else {
            stale += 1;
        }
        if cost == 0 || run.stopped.is_some() {
            break;
        }
        if cost <= cost_now || rng.random::<f64>() < cfg.walk {
            cost_now = cost;
            current.clone_from(&p.decisions);
        }
        if cfg.restart > 0 && stale >= cfg.restart {
            // Start again from the givens.
            run.stats.restarts += 1;
            stale = 0;
            current.clear();
            cost_now = u64::MAX;
            p.replay(&[]);
            dead = p.construct(&mut run, rng);
            continue;
        }
        // Destroy: the units of the dead-end cell, and a random share elsewhere.
        perturbations += 1;
        if let Some(c) = dead {
            for &u in geo.cell_units(c) {
                for &o in geo.unit(u as usize) {
                    in_region[o as usize] = true;
                }
            }
        }
        keep.clear();
        for &(c, d) in &current {
            if !in_region[c as usize] && rng.random::<f64>() >= cfg.destroy {
                keep.push((c, d));
            }
        }
        in_region.fill(false);
        // Any subset of a consistent list is consistent, so the order of replay is free.
        p.replay(&keep);
        dead = p.construct(&mut run, rng);
    }
    run.stats
        .extra
        .push(("perturbations".into(), perturbations.to_string()));
    run.finish_partial(best_grid)
}
