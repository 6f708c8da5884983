//! `backtrack-bits`: backtracking on used-digit bitmasks, one per unit (Takano et al.'s "bit
//! manipulation" backtracking).

use sudoku_core::{choices, DigitSet, Puzzle};

use crate::control::{search_solver, Control, Search};

/// Which empty cell [`BitsBacktrack`] fills next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// The empty cell with the fewest candidates (first in row-major order on ties); a cell
    /// with none fails at once.
    #[default]
    Mrv,
    /// The next empty cell in row-major order, like [`crate::Backtrack`] but with O(1) checks.
    RowMajor,
}

sudoku_core::config! {
    /// Backtracking with a used-digits mask per unit (row, column, block and, for Sudoku-X, each
    /// diagonal). The candidates of a cell are the digits in none of its units' masks, found with a
    /// few word operations; placing or removing a digit updates 3 to 5 masks. Nothing else is
    /// stored: no per-cell domains, no propagation beyond the choice of cell.
    ///
    /// Takano et al. names the technique (units as hyperedges with O(1) digit checks) but not the cell
    /// order, so both are offered: [`Select::Mrv`] by default (it scans the empty cells each node
    /// and picks the one with fewest candidates, which also fails as soon as a cell has none), and
    /// [`Select::RowMajor`].
    ///
    /// A node is one digit placed; a guess is a cell chosen with more than one candidate.
    #[derive(Debug)]
    pub struct BitsBacktrack for crate::BITS {
        select: Select = "mrv"
            of choices!["mrv" => Select::Mrv, "row-major" => Select::RowMajor],
            "which empty cell to fill next: fewest candidates (scan), or the next in row-major \
             order";
    }
}

impl BitsBacktrack {
    /// A solver choosing cells by `select`.
    pub fn new(select: Select) -> BitsBacktrack {
        BitsBacktrack { select }
    }
}

/// One level of the search: the cell being filled and the digits still to try there.
struct Frame<const W: usize> {
    cell: u32,
    left: DigitSet<W>,
}

struct State<'a, const W: usize> {
    geo: &'a sudoku_core::Geometry,
    used: Vec<DigitSet<W>>,
    grid: Vec<u16>,
    /// Empty cells; `free[depth..]` are the ones not filled yet (order changes as MRV swaps).
    free: Vec<u32>,
    full: DigitSet<W>,
}

impl<const W: usize> State<'_, W> {
    #[inline]
    fn candidates(&self, cell: usize) -> DigitSet<W> {
        let mut taken = DigitSet::EMPTY;
        for &u in self.geo.cell_units(cell) {
            taken = taken.union(&self.used[u as usize]);
        }
        self.full.difference(&taken)
    }

    #[inline]
    fn toggle(&mut self, cell: usize, d: usize, on: bool) {
        for &u in self.geo.cell_units(cell) {
            let m = &mut self.used[u as usize];
            if on {
                m.insert(d);
            } else {
                m.remove(d);
            }
        }
        self.grid[cell] = if on { d as u16 } else { 0 };
    }

    /// Moves the next cell to fill to `free[depth]` and returns its candidates.
    #[inline]
    fn pick(&mut self, depth: usize, select: Select) -> DigitSet<W> {
        if select == Select::RowMajor {
            return self.candidates(self.free[depth] as usize);
        }
        let mut best = depth;
        let mut best_set = self.candidates(self.free[depth] as usize);
        let mut best_len = best_set.len();
        for j in depth + 1..self.free.len() {
            if best_len <= 1 {
                break; // nothing beats a forced cell or a dead end
            }
            let s = self.candidates(self.free[j] as usize);
            let l = s.len();
            if l < best_len {
                (best, best_set, best_len) = (j, s, l);
            }
        }
        self.free.swap(depth, best);
        best_set
    }
}

fn run<const W: usize>(select: Select, puzzle: &Puzzle, ctl: &mut Control) {
    let geo = puzzle.geometry();
    let givens = puzzle.givens().cells();
    let mut st = State::<W> {
        geo: &geo,
        used: vec![DigitSet::EMPTY; geo.unit_count()],
        grid: givens.to_vec(),
        free: (0..givens.len() as u32)
            .filter(|&c| givens[c as usize] == 0)
            .collect(),
        full: DigitSet::full(geo.size()),
    };
    for (c, &d) in givens.iter().enumerate() {
        if d != 0 {
            st.toggle(c, d as usize, true);
        }
    }
    if st.free.is_empty() {
        ctl.solution(&st.grid);
        return;
    }
    let mut stack: Vec<Frame<W>> = Vec::with_capacity(st.free.len());
    let left = st.pick(0, select);
    if left.len() > 1 {
        ctl.guesses += 1;
    }
    stack.push(Frame {
        cell: st.free[0],
        left,
    });
    // Invariant: stack.len() - 1 is the depth of the top frame, and its cell is empty.
    while let Some(top) = stack.last_mut() {
        let cell = top.cell as usize;
        let Some(d) = top.left.first() else {
            stack.pop();
            if let Some(prev) = stack.last() {
                let c = prev.cell as usize;
                st.toggle(c, st.grid[c] as usize, false);
            }
            continue;
        };
        top.left.remove(d);
        if !ctl.node() {
            return;
        }
        let depth = stack.len() - 1;
        st.toggle(cell, d, true);
        if depth + 1 == st.free.len() {
            if !ctl.solution(&st.grid) {
                return;
            }
            st.toggle(cell, d, false);
            continue;
        }
        let left = st.pick(depth + 1, select);
        if left.len() > 1 {
            ctl.guesses += 1;
        }
        stack.push(Frame {
            cell: st.free[depth + 1],
            left,
        });
    }
}

impl Search for BitsBacktrack {
    fn search(&mut self, puzzle: &Puzzle, ctl: &mut Control) {
        sudoku_core::for_width!(puzzle.order(), W => run::<W>(self.select, puzzle, ctl))
    }
}

search_solver!(BitsBacktrack, crate::BITS);
