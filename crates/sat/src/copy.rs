//! Equivalent copies of a puzzle for the two-thread portfolio (`threads=2`) and for studies of
//! the spread between equivalent formulas (`copy=`): CaDiCaL's conflicts on the same puzzle
//! move by up to 5× between relabellings (docs/notes/proper-puzzles.md), so a search stuck on
//! one copy may be quick on another. (Restarts on a new copy after a Luby share of conflicts
//! were tried and cost more conflicts than one search: the same note.)
//!
//! A relabelled copy applies a symmetry of the grid (digits relabelled; bands, rows within
//! bands, stacks and columns within stacks permuted; transposed half the time) and maps the
//! answer back; a diagonal puzzle keeps its diagonals, so only its digits are relabelled and it
//! is transposed half the time. A reseeded copy is the puzzle itself with CaDiCaL's variable
//! order shuffled from another seed.

use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::{rng_from_seed, Grid, Puzzle, Variant};

/// How copies after the first differ from the puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CopyBy {
    /// A symmetry of the grid applied to the puzzle.
    #[default]
    Relabel,
    /// CaDiCaL's options `seed`, `shuffle` and `shufflerandom`: its initial variable order
    /// shuffled from the copy's seed.
    Reseed,
}

/// A symmetry of the grid: cell (r, c) goes to (rows[r], cols[c]), transposed after when
/// `transpose`; digit d becomes digits[d - 1].
pub(crate) struct Symmetry {
    rows: Vec<usize>,
    cols: Vec<usize>,
    transpose: bool,
    digits: Vec<u16>,
}

impl Symmetry {
    /// The symmetry of copy `seed` for a puzzle of this order and variant.
    pub(crate) fn random(size: usize, n: usize, variant: Variant, seed: u64) -> Symmetry {
        let mut rng = rng_from_seed(seed);
        let mut digits: Vec<u16> = (1..=size as u16).collect();
        digits.shuffle(&mut rng);
        let lines = |rng: &mut sudoku_core::Rng| {
            let mut bands: Vec<usize> = (0..n).collect();
            bands.shuffle(rng);
            let mut out = Vec::with_capacity(size);
            for &b in &bands {
                let mut inner: Vec<usize> = (0..n).collect();
                inner.shuffle(rng);
                out.extend(inner.iter().map(|&i| b * n + i));
            }
            out
        };
        let (rows, cols) = match variant {
            Variant::Classic => (lines(&mut rng), lines(&mut rng)),
            Variant::Diagonal => ((0..size).collect(), (0..size).collect()),
        };
        Symmetry {
            rows,
            cols,
            transpose: rng.random_bool(0.5),
            digits,
        }
    }

    fn cell(&self, size: usize, c: usize) -> usize {
        let (r, col) = (self.rows[c / size], self.cols[c % size]);
        if self.transpose {
            col * size + r
        } else {
            r * size + col
        }
    }

    /// The puzzle's copy.
    pub(crate) fn apply(&self, puzzle: &Puzzle) -> Puzzle {
        let g = puzzle.givens();
        let size = g.order().size();
        let mut out = Grid::empty(g.order());
        for c in 0..g.cells().len() {
            let d = g.get(c);
            if d != 0 {
                out.set(self.cell(size, c), self.digits[usize::from(d) - 1]);
            }
        }
        Puzzle::new(out, puzzle.variant())
    }

    /// A grid of the copy taken back to the puzzle.
    pub(crate) fn back(&self, grid: &Grid) -> Grid {
        let size = grid.order().size();
        let mut inverse = vec![0u16; size + 1];
        for (i, &d) in self.digits.iter().enumerate() {
            inverse[usize::from(d)] = i as u16 + 1;
        }
        let mut out = Grid::empty(grid.order());
        for c in 0..grid.cells().len() {
            let d = grid.get(self.cell(size, c));
            out.set(c, inverse[usize::from(d)]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{verify_solution, Order};

    #[test]
    fn a_copy_of_a_solution_is_a_solution_and_comes_back() {
        for (n, variant) in [
            (3, Variant::Classic),
            (4, Variant::Classic),
            (3, Variant::Diagonal),
        ] {
            let order = Order::new(n).unwrap();
            let size = order.size();
            // A full grid valid in both variants is not at hand for every order; the classic
            // pattern grid serves the classic check, and the round trip holds for any grid.
            let full: Vec<u16> = (0..size * size)
                .map(|c| {
                    let (r, col) = (c / size, c % size);
                    ((r % n * n + r / n + col) % size) as u16 + 1
                })
                .collect();
            let grid = Grid::from_cells(order, full).unwrap();
            for seed in 0..5 {
                let s = Symmetry::random(size, n, variant, seed);
                let copy = s.apply(&Puzzle::new(grid.clone(), variant));
                if variant == Variant::Classic {
                    let p = Puzzle::new(Grid::empty(order), variant);
                    verify_solution(&p, copy.givens()).unwrap();
                }
                assert_eq!(s.back(copy.givens()), grid);
            }
        }
    }
}
