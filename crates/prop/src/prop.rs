//! The improved propagator of seed 002: bitset candidates, an O(1) minimum-remaining-values
//! choice, Norvig's two rules and two optional extra rules, on a trail instead of state copies.
//!
//! Data, all preallocated per (order, variant) and reused across puzzles:
//! - `cand[c]`: the candidates of cell `c` (empty once `c` is placed; `value[c]` holds it);
//! - `placed[u]`: the digits placed in unit `u`;
//! - buckets: every unplaced cell sits in a circular doubly linked list for its candidate
//!   count, so the MRV cell is the head of the first non-empty list from 2 up, and an
//!   elimination moves a cell between lists in O(1);
//! - a trail of (cell, old candidates) and placements: backtracking pops it to a mark;
//! - a queue of cells reduced to one candidate and a set of units whose candidates changed.
//!
//! Rules, cheapest first, each run to a fixpoint before the next is tried:
//! 1. naked single: a cell with one candidate is placed and the digit leaves its peers;
//! 2. hidden single: in a changed unit, a digit with one place goes there (found with the
//!    once/twice accumulation over the unit's candidate sets); a digit with no place is a
//!    contradiction;
//! 3. locked candidates (optional): where a block meets a row or column, a digit confined to
//!    the meeting within one of the two units is removed from the rest of the other;
//! 4. naked pairs (optional): two cells of a unit with the same two candidates remove both
//!    digits from the rest of the unit.

use sudoku_core::{Budget, DigitSet, Geometry, Grid, Limit, Order, Puzzle, Stats, Variant};

use crate::search::{deadline_for, Engine, SearchEnd};

/// The switches of [`crate::Prop`]: which extra propagation rules run after the singles
/// reach their fixpoint. Naked and hidden singles always run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropConfig {
    /// Locked candidates (pointing and claiming) between blocks and rows/columns.
    /// [default: true]
    pub locked_candidates: bool,
    /// Naked pairs within every unit. [default: false]
    pub naked_pairs: bool,
}

impl Default for PropConfig {
    fn default() -> Self {
        PropConfig {
            locked_candidates: crate::LOCKED_CANDIDATES.default,
            naked_pairs: crate::NAKED_PAIRS.default,
        }
    }
}

/// A dead end: some cell or some unit has no way left.
#[derive(Debug)]
struct Contradiction;

type Step<T = ()> = Result<T, Contradiction>;

/// Orders up to this one rescan all units after changes instead of tracking changed units.
const SCAN_ALL_MAX_ORDER: usize = 4;

/// Marks a placement on the trail (cells are below 2³¹).
const PLACE: u32 = 1 << 31;

/// An open branching: the cell, the digits not yet tried, and the trail length before it.
struct Frame<const W: usize> {
    cell: u32,
    rest: DigitSet<W>,
    mark: usize,
}

/// The propagator for one (order, variant) and one candidate width.
pub(crate) struct PropEngine<const W: usize> {
    cfg: PropConfig,
    order: Order,
    variant: Variant,
    n: usize,
    size: usize,
    cells: usize,
    units: usize,
    unit_cells: Vec<u32>,
    cu_start: Vec<u32>,
    cu: Vec<u32>,
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    full: DigitSet<W>,
    cand: Vec<DigitSet<W>>,
    value: Vec<u16>,
    placed: Vec<DigitSet<W>>,
    /// Bucket links: indices `0..cells` are cells, `cells + k` is the sentinel of count `k`.
    next: Vec<u32>,
    prev: Vec<u32>,
    unplaced: usize,
    trail: Vec<(u32, DigitSet<W>)>,
    singles: Vec<u32>,
    dirty: Vec<u32>,
    /// The dirty units being scanned (swapped with `dirty`, so no allocation).
    batch: Vec<u32>,
    is_dirty: Vec<bool>,
    /// Small grids skip the per-unit bookkeeping: any change rescans every unit, which costs
    /// less than marking units on every elimination.
    scan_all: bool,
    /// A candidate changed since the last full scan (with `scan_all`).
    changed: bool,
    frames: Vec<Frame<W>>,
    seg_row: Vec<DigitSet<W>>,
    seg_col: Vec<DigitSet<W>>,
    pairs: Vec<u32>,
    stats: Stats,
}

impl<const W: usize> PropEngine<W> {
    pub(crate) fn new(order: Order, variant: Variant, cfg: PropConfig) -> Self {
        let geo = Geometry::get(order, variant);
        let (size, cells, units) = (order.size(), order.cells(), geo.unit_count());
        let mut unit_cells = Vec::with_capacity(units * size);
        for u in 0..units {
            unit_cells.extend_from_slice(geo.unit(u));
        }
        let (mut cu_start, mut cu) = (vec![0u32], Vec::new());
        let (mut peer_start, mut peers) = (vec![0u32], Vec::new());
        for c in 0..cells {
            cu.extend_from_slice(geo.cell_units(c));
            cu_start.push(cu.len() as u32);
            peers.extend_from_slice(geo.peers(c));
            peer_start.push(peers.len() as u32);
        }
        let segs = size * order.n();
        PropEngine {
            cfg,
            order,
            variant,
            n: order.n(),
            size,
            cells,
            units,
            unit_cells,
            cu_start,
            cu,
            peer_start,
            peers,
            full: DigitSet::full(size),
            cand: vec![DigitSet::EMPTY; cells],
            value: vec![0; cells],
            placed: vec![DigitSet::EMPTY; units],
            next: vec![0; cells + size + 1],
            prev: vec![0; cells + size + 1],
            unplaced: cells,
            trail: Vec::with_capacity(cells * 4),
            singles: Vec::with_capacity(cells),
            dirty: Vec::with_capacity(units),
            batch: Vec::with_capacity(units),
            is_dirty: vec![false; units],
            scan_all: order.n() <= SCAN_ALL_MAX_ORDER,
            changed: false,
            frames: Vec::new(),
            seg_row: vec![DigitSet::EMPTY; segs],
            seg_col: vec![DigitSet::EMPTY; segs],
            pairs: Vec::with_capacity(size),
            stats: Stats::default(),
        }
    }

    /// Back to the empty grid: every cell holds every digit, in bucket `size`.
    fn reset(&mut self) {
        self.cand.fill(self.full);
        self.value.fill(0);
        self.placed.fill(DigitSet::EMPTY);
        self.unplaced = self.cells;
        self.trail.clear();
        self.singles.clear();
        self.clear_dirty();
        self.frames.clear();
        for s in self.cells..self.next.len() {
            self.next[s] = s as u32;
            self.prev[s] = s as u32;
        }
        for c in 0..self.cells {
            self.link(c, self.size);
        }
    }

    fn clear_dirty(&mut self) {
        self.changed = false;
        for &u in &self.dirty {
            self.is_dirty[u as usize] = false;
        }
        self.dirty.clear();
    }

    #[inline(always)]
    fn unlink(&mut self, c: usize) {
        let (p, n) = (self.prev[c], self.next[c]);
        self.next[p as usize] = n;
        self.prev[n as usize] = p;
    }

    #[inline(always)]
    fn link(&mut self, c: usize, k: usize) {
        let s = self.cells + k;
        let n = self.next[s];
        self.next[c] = n;
        self.prev[c] = s as u32;
        self.prev[n as usize] = c as u32;
        self.next[s] = c as u32;
    }

    #[inline(always)]
    fn mark_units(&mut self, c: usize) {
        if self.scan_all {
            self.changed = true;
            return;
        }
        let (a, b) = (self.cu_start[c] as usize, self.cu_start[c + 1] as usize);
        for i in a..b {
            let u = self.cu[i] as usize;
            if !self.is_dirty[u] {
                self.is_dirty[u] = true;
                self.dirty.push(u as u32);
            }
        }
    }

    /// Removes `mask` from the candidates of unplaced cell `c`.
    #[inline(always)]
    fn eliminate(&mut self, c: usize, mask: DigitSet<W>) -> Step {
        let old = self.cand[c];
        let new = old.difference(&mask);
        if new == old {
            return Ok(());
        }
        let k = new.len();
        if k == 0 {
            return Err(Contradiction);
        }
        self.trail.push((c as u32, old));
        self.cand[c] = new;
        self.unlink(c);
        self.link(c, k);
        if k == 1 {
            self.singles.push(c as u32);
        }
        self.mark_units(c);
        Ok(())
    }

    /// Places the single candidate of `c` and removes it from the peers.
    fn place(&mut self, c: usize) -> Step {
        let m = self.cand[c];
        let d = m.first().unwrap_or(0);
        self.value[c] = d as u16;
        // A placed cell has no candidates left: every scan below can then treat placed and
        // unplaced cells alike, without testing `value`.
        self.cand[c] = DigitSet::EMPTY;
        self.unlink(c);
        self.trail.push((c as u32 | PLACE, m));
        self.unplaced -= 1;
        let (a, b) = (self.cu_start[c] as usize, self.cu_start[c + 1] as usize);
        for i in a..b {
            let u = self.cu[i] as usize;
            self.placed[u] = self.placed[u].union(&m);
        }
        self.mark_units(c);
        let (a, b) = (self.peer_start[c] as usize, self.peer_start[c + 1] as usize);
        for i in a..b {
            let p = self.peers[i] as usize;
            // Placed peers have no candidates, so this only touches unplaced ones.
            self.eliminate(p, m)?;
        }
        Ok(())
    }

    /// Pops the trail back to `mark`, restoring candidates, placements and buckets.
    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let Some((c, old)) = self.trail.pop() else {
                break;
            };
            if c & PLACE != 0 {
                let c = (c & !PLACE) as usize;
                self.value[c] = 0;
                self.cand[c] = old;
                let (a, b) = (self.cu_start[c] as usize, self.cu_start[c + 1] as usize);
                for i in a..b {
                    let u = self.cu[i] as usize;
                    self.placed[u] = self.placed[u].difference(&old);
                }
                self.link(c, 1);
                self.unplaced += 1;
            } else {
                let c = c as usize;
                self.unlink(c);
                self.cand[c] = old;
                self.link(c, old.len());
            }
        }
        self.singles.clear();
        self.clear_dirty();
    }

    /// Hidden singles of unit `u`.
    fn hidden_singles(&mut self, u: usize) -> Step {
        let cells = &self.unit_cells[u * self.size..(u + 1) * self.size];
        let (mut once, mut twice) = (DigitSet::<W>::EMPTY, DigitSet::<W>::EMPTY);
        for &c in cells {
            let m = self.cand[c as usize];
            twice = twice.union(&once.intersection(&m));
            once = once.union(&m);
        }
        let need = self.full.difference(&self.placed[u]);
        if !need.difference(&once).is_empty() {
            return Err(Contradiction);
        }
        let hidden = once.difference(&twice);
        for d in hidden.iter() {
            let one = DigitSet::single(d);
            let mut at = None;
            for i in 0..self.size {
                let c = self.unit_cells[u * self.size + i] as usize;
                if self.cand[c].contains(d) {
                    at = Some(c);
                    break;
                }
            }
            // None: an earlier hidden single of this unit took the cell that held `d`.
            let c = at.ok_or(Contradiction)?;
            let others = self.cand[c].difference(&one);
            self.eliminate(c, others)?;
        }
        Ok(())
    }

    /// Locked candidates over every block/line meeting; returns whether anything changed.
    fn locked_candidates(&mut self) -> Step<bool> {
        let (n, size) = (self.n, self.size);
        let before = self.trail.len();
        // Candidates of the unplaced cells of each meeting (segment) of n cells.
        for r in 0..size {
            for j in 0..n {
                let mut m = DigitSet::EMPTY;
                for k in 0..n {
                    let c = r * size + j * n + k;
                    m = m.union(&self.cand[c]);
                }
                self.seg_row[r * n + j] = m;
            }
        }
        for col in 0..size {
            for j in 0..n {
                let mut m = DigitSet::EMPTY;
                for k in 0..n {
                    let c = (j * n + k) * size + col;
                    m = m.union(&self.cand[c]);
                }
                self.seg_col[col * n + j] = m;
            }
        }
        // Masks go stale (larger) as eliminations happen below; larger masks only make the
        // rule deduce less, so what it does deduce stays sound.
        for vertical in [false, true] {
            for line in 0..size {
                for j in 0..n {
                    let segs = if vertical {
                        &self.seg_col
                    } else {
                        &self.seg_row
                    };
                    let s = segs[line * n + j];
                    if s.is_empty() {
                        continue;
                    }
                    let mut line_rest = DigitSet::EMPTY;
                    for j2 in (0..n).filter(|&j2| j2 != j) {
                        line_rest = line_rest.union(&segs[line * n + j2]);
                    }
                    let first = line - line % n;
                    let mut block_rest = DigitSet::EMPTY;
                    for l2 in (first..first + n).filter(|&l2| l2 != line) {
                        block_rest = block_rest.union(&segs[l2 * n + j]);
                    }
                    // Pointing: confined to this meeting within the block, so not elsewhere
                    // on the line.
                    let pointing = s.difference(&block_rest).intersection(&line_rest);
                    if !pointing.is_empty() {
                        for j2 in (0..n).filter(|&j2| j2 != j) {
                            for k in 0..n {
                                let c = self.seg_cell(vertical, line, j2, k);
                                self.eliminate(c, pointing)?;
                            }
                        }
                    }
                    // Claiming: confined to this meeting within the line, so not elsewhere in
                    // the block.
                    let claiming = s.difference(&line_rest).intersection(&block_rest);
                    if !claiming.is_empty() {
                        for l2 in (first..first + n).filter(|&l2| l2 != line) {
                            for k in 0..n {
                                let c = self.seg_cell(vertical, l2, j, k);
                                self.eliminate(c, claiming)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(self.trail.len() > before)
    }

    /// Cell `k` of segment `j` of row (or column) `line`.
    #[inline(always)]
    fn seg_cell(&self, vertical: bool, line: usize, j: usize, k: usize) -> usize {
        if vertical {
            (j * self.n + k) * self.size + line
        } else {
            line * self.size + j * self.n + k
        }
    }

    /// Naked pairs in every unit; returns whether anything changed.
    fn naked_pairs(&mut self) -> Step<bool> {
        let before = self.trail.len();
        let size = self.size;
        for u in 0..self.units {
            self.pairs.clear();
            for i in 0..size {
                let c = self.unit_cells[u * size + i];
                if self.cand[c as usize].len() == 2 {
                    self.pairs.push(c);
                }
            }
            for a in 0..self.pairs.len() {
                for b in a + 1..self.pairs.len() {
                    let (ca, cb) = (self.pairs[a] as usize, self.pairs[b] as usize);
                    let m = self.cand[ca];
                    if m != self.cand[cb] || m.len() != 2 {
                        continue;
                    }
                    for i in 0..size {
                        let c = self.unit_cells[u * size + i] as usize;
                        if c != ca && c != cb {
                            self.eliminate(c, m)?;
                        }
                    }
                }
            }
        }
        Ok(self.trail.len() > before)
    }

    /// Runs the rules to their joint fixpoint.
    fn propagate(&mut self) -> Step {
        loop {
            if let Some(c) = self.singles.pop() {
                let c = c as usize;
                if self.value[c] == 0 {
                    self.place(c)?;
                }
                continue;
            }
            if self.changed {
                self.changed = false;
                for u in 0..self.units {
                    self.hidden_singles(u)?;
                }
                continue;
            }
            if !self.dirty.is_empty() {
                // All changed units in one batch: scanning one unit per placed single would
                // rescan the same units after every placement.
                std::mem::swap(&mut self.dirty, &mut self.batch);
                for &u in &self.batch {
                    self.is_dirty[u as usize] = false;
                }
                for i in 0..self.batch.len() {
                    let u = self.batch[i] as usize;
                    if let Err(e) = self.hidden_singles(u) {
                        self.batch.clear();
                        return Err(e);
                    }
                }
                self.batch.clear();
                continue;
            }
            if self.unplaced == 0 {
                return Ok(());
            }
            if self.cfg.locked_candidates && self.locked_candidates()? {
                continue;
            }
            if self.cfg.naked_pairs && self.naked_pairs()? {
                continue;
            }
            return Ok(());
        }
    }

    /// The unplaced cell with the fewest candidates: the head of the first non-empty bucket.
    /// At a fixpoint no unplaced cell has one candidate, so the buckets start at 2.
    #[inline]
    fn pick(&self) -> Option<usize> {
        (2..=self.size).find_map(|k| {
            let s = self.cells + k;
            let c = self.next[s] as usize;
            (c != s).then_some(c)
        })
    }
}

impl<const W: usize> Engine for PropEngine<W> {
    fn fits(&self, order: Order, variant: Variant) -> bool {
        self.order == order && self.variant == variant
    }

    fn stats(&mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }

    fn run(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd {
        self.stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        self.reset();
        let mut deadline = deadline_for(budget, self.order);
        let mut ok = true;
        for (c, &d) in puzzle.givens().cells().iter().enumerate() {
            if d != 0 {
                let others = self.full.difference(&DigitSet::single(d as usize));
                // Fresh cells are full, so this cannot fail; contradictory givens show up
                // when the queued singles are placed.
                ok &= self.eliminate(c, others).is_ok();
            }
        }
        if !ok || self.propagate().is_err() {
            return SearchEnd::Complete;
        }
        loop {
            // Here the state is a contradiction-free fixpoint.
            if self.unplaced == 0 {
                if let Ok(g) = Grid::from_cells(self.order, self.value.clone()) {
                    if !on_solution(g) {
                        return SearchEnd::Stopped;
                    }
                }
            } else if let Some(c) = self.pick() {
                self.stats.guesses += 1;
                self.frames.push(Frame {
                    cell: c as u32,
                    rest: self.cand[c],
                    mark: self.trail.len(),
                });
            }
            // Next branch of the innermost open frame, backtracking as needed.
            loop {
                let Some(f) = self.frames.last_mut() else {
                    return SearchEnd::Complete;
                };
                let (cell, mark) = (f.cell as usize, f.mark);
                let Some(d) = f.rest.first() else {
                    self.frames.pop();
                    continue;
                };
                f.rest.remove(d);
                if f.rest.is_empty() {
                    // The last digit: nothing to come back to here.
                    self.frames.pop();
                }
                self.undo_to(mark);
                if budget.nodes.is_some_and(|limit| self.stats.nodes >= limit) {
                    return SearchEnd::Exhausted(Limit::Nodes);
                }
                if deadline.expired() {
                    return SearchEnd::Exhausted(Limit::Time);
                }
                self.stats.nodes += 1;
                let others = self.cand[cell].difference(&DigitSet::single(d));
                if self.eliminate(cell, others).is_ok() && self.propagate().is_ok() {
                    break;
                }
            }
        }
    }
}
