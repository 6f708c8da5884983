//! `tabu::pooled`: the pooled scheme (`pool=K`, after AllDiff-LS's Sudoku-LS): segments of
//! tabu search from a pool of best-cost assignments, with weights on pairs that keep clashing
//! ([`PooledSearch`]), and the segment restarts and weights it adds to [`TabuSearch`]; apart
//! because plain TabuCol (the default) needs none of it.

use rand::Rng as _;
use sudoku_core::{Grid, Puzzle, Rng};

use super::best::LocalBest;
use super::state::{Reach, TabuSearch};
use super::TabuConfig;
use crate::propagate::Contradiction;

/// The largest weight of a pair (see [`TabuSearch::bump_weights`]).
const MAX_WEIGHT: u16 = 10_000;
impl TabuSearch {
    /// Starts a new segment from `colours`: clash counts recounted (under the current weights),
    /// the tabu list emptied, and `colours` the segment's best.
    pub(super) fn restart_from(&mut self, colours: &[u32]) {
        self.colour.copy_from_slice(colours);
        self.clash.iter_mut().for_each(|c| *c = 0);
        self.count.iter_mut().for_each(|c| *c = 0);
        for v in 0..self.cell.len() {
            self.add_holder(v);
        }
        self.count_conflicts();
        self.until.iter_mut().for_each(|t| *t = 0);
        self.clock = 0;
        self.local.iter_mut().for_each(|b| *b = LocalBest::STALE);
        self.open_to.iter_mut().for_each(|o| *o = true);
        self.pair_steps = 0;
        self.best_cost = self.cost;
        self.best.clear();
        self.best.extend_from_slice(&self.colour);
    }

    /// Starts again from a new greedy start: unit weights, an empty tabu list, and the new
    /// start as the best.
    pub(super) fn fresh_start(&mut self, rng: &mut Rng) {
        self.reset_weights();
        self.clash.iter_mut().for_each(|c| *c = 0);
        self.count.iter_mut().for_each(|c| *c = 0);
        self.best_cost = u64::MAX;
        self.greedy_start(rng);
        let start = self.colour.clone();
        self.restart_from(&start);
    }

    /// Sets every pair's weight back to 1.
    pub(super) fn reset_weights(&mut self) {
        self.weight.iter_mut().for_each(|w| *w = 1);
        self.copy_weights();
    }

    /// Copies each pair's weight to its links.
    fn copy_weights(&mut self) {
        if let Some(Reach::Links { edges, weights, .. }) = self.reach.as_deref_mut() {
            for (w, &e) in weights.iter_mut().zip(edges.iter()) {
                *w = self.weight[e as usize];
            }
        }
    }

    /// Each clashing pair of `colours` gains weight 1 with probability 1/`one_in`. The clash
    /// counts follow at the next [`TabuSearch::restart_from`]. Grids past the link budget keep
    /// unit weights (their moves walk the table, which carries none).
    pub(super) fn bump_weights(&mut self, colours: &[u32], one_in: u32, rng: &mut Rng) {
        if !self.weighted || matches!(self.reach.as_deref(), Some(Reach::Table { .. })) {
            return;
        }
        for v in 0..self.cell.len() {
            let dv = self.digit[colours[v] as usize];
            for e in self.nbr_at[v]..self.nbr_at[v + 1] {
                let u = self.nbr[e as usize] as usize;
                if u > v
                    && self.digit[colours[u] as usize] == dv
                    && self.weight[e as usize] < MAX_WEIGHT
                    && rng.random_range(0..one_in) == 0
                {
                    self.weight[e as usize] += 1;
                    let t = self.twin[e as usize] as usize;
                    self.weight[t] += 1;
                }
            }
        }
        self.copy_weights();
    }
}

/// The iterated search of `pool=K` (after AllDiff-LS's Sudoku-LS), step by step: segments of
/// tabu search, each from an assignment drawn from a pool of up to K distinct ones of the best
/// cost seen, with an empty tabu list, and (with `weights`) weights on the pairs that keep
/// clashing. [`Tabu`](super::Tabu) runs it when `pool` > 0; `hybrid`'s helper thread can run it
/// too.
#[derive(Clone, Debug)]
pub struct PooledSearch {
    search: TabuSearch,
    pool_size: usize,
    segment: u64,
    weights: u32,
    pool: Vec<Vec<u32>>,
    /// The steps the next segment from each pool member gets.
    budget: Vec<u64>,
    /// The best cost seen (the cost of every pool member).
    level: u64,
    /// The pool member the current segment started from (none for the first).
    from: Option<usize>,
    /// The step at which the current segment ends.
    end: u64,
    segments: u64,
    /// Steps without a new lowest cost before a fresh start (0: never).
    restart: u64,
    /// The lowest cost since the last (fresh) start, and the step it was reached.
    low: u64,
    since: u64,
    /// The lowest cost of the runs before the last fresh start, and its assignment.
    kept: Option<(u64, Vec<u32>)>,
    restarts: u64,
}

impl PooledSearch {
    /// Propagates singles, builds the graph and the greedy start of the first segment (`pool`
    /// is taken as at least 1).
    pub fn new(puzzle: &Puzzle, cfg: &TabuConfig, rng: &mut Rng) -> Result<Self, Contradiction> {
        Ok(PooledSearch::from_search(
            TabuSearch::new(puzzle, cfg, rng)?,
            cfg,
        ))
    }

    pub(super) fn from_search(mut search: TabuSearch, cfg: &TabuConfig) -> Self {
        // Equal-cost results are kept (the latest), so that a segment that wanders on a
        // plateau brings back a new assignment for the pool.
        search.save_ties = true;
        let level = search.best_cost;
        PooledSearch {
            search,
            pool_size: cfg.pool.max(1),
            segment: cfg.segment,
            weights: cfg.weights,
            pool: Vec::new(),
            budget: Vec::new(),
            level,
            from: None,
            end: cfg.segment,
            segments: 0,
            restart: cfg.restart,
            low: level,
            since: 0,
            kept: None,
            restarts: 0,
        }
    }

    /// One tabu step, then, at the end of a segment, the pool's update and the start of the
    /// next segment. Returns the lowest cost seen (0: solved).
    pub fn step(&mut self, rng: &mut Rng) -> u64 {
        if self.search.cost() == 0 {
            return 0;
        }
        self.search.step(rng);
        if self.search.cost() == 0 {
            self.level = 0;
            return 0;
        }
        if self.search.steps() >= self.end {
            self.next_segment(rng);
        }
        let now = self.level.min(self.search.best_cost);
        if now < self.low {
            (self.low, self.since) = (now, self.search.steps());
        } else if self.restart > 0 && self.search.steps() - self.since >= self.restart {
            self.fresh_start(rng);
        }
        self.best_cost()
    }

    /// Drops the pool and the weights and starts again from a new greedy start, keeping the
    /// lowest-cost assignment so far for [`PooledSearch::best_grid`].
    fn fresh_start(&mut self, rng: &mut Rng) {
        if self.kept.as_ref().is_none_or(|(k, _)| self.low < *k) {
            let grid = match self.pool.first() {
                Some(p) if self.level < self.search.best_cost => p.clone(),
                _ => self.search.best.clone(),
            };
            self.kept = Some((self.low, grid));
        }
        self.search.fresh_start(rng);
        self.pool.clear();
        self.budget.clear();
        self.level = self.search.best_cost;
        self.from = None;
        self.end = self.search.steps() + self.segment;
        (self.low, self.since) = (self.level, self.search.steps());
        self.restarts += 1;
    }

    fn next_segment(&mut self, rng: &mut Rng) {
        self.segments += 1;
        let s = &mut self.search;
        let got = s.best_cost;
        if got < self.level || self.pool.is_empty() {
            self.level = got;
            self.pool.clear();
            self.budget.clear();
            self.pool.push(s.best.clone());
            self.budget.push(self.segment);
            if self.weights > 0 {
                s.reset_weights();
            }
        } else if got == self.level && self.pool.iter().all(|p| *p != s.best) {
            if self.weights > 0 {
                let best = std::mem::take(&mut s.best);
                s.bump_weights(&best, self.weights, rng);
                s.best = best;
            }
            if self.pool.len() < self.pool_size {
                self.pool.push(s.best.clone());
                self.budget.push(self.segment);
            } else {
                let r = rng.random_range(0..self.pool.len());
                self.pool[r].clone_from(&s.best);
                self.budget[r] = self.segment;
            }
        } else if let Some(from) = self.from {
            self.budget[from] = self.budget[from].saturating_add(4 * self.segment);
        }
        let from = rng.random_range(0..self.pool.len());
        let start = std::mem::take(&mut self.pool[from]);
        self.search.restart_from(&start);
        self.pool[from] = start;
        self.from = Some(from);
        self.end = self.search.steps() + self.budget[from];
    }

    /// The lowest cost seen.
    pub fn best_cost(&self) -> u64 {
        let now = self.level.min(self.search.best_cost);
        self.kept.as_ref().map_or(now, |(k, _)| now.min(*k))
    }

    /// Fresh starts so far (`restart`).
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// Steps made so far, over all segments.
    pub fn steps(&self) -> u64 {
        self.search.steps()
    }

    /// Open cells after propagation (the vertices).
    pub fn open_cells(&self) -> usize {
        self.search.open_cells()
    }

    /// Segments ended so far.
    pub fn segments(&self) -> u64 {
        self.segments
    }

    /// An assignment of the lowest cost seen, as a grid (a solution when that cost is 0).
    pub fn best_grid(&self) -> Grid {
        if let Some((k, kept)) = &self.kept {
            if *k < self.level.min(self.search.best_cost) {
                return self.search.grid_of(kept);
            }
        }
        match self.pool.first() {
            Some(p) if self.level < self.search.best_cost => self.search.grid_of(p),
            _ => self.search.best_grid(),
        }
    }
}
