//! What both searches (`search=cbc` in `solve`, `search=dfs` in `dfs`), the generator and the
//! relaxation share: the integrality tolerance, loading a model's LP into CBC, CBC's branch and
//! cut settings, and what one search returns ([`SearchOutcome`], [`SearchEnd`]).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sudoku_core::{Grid, Limit};

use crate::cbc::{CbcModel, LpData};
use crate::config::{IlpConfig, Preprocess};
use crate::model::{Objective, SudokuModel};

/// Values closer than this to 0 or 1 count as integral.
pub(crate) const INT_TOL: f64 = 1e-6;

/// How one search ended.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum SearchEnd {
    /// A verified grid; `optimal` when CBC proved optimality (or the LP bound did).
    Solved { grid: Grid, optimal: bool },
    /// No solution; `by` says who proved it.
    Infeasible { by: Prover },
    /// A limit stopped CBC first.
    Stopped(Limit),
}

/// Who proved a puzzle infeasible, as the `infeasible_by` statistic names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Prover {
    /// The model's reduction (a cell or unit left without a candidate).
    Reduction,
    /// The LP relaxation.
    Lp,
    /// CBC's branch and cut.
    Cbc,
    /// This crate's depth-first search.
    Dfs,
}

impl Prover {
    /// The name in `infeasible_by`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Prover::Reduction => "reduction",
            Prover::Lp => "lp",
            Prover::Cbc => "cbc",
            Prover::Dfs => "dfs",
        }
    }
}

/// One search (CBC's branch and cut or `dfs`) on one model, with its statistics. It crosses
/// from a child as its derived encoding (`wire_derived!` below), all but the child's CPU time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SearchOutcome {
    pub end: SearchEnd,
    pub nodes: u64,
    pub iterations: u64,
    pub objective: Option<f64>,
    pub status: String,
    pub secondary: String,
    pub load_time: Duration,
    pub solve_time: Duration,
    /// Whether the LP relaxation was solved first and was integral.
    pub lp_integral: Option<bool>,
    /// CPU time of the child process the search ran in, if it ran in one (measured by the
    /// parent, so it does not cross).
    #[serde(skip)]
    pub child_cpu: Option<Duration>,
}

sudoku_isolate::wire_derived!(SearchOutcome);

impl SearchOutcome {
    /// A search that ended before CBC was called.
    pub(crate) fn trivial(end: SearchEnd, status: &str) -> SearchOutcome {
        SearchOutcome {
            end,
            nodes: 0,
            iterations: 0,
            objective: None,
            status: status.to_string(),
            secondary: status.to_string(),
            load_time: Duration::ZERO,
            solve_time: Duration::ZERO,
            lp_integral: None,
            child_cpu: None,
        }
    }
}

/// Hands `config`'s CBC options and the budget left to `CbcMain1`.
pub(crate) fn configure_branch_and_cut(
    cbc: &mut CbcModel,
    config: &IlpConfig,
    remaining: Option<Duration>,
    node_limit: Option<u64>,
) {
    let log = config.cbc.log.to_string();
    cbc.set_parameter("log", &log);
    cbc.set_parameter("slog", &log);
    cbc.set_parameter("presolve", config.cbc.presolve.name());
    if config.cbc.preprocess != Preprocess::Default {
        cbc.set_parameter("preprocess", config.cbc.preprocess.name());
    }
    cbc.set_parameter("cuts", config.cbc.cuts.name());
    cbc.set_parameter(
        "heuristics",
        if config.cbc.heuristics { "on" } else { "off" },
    );
    if let Some(left) = remaining {
        // CBC reads seconds as a double; never hand it 0, which it takes as "no limit".
        // Wall-clock time, as the Budget means it (CBC counts CPU time by default).
        cbc.set_parameter("timeMode", "elapsed");
        cbc.set_parameter("sec", &format!("{:.3}", left.as_secs_f64().max(0.001)));
    }
    if let Some(n) = node_limit {
        cbc.set_parameter("maxNodes", &n.to_string());
    }
    if config.objective == Objective::Random {
        // Random weights only pick a solution; proving them optimal over all grids is a hard
        // search for nothing, so stop at the first integer solution.
        cbc.set_parameter("maxSolutions", "1");
    }
}

/// Hands `lp` to a new CBC model with the objective's sense and the log level; also returns
/// how long that took (part of the build time).
pub(crate) fn load(lp: &LpData, model: &SudokuModel, config: &IlpConfig) -> (CbcModel, Duration) {
    let t0 = Instant::now();
    let mut cbc = CbcModel::new(lp);
    cbc.set_minimise(model.minimise);
    cbc.set_log_level(i32::from(config.cbc.log));
    (cbc, t0.elapsed())
}

#[cfg(test)]
mod tests {
    use sudoku_isolate::Wire;

    use super::*;

    /// A search's outcome crosses from a child whole, all but the child's CPU time; each way a
    /// search ends keeps its prover or limit.
    #[test]
    fn an_outcome_crosses_the_wire() {
        let order = sudoku_core::Order::new(2).unwrap();
        let cells: Vec<u16> = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let grid = Grid::from_cells(order, cells).unwrap();
        let ends = [
            SearchEnd::Solved {
                grid,
                optimal: true,
            },
            SearchEnd::Infeasible { by: Prover::Cbc },
            SearchEnd::Stopped(Limit::Nodes),
        ];
        for end in ends {
            let mut run = SearchOutcome::trivial(end, "status");
            run.nodes = 7;
            run.objective = Some(0.1 + 0.2);
            run.solve_time = Duration::from_nanos(1_234_567);
            run.lp_integral = Some(false);
            run.child_cpu = Some(Duration::from_millis(3));
            let mut out = Vec::new();
            run.put(&mut out);
            let back = SearchOutcome::get(&mut out.as_slice()).unwrap();
            assert_eq!(
                format!("{back:?}"),
                format!(
                    "{:?}",
                    SearchOutcome {
                        child_cpu: None,
                        ..run
                    }
                )
            );
        }
    }
}
