//! The search generators of Raggi, Neto and Fontes: `backtrack`, `prune` ("big prune")
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
    choices, Budget, Deadline, DigitSet, Generator, Geometry, Grid, Limit, Order, Outcome, Rng,
    Stats, Status, Variant,
};

// The registry names, also returned by [`Generator::name`].
pub(crate) const BACKTRACK: &str = "backtrack";
pub(crate) const PRUNE: &str = "prune";
pub(crate) const WEIGHTED_PRUNE: &str = "weighted-prune";

/// How many digits a cell may try.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum TryRule {
    /// Every allowed digit (Algorithm 1, backtracking).
    #[default]
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

/// What a stale digit (in a cell's list but no longer fitting, because a cell placed earlier in
/// the same row took it) does to the cell's tries. The paper's loop
/// `for number in allowedNumbers: board[cell] = number; if canFill(next) return true; ...
/// testAmount -= 1` does not say where the fit is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stale {
    /// Skipped: only digits that fit count as tries.
    Skip,
    /// Counted: every digit taken from the list uses a try, a conflicting one fails at once.
    Count,
}

sudoku_core::config! {
    /// One of Raggi et al.'s generators, configured; its parameters are `backtrack`'s, and `prune`
    /// and `weighted-prune` add `alpha`.
    #[derive(Clone, Debug)]
    pub struct PaperSearch for BACKTRACK {
        /// How many digits each cell tries.
        pub rule: TryRule;
        /// Fill order.
        order: FillOrder = "rows"
            of choices![
                "rows" => FillOrder::Rows,
                "columns" => FillOrder::Columns,
                "blocks" => FillOrder::Blocks,
                "random" => FillOrder::Random,
                "fewest" => FillOrder::Fewest,
            ],
            "fill order; lists are refreshed at the start of each row of this order (every N cells \
             for random/fewest); the paper found rows best";
        /// Pre-fill the main-diagonal blocks with random permutations (classic variant only).
        diagonals: bool = true,
            "fill the independent main-diagonal blocks with random permutations first (classic \
             variant only)";
        /// Whether a stale digit uses up a try.
        stale: Stale = "skip" of choices!["skip" => Stale::Skip, "count" => Stale::Count],
            "a digit left in a cell's list that an earlier cell of the same row has taken: skip it \
             without using a try, or count it as a try that fails at once (the paper's loop does \
             not say)";
        /// Draw new diagonal blocks at each restart; the paper's `MAIN` fills them once, before
        /// `while !canFill()`, so `false` is the literal reading.
        redraw: bool = false,
            "draw new diagonal blocks at each restart; false keeps them, as the paper's MAIN \
             (fillDiagonals once, then while !canFill)";
    }
}

impl PaperSearch {
    /// The paper's configuration for a rule: rows order, diagonal blocks first (kept across
    /// restarts), stale digits skipped.
    pub fn new(rule: TryRule) -> PaperSearch {
        PaperSearch {
            rule,
            ..PaperSearch::default()
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
    /// Tries left.
    tries: u32,
    /// The digit placed now, if any.
    placed: u16,
}

/// Search state. `K` is the number of units per cell in the unit table: 3 for the classic
/// variant, 5 (the most, padded) for Sudoku-X; a fixed count lets the compiler unroll the
/// per-node loops over a cell's units.
struct State<'a, const W: usize, const K: usize> {
    geo: Arc<Geometry>,
    size: usize,
    board: Vec<u16>,
    /// The units of each cell, `K` per cell; cells in fewer units are padded with `pad`.
    units: Vec<[u32; K]>,
    /// The padding unit: its slot in `used` is always empty between calls.
    pad: usize,
    /// Digits used in each unit (plus the padding slot).
    used: Vec<DigitSet<W>>,
    lists: Vec<DigitSet<W>>,
    filled: usize,
    cfg: &'a PaperSearch,
}

impl<const W: usize, const K: usize> State<'_, W, K> {
    /// Digits used in the units of `cell`: a digit fits iff it is not in here.
    #[inline]
    fn taken(&self, cell: usize) -> DigitSet<W> {
        let mut taken = DigitSet::EMPTY;
        for &u in &self.units[cell] {
            taken = taken.union(&self.used[u as usize]);
        }
        taken
    }

    #[inline]
    fn place(&mut self, cell: usize, d: u16) {
        self.board[cell] = d;
        self.filled += 1;
        for &u in &self.units[cell] {
            self.used[u as usize].insert(d as usize);
        }
        self.used[self.pad] = DigitSet::EMPTY;
    }

    #[inline]
    fn clear(&mut self, cell: usize) {
        let d = self.board[cell] as usize;
        self.board[cell] = 0;
        self.filled -= 1;
        for &u in &self.units[cell] {
            self.used[u as usize].remove(d);
        }
    }

    /// Recomputes the list of every empty cell; false if one is empty (`fewest` reads them all).
    fn refresh(&mut self) -> bool {
        let full = DigitSet::<W>::full(self.size);
        let mut ok = true;
        for c in 0..self.board.len() {
            if self.board[c] != 0 {
                continue;
            }
            self.lists[c] = full.difference(&self.taken(c));
            ok &= !self.lists[c].is_empty();
        }
        ok
    }

    /// The same test as [`State::refresh`] when `line` are the cells of the row about to be
    /// filled and `rest` every other empty cell: only `line`'s lists are read before the next
    /// refresh, so only they are stored, and the first empty cell ends the check.
    fn refresh_line(&mut self, line: &[usize], rest: &[usize]) -> bool {
        let full = DigitSet::<W>::full(self.size);
        for &c in line {
            self.lists[c] = full.difference(&self.taken(c));
            if self.lists[c].is_empty() {
                return false;
            }
        }
        // A cell has no candidate iff its units' digits cover the full set.
        rest.iter().all(|&c| self.taken(c) != full)
    }

    /// Clears the board and fills the diagonal blocks (classic variant, if configured).
    /// A failed attempt leaves only the diagonal blocks, so a restart that keeps them needs
    /// no call.
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

fn run<const W: usize, const K: usize>(
    cfg: &PaperSearch,
    order: Order,
    variant: Variant,
    budget: &Budget,
    rng: &mut Rng,
) -> Outcome {
    let geo = Geometry::get(order, variant);
    let cells = order.cells();
    let pad = geo.unit_count();
    let units = (0..cells)
        .map(|c| {
            let mut a = [pad as u32; K];
            let cu = geo.cell_units(c);
            debug_assert!(cu.len() <= K, "a cell is in at most K units");
            for (slot, &u) in a.iter_mut().zip(cu) {
                *slot = u;
            }
            a
        })
        .collect();
    let mut st = State::<W, K> {
        geo: Arc::clone(&geo),
        size: order.size(),
        board: vec![0; cells],
        units,
        pad,
        used: vec![DigitSet::EMPTY; pad + 1],
        lists: vec![DigitSet::EMPTY; cells],
        filled: 0,
        cfg,
    };
    let mut stats = Stats::default();
    let mut deadline = Deadline::new(budget, 256);
    let mut digits: Vec<u16> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut walk: Vec<usize> = Vec::new();
    // For each walk position: one past the last position of its line (0 if it does not start
    // a line), so a refresh point is a lookup, not a division.
    let mut line_end: Vec<usize> = Vec::new();
    let mut first = true;
    loop {
        // One attempt: the paper's `fillDiagonals(); canFill()` (or only `canFill()`).
        if budget.iterations.is_some_and(|m| stats.iterations >= m) {
            return exhausted(stats, Limit::Iterations);
        }
        stats.iterations += 1;
        if first || cfg.redraw {
            st.start(rng);
        }
        first = false;
        walk.clear();
        walk.extend(
            static_order(&geo, cfg.order, rng)
                .into_iter()
                .filter(|&c| st.board[c] == 0),
        );
        let total = walk.len();
        line_end.clear();
        line_end.resize(total, 0);
        let mut start = 0;
        for k in 1..=total {
            if k == total
                || line_of(&geo, cfg.order, walk[k], k)
                    != line_of(&geo, cfg.order, walk[k - 1], k - 1)
            {
                line_end[start] = k;
                start = k;
            }
        }
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
                let cell = if cfg.order == FillOrder::Fewest {
                    if pos % st.size == 0 {
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
                    let end = line_end[pos];
                    if end != 0 && !st.refresh_line(&walk[pos..end], &walk[end..]) {
                        enter = false;
                        if frames.is_empty() {
                            break false;
                        }
                        continue;
                    }
                    walk[pos]
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
            // The units do not change while the list is scanned.
            let taken = st.taken(f.cell);
            let mut chosen = 0u16;
            match cfg.stale {
                Stale::Skip => {
                    if f.tries > 0 {
                        while f.next < f.to {
                            let d = digits[f.next];
                            f.next += 1;
                            if !taken.contains(d as usize) {
                                chosen = d;
                                f.tries -= 1;
                                break;
                            }
                        }
                    }
                }
                Stale::Count => {
                    // Each digit set is a try; one that conflicts fails at once.
                    while f.tries > 0 && f.next < f.to {
                        let d = digits[f.next];
                        f.next += 1;
                        f.tries -= 1;
                        if !taken.contains(d as usize) {
                            chosen = d;
                            break;
                        }
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
            TryRule::All => BACKTRACK,
            TryRule::Prune { .. } => PRUNE,
            TryRule::WeightedPrune { .. } => WEIGHTED_PRUNE,
        }
    }

    fn generate(
        &mut self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Outcome {
        // `K`, the most units a cell is in: row, column and block, plus two diagonals in X.
        sudoku_core::for_width!(order, W => match variant {
            Variant::Classic => run::<W, 3>(self, order, variant, budget, rng),
            Variant::Diagonal => run::<W, 5>(self, order, variant, budget, rng),
        })
    }
}
