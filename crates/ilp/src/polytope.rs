//! A second test of Provan's conclusion (Teles, Theorem 4), independent of the one in
//! [`crate::relax`]: minimise and maximise one random objective over the LP polytope. If the
//! polytope is a single point the two optima agree; if it has another point, a random
//! direction separates them with probability one, so the optima differ.

use std::time::Instant;

use rand::Rng as _;
use sudoku_core::{Puzzle, Rng};

use crate::cbc::CbcModel;
use crate::isolate::{self, Isolated};
use crate::model::{ModelKind, Objective, SudokuModel};
use crate::IlpError;

/// The smallest and largest value of a random objective (weights uniform in `[0, 1)`) over the
/// LP relaxation of `puzzle`; `None` when the LP is infeasible.
pub fn random_objective_range(
    puzzle: &Puzzle,
    rng: &mut Rng,
) -> Result<Option<(f64, f64)>, IlpError> {
    random_objective_range_until(puzzle, None, rng).map(|r| r.flatten())
}

/// [`random_objective_range`] that gives up at `deadline`: `Ok(None)` then. Clp does not look
/// at the clock, so a large model runs in a child process killed at the deadline, as
/// [`crate::relax_until`] does; the weights are drawn here first, so a seed gives the same
/// objective either way.
pub fn random_objective_range_until(
    puzzle: &Puzzle,
    deadline: Option<Instant>,
    rng: &mut Rng,
) -> Result<Option<Option<(f64, f64)>>, IlpError> {
    let model = SudokuModel::build(puzzle, ModelKind::Reduced, &Objective::Zero, rng)?;
    if model.infeasible.is_some() {
        return Ok(Some(None));
    }
    let weights: Vec<f64> = (0..model.num_vars())
        .map(|_| rng.random_range(0.0..1.0))
        .collect();
    let Some(at) = deadline else {
        return range(&model, &weights).map(Some);
    };
    let left = at.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Ok(None);
    }
    if !isolate::worth_isolating(deadline, model.num_vars()) {
        return range(&model, &weights).map(Some);
    }
    let child = isolate::run(at + isolate::grace(left), || range(&model, &weights))?;
    match child.end {
        Isolated::Done(r) => r.map(Some),
        Isolated::Killed => Ok(None),
    }
}

/// Minimises, then maximises, `weights` over the model's LP.
fn range(model: &SudokuModel, weights: &[f64]) -> Result<Option<(f64, f64)>, IlpError> {
    let mut cbc = CbcModel::new(&model.lp);
    cbc.set_log_level(0);
    for (j, &w) in weights.iter().enumerate() {
        cbc.set_obj_coeff(j, w);
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
