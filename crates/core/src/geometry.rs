//! Units and peers of a grid, for each variant.
//!
//! A [`Variant`] is just a set of units. Every method iterates [`Geometry::units`] and
//! [`Geometry::cell_units`] instead of naming rows, columns and blocks, so a new variant
//! (diagonals here) reaches every method without touching it.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

use crate::Order;

/// Which units a puzzle has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Rows, columns and blocks.
    #[default]
    Classic,
    /// Sudoku-X: rows, columns, blocks and both main diagonals.
    Diagonal,
}

impl Variant {
    /// Every variant, in a stable order.
    pub const ALL: [Variant; 2] = [Variant::Classic, Variant::Diagonal];

    /// The name used on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Diagonal => "diagonal",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}` (expected classic or diagonal)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "classic" => Ok(Variant::Classic),
            "diagonal" | "x" | "sudoku-x" => Ok(Variant::Diagonal),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// What a unit is, for messages and for methods that treat unit kinds differently
/// (the metaheuristics keep blocks as their invariant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// Row `r` (0-based).
    Row(usize),
    /// Column `c` (0-based).
    Column(usize),
    /// Block `b` (0-based, row-major over blocks).
    Block(usize),
    /// The main diagonal, top-left to bottom-right.
    MainDiagonal,
    /// The anti-diagonal, top-right to bottom-left.
    AntiDiagonal,
}

impl fmt::Display for UnitKind {
    /// 1-based, as a person reads a grid.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitKind::Row(r) => write!(f, "row {}", r + 1),
            UnitKind::Column(c) => write!(f, "column {}", c + 1),
            UnitKind::Block(b) => write!(f, "block {}", b + 1),
            UnitKind::MainDiagonal => f.write_str("main diagonal"),
            UnitKind::AntiDiagonal => f.write_str("anti-diagonal"),
        }
    }
}

type GeometryCache = HashMap<(Order, Variant), Arc<Geometry>>;

/// Cells, units and peers of one (order, variant), computed once and shared.
///
/// Cells are numbered row-major: cell `i` is at row `i / N`, column `i % N`. Units are
/// numbered rows `0..N`, columns `N..2N`, blocks `2N..3N`, then the two diagonals for
/// [`Variant::Diagonal`].
#[derive(Debug)]
pub struct Geometry {
    order: Order,
    variant: Variant,
    unit_cells: Vec<u32>,
    kinds: Vec<UnitKind>,
    cell_unit_start: Vec<u32>,
    cell_unit_list: Vec<u32>,
    peers: OnceLock<(Vec<u32>, Vec<u32>)>,
}

impl Geometry {
    /// The shared geometry of `(order, variant)`; built on first use and cached. Calling this
    /// per puzzle costs a thread-local comparison, or a lock and a hash lookup on a new shape.
    pub fn get(order: Order, variant: Variant) -> Arc<Geometry> {
        // Most callers ask for one shape again and again (a file of 9×9 puzzles): remember
        // the last one per thread and skip the shared lock.
        thread_local! {
            static LAST: std::cell::RefCell<Option<(Order, Variant, Arc<Geometry>)>> =
                const { std::cell::RefCell::new(None) };
        }
        let hit = LAST.with(|l| match &*l.borrow() {
            Some((o, v, g)) if *o == order && *v == variant => Some(g.clone()),
            _ => None,
        });
        if let Some(g) = hit {
            return g;
        }
        let g = Geometry::shared(order, variant);
        LAST.with(|l| *l.borrow_mut() = Some((order, variant, g.clone())));
        g
    }

    /// The process-wide cache behind [`Geometry::get`].
    fn shared(order: Order, variant: Variant) -> Arc<Geometry> {
        static CACHE: OnceLock<Mutex<GeometryCache>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        // A poisoned lock only means another thread panicked while inserting; the map itself
        // is still consistent, so keep using it.
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry((order, variant))
            .or_insert_with(|| Arc::new(Geometry::build(order, variant)))
            .clone()
    }

    fn build(order: Order, variant: Variant) -> Geometry {
        let n = order.n();
        let size = order.size();
        let mut unit_cells = Vec::with_capacity(size * (3 * size + 2));
        let mut kinds = Vec::new();
        for r in 0..size {
            unit_cells.extend((0..size).map(|c| (r * size + c) as u32));
            kinds.push(UnitKind::Row(r));
        }
        for c in 0..size {
            unit_cells.extend((0..size).map(|r| (r * size + c) as u32));
            kinds.push(UnitKind::Column(c));
        }
        for b in 0..size {
            let (br, bc) = ((b / n) * n, (b % n) * n);
            for i in 0..size {
                unit_cells.push(((br + i / n) * size + bc + i % n) as u32);
            }
            kinds.push(UnitKind::Block(b));
        }
        if variant == Variant::Diagonal {
            unit_cells.extend((0..size).map(|i| (i * size + i) as u32));
            kinds.push(UnitKind::MainDiagonal);
            unit_cells.extend((0..size).map(|i| (i * size + size - 1 - i) as u32));
            kinds.push(UnitKind::AntiDiagonal);
        }
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::with_capacity(5); order.cells()];
        for (u, cells) in unit_cells.chunks(size).enumerate() {
            for &c in cells {
                per_cell[c as usize].push(u as u32);
            }
        }
        let mut cell_unit_start = Vec::with_capacity(order.cells() + 1);
        let mut cell_unit_list = Vec::new();
        for units in per_cell {
            cell_unit_start.push(cell_unit_list.len() as u32);
            cell_unit_list.extend(units);
        }
        cell_unit_start.push(cell_unit_list.len() as u32);
        Geometry {
            order,
            variant,
            unit_cells,
            kinds,
            cell_unit_start,
            cell_unit_list,
            peers: OnceLock::new(),
        }
    }

    /// The order.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// `N`, the side of the grid.
    #[inline]
    pub fn size(&self) -> usize {
        self.order.size()
    }

    /// Number of cells, `N²`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.order.cells()
    }

    /// Number of units: `3N`, plus 2 for the diagonal variant.
    #[inline]
    pub fn unit_count(&self) -> usize {
        self.kinds.len()
    }

    /// The `N` cells of unit `u`.
    #[inline]
    pub fn unit(&self, u: usize) -> &[u32] {
        let s = self.size();
        &self.unit_cells[u * s..(u + 1) * s]
    }

    /// What unit `u` is.
    #[inline]
    pub fn unit_kind(&self, u: usize) -> UnitKind {
        self.kinds[u]
    }

    /// Every unit, as slices of cells, in unit order.
    pub fn units(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.unit_cells.chunks(self.size())
    }

    /// The units that contain cell `c` (3, or up to 5 for the diagonal variant).
    #[inline]
    pub fn cell_units(&self, c: usize) -> &[u32] {
        let (a, b) = (
            self.cell_unit_start[c] as usize,
            self.cell_unit_start[c + 1] as usize,
        );
        &self.cell_unit_list[a..b]
    }

    /// Builds the peer lists now if they are not built yet: a caller that times the first use
    /// (the runner, before its first trial of a shape) keeps the one-time cost out of the clock
    /// (about half a second at 256×256).
    pub fn prepare(&self) {
        let _ = self.peers(0);
    }

    /// The cells that share a unit with `c`, without `c` itself, in increasing order.
    /// Built on first call (order 16 has 65,536 cells with ~800 peers each).
    #[inline]
    pub fn peers(&self, c: usize) -> &[u32] {
        let (start, list) = self.peers.get_or_init(|| self.build_peers());
        &list[start[c] as usize..start[c + 1] as usize]
    }

    fn build_peers(&self) -> (Vec<u32>, Vec<u32>) {
        let cells = self.cells();
        let mut start = Vec::with_capacity(cells + 1);
        let mut list = Vec::new();
        let mut seen = vec![u32::MAX; cells];
        for c in 0..cells {
            start.push(list.len() as u32);
            let from = list.len();
            for &u in self.cell_units(c) {
                for &p in self.unit(u as usize) {
                    if p as usize != c && seen[p as usize] != c as u32 {
                        seen[p as usize] = c as u32;
                        list.push(p);
                    }
                }
            }
            list[from..].sort_unstable();
        }
        start.push(list.len() as u32);
        (start, list)
    }

    /// Row of cell `c`.
    #[inline]
    pub fn row(&self, c: usize) -> usize {
        c / self.size()
    }

    /// Column of cell `c`.
    #[inline]
    pub fn col(&self, c: usize) -> usize {
        c % self.size()
    }

    /// Block of cell `c` (row-major over blocks).
    #[inline]
    pub fn block(&self, c: usize) -> usize {
        let n = self.order.n();
        (self.row(c) / n) * n + self.col(c) / n
    }

    /// Cell index of (row, column).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.size() + col
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_9x9() {
        let g = Geometry::get(Order::new(3).unwrap(), Variant::Classic);
        assert_eq!(g.unit_count(), 27);
        assert_eq!(g.cell_units(0), &[0, 9, 18]);
        assert_eq!(g.peers(0).len(), 20);
        assert_eq!(g.unit(18 + 4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(g.block(80), 8);
        assert_eq!(g.unit_kind(20).to_string(), "block 3");
    }

    #[test]
    fn diagonal_adds_two_units() {
        let g = Geometry::get(Order::new(3).unwrap(), Variant::Diagonal);
        assert_eq!(g.unit_count(), 29);
        // The centre lies on both diagonals.
        assert_eq!(g.cell_units(40).len(), 5);
        assert_eq!(g.peers(40).len(), 20 + 8 + 8 - 4);
        assert_eq!(g.unit(28)[0], 8);
    }

    #[test]
    fn every_cell_in_units_of_each_kind() {
        for n in 2..=5 {
            let g = Geometry::get(Order::new(n).unwrap(), Variant::Classic);
            let s = n * n;
            let expected = 3 * s - 2 * n - 1;
            for c in 0..g.cells() {
                assert_eq!(g.peers(c).len(), expected);
            }
        }
    }
}
