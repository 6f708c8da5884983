//! The verifier: the one judge of every answer any method returns.

use std::fmt;

use crate::{Geometry, Grid, Puzzle, UnitKind};

/// Why a grid does not solve a puzzle, or why givens are contradictory. Rows and columns in
/// messages are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The grid and the puzzle are of different orders.
    #[error("the grid is {grid}x{grid} but the puzzle is {puzzle}x{puzzle}")]
    OrderMismatch {
        /// `N` of the puzzle.
        puzzle: usize,
        /// `N` of the grid.
        grid: usize,
    },
    /// A cell of the answer is empty.
    #[error("cell r{row}c{col} is empty", row = .row + 1, col = .col + 1)]
    EmptyCell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// The answer changes a given.
    #[error("cell r{row}c{col} is given as {given} but holds {found}", row = .row + 1, col = .col + 1)]
    GivenChanged {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The given digit.
        given: u16,
        /// The digit in the answer.
        found: u16,
    },
    /// A digit stands twice in one unit.
    #[error("{unit} has digit {digit} twice (at {first} and {second})")]
    Duplicate {
        /// The unit.
        unit: UnitKind,
        /// The repeated digit.
        digit: u16,
        /// Where it stands first.
        first: Cell,
        /// Where it stands again.
        second: Cell,
    },
}

/// A (row, column) position, printed 1-based as `r3c7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// Checks that no digit stands twice in a unit among the givens. A puzzle that fails this is
/// infeasible before any search.
pub fn check_givens(puzzle: &Puzzle) -> Result<(), Violation> {
    duplicates(&puzzle.geometry(), puzzle.givens())
}

/// Checks that `grid` solves `puzzle`: same order, full, agrees with every given, and every
/// unit of the puzzle's variant holds each digit once.
pub fn verify_solution(puzzle: &Puzzle, grid: &Grid) -> Result<(), Violation> {
    if grid.order() != puzzle.order() {
        return Err(Violation::OrderMismatch {
            puzzle: puzzle.order().size(),
            grid: grid.size(),
        });
    }
    if classic_solution(puzzle, grid) {
        return Ok(());
    }
    let size = grid.size();
    for (i, (&g, &d)) in puzzle.givens().cells().iter().zip(grid.cells()).enumerate() {
        let (row, col) = (i / size, i % size);
        if d == 0 {
            return Err(Violation::EmptyCell { row, col });
        }
        if g != 0 && g != d {
            return Err(Violation::GivenChanged {
                row,
                col,
                given: g,
                found: d,
            });
        }
    }
    // A full grid with no duplicate in a unit of N cells holds each digit exactly once there.
    let geo = puzzle.geometry();
    if complete_units(&geo, grid) {
        return Ok(());
    }
    duplicates(&geo, grid)
}

/// Is `grid` a solution of a classic `puzzle` (of the same order)? One pass over the cells
/// with a digit mask per row, column and box; `false` says only "look closer": the detailed
/// checks then name what is wrong, or find nothing wrong for other variants and orders.
fn classic_solution(puzzle: &Puzzle, grid: &Grid) -> bool {
    if puzzle.variant() != crate::Variant::Classic {
        return false;
    }
    let (cells, givens) = (grid.cells(), puzzle.givens().cells());
    // The common orders with their sizes known to the compiler (no division per cell).
    match grid.order().n() {
        3 => classic_units::<3, 9>(cells, givens),
        4 => classic_units::<4, 16>(cells, givens),
        5 => classic_units::<5, 25>(cells, givens),
        // Other orders: the geometry-driven check below (`complete_units`) is fast enough.
        _ => false,
    }
}

/// [`classic_solution`] for order `N` (side `S` = N²).
fn classic_units<const N: usize, const S: usize>(cells: &[u16], givens: &[u16]) -> bool {
    if cells.len() != S * S || givens.len() != S * S {
        return false;
    }
    let (mut cols, mut boxes) = ([0u64; S], [0u64; S]);
    let full = u64::MAX >> (64 - S);
    let mut fine = true;
    for (r, (row, given)) in cells
        .chunks_exact(S)
        .zip(givens.chunks_exact(S))
        .enumerate()
    {
        let (Ok(row), Ok(given)) = (<&[u16; S]>::try_from(row), <&[u16; S]>::try_from(given))
        else {
            return false;
        };
        let band = r / N * N;
        let mut seen = 0u64;
        for c in 0..S {
            let (d, g) = (row[c], given[c]);
            fine &= d != 0 && (g == 0 || g == d);
            let bit = 1u64 << (d.wrapping_sub(1) & 63);
            seen |= bit;
            cols[c] |= bit;
            boxes[(band + c / N) % S] |= bit;
        }
        fine &= seen == full;
    }
    fine && cols.iter().chain(&boxes).all(|&m| m == full)
}

/// Does every unit of a grid without empty cells hold all its digits? One OR per cell and no
/// branch: the fast answer for a correct solution; a wrong one goes on to [`duplicates`],
/// which names the clash. Up to 64 digits (one machine word), else `false`.
fn complete_units(geo: &Geometry, grid: &Grid) -> bool {
    let size = geo.size();
    if size > 64 {
        return false;
    }
    let full = u64::MAX >> (64 - size);
    let cells = grid.cells();
    (0..geo.unit_count()).all(|u| {
        let unit = geo.unit(u);
        unit.len() == size
            && unit.iter().fold(0u64, |seen, &c| {
                let d = cells.get(c as usize).copied().unwrap_or(0);
                // A 0 (never here: the caller rejects empty cells) adds no digit.
                seen | ((1u64 << (d.wrapping_sub(1) & 63)) & (u64::from(d != 0) * u64::MAX))
            }) == full
    })
}

fn duplicates(geo: &Geometry, grid: &Grid) -> Result<(), Violation> {
    let size = geo.size();
    let mut seen = vec![u32::MAX; size + 1];
    for u in 0..geo.unit_count() {
        seen.iter_mut().for_each(|s| *s = u32::MAX);
        for &c in geo.unit(u) {
            let d = grid.get(c as usize);
            if d == 0 {
                continue;
            }
            let prev = seen[d as usize];
            if prev != u32::MAX {
                let at = |c: u32| Cell {
                    row: c as usize / size,
                    col: c as usize % size,
                };
                return Err(Violation::Duplicate {
                    unit: geo.unit_kind(u),
                    digit: d,
                    first: at(prev),
                    second: at(c),
                });
            }
            seen[d as usize] = c;
        }
    }
    Ok(())
}
