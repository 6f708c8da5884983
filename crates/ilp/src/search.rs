//! What both searches (`search=cbc` in `solve`, `search=dfs` in `dfs`), the generator and the
//! relaxation share: the integrality tolerance, loading a model's LP into CBC, CBC's branch and
//! cut settings, and what one search returns ([`SearchOutcome`], [`SearchEnd`]).

use std::time::{Duration, Instant};

use sudoku_core::{Grid, Limit};

use crate::cbc::{CbcModel, LpData};
use crate::config::{IlpConfig, Preprocess};
use crate::isolate::Wire;
use crate::model::{Objective, SudokuModel};

/// Values closer than this to 0 or 1 count as integral.
pub(crate) const INT_TOL: f64 = 1e-6;

/// How one search ended.
#[derive(Clone, Debug)]
pub(crate) enum SearchEnd {
    /// A verified grid; `optimal` when CBC proved optimality (or the LP bound did).
    Solved { grid: Grid, optimal: bool },
    /// No solution; `by` says who proved it (`givens`, `reduction`, `lp`, `cbc`, `dfs`).
    Infeasible { by: &'static str },
    /// A limit stopped CBC first.
    Stopped(Limit),
}

/// One search (CBC's branch and cut or `dfs`) on one model, with its statistics.
#[derive(Clone, Debug)]
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
    /// CPU time of the child process the search ran in, if it ran in one.
    pub child_cpu: Option<Duration>,
}

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

/// Who proved infeasibility, as the child names it, back to the `&'static str` it was.
const INFEASIBLE_BY: [&str; 5] = ["givens", "reduction", "lp", "cbc", "dfs"];
const LIMITS: [Limit; 3] = [Limit::Time, Limit::Nodes, Limit::Iterations];

impl Wire for SearchEnd {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            SearchEnd::Solved { grid, optimal } => {
                0u64.put(out);
                grid.put(out);
                optimal.put(out);
            }
            SearchEnd::Infeasible { by } => {
                1u64.put(out);
                (by.to_string()).put(out);
            }
            SearchEnd::Stopped(limit) => {
                2u64.put(out);
                (LIMITS.iter().position(|l| l == limit).unwrap_or(0) as u64).put(out);
            }
        }
    }

    fn get(input: &mut &[u8]) -> Option<SearchEnd> {
        Some(match u64::get(input)? {
            0 => SearchEnd::Solved {
                grid: <Grid as Wire>::get(input)?,
                optimal: bool::get(input)?,
            },
            1 => {
                let by = String::get(input)?;
                SearchEnd::Infeasible {
                    by: INFEASIBLE_BY.into_iter().find(|b| *b == by)?,
                }
            }
            2 => SearchEnd::Stopped(*LIMITS.get(usize::try_from(u64::get(input)?).ok()?)?),
            _ => return None,
        })
    }
}

impl Wire for SearchOutcome {
    fn put(&self, out: &mut Vec<u8>) {
        self.end.put(out);
        self.nodes.put(out);
        self.iterations.put(out);
        self.objective.put(out);
        self.status.put(out);
        self.secondary.put(out);
        self.load_time.put(out);
        self.solve_time.put(out);
        self.lp_integral.put(out);
    }

    fn get(input: &mut &[u8]) -> Option<SearchOutcome> {
        Some(SearchOutcome {
            end: SearchEnd::get(input)?,
            nodes: u64::get(input)?,
            iterations: u64::get(input)?,
            objective: Option::get(input)?,
            status: String::get(input)?,
            secondary: String::get(input)?,
            load_time: Duration::get(input)?,
            solve_time: Duration::get(input)?,
            lp_integral: Option::get(input)?,
            child_cpu: None,
        })
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
