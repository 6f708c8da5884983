//! The order `n` of a Sudoku: an n²×n² grid of n×n blocks holding digits 1..=n².

use std::fmt;

/// The order `n` of a puzzle: the grid is `n² × n²`, made of `n × n` blocks, digits `1..=n²`.
///
/// Orders run from [`Order::MIN`] (4×4 grids) to [`Order::MAX`] (256×256 grids). Nothing in
/// the workspace assumes 9×9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Order(u8);

/// An order outside the supported range, or a size that is no order's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// `n` is below 2 or above [`Order::MAX`].
    #[error("order {0} is outside the supported range 2..=16")]
    OutOfRange(usize),
    /// A side length that is not `n²` for a supported `n`.
    #[error("side {0} is not n² for an order n in 2..=16")]
    NotASquare(usize),
    /// A cell count that is not `n⁴` for a supported `n`.
    #[error("{0} cells is not n⁴ for an order n in 2..=16")]
    NotACellCount(usize),
}

impl Order {
    /// The smallest order: 4×4 grids.
    pub const MIN: usize = 2;
    /// The largest order: 256×256 grids (digits fit in `u16`, candidate sets in four words).
    pub const MAX: usize = 16;

    /// The order `n`, if it is supported.
    pub fn new(n: usize) -> Result<Order, OrderError> {
        if (Self::MIN..=Self::MAX).contains(&n) {
            Ok(Order(n as u8))
        } else {
            Err(OrderError::OutOfRange(n))
        }
    }

    /// The order whose side (number of digits) is `size = n²`.
    pub fn from_size(size: usize) -> Result<Order, OrderError> {
        let n = isqrt(size);
        if n * n == size {
            Order::new(n).map_err(|_| OrderError::NotASquare(size))
        } else {
            Err(OrderError::NotASquare(size))
        }
    }

    /// The order whose grid has `cells = n⁴` cells.
    pub fn from_cells(cells: usize) -> Result<Order, OrderError> {
        let side = isqrt(cells);
        if side * side == cells {
            Order::from_size(side).map_err(|_| OrderError::NotACellCount(cells))
        } else {
            Err(OrderError::NotACellCount(cells))
        }
    }

    /// `n`: the side of a block.
    #[inline]
    pub fn n(self) -> usize {
        self.0 as usize
    }

    /// `N = n²`: the side of the grid, and the number of digits.
    #[inline]
    pub fn size(self) -> usize {
        let n = self.0 as usize;
        n * n
    }

    /// `N² = n⁴`: the number of cells.
    #[inline]
    pub fn cells(self) -> usize {
        let s = self.size();
        s * s
    }

    /// How many 64-bit words a candidate set of this order needs (1, 2 or 4), for choosing
    /// a [`crate::DigitSet`] width at run time.
    pub fn words(self) -> usize {
        match self.size() {
            0..=64 => 1,
            65..=128 => 2,
            _ => 4,
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.size();
        write!(f, "{s}x{s}")
    }
}

fn isqrt(x: usize) -> usize {
    let mut r = (x as f64).sqrt() as usize;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let o = Order::new(3).unwrap();
        assert_eq!((o.n(), o.size(), o.cells()), (3, 9, 81));
        assert_eq!(Order::from_size(16).unwrap().n(), 4);
        assert_eq!(Order::from_cells(625).unwrap().n(), 5);
        assert_eq!(Order::from_cells(10_000).unwrap().n(), 10);
        assert!(Order::from_cells(80).is_err());
        assert!(Order::from_size(10).is_err());
        assert!(Order::new(1).is_err());
        assert!(Order::new(17).is_err());
        assert_eq!(Order::new(10).unwrap().words(), 2);
        assert_eq!(Order::new(8).unwrap().words(), 1);
        assert_eq!(Order::new(12).unwrap().words(), 4);
        assert_eq!(Order::new(3).unwrap().to_string(), "9x9");
    }
}
