//! The LP relaxation: `x` continuous in `[0, 1]` instead of binary.
//!
//! Teles (after Provan 2009), Theorem 4: a puzzle solvable with the pigeonhole rule
//! alone has a unique non-negative solution of the model's equations, and it is the puzzle's
//! solution. [`relax`] checks the conclusion directly: it solves the LP and, when the optimum
//! `x*` is integral, asks whether `x*` is the only point of the LP feasible set.
//!
//! Why one extra LP is enough: let `Z = {j : x*_j = 0}`. Maximise `Σ_{j∈Z} x_j` over the
//! feasible set. If the maximum is 0, every `x_j` with `j ∈ Z` is 0 at every feasible point;
//! each cell row `Σ_d x(c,d) = 1` then has one variable left, which must be 1, so the feasible
//! set is `{x*}`. If the maximum is positive, another feasible point exists. (Maximising and
//! minimising each variable separately gives the same answer with `2·|x|` LPs.) When `x*` is
//! fractional the feasible set holds a non-integral point, so it is not a single integral
//! point: the report says `unique = Some(false)`.

use std::time::Instant;

use sudoku_core::{Limit, Puzzle, RelaxReport, Rng};

use crate::cbc::CbcModel;
use crate::isolate::{self, Isolated};
use crate::model::{ModelKind, Objective, SudokuModel};
use crate::search::INT_TOL;
use crate::IlpError;

/// What to relax and what to ask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelaxConfig {
    /// Full or reduced model.
    pub model: ModelKind,
    /// Objective of the first LP (`zero` asks only for a feasible point).
    pub objective: Objective,
    /// Also decide whether the integral optimum is the only LP-feasible point (one more LP).
    pub check_unique: bool,
    /// Distance from 0 or 1 under which a value counts as integral.
    pub tolerance: f64,
}

impl Default for RelaxConfig {
    fn default() -> RelaxConfig {
        RelaxConfig {
            model: ModelKind::Reduced,
            objective: Objective::Zero,
            check_unique: true,
            tolerance: INT_TOL,
        }
    }
}

/// Solves the LP relaxation of `puzzle`, however long it takes. `rng` is used only by
/// [`Objective::Random`].
pub fn relax(
    puzzle: &Puzzle,
    config: &RelaxConfig,
    rng: &mut Rng,
) -> Result<RelaxReport, IlpError> {
    relax_until(puzzle, config, None, rng)
}

/// [`relax`] that gives up at `deadline` (the report then says `stopped`). Clp's simplex does
/// not look at the clock, so a large model runs in a child process that is killed at the
/// deadline, as branch and cut does ([`crate::isolate`]); small ones finish in milliseconds
/// and stay here.
pub fn relax_until(
    puzzle: &Puzzle,
    config: &RelaxConfig,
    deadline: Option<Instant>,
    rng: &mut Rng,
) -> Result<RelaxReport, IlpError> {
    let t0 = Instant::now();
    let model = SudokuModel::build(puzzle, config.model, &config.objective, rng)?;
    let mut report = RelaxReport {
        variables: model.num_vars(),
        ..RelaxReport::default()
    };
    if model.infeasible.is_some() {
        report.build_time = Some(t0.elapsed());
        return Ok(report);
    }
    if let Some(at) = deadline {
        let left = at.saturating_duration_since(Instant::now());
        if left.is_zero() {
            report.build_time = Some(t0.elapsed());
            report.stopped = Some(Limit::Time);
            return Ok(report);
        }
        if isolate::worth_isolating(deadline, model.num_vars()) {
            let t1 = Instant::now();
            let kill_at = at + isolate::grace(left);
            let base = report.clone();
            let child = isolate::run(kill_at, || solve_lps(&model, config, base, t0))?;
            let mut done = match child.end {
                Isolated::Done(r) => r?,
                Isolated::Killed => RelaxReport {
                    build_time: Some(t1 - t0),
                    solve_time: Some(t1.elapsed()),
                    stopped: Some(Limit::Time),
                    ..report
                },
            };
            done.child_cpu = Some(child.cpu);
            return Ok(done);
        }
    }
    solve_lps(&model, config, report, t0)
}

/// Loads the model into CBC and solves the LP (and the uniqueness LP when asked); `t0` is when
/// building the model began.
fn solve_lps(
    model: &SudokuModel,
    config: &RelaxConfig,
    mut report: RelaxReport,
    t0: Instant,
) -> Result<RelaxReport, IlpError> {
    let mut cbc = CbcModel::new(&model.lp);
    cbc.set_minimise(model.minimise);
    cbc.set_log_level(0);
    report.build_time = Some(t0.elapsed());
    let t1 = Instant::now();
    // No column is integer, so this is one Clp solve.
    cbc.solve();
    report.iterations = cbc.iteration_count();
    if cbc.is_proven_infeasible() || !cbc.is_proven_optimal() {
        report.solve_time = Some(t1.elapsed());
        if !cbc.is_proven_infeasible() {
            return Err(IlpError::Abandoned {
                status: cbc.status_name(),
                secondary: "lp-not-optimal".into(),
            });
        }
        return Ok(report);
    }
    report.feasible = true;
    report.objective = Some(cbc.obj_value() + model.obj_offset);
    let x = cbc.col_solution();
    report.fractional = SudokuModel::fractional(&x, config.tolerance);
    report.grid = model.decode(&x, config.tolerance);
    report.integral = report.grid.is_some();
    if config.check_unique {
        if !report.integral {
            report.unique = Some(false);
        } else {
            cbc.set_minimise(false);
            for (j, &v) in x.iter().enumerate() {
                cbc.set_obj_coeff(j, if v < config.tolerance { 1.0 } else { 0.0 });
            }
            // Warm-started from the first basis.
            cbc.solve();
            report.iterations += cbc.iteration_count();
            if !cbc.is_proven_optimal() {
                return Err(IlpError::Abandoned {
                    status: cbc.status_name(),
                    secondary: "lp-not-optimal".into(),
                });
            }
            report.unique = Some(cbc.obj_value() <= config.tolerance);
        }
    }
    report.solve_time = Some(t1.elapsed());
    Ok(report)
}
