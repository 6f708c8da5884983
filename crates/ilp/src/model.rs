//! The binary model of the papers, built for CBC.
//!
//! `x(c, d) = 1` when cell `c` holds digit `d`. Rows: one digit per cell (`Σ_d x(c,d) = 1`)
//! and, for every unit (rows, columns, blocks, and the two diagonals of Sudoku-X) and every
//! digit, the digit once in the unit (`Σ_{c∈u} x(c,d) = 1`). Givens fix their variable to 1.
//!
//! Two builds:
//! - [`ModelKind::Full`]: all `N³` variables, givens fixed through their bounds, as the seeds
//!   write it (Raimundo et al. fixes givens with equality rows; bounds are the same set).
//! - [`ModelKind::Reduced`]: given cells and every digit a given excludes from its peers are
//!   removed before CBC sees the model, and so are the rows they satisfy. An empty cell or a
//!   (unit, digit) with nothing left is proven infeasible without CBC.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use rand::Rng as _;
use sudoku_core::{Geometry, Grid, Puzzle, Rng};

use crate::cbc::{Csc, LpData};
use crate::IlpError;

keyword_enum!(
    /// Which model to hand to CBC.
    ModelKind, "model", {
        /// All `N³` variables, as in the papers.
        #[default]
        Full => "full",
        /// Variables fixed by the givens (and the rows they satisfy) removed first.
        Reduced => "reduced",
    }
);

/// The objective function. Every Sudoku solution is a feasible point of the same polytope, so
/// the objective only decides *which* solution CBC returns and how it searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Objective {
    /// `0ᵀx`: a pure feasibility problem (Takano et al.).
    #[default]
    Zero,
    /// Maximise `Σ x`, equal to `N²` on every solution (Raggi et al.).
    Constant,
    /// Minimise `Σ k·x(i,j,k)`, equal to `N·N(N+1)/2` on every solution, 405 for 9×9
    /// (Raimundo et al.).
    Weighted,
    /// Minimise `sign·x(row, col, digit)`: Raimundo et al.'s `Z1 = −x(1,1,1)` (sign −1, prefer the
    /// digit there) and `Z2 = x(1,1,1)` (sign +1, avoid it). Row, column and digit are
    /// 1-based, as in the paper.
    Prefer {
        /// Row, 1-based.
        row: usize,
        /// Column, 1-based.
        col: usize,
        /// Digit, 1-based.
        digit: u16,
        /// −1 or +1.
        sign: i8,
    },
    /// Minimise a weight drawn uniformly from `[0, 1)` per variable with the caller's `Rng`,
    /// to draw different solutions with different seeds. CBC stops at its first integer
    /// solution (`maxSolutions 1`): proving random weights optimal is a long search for
    /// nothing, so the result is recorded as not proven optimal.
    Random,
}

impl Objective {
    /// The name recorded in results (`zero`, `constant`, `weighted`, `prefer`, `random`).
    pub fn name(&self) -> &'static str {
        match self {
            Objective::Zero => "zero",
            Objective::Constant => "constant",
            Objective::Weighted => "weighted",
            Objective::Prefer { .. } => "prefer",
            Objective::Random => "random",
        }
    }

    /// Whether CBC minimises (all but `constant`).
    pub fn minimises(&self) -> bool {
        !matches!(self, Objective::Constant)
    }

    /// The objective value every solution has, when it is constant on solutions.
    pub fn constant_value(&self, size: usize) -> Option<f64> {
        match self {
            Objective::Zero => Some(0.0),
            Objective::Constant => Some((size * size) as f64),
            Objective::Weighted => Some((size * size * (size + 1) / 2) as f64),
            _ => None,
        }
    }
}

/// A built model: CBC's arrays plus the map back to cells and digits.
#[derive(Clone, Debug)]
pub(crate) struct SudokuModel {
    pub kind: ModelKind,
    /// The givens (the reduced model's columns only cover empty cells).
    pub givens: Grid,
    /// Cell of each column.
    pub var_cell: Vec<u32>,
    /// Digit (1-based) of each column.
    pub var_digit: Vec<u16>,
    pub lp: LpData,
    /// Objective contribution of the variables removed by the reduction.
    pub obj_offset: f64,
    pub minimise: bool,
    /// Set when the reduction already proves there is no solution.
    pub infeasible: Option<String>,
}

impl SudokuModel {
    /// Builds the model of `puzzle`. `random` supplies the weights of [`Objective::Random`]
    /// (drawn for all `N³` variables in a fixed order, so both builds see the same weights).
    pub fn build(
        puzzle: &Puzzle,
        kind: ModelKind,
        objective: &Objective,
        rng: &mut Rng,
    ) -> Result<SudokuModel, IlpError> {
        let built = SudokuModel::build_until(puzzle, kind, objective, rng, None)?;
        Ok(built.expect("no deadline to pass"))
    }

    /// [`SudokuModel::build`] within a deadline: `None` once it has passed (the model of an
    /// empty 256×256 grid, 16.7 million columns, takes about a second to build).
    pub fn build_until(
        puzzle: &Puzzle,
        kind: ModelKind,
        objective: &Objective,
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> Result<Option<SudokuModel>, IlpError> {
        let geo = puzzle.geometry();
        let size = geo.size();
        let cells = geo.cells();
        if let Objective::Prefer {
            row, col, digit, ..
        } = *objective
        {
            if row == 0 || col == 0 || row > size || col > size || digit == 0 {
                return Err(IlpError::CellOutOfRange { row, col, size });
            }
            if digit as usize > size {
                return Err(IlpError::DigitOutOfRange { digit, size });
            }
        }
        let weights: Option<Vec<f64>> = match objective {
            Objective::Random => Some(
                (0..cells * size)
                    .map(|_| rng.random_range(0.0..1.0))
                    .collect(),
            ),
            _ => None,
        };
        let coef = |c: usize, d: usize| -> f64 {
            match *objective {
                Objective::Zero => 0.0,
                Objective::Constant => 1.0,
                Objective::Weighted => (d + 1) as f64,
                Objective::Prefer {
                    row,
                    col,
                    digit,
                    sign,
                } => {
                    if c == (row - 1) * size + (col - 1) && d + 1 == digit as usize {
                        f64::from(sign)
                    } else {
                        0.0
                    }
                }
                Objective::Random => weights.as_ref().map_or(0.0, |w| w[c * size + d]),
            }
        };
        let givens = puzzle.givens().clone();
        let mut past = Past::new(deadline);
        let built = match kind {
            ModelKind::Full => build_full(&geo, &givens, &coef, &mut past),
            ModelKind::Reduced => build_reduced(&geo, &givens, &coef, &mut past),
        };
        Ok(built.map(|mut model| {
            model.minimise = objective.minimises();
            model
        }))
    }

    pub fn num_vars(&self) -> usize {
        self.var_cell.len()
    }

    /// Reads a grid from column values; `None` unless every column is within `tol` of 0 or 1
    /// and every cell gets exactly one digit.
    pub fn decode(&self, values: &[f64], tol: f64) -> Option<Grid> {
        let mut cells: Vec<u16> = self.givens.cells().to_vec();
        if self.kind == ModelKind::Full {
            // Givens are columns too: start from an empty grid and let the columns speak.
            cells.iter_mut().for_each(|v| *v = 0);
        }
        for (j, &v) in values.iter().enumerate() {
            if v > 1.0 - tol {
                let c = self.var_cell[j] as usize;
                if cells[c] != 0 {
                    return None;
                }
                cells[c] = self.var_digit[j];
            } else if v > tol {
                return None;
            }
        }
        if cells.contains(&0) {
            return None;
        }
        Grid::from_cells(self.givens.order(), cells).ok()
    }

    /// Columns whose value is fractional (not within `tol` of 0 or 1).
    pub fn fractional(values: &[f64], tol: f64) -> usize {
        values.iter().filter(|&&v| v > tol && v < 1.0 - tol).count()
    }

    /// The columns that are 1 in `grid` (the support of a solution), for a no-good cut.
    pub fn support(&self, grid: &Grid) -> Vec<usize> {
        (0..self.num_vars())
            .filter(|&j| grid.get(self.var_cell[j] as usize) == self.var_digit[j])
            .collect()
    }

    /// The LP with extra rows `Σ_{j∈cut} x_j ≤ |cut| − 1`, one per cut: each excludes the
    /// solution whose support it is.
    pub fn lp_with_cuts(&self, cuts: &[Vec<usize>]) -> LpData {
        if cuts.is_empty() {
            return self.lp.clone();
        }
        let base_rows = self.lp.num_rows();
        let cols = self.lp.num_cols();
        let mut per_col: Vec<Vec<usize>> = vec![Vec::new(); cols];
        for (k, cut) in cuts.iter().enumerate() {
            for &j in cut {
                per_col[j].push(base_rows + k);
            }
        }
        let old = &self.lp.matrix;
        let mut m = Csc {
            start: Vec::with_capacity(cols + 1),
            index: Vec::with_capacity(old.index.len() + cuts.iter().map(Vec::len).sum::<usize>()),
            value: Vec::new(),
        };
        m.start.push(0);
        for (j, extra) in per_col.iter().enumerate() {
            let (a, b) = (old.start[j] as usize, old.start[j + 1] as usize);
            m.index.extend_from_slice(&old.index[a..b]);
            m.value.extend_from_slice(&old.value[a..b]);
            for &r in extra {
                m.index.push(r as i32);
                m.value.push(1.0);
            }
            m.start.push(m.index.len() as i32);
        }
        let mut lp = self.lp.clone();
        lp.matrix = m;
        for cut in cuts {
            lp.row_lower.push(f64::NEG_INFINITY);
            lp.row_upper.push(cut.len() as f64 - 1.0);
        }
        lp
    }
}

fn empty_model(kind: ModelKind, givens: &Grid) -> SudokuModel {
    SudokuModel {
        kind,
        givens: givens.clone(),
        var_cell: Vec::new(),
        var_digit: Vec::new(),
        lp: LpData::default(),
        obj_offset: 0.0,
        minimise: true,
        infeasible: None,
    }
}

/// Columns from which a model is freed on a thread of its own: freeing the 1.4 GB of an empty
/// 256×256 grid's model takes about 0.2 s, which is no part of the solve.
pub(crate) const FREE_BESIDE: usize = 1 << 20;

/// Drops `model`, on a thread of its own when it is large.
pub(crate) fn free_beside(model: SudokuModel) {
    if model.num_vars() >= FREE_BESIDE {
        // Should the thread not start, the model is freed here with the closure.
        let _ = std::thread::Builder::new()
            .name("ilp-free".into())
            .spawn(move || drop(model));
    }
}

/// The deadline of a build, read once every [`Past::STRIDE`] cells.
struct Past {
    at: Option<Instant>,
    cells: u32,
}

impl Past {
    /// Cells between two readings of the clock (a cell of a 256×256 grid adds 256 columns).
    const STRIDE: u32 = 16;

    fn new(at: Option<Instant>) -> Past {
        Past { at, cells: 0 }
    }

    /// True once the deadline has passed, read at every [`Past::STRIDE`]-th call.
    fn passed(&mut self) -> bool {
        let Some(at) = self.at else { return false };
        self.cells += 1;
        if self.cells < Past::STRIDE {
            return false;
        }
        self.cells = 0;
        Instant::now() >= at
    }
}

fn build_full(
    geo: &Geometry,
    givens: &Grid,
    coef: &dyn Fn(usize, usize) -> f64,
    past: &mut Past,
) -> Option<SudokuModel> {
    let size = geo.size();
    let cells = geo.cells();
    let units = geo.unit_count();
    let mut m = empty_model(ModelKind::Full, givens);
    let vars = cells * size;
    let per_col = 1 + geo.cell_units(0).len();
    let lp = &mut m.lp;
    lp.matrix.start.reserve(vars + 1);
    lp.matrix.index.reserve(vars * per_col);
    lp.matrix.value.reserve(vars * per_col);
    lp.col_upper.reserve(vars);
    lp.matrix.start.push(0);
    m.var_cell.reserve(vars);
    m.var_digit.reserve(vars);
    lp.col_lower.reserve(vars);
    lp.obj.reserve(vars);
    // Rows 0..cells: one digit per cell; then cells + u·N + d: digit d once in unit u. Every
    // array grows cell by cell, so that a build past its deadline stops within a few cells.
    for c in 0..cells {
        if past.passed() {
            free_beside(m);
            return None;
        }
        let g = givens.get(c) as usize;
        for d in 0..size {
            lp.matrix.index.push(c as i32);
            for &u in geo.cell_units(c) {
                lp.matrix.index.push((cells + u as usize * size + d) as i32);
            }
            lp.matrix.start.push(lp.matrix.index.len() as i32);
            m.var_cell.push(c as u32);
            m.var_digit.push(d as u16 + 1);
            lp.col_lower.push(if g == d + 1 { 1.0 } else { 0.0 });
            lp.col_upper.push(1.0);
            lp.obj.push(coef(c, d));
        }
        lp.matrix.value.resize(lp.matrix.index.len(), 1.0);
    }
    let rows = cells + units * size;
    lp.row_lower = vec![1.0; rows];
    lp.row_upper = vec![1.0; rows];
    Some(m)
}

fn build_reduced(
    geo: &Geometry,
    givens: &Grid,
    coef: &dyn Fn(usize, usize) -> f64,
    past: &mut Past,
) -> Option<SudokuModel> {
    let size = geo.size();
    let cells = geo.cells();
    let units = geo.unit_count();
    let mut m = empty_model(ModelKind::Reduced, givens);
    // Which digits each unit already holds; a repeat is a contradiction in the givens.
    let mut unit_has = vec![false; units * size];
    for c in 0..cells {
        let g = givens.get(c) as usize;
        if g == 0 {
            continue;
        }
        m.obj_offset += coef(c, g - 1);
        for &u in geo.cell_units(c) {
            let k = u as usize * size + g - 1;
            if unit_has[k] && m.infeasible.is_none() {
                m.infeasible = Some(format!(
                    "givens repeat digit {g} in {}",
                    geo.unit_kind(u as usize)
                ));
            }
            unit_has[k] = true;
        }
    }
    // Row ids: empty cells first, then the (unit, digit) pairs still open.
    let mut next_row = 0i32;
    let mut cell_row = vec![-1i32; cells];
    for (c, r) in cell_row.iter_mut().enumerate() {
        if givens.get(c) == 0 {
            *r = next_row;
            next_row += 1;
        }
    }
    let mut unit_row = vec![-1i32; units * size];
    for (k, r) in unit_row.iter_mut().enumerate() {
        if !unit_has[k] {
            *r = next_row;
            next_row += 1;
        }
    }
    let mut unit_count = vec![0u32; units * size];
    let lp = &mut m.lp;
    lp.matrix.start.push(0);
    for (c, &row) in cell_row.iter().enumerate() {
        if row < 0 {
            continue;
        }
        if past.passed() {
            free_beside(m);
            return None;
        }
        let mut any = false;
        for d in 0..size {
            let cu = geo.cell_units(c);
            if cu.iter().any(|&u| unit_has[u as usize * size + d]) {
                continue;
            }
            any = true;
            lp.matrix.index.push(row);
            for &u in cu {
                let k = u as usize * size + d;
                lp.matrix.index.push(unit_row[k]);
                unit_count[k] += 1;
            }
            lp.matrix.start.push(lp.matrix.index.len() as i32);
            m.var_cell.push(c as u32);
            m.var_digit.push(d as u16 + 1);
            lp.col_lower.push(0.0);
            lp.col_upper.push(1.0);
            lp.obj.push(coef(c, d));
        }
        lp.matrix.value.resize(lp.matrix.index.len(), 1.0);
        if !any && m.infeasible.is_none() {
            m.infeasible = Some(format!(
                "cell r{}c{} has no candidate",
                geo.row(c) + 1,
                geo.col(c) + 1
            ));
        }
    }
    if m.infeasible.is_none() {
        if let Some(k) = (0..units * size).find(|&k| !unit_has[k] && unit_count[k] == 0) {
            m.infeasible = Some(format!(
                "digit {} has no place in {}",
                k % size + 1,
                geo.unit_kind(k / size)
            ));
        }
    }
    lp.row_lower = vec![1.0; next_row as usize];
    lp.row_upper = vec![1.0; next_row as usize];
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{rng_from_seed, Order, Variant};

    #[test]
    fn full_model_sizes() {
        let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
        let m = SudokuModel::build(&p, ModelKind::Full, &Objective::Zero, &mut rng_from_seed(1))
            .unwrap();
        assert_eq!(m.num_vars(), 729);
        assert_eq!(m.lp.num_rows(), 81 + 27 * 9);
        assert_eq!(m.lp.matrix.index.len(), 729 * 4);
        let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Diagonal);
        let m = SudokuModel::build(&p, ModelKind::Full, &Objective::Zero, &mut rng_from_seed(1))
            .unwrap();
        assert_eq!(m.lp.num_rows(), 81 + 29 * 9);
    }

    #[test]
    fn reduced_model_drops_fixed_variables() {
        // One given 1 at r1c1: r1c1 leaves (9 vars), and digit 1 leaves its 20 peers.
        let mut g = Grid::empty(Order::new(3).unwrap());
        g.set(0, 1);
        let p = Puzzle::new(g, Variant::Classic);
        let m = SudokuModel::build(
            &p,
            ModelKind::Reduced,
            &Objective::Weighted,
            &mut rng_from_seed(1),
        )
        .unwrap();
        assert_eq!(m.num_vars(), 729 - 9 - 20);
        // Rows: 80 cells and 27·9 − 3 (row 1, column 1 and block 1 already hold digit 1).
        assert_eq!(m.lp.num_rows(), 80 + 27 * 9 - 3);
        assert_eq!(m.obj_offset, 1.0);
        assert!(m.infeasible.is_none());
    }

    #[test]
    fn reduction_spots_contradictions() {
        let mut g = Grid::empty(Order::new(2).unwrap());
        g.set(0, 1);
        g.set(3, 1);
        let p = Puzzle::new(g, Variant::Classic);
        let m = SudokuModel::build(
            &p,
            ModelKind::Reduced,
            &Objective::Zero,
            &mut rng_from_seed(1),
        )
        .unwrap();
        assert_eq!(
            m.infeasible.as_deref(),
            Some("givens repeat digit 1 in row 1")
        );
    }

    #[test]
    fn cuts_append_rows() {
        let p = Puzzle::empty(Order::new(2).unwrap(), Variant::Classic);
        let m = SudokuModel::build(&p, ModelKind::Full, &Objective::Zero, &mut rng_from_seed(1))
            .unwrap();
        let lp = m.lp_with_cuts(&[vec![0, 5, 63]]);
        assert_eq!(lp.num_rows(), m.lp.num_rows() + 1);
        assert_eq!(lp.row_upper.last(), Some(&2.0));
        assert_eq!(lp.matrix.index.len(), m.lp.matrix.index.len() + 3);
        assert_eq!(
            *lp.matrix.start.last().unwrap() as usize,
            lp.matrix.index.len()
        );
    }
}
