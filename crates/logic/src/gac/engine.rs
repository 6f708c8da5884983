//! The `gac` search engine for one (order, variant) at candidate width `W`: domains with a
//! trail, singleton propagation, Régin's filter on every changed unit to a fixpoint, and a
//! depth-first search over the placements [`Select`] picks, with optional restarts.

use std::sync::Arc;

use rand::Rng as _;
use sudoku_core::{
    rng_from_seed, Budget, Deadline, DigitSet, Geometry, Grid, Limit, Order, Rng, Stats, Variant,
};

use super::alldiff::{filter, Scratch};
use super::{Search, Select};

/// Marks a placement on the trail (cells are below 2³¹).
const PLACE: u32 = 1 << 31;

/// A dead end (some domain or some unit has no way left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dead;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchEnd {
    /// The whole tree was explored.
    Complete,
    /// The solution callback asked to stop.
    Stopped,
    /// A budget limit ran out.
    Exhausted(Limit),
}

/// A left branch taken (`cell` = `digit`), with the trail length before it: backtracking
/// takes its right branch (`cell` ≠ `digit`).
struct Frame {
    cell: u32,
    digit: u16,
    mark: usize,
}

/// Nodes, guesses and the filter's own counters of one run.
#[derive(Default)]
struct Counters {
    nodes: u64,
    guesses: u64,
    filters: u64,
    removals: u64,
    failures: u64,
    /// Digits removed by the intersection rule.
    meet_removals: u64,
    restarts: u64,
}

pub(crate) struct Engine<const W: usize> {
    order: Order,
    variant: Variant,
    search: Search,
    size: usize,
    units: usize,
    geo: Arc<Geometry>,
    full: DigitSet<W>,
    /// Every cell's domain; a placed cell keeps its digit as a singleton.
    cand: Vec<DigitSet<W>>,
    /// The digit whose removal from the peers is done (0: not placed yet).
    value: Vec<u16>,
    unplaced: usize,
    trail: Vec<(u32, DigitSet<W>)>,
    singles: Vec<u32>,
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// The unit being filtered: its own removals do not mark it dirty again (the filter is
    /// idempotent).
    current: usize,
    /// Per unit, per position: the matched digit (0 none); never undone (see alldiff).
    mate: Vec<u16>,
    /// Per unit, per digit 0..=size: the matched position + 1 (0 none).
    owner: Vec<u16>,
    scratch: Scratch<W>,
    dom: Vec<DigitSet<W>>,
    /// dom/wdeg: per unit, 1 + the failures it caused (kept across the runs of one puzzle).
    weight: Vec<u64>,
    frames: Vec<Frame>,
    count: Counters,
    /// Per cell: the value of `clock` when its domain last shrank (a tie-break for `pick`).
    stamp: Vec<u64>,
    clock: u64,
    /// Pairs of units sharing two or more cells: (unit a, unit b, range of `meet_cells`).
    meets: Vec<(u32, u32, u32, u32)>,
    meet_cells: Vec<u32>,
    /// Scratch: the cells of the meeting being looked at.
    in_meet: Vec<bool>,
    /// Per unit: a domain changed since the last intersection sweep (and the sweep's copy).
    meet_dirty: Vec<bool>,
    sweep: Vec<bool>,
    /// maxSD: ln f(r) = ln(r!) / r for r = 0..=size, the Bregman–Minc factor of a cell with r
    /// digits (in logs), and a per-digit scratch.
    ln_bm: Vec<f64>,
    density: Vec<f64>,
    /// maxSD's noise, from a generator seeded with the number of the run.
    noise: Rng,
    /// The time limit of the current run, read by the search and by propagation (a single
    /// propagation of a 256×256 grid's givens takes seconds).
    deadline: Deadline,
    /// Propagation stopped because the deadline passed (its `Dead` is no contradiction).
    out_of_time: bool,
}

impl<const W: usize> Engine<W> {
    pub(crate) fn new(order: Order, variant: Variant, search: Search) -> Self {
        let geo = Geometry::get(order, variant);
        let (size, cells, units) = (order.size(), order.cells(), geo.unit_count());
        // Units meeting in two or more cells: a block with a row or column it crosses, and
        // for Sudoku-X a diagonal with the blocks it passes through. Found through the units
        // of each unit's cells: testing every pair of units cell by cell is about 2·10¹⁰ steps
        // at 256×256, seconds before the search could read a clock.
        let (mut meets, mut meet_cells) = (Vec::new(), Vec::new());
        let mut with: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
        for a in 0..units {
            with.clear();
            for &c in geo.unit(a) {
                for &b in geo.cell_units(c as usize) {
                    if b as usize > a {
                        with.entry(b).or_default().push(c);
                    }
                }
            }
            for (&b, shared) in &with {
                if shared.len() >= 2 {
                    let start = meet_cells.len() as u32;
                    meet_cells.extend_from_slice(shared);
                    meets.push((a as u32, b, start, meet_cells.len() as u32));
                }
            }
        }
        Engine {
            order,
            variant,
            search,
            size,
            units,
            geo,
            full: DigitSet::full(size),
            cand: vec![DigitSet::full(size); cells],
            value: vec![0; cells],
            unplaced: cells,
            trail: Vec::with_capacity(cells * 4),
            singles: Vec::with_capacity(cells),
            dirty: Vec::with_capacity(units),
            is_dirty: vec![false; units],
            current: usize::MAX,
            mate: vec![0; units * size],
            owner: vec![0; units * (size + 1)],
            scratch: Scratch::new(),
            dom: vec![DigitSet::EMPTY; size],
            weight: vec![1; units],
            frames: Vec::new(),
            count: Counters::default(),
            stamp: vec![0; cells],
            clock: 0,
            meets,
            meet_cells,
            in_meet: vec![false; cells],
            meet_dirty: vec![true; units],
            sweep: vec![true; units],
            ln_bm: (0..=size)
                .map(|r| (2..=r).map(|k| (k as f64).ln()).sum::<f64>() / r.max(1) as f64)
                .collect(),
            density: vec![0.0; size + 1],
            noise: rng_from_seed(0),
            deadline: Deadline::new(&Budget::unlimited(), 1),
            out_of_time: false,
        }
    }

    pub(crate) fn fits(&self, order: Order, variant: Variant) -> bool {
        self.order == order && self.variant == variant
    }

    /// Cell `j` of unit `u`.
    #[inline(always)]
    fn cell(&self, u: usize, j: usize) -> usize {
        self.geo.unit(u)[j] as usize
    }

    /// Back to the givens of `givens`, propagated; `Err` if they contradict each other.
    fn load(&mut self, givens: &Grid) -> Result<(), Dead> {
        self.cand.fill(self.full);
        self.value.fill(0);
        self.unplaced = self.cand.len();
        self.trail.clear();
        self.singles.clear();
        self.dirty.clear();
        self.is_dirty.fill(false);
        self.mate.fill(0);
        self.owner.fill(0);
        self.weight.fill(1);
        self.stamp.fill(0);
        self.clock = 0;
        self.frames.clear();
        for (c, &d) in givens.cells().iter().enumerate() {
            if d != 0 {
                self.cand[c] = DigitSet::single(d as usize);
                self.singles.push(c as u32);
            }
        }
        for u in 0..self.units {
            self.is_dirty[u] = true;
            self.dirty.push(u as u32);
        }
        self.meet_dirty.fill(true);
        self.propagate()
    }

    /// Removes `mask` from the domain of `c`; `Err` if nothing is left.
    #[inline]
    fn eliminate(&mut self, c: usize, mask: DigitSet<W>) -> Result<(), Dead> {
        let old = self.cand[c];
        let new = old.difference(&mask);
        if new == old {
            return Ok(());
        }
        if new.is_empty() {
            return Err(Dead);
        }
        self.trail.push((c as u32, old));
        self.cand[c] = new;
        self.clock += 1;
        self.stamp[c] = self.clock;
        if new.len() == 1 {
            self.singles.push(c as u32);
        }
        for &u in self.geo.cell_units(c) {
            let u = u as usize;
            self.meet_dirty[u] = true;
            if u != self.current && !self.is_dirty[u] {
                self.is_dirty[u] = true;
                self.dirty.push(u as u32);
            }
        }
        Ok(())
    }

    /// Removes the single digit of `c` from the other cells of its units.
    fn place(&mut self, c: usize) -> Result<(), Dead> {
        let m = self.cand[c];
        let d = m.first().unwrap_or(0);
        self.value[c] = d as u16;
        self.trail.push((c as u32 | PLACE, m));
        self.unplaced -= 1;
        for k in 0..self.geo.cell_units(c).len() {
            let u = self.geo.cell_units(c)[k] as usize;
            for j in 0..self.size {
                let p = self.cell(u, j);
                if p != c && self.eliminate(p, m).is_err() {
                    self.weight[u] += 1;
                    return Err(Dead);
                }
            }
        }
        Ok(())
    }

    /// Régin's filter on unit `u`.
    fn gac(&mut self, u: usize) -> Result<(), Dead> {
        let size = self.size;
        let cells = u * size..(u + 1) * size;
        let mut open = 0;
        for (i, &c) in self.geo.unit(u).iter().enumerate() {
            self.dom[i] = self.cand[c as usize];
            open += usize::from(self.value[c as usize] == 0);
        }
        // With one open cell, singleton propagation has already left it the missing digit.
        if open <= 1 {
            return Ok(());
        }
        self.count.filters += 1;
        let mate = &mut self.mate[cells.clone()];
        let owner = &mut self.owner[u * (size + 1)..(u + 1) * (size + 1)];
        if filter(mate, owner, &mut self.dom, &mut self.scratch).is_err() {
            self.weight[u] += 1;
            return Err(Dead);
        }
        self.current = u;
        for i in 0..size {
            let c = self.cell(u, i);
            let gone = self.cand[c].difference(&self.dom[i]);
            if !gone.is_empty() {
                self.count.removals += gone.len() as u64;
                if self.eliminate(c, gone).is_err() {
                    self.current = usize::MAX;
                    return Err(Dead);
                }
            }
        }
        self.current = usize::MAX;
        Ok(())
    }

    /// The intersection rule over every pair of units that meet in two or more cells: a digit
    /// that unit `a` can place only inside the meeting must go there, so it leaves the rest of
    /// `b`, and the other way round (locked candidates, pointing and claiming, for rows,
    /// columns and blocks; the same between diagonals and blocks). GAC on one unit cannot see
    /// this: it needs the two constraints together. Returns whether anything changed.
    fn intersections(&mut self) -> Result<bool, Dead> {
        let before = self.trail.len();
        // Only the meetings of units changed since the last sweep: the others are closed.
        std::mem::swap(&mut self.meet_dirty, &mut self.sweep);
        self.meet_dirty.fill(false);
        for m in 0..self.meets.len() {
            let (a, b, start, end) = self.meets[m];
            let (a, b) = (a as usize, b as usize);
            if !self.sweep[a] && !self.sweep[b] {
                continue;
            }
            let meet = start as usize..end as usize;
            // Placed digits are gone from both units already.
            let mut inside = DigitSet::<W>::EMPTY;
            for i in meet.clone() {
                let c = self.meet_cells[i] as usize;
                if self.value[c] == 0 {
                    inside = inside.union(&self.cand[c]);
                }
            }
            if inside.is_empty() {
                continue;
            }
            for i in meet.clone() {
                self.in_meet[self.meet_cells[i] as usize] = true;
            }
            let (rest_a, rest_b) = (self.outside(a), self.outside(b));
            // Digits of the meeting that `a` has nowhere else leave the rest of `b`, and the
            // other way round.
            let to_b = inside.difference(&rest_a).intersection(&rest_b);
            let to_a = inside.difference(&rest_b).intersection(&rest_a);
            let mut result = Ok(());
            if !to_b.is_empty() {
                result = self.remove_outside(b, to_b);
            }
            if result.is_ok() && !to_a.is_empty() {
                result = self.remove_outside(a, to_a);
            }
            for i in meet {
                self.in_meet[self.meet_cells[i] as usize] = false;
            }
            if result.is_err() {
                self.weight[a] += 1;
                self.weight[b] += 1;
                return Err(Dead);
            }
        }
        Ok(self.trail.len() > before)
    }

    /// The union of the domains of the cells of unit `u` outside the current meeting.
    fn outside(&self, u: usize) -> DigitSet<W> {
        let mut rest = DigitSet::<W>::EMPTY;
        for &c in self.geo.unit(u) {
            if !self.in_meet[c as usize] {
                rest = rest.union(&self.cand[c as usize]);
            }
        }
        rest
    }

    /// Removes `digits` from the cells of unit `u` outside the current meeting.
    fn remove_outside(&mut self, u: usize, digits: DigitSet<W>) -> Result<(), Dead> {
        for i in 0..self.size {
            let c = self.cell(u, i);
            if !self.in_meet[c] {
                let gone = self.cand[c].intersection(&digits);
                if !gone.is_empty() {
                    self.count.meet_removals += gone.len() as u64;
                    self.eliminate(c, gone)?;
                }
            }
        }
        Ok(())
    }

    /// Singleton propagation first, then the filter on every changed unit, to the fixpoint.
    fn propagate(&mut self) -> Result<(), Dead> {
        let out = self.fixpoint();
        if out.is_err() && !self.out_of_time {
            self.count.failures += 1;
        }
        out
    }

    fn fixpoint(&mut self) -> Result<(), Dead> {
        loop {
            if self.deadline.expired() {
                self.out_of_time = true;
                return Err(Dead);
            }
            // All pending singles before the next unit's filter: they are cheaper.
            while let Some(c) = self.singles.pop() {
                if self.value[c as usize] == 0 {
                    // The givens of a large grid are tens of thousands of singles at once.
                    if self.deadline.expired() {
                        self.out_of_time = true;
                        return Err(Dead);
                    }
                    self.place(c as usize)?;
                }
            }
            if let Some(u) = self.dirty.pop() {
                let u = u as usize;
                self.is_dirty[u] = false;
                self.gac(u)?;
                continue;
            }
            if self.unplaced > 0 && self.search.intersect && self.intersections()? {
                continue;
            }
            return Ok(());
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let Some((c, old)) = self.trail.pop() else {
                break;
            };
            if c & PLACE != 0 {
                self.value[(c & !PLACE) as usize] = 0;
                self.unplaced += 1;
            } else {
                self.cand[c as usize] = old;
            }
        }
        self.singles.clear();
        for &u in &self.dirty {
            self.is_dirty[u as usize] = false;
        }
        self.dirty.clear();
    }

    /// The placement to branch on: a cell and the digit its left branch places.
    fn pick(&mut self) -> (usize, usize) {
        if self.search.select == Select::MaxSd {
            return self.densest();
        }
        let c = self.pick_cell();
        (c, self.cand[c].first().unwrap_or(1))
    }

    /// maxSD. A unit's completions are bounded by the permanent of its 0/1 cell-digit matrix,
    /// and that by the Bregman–Minc product of f(r_j) = (r_j!)^(1/r_j) over its open cells
    /// j with r_j digits. Placing d in cell i drops i's row and d's column, so the bound of
    /// (i, d) is a factor of i alone times exp(S_d), with S_d the sum of
    /// ln f(r_j − 1) − ln f(r_j) over the open cells j that hold d. Within a cell, d's share
    /// of the bounds, exp(S_d) over the sum for the cell's digits, is its density. Open cells
    /// hold two or more digits at a fixpoint (a single is placed), so r_j − 1 ≥ 1.
    fn densest(&mut self) -> (usize, usize) {
        let noise = self.search.noise;
        let (mut best, mut best_density) = ((usize::MAX, 1), f64::NEG_INFINITY);
        for u in 0..self.units {
            self.density.fill(0.0);
            let mut open = false;
            for j in 0..self.size {
                let c = self.cell(u, j);
                if self.value[c] == 0 {
                    open = true;
                    let r = self.cand[c].len();
                    let g = self.ln_bm[r - 1] - self.ln_bm[r];
                    for d in self.cand[c].iter() {
                        self.density[d] += g;
                    }
                }
            }
            if !open {
                continue;
            }
            self.density.iter_mut().for_each(|x| *x = x.exp());
            for j in 0..self.size {
                let c = self.cell(u, j);
                if self.value[c] != 0 {
                    continue;
                }
                let total: f64 = self.cand[c].iter().map(|d| self.density[d]).sum();
                for d in self.cand[c].iter() {
                    let share = self.density[d] / total;
                    // A draw only where the noise could make it the best.
                    if share * (1.0 + noise) <= best_density {
                        continue;
                    }
                    let noisy = if noise > 0.0 {
                        share * (1.0 + noise * self.noise.random::<f64>())
                    } else {
                        share
                    };
                    if noisy > best_density {
                        (best, best_density) = ((c, d), noisy);
                    }
                }
            }
        }
        best
    }

    /// The unplaced cell to branch on (MRV or dom/wdeg).
    fn pick_cell(&self) -> usize {
        let mut best = usize::MAX;
        let (mut best_dom, mut best_w) = (u64::MAX, 1u64);
        for c in 0..self.cand.len() {
            if self.value[c] != 0 {
                continue;
            }
            let d = self.cand[c].len() as u64;
            let w = match self.search.select {
                Select::Mrv | Select::MaxSd => 1,
                Select::DomWdeg => self
                    .geo
                    .cell_units(c)
                    .iter()
                    .map(|&u| self.weight[u as usize])
                    .sum(),
            };
            // dom / w < best_dom / best_w, without division.
            // Among equals, the cell whose domain changed last: it sits where propagation is
            // active (measured: about 15 % fewer nodes on magictour_top1465 than the first).
            let (x, y) = (d * best_w, best_dom * w);
            if best == usize::MAX || x < y || (x == y && self.stamp[c] > self.stamp[best]) {
                (best, best_dom, best_w) = (c, d, w);
            }
        }
        best
    }

    /// The placed digits as a grid.
    fn grid(&self) -> Grid {
        let cells = self
            .cand
            .iter()
            .map(|m| m.only().unwrap_or(0) as u16)
            .collect();
        Grid::from_cells(self.order, cells).unwrap_or_else(|_| Grid::empty(self.order))
    }

    /// Loads `givens` and searches, handing each solution to `on_solution` (which returns
    /// whether to go on), restarting if `restart` and the search has a restart length. The
    /// root counts as a node, then every digit tried; every branching is a guess.
    pub(crate) fn run(
        &mut self,
        givens: &Grid,
        budget: &Budget,
        restart: bool,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd {
        self.count = Counters {
            nodes: 1,
            ..Counters::default()
        };
        self.scratch.augments = 0;
        self.noise = rng_from_seed(0);
        // A GAC node costs about the filter over a few units, a propagation step one filter or
        // one placement; read the clock every ~16k cells of work.
        let stride = (16_384 / self.cand.len()).clamp(1, 256) as u32;
        self.deadline = Deadline::new(budget, stride);
        self.out_of_time = false;
        if self.load(givens).is_err() {
            return if self.out_of_time {
                SearchEnd::Exhausted(Limit::Time)
            } else {
                SearchEnd::Complete
            };
        }
        let first = if restart { self.search.restart } else { 0 };
        self.search(budget, first, on_solution)
    }

    /// Binary branching: the left branch places the digit, the right one (taken when the
    /// left is refuted) removes it and propagates that before the next cell is picked. With
    /// `first` > 0, back to the root after `first` failures, then after 1.5 times as many
    /// each run.
    fn search(
        &mut self,
        budget: &Budget,
        first: u64,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd {
        self.frames.clear();
        // `fresh`: the state is a new contradiction-free fixpoint to branch from; otherwise
        // the last branch failed (or a solution was reported) and the search backtracks.
        let mut fresh = true;
        let (mut run_length, mut run_start) = (first as f64, self.count.failures);
        loop {
            if fresh
                && first > 0
                && (self.count.failures - run_start) as f64 >= run_length
                && !self.frames.is_empty()
            {
                let root = self.frames[0].mark;
                self.undo_to(root);
                self.frames.clear();
                self.count.restarts += 1;
                self.noise = rng_from_seed(self.count.restarts);
                run_length *= 1.5;
                run_start = self.count.failures;
            }
            if fresh && self.unplaced == 0 {
                if !on_solution(self.grid()) {
                    return SearchEnd::Stopped;
                }
                fresh = false;
            }
            let (cell, digit, left) = if fresh {
                let (c, d) = self.pick();
                self.count.guesses += 1;
                self.frames.push(Frame {
                    cell: c as u32,
                    digit: d as u16,
                    mark: self.trail.len(),
                });
                (c, d, true)
            } else {
                let Some(f) = self.frames.pop() else {
                    // The last propagation may have stopped on the clock, not on a dead end.
                    return if self.out_of_time {
                        SearchEnd::Exhausted(Limit::Time)
                    } else {
                        SearchEnd::Complete
                    };
                };
                self.undo_to(f.mark);
                (f.cell as usize, f.digit as usize, false)
            };
            if budget.nodes.is_some_and(|n| self.count.nodes >= n) {
                return SearchEnd::Exhausted(Limit::Nodes);
            }
            if self.deadline.expired() {
                return SearchEnd::Exhausted(Limit::Time);
            }
            self.count.nodes += 1;
            let one = DigitSet::single(digit);
            let cut = if left {
                self.cand[cell].difference(&one)
            } else {
                one
            };
            fresh = self.eliminate(cell, cut).is_ok() && self.propagate().is_ok();
        }
    }

    /// The statistics of the last run.
    pub(crate) fn stats(&self) -> Stats {
        let c = &self.count;
        Stats {
            nodes: c.nodes,
            guesses: c.guesses,
            restarts: c.restarts,
            extra: vec![
                ("gac_filters".to_string(), c.filters.to_string()),
                ("gac_removals".to_string(), c.removals.to_string()),
                (
                    "augmentations".to_string(),
                    self.scratch.augments.to_string(),
                ),
                ("failures".to_string(), c.failures.to_string()),
                ("meet_removals".to_string(), c.meet_removals.to_string()),
            ],
            ..Stats::default()
        }
    }
}
