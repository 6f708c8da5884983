//! `backtrack`: pure backtracking, the first exact method of the comparison in Takano et al.

use sudoku_core::Puzzle;

use crate::control::{search_solver, Control, Search};

/// Pure backtracking: empty cells in row-major order, digits `1..=N` in increasing order, and a
/// placement accepted when no cell of its row, column, block (and diagonals) holds the digit,
/// found by scanning those units. No candidate sets, no pruning, no propagation: this is the
/// baseline every other method is measured against, and it may need an astronomical number of
/// nodes on puzzles made to defeat it (run it with a budget).
///
/// A node is one digit placed; `guesses` stays 0 (knowing how many digits a cell could take
/// would need exactly the look-ahead this method does not do).
#[derive(Debug, Default)]
pub struct Backtrack {
    grid: Vec<u16>,
    empties: Vec<u32>,
}

impl Backtrack {
    /// A solver with empty scratch space.
    pub fn new() -> Backtrack {
        Backtrack::default()
    }
}

impl Search for Backtrack {
    fn search(&mut self, puzzle: &Puzzle, ctl: &mut Control) {
        let geo = puzzle.geometry();
        let size = geo.size() as u16;
        self.grid.clear();
        self.grid.extend_from_slice(puzzle.givens().cells());
        self.empties.clear();
        self.empties
            .extend((0..self.grid.len() as u32).filter(|&c| self.grid[c as usize] == 0));
        let grid = &mut self.grid;
        let fits = |grid: &[u16], cell: usize, d: u16| {
            geo.cell_units(cell)
                .iter()
                .all(|&u| geo.unit(u as usize).iter().all(|&p| grid[p as usize] != d))
        };
        // Iterative, so order 16 (65,536 cells deep) cannot overflow the stack. `i` is the
        // position in `empties` being filled; a cell's current digit is where it resumes.
        let mut i = 0usize;
        loop {
            if i == self.empties.len() {
                if !ctl.solution(grid) {
                    return;
                }
                if i == 0 {
                    return; // the givens fill the grid: one solution, nothing to backtrack
                }
                i -= 1;
                continue;
            }
            let cell = self.empties[i] as usize;
            let from = grid[cell] + 1;
            // Clear the cell first so the scan does not see its previous digit.
            grid[cell] = 0;
            let next = (from..=size).find(|&d| fits(grid, cell, d));
            match next {
                Some(d) => {
                    if !ctl.node() {
                        return;
                    }
                    grid[cell] = d;
                    i += 1;
                }
                None => {
                    if i == 0 {
                        return;
                    }
                    i -= 1;
                }
            }
        }
    }
}

search_solver!(Backtrack, crate::BACKTRACK);
