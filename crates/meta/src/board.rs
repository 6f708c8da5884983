//! Lewis's representation: every block is a permutation of its digits, so only the lines
//! (rows, columns and, for Sudoku-X, the two diagonals) can conflict.
//!
//! The cost is the number of digits missing from each line, summed; a solution has cost 0.
//! Per-line digit counts make the change of cost of a swap of two cells of one block an O(1)
//! computation (a cell lies on at most four lines).

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::{Geometry, Grid, Puzzle, Rng, UnitKind};

/// A line index that no cell uses, marking an unused slot of [`Board`]'s per-cell line list.
const NO_LINE: u32 = u32::MAX;

/// A complete assignment in which every block holds each digit once, with incremental cost.
///
/// Fixed cells (the givens, plus whatever preprocessing fixed) never move: every move is a
/// swap of two free cells of one block.
#[derive(Clone, Debug)]
pub struct Board {
    geo: Arc<Geometry>,
    size: usize,
    cells: Vec<u16>,
    fixed: Vec<bool>,
    /// Per cell: its lines (row, column, then diagonals), `NO_LINE` in unused slots.
    lines: Vec<[u32; 4]>,
    /// `counts[line * (size + 1) + d]`: how many cells of `line` hold `d`.
    counts: Vec<u16>,
    cost: u64,
    /// Free cells of each block.
    free: Vec<Vec<u32>>,
    /// Blocks with at least two free cells: the only ones a swap can touch.
    movable: Vec<u32>,
    /// When moves are restricted to candidates: per cell, `words` words of a bitset of the
    /// digits no fixed cell of its units holds (bit `d - 1`). Empty when unrestricted.
    allowed: Vec<u64>,
    words: usize,
}

/// Why a board cannot be built from fixed cells.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Two fixed cells of one block hold the same digit, so no block permutation exists.
    #[error("block {block} holds digit {digit} twice among its fixed cells", block = .block + 1)]
    BlockRepeat {
        /// Block (0-based).
        block: usize,
        /// The repeated digit.
        digit: u16,
    },
}

impl Board {
    /// A board whose fixed cells are the non-empty cells of `fixed` (the puzzle's givens,
    /// possibly extended by preprocessing); free cells start empty and must be filled with
    /// [`Board::fill_random`] or [`Board::fill_rcl`] before any move.
    pub fn new(puzzle: &Puzzle, fixed: &Grid) -> Result<Board, BoardError> {
        let geo = puzzle.geometry();
        let size = geo.size();
        let diag_base = 3 * size;
        let mut lines = Vec::with_capacity(geo.cells());
        for c in 0..geo.cells() {
            let mut l = [NO_LINE; 4];
            let mut k = 0;
            for &u in geo.cell_units(c) {
                let u = u as usize;
                let line = match geo.unit_kind(u) {
                    UnitKind::Block(_) => continue,
                    UnitKind::Row(_) | UnitKind::Column(_) => u,
                    // Diagonals follow rows and columns in the line numbering.
                    UnitKind::MainDiagonal | UnitKind::AntiDiagonal => u - diag_base + 2 * size,
                };
                l[k] = line as u32;
                k += 1;
            }
            lines.push(l);
        }
        let line_count = 2 * size + geo.unit_count() - 3 * size;
        let mut board = Board {
            size,
            cells: fixed.cells().to_vec(),
            fixed: fixed.cells().iter().map(|&d| d != 0).collect(),
            lines,
            counts: vec![0; line_count * (size + 1)],
            cost: 0,
            free: vec![Vec::new(); size],
            movable: Vec::new(),
            allowed: Vec::new(),
            words: size.div_ceil(64),
            geo,
        };
        for b in 0..size {
            let mut seen = vec![false; size + 1];
            for &c in board.geo.unit(2 * size + b) {
                let d = board.cells[c as usize];
                if d == 0 {
                    board.free[b].push(c);
                } else if std::mem::replace(&mut seen[d as usize], true) {
                    return Err(BoardError::BlockRepeat { block: b, digit: d });
                }
            }
        }
        board.movable = (0..size as u32)
            .filter(|&b| board.free[b as usize].len() >= 2)
            .collect();
        for c in 0..board.cells.len() {
            if board.cells[c] != 0 {
                board.add(c, board.cells[c]);
            }
        }
        Ok(board)
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geo
    }

    /// The digit of cell `c` (0 only before filling).
    #[inline]
    pub fn get(&self, c: usize) -> u16 {
        self.cells[c]
    }

    /// Is cell `c` fixed?
    #[inline]
    pub fn is_fixed(&self, c: usize) -> bool {
        self.fixed[c]
    }

    /// The current cost: digits missing from the lines, summed.
    #[inline]
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// Free cells of block `b`.
    pub fn free_cells(&self, b: usize) -> &[u32] {
        &self.free[b]
    }

    /// Blocks with at least two free cells.
    pub fn movable_blocks(&self) -> &[u32] {
        &self.movable
    }

    /// Number of free cells.
    pub fn free_count(&self) -> usize {
        self.free.iter().map(Vec::len).sum()
    }

    /// Number of swaps in the full neighbourhood (pairs of free cells of one block).
    pub fn neighbourhood_size(&self) -> u64 {
        self.free
            .iter()
            .map(|f| (f.len() * f.len().saturating_sub(1) / 2) as u64)
            .sum()
    }

    /// The assignment as a grid.
    pub fn to_grid(&self) -> Grid {
        let order = self.geo.order();
        Grid::from_cells(order, self.cells.clone()).expect("board digits are in range")
    }

    /// Copies the assignment into `out` (same order), without allocating.
    pub fn copy_cells_into(&self, out: &mut Vec<u16>) {
        out.clear();
        out.extend_from_slice(&self.cells);
    }

    /// Sets the free cells from `cells` (a full assignment saved from this board), recounting.
    pub fn restore(&mut self, cells: &[u16]) {
        self.cells.copy_from_slice(cells);
        self.recount();
    }

    /// Fills every free cell with a random permutation of the digits its block misses
    /// (Lewis's initial solution). With [`Board::restrict_to_candidates`], each cell, in random
    /// order, takes a random missing digit among its candidates when one is left.
    pub fn fill_random(&mut self, rng: &mut Rng) {
        self.clear_free();
        for b in 0..self.size {
            let mut missing = self.missing_in_block(b);
            missing.shuffle(rng);
            let mut cells = self.free[b].clone();
            if self.allowed.is_empty() {
                for (i, &c) in cells.iter().enumerate() {
                    self.cells[c as usize] = missing[i];
                }
                continue;
            }
            cells.shuffle(rng);
            for &c in &cells {
                let c = c as usize;
                let pos = missing
                    .iter()
                    .position(|&d| self.is_allowed(c, d))
                    .unwrap_or(0);
                self.cells[c] = missing.swap_remove(pos);
            }
        }
        self.recount();
    }

    /// Restricts construction and moves to candidates: a digit held by a fixed cell of a
    /// cell's row, column or diagonal can never be that cell's in a solution, so a swap is
    /// only allowed when it does not increase the number of free cells holding such a digit.
    pub fn restrict_to_candidates(&mut self) {
        let w = self.words;
        let mut allowed = vec![0u64; self.cells.len() * w];
        for c in 0..self.cells.len() {
            if self.fixed[c] {
                continue;
            }
            let mut held = vec![false; self.size + 1];
            for &u in self.geo.cell_units(c) {
                for &p in self.geo.unit(u as usize) {
                    if self.fixed[p as usize] {
                        held[self.cells[p as usize] as usize] = true;
                    }
                }
            }
            for d in 1..=self.size {
                if !held[d] {
                    allowed[c * w + (d - 1) / 64] |= 1 << ((d - 1) % 64);
                }
            }
        }
        self.allowed = allowed;
    }

    /// Is `d` a candidate of cell `c` (always, when moves are unrestricted)?
    #[inline]
    pub fn is_allowed(&self, c: usize, d: u16) -> bool {
        if self.allowed.is_empty() {
            return true;
        }
        let d = d as usize - 1;
        self.allowed[c * self.words + d / 64] >> (d % 64) & 1 == 1
    }

    /// May cells `a` and `b` swap? Always, unless moves are restricted to candidates.
    #[inline]
    pub fn swap_allowed(&self, a: usize, b: usize) -> bool {
        if self.allowed.is_empty() {
            return true;
        }
        let (x, y) = (self.cells[a], self.cells[b]);
        let bad_after = !self.is_allowed(a, y) as u8 + !self.is_allowed(b, x) as u8;
        let bad_before = !self.is_allowed(a, x) as u8 + !self.is_allowed(b, y) as u8;
        bad_after <= bad_before
    }

    /// GRASP construction by a restricted candidate list: free cells are visited in random
    /// order; a cell's candidates are the digits its block still misses, ranked by the
    /// repetitions they would create on the cell's lines; the best `ceil(alpha · count)`
    /// (at least one) form the list and one of them is drawn uniformly. `alpha = 0` is greedy
    /// (ties broken at random), `alpha = 1` is random. With [`Board::restrict_to_candidates`],
    /// the list is drawn from the cell's candidates whenever one is left.
    pub fn fill_rcl(&mut self, alpha: f64, rng: &mut Rng) {
        self.clear_free();
        let mut order: Vec<u32> = self.free.iter().flatten().copied().collect();
        order.shuffle(rng);
        let mut missing: Vec<Vec<u16>> = (0..self.size).map(|b| self.missing_in_block(b)).collect();
        let mut ranked: Vec<(u32, u32, u16)> = Vec::with_capacity(self.size);
        for &c in &order {
            let c = c as usize;
            let b = self.geo.block(c);
            ranked.clear();
            for &d in &missing[b] {
                let mut reps = 0u32;
                for &l in self.cell_lines(c) {
                    reps += self.counts[l as usize * (self.size + 1) + d as usize] as u32;
                }
                // A random key breaks ties, so alpha = 0 is not biased towards small digits.
                // Candidates first (digits no fixed peer holds), then fewest repetitions.
                let key = reps + if self.is_allowed(c, d) { 0 } else { 1 << 20 };
                ranked.push((key, rng.random::<u32>(), d));
            }
            ranked.sort_unstable();
            // When candidates are known and some are left, the list holds only candidates.
            let usable = match ranked.iter().filter(|r| r.0 < 1 << 20).count() {
                0 => ranked.len(),
                n => n,
            };
            let k = ((alpha * usable as f64).ceil() as usize).clamp(1, usable);
            let d = ranked[rng.random_range(0..k)].2;
            let pos = missing[b]
                .iter()
                .position(|&x| x == d)
                .expect("drawn from missing");
            missing[b].swap_remove(pos);
            self.cells[c] = d;
            self.add(c, d);
        }
        self.cost = self.cost_from_counts();
    }

    fn clear_free(&mut self) {
        for c in 0..self.cells.len() {
            if !self.fixed[c] {
                self.cells[c] = 0;
            }
        }
        self.recount();
    }

    fn missing_in_block(&self, b: usize) -> Vec<u16> {
        let mut present = vec![false; self.size + 1];
        for &c in self.geo.unit(2 * self.size + b) {
            if self.fixed[c as usize] {
                present[self.cells[c as usize] as usize] = true;
            }
        }
        (1..=self.size as u16)
            .filter(|&d| !present[d as usize])
            .collect()
    }

    #[inline]
    fn cell_lines(&self, c: usize) -> &[u32] {
        let l = &self.lines[c];
        let k = l.iter().position(|&x| x == NO_LINE).unwrap_or(4);
        &l[..k]
    }

    #[inline]
    fn add(&mut self, c: usize, d: u16) {
        let s = self.size + 1;
        for i in 0..4 {
            let l = self.lines[c][i];
            if l == NO_LINE {
                break;
            }
            self.counts[l as usize * s + d as usize] += 1;
        }
    }

    /// Recounts every line from the cells and recomputes the cost.
    fn recount(&mut self) {
        self.counts.iter_mut().for_each(|x| *x = 0);
        for c in 0..self.cells.len() {
            let d = self.cells[c];
            if d != 0 {
                self.add(c, d);
            }
        }
        self.cost = self.cost_from_counts();
    }

    fn cost_from_counts(&self) -> u64 {
        self.counts
            .chunks(self.size + 1)
            .map(|line| line[1..].iter().filter(|&&k| k == 0).count() as u64)
            .sum()
    }

    /// The cost computed from scratch from the cells (for checks; the search uses
    /// [`Board::cost`], kept up to date incrementally). Empty cells count as missing digits.
    pub fn recompute_cost(&self) -> u64 {
        let lines = self.counts.len() / (self.size + 1);
        let mut present = vec![false; self.size + 1];
        let mut cost = 0u64;
        let mut line_cells: Vec<Vec<usize>> = vec![Vec::new(); lines];
        for c in 0..self.cells.len() {
            for &l in self.cell_lines(c) {
                line_cells[l as usize].push(c);
            }
        }
        for cells in &line_cells {
            present.iter_mut().for_each(|p| *p = false);
            for &c in cells {
                present[self.cells[c] as usize] = true;
            }
            cost += (1..=self.size).filter(|&d| !present[d]).count() as u64;
        }
        cost
    }

    /// The change of cost if cells `a` and `b` (two cells of one block) swapped digits.
    #[inline]
    pub fn delta(&self, a: usize, b: usize) -> i64 {
        let (x, y) = (self.cells[a] as usize, self.cells[b] as usize);
        let s = self.size + 1;
        let (la, lb) = (&self.lines[a], &self.lines[b]);
        let mut delta = 0i64;
        // A line holding both cells keeps its digits; any other line loses one digit and
        // gains the other, which changes its missing count only at 1 → 0 and 0 → 1.
        for &l in la {
            if l == NO_LINE {
                break;
            }
            if lb.contains(&l) {
                continue;
            }
            let base = l as usize * s;
            delta += (self.counts[base + x] == 1) as i64 - (self.counts[base + y] == 0) as i64;
        }
        for &l in lb {
            if l == NO_LINE {
                break;
            }
            if la.contains(&l) {
                continue;
            }
            let base = l as usize * s;
            delta += (self.counts[base + y] == 1) as i64 - (self.counts[base + x] == 0) as i64;
        }
        delta
    }

    /// Swaps the digits of cells `a` and `b` (two free cells of one block), given the
    /// `delta` that [`Board::delta`] returned for them.
    #[inline]
    pub fn apply(&mut self, a: usize, b: usize, delta: i64) {
        debug_assert!(!self.fixed[a] && !self.fixed[b]);
        debug_assert_eq!(self.geo.block(a), self.geo.block(b));
        let (x, y) = (self.cells[a] as usize, self.cells[b] as usize);
        let s = self.size + 1;
        let (la, lb) = (self.lines[a], self.lines[b]);
        for &l in &la {
            if l == NO_LINE {
                break;
            }
            if !lb.contains(&l) {
                self.counts[l as usize * s + x] -= 1;
                self.counts[l as usize * s + y] += 1;
            }
        }
        for &l in &lb {
            if l == NO_LINE {
                break;
            }
            if !la.contains(&l) {
                self.counts[l as usize * s + y] -= 1;
                self.counts[l as usize * s + x] += 1;
            }
        }
        self.cells.swap(a, b);
        self.cost = (self.cost as i64 + delta) as u64;
    }

    /// Draws a random swap: a movable block, then two distinct free cells of it. `None`
    /// when no block has two free cells.
    #[inline]
    pub fn random_swap(&self, rng: &mut Rng) -> Option<(usize, usize)> {
        if self.movable.is_empty() {
            return None;
        }
        let b = self.movable[rng.random_range(0..self.movable.len())] as usize;
        let f = &self.free[b];
        let i = rng.random_range(0..f.len());
        let mut j = rng.random_range(0..f.len() - 1);
        if j >= i {
            j += 1;
        }
        Some((f[i] as usize, f[j] as usize))
    }
}
