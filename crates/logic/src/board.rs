//! The candidate state the rules read and change: one candidate set per cell, the digit of each
//! filled cell, and the digits each unit already holds.

use std::sync::Arc;

use sudoku_core::{DigitSet, Geometry, Grid, Puzzle};

/// The rules proved that the position has no solution (a cell or a unit ran out of room).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// Candidates of one grid at width `W` (see `sudoku_core::for_width`).
#[derive(Clone, Debug)]
pub(crate) struct Board<const W: usize> {
    pub geo: Arc<Geometry>,
    /// Candidates of each open cell (empty once the cell is filled).
    pub cand: Vec<DigitSet<W>>,
    /// The digit of each cell (0 = open).
    pub value: Vec<u16>,
    /// Digits placed in each unit.
    pub placed: Vec<DigitSet<W>>,
    /// Open cells left.
    pub open: usize,
}

impl<const W: usize> Board<W> {
    /// The board of a puzzle's givens: every digit a given excludes is gone from its peers.
    pub fn load(puzzle: &Puzzle) -> Result<Board<W>, Contradiction> {
        let geo = puzzle.geometry();
        let cells = geo.cells();
        let mut b = Board {
            cand: vec![DigitSet::full(geo.size()); cells],
            value: vec![0; cells],
            placed: vec![DigitSet::EMPTY; geo.unit_count()],
            open: cells,
            geo,
        };
        for c in 0..cells {
            let d = puzzle.givens().get(c);
            if d != 0 {
                b.place(c, d)?;
            }
        }
        Ok(b)
    }

    /// Fills cell `c` with `d` and removes `d` from its peers.
    pub fn place(&mut self, c: usize, d: u16) -> Result<(), Contradiction> {
        if self.value[c] != 0 || !self.cand[c].contains(d as usize) {
            return Err(Contradiction);
        }
        self.value[c] = d;
        self.cand[c] = DigitSet::EMPTY;
        self.open -= 1;
        let geo = Arc::clone(&self.geo);
        for &u in geo.cell_units(c) {
            self.placed[u as usize].insert(d as usize);
        }
        for &p in geo.peers(c) {
            let p = p as usize;
            if self.cand[p].remove(d as usize) && self.cand[p].is_empty() {
                return Err(Contradiction);
            }
        }
        Ok(())
    }

    /// Removes `d` from the candidates of open cell `c`.
    pub fn eliminate(&mut self, c: usize, d: u16) -> Result<(), Contradiction> {
        if self.cand[c].remove(d as usize) && self.cand[c].is_empty() {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// Do two distinct cells share a unit?
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b
            && self
                .geo
                .cell_units(a)
                .iter()
                .any(|u| self.geo.cell_units(b).contains(u))
    }

    /// The digits placed so far, as a grid.
    pub fn grid(&self) -> Grid {
        let mut g = Grid::empty(self.geo.order());
        for (c, &d) in self.value.iter().enumerate() {
            if d != 0 {
                g.set(c, d);
            }
        }
        g
    }

    /// The candidates of every cell as digit lists (empty for filled cells).
    pub fn candidate_lists(&self) -> Vec<Vec<u16>> {
        self.cand
            .iter()
            .map(|s| s.iter().map(|d| d as u16).collect())
            .collect()
    }
}
