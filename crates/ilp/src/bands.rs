//! The band model of relax-and-fix generation ([`crate::Decompose::Bands`] with
//! [`crate::Lookahead::Columns`]): one band's cells as binary `x(r,c,d)`, and the bands below
//! it only as continuous `y(B,c,d)` = "digit `d` goes into column `c` somewhere in band `B`".
//!
//! Why this is enough to look ahead: once every later band knows which `n` digits each of its
//! columns takes (each block getting every digit once), the digits can always be split into
//! rows. Per band, columns and digits form an `n`-regular bipartite multigraph, which König's
//! theorem splits into `n` perfect matchings, one per row. So the `y` system is an exact
//! integer model of "the rest can still be completed" (in the classic variant, for bands with
//! no givens beyond the diagonal blocks' own rows it ignores), at a sixth of the variables of
//! the full `x` model for 36×36; its LP relaxation keeps the band's choice from closing off
//! a column or a block below it.

use sudoku_core::{Geometry, Grid};

use crate::cbc::LpData;

/// The band program: CBC's arrays plus, for each `x` column, its cell and digit.
pub(crate) struct BandModel {
    pub lp: LpData,
    /// Columns `0..x_cells.len()` are the band's `x`; the rest are `y`.
    pub x_cells: Vec<u32>,
    pub x_digits: Vec<u16>,
    /// A constraint with no variable left: the band (or a later one) cannot be completed.
    pub infeasible: bool,
}

/// Row ids of one family of constraints, handed out on first use, so only constraints that
/// still have a variable exist.
struct Rows {
    ids: Vec<i32>,
}

impl Rows {
    fn new(len: usize) -> Rows {
        Rows { ids: vec![-1; len] }
    }

    fn id(&mut self, key: usize, rhs: f64, all_rhs: &mut Vec<f64>) -> i32 {
        if self.ids[key] < 0 {
            self.ids[key] = all_rhs.len() as i32;
            all_rhs.push(rhs);
        }
        self.ids[key]
    }

    fn has(&self, key: usize) -> bool {
        self.ids[key] >= 0
    }
}

/// Builds the program for band `band` of `grid` (classic units), with `weight(cell, digit)`
/// (digit 0-based) as the objective coefficient of each `x`.
pub(crate) fn build(
    geo: &Geometry,
    grid: &Grid,
    band: usize,
    weight: &mut dyn FnMut(usize, usize) -> f64,
) -> BandModel {
    let n = geo.order().n();
    let size = geo.size();
    // What each row, column and block already holds.
    let mut row_has = vec![false; size * size];
    let mut col_has = vec![false; size * size];
    let mut block_has = vec![false; size * size];
    // Empty cells of each column within each band.
    let mut empty_in = vec![0u32; n * size];
    for c in 0..geo.cells() {
        let (r, k, b) = (geo.row(c), geo.col(c), geo.block(c));
        match grid.get(c) as usize {
            0 => empty_in[(r / n) * size + k] += 1,
            g => {
                row_has[r * size + g - 1] = true;
                col_has[k * size + g - 1] = true;
                block_has[b * size + g - 1] = true;
            }
        }
    }
    let mut rhs: Vec<f64> = Vec::new();
    let mut cell_rows = Rows::new(geo.cells());
    let mut row_digit = Rows::new(size * size);
    let mut block_digit = Rows::new(size * size);
    let mut col_digit = Rows::new(size * size);
    let mut cap = Rows::new(n * size);
    let mut lp = LpData::default();
    let mut model = BandModel {
        lp: LpData::default(),
        x_cells: Vec::new(),
        x_digits: Vec::new(),
        infeasible: false,
    };
    lp.matrix.start.push(0);
    let push_col = |lp: &mut LpData, mut rows: Vec<i32>, obj: f64| {
        rows.sort_unstable();
        lp.matrix.index.extend_from_slice(&rows);
        lp.matrix.start.push(lp.matrix.index.len() as i32);
        lp.obj.push(obj);
    };
    // The band's cells.
    for r in band * n..(band + 1) * n {
        for k in 0..size {
            let c = geo.cell(r, k);
            if grid.get(c) != 0 {
                continue;
            }
            let b = geo.block(c);
            for d in 0..size {
                if row_has[r * size + d] || col_has[k * size + d] || block_has[b * size + d] {
                    continue;
                }
                let rows = vec![
                    cell_rows.id(c, 1.0, &mut rhs),
                    row_digit.id(r * size + d, 1.0, &mut rhs),
                    block_digit.id(b * size + d, 1.0, &mut rhs),
                    col_digit.id(k * size + d, 1.0, &mut rhs),
                ];
                push_col(&mut lp, rows, weight(c, d));
                model.x_cells.push(c as u32);
                model.x_digits.push(d as u16 + 1);
            }
        }
    }
    // The later bands, by column.
    for later in band + 1..n {
        for k in 0..size {
            let empty = empty_in[later * size + k];
            if empty == 0 {
                continue;
            }
            let b = later * n + k / n;
            for d in 0..size {
                if col_has[k * size + d] || block_has[b * size + d] {
                    continue;
                }
                let rows = vec![
                    col_digit.id(k * size + d, 1.0, &mut rhs),
                    block_digit.id(b * size + d, 1.0, &mut rhs),
                    cap.id(later * size + k, f64::from(empty), &mut rhs),
                ];
                push_col(&mut lp, rows, 0.0);
            }
        }
    }
    // Every open (unit, digit) of the band and below must have a variable; a cell of the band
    // without candidates, or a digit a later column or block can no longer take, is a dead end.
    let rows = band * n * size..(band + 1) * n * size;
    let cells_open = rows.clone().all(|c| grid.get(c) != 0 || cell_rows.has(c));
    let rows_open = rows.clone().all(|rd| row_has[rd] || row_digit.has(rd));
    let cols_open = (0..size * size).all(|kd| col_has[kd] || col_digit.has(kd));
    // Blocks are numbered band by band, so this band's and the later ones are a suffix.
    let blocks_open = (band * n * size..size * size).all(|bd| block_has[bd] || block_digit.has(bd));
    model.infeasible = !(cells_open && rows_open && cols_open && blocks_open);
    let vars = lp.obj.len();
    lp.matrix.value = vec![1.0; lp.matrix.index.len()];
    lp.col_lower = vec![0.0; vars];
    lp.col_upper = vec![1.0; vars];
    lp.row_lower = rhs.clone();
    lp.row_upper = rhs;
    model.lp = lp;
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{Order, Variant};

    #[test]
    fn empty_9x9_band_model_sizes() {
        let geo = Geometry::get(Order::new(3).unwrap(), Variant::Classic);
        let grid = Grid::empty(Order::new(3).unwrap());
        let m = build(&geo, &grid, 0, &mut |_, _| 0.0);
        assert!(!m.infeasible);
        // x: 27 cells × 9 digits; y: 2 later bands × 9 columns × 9 digits.
        assert_eq!(m.x_cells.len(), 243);
        assert_eq!(m.lp.num_cols(), 243 + 162);
        // 27 cells, 27 (row, digit), 9 blocks × 9 digits, 81 (column, digit), 18 capacities.
        assert_eq!(m.lp.num_rows(), 27 + 27 + 81 + 81 + 18);
        assert_eq!(m.lp.row_upper.iter().filter(|&&v| v == 3.0).count(), 18);
    }

    #[test]
    fn a_band_cell_without_candidates_is_a_dead_end() {
        // Row 1 holds 1..8 in columns 2..9 and column 1 holds 9 further down: r1c1 is dead.
        let order = Order::new(3).unwrap();
        let geo = Geometry::get(order, Variant::Classic);
        let mut grid = Grid::empty(order);
        for k in 1..9 {
            grid.set(geo.cell(0, k), k as u16);
        }
        grid.set(geo.cell(5, 0), 9);
        assert!(build(&geo, &grid, 0, &mut |_, _| 0.0).infeasible);
        grid.set(geo.cell(5, 0), 0);
        assert!(!build(&geo, &grid, 0, &mut |_, _| 0.0).infeasible);
    }
}
