//! The ant colony system of H. Lloyd and M. Amos, "Solving Sudoku with Ant Colony
//! Optimization" (IEEE Transactions on Games, 2020; arXiv 1805.03545).
//!
//! Each cycle, every ant copies the puzzle (givens already propagated), starts at a random cell
//! and walks all cells in index order (wrapping). At a cell that is neither fixed nor dead (no
//! candidate left) it picks a candidate digit: with probability `q0` the one with the most
//! pheromone, otherwise by roulette over the candidates' pheromone; it fixes the digit,
//! propagates ([`AntBoard`]) and applies the local update τ ← (1−ξ)τ + ξτ₀ (τ₀ = 1/cells).
//! The ants step in lockstep, one cell each in turn, so one ant's local updates steer the
//! next. An ant's score is its number of fixed cells; the cycle's best ant replaces the best
//! solution when its deposit cells/(cells − fixed) beats the current (evaporated) best deposit.
//! Then every fixed cell of the best solution gets τ ← (1−ρ)τ + ρ·Δτ_best, and Δτ_best decays
//! by the factor (1 − `bve`) — the paper's best-value evaporation, which lets a later,
//! poorer ant become the best and so frees the colony from a stagnant best.
//!
//! Propagation ([`AntBoard::set`]) follows the authors' program step for step: the peers of a
//! newly fixed cell are constrained in its order, depth first. It looks only at the peers of
//! a newly fixed cell, so it stops short of the closure under hidden singles, and the cells it
//! fixes depend on the order; in another order the givens of 11 of the 200 Lewis 25×25
//! instances at 40 % and 45 % propagate to a different count than in their program.
//!
//! Cost (for traces and `Stats.best_cost`) = cells the best solution leaves unfixed.
//! `Budget.iterations` counts digit choices made by ants; the budget is checked once per
//! lockstep round (so an iteration cap may be passed by at most one round, the same way for a
//! given seed).

use rand::Rng as _;
use sudoku_core::{
    check_givens, for_width, Budget, DigitSet, Geometry, Grid, Outcome, Puzzle, Rng, Solver, Stats,
    Status,
};

use crate::run::Run;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "acs";

sudoku_core::config! {
    /// The configuration of [`Acs`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct AcsConfig for NAME {
        ants: u64 = 10 in 1..=100000, "ants per cycle (paper: 10)";
        q0: f64 = 0.9 in 0.0..=1.0,
            "probability that an ant takes the candidate with the most pheromone rather than a \
             roulette choice (paper: 0.9; the authors' public code takes the greedy branch with \
             probability 1 - q0, i.e. q0=0.1 here reproduces it)";
        rho: f64 = 0.9 in 0.0..=1.0,
            "global update: tau <- (1 - rho) tau + rho * best deposit on the best solution's cells \
             (paper: 0.9)";
        bve: f64 = 0.005 in 0.0..=0.5,
            "best-value evaporation: the best deposit is multiplied by (1 - bve) every cycle \
             (paper: 0.005)";
        xi: f64 = 0.1 in 0.0..=1.0,
            "local update after each choice: tau <- (1 - xi) tau + xi * tau0, tau0 = 1/cells \
             (paper: 0.1)";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
    }
}

/// The ant colony system solver.
#[derive(Clone, Debug, Default)]
pub struct Acs {
    /// Its configuration.
    pub config: AcsConfig,
}

impl Acs {
    /// A solver with this configuration.
    pub fn new(config: AcsConfig) -> Acs {
        Acs { config }
    }
}

impl Solver for Acs {
    fn name(&self) -> &str {
        NAME
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        for_width!(puzzle.order(), W => colony::<W>(puzzle, &cfg, budget, rng))
    }
}

/// An ant's partial assignment: candidates per cell, kept closed under the paper's
/// propagation. A cell is fixed (one digit, `value` set), open (two or more candidates) or
/// dead (none: a choice elsewhere left it no digit). Dead cells stay dead for the rest of the
/// walk; they only lower the ant's score.
#[derive(Clone)]
pub struct AntBoard<const W: usize> {
    geo: std::sync::Arc<Geometry>,
    cand: Vec<DigitSet<W>>,
    value: Vec<u16>,
    /// Digits fixed in each unit.
    placed: Vec<DigitSet<W>>,
    fixed: usize,
    dead: usize,
    /// The propagation's depth-first stack: fixed cells and the next of their peers to
    /// constrain.
    stack: Vec<Frame>,
}

/// A fixed cell whose peers are being constrained: the `j`-th cell of each of its units in
/// turn, `k` the next unit (in `units[..count]`, the visiting order).
#[derive(Clone, Copy, Debug)]
struct Frame {
    cell: u32,
    j: u32,
    k: u8,
    count: u8,
    units: [u32; 5],
}

impl Frame {
    /// The frame of newly fixed `cell`, its units in the authors' program's visiting order:
    /// block, column, row (then the diagonals of Sudoku-X, which their program does not
    /// have); `cell_units` lists them row, column, block, diagonals.
    fn new(cell: usize, cell_units: &[u32]) -> Frame {
        let mut units = [0; 5];
        let (lines, rest) = cell_units.split_at(cell_units.len().min(3));
        let order = lines.iter().rev().chain(rest);
        for (slot, &u) in units.iter_mut().zip(order) {
            *slot = u;
        }
        Frame {
            cell: cell as u32,
            j: 0,
            k: 0,
            count: cell_units.len().min(5) as u8,
            units,
        }
    }
}

impl<const W: usize> AntBoard<W> {
    /// The empty grid of `puzzle`'s order and variant (every digit open everywhere).
    pub fn new(puzzle: &Puzzle) -> Self {
        let geo = puzzle.geometry();
        let (cells, size) = (geo.cells(), geo.size());
        AntBoard {
            cand: vec![DigitSet::full(size); cells],
            value: vec![0; cells],
            placed: vec![DigitSet::EMPTY; geo.unit_count()],
            fixed: 0,
            dead: 0,
            stack: Vec::new(),
            geo,
        }
    }

    /// The board after fixing every given in turn, with propagation (the paper's initial
    /// constrained grid); `None` when a given finds its cell fixed to another digit or dead,
    /// which proves the puzzle infeasible (the propagation of valid givens is sound).
    pub fn with_givens(puzzle: &Puzzle) -> Option<Self> {
        let mut b = AntBoard::new(puzzle);
        for (c, &d) in puzzle.givens().cells().iter().enumerate() {
            if d == 0 || b.value[c] == d {
                continue;
            }
            if b.value[c] != 0 || !b.cand[c].contains(d as usize) {
                return None;
            }
            b.set(c, d as usize);
        }
        (b.dead == 0).then_some(b)
    }

    /// Copies `other` into `self` without allocating.
    pub fn copy_from(&mut self, other: &Self) {
        self.cand.clone_from(&other.cand);
        self.value.clone_from(&other.value);
        self.placed.clone_from(&other.placed);
        self.fixed = other.fixed;
        self.dead = other.dead;
        self.stack.clear();
    }

    /// Candidates of cell `c` (one digit when fixed, none when dead).
    pub fn candidates(&self, c: usize) -> DigitSet<W> {
        self.cand[c]
    }

    /// The digit fixed in `c`, 0 if none.
    pub fn value(&self, c: usize) -> u16 {
        self.value[c]
    }

    /// Cells fixed.
    pub fn fixed(&self) -> usize {
        self.fixed
    }

    /// Cells left without a candidate.
    pub fn dead(&self) -> usize {
        self.dead
    }

    /// The fixed digits as a grid (0 where not fixed).
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.geo.order(), self.value.clone())
            .unwrap_or_else(|_| Grid::empty(self.geo.order()))
    }

    /// Fixes `d` in open cell `c` (a candidate of it) and propagates as the authors' program
    /// does: each peer in turn (for j = 1..size: the j-th cell of the block, of the column, of
    /// the row, so a cell sharing two units is visited twice) loses the digits fixed in its
    /// units, is fixed when one digit is left, and else is fixed to a digit no other cell of
    /// its row, column or block (in that order) allows (hidden single); a peer left with
    /// nothing is dead. A peer that gets fixed has its own peers constrained at once, depth
    /// first, before the rest of the list. Only a cell whose peer was just fixed is looked at,
    /// so the result is not closed under hidden singles, and depends on this order.
    pub fn set(&mut self, c: usize, d: usize) {
        self.fix(c, d);
        let geo = std::sync::Arc::clone(&self.geo);
        let size = geo.size() as u32;
        while let Some(top) = self.stack.last_mut() {
            if top.k == top.count {
                top.k = 0;
                top.j += 1;
                if top.j == size {
                    self.stack.pop();
                    continue;
                }
            }
            let u = top.units[top.k as usize];
            top.k += 1;
            let (from, p) = (top.cell, geo.unit(u as usize)[top.j as usize]);
            if p != from {
                self.constrain(p as usize);
            }
        }
    }

    /// Sets `c` to `d`; its peers are constrained next (it goes on top of the stack).
    fn fix(&mut self, c: usize, d: usize) {
        self.value[c] = d as u16;
        self.cand[c] = DigitSet::single(d);
        self.fixed += 1;
        for &u in self.geo.cell_units(c) {
            self.placed[u as usize].insert(d);
        }
        self.stack.push(Frame::new(c, self.geo.cell_units(c)));
    }

    fn constrain(&mut self, c: usize) {
        if self.value[c] != 0 || self.cand[c].is_empty() {
            return;
        }
        let mut taken = DigitSet::EMPTY;
        for &u in self.geo.cell_units(c) {
            taken = taken.union(&self.placed[u as usize]);
        }
        let left = self.cand[c].difference(&taken);
        self.cand[c] = left;
        if left.is_empty() {
            self.dead += 1;
            return;
        }
        if let Some(d) = left.only() {
            self.fix(c, d);
            return;
        }
        for &u in self.geo.cell_units(c) {
            let mut elsewhere = DigitSet::EMPTY;
            for &o in self.geo.unit(u as usize) {
                if o as usize != c {
                    elsewhere = elsewhere.union(&self.cand[o as usize]);
                }
            }
            if let Some(d) = left.difference(&elsewhere).only() {
                self.fix(c, d);
                return;
            }
        }
    }
}

/// The pheromone matrix, `cells × size`, with the paper's update rules.
#[derive(Clone, Debug)]
pub struct Pheromone {
    size: usize,
    tau0: f64,
    tau: Vec<f64>,
}

impl Pheromone {
    /// Every value τ₀ = 1/cells.
    pub fn new(cells: usize, size: usize) -> Pheromone {
        let tau0 = 1.0 / cells as f64;
        Pheromone {
            size,
            tau0,
            tau: vec![tau0; cells * size],
        }
    }

    /// τ₀.
    pub fn tau0(&self) -> f64 {
        self.tau0
    }

    /// The pheromone on digit `d` of cell `c`.
    #[inline]
    pub fn get(&self, c: usize, d: usize) -> f64 {
        self.tau[c * self.size + d - 1]
    }

    /// All values.
    pub fn values(&self) -> &[f64] {
        &self.tau
    }

    /// Local update after an ant fixed `d` in `c`: τ ← (1−ξ)τ + ξτ₀.
    #[inline]
    pub fn local(&mut self, c: usize, d: usize, xi: f64) {
        let t = &mut self.tau[c * self.size + d - 1];
        *t = (1.0 - xi) * *t + xi * self.tau0;
    }

    /// Global update on the fixed cells of `best` (value 0 = not fixed): τ ← (1−ρ)τ + ρΔ.
    pub fn global(&mut self, best: &[u16], rho: f64, deposit: f64) {
        for (c, &d) in best.iter().enumerate() {
            if d != 0 {
                let t = &mut self.tau[c * self.size + d as usize - 1];
                *t = (1.0 - rho) * *t + rho * deposit;
            }
        }
    }
}

/// The deposit of an ant that fixed `filled` of `cells` cells: cells/(cells − filled)
/// (infinite for a solution, which ends the run anyway).
pub fn deposit(cells: usize, filled: usize) -> f64 {
    cells as f64 / (cells - filled.min(cells)) as f64
}

/// One ant's walk state.
struct Ant<const W: usize> {
    board: AntBoard<W>,
    cell: usize,
}

fn colony<const W: usize>(
    puzzle: &Puzzle,
    cfg: &AcsConfig,
    budget: &Budget,
    rng: &mut Rng,
) -> Outcome {
    let mut stats = Stats::default();
    let infeasible = |stats: Stats| Outcome {
        status: Status::Infeasible,
        stats,
    };
    if check_givens(puzzle).is_err() {
        return infeasible(stats);
    }
    let cells = puzzle.order().cells();
    let Some(start) = AntBoard::<W>::with_givens(puzzle) else {
        stats.extra.push((
            "infeasible".into(),
            "propagating the givens left a cell without a digit".into(),
        ));
        return infeasible(stats);
    };
    stats
        .extra
        .push(("initial_fixed".into(), start.fixed().to_string()));
    let mut run = Run::new(budget, 64, cfg.trace, stats);
    let mut best = start.clone();
    run.offer((cells - start.fixed()) as u64);
    if start.fixed() == cells {
        return run.finish_partial(start.grid());
    }
    let size = puzzle.order().size();
    let mut pher = Pheromone::new(cells, size);
    let mut best_deposit = 0.0f64;
    let mut ants: Vec<Ant<W>> = (0..cfg.ants)
        .map(|_| Ant {
            board: start.clone(),
            cell: 0,
        })
        .collect();
    let mut wheel: Vec<(usize, f64)> = Vec::with_capacity(size);
    let mut cycles = 0u64;
    'run: loop {
        for ant in ants.iter_mut() {
            ant.board.copy_from(&start);
            ant.cell = rng.random_range(0..cells);
        }
        for _ in 0..cells {
            if run.should_stop() {
                break 'run;
            }
            for ant in ants.iter_mut() {
                step(ant, &mut pher, cfg, rng, &mut wheel, &mut run.iterations);
            }
        }
        cycles += 1;
        // The first ant with the most fixed cells.
        let mut top = 0;
        for (i, ant) in ants.iter().enumerate() {
            if ant.board.fixed() > ants[top].board.fixed() {
                top = i;
            }
        }
        let filled = ants[top].board.fixed();
        let add = deposit(cells, filled);
        if add > best_deposit {
            best.copy_from(&ants[top].board);
            best_deposit = add;
            run.offer((cells - filled) as u64);
            if filled == cells {
                break;
            }
        }
        pher.global(&best.value, cfg.rho, best_deposit);
        best_deposit *= 1.0 - cfg.bve;
    }
    run.stats.extra.push(("cycles".into(), cycles.to_string()));
    run.stats.restarts = cycles;
    // The cost of the best (the trace records it); the grid holds its fixed cells only.
    let grid = best.grid();
    run.finish_partial(grid)
}

/// One ant's move: choose and fix a digit at its current cell if the cell is open, then move
/// on to the next cell.
fn step<const W: usize>(
    ant: &mut Ant<W>,
    pher: &mut Pheromone,
    cfg: &AcsConfig,
    rng: &mut Rng,
    wheel: &mut Vec<(usize, f64)>,
    iterations: &mut u64,
) {
    let c = ant.cell;
    let cand = ant.board.candidates(c);
    if ant.board.value(c) == 0 && !cand.is_empty() {
        *iterations += 1;
        let d = if rng.random::<f64>() < cfg.q0 {
            // The first candidate with the most pheromone.
            let mut best = (0usize, f64::NEG_INFINITY);
            for d in cand.iter() {
                let t = pher.get(c, d);
                if t > best.1 {
                    best = (d, t);
                }
            }
            best.0
        } else {
            wheel.clear();
            let mut total = 0.0;
            for d in cand.iter() {
                total += pher.get(c, d);
                wheel.push((d, total));
            }
            let x = total * rng.random::<f64>();
            wheel
                .iter()
                .find(|&&(_, acc)| acc > x)
                .or(wheel.last())
                .map_or(0, |&(d, _)| d)
        };
        if d != 0 {
            ant.board.set(c, d);
            pher.local(c, d, cfg.xi);
        }
    }
    ant.cell = (c + 1) % ant.board.value.len();
}
