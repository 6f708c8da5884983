//! Preprocessing by constraint propagation: naked and hidden singles, repeated until nothing
//! changes (Lewis and later work found such a step decisive for stochastic search).
//!
//! It runs on the workspace's one propagation kernel, [`sudoku_prop::kernel`] (the one
//! dependency between method crates: a second copy of the singles rules would drift). This
//! module only fixes the order in which the rules are applied, which the counts of naked and
//! hidden singles depend on. It only fixes what the rules force; a contradiction it finds is
//! a proof that the puzzle has no solution.

use sudoku_core::{check_givens, for_width, Budget, Deadline, Grid, Puzzle};
use sudoku_prop::kernel::{Conflict, Kernel, Rules};

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
    let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
    Ok(propagate_singles_until(puzzle, &mut unlimited)?.expect("no deadline to pass"))
}

/// [`propagate_singles`] within a time limit: `None` once `deadline` has passed (read between
/// the placements of the givens and between units), since placing the givens of a 256×256 grid
/// alone takes about a second.
pub fn propagate_singles_until(
    puzzle: &Puzzle,
    deadline: &mut Deadline,
) -> Result<Option<Propagated>, Contradiction> {
    check_givens(puzzle).map_err(|v| Contradiction::Givens(v.to_string()))?;
    let order = puzzle.order();
    for_width!(order, W => Singles::<W>::run(puzzle, deadline))
}

/// The schedule of the kernel's steps: the givens placed first, then naked singles to their
/// fixpoint, then one pass of hidden singles over the units in order (each followed by naked
/// singles), repeated until a pass places nothing. A cell can be both a naked and a hidden
/// single, so the counts depend on this order; hence it is spelled out here rather than left
/// to `Kernel::propagate`.
struct Singles<const W: usize> {
    k: Kernel<W>,
    units: usize,
    naked: usize,
    hidden: usize,
}

impl<const W: usize> Singles<W> {
    fn run(puzzle: &Puzzle, deadline: &mut Deadline) -> Result<Option<Propagated>, Contradiction> {
        let mut s = Singles {
            k: Kernel::<W>::new(puzzle.order(), puzzle.variant(), Rules::SINGLES),
            units: puzzle.geometry().unit_count(),
            naked: 0,
            hidden: 0,
        };
        // Valid givens never take a digit from one another, so placing them one by one only
        // queues the naked singles they create.
        for (c, &d) in puzzle.givens().cells().iter().enumerate() {
            if d != 0 {
                if deadline.expired() {
                    return Ok(None);
                }
                s.k.place_now(c, d as usize).map_err(|_| s.conflict())?;
            }
        }
        s.naked_singles()?;
        loop {
            match s.hidden_pass(deadline)? {
                None => return Ok(None),
                Some(true) => {}
                Some(false) => break,
            }
        }
        Ok(Some(Propagated {
            grid: s.k.grid(),
            naked: s.naked,
            hidden: s.hidden,
        }))
    }

    fn naked_singles(&mut self) -> Result<(), Contradiction> {
        let before = self.k.unplaced();
        self.k.naked_singles().map_err(|_| self.conflict())?;
        self.naked += before - self.k.unplaced();
        Ok(())
    }

    /// One pass of hidden singles over every unit; returns whether anything was placed
    /// (`None`: the deadline passed first).
    fn hidden_pass(&mut self, deadline: &mut Deadline) -> Result<Option<bool>, Contradiction> {
        let mut changed = false;
        for u in 0..self.units {
            if deadline.expired() {
                return Ok(None);
            }
            let singles = self.k.hidden_in(u).map_err(|_| self.conflict())?;
            for digit in singles.iter() {
                // Placed cells have no candidates, so this finds the digit's one free place.
                let place = self
                    .k
                    .unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.k.candidates(c).contains(digit));
                // An earlier placement in this pass may have placed the digit, or taken its
                // last place.
                let Some(c) = place else {
                    if self.k.placed_in(u).contains(digit) {
                        continue;
                    }
                    return Err(Contradiction::NoPlace { unit: u, digit });
                };
                self.hidden += 1;
                self.k.place_now(c, digit).map_err(|_| self.conflict())?;
                self.naked_singles()?;
                changed = true;
            }
        }
        Ok(Some(changed))
    }

    /// The kernel's last contradiction, in this crate's terms.
    fn conflict(&self) -> Contradiction {
        match self.k.conflict() {
            Conflict::EmptyCell(cell) => Contradiction::EmptyCell {
                cell,
                size: self.k.order().size(),
            },
            Conflict::NoPlace(unit, digit) => Contradiction::NoPlace { unit, digit },
        }
    }
}
