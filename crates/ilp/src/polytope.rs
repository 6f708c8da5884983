//! A second test of Provan's conclusion (seed 004, Theorem 4), independent of the one in
//! [`crate::relax`]: minimise and maximise one random objective over the LP polytope. If the
//! polytope is a single point the two optima agree; if it has another point, a random
//! direction separates them with probability one, so the optima differ.

use rand::Rng as _;
use sudoku_core::{Puzzle, Rng};

use crate::cbc::CbcModel;
use crate::model::{ModelKind, Objective, SudokuModel};
use crate::IlpError;

/// The smallest and largest value of a random objective (weights uniform in `[0, 1)`) over the
/// LP relaxation of `puzzle`; `None` when the LP is infeasible.
pub fn random_objective_range(
    puzzle: &Puzzle,
    rng: &mut Rng,
) -> Result<Option<(f64, f64)>, IlpError> {
    let model = SudokuModel::build(puzzle, ModelKind::Reduced, &Objective::Zero, rng)?;
    if model.infeasible.is_some() {
        return Ok(None);
    }
    let mut cbc = CbcModel::new(&model.lp);
    cbc.set_log_level(0);
    for j in 0..model.num_vars() {
        cbc.set_obj_coeff(j, rng.random_range(0.0..1.0));
    }
    let mut range = [0.0; 2];
    for (i, minimise) in [true, false].into_iter().enumerate() {
        cbc.set_minimise(minimise);
        cbc.solve();
        if cbc.is_proven_infeasible() {
            return Ok(None);
        }
        if !cbc.is_proven_optimal() {
            return Err(IlpError::Abandoned {
                status: cbc.status_name(),
                secondary: "lp-not-optimal".into(),
            });
        }
        range[i] = cbc.obj_value();
    }
    Ok(Some((range[0], range[1])))
}
