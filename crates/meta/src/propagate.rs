//! Preprocessing by constraint propagation: naked and hidden singles, repeated until nothing
//! changes (Lewis and later work found such a step decisive for stochastic search).
//!
//! This is a small, self-contained propagator (method crates do not depend on each other).
//! It only fixes what the rules force; a contradiction it finds is a proof that the puzzle
//! has no solution.

use sudoku_core::{check_givens, DigitSet, Geometry, Grid, Puzzle};

/// Propagation proved the puzzle has no solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Contradiction {
    /// Two givens of one unit hold the same digit.
    #[error("the givens contradict each other: {0}")]
    Givens(String),
    /// A cell has no candidate left.
    #[error("cell r{row}c{col} has no candidate left", row = .cell / .size + 1, col = .cell % .size + 1)]
    EmptyCell {
        /// Row-major cell index.
        cell: usize,
        /// `N`, to name the row and column.
        size: usize,
    },
    /// A digit has no place left in a unit.
    #[error("digit {digit} has no place left in unit {unit}")]
    NoPlace {
        /// The unit index (see `Geometry`).
        unit: usize,
        /// The digit.
        digit: usize,
    },
}

/// What singles propagation did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Propagated {
    /// The givens plus every cell the rules forced.
    pub grid: Grid,
    /// Cells fixed by naked singles.
    pub naked: usize,
    /// Cells fixed by hidden singles.
    pub hidden: usize,
}

/// Applies naked singles (a cell with one candidate) and hidden singles (a digit with one
/// place in a unit) until neither applies. Returns the extended grid, or the contradiction
/// that proves the puzzle infeasible.
pub fn propagate_singles(puzzle: &Puzzle) -> Result<Propagated, Contradiction> {
    check_givens(puzzle).map_err(|v| Contradiction::Givens(v.to_string()))?;
    match puzzle.order().words() {
        1 => Singles::<1>::run(puzzle),
        2 => Singles::<2>::run(puzzle),
        _ => Singles::<4>::run(puzzle),
    }
}

struct Singles<'a, const W: usize> {
    geo: &'a Geometry,
    values: Vec<u16>,
    cand: Vec<DigitSet<W>>,
    queue: Vec<usize>,
    naked: usize,
    hidden: usize,
}

impl<const W: usize> Singles<'_, W> {
    fn run(puzzle: &Puzzle) -> Result<Propagated, Contradiction> {
        let geo = puzzle.geometry();
        let size = geo.size();
        let values = puzzle.givens().cells().to_vec();
        let cand: Vec<DigitSet<W>> = values
            .iter()
            .map(|&d| {
                if d == 0 {
                    DigitSet::full(size)
                } else {
                    DigitSet::single(d as usize)
                }
            })
            .collect();
        let mut s = Singles::<W> {
            geo: &geo,
            values,
            cand,
            queue: Vec::new(),
            naked: 0,
            hidden: 0,
        };
        for c in 0..s.values.len() {
            if s.values[c] != 0 {
                s.eliminate_from_peers(c, s.values[c] as usize)?;
            }
        }
        loop {
            s.drain()?;
            if !s.hidden_pass()? {
                break;
            }
        }
        let grid = Grid::from_cells(geo.order(), s.values).expect("digits stay in range");
        Ok(Propagated {
            grid,
            naked: s.naked,
            hidden: s.hidden,
        })
    }

    /// Places `d` in the empty cell `c`, which must still allow it.
    fn assign(&mut self, c: usize, d: usize) -> Result<(), Contradiction> {
        if self.values[c] != 0 {
            return if self.values[c] as usize == d {
                Ok(())
            } else {
                Err(self.empty_cell(c))
            };
        }
        if !self.cand[c].contains(d) {
            return Err(self.empty_cell(c));
        }
        self.values[c] = d as u16;
        self.cand[c] = DigitSet::single(d);
        self.eliminate_from_peers(c, d)
    }

    fn eliminate_from_peers(&mut self, c: usize, d: usize) -> Result<(), Contradiction> {
        // Walk units rather than `Geometry::peers`: the peer table of a large order is big,
        // and removing a digit twice is harmless.
        let geo = self.geo;
        for &u in geo.cell_units(c) {
            for &p in geo.unit(u as usize) {
                let p = p as usize;
                if p == c || self.values[p] != 0 {
                    continue;
                }
                if self.cand[p].remove(d) {
                    match self.cand[p].len() {
                        0 => return Err(self.empty_cell(p)),
                        1 => self.queue.push(p),
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// Naked singles, until the queue is empty.
    fn drain(&mut self) -> Result<(), Contradiction> {
        while let Some(c) = self.queue.pop() {
            if self.values[c] != 0 {
                continue;
            }
            let d = self.cand[c].only().ok_or_else(|| self.empty_cell(c))?;
            self.naked += 1;
            self.assign(c, d)?;
        }
        Ok(())
    }

    /// One pass of hidden singles over every unit; returns whether anything was placed.
    fn hidden_pass(&mut self) -> Result<bool, Contradiction> {
        let geo = self.geo;
        let size = geo.size();
        let mut changed = false;
        for u in 0..geo.unit_count() {
            let (mut once, mut twice, mut placed) =
                (DigitSet::<W>::EMPTY, DigitSet::EMPTY, DigitSet::EMPTY);
            for &c in geo.unit(u) {
                let c = c as usize;
                if self.values[c] != 0 {
                    placed.insert(self.values[c] as usize);
                } else {
                    twice = twice.union(&once.intersection(&self.cand[c]));
                    once = once.union(&self.cand[c]);
                }
            }
            let nowhere = DigitSet::full(size).difference(&once.union(&placed));
            if let Some(digit) = nowhere.first() {
                return Err(Contradiction::NoPlace { unit: u, digit });
            }
            let singles = once.difference(&twice).difference(&placed);
            for d in singles.iter() {
                let place = geo
                    .unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.values[c] == 0 && self.cand[c].contains(d));
                // An earlier assignment in this pass may have taken the digit's last place.
                let Some(c) = place else {
                    if geo
                        .unit(u)
                        .iter()
                        .any(|&c| self.values[c as usize] as usize == d)
                    {
                        continue;
                    }
                    return Err(Contradiction::NoPlace { unit: u, digit: d });
                };
                self.hidden += 1;
                self.assign(c, d)?;
                self.drain()?;
                changed = true;
            }
        }
        Ok(changed)
    }

    fn empty_cell(&self, c: usize) -> Contradiction {
        Contradiction::EmptyCell {
            cell: c,
            size: self.geo.size(),
        }
    }
}
