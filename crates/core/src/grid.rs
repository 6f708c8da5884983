//! Grids (full or partial) and puzzles (givens plus a variant).

use std::sync::Arc;

use crate::{Geometry, Order, Variant};

/// A grid of any order: `N²` cells in row-major order, each `0` (empty) or a digit `1..=N`.
/// Its serde encoding is the order `n` and the cells, checked when read back
/// ([`Grid::from_cells`]), so a grid crosses from a child process with the rest of a report.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "GridCells", try_from = "GridCells")]
pub struct Grid {
    order: Order,
    cells: Vec<u16>,
}

/// A cell list that does not make a grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The number of cells is not `N²` for the order.
    #[error("{found} cells given, a {order} grid has {expected}")]
    WrongLength {
        /// The order asked for.
        order: Order,
        /// Cells expected.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A cell holds a value above `N`.
    #[error("cell {cell} holds {value}, digits of a {order} grid are 1..={max}")]
    DigitOutOfRange {
        /// The order.
        order: Order,
        /// Row-major cell index.
        cell: usize,
        /// The value found.
        value: u16,
        /// The largest digit, `N`.
        max: usize,
    },
}

/// A grid's serde encoding: its order `n` and its cells.
#[derive(serde::Serialize, serde::Deserialize)]
struct GridCells {
    n: usize,
    cells: Vec<u16>,
}

impl From<Grid> for GridCells {
    fn from(g: Grid) -> GridCells {
        GridCells {
            n: g.order.n(),
            cells: g.cells,
        }
    }
}

impl TryFrom<GridCells> for Grid {
    type Error = String;
    fn try_from(g: GridCells) -> Result<Grid, String> {
        let order = Order::new(g.n).map_err(|e| e.to_string())?;
        Grid::from_cells(order, g.cells).map_err(|e| e.to_string())
    }
}

impl Grid {
    /// An empty grid.
    pub fn empty(order: Order) -> Grid {
        Grid {
            order,
            cells: vec![0; order.cells()],
        }
    }

    /// A grid from row-major cells (`0` = empty), checked for length and range.
    pub fn from_cells(order: Order, cells: Vec<u16>) -> Result<Grid, GridError> {
        if cells.len() != order.cells() {
            return Err(GridError::WrongLength {
                order,
                expected: order.cells(),
                found: cells.len(),
            });
        }
        let max = order.size();
        if let Some((cell, &value)) = cells.iter().enumerate().find(|(_, &v)| v as usize > max) {
            return Err(GridError::DigitOutOfRange {
                order,
                cell,
                value,
                max,
            });
        }
        Ok(Grid { order, cells })
    }

    /// The order.
    #[inline]
    pub fn order(&self) -> Order {
        self.order
    }

    /// `N`, the side.
    #[inline]
    pub fn size(&self) -> usize {
        self.order.size()
    }

    /// The digit at row-major cell `i` (0 = empty).
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        self.cells[i]
    }

    /// The digit at (row, column), 0-based (0 = empty).
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> u16 {
        self.cells[row * self.size() + col]
    }

    /// Sets cell `i` to `d` (0 clears it).
    ///
    /// # Panics
    /// If `d > N`: callers write digits they computed, never raw user input
    /// (which goes through [`Grid::from_cells`] or the parser).
    #[inline]
    pub fn set(&mut self, i: usize, d: u16) {
        assert!(d as usize <= self.size(), "digit {d} out of range");
        self.cells[i] = d;
    }

    /// The cells, row-major.
    #[inline]
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// Number of non-empty cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Are all cells filled?
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }
}

/// A puzzle: the givens (a partial grid) and the variant whose units it must satisfy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    givens: Grid,
    variant: Variant,
}

impl Puzzle {
    /// Builds the shared tables of every shape among `puzzles` now ([`Geometry::prepare`]), so
    /// that a caller that times each puzzle keeps their one-time cost out of the first clock.
    pub fn prepare_shapes<'a>(puzzles: impl IntoIterator<Item = &'a Puzzle>) {
        let shapes: std::collections::BTreeSet<(Order, Variant)> = puzzles
            .into_iter()
            .map(|p| (p.order(), p.variant()))
            .collect();
        for (order, variant) in shapes {
            Geometry::get(order, variant).prepare();
        }
    }

    /// A puzzle from its givens.
    pub fn new(givens: Grid, variant: Variant) -> Puzzle {
        Puzzle { givens, variant }
    }

    /// The empty puzzle of an order: every full grid solves it.
    pub fn empty(order: Order, variant: Variant) -> Puzzle {
        Puzzle::new(Grid::empty(order), variant)
    }

    /// The givens (0 = empty cell).
    #[inline]
    pub fn givens(&self) -> &Grid {
        &self.givens
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The order.
    #[inline]
    pub fn order(&self) -> Order {
        self.givens.order()
    }

    /// The shared geometry of this puzzle's order and variant.
    pub fn geometry(&self) -> Arc<Geometry> {
        Geometry::get(self.order(), self.variant)
    }
}
