//! The propagation kernel: candidate state, naked and hidden singles to a fixpoint, undo by a
//! trail, and a depth-first search driver with caller-chosen cell and digit order.
//!
//! It is the one propagator of the workspace: the `prop` method runs on it, and so do the
//! generator's `prop-fill` and `FillCounter` (sudoku-gen) and the singles preprocessing of
//! the metaheuristics (sudoku-meta). Its parts, for a caller that builds its own search:
//!
//! - [`Kernel`]: the state of one grid of one (order, variant) at candidate width `W` (see
//!   [`sudoku_core::for_width`]): [`Kernel::load`] the givens, [`Kernel::assign`] or
//!   [`Kernel::eliminate`], then [`Kernel::propagate`] to the fixpoint of the [`Rules`]. A
//!   dead end is a [`Contradiction`] ([`Kernel::conflict`] says where).
//! - The trail: every change is logged, so [`Kernel::mark`] and [`Kernel::undo_to`] take the
//!   state back to an earlier point without copying it. A search branches thousands of times
//!   per second on grids of up to 65,536 cells; a copy per branch would dominate, and the
//!   trail also means no allocation per node.
//! - [`Kernel::search`]: depth-first search from the current fixpoint, branching on the cell
//!   a [`Strategy`] picks (by default the fewest candidates, [`Kernel::mrv_cell`]) over the
//!   digits in the order it picks (by default increasing), handing each solution to a
//!   callback. The strategy also meters the search ([`Strategy::node`]): [`Meter`] applies a
//!   [`Budget`] (nodes, time); a generator adds a random digit order and restarts.
//!
//! Rules, cheapest first, each run to a fixpoint before the next is tried:
//! 1. naked single: a cell with one candidate is placed and the digit leaves its peers;
//! 2. hidden single ([`Rules::hidden_singles`]): in a changed unit, a digit with one place
//!    goes there (found with the once/twice accumulation over the unit's candidate sets). A
//!    digit with no place is a contradiction even with the rule off;
//! 3. locked candidates (optional): where a block meets a row or column, a digit confined to
//!    the meeting within one of the two units is removed from the rest of the other;
//! 4. naked pairs (optional): two cells of a unit with the same two candidates remove both
//!    digits from the rest of the unit.
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
//! ```
//! use sudoku_core::{format, Budget, Puzzle, Variant};
//! use sudoku_prop::kernel::{Kernel, Meter, Rules, SearchEnd};
//!
//! let line = "1.3.3.1.2.4.4.2.";
//! let puzzle = Puzzle::new(format::parse_str(line, "x").unwrap().remove(0).grid, Variant::Classic);
//! let mut k = Kernel::<1>::new(puzzle.order(), puzzle.variant(), Rules::SINGLES);
//! k.load(puzzle.givens()).unwrap();
//! // Count the solutions (up to 10; this puzzle has 4) under a node budget.
//! let mut meter = Meter::new(&Budget { nodes: Some(1000), ..Budget::unlimited() }, puzzle.order());
//! let mut count = 0;
//! let end = k.search(&mut meter, |_| {
//!     count += 1;
//!     count < 10
//! });
//! assert_eq!((count, end), (4, SearchEnd::Complete));
//! // Undo: back to the givens after trying a digit by hand.
//! k.load(puzzle.givens()).unwrap();
//! let mark = k.mark();
//! let cell = k.mrv_cell().unwrap_or(1);
//! let d = k.candidates(cell).first().unwrap_or(1);
//! let _ = k.assign(cell, d).and_then(|_| k.propagate());
//! k.undo_to(mark);
//! assert_eq!(k.grid(), k.grid());
//! ```

use sudoku_core::{Budget, Deadline, DigitSet, Geometry, Grid, Limit, Order, Stats, Variant};

/// Which rules [`Kernel::propagate`] runs. Naked singles always run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Hidden singles: a digit with one place in a unit goes there.
    pub hidden_singles: bool,
    /// Locked candidates (pointing and claiming) between blocks and rows/columns.
    pub locked_candidates: bool,
    /// Naked pairs within every unit.
    pub naked_pairs: bool,
}

impl Rules {
    /// Naked and hidden singles only (Norvig's two rules).
    pub const SINGLES: Rules = Rules {
        hidden_singles: true,
        locked_candidates: false,
        naked_pairs: false,
    };
}

/// A dead end: some cell or some unit has no way left ([`Kernel::conflict`] says which).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// Where the last [`Contradiction`] was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// Cell `0` has no candidate left (or was asked to take a digit it does not allow).
    EmptyCell(usize),
    /// Digit `1` has no place left in unit `0`.
    NoPlace(usize, usize),
}

/// The result of a kernel step.
pub type Step<T = ()> = Result<T, Contradiction>;

/// How a [`Kernel::search`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// The whole tree was explored.
    Complete,
    /// The solution callback asked to stop.
    Stopped,
    /// A budget limit ran out.
    Exhausted(Limit),
    /// The strategy cut the search off (a restart).
    Cutoff,
}

/// The caller's part of a [`Kernel::search`]: branching order and metering.
pub trait Strategy<const W: usize> {
    /// The cell to branch on, at a contradiction-free fixpoint with unplaced cells left.
    /// Default: the fewest candidates ([`Kernel::mrv_cell`]).
    #[inline(always)]
    fn cell(&mut self, k: &Kernel<W>) -> usize {
        k.mrv_cell().unwrap_or(0)
    }

    /// The next digit to try in `cell`, one of `rest` (never empty); the kernel state is the
    /// one in which `cell` was chosen. Default: the smallest.
    #[inline(always)]
    fn digit(&mut self, k: &Kernel<W>, cell: usize, rest: DigitSet<W>) -> usize {
        let _ = (k, cell);
        rest.first().unwrap_or(1)
    }

    /// A new branching on a cell begins.
    #[inline(always)]
    fn branch(&mut self) {}

    /// Called before each digit is tried (after [`Strategy::digit`]), with how many digits
    /// were left including this one: count the node, or end the search.
    fn node(&mut self, left: usize) -> Option<SearchEnd>;
}

/// The standard metering of a search under a [`Budget`]: `stats.nodes` counts the root and
/// every digit tried, `stats.guesses` every branching; stops at the node limit or the time.
pub struct Meter {
    /// The statistics so far (the root counts as a node).
    pub stats: Stats,
    max_nodes: Option<u64>,
    deadline: Deadline,
}

impl Meter {
    /// A meter for `budget` (the clock is read as [`deadline_for`] says).
    pub fn new(budget: &Budget, order: Order) -> Meter {
        Meter {
            stats: Stats {
                nodes: 1,
                ..Stats::default()
            },
            max_nodes: budget.nodes,
            deadline: deadline_for(budget, order),
        }
    }
}

/// A deadline for a search of `order` that checks the clock about every 64k cells of work:
/// 9×9 nodes cost ~100 ns, order-16 nodes can cost milliseconds.
pub fn deadline_for(budget: &Budget, order: Order) -> Deadline {
    let stride = (65_536 / order.cells()).clamp(1, 1024) as u32;
    Deadline::new(budget, stride)
}

impl<const W: usize> Strategy<W> for Meter {
    #[inline(always)]
    fn branch(&mut self) {
        self.stats.guesses += 1;
    }

    #[inline(always)]
    fn node(&mut self, _left: usize) -> Option<SearchEnd> {
        if self
            .max_nodes
            .is_some_and(|limit| self.stats.nodes >= limit)
        {
            return Some(SearchEnd::Exhausted(Limit::Nodes));
        }
        if self.deadline.expired() {
            return Some(SearchEnd::Exhausted(Limit::Time));
        }
        self.stats.nodes += 1;
        None
    }
}

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

/// The propagation state of one grid of one (order, variant), candidate sets of `W` words.
pub struct Kernel<const W: usize> {
    rules: Rules,
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
    conflict: Conflict,
    /// Keep `count` (see [`Kernel::set_place_counts`]).
    counting: bool,
    /// With `counting`: `count[u * size + d - 1]`, the unplaced cells of unit `u` allowing `d`.
    count: Vec<u16>,
    /// With `counting`: (unit, digit) pairs whose count fell to one (hidden single
    /// candidates), which replace the dirty-unit scans.
    hidden: Vec<(u32, u16)>,
}

impl<const W: usize> Kernel<W> {
    /// A kernel for `order` and `variant` (`W` must be `order.words()` or more), holding the
    /// empty grid.
    pub fn new(order: Order, variant: Variant, rules: Rules) -> Self {
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
        let mut k = Kernel {
            rules,
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
            conflict: Conflict::EmptyCell(0),
            counting: false,
            count: Vec::new(),
            hidden: Vec::new(),
        };
        k.reset();
        k
    }

    /// The order.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rules [`Kernel::propagate`] runs.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules (takes effect at the next propagation).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Where the last contradiction was found.
    pub fn conflict(&self) -> Conflict {
        self.conflict
    }

    /// The candidates of cell `c` (empty once it is placed).
    #[inline(always)]
    pub fn candidates(&self, c: usize) -> DigitSet<W> {
        self.cand[c]
    }

    /// The digit placed in cell `c`, 0 if none.
    #[inline(always)]
    pub fn value(&self, c: usize) -> usize {
        self.value[c] as usize
    }

    /// How many cells are not placed yet.
    #[inline(always)]
    pub fn unplaced(&self) -> usize {
        self.unplaced
    }

    /// The digits placed in unit `u` (unit numbering of [`Geometry`]).
    pub fn placed_in(&self, u: usize) -> DigitSet<W> {
        self.placed[u]
    }

    /// The cells of unit `u`.
    #[inline]
    pub fn unit(&self, u: usize) -> &[u32] {
        &self.unit_cells[u * self.size..(u + 1) * self.size]
    }

    /// The units of cell `c`.
    #[inline]
    pub fn cell_units(&self, c: usize) -> &[u32] {
        &self.cu[self.cu_start[c] as usize..self.cu_start[c + 1] as usize]
    }

    /// Keeps, or stops keeping, a count per (unit, digit) of the unplaced cells allowing the
    /// digit, so that [`Kernel::places`] is O(1). With counts on, hidden singles and
    /// no-place contradictions are found from the counts as they fall, instead of by
    /// rescanning every changed unit: a search that asks `places` at every node (the
    /// generator's digit order) gains twice, while one that does not (the `prop` solver) pays
    /// nothing with counts off. The fixpoint reached is the same either way; only the order
    /// in which singles are placed differs. Applies to the current state.
    pub fn set_place_counts(&mut self, on: bool) {
        self.counting = on;
        self.hidden.clear();
        if !on {
            self.count = Vec::new();
            return;
        }
        self.count = vec![0; self.units * self.size];
        for u in 0..self.units {
            for i in 0..self.size {
                let c = self.unit_cells[u * self.size + i] as usize;
                for d in self.cand[c].iter() {
                    self.count[u * self.size + d - 1] += 1;
                }
            }
        }
        self.clear_dirty();
    }

    /// How many unplaced cells of unit `u` allow digit `d` (O(1) with
    /// [`Kernel::set_place_counts`], else a scan of the unit).
    #[inline]
    pub fn places(&self, u: usize, d: usize) -> usize {
        if self.counting {
            return self.count[u * self.size + d - 1] as usize;
        }
        self.unit(u)
            .iter()
            .filter(|&&c| self.cand[c as usize].contains(d))
            .count()
    }

    /// The placed digits as a grid (0 where unplaced).
    pub fn grid(&self) -> Grid {
        // Every placed digit is a candidate of its order, so this cannot fail.
        Grid::from_cells(self.order, self.value.clone()).unwrap_or_else(|_| Grid::empty(self.order))
    }

    /// The current trail length: a point to come back to with [`Kernel::undo_to`].
    #[inline(always)]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Back to the empty grid: every cell holds every digit, in bucket `size`.
    pub fn reset(&mut self) {
        self.cand.fill(self.full);
        self.value.fill(0);
        self.placed.fill(DigitSet::EMPTY);
        self.unplaced = self.cells;
        self.trail.clear();
        self.singles.clear();
        self.clear_dirty();
        self.hidden.clear();
        if self.counting {
            self.count.fill(self.size as u16);
        }
        self.frames.clear();
        for s in self.cells..self.next.len() {
            self.next[s] = s as u32;
            self.prev[s] = s as u32;
        }
        for c in 0..self.cells {
            self.link(c, self.size);
        }
    }

    /// Resets to the empty grid, applies the givens (nonzero cells of `givens`) and
    /// propagates.
    pub fn load(&mut self, givens: &Grid) -> Step {
        self.reset();
        let mut ok = true;
        for (c, &d) in givens.cells().iter().enumerate() {
            if d != 0 {
                // Fresh cells are full, so this cannot fail; contradictory givens show up
                // when the queued singles are placed.
                ok &= self.assign(c, d as usize).is_ok();
            }
        }
        if !ok {
            return Err(Contradiction);
        }
        self.propagate()
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

    /// Reduces unplaced cell `c` to digit `d` (queued as a naked single; placed at the next
    /// propagation). A contradiction if `c` does not allow `d`.
    #[inline]
    pub fn assign(&mut self, c: usize, d: usize) -> Step {
        if !self.cand[c].contains(d) {
            self.conflict = Conflict::EmptyCell(c);
            return Err(Contradiction);
        }
        let others = self.cand[c].difference(&DigitSet::single(d));
        self.eliminate(c, others)
    }

    /// Removes `mask` from the candidates of cell `c` (placed cells have none; nothing
    /// happens). A contradiction if none is left.
    #[inline(always)]
    pub fn eliminate(&mut self, c: usize, mask: DigitSet<W>) -> Step {
        let old = self.cand[c];
        let new = old.difference(&mask);
        if new == old {
            return Ok(());
        }
        let k = new.len();
        if k == 0 {
            self.conflict = Conflict::EmptyCell(c);
            return Err(Contradiction);
        }
        self.trail.push((c as u32, old));
        self.cand[c] = new;
        self.unlink(c);
        self.link(c, k);
        if k == 1 {
            self.singles.push(c as u32);
        }
        if self.counting {
            return self.count_out(c, old.difference(&new));
        }
        self.mark_units(c);
        Ok(())
    }

    /// Counts the digits `gone` out of the units of cell `c`, queueing hidden singles and
    /// finding units left without a place for a digit they still need. The bookkeeping is
    /// finished before a contradiction is reported, so undo stays exact.
    fn count_out(&mut self, c: usize, gone: DigitSet<W>) -> Step {
        let (a, b) = (self.cu_start[c] as usize, self.cu_start[c + 1] as usize);
        let mut ok = true;
        for d in gone.iter() {
            for i in a..b {
                let u = self.cu[i] as usize;
                let x = &mut self.count[u * self.size + d - 1];
                *x -= 1;
                if *x <= 1 && !self.placed[u].contains(d) {
                    if *x == 0 {
                        if ok {
                            self.conflict = Conflict::NoPlace(u, d);
                        }
                        ok = false;
                    } else if self.rules.hidden_singles {
                        self.hidden.push((u as u32, d as u16));
                    }
                }
            }
        }
        if ok {
            Ok(())
        } else {
            Err(Contradiction)
        }
    }

    /// Places digit `d`, the hidden single of unit `u`, if it still is one.
    fn counted_hidden(&mut self, u: usize, d: usize) -> Step {
        if self.count[u * self.size + d - 1] != 1 || self.placed[u].contains(d) {
            return Ok(());
        }
        let cells = &self.unit_cells[u * self.size..(u + 1) * self.size];
        let Some(&c) = cells.iter().find(|&&c| self.cand[c as usize].contains(d)) else {
            return Ok(());
        };
        let c = c as usize;
        let others = self.cand[c].difference(&DigitSet::single(d));
        self.eliminate(c, others)
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
        if self.counting {
            // `d` is 0 only if `c` had no candidate, which eliminate never leaves.
            for i in a..b {
                let u = self.cu[i] as usize;
                if d > 0 {
                    self.count[u * self.size + d - 1] -= 1;
                }
            }
        } else {
            self.mark_units(c);
        }
        let (a, b) = (self.peer_start[c] as usize, self.peer_start[c + 1] as usize);
        for i in a..b {
            let p = self.peers[i] as usize;
            // Placed peers have no candidates, so this only touches unplaced ones.
            self.eliminate(p, m)?;
        }
        Ok(())
    }

    /// Places `d` in cell `c` now and removes it from the peers, without placing the naked
    /// singles that creates (see [`Kernel::naked_singles`]). Nothing if `c` already holds `d`.
    pub fn place_now(&mut self, c: usize, d: usize) -> Step {
        if self.value[c] as usize == d {
            return Ok(());
        }
        self.assign(c, d)?;
        self.place(c)
    }

    /// Places queued naked singles until none is left (no other rule runs).
    pub fn naked_singles(&mut self) -> Step {
        while let Some(c) = self.singles.pop() {
            let c = c as usize;
            if self.value[c] == 0 {
                if let Err(e) = self.place(c) {
                    self.singles.clear();
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Pops the trail back to `mark`, restoring candidates, placements and buckets, and drops
    /// pending propagation work.
    pub fn undo_to(&mut self, mark: usize) {
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
                if self.counting {
                    let d = old.first().unwrap_or(1);
                    for i in a..b {
                        let u = self.cu[i] as usize;
                        self.count[u * self.size + d - 1] += 1;
                    }
                }
                self.link(c, 1);
                self.unplaced += 1;
            } else {
                let c = c as usize;
                self.unlink(c);
                if self.counting {
                    let back = old.difference(&self.cand[c]);
                    let (a, b) = (self.cu_start[c] as usize, self.cu_start[c + 1] as usize);
                    for d in back.iter() {
                        for i in a..b {
                            let u = self.cu[i] as usize;
                            self.count[u * self.size + d - 1] += 1;
                        }
                    }
                }
                self.cand[c] = old;
                self.link(c, old.len());
            }
        }
        self.singles.clear();
        self.hidden.clear();
        self.clear_dirty();
    }

    /// The hidden singles of unit `u`: digits with exactly one unplaced cell in `u`. A
    /// contradiction if a digit not placed in `u` has no cell left there.
    #[inline]
    pub fn hidden_in(&mut self, u: usize) -> Step<DigitSet<W>> {
        let cells = &self.unit_cells[u * self.size..(u + 1) * self.size];
        let (mut once, mut twice) = (DigitSet::<W>::EMPTY, DigitSet::<W>::EMPTY);
        for &c in cells {
            let m = self.cand[c as usize];
            twice = twice.union(&once.intersection(&m));
            once = once.union(&m);
        }
        let need = self.full.difference(&self.placed[u]);
        let nowhere = need.difference(&once);
        if let Some(d) = nowhere.first() {
            self.conflict = Conflict::NoPlace(u, d);
            return Err(Contradiction);
        }
        Ok(once.difference(&twice))
    }

    /// Hidden singles of unit `u` (only the no-place check when the rule is off).
    fn hidden_singles(&mut self, u: usize) -> Step {
        let hidden = self.hidden_in(u)?;
        if !self.rules.hidden_singles {
            return Ok(());
        }
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
            let Some(c) = at else {
                self.conflict = Conflict::NoPlace(u, d);
                return Err(Contradiction);
            };
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

    /// Runs the rules to their joint fixpoint. On a contradiction the state is part-way and
    /// should be undone to a mark (or reloaded).
    pub fn propagate(&mut self) -> Step {
        loop {
            if let Some(c) = self.singles.pop() {
                let c = c as usize;
                if self.value[c] == 0 {
                    self.place(c)?;
                }
                continue;
            }
            if let Some((u, d)) = self.hidden.pop() {
                self.counted_hidden(u as usize, d as usize)?;
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
            if self.rules.locked_candidates && self.locked_candidates()? {
                continue;
            }
            if self.rules.naked_pairs && self.naked_pairs()? {
                continue;
            }
            return Ok(());
        }
    }

    /// The unplaced cell with the fewest candidates, in O(1): the head of the first non-empty
    /// bucket (the most recently moved there). At a fixpoint no unplaced cell has one
    /// candidate, so the buckets start at 2.
    #[inline]
    pub fn mrv_cell(&self) -> Option<usize> {
        (2..=self.size).find_map(|k| {
            let s = self.cells + k;
            let c = self.next[s] as usize;
            (c != s).then_some(c)
        })
    }

    /// The unplaced cell with the fewest candidates and, among those, the lowest index (a
    /// walk of one bucket). Filling in reading order among equals makes large grids far
    /// easier to generate than other tie orders.
    pub fn mrv_first_cell(&self) -> Option<usize> {
        (1..=self.size).find_map(|k| {
            let s = self.cells + k;
            let mut c = self.next[s] as usize;
            let mut best = None;
            while c != s {
                best = Some(best.map_or(c, |b: usize| b.min(c)));
                c = self.next[c] as usize;
            }
            best
        })
    }

    /// Depth-first search from the current state, which must be a contradiction-free
    /// fixpoint (after a successful [`Kernel::load`] or [`Kernel::propagate`]).
    ///
    /// Branches on the cell `strategy` picks, trying its digits in the order `strategy`
    /// picks, propagating after each. `on_solution` gets the kernel at each full grid and
    /// returns whether to go on. On return the state is wherever the search stopped.
    pub fn search<S: Strategy<W>>(
        &mut self,
        strategy: &mut S,
        mut on_solution: impl FnMut(&Self) -> bool,
    ) -> SearchEnd {
        self.frames.clear();
        loop {
            // Here the state is a contradiction-free fixpoint.
            if self.unplaced == 0 {
                if !on_solution(self) {
                    return SearchEnd::Stopped;
                }
            } else {
                let c = strategy.cell(self);
                strategy.branch();
                self.frames.push(Frame {
                    cell: c as u32,
                    rest: self.cand[c],
                    mark: self.trail.len(),
                });
            }
            // Next branch of the innermost open frame, backtracking as needed.
            loop {
                let Some(f) = self.frames.last() else {
                    return SearchEnd::Complete;
                };
                let (cell, mark, rest) = (f.cell as usize, f.mark, f.rest);
                if rest.is_empty() {
                    self.frames.pop();
                    continue;
                }
                self.undo_to(mark);
                let d = strategy.digit(self, cell, rest);
                if let Some(end) = strategy.node(rest.len()) {
                    return end;
                }
                let mut rest = rest;
                rest.remove(d);
                if rest.is_empty() {
                    // The last digit: nothing to come back to here.
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
}
