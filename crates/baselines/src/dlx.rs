//! `dlx`: Knuth's Algorithm X with dancing links on the exact-cover form of the puzzle.

use sudoku_core::Puzzle;

use crate::control::{search_solver, timed, Control, Search};

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

/// The `size` of a covered column: larger than any real size.
const COVERED: i16 = i16::MAX;

/// One node of the matrix: its four links and its column header. Kept together so an unlink
/// touches one cache line per node instead of one per array.
#[derive(Clone, Copy, Debug)]
struct Node {
    left: u32,
    right: u32,
    up: u32,
    down: u32,
    col: u32,
}

/// The linked matrix. Index 0 is the root, `1..=columns` are column headers, then the row
/// nodes. Rows are circular lists (left/right) and columns too (up/down, through the header);
/// the headers themselves are not linked to each other: the uncovered columns are found by
/// scanning `size`.
#[derive(Debug, Default)]
struct Matrix {
    nodes: Vec<Node>,
    /// The matrix row of each node (unused for headers).
    row: Vec<u32>,
    /// Rows left in each column, by header index; [`COVERED`] for a covered column (and the
    /// root). A column has at most `N` ≤ 256 rows, so `i16` holds it, and SSE2 has a
    /// minimum instruction for `i16` lanes (not for `u32` ones).
    size: Vec<i16>,
    /// The size of each covered column, kept while it is covered.
    hidden: Vec<i16>,
    /// The (cell, digit) of each matrix row.
    placement: Vec<(u32, u16)>,
}

impl Matrix {
    fn clear(&mut self) {
        self.nodes.clear();
        self.row.clear();
        self.size.clear();
        self.hidden.clear();
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
        // Root and headers; their left/right links are unused (see `choose`).
        for i in 0..=columns as u32 {
            self.nodes.push(Node {
                left: i,
                right: i,
                up: i,
                down: i,
                col: i,
            });
            self.row.push(u32::MAX);
            self.size.push(if i == 0 { COVERED } else { 0 });
            self.hidden.push(0);
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
        let first = self.nodes.len() as u32;
        let k = headers.len() as u32;
        for (j, &h) in headers.iter().enumerate() {
            let x = first + j as u32;
            // Append at the bottom of column h.
            let last = self.nodes[h as usize].up;
            self.nodes.push(Node {
                left: if j == 0 { first + k - 1 } else { x - 1 },
                right: if j as u32 == k - 1 { first } else { x + 1 },
                up: last,
                down: h,
                col: h,
            });
            self.nodes[last as usize].down = x;
            self.nodes[h as usize].up = x;
            self.row.push(r);
            self.size[h as usize] += 1;
        }
    }

    #[inline]
    fn cover(&mut self, c: u32) {
        let c = c as usize;
        // Nothing touches a covered column's size (its rows are gone from every other
        // column), so it can be parked and the slot used to mark the column covered.
        self.hidden[c] = self.size[c];
        self.size[c] = COVERED;
        let mut i = self.nodes[c].down as usize;
        while i != c {
            let mut j = self.nodes[i].right as usize;
            while j != i {
                let n = self.nodes[j];
                self.nodes[n.up as usize].down = n.down;
                self.nodes[n.down as usize].up = n.up;
                self.size[n.col as usize] -= 1;
                j = n.right as usize;
            }
            i = self.nodes[i].down as usize;
        }
    }

    #[inline]
    fn uncover(&mut self, c: u32) {
        let c = c as usize;
        let mut i = self.nodes[c].up as usize;
        while i != c {
            let mut j = self.nodes[i].left as usize;
            while j != i {
                let n = self.nodes[j];
                self.size[n.col as usize] += 1;
                self.nodes[n.up as usize].down = j as u32;
                self.nodes[n.down as usize].up = j as u32;
                j = n.left as usize;
            }
            i = self.nodes[i].up as usize;
        }
        self.size[c] = self.hidden[c];
    }

    /// Covers the other columns of the row of node `x` (its own column is covered already).
    #[inline]
    fn select(&mut self, x: u32) {
        let mut j = self.nodes[x as usize].right;
        while j != x {
            self.cover(self.nodes[j as usize].col);
            j = self.nodes[j as usize].right;
        }
    }

    #[inline]
    fn unselect(&mut self, x: u32) {
        let mut j = self.nodes[x as usize].left;
        while j != x {
            self.uncover(self.nodes[j as usize].col);
            j = self.nodes[j as usize].left;
        }
    }

    /// The uncovered column with the fewest rows (the first on ties), or `None` when every
    /// column is covered.
    ///
    /// A scan of `size` (covered columns hold [`COVERED`]) instead of a walk along a header
    /// list: the walk is a chain of dependent loads and was two thirds of the run time on
    /// 9×9. The scan takes chunks whose minimum the compiler computes with SIMD, stopping at
    /// the first chunk holding an empty column (stopping at a forced one too was no faster:
    /// it delays finding dead ends).
    #[inline]
    fn choose(&self) -> Option<u32> {
        const CHUNK: usize = 32;
        let sizes = &self.size[1..];
        let (mut best, mut best_chunk) = (COVERED, 0);
        for (k, chunk) in sizes.chunks(CHUNK).enumerate() {
            let m = chunk.iter().fold(COVERED, |a, &b| a.min(b));
            if m < best {
                (best, best_chunk) = (m, k);
                if m == 0 {
                    break;
                }
            }
        }
        if best == COVERED {
            return None;
        }
        let start = best_chunk * CHUNK;
        sizes[start..]
            .iter()
            .position(|&s| s == best)
            .map(|i| (start + i) as u32 + 1)
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
                        let first = m.nodes[c as usize].down;
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
            let c = m.nodes[x as usize].col;
            let next = m.nodes[x as usize].down;
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

search_solver!(Dlx, crate::DLX);
