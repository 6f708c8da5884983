//! The `gac` search engine for one (order, variant) at candidate width `W`: domains with a
//! trail, singleton propagation, Régin's filter on every changed unit to a fixpoint, and a
//! depth-first search over the cell [`Select`] picks.

use sudoku_core::{Budget, Deadline, DigitSet, Geometry, Grid, Limit, Order, Stats, Variant};

use super::alldiff::{filter, Scratch};
use super::Select;

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

/// An open branching: the cell, the digits not yet tried, and the trail length before it.
struct Frame<const W: usize> {
    cell: u32,
    rest: DigitSet<W>,
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
}

pub(crate) struct Engine<const W: usize> {
    order: Order,
    variant: Variant,
    select: Select,
    size: usize,
    units: usize,
    unit_cells: Vec<u32>,
    cu_start: Vec<u32>,
    cu: Vec<u32>,
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
    frames: Vec<Frame<W>>,
    count: Counters,
}

impl<const W: usize> Engine<W> {
    pub(crate) fn new(order: Order, variant: Variant, select: Select) -> Self {
        let geo = Geometry::get(order, variant);
        let (size, cells, units) = (order.size(), order.cells(), geo.unit_count());
        let mut unit_cells = Vec::with_capacity(units * size);
        for u in 0..units {
            unit_cells.extend_from_slice(geo.unit(u));
        }
        let (mut cu_start, mut cu) = (vec![0u32], Vec::new());
        for c in 0..cells {
            cu.extend_from_slice(geo.cell_units(c));
            cu_start.push(cu.len() as u32);
        }
        Engine {
            order,
            variant,
            select,
            size,
            units,
            unit_cells,
            cu_start,
            cu,
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
        }
    }

    pub(crate) fn fits(&self, order: Order, variant: Variant) -> bool {
        self.order == order && self.variant == variant
    }

    fn cell_units(&self, c: usize) -> std::ops::Range<usize> {
        self.cu_start[c] as usize..self.cu_start[c + 1] as usize
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
        if new.len() == 1 {
            self.singles.push(c as u32);
        }
        for i in self.cell_units(c) {
            let u = self.cu[i] as usize;
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
        for i in self.cell_units(c) {
            let u = self.cu[i] as usize;
            for j in 0..self.size {
                let p = self.unit_cells[u * self.size + j] as usize;
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
        for (i, &c) in self.unit_cells[cells.clone()].iter().enumerate() {
            self.dom[i] = self.cand[c as usize];
            open += usize::from(self.value[c as usize] == 0);
        }
        if open == 0 {
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
            let c = self.unit_cells[u * size + i] as usize;
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

    /// Singleton propagation first, then the filter on every changed unit, to the fixpoint.
    fn propagate(&mut self) -> Result<(), Dead> {
        let out = self.fixpoint();
        if out.is_err() {
            self.count.failures += 1;
        }
        out
    }

    fn fixpoint(&mut self) -> Result<(), Dead> {
        loop {
            if let Some(c) = self.singles.pop() {
                let c = c as usize;
                if self.value[c] == 0 {
                    self.place(c)?;
                }
                continue;
            }
            if let Some(u) = self.dirty.pop() {
                let u = u as usize;
                self.is_dirty[u] = false;
                self.gac(u)?;
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

    /// The unplaced cell to branch on (first in cell order among equals).
    fn pick(&self) -> usize {
        let mut best = usize::MAX;
        let (mut best_dom, mut best_w) = (u64::MAX, 1u64);
        for c in 0..self.cand.len() {
            if self.value[c] != 0 {
                continue;
            }
            let d = self.cand[c].len() as u64;
            let w = match self.select {
                Select::Mrv => 1,
                Select::DomWdeg => self
                    .cell_units(c)
                    .map(|i| self.weight[self.cu[i] as usize])
                    .sum(),
            };
            // dom / w < best_dom / best_w, without division.
            if best == usize::MAX || d * best_w < best_dom * w {
                (best, best_dom, best_w) = (c, d, w);
                if d == 2 && self.select == Select::Mrv {
                    break;
                }
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
    /// whether to go on). The root counts as a node, then every digit tried; every branching
    /// is a guess.
    pub(crate) fn run(
        &mut self,
        givens: &Grid,
        budget: &Budget,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd {
        self.count = Counters {
            nodes: 1,
            ..Counters::default()
        };
        self.scratch.augments = 0;
        if self.load(givens).is_err() {
            return SearchEnd::Complete;
        }
        self.search(budget, on_solution)
    }

    fn search(&mut self, budget: &Budget, on_solution: &mut dyn FnMut(Grid) -> bool) -> SearchEnd {
        // A GAC node costs about the filter over a few units; read the clock every ~16k cells
        // of work.
        let stride = (16_384 / self.cand.len()).clamp(1, 256) as u32;
        let mut deadline = Deadline::new(budget, stride);
        self.frames.clear();
        loop {
            // Here the state is a contradiction-free fixpoint.
            if self.unplaced == 0 {
                if !on_solution(self.grid()) {
                    return SearchEnd::Stopped;
                }
            } else {
                let c = self.pick();
                self.count.guesses += 1;
                self.frames.push(Frame {
                    cell: c as u32,
                    rest: self.cand[c],
                    mark: self.trail.len(),
                });
            }
            loop {
                let Some(f) = self.frames.last() else {
                    return SearchEnd::Complete;
                };
                let (cell, mark, mut rest) = (f.cell as usize, f.mark, f.rest);
                if rest.is_empty() {
                    self.frames.pop();
                    continue;
                }
                self.undo_to(mark);
                if budget.nodes.is_some_and(|n| self.count.nodes >= n) {
                    return SearchEnd::Exhausted(Limit::Nodes);
                }
                if deadline.expired() {
                    return SearchEnd::Exhausted(Limit::Time);
                }
                self.count.nodes += 1;
                let d = rest.first().unwrap_or(1);
                rest.remove(d);
                if rest.is_empty() {
                    self.frames.pop();
                } else if let Some(f) = self.frames.last_mut() {
                    f.rest = rest;
                }
                let others = self.cand[cell].difference(&DigitSet::single(d));
                if self.eliminate(cell, others).is_ok() && self.propagate().is_ok() {
                    break;
                }
            }
        }
    }

    /// The statistics of the last run.
    pub(crate) fn stats(&self) -> Stats {
        let c = &self.count;
        Stats {
            nodes: c.nodes,
            guesses: c.guesses,
            extra: vec![
                ("gac_filters".to_string(), c.filters.to_string()),
                ("gac_removals".to_string(), c.removals.to_string()),
                (
                    "augmentations".to_string(),
                    self.scratch.augments.to_string(),
                ),
                ("failures".to_string(), c.failures.to_string()),
            ],
            ..Stats::default()
        }
    }
}
