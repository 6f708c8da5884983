//! Solving and counting: [`IlpSolver`], with CBC's branch and cut (`search=cbc`, here) or
//! this crate's depth-first search over CBC's LPs (`search=dfs`, in `dfs`).

use std::time::{Duration, Instant};

use sudoku_core::{
    check_givens, verify_solution, Budget, Count, CountEnd, CountOutcome, Counted, Limit, Outcome,
    Puzzle, Rng, Solver, Stats, Status,
};

use crate::cbc::{secondary_name, LpData};
use crate::config::{config_extra, IlpConfig, Search};
use crate::isolate::{self, Isolated};
use crate::model::{free_beside, SudokuModel, FREE_BESIDE};
use crate::search::{configure_branch_and_cut, load, Prover, SearchEnd, SearchOutcome, INT_TOL};
use crate::IlpError;

fn seconds(d: Duration) -> String {
    format!("{:.6}", d.as_secs_f64())
}

/// Runs CBC once on `lp` (the model's LP, possibly with cuts).
pub(crate) fn run_cbc(
    puzzle: &Puzzle,
    model: &SudokuModel,
    lp: &LpData,
    config: &IlpConfig,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
) -> Result<SearchOutcome, IlpError> {
    if model.infeasible.is_some() {
        return Ok(SearchOutcome::trivial(
            SearchEnd::Infeasible {
                by: Prover::Reduction,
            },
            "not-run",
        ));
    }
    let remaining = match deadline {
        Some(at) => {
            let left = at.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(SearchOutcome::trivial(
                    SearchEnd::Stopped(Limit::Time),
                    "not-run",
                ));
            }
            Some(left)
        }
        None => None,
    };
    let args = Args {
        puzzle,
        model,
        lp,
        config,
        deadline,
        node_limit,
    };
    if let Some(at) = deadline.filter(|_| isolate::worth_isolating(deadline, lp.num_cols())) {
        let kill_at = (at + isolate::grace(remaining.unwrap_or_default()))
            .checked_sub(teardown(lp.num_cols()))
            .unwrap_or(at);
        let t = Instant::now();
        let child = isolate::run(kill_at, || search(args))?;
        let mut run = match child.end {
            Isolated::Done(run) => run?,
            Isolated::Killed => SearchOutcome {
                solve_time: t.elapsed(),
                secondary: "stopped-on-time".into(),
                ..SearchOutcome::trivial(SearchEnd::Stopped(Limit::Time), "killed")
            },
        };
        run.child_cpu = Some(child.cpu);
        return Ok(run);
    }
    search(args)
}

/// What ending a child that holds a model of `columns` columns costs after its kill (its
/// memory freed before it can be reaped): about 12 ns a column, 0.16–0.24 s for the 16.7
/// million of an empty 256×256 grid (docs/notes/outside-programs-and-budgets.md), counted from models of
/// [`FREE_BESIDE`] columns on, so that the call ends by the deadline; below, the grace covers it.
fn teardown(columns: usize) -> Duration {
    if columns < FREE_BESIDE {
        return Duration::ZERO;
    }
    Duration::from_nanos(15 * columns as u64)
}

/// What [`run_cbc`] hands to [`search`].
#[derive(Clone, Copy)]
struct Args<'a> {
    puzzle: &'a Puzzle,
    model: &'a SudokuModel,
    lp: &'a LpData,
    config: &'a IlpConfig,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
}

/// [`run_cbc`] after its checks: `dfs`, or CBC's branch and cut (after the LP when
/// `lp_first`), here in this process.
fn search(args: Args<'_>) -> Result<SearchOutcome, IlpError> {
    let Args {
        puzzle,
        model,
        lp,
        config,
        deadline,
        node_limit,
    } = args;
    if config.search == Search::Dfs {
        return Ok(crate::dfs::run_dfs(
            puzzle, model, lp, config, deadline, node_limit,
        ));
    }
    let (mut cbc, load_time) = load(lp, model, config);
    let t1 = Instant::now();
    let mut lp_integral = None;
    let mut iterations = 0;
    if config.lp_first {
        cbc.solve();
        iterations = cbc.iteration_count();
        if cbc.is_proven_infeasible() {
            let mut run =
                SearchOutcome::trivial(SearchEnd::Infeasible { by: Prover::Lp }, "lp-infeasible");
            run.iterations = iterations;
            run.load_time = load_time;
            run.solve_time = t1.elapsed();
            run.lp_integral = Some(false);
            return Ok(run);
        }
        if cbc.is_proven_optimal() {
            if let Some(grid) = model
                .decode(&cbc.col_solution(), INT_TOL)
                .filter(|g| verify_solution(puzzle, g).is_ok())
            {
                return Ok(SearchOutcome {
                    end: SearchEnd::Solved {
                        grid,
                        optimal: true,
                    },
                    nodes: 0,
                    iterations,
                    objective: Some(cbc.obj_value() + model.obj_offset),
                    status: "lp-optimal".into(),
                    secondary: "lp-integral".into(),
                    load_time,
                    solve_time: t1.elapsed(),
                    lp_integral: Some(true),
                    child_cpu: None,
                });
            }
        }
        lp_integral = Some(false);
    }
    // What is left now, after loading and the LP: CBC's own limit is the first to act.
    let remaining = match deadline {
        Some(at) => match at.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => Some(left),
            _ => {
                let mut run = SearchOutcome::trivial(SearchEnd::Stopped(Limit::Time), "not-run");
                run.iterations = iterations;
                run.load_time = load_time;
                run.solve_time = t1.elapsed();
                run.lp_integral = lp_integral;
                return Ok(run);
            }
        },
        None => None,
    };
    cbc.set_all_integer();
    configure_branch_and_cut(&mut cbc, config, remaining, node_limit);
    cbc.solve();
    let solve_time = t1.elapsed();
    let status = cbc.status_name();
    let secondary = cbc.secondary_status();
    let mut run = SearchOutcome {
        end: SearchEnd::Stopped(Limit::Time),
        nodes: cbc.node_count(),
        iterations: iterations + cbc.iteration_count(),
        objective: None,
        status,
        secondary: secondary_name(secondary),
        load_time,
        solve_time,
        lp_integral,
        child_cpu: None,
    };
    // CBC cut short by its limit can say "infeasible" about what it did not finish (seen once
    // under heavy load, counting a feasible 25×25 with a second or less left): infeasibility
    // claimed at or after the deadline is taken as the limit, not as a proof.
    let late = cbc.is_seconds_limit_reached() || deadline.is_some_and(|at| Instant::now() >= at);
    if (cbc.is_proven_infeasible() || secondary == 1) && !late {
        run.end = SearchEnd::Infeasible { by: Prover::Cbc };
        return Ok(run);
    }
    // Whatever CBC says, a grid is only an answer if it decodes and verifies.
    if let Some(grid) = model
        .decode(&cbc.col_solution(), INT_TOL)
        .filter(|g| verify_solution(puzzle, g).is_ok())
    {
        run.objective = Some(cbc.obj_value() + model.obj_offset);
        run.end = SearchEnd::Solved {
            grid,
            optimal: cbc.is_proven_optimal(),
        };
        return Ok(run);
    }
    if late || secondary == 4 {
        run.end = SearchEnd::Stopped(Limit::Time);
    } else if cbc.is_node_limit_reached() || secondary == 3 {
        run.end = SearchEnd::Stopped(Limit::Nodes);
    } else {
        let _ = cbc.is_abandoned();
        return Err(IlpError::Abandoned {
            status: run.status,
            secondary: run.secondary,
        });
    }
    Ok(run)
}

/// The binary ILP solver (registry name `ilp`).
///
/// Not thread-safe in the sense of running in parallel: every CBC call in the process takes
/// one global lock, so concurrent solves queue up (they are safe, just serial).
#[derive(Clone, Debug, Default)]
pub struct IlpSolver {
    config: IlpConfig,
}

impl IlpSolver {
    /// A solver with `config`.
    pub fn new(config: IlpConfig) -> IlpSolver {
        IlpSolver { config }
    }

    /// Its configuration.
    pub fn config(&self) -> &IlpConfig {
        &self.config
    }

    /// Statistics every result carries: the configuration.
    fn base_stats(&self, model: Option<&SudokuModel>) -> Stats {
        let mut extra = config_extra(&self.config);
        if let Some(m) = model {
            extra.push(("variables".to_string(), m.num_vars().to_string()));
            extra.push(("rows".to_string(), m.lp.num_rows().to_string()));
            extra.push(("nonzeros".to_string(), m.lp.matrix.index.len().to_string()));
        }
        Stats {
            extra,
            ..Stats::default()
        }
    }

    /// Solves `puzzle`, or says why it could not start (a `prefer` cell outside the grid) or
    /// why CBC gave up. [`Solver::solve`] is this with the error folded into the outcome.
    pub fn try_solve(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Result<Outcome, IlpError> {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        if self.config.precheck && check_givens(puzzle).is_err() {
            let mut stats = self.base_stats(None);
            stats.extra.push(("infeasible_by".into(), "givens".into()));
            stats.extra.push(("cbc_status".into(), "not-run".into()));
            return Ok(Outcome {
                status: Status::Infeasible,
                stats,
            });
        }
        let Some(model) = self.build_until(puzzle, rng, deadline)? else {
            return Ok(Outcome {
                status: Status::Exhausted {
                    limit: Limit::Time,
                    best: None,
                },
                stats: self.stopped_building(),
            });
        };
        let build = start.elapsed();
        let run = run_cbc(
            puzzle,
            &model,
            &model.lp,
            &self.config,
            deadline,
            budget.nodes,
        )?;
        let mut stats = self.base_stats(Some(&model));
        free_beside(model);
        stats.build_time = Some(build + run.load_time);
        fill_stats(&mut stats, &run);
        let status = match run.end {
            SearchEnd::Solved { grid, optimal } => {
                stats
                    .extra
                    .push(("proven_optimal".into(), optimal.to_string()));
                Status::Solved(grid)
            }
            SearchEnd::Infeasible { by } => {
                stats.extra.push(("infeasible_by".into(), by.name().into()));
                Status::Infeasible
            }
            SearchEnd::Stopped(limit) => Status::Exhausted { limit, best: None },
        };
        Ok(Outcome { status, stats })
    }

    /// Counts solutions up to `limit` by re-solving with one no-good cut per solution found
    /// (`Σ` of the solution's 1-variables `≤ cells − 1`, over the columns of the model).
    pub fn try_count(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        collect: bool,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Result<CountOutcome, IlpError> {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let mut out = CountOutcome {
            count: 0,
            end: CountEnd::Complete,
            solutions: Vec::new(),
            stats: self.base_stats(None),
        };
        if self.config.precheck && check_givens(puzzle).is_err() {
            out.stats
                .extra
                .push(("infeasible_by".into(), "givens".into()));
            return Ok(out);
        }
        let Some(model) = self.build_until(puzzle, rng, deadline)? else {
            out.end = CountEnd::Exhausted(Limit::Time);
            out.stats = self.stopped_building();
            return Ok(out);
        };
        out.stats = self.base_stats(Some(&model));
        let mut build = start.elapsed();
        let mut solve = Duration::ZERO;
        let mut cuts: Vec<Vec<usize>> = Vec::new();
        let mut last = None;
        let mut child_cpu: Option<Duration> = None;
        loop {
            if out.count >= limit {
                out.end = CountEnd::LimitReached;
                break;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                out.end = CountEnd::Exhausted(Limit::Time);
                break;
            }
            // The first run needs no cut: it reads the model's own LP, as a solve does, rather
            // than a copy (at 256×256 a copy of 16.7 million columns, made and freed outside
            // CBC's clock, took longer than a 1 s limit).
            let t = Instant::now();
            let with_cuts = (!cuts.is_empty()).then(|| model.lp_with_cuts(&cuts));
            let lp = with_cuts.as_ref().unwrap_or(&model.lp);
            build += t.elapsed();
            let run = run_cbc(puzzle, &model, lp, &self.config, deadline, None)?;
            // A copy with cuts is as large as the model: freed beside, as the model is.
            if let Some(copy) = with_cuts.filter(|_| model.num_vars() >= FREE_BESIDE) {
                let _ = std::thread::Builder::new()
                    .name("ilp-free".into())
                    .spawn(move || drop(copy));
            }
            build += run.load_time;
            solve += run.solve_time;
            if let Some(c) = run.child_cpu {
                *child_cpu.get_or_insert_default() += c;
            }
            out.stats.nodes += run.nodes;
            out.stats.iterations += run.iterations;
            let end = run.end.clone();
            last = Some(run);
            match end {
                SearchEnd::Solved { grid, .. } => {
                    out.count += 1;
                    cuts.push(model.support(&grid));
                    if collect {
                        out.solutions.push(grid);
                    }
                }
                SearchEnd::Infeasible { .. } => {
                    out.end = CountEnd::Complete;
                    break;
                }
                SearchEnd::Stopped(l) => {
                    out.end = CountEnd::Exhausted(l);
                    break;
                }
            }
        }
        out.stats.build_time = Some(build);
        out.stats
            .extra
            .push(("solve_seconds".into(), seconds(solve)));
        out.stats
            .extra
            .push(("cbc_runs".into(), (cuts.len() + 1).to_string()));
        out.stats.child_cpu = child_cpu;
        free_beside(model);
        if let Some(run) = last {
            out.stats.extra.push(("cbc_status".into(), run.status));
            out.stats
                .extra
                .push(("cbc_secondary_status".into(), run.secondary));
        }
        Ok(out)
    }
}

impl IlpSolver {
    /// The model of `puzzle`, unless `deadline` passes first.
    fn build_until(
        &self,
        puzzle: &Puzzle,
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> Result<Option<SudokuModel>, IlpError> {
        let c = &self.config;
        SudokuModel::build_until(puzzle, c.model, &c.objective, rng, deadline)
    }

    /// The stats of a call whose time ran out while the model was built (CBC never ran).
    fn stopped_building(&self) -> Stats {
        let mut stats = self.base_stats(None);
        stats.extra.push(("stopped".into(), "model".into()));
        stats.extra.push(("cbc_status".into(), "not-run".into()));
        stats
    }
}

fn fill_stats(stats: &mut Stats, run: &SearchOutcome) {
    stats.nodes = run.nodes;
    stats.iterations = run.iterations;
    stats.objective = run.objective;
    stats
        .extra
        .push(("solve_seconds".into(), seconds(run.solve_time)));
    stats.extra.push(("cbc_status".into(), run.status.clone()));
    stats
        .extra
        .push(("cbc_secondary_status".into(), run.secondary.clone()));
    if let Some(i) = run.lp_integral {
        stats.extra.push(("lp_integral".into(), i.to_string()));
    }
    stats.child_cpu = run.child_cpu;
}

impl Solver for IlpSolver {
    fn name(&self) -> &str {
        crate::NAME
    }

    fn check_order(&self, order: sudoku_core::Order) -> Result<(), sudoku_core::ParamError> {
        self.config.check_order(order)
    }

    /// [`IlpSolver::try_solve`]; an error (only possible for a `prefer` cell outside the grid,
    /// or CBC abandoning) becomes `Exhausted` with the message in `extra` under `error`,
    /// because the trait has no error status.
    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        match self.try_solve(puzzle, budget, rng) {
            Ok(o) => o,
            Err(e) => {
                let mut stats = self.base_stats(None);
                stats.extra.push(("error".into(), e.to_string()));
                Outcome {
                    status: Status::Exhausted {
                        limit: Limit::Iterations,
                        best: None,
                    },
                    stats,
                }
            }
        }
    }

    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, rng: &mut Rng) -> Counted {
        let Count { limit, collect } = ask;
        match self.try_count(puzzle, limit, collect, budget, rng) {
            Ok(c) => Ok(c),
            Err(e) => {
                let mut stats = self.base_stats(None);
                stats.extra.push(("error".into(), e.to_string()));
                Ok(CountOutcome {
                    count: 0,
                    end: CountEnd::Exhausted(Limit::Iterations),
                    solutions: Vec::new(),
                    stats,
                })
            }
        }
    }
}
