//! Seed 003's search generators (Raggi, Neto and Fontes): `backtrack`, `prune` ("big prune")
//! and `weighted-prune` ("big weighted prune"), written to the paper's description:
//!
//! - the independent blocks of the main diagonal are first filled with random permutations
//!   (classic variant only: in Sudoku-X they share the main diagonal, so they are left to the
//!   search);
//! - the remaining cells are filled one at a time in a fixed order (rows by default), trying
//!   the cell's allowed digits in random order;
//! - the lists of allowed digits are refreshed only at the start of each row of the fill order
//!   (the paper found this the best trade-off); a cell whose refreshed list is empty fails the
//!   branch at once. Inside a row the lists are stale, so each digit is checked against the
//!   row, column and block (and diagonals) before it is placed; stale digits that no longer
//!   fit are skipped without counting as a try;
//! - `backtrack` tries every allowed digit; `prune` tries 2 digits with probability α, else 1;
//!   `weighted-prune` tries 2 with probability α·filled/total, else 1. When the search fails
//!   it starts again from scratch (new diagonal blocks): one restart.
//!
//! The recursion of the paper is run with an explicit stack (an 8²×8² grid is 4,096 levels).

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::{
    Budget, Deadline, DigitSet, Generator, Geometry, Grid, Limit, Order, Outcome, Rng, Stats,
    Status, Variant,
};

/// How many digits a cell may try.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TryRule {
    /// Every allowed digit (Algorithm 1, backtracking).
    All,
    /// Two with probability `alpha`, else one (Algorithm 2, big prune; paper's best 0.7).
    Prune {
        /// Probability of trying two digits.
        alpha: f64,
    },
    /// Two with probability `alpha · filled / total`, else one (Algorithm 3, big weighted
    /// prune; paper's best 1.0).
    WeightedPrune {
        /// Weight of the fill ratio.
        alpha: f64,
    },
}

/// The order in which cells are filled (the paper compared several; rows won).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillOrder {
    /// Row by row (the paper's choice).
    Rows,
    /// Column by column.
    Columns,
    /// Block by block, row-major inside a block.
    Blocks,
    /// A fresh random permutation of the cells for every attempt.
    Random,
    /// The cell with the fewest digits in its (possibly stale) list, chosen at each step.
    Fewest,
}

impl FillOrder {
    /// Parameter values, in the order of the enum.
    pub const NAMES: [&'static str; 5] = ["rows", "columns", "blocks", "random", "fewest"];

    /// From a parameter value (case already matched by [`sudoku_core::Params::choice`]).
    pub fn from_name(s: &str) -> Option<FillOrder> {
        Some(match s {
            "rows" => FillOrder::Rows,
            "columns" => FillOrder::Columns,
            "blocks" => FillOrder::Blocks,
            "random" => FillOrder::Random,
            "fewest" => FillOrder::Fewest,
            _ => return None,
        })
    }
}

/// One of seed 003's generators, configured.
#[derive(Clone, Debug)]
pub struct PaperSearch {
    /// How many digits each cell tries.
    pub rule: TryRule,
    /// Fill order.
    pub order: FillOrder,
    /// Pre-fill the main-diagonal blocks with random permutations (classic variant only).
    pub diagonals: bool,
}

impl PaperSearch {
    /// The paper's configuration for a rule: rows order, diagonal blocks first.
    pub fn new(rule: TryRule) -> PaperSearch {
        PaperSearch {
            rule,
            order: FillOrder::Rows,
            diagonals: true,
        }
    }
}

struct Frame {
    pos: usize,
    cell: usize,
    /// Range of this frame's shuffled digits in the shared digit buffer.
    from: usize,
    to: usize,
    next: usize,
    /// Tries left (placements of a digit that fits).
    tries: u32,
    /// The digit placed now, if any.
    placed: u16,
}

struct State<'a, const W: usize> {
    geo: Arc<Geometry>,
    size: usize,
    board: Vec<u16>,
    used: Vec<DigitSet<W>>,
    lists: Vec<DigitSet<W>>,
    filled: usize,
    cfg: &'a PaperSearch,
}

impl<const W: usize> State<'_, W> {
    fn fits(&self, cell: usize, d: usize) -> bool {
        self.geo
            .cell_units(cell)
            .iter()
            .all(|&u| !self.used[u as usize].contains(d))
    }

    fn place(&mut self, cell: usize, d: u16) {
        self.board[cell] = d;
        self.filled += 1;
        for &u in self.geo.cell_units(cell) {
            self.used[u as usize].insert(d as usize);
        }
    }

    fn clear(&mut self, cell: usize) {
        let d = self.board[cell] as usize;
        self.board[cell] = 0;
        self.filled -= 1;
        for &u in self.geo.cell_units(cell) {
            self.used[u as usize].remove(d);
        }
    }

    /// Recomputes the list of every empty cell; false if one is empty.
    fn refresh(&mut self) -> bool {
        let full = DigitSet::<W>::full(self.size);
        let mut ok = true;
        for c in 0..self.board.len() {
            if self.board[c] != 0 {
                continue;
            }
            let mut taken = DigitSet::EMPTY;
            for &u in self.geo.cell_units(c) {
                taken = taken.union(&self.used[u as usize]);
            }
            self.lists[c] = full.difference(&taken);
            ok &= !self.lists[c].is_empty();
        }
        ok
    }

    /// Clears the board and fills the diagonal blocks (classic variant, if configured).
    fn start(&mut self, rng: &mut Rng) {
        self.board.iter_mut().for_each(|d| *d = 0);
        self.used.iter_mut().for_each(|s| *s = DigitSet::EMPTY);
        self.filled = 0;
        if self.cfg.diagonals && self.geo.variant() == Variant::Classic {
            let n = self.geo.order().n();
            let mut digits: Vec<u16> = (1..=self.size as u16).collect();
            for k in 0..n {
                digits.shuffle(rng);
                let block = 2 * self.size + k * n + k;
                let cells: Vec<u32> = self.geo.unit(block).to_vec();
                for (&c, &d) in cells.iter().zip(&digits) {
                    self.place(c as usize, d);
                }
            }
        }
    }
}

/// The static fill order over all cells; prefilled cells are skipped when it is walked.
fn static_order(geo: &Geometry, order: FillOrder, rng: &mut Rng) -> Vec<usize> {
    let size = geo.size();
    match order {
        FillOrder::Rows | FillOrder::Fewest => (0..geo.cells()).collect(),
        FillOrder::Columns => (0..geo.cells())
            .map(|k| geo.cell(k % size, k / size))
            .collect(),
        FillOrder::Blocks => (0..size)
            .flat_map(|b| geo.unit(2 * size + b).iter().map(|&c| c as usize))
            .collect(),
        FillOrder::Random => {
            let mut v: Vec<usize> = (0..geo.cells()).collect();
            v.shuffle(rng);
            v
        }
    }
}

/// Which "row" of the fill order a cell is in, for the refresh points.
fn line_of(geo: &Geometry, order: FillOrder, cell: usize, pos: usize) -> usize {
    match order {
        FillOrder::Rows => geo.row(cell),
        FillOrder::Columns => geo.col(cell),
        FillOrder::Blocks => geo.block(cell),
        FillOrder::Random | FillOrder::Fewest => pos / geo.size(),
    }
}

fn run<const W: usize>(
    cfg: &PaperSearch,
    order: Order,
    variant: Variant,
    budget: &Budget,
    rng: &mut Rng,
) -> Outcome {
    let geo = Geometry::get(order, variant);
    let cells = order.cells();
    let mut st = State::<W> {
        geo: Arc::clone(&geo),
        size: order.size(),
        board: vec![0; cells],
        used: vec![DigitSet::EMPTY; geo.unit_count()],
        lists: vec![DigitSet::EMPTY; cells],
        filled: 0,
        cfg,
    };
    let mut stats = Stats::default();
    let mut deadline = Deadline::new(budget, 256);
    let mut digits: Vec<u16> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut walk: Vec<usize> = Vec::new();
    loop {
        // One attempt: the paper's `fillDiagonals(); canFill()`.
        if budget.iterations.is_some_and(|m| stats.iterations >= m) {
            return exhausted(stats, Limit::Iterations);
        }
        stats.iterations += 1;
        st.start(rng);
        walk.clear();
        walk.extend(
            static_order(&geo, cfg.order, rng)
                .into_iter()
                .filter(|&c| st.board[c] == 0),
        );
        let total = walk.len();
        frames.clear();
        digits.clear();
        // `enter` = true: open a frame at position `pos`; false: continue the top frame.
        let mut enter = true;
        let mut pos = 0usize;
        let solved = loop {
            if enter {
                if pos == total {
                    break true;
                }
                let prev_line = (pos > 0).then(|| {
                    let prev = frames.last().expect("a frame per earlier position").cell;
                    line_of(&geo, cfg.order, prev, pos - 1)
                });
                let cell = if cfg.order == FillOrder::Fewest {
                    if prev_line.is_none() || pos % st.size == 0 {
                        // Refresh before choosing, so the choice sees current lists.
                        if !st.refresh() {
                            enter = false;
                            if frames.is_empty() {
                                break false;
                            }
                            continue;
                        }
                    }
                    (0..cells)
                        .filter(|&c| st.board[c] == 0)
                        .min_by_key(|&c| st.lists[c].len())
                        .expect("pos < total leaves an empty cell")
                } else {
                    let cell = walk[pos];
                    if prev_line != Some(line_of(&geo, cfg.order, cell, pos)) && !st.refresh() {
                        enter = false;
                        if frames.is_empty() {
                            break false;
                        }
                        continue;
                    }
                    cell
                };
                let tries = match cfg.rule {
                    TryRule::All => u32::MAX,
                    TryRule::Prune { alpha } => 1 + u32::from(rng.random::<f64>() < alpha),
                    TryRule::WeightedPrune { alpha } => {
                        let p = alpha * st.filled as f64 / cells as f64;
                        1 + u32::from(rng.random::<f64>() < p)
                    }
                };
                let from = digits.len();
                digits.extend(st.lists[cell].iter().map(|d| d as u16));
                digits[from..].shuffle(rng);
                frames.push(Frame {
                    pos,
                    cell,
                    from,
                    to: digits.len(),
                    next: from,
                    tries,
                    placed: 0,
                });
            }
            // Continue the top frame: undo its digit, place the next one that fits.
            let Some(f) = frames.last_mut() else {
                break false;
            };
            if f.placed != 0 {
                let c = f.cell;
                f.placed = 0;
                st.clear(c);
            }
            let mut chosen = 0u16;
            if f.tries > 0 {
                while f.next < f.to {
                    let d = digits[f.next];
                    f.next += 1;
                    if st.fits(f.cell, d as usize) {
                        chosen = d;
                        break;
                    }
                }
            }
            if chosen == 0 {
                let f = frames.pop().expect("top frame");
                digits.truncate(f.from);
                if frames.is_empty() {
                    break false;
                }
                enter = false;
                continue;
            }
            f.tries -= 1;
            f.placed = chosen;
            pos = f.pos + 1;
            let cell = f.cell;
            st.place(cell, chosen);
            stats.nodes += 1;
            if budget.nodes.is_some_and(|m| stats.nodes >= m) {
                return exhausted(stats, Limit::Nodes);
            }
            if deadline.expired() {
                return exhausted(stats, Limit::Time);
            }
            enter = true;
        };
        if solved {
            let grid = Grid::from_cells(order, st.board.clone()).expect("digits in range");
            return Outcome {
                status: Status::Solved(grid),
                stats,
            };
        }
        stats.restarts += 1;
        if deadline.expired() {
            return exhausted(stats, Limit::Time);
        }
    }
}

fn exhausted(stats: Stats, limit: Limit) -> Outcome {
    Outcome {
        status: Status::Exhausted { limit, best: None },
        stats,
    }
}

impl Generator for PaperSearch {
    fn name(&self) -> &str {
        match self.rule {
            TryRule::All => "backtrack",
            TryRule::Prune { .. } => "prune",
            TryRule::WeightedPrune { .. } => "weighted-prune",
        }
    }

    fn generate(
        &mut self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Outcome {
        match order.words() {
            1 => run::<1>(self, order, variant, budget, rng),
            2 => run::<2>(self, order, variant, budget, rng),
            _ => run::<4>(self, order, variant, budget, rng),
        }
    }
}
