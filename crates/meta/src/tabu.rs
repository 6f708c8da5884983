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
//! scan of every candidate at 36×36–64×64 (docs/notes/tabu-tenure-and-step.md), by the same rule.
//!
//! The start is greedy: cells with fewer candidates first (ties at random), each taking the
//! candidate that clashes least with the cells already filled.
//!
//! Two options come from AllDiff-LS's Sudoku-LS (github.com/Ailuras/AllDIff-LS; the scheme, not
//! its code), off by default: `select=cell` chooses the cell first (the conflicting one with the
//! most clashes among those a neighbour clashed with since it last moved: configuration
//! checking), then its digit; `pool=K` runs segments of `segment` steps, each from an
//! assignment drawn from up to K distinct ones of the best cost seen, and with `weights=k` the
//! pairs that still clash at a segment's end gain weight (probability 1/k) for the moves'
//! choice, until a better cost resets them. Together they answer 49×49 at 50 % givens far more
//! often within 30 s, and are slower at 36×36 (docs/notes/tabu-pooled-scheme.md).
//!
//! [`TabuSearch`] is the engine, usable step by step (the `hybrid` method of `sudoku-hybrid`
//! interleaves it with a complete solver); [`Tabu`] is the [`Solver`].

use rand::seq::SliceRandom as _;
use rand::Rng as _;
use sudoku_core::{Budget, Deadline, Grid, Limit, Outcome, Puzzle, Rng, Solver, Stats, Status};

use crate::propagate::{propagate_singles_until, Contradiction};
use crate::run::Run;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "tabu";

/// How a step of [`TabuSearch`] chooses its move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// TabuCol: the best allowed (cell, digit) pair over every conflicting cell.
    #[default]
    Pair,
    /// The conflicting cell with the most (weighted) clashes, among those a neighbour has
    /// clashed with since the cell last moved (configuration checking), then its best allowed
    /// digit; a cell that no digit improves keeps its digit and waits. Pair steps take over
    /// for a while when such a cell's digit is already tabu.
    Cell,
}

sudoku_core::config! {
    /// The configuration of [`Tabu`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct TabuConfig for NAME {
        lambda: f64 = 0.5 in 0.0..=100.0,
            "tabu tenure per conflicting cell: a cell may not take back the digit it left for U(0, \
             tenure) + lambda × (cells in conflict) steps (Galinier & Hao: 0.6; 0.5 measured best \
             over 36×36-64×64, docs/notes/tabu-tenure-and-step.md)";
        tenure: u64 = 10 in 0..=1000000,
            "random part of the tabu tenure, drawn from 0..tenure (Galinier & Hao: 10)";
        select: Select = "pair"
            of sudoku_core::choices!["pair" => Select::Pair, "cell" => Select::Cell],
            "pair: the best (cell, digit) move over every conflicting cell (TabuCol); cell: the \
             conflicting cell with the most clashes among those a neighbour clashed with since it \
             last moved, then its best digit (AllDiff-LS's Sudoku-LS)";
        pool: usize = 0 in 0..=10000,
            "0: one search. Else iterated segments: each starts, with an empty tabu list, from an \
             assignment drawn from a pool of up to this many distinct ones of the best cost seen; \
             a new best empties the pool (AllDiff-LS's Sudoku-LS: 50)";
        segment: u64 = 100000 in 1..=1000000000000,
            "with a pool: steps of a segment; a segment that ends above the best cost gives its \
             start 4 × this many more steps next time";
        weights: u32 = 0 in 0..=1000000,
            "with a pool: 0, no weights; k, each clashing pair of a segment that ends at the best \
             cost gains weight 1 with probability 1/k, and moves are chosen by weighted clashes; a \
             new best resets the weights (AllDiff-LS's Sudoku-LS: 5)";
        restart: u64 = 0 in 0..=1000000000000,
            "with a pool: 0, never; else after this many steps without a new lowest cost the pool \
             and weights are dropped and the search starts again from a new greedy start (measured \
             no help at 49x49 with 50 % givens, docs/notes/tabu-pooled-scheme.md)";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
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
    /// Boxed, so that a walk takes it out and puts it back by moving a pointer; `None` only
    /// during a walk.
    reach: Option<Box<Reach>>,
    /// The slot each vertex holds.
    colour: Vec<u32>,
    /// `clash[s]`: neighbours of slot `s`'s vertex that hold its digit.
    clash: Vec<u16>,
    /// `count[s]`: as `clash`, unweighted; kept only when `weighted` (else `clash` is it).
    count: Vec<u16>,
    /// Whether pairs may carry weights other than 1.
    weighted: bool,
    /// Weight of each directed adjacency entry (`nbr`), and its reverse entry. At most
    /// [`MAX_WEIGHT`], so that a clash count (at most one holder per unit, five units) fits 16
    /// bits.
    weight: Vec<u16>,
    twin: Vec<u32>,
    nbr_at: Vec<u32>,
    nbr: Vec<u32>,
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
    select: Select,
    /// Cell selection: may the vertex be chosen (a neighbour took its digit since it last
    /// moved or declined)?
    open_to: Vec<bool>,
    /// Cell selection: steps left in pair mode.
    pair_steps: u32,
    /// Keep the latest of equally good assignments as the best (pool segments).
    save_ties: bool,
}

/// How a move finds, for a digit, the slots of that digit in the adjacent open cells.
#[derive(Clone, Debug)]
enum Reach {
    /// Per slot, the same-digit slots of the open neighbours: `links[at[s]..at[s + 1]]`.
    /// The quickest to walk, and what is built while it stays under [`LINK_BUDGET`].
    /// `edges[i]`: the pair (an index into the weights) of `links[i]`, apart so that an
    /// unweighted walk reads 8 bytes a link; empty without weights. `weights[i]`: that pair's
    /// weight, copied whenever the weights change (once a segment), so that a weighted walk
    /// reads them in order instead of looking each pair up.
    Links {
        at: Vec<u32>,
        links: Vec<Link>,
        edges: Vec<u32>,
        weights: Vec<u16>,
    },
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
/// expires when one of its tabu digits is freed. Sixteen bytes, so that a step's scan of the
/// conflicting vertices reads four to a cache line; stale is `expires` 0 (the clock is at
/// least 1 when it is read), so one comparison tells both.
#[derive(Clone, Copy, Debug)]
struct LocalBest {
    free: i32,
    tabu: i32,
    /// The first step at which one of its tabu digits is free again; 0: stale.
    expires: u32,
    /// A vertex has at most 256 digits.
    free_ties: u16,
    tabu_ties: u16,
}

impl LocalBest {
    const STALE: LocalBest = LocalBest {
        free: i32::MAX,
        tabu: i32::MAX,
        expires: 0,
        free_ties: 0,
        tabu_ties: 0,
    };

    /// Must it be scanned again before a step at `clock` trusts it?
    #[inline]
    fn due(&self, clock: u32) -> bool {
        clock >= self.expires
    }

    /// Scans the slots `at` of a vertex holding slot `now`.
    #[inline]
    fn of(now: u32, at: std::ops::Range<u32>, clash: &[u16], until: &[u32], clock: u32) -> Self {
        let here = clash[now as usize] as i32;
        let at = at.start as usize..at.end as usize;
        // Branch-free, in one pass (a new least restarts its count): which digits are tabu
        // and which is least are what a branch would mispredict.
        let (mut free, mut tabu, mut expires) = (i32::MAX, i32::MAX, u32::MAX);
        let (mut free_ties, mut tabu_ties) = (0u16, 0u16);
        for s in at {
            let delta = clash[s] as i32 - here;
            let u = until[s];
            let barred = s == now as usize;
            let is_tabu = u > clock;
            let f = if barred || is_tabu { i32::MAX } else { delta };
            let t = if barred || !is_tabu { i32::MAX } else { delta };
            free_ties = if f < free {
                1
            } else {
                free_ties + (f == free) as u16
            };
            free = free.min(f);
            tabu_ties = if t < tabu {
                1
            } else {
                tabu_ties + (t == tabu) as u16
            };
            tabu = tabu.min(t);
            expires = expires.min(if is_tabu { u } else { u32::MAX });
        }
        // Ties counted among barred digits (key i32::MAX) are no moves.
        if free == i32::MAX {
            free_ties = 0;
        }
        if tabu == i32::MAX {
            tabu_ties = 0;
        }
        LocalBest {
            free,
            tabu,
            expires,
            free_ties,
            tabu_ties,
        }
    }

    /// The least change of cost among the allowed moves, and how many reach it (0: none is
    /// allowed). A tabu move is allowed below `aspire`.
    #[inline]
    fn allowed(&self, aspire: i64) -> (i64, u64) {
        let (free, tabu) = (self.free as i64, self.tabu as i64);
        if tabu < aspire && tabu <= free {
            let also = if free == tabu { self.free_ties } else { 0 };
            (tabu, self.tabu_ties as u64 + also as u64)
        } else {
            (free, self.free_ties as u64)
        }
    }
}

/// The least change of cost over the conflict list, how many allowed moves reach it, and the
/// list place of the first vertex that does (where [`TabuSearch::nth_best`] starts).
struct Tally {
    least: i64,
    ties: u64,
    first: usize,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            least: i64::MAX,
            ties: 0,
            first: 0,
        }
    }

    #[inline]
    fn offer(&mut self, m: i64, k: u64, at: usize) {
        if m < self.least {
            (self.least, self.ties, self.first) = (m, k, at);
        } else if m == self.least {
            self.ties += k;
        }
    }
}

/// The item of least key among those offered, ties broken uniformly at random (reservoir
/// sampling: a random number is drawn only on a tie).
struct Least {
    key: i64,
    ties: u32,
    pick: u32,
}

impl Least {
    fn new() -> Least {
        Least {
            key: i64::MAX,
            ties: 0,
            pick: u32::MAX,
        }
    }

    #[inline]
    fn offer(&mut self, key: i64, item: u32, rng: &mut Rng) {
        if key < self.key {
            (self.key, self.ties, self.pick) = (key, 1, item);
        } else if key == self.key {
            self.ties += 1;
            if rng.random_range(0..self.ties) == 0 {
                self.pick = item;
            }
        }
    }
}

/// The largest weight of a pair (see [`TabuSearch::bump_weights`]).
const MAX_WEIGHT: u16 = 10_000;

/// Cleared well before `u32::MAX`, so that `clock + tenure` never wraps.
const CLOCK_LIMIT: u32 = u32::MAX / 2;

impl TabuSearch {
    /// Propagates singles, builds the graph and the greedy start. A contradiction found by
    /// propagation proves the puzzle has no solution.
    pub fn new(puzzle: &Puzzle, cfg: &TabuConfig, rng: &mut Rng) -> Result<Self, Contradiction> {
        let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
        let built = Self::with_link_budget(puzzle, cfg, rng, LINK_BUDGET, &mut unlimited)?;
        Ok(built.expect("no deadline to pass"))
    }

    /// [`TabuSearch::new`] within a time limit: `None` once `deadline` has passed. The setup of
    /// a 256×256 grid (propagation, the graph, the greedy start) takes seconds.
    fn new_until(
        puzzle: &Puzzle,
        cfg: &TabuConfig,
        rng: &mut Rng,
        deadline: &mut Deadline,
    ) -> Result<Option<Self>, Contradiction> {
        Self::with_link_budget(puzzle, cfg, rng, LINK_BUDGET, deadline)
    }

    fn with_link_budget(
        puzzle: &Puzzle,
        cfg: &TabuConfig,
        rng: &mut Rng,
        link_budget: u64,
        deadline: &mut Deadline,
    ) -> Result<Option<Self>, Contradiction> {
        let Some(propagated) = propagate_singles_until(puzzle, deadline)? else {
            return Ok(None);
        };
        let fixed = propagated.grid;
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
            if deadline.expired() {
                return Ok(None);
            }
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
        // Weights need the links (the table carries none) and their own adjacency with each
        // entry's reverse; without weights none of it is built.
        let weighted = cfg.pool > 0 && cfg.weights > 0 && most <= link_budget;
        let (mut nbr_at, mut nbr, mut twin) = (Vec::new(), Vec::new(), Vec::new());
        if weighted {
            (nbr_at, nbr) = (adj_at.clone(), adj.clone());
            twin = vec![0u32; nbr.len()];
            for v in 0..cell.len() {
                if deadline.expired() {
                    return Ok(None);
                }
                for e in nbr_at[v]..nbr_at[v + 1] {
                    let u = nbr[e as usize] as usize;
                    let back = (nbr_at[u]..nbr_at[u + 1])
                        .find(|&f| nbr[f as usize] as usize == v)
                        .expect("adjacency is symmetric");
                    twin[e as usize] = back;
                }
            }
        }
        let reach = if most <= link_budget {
            let (mut at, mut links, mut edges) = (vec![0u32], Vec::new(), Vec::new());
            for v in 0..cell.len() {
                if deadline.expired() {
                    return Ok(None);
                }
                for s in slot_at[v]..slot_at[v + 1] {
                    let d = digit[s as usize] as usize;
                    for e in adj_at[v]..adj_at[v + 1] {
                        let u = adj[e as usize];
                        let slot = slot_of[u as usize * size + d];
                        if slot != u32::MAX {
                            links.push(Link { vertex: u, slot });
                            if weighted {
                                edges.push(e);
                            }
                        }
                    }
                    at.push(links.len() as u32);
                }
            }
            let weights = vec![1; edges.len()];
            Reach::Links {
                at,
                links,
                edges,
                weights,
            }
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
            reach: Some(Box::new(reach)),
            colour: vec![0; nv],
            clash: vec![0; ns],
            count: if weighted { vec![0; ns] } else { Vec::new() },
            weighted,
            weight: vec![1; nbr.len()],
            twin,
            nbr_at,
            nbr,
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
            select: cfg.select,
            open_to: vec![true; nv],
            pair_steps: 0,
            save_ties: false,
        };
        s.greedy_start(rng);
        Ok(Some(s))
    }

    fn slots(&self, v: usize) -> std::ops::Range<u32> {
        self.slot_at[v]..self.slot_at[v + 1]
    }

    /// Calls `f` with each open neighbour of `v` that has the digit of `v`'s slot `s` as a
    /// candidate, and that neighbour's slot of it.
    #[inline]
    fn each_same_digit(&mut self, v: usize, s: u32, mut f: impl FnMut(&mut Self, u32, u32, u16)) {
        // Taken out for the walk, so that `f` may change everything else.
        let reach = self.reach.take().expect("walks do not nest");
        match &*reach {
            Reach::Links {
                at, links, weights, ..
            } => {
                let range = at[s as usize] as usize..at[s as usize + 1] as usize;
                if self.weighted {
                    for (l, &w) in links[range.clone()].iter().zip(&weights[range]) {
                        f(self, l.vertex, l.slot, w);
                    }
                } else {
                    for l in &links[range] {
                        f(self, l.vertex, l.slot, 1);
                    }
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
                        f(self, u, theirs, 1);
                    }
                }
            }
        }
        self.reach = Some(reach);
    }

    /// What [`TabuSearch::each_same_digit`] visits, as a list: with each neighbour's slot, the
    /// weight of the pair (checked to be the pair of `v` and that neighbour, the same both
    /// ways).
    #[cfg(test)]
    fn same_digit(&self, v: usize, s: u32) -> Vec<(u32, u32, u16)> {
        match self.reach.as_deref().expect("not in a walk") {
            Reach::Links {
                at,
                links,
                edges,
                weights,
            } => {
                let range = at[s as usize] as usize..at[s as usize + 1] as usize;
                if !self.weighted {
                    assert!(edges.is_empty(), "pairs are listed only for weights");
                    return links[range].iter().map(|l| (l.vertex, l.slot, 1)).collect();
                }
                links[range.clone()]
                    .iter()
                    .zip(&edges[range.clone()])
                    .zip(&weights[range])
                    .map(|((l, &e), &w)| {
                        let e = e as usize;
                        assert!(self.nbr_at[v] as usize <= e && e < self.nbr_at[v + 1] as usize);
                        assert_eq!(self.nbr[e], l.vertex, "pair of a link");
                        let back = self.twin[e] as usize;
                        assert_eq!(self.nbr[back] as usize, v, "reverse pair");
                        assert_eq!(self.weight[e], self.weight[back], "symmetric weight");
                        assert_eq!(w, self.weight[e], "the link's copy of the weight");
                        (l.vertex, l.slot, self.weight[e])
                    })
                    .collect()
            }
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
                        1,
                    )
                })
                .filter(|&(_, theirs, _)| theirs != u32::MAX)
                .collect(),
        }
    }

    /// A neighbour's slot `slot` gained (`up`) or lost a clash.
    #[inline]
    fn shift<const WEIGHTED: bool>(&mut self, u: u32, slot: u32, up: bool, w: u16) {
        if up {
            self.clash[slot as usize] += w;
            if WEIGHTED {
                self.count[slot as usize] += 1;
            }
        } else {
            self.clash[slot as usize] -= w;
            if WEIGHTED {
                self.count[slot as usize] -= 1;
            }
        }
        self.local[u as usize] = LocalBest::STALE;
        // Only a neighbour holding the digit can change between clashing and not.
        if self.colour[u as usize] == slot {
            if up {
                self.open_to[u as usize] = true;
            }
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
            self.add_holder(v);
        }
        self.count_conflicts();
        self.save_best();
    }

    /// Counts `v`'s digit in the clash counts of its neighbours' slots.
    fn add_holder(&mut self, v: usize) {
        self.each_same_digit(v, self.colour[v], |s, _, slot, w| {
            s.clash[slot as usize] += w;
            if s.weighted {
                s.count[slot as usize] += 1;
            }
        });
    }

    /// The conflict list and the cost, from the clash counts.
    fn count_conflicts(&mut self) {
        self.conflicted.clear();
        self.place.iter_mut().for_each(|p| *p = u32::MAX);
        let mut twice = 0u64;
        for v in 0..self.cell.len() {
            twice += self.clashing(self.colour[v]);
            self.update_conflicted(v);
        }
        self.cost = twice / 2;
    }

    /// Neighbours holding slot `s`'s digit, unweighted.
    #[inline]
    fn clashing(&self, s: u32) -> u64 {
        if self.weighted {
            self.count[s as usize] as u64
        } else {
            self.clash[s as usize] as u64
        }
    }

    /// Puts `v` in or takes it out of the conflict list, as its clash count says.
    #[inline]
    fn update_conflicted(&mut self, v: usize) {
        let clashes = self.clashing(self.colour[v]) > 0;
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
        if self.cost > self.best_cost || (self.cost == self.best_cost && !self.save_ties) {
            return false;
        }
        self.best_cost = self.cost;
        self.best.clear();
        self.best.extend_from_slice(&self.colour);
        true
    }

    /// Starts a new segment from `colours`: clash counts recounted (under the current weights),
    /// the tabu list emptied, and `colours` the segment's best.
    fn restart_from(&mut self, colours: &[u32]) {
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
    fn fresh_start(&mut self, rng: &mut Rng) {
        self.reset_weights();
        self.clash.iter_mut().for_each(|c| *c = 0);
        self.count.iter_mut().for_each(|c| *c = 0);
        self.best_cost = u64::MAX;
        self.greedy_start(rng);
        let start = self.colour.clone();
        self.restart_from(&start);
    }

    /// Sets every pair's weight back to 1.
    fn reset_weights(&mut self) {
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
    fn bump_weights(&mut self, colours: &[u32], one_in: u32, rng: &mut Rng) {
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

    fn grid_of(&self, colours: &[u32]) -> Grid {
        let mut grid = self.fixed.clone();
        for (v, &c) in self.cell.iter().enumerate() {
            grid.set(c as usize, self.digit[colours[v] as usize] as u16 + 1);
        }
        grid
    }

    /// The best assignment as a grid (a solution when [`TabuSearch::best_cost`] is 0).
    pub fn best_grid(&self) -> Grid {
        self.grid_of(&self.best)
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
        if self.select == Select::Cell {
            if self.pair_steps == 0 {
                return self.cell_step(aspire, rng);
            }
            self.pair_steps -= 1;
        }
        let clock = self.clock;
        // First over the moves that are not tabu, with the least tabu one aside: a tabu move
        // counts only when it beats `aspire` and is no worse than the best free one, which is
        // rare, so the scan that weighs aspiration runs only then (the same moves either way).
        let mut best = Tally::new();
        let mut least_tabu = i32::MAX;
        for (at, &v) in self.conflicted.iter().enumerate() {
            let b = &mut self.local[v as usize];
            if b.due(clock) {
                let at = self.slot_at[v as usize]..self.slot_at[v as usize + 1];
                *b = LocalBest::of(self.colour[v as usize], at, &self.clash, &self.until, clock);
            }
            least_tabu = least_tabu.min(b.tabu);
            best.offer(b.free as i64, b.free_ties as u64, at);
        }
        let least_tabu = least_tabu as i64;
        if least_tabu < aspire && least_tabu <= best.least {
            best = Tally::new();
            for (at, &v) in self.conflicted.iter().enumerate() {
                let (m, k) = self.local[v as usize].allowed(aspire);
                best.offer(m, k, at);
            }
        }
        let Tally { least, ties, first } = best;
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

    /// Cell selection: the conflicting vertex with the most clashes among those open to a
    /// move (any, when none is), then its best allowed digit.
    #[inline(never)]
    fn cell_step(&mut self, aspire: i64, rng: &mut Rng) -> u64 {
        // The most clashes: the least negated count.
        let (mut open, mut checked) = (Least::new(), Least::new());
        for &v in &self.conflicted {
            let k = -(self.clash[self.colour[v as usize] as usize] as i64);
            if self.open_to[v as usize] {
                open.offer(k, v, rng);
            } else {
                checked.offer(k, v, rng);
            }
        }
        let v = if open.ties > 0 {
            open.pick
        } else {
            checked.pick
        } as usize;
        let now = self.colour[v];
        let here = self.clash[now as usize] as i64;
        let clock = self.clock;
        let (mut free, mut tabu) = (Least::new(), Least::new());
        for s in self.slots(v) {
            if s == now {
                continue;
            }
            let delta = self.clash[s as usize] as i64 - here;
            if self.until[s as usize] > clock {
                tabu.offer(delta, s, rng);
            } else {
                free.offer(delta, s, rng);
            }
        }
        let (nf, nt) = (free.ties, tabu.ties);
        let (pf, pt) = (free.pick, tabu.pick);
        let (free, tabu) = (free.key, tabu.key);
        if free > 0 && tabu > 0 {
            // Every move makes it worse: the cell declines. It keeps its digit, which becomes
            // tabu, and waits for a neighbour to take its digit; a cell that declines twice
            // hands over to full pair steps for a while.
            if self.until[now as usize] <= clock {
                let tenure = self.tenure_now(rng);
                self.until[now as usize] = clock.saturating_add(tenure);
                self.local[v] = LocalBest::STALE;
                self.open_to[v] = false;
            } else {
                self.pair_steps = 100;
            }
            return self.cost;
        }
        let to = if (nt > 0 && tabu < free && tabu < aspire) || nf == 0 {
            pt
        } else {
            pf
        };
        self.apply(v, to, rng);
        self.open_to[v] = false;
        self.save_best();
        self.cost
    }

    /// The tenure of a digit a cell leaves now: U(0, tenure) + λ · (conflicting cells).
    fn tenure_now(&self, rng: &mut Rng) -> u32 {
        let random = if self.tenure > 0 {
            rng.random_range(0..self.tenure)
        } else {
            0
        };
        let tenure = random + (self.lambda * self.conflicted.len() as f64) as u64;
        tenure.min(CLOCK_LIMIT as u64) as u32
    }

    /// Moves vertex `v` to slot `to`.
    fn apply(&mut self, v: usize, to: u32, rng: &mut Rng) {
        let from = self.colour[v];
        let before = self.clashing(from);
        let after = self.clashing(to);
        self.cost = self.cost + after - before;
        self.colour[v] = to;
        let tenure = self.tenure_now(rng);
        self.until[from as usize] = self.clock.saturating_add(tenure);
        // Two copies of the walk, so that the unweighted one (the default) tests nothing.
        if self.weighted {
            self.each_same_digit(v, from, |s, u, slot, w| s.shift::<true>(u, slot, false, w));
            self.each_same_digit(v, to, |s, u, slot, w| s.shift::<true>(u, slot, true, w));
        } else {
            self.each_same_digit(v, from, |s, u, slot, _| s.shift::<false>(u, slot, false, 1));
            self.each_same_digit(v, to, |s, u, slot, _| s.shift::<false>(u, slot, true, 1));
        }
        self.local[v] = LocalBest::STALE;
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
        // The time limit counts the setup too: the search gets what is left of it.
        let started = std::time::Instant::now();
        let mut setup = Deadline::new(budget, 64);
        let mut search = match TabuSearch::new_until(puzzle, &cfg, rng, &mut setup) {
            Ok(Some(s)) => s,
            Ok(None) => {
                // Said in the row: the time ran out before the first step.
                stats.extra.push(("stopped".into(), "setup".into()));
                return Outcome {
                    status: Status::Exhausted {
                        limit: Limit::Time,
                        best: None,
                    },
                    stats,
                };
            }
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
        let left = Budget {
            time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
            ..*budget
        };
        let mut run = Run::new(&left, 1024, cfg.trace, stats);
        run.offer(search.cost());
        if cfg.pool > 0 {
            return pool_search(search, &cfg, run, rng);
        }
        while search.cost() > 0 && !run.should_stop() {
            let cost = search.step(rng);
            run.iterations = search.steps();
            run.offer(cost);
        }
        let grid = search.best_grid();
        run.finish(grid)
    }
}

/// The iterated search of `pool=K` (after AllDiff-LS's Sudoku-LS), step by step: segments of
/// tabu search, each from an assignment drawn from a pool of up to K distinct ones of the best
/// cost seen, with an empty tabu list, and (with `weights`) weights on the pairs that keep
/// clashing. [`Tabu`] runs it when `pool` > 0; `hybrid`'s helper thread can run it too.
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

    fn from_search(mut search: TabuSearch, cfg: &TabuConfig) -> Self {
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

fn pool_search(search: TabuSearch, cfg: &TabuConfig, mut run: Run, rng: &mut Rng) -> Outcome {
    let mut pooled = PooledSearch::from_search(search, cfg);
    while pooled.best_cost() > 0 && !run.should_stop() {
        let cost = pooled.step(rng);
        run.iterations = pooled.steps();
        run.offer(cost);
    }
    run.stats
        .extra
        .push(("segments".into(), pooled.segments().to_string()));
    run.stats.restarts = pooled.restarts();
    let grid = pooled.best_grid();
    run.finish(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::rng_from_seed;
    use sudoku_fixtures::carved_pattern;

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
                let holding: Vec<u16> = s
                    .same_digit(v, slot)
                    .into_iter()
                    .filter(|&(u, theirs, _)| s.colour[u as usize] == theirs)
                    .map(|(_, _, w)| w)
                    .collect();
                let weighed: u16 = holding.iter().sum();
                assert_eq!(s.clash[slot as usize], weighed, "clash of slot {slot}");
                assert_eq!(
                    s.clashing(slot),
                    holding.len() as u64,
                    "count of slot {slot}"
                );
            }
            let k = s.clashing(s.colour[v]);
            twice += k;
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
            if b.due(next) {
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
            let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
            let mut s = TabuSearch::with_link_budget(&p, &cfg, &mut rng, budget, &mut unlimited)
                .expect("carved puzzles are feasible")
                .expect("no deadline");
            assert_eq!(
                matches!(s.reach.as_deref(), Some(Reach::Table { .. })),
                budget == 0
            );
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
    fn cell_steps_with_weights_and_restarts_keep_their_books() {
        for (n, keep) in [(3, 0.3), (4, 0.4), (5, 0.45)] {
            let p = carved_pattern(n, keep, 2);
            let cfg = TabuConfig {
                select: Select::Cell,
                pool: 10,
                weights: 1,
                ..TabuConfig::default()
            };
            let mut rng = rng_from_seed(n as u64);
            let mut s = TabuSearch::new(&p, &cfg, &mut rng).expect("carved puzzles are feasible");
            assert!(s.weighted);
            s.save_ties = true;
            check_bookkeeping(&s);
            for round in 0..6 {
                for _ in 0..400 {
                    if s.cost == 0 {
                        break;
                    }
                    let before = s.colour.clone();
                    s.step(&mut rng);
                    let moved = (0..before.len())
                        .filter(|&v| before[v] != s.colour[v])
                        .count();
                    assert!(moved <= 1, "at most one cell moves per step");
                    check_bookkeeping(&s);
                }
                if s.cost == 0 {
                    break;
                }
                // What the pool does between segments: weigh the best's clashing pairs (all of
                // them, weights = 1) and start again from it.
                let best = s.best.clone();
                let cost = s.best_cost;
                s.bump_weights(&best, 1, &mut rng);
                s.restart_from(&best);
                assert_eq!(s.cost, cost, "round {round}: a restart keeps the cost");
                assert_eq!(s.best_cost, cost);
                check_bookkeeping(&s);
                if cost > 0 {
                    assert!(
                        s.weight.iter().any(|&w| w > 1),
                        "clashing pairs gained weight"
                    );
                }
            }
            s.reset_weights();
            let best = s.best.clone();
            s.restart_from(&best);
            assert!(s.weight.iter().all(|&w| w == 1));
            check_bookkeeping(&s);
            // A fresh start (`restart`) from weighted books: unit weights, the new start as
            // the best, and books that hold for the steps after it.
            s.bump_weights(&best, 1, &mut rng);
            s.fresh_start(&mut rng);
            assert!(s.weight.iter().all(|&w| w == 1));
            assert_eq!(s.best_cost, s.cost);
            check_bookkeeping(&s);
            for _ in 0..200 {
                s.step(&mut rng);
            }
            check_bookkeeping(&s);
        }
    }

    #[test]
    fn a_nearly_empty_large_grid_is_reached_through_the_table() {
        // 100×100 without givens: links would take 10,000 cells × 100 digits × 297 peers.
        let order = sudoku_core::Order::new(10).expect("order 10 is supported");
        let p = Puzzle::new(Grid::empty(order), sudoku_core::Variant::Classic);
        let mut rng = rng_from_seed(1);
        let mut s = TabuSearch::new(&p, &TabuConfig::default(), &mut rng).expect("feasible");
        assert!(matches!(s.reach.as_deref(), Some(Reach::Table { .. })));
        // A hard-region 36×36 puzzle stays under the link budget.
        let q = carved_pattern(6, 0.5, 1);
        let t = TabuSearch::new(&q, &TabuConfig::default(), &mut rng).expect("feasible");
        assert!(matches!(t.reach.as_deref(), Some(Reach::Links { .. })));
        for _ in 0..100 {
            s.step(&mut rng);
        }
        check_bookkeeping(&s);
    }
}
