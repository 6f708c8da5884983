//! `tabu`: tabu search on Sudoku as list colouring.
//!
//! The puzzle is first reduced by naked and hidden singles ([`propagate_singles`]); every cell
//! still open is a vertex whose list of colours is its candidates (the digits no fixed peer
//! holds), and two open cells that share a unit are adjacent. An assignment gives every open
//! cell one of its candidates; its cost is the number of adjacent pairs with the same digit
//! (0 = a solution). This is how Jin and Hao (2019, IEEE Trans. Evol. Comput., "Solving the
//! Latin square completion problem by memetic graph coloring") treat Latin square completion;
//! Sudoku only adds the blocks (and the diagonals of Sudoku-X) to the units.
//!
//! The search is TabuCol (Hertz and de Werra 1987) with the dynamic tenure of Galinier and Hao
//! (1999): a move gives one conflicting cell another of its candidates; each step makes the
//! best move that is not tabu (ties at random), or a tabu one that reaches a cost below the
//! best so far (aspiration). The digit a cell leaves is tabu for it for
//! `U(0, tenure) + lambda · (conflicting cells)` steps.
//!
//! Speed (the step is all the method does): a count, per open cell and candidate, of the
//! neighbours holding that digit makes a move's change of cost one subtraction; a move updates
//! only the neighbours that have the digits it leaves and takes as candidates; and each cell
//! keeps its best moves between steps, rescanned only when a neighbour's move or a tabu
//! expiry touches it, so that a step reads one summary per conflicting cell instead of every
//! candidate of every conflicting cell. This makes 1.8–2.8× more steps per second than a
//! scan of every candidate at 36×36–64×64 (crates/meta/README.md), by the same rule.
//!
//! The start is greedy: cells with fewer candidates first (ties at random), each taking the
//! candidate that clashes least with the cells already filled.
//!
//! [`TabuSearch`] is the engine, usable step by step (the `hybrid` method of `sudoku-hybrid`
//! interleaves it with a complete solver); [`Tabu`] is the [`Solver`].

use rand::seq::SliceRandom as _;
use rand::Rng as _;
use sudoku_core::{
    number_param, Budget, Grid, Outcome, Param, ParamError, ParamSpec, Params, Puzzle, Rng, Solver,
    Stats, Status,
};

use crate::propagate::{propagate_singles, Contradiction};
use crate::run::Run;
use crate::TRACE;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "tabu";

/// The configuration of [`Tabu`]; see [`TABU_PARAMS`] for each field's meaning and default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TabuConfig {
    /// Tabu tenure per conflicting cell.
    pub lambda: f64,
    /// The random part of the tenure is drawn from `0..tenure` (0: none).
    pub tenure: u64,
    /// Record the best cost each time it improves.
    pub trace: bool,
}

impl Default for TabuConfig {
    fn default() -> Self {
        TabuConfig {
            lambda: LAMBDA.default,
            tenure: TENURE.default,
            trace: TRACE.default,
        }
    }
}

const LAMBDA: Param<f64> = number_param!(
    "lambda",
    f64,
    0.5,
    0.0..=100.0,
    "tabu tenure per conflicting cell: a cell may not take back the digit it left for \
     U(0, tenure) + lambda × (cells in conflict) steps (Galinier & Hao: 0.6; 0.5 measured \
     best over 36×36-64×64, crates/meta/README.md)"
);
const TENURE: Param<u64> = number_param!(
    "tenure",
    u64,
    10,
    0..=1000000,
    "random part of the tabu tenure, drawn from 0..tenure (Galinier & Hao: 10)"
);

/// The documented parameters of `tabu`.
pub const TABU_PARAMS: &[ParamSpec] = &[LAMBDA.spec, TENURE.spec, TRACE.spec];

impl TabuConfig {
    /// Reads a configuration from named parameters; unknown keys and bad values are errors.
    pub fn from_params(p: &Params) -> Result<TabuConfig, ParamError> {
        p.check_known(NAME, TABU_PARAMS)?;
        Ok(TabuConfig {
            lambda: LAMBDA.read(p)?,
            tenure: TENURE.read(p)?,
            trace: TRACE.read(p)?,
        })
    }
}

/// The state of one tabu search on one puzzle: the list-colouring graph, the current
/// assignment and the best one so far.
///
/// Every (open cell, candidate) pair is a *slot*; a cell's slots are contiguous, in digit
/// order. Clash counts and tabu marks are kept per slot, so a step's scan reads a few
/// adjacent entries per cell instead of a whole row of `N` digits, and a move updates only
/// the neighbours that have the digits involved as candidates (the others can never take
/// them); [`Reach`] says how it finds them.
#[derive(Clone, Debug)]
pub struct TabuSearch {
    /// Givens plus the cells singles propagation fixed; open cells 0.
    fixed: Grid,
    /// The grid cell of each vertex.
    cell: Vec<u32>,
    /// Slots of vertex `v`: `slot_at[v]..slot_at[v + 1]`.
    slot_at: Vec<u32>,
    /// The digit (0-based) of each slot.
    digit: Vec<u8>,
    /// How a move finds the slots whose clash counts it changes.
    reach: Reach,
    /// The slot each vertex holds.
    colour: Vec<u32>,
    /// `clash[s]`: neighbours of slot `s`'s vertex that hold its digit.
    clash: Vec<u16>,
    /// Vertices in conflict, and each vertex's place in that list (`u32::MAX`: not in it).
    conflicted: Vec<u32>,
    place: Vec<u32>,
    /// `until[s]`: the step up to which slot `s`'s vertex may not take its digit.
    until: Vec<u32>,
    /// Steps since the tabu table was last cleared (it is cleared before the counter wraps).
    clock: u32,
    cost: u64,
    best_cost: u64,
    best: Vec<u32>,
    steps: u64,
    lambda: f64,
    tenure: u64,
    /// Each vertex's best moves, kept between steps and recomputed only when stale.
    local: Vec<LocalBest>,
}

/// How a move finds, for a digit, the slots of that digit in the adjacent open cells.
#[derive(Clone, Debug)]
enum Reach {
    /// Per slot, the same-digit slots of the open neighbours: `links[at[s]..at[s + 1]]`.
    /// The quickest to walk, and what is built while it stays under [`LINK_BUDGET`].
    Links { at: Vec<u32>, links: Vec<Link> },
    /// The open neighbours of each vertex (`adj[adj_at[v]..adj_at[v + 1]]`) and the slot of
    /// each (vertex, digit) pair (`slot_of[v · N + d]`, `u32::MAX`: not a candidate). Memory
    /// linear in cells × (digits + peers), for large grids with few givens, where the links
    /// would grow with cells × digits × peers (gigabytes for a nearly empty 100×100 grid).
    Table {
        size: usize,
        slot_of: Vec<u32>,
        adj_at: Vec<u32>,
        adj: Vec<u32>,
    },
}

impl Default for Reach {
    /// An empty placeholder, swapped in while a move walks the real one.
    fn default() -> Self {
        Reach::Links {
            at: Vec::new(),
            links: Vec::new(),
        }
    }
}

/// The most links built (8 bytes each: 256 MiB); past it a move looks its neighbours up in
/// the table instead. Hard-region puzzles up to 64×64 stay well under it.
const LINK_BUDGET: u64 = 1 << 25;

/// A same-digit slot of an adjacent open cell.
#[derive(Clone, Copy, Debug)]
struct Link {
    vertex: u32,
    slot: u32,
}

/// The best moves of one vertex: the least change of cost among its digits that are not
/// tabu, and among those that are, with how many digits reach each. Kept between steps: it
/// goes stale when a neighbour takes or leaves one of its digits or the vertex moves, and
/// expires when one of its tabu digits is freed.
#[derive(Clone, Copy, Debug)]
struct LocalBest {
    free: i32,
    free_ties: u32,
    tabu: i32,
    tabu_ties: u32,
    /// The first step at which one of its tabu digits is free again.
    expires: u32,
    stale: bool,
}

impl LocalBest {
    const STALE: LocalBest = LocalBest {
        free: i32::MAX,
        free_ties: 0,
        tabu: i32::MAX,
        tabu_ties: 0,
        expires: 0,
        stale: true,
    };

    /// Scans the slots `at` of a vertex holding slot `now`.
    #[inline]
    fn of(now: u32, at: std::ops::Range<u32>, clash: &[u16], until: &[u32], clock: u32) -> Self {
        let here = clash[now as usize] as i32;
        let at = at.start as usize..at.end as usize;
        // Branch-free, in two passes (the least, then how many reach it): which digits are
        // tabu and which is least are what a branch would mispredict.
        let key = |s: usize| {
            let delta = clash[s] as i32 - here;
            let barred = s == now as usize;
            let tabu = until[s] > clock;
            let free = if barred || tabu { i32::MAX } else { delta };
            let tabu = if barred || !tabu { i32::MAX } else { delta };
            (free, tabu)
        };
        let (mut free, mut tabu, mut expires) = (i32::MAX, i32::MAX, u32::MAX);
        for s in at.clone() {
            let (f, t) = key(s);
            free = free.min(f);
            tabu = tabu.min(t);
            let u = until[s];
            expires = expires.min(if u > clock { u } else { u32::MAX });
        }
        let (mut free_ties, mut tabu_ties) = (0, 0);
        for s in at {
            let (f, t) = key(s);
            free_ties += (f == free && f != i32::MAX) as u32;
            tabu_ties += (t == tabu && t != i32::MAX) as u32;
        }
        LocalBest {
            free,
            free_ties,
            tabu,
            tabu_ties,
            expires,
            stale: false,
        }
    }

    /// The least change of cost among the allowed moves, and how many reach it (0: none is
    /// allowed). A tabu move is allowed below `aspire`.
    #[inline]
    fn allowed(&self, aspire: i64) -> (i64, u64) {
        let (free, tabu) = (self.free as i64, self.tabu as i64);
        if tabu < aspire && tabu <= free {
            let also = if free == tabu { self.free_ties } else { 0 };
            (tabu, (self.tabu_ties + also) as u64)
        } else {
            (free, self.free_ties as u64)
        }
    }
}

/// Cleared well before `u32::MAX`, so that `clock + tenure` never wraps.
const CLOCK_LIMIT: u32 = u32::MAX / 2;

impl TabuSearch {
    /// Propagates singles, builds the graph and the greedy start. A contradiction found by
    /// propagation proves the puzzle has no solution.
    pub fn new(puzzle: &Puzzle, cfg: &TabuConfig, rng: &mut Rng) -> Result<Self, Contradiction> {
        Self::with_link_budget(puzzle, cfg, rng, LINK_BUDGET)
    }

    fn with_link_budget(
        puzzle: &Puzzle,
        cfg: &TabuConfig,
        rng: &mut Rng,
        link_budget: u64,
    ) -> Result<Self, Contradiction> {
        let fixed = propagate_singles(puzzle)?.grid;
        let geo = puzzle.geometry();
        let size = puzzle.order().size();
        let cells = fixed.cells();
        let mut vertex = vec![u32::MAX; cells.len()];
        let cell: Vec<u32> = (0..cells.len() as u32)
            .filter(|&c| cells[c as usize] == 0)
            .collect();
        for (v, &c) in cell.iter().enumerate() {
            vertex[c as usize] = v as u32;
        }
        let (mut slot_at, mut digit) = (vec![0u32], Vec::new());
        let mut slot_of = vec![u32::MAX; cell.len() * size];
        let (mut adj_at, mut adj) = (vec![0u32], Vec::new());
        let mut taken = vec![false; size];
        for (v, &c) in cell.iter().enumerate() {
            taken.iter_mut().for_each(|t| *t = false);
            for &p in geo.peers(c as usize) {
                let d = cells[p as usize];
                if d == 0 {
                    adj.push(vertex[p as usize]);
                } else {
                    taken[d as usize - 1] = true;
                }
            }
            // Digits are at most 256, so 0-based they fit a byte.
            for d in (0..size).filter(|&d| !taken[d]) {
                slot_of[v * size + d] = digit.len() as u32;
                digit.push(d as u8);
            }
            slot_at.push(digit.len() as u32);
            adj_at.push(adj.len() as u32);
        }
        // At most (candidates × open neighbours) links per cell.
        let most: u64 = (0..cell.len())
            .map(|v| ((slot_at[v + 1] - slot_at[v]) as u64) * ((adj_at[v + 1] - adj_at[v]) as u64))
            .sum();
        let reach = if most <= link_budget {
            let (mut at, mut links) = (vec![0u32], Vec::new());
            for v in 0..cell.len() {
                for s in slot_at[v]..slot_at[v + 1] {
                    let d = digit[s as usize] as usize;
                    for &u in &adj[adj_at[v] as usize..adj_at[v + 1] as usize] {
                        let slot = slot_of[u as usize * size + d];
                        if slot != u32::MAX {
                            links.push(Link { vertex: u, slot });
                        }
                    }
                    at.push(links.len() as u32);
                }
            }
            Reach::Links { at, links }
        } else {
            Reach::Table {
                size,
                slot_of,
                adj_at,
                adj,
            }
        };
        let (nv, ns) = (cell.len(), digit.len());
        let mut s = TabuSearch {
            fixed,
            cell,
            slot_at,
            digit,
            reach,
            colour: vec![0; nv],
            clash: vec![0; ns],
            conflicted: Vec::new(),
            place: vec![u32::MAX; nv],
            until: vec![0; ns],
            clock: 0,
            cost: 0,
            best_cost: u64::MAX,
            best: Vec::new(),
            steps: 0,
            lambda: cfg.lambda,
            tenure: cfg.tenure,
            local: vec![LocalBest::STALE; nv],
        };
        s.greedy_start(rng);
        Ok(s)
    }

    fn slots(&self, v: usize) -> std::ops::Range<u32> {
        self.slot_at[v]..self.slot_at[v + 1]
    }

    /// Calls `f` with each open neighbour of `v` that has the digit of `v`'s slot `s` as a
    /// candidate, and that neighbour's slot of it.
    #[inline]
    fn each_same_digit(&mut self, v: usize, s: u32, mut f: impl FnMut(&mut Self, u32, u32)) {
        // Taken out for the walk, so that `f` may change everything else; moving it costs a
        // few words.
        let reach = std::mem::take(&mut self.reach);
        match &reach {
            Reach::Links { at, links } => {
                for l in &links[at[s as usize] as usize..at[s as usize + 1] as usize] {
                    f(self, l.vertex, l.slot);
                }
            }
            Reach::Table {
                size,
                slot_of,
                adj_at,
                adj,
            } => {
                let d = self.digit[s as usize] as usize;
                for &u in &adj[adj_at[v] as usize..adj_at[v + 1] as usize] {
                    let theirs = slot_of[u as usize * size + d];
                    if theirs != u32::MAX {
                        f(self, u, theirs);
                    }
                }
            }
        }
        self.reach = reach;
    }

    /// What [`TabuSearch::each_same_digit`] visits, as a list.
    #[cfg(test)]
    fn same_digit(&self, v: usize, s: u32) -> Vec<(u32, u32)> {
        match &self.reach {
            Reach::Links { at, links } => links
                [at[s as usize] as usize..at[s as usize + 1] as usize]
                .iter()
                .map(|l| (l.vertex, l.slot))
                .collect(),
            Reach::Table {
                size,
                slot_of,
                adj_at,
                adj,
            } => adj[adj_at[v] as usize..adj_at[v + 1] as usize]
                .iter()
                .map(|&u| {
                    (
                        u,
                        slot_of[u as usize * size + self.digit[s as usize] as usize],
                    )
                })
                .filter(|&(_, theirs)| theirs != u32::MAX)
                .collect(),
        }
    }

    /// A neighbour's slot `slot` gained (`up`) or lost a clash.
    #[inline]
    fn shift(&mut self, u: u32, slot: u32, up: bool) {
        if up {
            self.clash[slot as usize] += 1;
        } else {
            self.clash[slot as usize] -= 1;
        }
        self.local[u as usize].stale = true;
        // Only a neighbour holding the digit can change between clashing and not.
        if self.colour[u as usize] == slot {
            self.update_conflicted(u as usize);
        }
    }

    fn greedy_start(&mut self, rng: &mut Rng) {
        let nv = self.cell.len();
        let mut order: Vec<usize> = (0..nv).collect();
        order.shuffle(rng);
        order.sort_by_key(|&v| self.slot_at[v + 1] - self.slot_at[v]);
        for &v in &order {
            let (mut least, mut pick, mut ties) = (u16::MAX, self.slot_at[v], 0u32);
            for s in self.slots(v) {
                let k = self.clash[s as usize];
                if k < least {
                    (least, pick, ties) = (k, s, 1);
                } else if k == least {
                    ties += 1;
                    if rng.random_range(0..ties) == 0 {
                        pick = s;
                    }
                }
            }
            self.colour[v] = pick;
            self.each_same_digit(v, pick, |s, _, slot| s.clash[slot as usize] += 1);
        }
        let mut twice = 0u64;
        for v in 0..nv {
            twice += self.clash[self.colour[v] as usize] as u64;
            self.update_conflicted(v);
        }
        self.cost = twice / 2;
        self.save_best();
    }

    /// Puts `v` in or takes it out of the conflict list, as its clash count says.
    #[inline]
    fn update_conflicted(&mut self, v: usize) {
        let clashes = self.clash[self.colour[v] as usize] > 0;
        let listed = self.place[v] != u32::MAX;
        if clashes && !listed {
            self.place[v] = self.conflicted.len() as u32;
            self.conflicted.push(v as u32);
        } else if !clashes && listed {
            let at = self.place[v] as usize;
            let last = self.conflicted.pop().expect("v is listed");
            if last as usize != v {
                self.conflicted[at] = last;
                self.place[last as usize] = at as u32;
            }
            self.place[v] = u32::MAX;
        }
    }

    /// The current number of clashing pairs (0 = solved).
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The lowest cost seen.
    pub fn best_cost(&self) -> u64 {
        self.best_cost
    }

    /// Steps made so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Open cells after propagation (the vertices).
    pub fn open_cells(&self) -> usize {
        self.cell.len()
    }

    /// Candidates over all open cells (the colours to choose from).
    pub fn candidate_count(&self) -> usize {
        self.digit.len()
    }

    /// Records the current assignment as the best when its cost is lower; returns whether it
    /// was.
    #[inline]
    fn save_best(&mut self) -> bool {
        if self.cost >= self.best_cost {
            return false;
        }
        self.best_cost = self.cost;
        self.best.clear();
        self.best.extend_from_slice(&self.colour);
        true
    }

    /// The best assignment as a grid (a solution when [`TabuSearch::best_cost`] is 0).
    pub fn best_grid(&self) -> Grid {
        let mut grid = self.fixed.clone();
        for (v, &c) in self.cell.iter().enumerate() {
            grid.set(c as usize, self.digit[self.best[v] as usize] as u16 + 1);
        }
        grid
    }

    /// One step: the best allowed move of a conflicting cell. Returns the new cost. Does
    /// nothing on a solution.
    #[inline]
    pub fn step(&mut self, rng: &mut Rng) -> u64 {
        if self.cost == 0 {
            return 0;
        }
        self.steps += 1;
        self.clock += 1;
        if self.clock >= CLOCK_LIMIT {
            self.until.iter_mut().for_each(|t| *t = 0);
            self.local.iter_mut().for_each(|b| *b = LocalBest::STALE);
            self.clock = 1;
        }
        // A tabu move is allowed only below this change of cost (aspiration: it reaches a
        // cost below the best so far).
        let aspire = self.best_cost as i64 - self.cost as i64;
        let clock = self.clock;
        let (mut least, mut ties, mut first) = (i64::MAX, 0u64, 0);
        for (at, &v) in self.conflicted.iter().enumerate() {
            let b = &mut self.local[v as usize];
            if b.stale || clock >= b.expires {
                let at = self.slot_at[v as usize]..self.slot_at[v as usize + 1];
                *b = LocalBest::of(self.colour[v as usize], at, &self.clash, &self.until, clock);
            }
            let (m, k) = b.allowed(aspire);
            if m < least {
                (least, ties, first) = (m, k, at);
            } else if m == least {
                ties += k;
            }
        }
        // One of the best moves at random (their order: the conflict list, then digits);
        // every move tabu: a random one. Open cells keep at least two candidates after
        // singles propagation (a cell with one would have been filled), so a conflicting
        // cell always has another digit; the guard only keeps a broken invariant from
        // panicking.
        let (v, s) = if ties == 0 {
            let v = self.conflicted[rng.random_range(0..self.conflicted.len())];
            let slots = self.slots(v as usize);
            if slots.len() < 2 {
                return self.cost;
            }
            let now = self.colour[v as usize] - slots.start;
            let k = rng.random_range(0..slots.len() as u32 - 1);
            (v, slots.start + if k >= now { k + 1 } else { k })
        } else {
            let r = rng.random_range(0..ties as usize) as u64;
            self.nth_best(first, r, least, aspire)
        };
        self.apply(v as usize, s, rng);
        self.save_best();
        self.cost
    }

    /// The `r`-th (from 0) allowed move whose change of cost is `least`, in the order of the
    /// conflict list and then of digits, starting at the list's `first` vertex that reaches
    /// it. Every conflicted vertex's [`LocalBest`] is fresh.
    fn nth_best(&self, first: usize, mut r: u64, least: i64, aspire: i64) -> (u32, u32) {
        for &v in &self.conflicted[first..] {
            let (m, k) = self.local[v as usize].allowed(aspire);
            if m != least {
                continue;
            }
            if r >= k {
                r -= k;
                continue;
            }
            let now = self.colour[v as usize];
            let here = self.clash[now as usize] as i64;
            for s in self.slots(v as usize) {
                let delta = self.clash[s as usize] as i64 - here;
                let tabu = self.until[s as usize] > self.clock;
                if s == now || delta != least || (tabu && delta >= aspire) {
                    continue;
                }
                if r == 0 {
                    return (v, s);
                }
                r -= 1;
            }
        }
        unreachable!("the ties counted are listed")
    }

    /// Moves vertex `v` to slot `to`.
    fn apply(&mut self, v: usize, to: u32, rng: &mut Rng) {
        let from = self.colour[v];
        let before = self.clash[from as usize] as u64;
        let after = self.clash[to as usize] as u64;
        self.cost = self.cost + after - before;
        self.colour[v] = to;
        let random = if self.tenure > 0 {
            rng.random_range(0..self.tenure)
        } else {
            0
        };
        let tenure = random + (self.lambda * self.conflicted.len() as f64) as u64;
        self.until[from as usize] = self
            .clock
            .saturating_add(tenure.min(CLOCK_LIMIT as u64) as u32);
        self.each_same_digit(v, from, |s, u, slot| s.shift(u, slot, false));
        self.each_same_digit(v, to, |s, u, slot| s.shift(u, slot, true));
        self.local[v].stale = true;
        self.update_conflicted(v);
    }
}

/// Tabu search on list colouring (registered as `tabu`).
#[derive(Clone, Debug, Default)]
pub struct Tabu {
    /// Its configuration.
    pub config: TabuConfig,
}

impl Tabu {
    /// A solver with this configuration.
    pub fn new(config: TabuConfig) -> Tabu {
        Tabu { config }
    }
}

impl Solver for Tabu {
    fn name(&self) -> &str {
        NAME
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        let mut stats = Stats::default();
        let mut search = match TabuSearch::new(puzzle, &cfg, rng) {
            Ok(s) => s,
            Err(why) => {
                stats.extra.push(("infeasible".into(), why.to_string()));
                return Outcome {
                    status: Status::Infeasible,
                    stats,
                };
            }
        };
        stats
            .extra
            .push(("open_cells".into(), search.open_cells().to_string()));
        stats
            .extra
            .push(("candidates".into(), search.candidate_count().to_string()));
        let mut run = Run::new(budget, 1024, cfg.trace, stats);
        run.offer(search.cost());
        while search.cost() > 0 && !run.should_stop() {
            let cost = search.step(rng);
            run.iterations = search.steps();
            run.offer(cost);
        }
        let grid = search.best_grid();
        run.finish(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::fixtures::carved_pattern;
    use sudoku_core::rng_from_seed;

    /// The best allowed moves by a scan of every slot of every conflicted vertex, as the
    /// plain TabuCol step makes them.
    fn brute_best(s: &TabuSearch, clock: u32) -> (i64, Vec<(u32, u32)>) {
        let aspire = s.best_cost as i64 - s.cost as i64;
        let (mut least, mut moves) = (i64::MAX, Vec::new());
        for &v in &s.conflicted {
            let now = s.colour[v as usize];
            let here = s.clash[now as usize] as i64;
            for slot in s.slots(v as usize) {
                let delta = s.clash[slot as usize] as i64 - here;
                if slot == now || (s.until[slot as usize] > clock && delta >= aspire) {
                    continue;
                }
                if delta < least {
                    (least, moves) = (delta, Vec::new());
                }
                if delta == least {
                    moves.push((v, slot));
                }
            }
        }
        (least, moves)
    }

    /// Recounts every incremental structure from the colours alone.
    fn check_bookkeeping(s: &TabuSearch) {
        let mut twice = 0;
        for v in 0..s.cell.len() {
            for slot in s.slots(v) {
                let holding = s
                    .same_digit(v, slot)
                    .into_iter()
                    .filter(|&(u, theirs)| s.colour[u as usize] == theirs)
                    .count();
                assert_eq!(
                    s.clash[slot as usize] as usize, holding,
                    "clash of slot {slot}"
                );
            }
            let k = s.clash[s.colour[v] as usize];
            twice += k as u64;
            assert_eq!(
                k > 0,
                s.place[v] != u32::MAX,
                "vertex {v} listed iff in conflict"
            );
        }
        assert_eq!(s.cost, twice / 2);
        for (at, &v) in s.conflicted.iter().enumerate() {
            assert_eq!(s.place[v as usize] as usize, at);
        }
        // A cached best that the next step will trust must be what a scan would find then.
        let next = s.clock + 1;
        for v in 0..s.cell.len() {
            let b = s.local[v];
            if b.stale || next >= b.expires {
                continue;
            }
            let fresh = LocalBest::of(s.colour[v], s.slots(v), &s.clash, &s.until, next);
            assert_eq!(
                (b.free, b.free_ties, b.tabu, b.tabu_ties),
                (fresh.free, fresh.free_ties, fresh.tabu, fresh.tabu_ties),
                "cached best moves of vertex {v} at step {}",
                s.steps
            );
        }
    }

    #[test]
    fn each_step_makes_one_of_the_best_allowed_moves_and_keeps_its_books() {
        // Both ways of reaching the neighbours: links, and the table (a link budget of 0).
        let cases = [(3, 0.3, 0.45), (4, 0.4, 0.6), (5, 0.45, 0.45)];
        for ((n, keep, lambda), budget) in
            cases.into_iter().flat_map(|c| [(c, LINK_BUDGET), (c, 0)])
        {
            let p = carved_pattern(n, keep, 5);
            let cfg = TabuConfig {
                lambda,
                ..TabuConfig::default()
            };
            let mut rng = rng_from_seed(n as u64);
            let mut s = TabuSearch::with_link_budget(&p, &cfg, &mut rng, budget)
                .expect("carved puzzles are feasible");
            assert_eq!(matches!(s.reach, Reach::Table { .. }), budget == 0);
            check_bookkeeping(&s);
            for _ in 0..3000 {
                if s.cost == 0 {
                    break;
                }
                let (least, best) = brute_best(&s, s.clock + 1);
                let before = s.colour.clone();
                s.step(&mut rng);
                let moved: Vec<(u32, u32)> = (0..before.len())
                    .filter(|&v| before[v] != s.colour[v])
                    .map(|v| (v as u32, s.colour[v]))
                    .collect();
                assert_eq!(moved.len(), 1, "one cell moves per step");
                if !best.is_empty() {
                    assert!(
                        best.contains(&moved[0]),
                        "step {}: {:?} is not among the best moves {best:?} (change {least})",
                        s.steps,
                        moved[0]
                    );
                }
                check_bookkeeping(&s);
            }
        }
    }

    #[test]
    fn a_nearly_empty_large_grid_is_reached_through_the_table() {
        // 100×100 without givens: links would take 10,000 cells × 100 digits × 297 peers.
        let order = sudoku_core::Order::new(10).expect("order 10 is supported");
        let p = Puzzle::new(Grid::empty(order), sudoku_core::Variant::Classic);
        let mut rng = rng_from_seed(1);
        let mut s = TabuSearch::new(&p, &TabuConfig::default(), &mut rng).expect("feasible");
        assert!(matches!(s.reach, Reach::Table { .. }));
        // A hard-region 36×36 puzzle stays under the link budget.
        let q = carved_pattern(6, 0.5, 1);
        let t = TabuSearch::new(&q, &TabuConfig::default(), &mut rng).expect("feasible");
        assert!(matches!(t.reach, Reach::Links { .. }));
        for _ in 0..100 {
            s.step(&mut rng);
        }
        check_bookkeeping(&s);
    }
}
