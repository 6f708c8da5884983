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
//! `U(0, tenure) + lambda · (conflicting cells)` steps. A table of how many neighbours of each
//! cell hold each digit makes a move's change of cost one subtraction, and keeping it up to
//! date costs one pass over the moved cell's neighbours.
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
    0.45,
    0.0..=100.0,
    "tabu tenure per conflicting cell: a cell may not take back the digit it left for \
     U(0, tenure) + lambda × (cells in conflict) steps (Galinier & Hao: 0.6; 0.45 measured \
     better at 36×36-49×49, crates/meta/README.md)"
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
#[derive(Clone, Debug)]
pub struct TabuSearch {
    /// Givens plus the cells singles propagation fixed; open cells 0.
    fixed: Grid,
    /// `N`: the number of digits.
    size: usize,
    /// The grid cell of each vertex.
    cell: Vec<u32>,
    /// Candidates (0-based digits) of vertex `v`: `cands[cand_at[v]..cand_at[v + 1]]`.
    cand_at: Vec<u32>,
    cands: Vec<u8>,
    /// Open neighbours of vertex `v`: `adj[adj_at[v]..adj_at[v + 1]]`.
    adj_at: Vec<u32>,
    adj: Vec<u32>,
    /// The digit (0-based) of each vertex.
    colour: Vec<u8>,
    /// `clash[v · N + d]`: neighbours of `v` that hold digit `d`.
    clash: Vec<u16>,
    /// Vertices in conflict, and each vertex's place in that list (`u32::MAX`: not in it).
    conflicted: Vec<u32>,
    place: Vec<u32>,
    /// `until[v · N + d]`: the step up to which `v` may not take `d`.
    until: Vec<u32>,
    /// Steps since the tabu table was last cleared (it is cleared before the counter wraps).
    clock: u32,
    cost: u64,
    best_cost: u64,
    best: Vec<u8>,
    steps: u64,
    lambda: f64,
    tenure: u64,
    /// Scratch: the best moves of a step.
    moves: Vec<(u32, u8)>,
}

/// Cleared well before `u32::MAX`, so that `clock + tenure` never wraps.
const CLOCK_LIMIT: u32 = u32::MAX / 2;

impl TabuSearch {
    /// Propagates singles, builds the graph and the greedy start. A contradiction found by
    /// propagation proves the puzzle has no solution.
    pub fn new(puzzle: &Puzzle, cfg: &TabuConfig, rng: &mut Rng) -> Result<Self, Contradiction> {
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
        let (mut cand_at, mut cands) = (vec![0u32], Vec::new());
        let (mut adj_at, mut adj) = (vec![0u32], Vec::new());
        let mut taken = vec![false; size];
        for &c in &cell {
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
            cands.extend((0..size).filter(|&d| !taken[d]).map(|d| d as u8));
            cand_at.push(cands.len() as u32);
            adj_at.push(adj.len() as u32);
        }
        let nv = cell.len();
        let mut s = TabuSearch {
            fixed,
            size,
            cell,
            cand_at,
            cands,
            adj_at,
            adj,
            colour: vec![0; nv],
            clash: vec![0; nv * size],
            conflicted: Vec::new(),
            place: vec![u32::MAX; nv],
            until: vec![0; nv * size],
            clock: 0,
            cost: 0,
            best_cost: u64::MAX,
            best: Vec::new(),
            steps: 0,
            lambda: cfg.lambda,
            tenure: cfg.tenure,
            moves: Vec::new(),
        };
        s.greedy_start(rng);
        Ok(s)
    }

    fn candidates(&self, v: usize) -> &[u8] {
        &self.cands[self.cand_at[v] as usize..self.cand_at[v + 1] as usize]
    }

    fn greedy_start(&mut self, rng: &mut Rng) {
        let nv = self.cell.len();
        let mut order: Vec<usize> = (0..nv).collect();
        order.shuffle(rng);
        order.sort_by_key(|&v| self.cand_at[v + 1] - self.cand_at[v]);
        let n = self.size;
        for &v in &order {
            let (mut least, mut pick, mut ties) = (u16::MAX, 0u8, 0u32);
            for &d in self.candidates(v) {
                let k = self.clash[v * n + d as usize];
                if k < least {
                    (least, pick, ties) = (k, d, 1);
                } else if k == least {
                    ties += 1;
                    if rng.random_range(0..ties) == 0 {
                        pick = d;
                    }
                }
            }
            self.colour[v] = pick;
            for i in self.adj_at[v]..self.adj_at[v + 1] {
                let u = self.adj[i as usize] as usize;
                self.clash[u * n + pick as usize] += 1;
            }
        }
        let mut twice = 0u64;
        for v in 0..nv {
            let k = self.clash[v * n + self.colour[v] as usize];
            twice += k as u64;
            self.update_conflicted(v);
        }
        self.cost = twice / 2;
        self.save_best();
    }

    /// Puts `v` in or takes it out of the conflict list, as its clash count says.
    #[inline]
    fn update_conflicted(&mut self, v: usize) {
        let clashes = self.clash[v * self.size + self.colour[v] as usize] > 0;
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
        self.cands.len()
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
            grid.set(c as usize, self.best[v] as u16 + 1);
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
            self.clock = 1;
        }
        let n = self.size;
        let mut best_delta = i64::MAX;
        self.moves.clear();
        for &v in &self.conflicted {
            let v = v as usize;
            let row = &self.clash[v * n..(v + 1) * n];
            let now = self.colour[v];
            let here = row[now as usize] as i64;
            let tabu = &self.until[v * n..(v + 1) * n];
            for &d in &self.cands[self.cand_at[v] as usize..self.cand_at[v + 1] as usize] {
                let delta = row[d as usize] as i64 - here;
                if d == now || delta > best_delta {
                    continue;
                }
                // Aspiration: a tabu move may reach a cost below the best so far.
                if tabu[d as usize] > self.clock
                    && self.cost as i64 + delta >= self.best_cost as i64
                {
                    continue;
                }
                if delta < best_delta {
                    best_delta = delta;
                    self.moves.clear();
                }
                self.moves.push((v as u32, d));
            }
        }
        // The best moves, one at random; every move tabu: a random one. Open cells keep at least two candidates after
        // singles propagation (a cell with one would have been filled), so a conflicting
        // cell always has another digit; the guard only keeps a broken invariant from
        // panicking.
        let (v, d) = match self.moves.len() {
            0 => {
                let v = self.conflicted[rng.random_range(0..self.conflicted.len())] as usize;
                let cands = self.candidates(v);
                if cands.len() < 2 {
                    return self.cost;
                }
                let now = cands.iter().position(|&d| d == self.colour[v]).unwrap_or(0);
                let k = rng.random_range(0..cands.len() - 1);
                (v as u32, cands[if k >= now { k + 1 } else { k }])
            }
            k => self.moves[rng.random_range(0..k)],
        };
        self.apply(v as usize, d, rng);
        self.save_best();
        self.cost
    }

    fn apply(&mut self, v: usize, d: u8, rng: &mut Rng) {
        let n = self.size;
        let old = self.colour[v];
        let before = self.clash[v * n + old as usize] as u64;
        let after = self.clash[v * n + d as usize] as u64;
        self.cost = self.cost + after - before;
        self.colour[v] = d;
        let random = if self.tenure > 0 {
            rng.random_range(0..self.tenure)
        } else {
            0
        };
        let tenure = random + (self.lambda * self.conflicted.len() as f64) as u64;
        self.until[v * n + old as usize] = self
            .clock
            .saturating_add(tenure.min(CLOCK_LIMIT as u64) as u32);
        for i in self.adj_at[v]..self.adj_at[v + 1] {
            let u = self.adj[i as usize] as usize;
            self.clash[u * n + old as usize] -= 1;
            self.clash[u * n + d as usize] += 1;
            // Only a neighbour holding `old` or `d` can change between clashing and not:
            // reading its colour alone keeps this loop to one extra load per neighbour.
            let holds = self.colour[u];
            if holds == old || holds == d {
                self.update_conflicted(u);
            }
        }
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
