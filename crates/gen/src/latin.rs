//! The reduction of Takano et al. (§3, after Yato and Seta): a partial Latin square of side `n`
//! becomes a Sudoku instance of order `n` (an `n² × n²` grid) that has exactly as many
//! solutions, so hard Latin-square completion instances become hard Sudoku instances.
//!
//! Digits 0-based here. The background grid is `S(r, c) = ((r mod n)·n + ⌊r/n⌋ + c) mod N`.
//! In the first band, the cells of the columns `p·n` hold `((r + p) mod n)·n`: an `n × n`
//! Latin square over the multiples of `n`. Those `n²` cells are the Latin square's: cell
//! `(r, p·n)` holds `L(r, p)·n` when `L(r, p)` is given and is empty otherwise; every other
//! cell is a given. Each empty cell's row, column and block miss exactly the multiples of `n`
//! that its Latin row and column miss, so completions correspond one to one.

use sudoku_core::{Grid, Order, Puzzle, Variant};

use crate::GenError;

/// The Sudoku puzzle (classic) of order `n` equivalent to the partial Latin square `latin`:
/// `n × n` row-major symbols `1..=n`, `0` for an empty cell.
pub fn latin_to_sudoku(n: usize, latin: &[u16]) -> Result<Puzzle, GenError> {
    let order = Order::new(n).map_err(GenError::Order)?;
    if latin.len() != n * n {
        return Err(GenError::LatinShape {
            side: n,
            found: latin.len(),
        });
    }
    if let Some((cell, &v)) = latin.iter().enumerate().find(|(_, &v)| v as usize > n) {
        return Err(GenError::LatinSymbol { cell, value: v, n });
    }
    let size = order.size();
    let mut cells = Vec::with_capacity(order.cells());
    for r in 0..size {
        for c in 0..size {
            let v = if r < n && c % n == 0 {
                match latin[r * n + c / n] {
                    0 => 0,
                    l => (l as usize - 1) * n + 1,
                }
            } else {
                ((r % n) * n + r / n + c) % size + 1
            };
            cells.push(v as u16);
        }
    }
    let givens = Grid::from_cells(order, cells).expect("digits in 1..=N");
    Ok(Puzzle::new(givens, Variant::Classic))
}

/// The Latin square (row-major, symbols `1..=n`) read back from a Sudoku solution of a
/// puzzle made by [`latin_to_sudoku`].
pub fn sudoku_to_latin(solution: &Grid) -> Vec<u16> {
    let n = solution.order().n();
    let mut out = Vec::with_capacity(n * n);
    for r in 0..n {
        for p in 0..n {
            let d = solution.at(r, p * n);
            out.push(((d.max(1) as usize - 1) / n) as u16 + 1);
        }
    }
    out
}
