//! `tabu::state`: the state of one search ([`TabuSearch`]): the list-colouring graph, the
//! assignment and its clash books, how they are built (propagation, the graph, the greedy start)
//! and kept consistent; apart from the step (`step.rs`) and the pooled scheme (`pooled.rs`),
//! which change that state only through what is here.

use rand::seq::SliceRandom as _;
use rand::Rng as _;
use sudoku_core::{Budget, Deadline, Grid, Puzzle, Rng};

use super::best::LocalBest;
use super::{Select, TabuConfig};
use crate::propagate::{propagate_singles_until, Contradiction};

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
    /// Givens plus the cells singles propagation fixed; open cells 0. None for a graph that is
    /// not a Sudoku's (a Latin square's, for `mmcol`).
    fixed: Option<Grid>,
    /// The grid cell of each vertex.
    pub(super) cell: Vec<u32>,
    /// Slots of vertex `v`: `slot_at[v]..slot_at[v + 1]`.
    pub(super) slot_at: Vec<u32>,
    /// The digit (0-based) of each slot.
    pub(super) digit: Vec<u8>,
    /// How a move finds the slots whose clash counts it changes.
    /// Boxed, so that a walk takes it out and puts it back by moving a pointer; `None` only
    /// during a walk.
    pub(super) reach: Option<Box<Reach>>,
    /// The slot each vertex holds.
    pub(super) colour: Vec<u32>,
    /// `clash[s]`: neighbours of slot `s`'s vertex that hold its digit.
    pub(super) clash: Vec<u16>,
    /// `count[s]`: as `clash`, unweighted; kept only when `weighted` (else `clash` is it).
    pub(super) count: Vec<u16>,
    /// Whether pairs may carry weights other than 1.
    pub(super) weighted: bool,
    /// Weight of each directed adjacency entry (`nbr`), and its reverse entry. At most
    /// [`MAX_WEIGHT`](super::pooled::MAX_WEIGHT), so that a clash count (at most one holder
    /// per unit, five units) fits 16 bits.
    pub(super) weight: Vec<u16>,
    pub(super) twin: Vec<u32>,
    pub(super) nbr_at: Vec<u32>,
    pub(super) nbr: Vec<u32>,
    /// Vertices in conflict, and each vertex's place in that list (`u32::MAX`: not in it).
    pub(super) conflicted: Vec<u32>,
    pub(super) place: Vec<u32>,
    /// `until[s]`: the step up to which slot `s`'s vertex may not take its digit.
    pub(super) until: Vec<u32>,
    /// Steps since the tabu table was last cleared (it is cleared before the counter wraps).
    pub(super) clock: u32,
    pub(super) cost: u64,
    pub(super) best_cost: u64,
    pub(super) best: Vec<u32>,
    pub(super) steps: u64,
    pub(super) lambda: f64,
    pub(super) tenure: u64,
    /// Each vertex's best moves, kept between steps and recomputed only when stale.
    pub(super) local: Vec<LocalBest>,
    pub(super) select: Select,
    /// Cell selection: may the vertex be chosen (a neighbour took its digit since it last
    /// moved or declined)?
    pub(super) open_to: Vec<bool>,
    /// Cell selection: steps left in pair mode.
    pub(super) pair_steps: u32,
    /// Keep the latest of equally good assignments as the best (pool segments).
    pub(super) save_ties: bool,
}

/// How a move finds, for a digit, the slots of that digit in the adjacent open cells.
#[derive(Clone, Debug)]
pub(super) enum Reach {
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
pub(crate) const LINK_BUDGET: u64 = 1 << 25;

/// A same-digit slot of an adjacent open cell.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    vertex: u32,
    slot: u32,
}

/// A list-colouring graph: vertices with their lists of colours (0-based digits) and their
/// neighbours. A Sudoku's after singles propagation, or a Latin square's after `mmcol`'s
/// kernelization: [`TabuSearch::from_graph`] searches either.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListGraph {
    /// The colours (digits) there are, `N`.
    pub(crate) size: usize,
    /// The cell of each vertex in its puzzle (row-major).
    pub(crate) cell: Vec<u32>,
    /// The colours of vertex `v`: `digit[slot_at[v]..slot_at[v + 1]]`, increasing.
    pub(crate) slot_at: Vec<u32>,
    pub(crate) digit: Vec<u8>,
    /// The neighbours of vertex `v`: `adj[adj_at[v]..adj_at[v + 1]]` (symmetric).
    pub(crate) adj_at: Vec<u32>,
    pub(crate) adj: Vec<u32>,
}

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
    pub(crate) fn new_until(
        puzzle: &Puzzle,
        cfg: &TabuConfig,
        rng: &mut Rng,
        deadline: &mut Deadline,
    ) -> Result<Option<Self>, Contradiction> {
        Self::with_link_budget(puzzle, cfg, rng, LINK_BUDGET, deadline)
    }

    pub(super) fn with_link_budget(
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
        let (mut adj_at, mut adj) = (vec![0u32], Vec::new());
        let mut taken = vec![false; size];
        for &c in &cell {
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
            digit.extend((0..size).filter(|&d| !taken[d]).map(|d| d as u8));
            slot_at.push(digit.len() as u32);
            adj_at.push(adj.len() as u32);
        }
        let graph = ListGraph {
            size,
            cell,
            slot_at,
            digit,
            adj_at,
            adj,
        };
        Self::from_graph(graph, Some(fixed), cfg, rng, link_budget, deadline)
    }

    /// The search on a list-colouring graph (`fixed`: the grid its vertices are the open cells
    /// of, for [`TabuSearch::best_grid`]; none for a graph of another puzzle, such as a Latin
    /// square): the books, then the greedy start. `None` once `deadline` has passed.
    pub(crate) fn from_graph(
        graph: ListGraph,
        fixed: Option<Grid>,
        cfg: &TabuConfig,
        rng: &mut Rng,
        link_budget: u64,
        deadline: &mut Deadline,
    ) -> Result<Option<Self>, Contradiction> {
        let ListGraph {
            size,
            cell,
            slot_at,
            digit,
            adj_at,
            adj,
        } = graph;
        let mut slot_of = vec![u32::MAX; cell.len() * size];
        for v in 0..cell.len() {
            for s in slot_at[v]..slot_at[v + 1] {
                slot_of[v * size + digit[s as usize] as usize] = s;
            }
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
        if !s.greedy_start_until(rng, deadline) {
            return Ok(None);
        }
        Ok(Some(s))
    }

    pub(super) fn slots(&self, v: usize) -> std::ops::Range<u32> {
        self.slot_at[v]..self.slot_at[v + 1]
    }

    /// Calls `f` with each open neighbour of `v` that has the digit of `v`'s slot `s` as a
    /// candidate, and that neighbour's slot of it.
    #[inline]
    pub(super) fn each_same_digit(
        &mut self,
        v: usize,
        s: u32,
        mut f: impl FnMut(&mut Self, u32, u32, u16),
    ) {
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
    pub(super) fn same_digit(&self, v: usize, s: u32) -> Vec<(u32, u32, u16)> {
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

    pub(super) fn greedy_start(&mut self, rng: &mut Rng) {
        let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
        self.greedy_start_until(rng, &mut unlimited);
    }

    /// [`TabuSearch::greedy_start`] within a time limit (a 256×256 grid takes seconds): false
    /// once `deadline` has passed, the start unfinished.
    pub(super) fn greedy_start_until(&mut self, rng: &mut Rng, deadline: &mut Deadline) -> bool {
        let nv = self.cell.len();
        let mut order: Vec<usize> = (0..nv).collect();
        order.shuffle(rng);
        order.sort_by_key(|&v| self.slot_at[v + 1] - self.slot_at[v]);
        for &v in &order {
            if deadline.expired() {
                return false;
            }
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
        true
    }

    /// Counts `v`'s digit in the clash counts of its neighbours' slots.
    pub(super) fn add_holder(&mut self, v: usize) {
        self.each_same_digit(v, self.colour[v], |s, _, slot, w| {
            s.clash[slot as usize] += w;
            if s.weighted {
                s.count[slot as usize] += 1;
            }
        });
    }

    /// The conflict list and the cost, from the clash counts.
    pub(super) fn count_conflicts(&mut self) {
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
    pub(super) fn clashing(&self, s: u32) -> u64 {
        if self.weighted {
            self.count[s as usize] as u64
        } else {
            self.clash[s as usize] as u64
        }
    }

    /// Puts `v` in or takes it out of the conflict list, as its clash count says.
    #[inline]
    pub(super) fn update_conflicted(&mut self, v: usize) {
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
    pub(super) fn save_best(&mut self) -> bool {
        if self.cost > self.best_cost || (self.cost == self.best_cost && !self.save_ties) {
            return false;
        }
        self.best_cost = self.cost;
        self.best.clear();
        self.best.extend_from_slice(&self.colour);
        true
    }

    pub(super) fn grid_of(&self, colours: &[u32]) -> Grid {
        let mut grid = self
            .fixed
            .clone()
            .expect("a grid only for a search built from a puzzle");
        for (v, &c) in self.cell.iter().enumerate() {
            grid.set(c as usize, self.digit[colours[v] as usize] as u16 + 1);
        }
        grid
    }

    /// The grid of givens and fixed cells, for a search built from a puzzle.
    pub(super) fn fixed_grid(&self) -> Option<&Grid> {
        self.fixed.as_ref()
    }

    /// The best assignment as a grid (a solution when [`TabuSearch::best_cost`] is 0).
    pub fn best_grid(&self) -> Grid {
        self.grid_of(&self.best)
    }
}
