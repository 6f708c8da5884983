//! The propagation engine behind `prop-fill` and [`crate::FillCounter`]: bitset candidates,
//! naked and hidden singles, fewest-candidates branching, undo by a trail.
//!
//! State changes are only ever made through [`Engine::assign`] and [`Engine::eliminate`], which
//! log to the trail, so backtracking is "undo to a mark" and never copies the grid (an order-10
//! grid is 10,000 cells; a copy per decision would dominate).

use std::sync::Arc;

use rand::Rng as _;
use sudoku_core::{
    Budget, CountEnd, Deadline, DigitSet, Geometry, Grid, Limit, Order, Puzzle, Rng, Stats, Variant,
};

/// Trail entries: an elimination of digit `d` from `cell`, or the assignment of `cell`.
#[derive(Clone, Copy)]
enum Change {
    Elim(u32, u16),
    Assign(u32),
}

/// How a search ended.
pub(crate) enum SearchEnd {
    /// The search space is exhausted (for generation: no grid; for counting: exact count).
    Complete,
    /// Enough solutions found.
    LimitReached,
    /// A budget limit ran out.
    Exhausted(Limit),
    /// The restart cutoff was reached (generation only).
    Cutoff,
}

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

pub(crate) struct Engine<const W: usize> {
    geo: Arc<Geometry>,
    size: usize,
    cand: Vec<DigitSet<W>>,
    value: Vec<u16>,
    /// `count[u * size + d - 1]`: cells of unit `u` (assigned or not) that still allow `d`.
    count: Vec<u32>,
    trail: Vec<Change>,
    queue: Vec<(u32, u16)>,
    hidden_queue: Vec<(u32, u16)>,
    unassigned: usize,
    /// Use hidden singles (a digit with one place left in a unit).
    pub hidden: bool,
    /// Generation: prefer the digit with fewest places left in the cell's units.
    pub pressure: bool,
    /// `bucket[l * words + k]`: bit `i` is set when unassigned cell `64k + i` has `l`
    /// candidates, so the fewest-candidates cell with the lowest index is found without
    /// scanning the grid.
    bucket: Vec<u64>,
    /// Unassigned cells with `l` candidates.
    bucket_len: Vec<u32>,
    words: usize,
}

struct Frame<const W: usize> {
    cell: u32,
    tried: DigitSet<W>,
    mark: usize,
}

impl<const W: usize> Engine<W> {
    pub fn new(order: Order, variant: Variant) -> Engine<W> {
        let geo = Geometry::get(order, variant);
        let size = order.size();
        let cells = order.cells();
        let units = geo.unit_count();
        // Force the peer table now, outside any timed search.
        let _ = geo.peers(0);
        Engine {
            geo,
            size,
            cand: vec![DigitSet::EMPTY; cells],
            value: vec![0; cells],
            count: vec![0; units * size],
            trail: Vec::new(),
            queue: Vec::new(),
            hidden_queue: Vec::new(),
            unassigned: cells,
            hidden: true,
            pressure: true,
            bucket: vec![0; (size + 1) * cells.div_ceil(64)],
            bucket_len: vec![0; size + 1],
            words: cells.div_ceil(64),
        }
    }

    pub fn order(&self) -> Order {
        self.geo.order()
    }

    pub fn variant(&self) -> Variant {
        self.geo.variant()
    }

    #[inline]
    fn bucket_add(&mut self, cell: usize, l: usize) {
        self.bucket[l * self.words + cell / 64] |= 1 << (cell % 64);
        self.bucket_len[l] += 1;
    }

    #[inline]
    fn bucket_remove(&mut self, cell: usize, l: usize) {
        self.bucket[l * self.words + cell / 64] &= !(1 << (cell % 64));
        self.bucket_len[l] -= 1;
    }

    /// Empties the grid; then applies the givens. False if the givens contradict (including
    /// by propagation).
    pub fn load(&mut self, givens: &Grid) -> bool {
        let full = DigitSet::full(self.size);
        self.cand.iter_mut().for_each(|c| *c = full);
        self.value.iter_mut().for_each(|v| *v = 0);
        let size = self.size as u32;
        self.count.iter_mut().for_each(|k| *k = size);
        self.trail.clear();
        self.queue.clear();
        self.hidden_queue.clear();
        self.unassigned = self.cand.len();
        self.bucket.iter_mut().for_each(|w| *w = 0);
        self.bucket_len.iter_mut().for_each(|k| *k = 0);
        for c in 0..self.cand.len() {
            self.bucket_add(c, self.size);
        }
        for (c, &d) in givens.cells().iter().enumerate() {
            if d != 0 {
                self.queue.push((c as u32, d));
            }
        }
        self.propagate()
    }

    /// The current grid (0 where unassigned).
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.order(), self.value.clone()).expect("engine digits are in range")
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("trail longer than mark") {
                Change::Elim(c, d) => {
                    let c = c as usize;
                    self.cand[c].insert(d as usize);
                    if self.value[c] == 0 {
                        let l = self.cand[c].len();
                        self.bucket_remove(c, l - 1);
                        self.bucket_add(c, l);
                    }
                    for &u in self.geo.cell_units(c) {
                        self.count[u as usize * self.size + d as usize - 1] += 1;
                    }
                }
                Change::Assign(c) => {
                    let c = c as usize;
                    self.value[c] = 0;
                    self.unassigned += 1;
                    self.bucket_add(c, self.cand[c].len());
                }
            }
        }
    }

    /// Removes `d` from `cell`'s candidates. False on a contradiction (a cell or a unit left
    /// without a place for a digit). Always completes its bookkeeping first, so undo is exact.
    fn eliminate(&mut self, cell: usize, d: usize) -> bool {
        self.cand[cell].remove(d);
        self.trail.push(Change::Elim(cell as u32, d as u16));
        let mut ok = true;
        for &u in self.geo.cell_units(cell) {
            let k = &mut self.count[u as usize * self.size + d - 1];
            *k -= 1;
            if *k == 0 {
                ok = false;
            } else if *k == 1 && self.hidden {
                self.hidden_queue.push((u, d as u16));
            }
        }
        let left = self.cand[cell].len();
        if self.value[cell] == 0 {
            self.bucket_remove(cell, left + 1);
            self.bucket_add(cell, left);
        }
        if left == 0 {
            return false;
        }
        if left == 1 && self.value[cell] == 0 {
            let only = self.cand[cell].first().expect("one candidate left");
            self.queue.push((cell as u32, only as u16));
        }
        ok
    }

    fn assign(&mut self, cell: usize, d: usize) -> bool {
        let v = self.value[cell] as usize;
        if v == d {
            return true;
        }
        if v != 0 || !self.cand[cell].contains(d) {
            return false;
        }
        self.value[cell] = d as u16;
        self.trail.push(Change::Assign(cell as u32));
        self.unassigned -= 1;
        self.bucket_remove(cell, self.cand[cell].len());
        let others = self.cand[cell].difference(&DigitSet::single(d));
        for e in others.iter() {
            if !self.eliminate(cell, e) {
                return false;
            }
        }
        let geo = Arc::clone(&self.geo);
        for &p in geo.peers(cell) {
            let p = p as usize;
            if self.cand[p].contains(d) && !self.eliminate(p, d) {
                return false;
            }
        }
        true
    }

    /// Runs the queues to a fixpoint. False on a contradiction (queues are then cleared).
    fn propagate(&mut self) -> bool {
        let ok = loop {
            if let Some((c, d)) = self.queue.pop() {
                if !self.assign(c as usize, d as usize) {
                    break false;
                }
            } else if let Some((u, d)) = self.hidden_queue.pop() {
                let (u, d) = (u as usize, d as usize);
                if self.count[u * self.size + d - 1] != 1 {
                    continue;
                }
                let place = self
                    .geo
                    .unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.cand[c].contains(d))
                    .expect("count says one cell allows d");
                if self.value[place] == 0 {
                    self.queue.push((place as u32, d as u16));
                }
            } else {
                break true;
            }
        };
        if !ok {
            self.queue.clear();
            self.hidden_queue.clear();
        }
        ok
    }

    /// Among `rem`, a digit with the fewest places left in one of `cell`'s units (the unit
    /// that needs it most urgently), ties broken at random.
    fn pressing_digit(&self, cell: usize, rem: DigitSet<W>, rng: &mut Rng) -> usize {
        let units = self.geo.cell_units(cell);
        let mut best = 0;
        let mut best_score = u32::MAX;
        let mut ties = 0u32;
        for d in rem.iter() {
            let score = units
                .iter()
                .map(|&u| self.count[u as usize * self.size + d - 1])
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

    /// The unassigned cell with fewest candidates, lowest index first. Row-major ties
    /// matter: filling in reading order among equals makes large grids far easier than
    /// random ties (order 8: about 0.1 s against timeouts of 10 s).
    fn pick_cell(&self) -> Option<usize> {
        let l = (1..=self.size).find(|&l| self.bucket_len[l] > 0)?;
        let words = &self.bucket[l * self.words..(l + 1) * self.words];
        words
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(k, &w)| k * 64 + w.trailing_zeros() as usize)
    }

    /// Depth-first search from the loaded (propagated) state.
    ///
    /// With `rng`, cells' ties and digit order are random (generation); without, digits go in
    /// increasing order (counting). `on_solution` gets each full grid and says whether to stop.
    /// `cutoff` ends the call with [`SearchEnd::Cutoff`] after that many nodes (restarts).
    pub fn search(
        &mut self,
        mut rng: Option<&mut Rng>,
        limits: &mut Limits,
        stats: &mut Stats,
        cutoff: Option<u64>,
        on_solution: &mut dyn FnMut(&Engine<W>) -> bool,
    ) -> SearchEnd {
        let start_nodes = stats.nodes;
        let mut frames: Vec<Frame<W>> = Vec::new();
        'descend: loop {
            if self.unassigned == 0 {
                if on_solution(self) {
                    return SearchEnd::LimitReached;
                }
            } else {
                let cell = self.pick_cell().expect("an unassigned cell exists");
                frames.push(Frame {
                    cell: cell as u32,
                    tried: DigitSet::EMPTY,
                    mark: self.trail.len(),
                });
            }
            // Try the next digit of the deepest frame that has one left.
            loop {
                let Some(f) = frames.last_mut() else {
                    return SearchEnd::Complete;
                };
                let (cell, mark) = (f.cell as usize, f.mark);
                // Back to the state in which this frame's cell was chosen (after a failed
                // digit, a popped child or a solution that did not stop the search).
                self.undo_to(mark);
                let f = frames.last_mut().expect("still there");
                let rem = self.cand[cell].difference(&f.tried);
                if rem.is_empty() {
                    frames.pop();
                    continue;
                }
                let d = match rng.as_deref_mut() {
                    Some(r) if self.pressure => self.pressing_digit(cell, rem, r),
                    Some(r) => {
                        let k = r.random_range(0..rem.len());
                        rem.iter().nth(k).expect("k < len")
                    }
                    None => rem.first().expect("not empty"),
                };
                f.tried.insert(d);
                if rem.len() > 1 {
                    stats.guesses += 1;
                }
                stats.nodes += 1;
                if limits.max_nodes.is_some_and(|m| stats.nodes > m) {
                    self.undo_to(frames[0].mark);
                    return SearchEnd::Exhausted(Limit::Nodes);
                }
                if limits.deadline.expired() {
                    self.undo_to(frames[0].mark);
                    return SearchEnd::Exhausted(Limit::Time);
                }
                if cutoff.is_some_and(|c| stats.nodes - start_nodes > c) {
                    self.undo_to(frames[0].mark);
                    return SearchEnd::Cutoff;
                }
                self.queue.push((cell as u32, d as u16));
                if self.propagate() {
                    continue 'descend;
                }
            }
        }
    }
}

/// An engine of whichever width the order needs, so callers monomorphise once.
pub(crate) enum AnyEngine {
    W1(Engine<1>),
    W2(Engine<2>),
    W4(Engine<4>),
}

/// Runs `$body` with `$e` bound to the engine inside, whatever its width.
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

impl AnyEngine {
    pub fn new(order: Order, variant: Variant) -> AnyEngine {
        match order.words() {
            1 => AnyEngine::W1(Engine::new(order, variant)),
            2 => AnyEngine::W2(Engine::new(order, variant)),
            _ => AnyEngine::W4(Engine::new(order, variant)),
        }
    }

    /// Reuses `slot` when it already fits (order, variant), else builds a new engine there.
    pub fn reuse(slot: &mut Option<AnyEngine>, order: Order, variant: Variant) -> &mut AnyEngine {
        let fits = slot
            .as_ref()
            .is_some_and(|e| with_engine!(e, x => x.order() == order && x.variant() == variant));
        if !fits {
            *slot = Some(AnyEngine::new(order, variant));
        }
        slot.as_mut().expect("just filled")
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
        e.hidden = true;
        if !e.load(puzzle.givens()) {
            SearchEnd::Complete
        } else if limit == 0 {
            SearchEnd::LimitReached
        } else {
            e.search(None, &mut limits, &mut stats, None, &mut |s| {
                count += 1;
                if collect {
                    sols.push(s.grid());
                }
                count >= limit
            })
        }
    });
    let end = match end {
        SearchEnd::Complete => CountEnd::Complete,
        SearchEnd::LimitReached => CountEnd::LimitReached,
        SearchEnd::Exhausted(l) => CountEnd::Exhausted(l),
        SearchEnd::Cutoff => unreachable!("no cutoff when counting"),
    };
    (count, end, sols, stats)
}
