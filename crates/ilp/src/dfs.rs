//! `search=dfs`: a depth-first LP-based branch and bound run by this crate, every node's LP
//! relaxation solved by Clp inside CBC (`Cbc_solve` on the continuous model re-solves from
//! the previous basis with the dual simplex).
//!
//! Why: `CbcMain1` costs about 2 ms before it branches at all on a 9×9 model (parameter
//! tables, integer preprocessing, root cuts and heuristics), several times what the LPs of a
//! 9×9 search cost. The model, the LPs and the LP solver are the same; only the tree search
//! is ours, so the answers are the same set and the node count is exact.
//!
//! Branching: at a fractional LP optimum, the variable `x(c,d)` with the largest fractional
//! value (the first on ties) is branched on, `x = 1` first, then `x = 0`. A node is pruned
//! when its LP is infeasible or its bound cannot beat the incumbent. Objectives that are
//! constant on the LP polytope (`zero`, `constant`, `weighted`) stop at the first integral
//! LP optimum, which is then optimal; `random` stops at its first integer solution, like the
//! `cbc` search (`maxSolutions 1`); `prefer` searches until the bound proves optimality.

use std::time::Instant;

use sudoku_core::{verify_solution, Limit, Puzzle};

use crate::cbc::{CbcModel, LpData};
use crate::config::IlpConfig;
use crate::model::{Objective, SudokuModel};
use crate::search::{load, Prover, SearchEnd, SearchOutcome, INT_TOL};

/// A branch on column `var`: `one` while the `x = 1` child is open, then the `x = 0` child.
struct Branch {
    var: usize,
    one: bool,
}

/// What one LP solve says about its node.
enum Node {
    Infeasible,
    /// Integral (and verified), with its objective value.
    Integral(sudoku_core::Grid, f64),
    /// Fractional with this bound: branch on `var`.
    Fractional {
        var: usize,
        bound: f64,
    },
}

fn examine(cbc: &CbcModel, puzzle: &Puzzle, model: &SudokuModel) -> Node {
    if cbc.is_proven_infeasible() || !cbc.is_proven_optimal() {
        return Node::Infeasible;
    }
    let x = cbc.col_solution();
    let obj = cbc.obj_value() + model.obj_offset;
    let mut best: Option<(usize, f64)> = None;
    for (j, &v) in x.iter().enumerate() {
        if v > INT_TOL && v < 1.0 - INT_TOL && best.is_none_or(|(_, b)| v > b) {
            best = Some((j, v));
        }
    }
    match best {
        Some((var, _)) => Node::Fractional { var, bound: obj },
        None => match model
            .decode(&x, INT_TOL)
            .filter(|g| verify_solution(puzzle, g).is_ok())
        {
            Some(grid) => Node::Integral(grid, obj),
            // An integral point that is not a grid cannot happen with this model; treat it as
            // a dead end rather than trust it.
            None => Node::Infeasible,
        },
    }
}

/// Runs the search on `lp` (the model's LP, possibly with no-good cuts).
pub(crate) fn run_dfs(
    puzzle: &Puzzle,
    model: &SudokuModel,
    lp: &LpData,
    config: &IlpConfig,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
) -> SearchOutcome {
    let (mut cbc, load_time) = load(lp, model, config);
    let t1 = Instant::now();
    // Sign that turns the objective into one to minimise, for the bound test.
    let sense = if model.minimise { 1.0 } else { -1.0 };
    let first_is_enough = !matches!(config.objective, Objective::Prefer { .. });
    let mut incumbent: Option<(sudoku_core::Grid, f64)> = None;
    let mut stack: Vec<Branch> = Vec::new();
    let mut nodes = 0u64;
    let mut root_integral = None;
    let mut stopped = None;
    loop {
        cbc.solve();
        nodes += 1;
        let node = examine(&cbc, puzzle, model);
        if root_integral.is_none() {
            root_integral = Some(matches!(node, Node::Integral(..)));
        }
        // Whether to descend (a fractional node that may still beat the incumbent).
        let mut descend = None;
        match node {
            Node::Infeasible => {}
            Node::Integral(grid, obj) => {
                let better = incumbent
                    .as_ref()
                    .is_none_or(|(_, best)| sense * obj < sense * best - 1e-9);
                if better {
                    incumbent = Some((grid, obj));
                }
                if first_is_enough {
                    break;
                }
            }
            Node::Fractional { var, bound } => {
                let hopeless = incumbent
                    .as_ref()
                    .is_some_and(|(_, best)| sense * bound >= sense * best - 1e-9);
                if !hopeless {
                    descend = Some(var);
                }
            }
        }
        if node_limit.is_some_and(|m| nodes >= m) {
            stopped = Some(Limit::Nodes);
            break;
        }
        if deadline.is_some_and(|at| Instant::now() >= at) {
            stopped = Some(Limit::Time);
            break;
        }
        if let Some(var) = descend {
            cbc.set_col_bounds(var, 1.0, 1.0);
            stack.push(Branch { var, one: true });
            continue;
        }
        // Backtrack to the deepest branch whose `x = 0` child is still open.
        let mut reopened = false;
        while let Some(b) = stack.last_mut() {
            if b.one {
                b.one = false;
                cbc.set_col_bounds(b.var, 0.0, 0.0);
                reopened = true;
                break;
            }
            cbc.set_col_bounds(b.var, 0.0, 1.0);
            stack.pop();
        }
        if !reopened {
            break;
        }
    }
    let solve_time = t1.elapsed();
    let (end, objective, status) = match (incumbent, stopped) {
        // The search finished (or an answer that is enough was found).
        (Some((grid, obj)), None) => (
            SearchEnd::Solved {
                grid,
                optimal: true,
            },
            Some(obj),
            "dfs-optimal",
        ),
        (None, None) => (
            SearchEnd::Infeasible { by: Prover::Dfs },
            None,
            "dfs-infeasible",
        ),
        (Some((grid, obj)), Some(_)) => (
            SearchEnd::Solved {
                grid,
                optimal: false,
            },
            Some(obj),
            "dfs-stopped",
        ),
        (None, Some(limit)) => (SearchEnd::Stopped(limit), None, "dfs-stopped"),
    };
    SearchOutcome {
        end,
        nodes,
        // The C interface does not report Clp's iteration count for LP solves.
        iterations: 0,
        objective,
        status: status.to_string(),
        secondary: match stopped {
            Some(Limit::Nodes) => "stopped-on-nodes",
            Some(_) => "stopped-on-time",
            None => "finished",
        }
        .to_string(),
        load_time,
        solve_time,
        lp_integral: root_integral,
        child_cpu: None,
    }
}
