//! `dlx`: Knuth's Algorithm X with dancing links on the exact-cover form of the puzzle.

use sudoku_core::{Budget, CountOutcome, Outcome, Puzzle, Rng, Solver, Unsupported};

use crate::control::{count_with, solve_with, timed, Control, Search};

/// Algorithm X with dancing links (Knuth, "Dancing Links", 2000).
///
/// The exact-cover matrix has a column per cell ("holds one digit") and per (unit, digit)
/// ("the unit holds this digit once"): rows, columns, blocks and, for Sudoku-X, the two
/// diagonals, since the columns come from the puzzle's geometry. A matrix row is a (cell,
/// digit) placement. Only what the givens leave open is built: a given's columns are satisfied
/// already, so they are left out, and an empty cell gets rows only for digits none of its units
/// holds. That keeps a 25×25 puzzle's matrix small; an empty order-`n` grid still has `n⁶` rows
/// of `4` (or up to `6`) nodes, about 24 bytes each — 1.6 GB for an empty 256×256, so keep DLX
/// to puzzles of that size with many givens.
///
/// The search covers the column with the fewest rows (first on ties). Nodes, arrays and
/// headers are indices into flat vectors; the search is iterative.
///
/// A node is one matrix row chosen (one digit placed); a guess is a column chosen with more
/// than one row. [`sudoku_core::Stats::build_time`] holds the time to build the matrix, and
/// `extra` its size (`rows`, `columns`).
#[derive(Debug, Default)]
pub struct Dlx {
    m: Matrix,
}

impl Dlx {
    /// A solver with empty scratch space (the matrix is rebuilt for each puzzle, reusing the
    /// allocations).
    pub fn new() -> Dlx {
        Dlx::default()
    }
}

/// The toroidal linked matrix. Index 0 is the root, `1..=columns` are column headers, then the
/// row nodes.
#[derive(Debug, Default)]
struct Matrix {
    left: Vec<u32>,
    right: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// The column header of each node (headers point to themselves).
    col: Vec<u32>,
    /// The matrix row of each node (unused for headers).
    row: Vec<u32>,
    /// Rows left in each column, by header index.
    size: Vec<u32>,
    /// The (cell, digit) of each matrix row.
    placement: Vec<(u32, u16)>,
}

impl Matrix {
    fn clear(&mut self) {
        for v in [
            &mut self.left,
            &mut self.right,
            &mut self.up,
            &mut self.down,
            &mut self.col,
            &mut self.row,
            &mut self.size,
        ] {
            v.clear();
        }
        self.placement.clear();
    }

    /// Builds the matrix of what `puzzle`'s givens leave open (whose givens are consistent).
    /// A constraint no row can satisfy gets an empty column, which the search fails on first.
    fn build(&mut self, puzzle: &Puzzle) {
        self.clear();
        let geo = puzzle.geometry();
        let size = geo.size();
        let cells = geo.cells();
        let givens = puzzle.givens().cells();
        // used[u * size + d - 1]: the givens already put digit d in unit u.
        let mut used = vec![false; geo.unit_count() * size];
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                for &u in geo.cell_units(c) {
                    used[u as usize * size + d as usize - 1] = true;
                }
            }
        }
        // Header index of each constraint, 0 when the givens satisfy it.
        let mut header_of_cell = vec![0u32; cells];
        let mut header_of_unit_digit = vec![0u32; used.len()];
        let mut next = 1u32;
        for (c, h) in header_of_cell.iter_mut().enumerate() {
            if givens[c] == 0 {
                *h = next;
                next += 1;
            }
        }
        for (i, h) in header_of_unit_digit.iter_mut().enumerate() {
            if !used[i] {
                *h = next;
                next += 1;
            }
        }
        let columns = next as usize - 1;
        // Root and headers, linked in a ring.
        for i in 0..=columns as u32 {
            self.left.push(if i == 0 { columns as u32 } else { i - 1 });
            self.right
                .push(if i as usize == columns { 0 } else { i + 1 });
            self.up.push(i);
            self.down.push(i);
            self.col.push(i);
            self.row.push(u32::MAX);
            self.size.push(0);
        }
        let mut row_headers: Vec<u32> = Vec::with_capacity(6);
        for c in 0..cells {
            if givens[c] != 0 {
                continue;
            }
            for d in 1..=size {
                let units = geo.cell_units(c);
                if units.iter().any(|&u| used[u as usize * size + d - 1]) {
                    continue;
                }
                row_headers.clear();
                row_headers.push(header_of_cell[c]);
                row_headers.extend(
                    units
                        .iter()
                        .map(|&u| header_of_unit_digit[u as usize * size + d - 1]),
                );
                self.add_row(&row_headers, (c as u32, d as u16));
            }
        }
    }

    fn add_row(&mut self, headers: &[u32], placement: (u32, u16)) {
        let r = self.placement.len() as u32;
        self.placement.push(placement);
        let first = self.left.len() as u32;
        let k = headers.len() as u32;
        for (j, &h) in headers.iter().enumerate() {
            let x = first + j as u32;
            self.left.push(if j == 0 { first + k - 1 } else { x - 1 });
            self.right
                .push(if j as u32 == k - 1 { first } else { x + 1 });
            // Append at the bottom of column h.
            let last = self.up[h as usize];
            self.up.push(last);
            self.down.push(h);
            self.down[last as usize] = x;
            self.up[h as usize] = x;
            self.col.push(h);
            self.row.push(r);
            self.size[h as usize] += 1;
        }
    }

    #[inline]
    fn cover(&mut self, c: u32) {
        let c = c as usize;
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut i = self.down[c] as usize;
        while i != c {
            let mut j = self.right[i] as usize;
            while j != i {
                let (u, d) = (self.up[j], self.down[j]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.size[self.col[j] as usize] -= 1;
                j = self.right[j] as usize;
            }
            i = self.down[i] as usize;
        }
    }

    #[inline]
    fn uncover(&mut self, c: u32) {
        let c = c as usize;
        let mut i = self.up[c] as usize;
        while i != c {
            let mut j = self.left[i] as usize;
            while j != i {
                self.size[self.col[j] as usize] += 1;
                let (u, d) = (self.up[j], self.down[j]);
                self.down[u as usize] = j as u32;
                self.up[d as usize] = j as u32;
                j = self.left[j] as usize;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = c as u32;
        self.left[r as usize] = c as u32;
    }

    /// Covers the other columns of the row of node `x` (its own column is covered already).
    #[inline]
    fn select(&mut self, x: u32) {
        let mut j = self.right[x as usize];
        while j != x {
            self.cover(self.col[j as usize]);
            j = self.right[j as usize];
        }
    }

    #[inline]
    fn unselect(&mut self, x: u32) {
        let mut j = self.left[x as usize];
        while j != x {
            self.uncover(self.col[j as usize]);
            j = self.left[j as usize];
        }
    }

    /// The uncovered column with the fewest rows, or `None` when every column is covered.
    #[inline]
    fn choose(&self) -> Option<u32> {
        let mut c = self.right[0];
        if c == 0 {
            return None;
        }
        let mut best = c;
        let mut best_size = u32::MAX;
        while c != 0 {
            let s = self.size[c as usize];
            if s < best_size {
                (best, best_size) = (c, s);
                if s <= 1 {
                    break;
                }
            }
            c = self.right[c as usize];
        }
        Some(best)
    }
}

impl Search for Dlx {
    fn search(&mut self, puzzle: &Puzzle, ctl: &mut Control) {
        let m = &mut self.m;
        timed(ctl, || m.build(puzzle));
        ctl.stats
            .extra
            .push(("rows".to_string(), m.placement.len().to_string()));
        ctl.stats
            .extra
            .push(("columns".to_string(), (m.size.len() - 1).to_string()));
        let mut grid = puzzle.givens().cells().to_vec();
        // The chosen node of each level; its column is covered and its row selected.
        let mut stack: Vec<u32> = Vec::new();
        // `descend`: choose a column at the current level. Otherwise backtrack: move the top
        // level to the next row of its column.
        let mut descend = true;
        loop {
            if descend {
                match m.choose() {
                    None => {
                        for &x in &stack {
                            let (c, d) = m.placement[m.row[x as usize] as usize];
                            grid[c as usize] = d;
                        }
                        if !ctl.solution(&grid) {
                            return;
                        }
                        descend = false;
                    }
                    Some(c) => {
                        let first = m.down[c as usize];
                        if first == c {
                            descend = false; // a constraint nothing can satisfy
                            continue;
                        }
                        if m.size[c as usize] > 1 {
                            ctl.guesses += 1;
                        }
                        if !ctl.node() {
                            return;
                        }
                        m.cover(c);
                        m.select(first);
                        stack.push(first);
                    }
                }
                continue;
            }
            let Some(x) = stack.pop() else { return };
            m.unselect(x);
            let c = m.col[x as usize];
            let next = m.down[x as usize];
            if next == c {
                m.uncover(c);
                continue;
            }
            if !ctl.node() {
                return;
            }
            m.select(next);
            stack.push(next);
            descend = true;
        }
    }
}

impl Solver for Dlx {
    fn name(&self) -> &str {
        "dlx"
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, _rng: &mut Rng) -> Outcome {
        solve_with(self, puzzle, budget)
    }

    fn count(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        collect: bool,
        budget: &Budget,
        _rng: &mut Rng,
    ) -> Result<CountOutcome, Unsupported> {
        Ok(count_with(self, puzzle, limit, collect, budget))
    }
}
