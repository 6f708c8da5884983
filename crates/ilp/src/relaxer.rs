//! The registry entry of the `ilp` method's relaxation: `kind = "relax"` and `solve --relax`
//! run [`crate::relax_until`] with the method's own parameters, and `kind = "logic-lp"` asks
//! the polytope questions of Teles's Theorem 4 of it and of [`crate::polytope`]. Apart from
//! both so that neither knows the registry nor the other.

use std::time::Instant;

use sudoku_core::{
    rng_from_seed, PolytopeCheck, PolytopeReport, Puzzle, RelaxError, RelaxReport, Rng,
};

use crate::polytope::random_objective_range_until;
use crate::{relax_until, RelaxConfig};

/// The `ilp` method's relaxation capability (`kind = "relax"`, `solve --relax`), configured by
/// the method's own `objective` and `model` parameters.
pub fn relaxers() -> Vec<sudoku_core::RelaxerInfo> {
    vec![sudoku_core::RelaxerInfo {
        method: "ilp",
        thread_safe: false,
        build: build_relaxer,
        polytope: Some(CHECK),
    }]
}

fn build_relaxer(
    params: &sudoku_core::Params,
) -> Result<Box<dyn sudoku_core::Relaxer + Send>, sudoku_core::ParamError> {
    let cfg = crate::IlpConfig::from_params(params)?;
    Ok(Box::new(IlpRelaxer(RelaxConfig {
        model: cfg.model,
        objective: cfg.objective,
        ..RelaxConfig::default()
    })))
}

struct IlpRelaxer(RelaxConfig);

impl sudoku_core::Relaxer for IlpRelaxer {
    fn check_order(&self, order: sudoku_core::Order) -> Result<(), sudoku_core::ParamError> {
        crate::config::check_objective(&self.0.objective, order)
    }

    fn relax(
        &mut self,
        puzzle: &Puzzle,
        budget: &sudoku_core::Budget,
        _rng: &mut Rng,
    ) -> Result<RelaxReport, sudoku_core::RelaxError> {
        // The relaxation is deterministic except for the `random` objective's weights, which
        // stay fixed (seed 0) so every trial relaxes the same LP.
        let mut rng = sudoku_core::rng_from_seed(0);
        let deadline = budget.deadline(Instant::now());
        let r = relax_until(puzzle, &self.0, deadline, &mut rng)
            .map_err(|e| sudoku_core::RelaxError(e.to_string()))?;
        // The rows' `extra` column carries these as it always has.
        let solve_ms = r.solve_time.unwrap_or_default().as_secs_f64() * 1000.0;
        let extra = vec![
            ("variables".into(), r.variables.to_string()),
            ("lp_iterations".into(), r.iterations.to_string()),
            ("solve_ms".into(), format!("{solve_ms:.3}")),
        ];
        Ok(RelaxReport { extra, ..r })
    }
}

/// The `ilp` relaxation's answers to `kind = "logic-lp"`: [`relax_until`] of the reduced model
/// with its uniqueness check, and [`random_objective_range_until`].
const CHECK: PolytopeCheck = PolytopeCheck {
    relax: check_relax,
    random_range: |puzzle, deadline, rng| {
        random_objective_range_until(puzzle, deadline, rng).map_err(|e| RelaxError(e.to_string()))
    },
};

fn check_relax(
    puzzle: &Puzzle,
    deadline: Option<Instant>,
) -> Result<Option<PolytopeReport>, RelaxError> {
    // Deterministic: the generator is used only by the `random` objective, not asked for here.
    let r = relax_until(
        puzzle,
        &RelaxConfig::default(),
        deadline,
        &mut rng_from_seed(0),
    )
    .map_err(|e| RelaxError(e.to_string()))?;
    Ok(r.stopped.is_none().then_some(PolytopeReport {
        feasible: r.feasible,
        grid: r.grid,
        unique: r.unique,
        iterations: r.iterations,
    }))
}
