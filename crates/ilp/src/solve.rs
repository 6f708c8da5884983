//! Solving and counting with CBC: [`IlpConfig`], [`CbcOptions`], [`IlpSolver`].

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use sudoku_core::{
    check_givens, verify_solution, Budget, CountEnd, CountOutcome, Grid, Limit, Outcome, Puzzle,
    Rng, Solver, Stats, Status, Unsupported,
};

use crate::cbc::{secondary_name, CbcModel, LpData};
use crate::model::{ModelKind, Objective, SudokuModel};
use crate::IlpError;

/// Values closer than this to 0 or 1 count as integral.
pub(crate) const INT_TOL: f64 = 1e-6;

keyword_enum!(
    /// CBC's `presolve` (Clp's LP presolve before the root).
    Presolve, "presolve", {
        /// CBC's default.
        #[default]
        On => "on",
        /// No presolve.
        Off => "off",
        /// Ten passes instead of five.
        More => "more",
    }
);

keyword_enum!(
    /// CBC's `preprocess` (integer preprocessing with CglPreProcess).
    Preprocess, "preprocess", {
        /// Leave CBC's choice (`sos` in CbcMain1).
        #[default]
        Default => "default",
        /// No integer preprocessing.
        Off => "off",
        /// Preprocessing without SOS detection.
        On => "on",
        /// Turns the `= 1` rows into special ordered sets.
        Sos => "sos",
        /// Turns clique inequalities into equalities.
        Equal => "equal",
    }
);

keyword_enum!(
    /// CBC's `cuts` switch for all cut generators.
    Cuts, "cuts", {
        /// CBC's default.
        #[default]
        On => "on",
        /// No cuts.
        Off => "off",
        /// Cuts at the root only.
        Root => "root",
        /// Cuts where they move the bound.
        IfMove => "ifmove",
        /// Cuts everywhere.
        ForceOn => "forceOn",
    }
);

keyword_enum!(
    /// Who runs the branch-and-bound tree.
    Search, "search", {
        /// CBC's branch and cut (`CbcMain1`: preprocessing, cuts, heuristics, its own tree).
        #[default]
        Cbc => "cbc",
        /// This crate's depth-first branch and bound over the same LPs, solved by Clp inside
        /// CBC and warm-started (see the `dfs` module).
        Dfs => "dfs",
    }
);

/// CBC settings. CBC is built without threads (`cbc-src` without `parallel`), so it always
/// runs on one thread; `threads=1` is recorded with the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CbcOptions {
    /// LP presolve.
    pub presolve: Presolve,
    /// Integer preprocessing.
    pub preprocess: Preprocess,
    /// Cut generators.
    pub cuts: Cuts,
    /// Primal heuristics (feasibility pump, rounding, diving...).
    pub heuristics: bool,
    /// CBC's log level; 0 is silent. Above 0 CBC prints to standard output.
    pub log: u8,
}

impl Default for CbcOptions {
    fn default() -> CbcOptions {
        CbcOptions {
            presolve: crate::PRESOLVE.default,
            preprocess: crate::PREPROCESS.default,
            cuts: crate::CUTS.default,
            heuristics: crate::HEURISTICS.default,
            log: crate::LOG.default,
        }
    }
}

/// Everything that configures the ILP solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IlpConfig {
    /// Objective function.
    pub objective: Objective,
    /// Full or reduced model.
    pub model: ModelKind,
    /// CBC settings.
    pub cbc: CbcOptions,
    /// Check the givens for a repeated digit before building anything (then CBC never sees
    /// them). With `false` the full model hands contradictory givens to CBC, as the seeds do;
    /// the reduced model always notices them while reducing.
    pub precheck: bool,
    /// Solve the LP relaxation first and stop when its optimum is integral (it is then an
    /// optimal ILP solution); otherwise go on to branch and cut on the same model.
    pub lp_first: bool,
    /// Who runs the tree search.
    pub search: Search,
}

impl Default for IlpConfig {
    fn default() -> IlpConfig {
        IlpConfig {
            objective: Objective::Zero,
            model: crate::MODEL.default,
            cbc: CbcOptions::default(),
            precheck: crate::PRECHECK.default,
            lp_first: crate::LP_FIRST.default,
            search: crate::SEARCH.default,
        }
    }
}

/// How one CBC run ended.
#[derive(Clone, Debug)]
pub(crate) enum RunEnd {
    /// A verified grid; `optimal` when CBC proved optimality (or the LP bound did).
    Solved { grid: Grid, optimal: bool },
    /// No solution; `by` says who proved it (`givens`, `reduction`, `lp`, `cbc`).
    Infeasible { by: &'static str },
    /// A limit stopped CBC first.
    Stopped(Limit),
}

/// One CBC run on one model, with its statistics.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub end: RunEnd,
    pub nodes: u64,
    pub iterations: u64,
    pub objective: Option<f64>,
    pub status: String,
    pub secondary: String,
    pub load_time: Duration,
    pub solve_time: Duration,
    /// Whether the LP relaxation was solved first and was integral.
    pub lp_integral: Option<bool>,
}

impl Run {
    fn trivial(end: RunEnd, status: &str) -> Run {
        Run {
            end,
            nodes: 0,
            iterations: 0,
            objective: None,
            status: status.to_string(),
            secondary: status.to_string(),
            load_time: Duration::ZERO,
            solve_time: Duration::ZERO,
            lp_integral: None,
        }
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.6}", d.as_secs_f64())
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

/// Runs CBC once on `lp` (the model's LP, possibly with cuts).
pub(crate) fn run_cbc(
    puzzle: &Puzzle,
    model: &SudokuModel,
    lp: &LpData,
    config: &IlpConfig,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
) -> Result<Run, IlpError> {
    if model.infeasible.is_some() {
        return Ok(Run::trivial(
            RunEnd::Infeasible { by: "reduction" },
            "not-run",
        ));
    }
    let remaining = match deadline {
        Some(at) => {
            let left = at.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Run::trivial(RunEnd::Stopped(Limit::Time), "not-run"));
            }
            Some(left)
        }
        None => None,
    };
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
            let mut run = Run::trivial(RunEnd::Infeasible { by: "lp" }, "lp-infeasible");
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
                return Ok(Run {
                    end: RunEnd::Solved {
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
                });
            }
        }
        lp_integral = Some(false);
    }
    cbc.set_all_integer();
    configure_branch_and_cut(&mut cbc, config, remaining, node_limit);
    cbc.solve();
    let solve_time = t1.elapsed();
    let status = cbc.status_name();
    let secondary = cbc.secondary_status();
    let mut run = Run {
        end: RunEnd::Stopped(Limit::Time),
        nodes: cbc.node_count(),
        iterations: iterations + cbc.iteration_count(),
        objective: None,
        status,
        secondary: secondary_name(secondary),
        load_time,
        solve_time,
        lp_integral,
    };
    if cbc.is_proven_infeasible() || secondary == 1 {
        run.end = RunEnd::Infeasible { by: "cbc" };
        return Ok(run);
    }
    // Whatever CBC says, a grid is only an answer if it decodes and verifies.
    if let Some(grid) = model
        .decode(&cbc.col_solution(), INT_TOL)
        .filter(|g| verify_solution(puzzle, g).is_ok())
    {
        run.objective = Some(cbc.obj_value() + model.obj_offset);
        run.end = RunEnd::Solved {
            grid,
            optimal: cbc.is_proven_optimal(),
        };
        return Ok(run);
    }
    if cbc.is_seconds_limit_reached() || secondary == 4 {
        run.end = RunEnd::Stopped(Limit::Time);
    } else if cbc.is_node_limit_reached() || secondary == 3 {
        run.end = RunEnd::Stopped(Limit::Nodes);
    } else {
        let _ = cbc.is_abandoned();
        return Err(IlpError::Abandoned {
            status: run.status,
            secondary: run.secondary,
        });
    }
    Ok(run)
}

/// The configuration as `extra` statistics, so every result row says how it was made.
pub(crate) fn config_extra(c: &IlpConfig) -> Vec<(String, String)> {
    let mut extra = vec![
        ("objective".to_string(), c.objective.name().to_string()),
        ("model".to_string(), c.model.name().to_string()),
        ("presolve".to_string(), c.cbc.presolve.name().to_string()),
        (
            "preprocess".to_string(),
            c.cbc.preprocess.name().to_string(),
        ),
        ("cuts".to_string(), c.cbc.cuts.name().to_string()),
        (
            "heuristics".to_string(),
            if c.cbc.heuristics { "on" } else { "off" }.to_string(),
        ),
        ("lp_first".to_string(), c.lp_first.to_string()),
        ("search".to_string(), c.search.name().to_string()),
        ("threads".to_string(), "1".to_string()),
    ];
    if let Objective::Prefer {
        row,
        col,
        digit,
        sign,
    } = c.objective
    {
        extra.push((
            "prefer".to_string(),
            format!("{sign}*x({row},{col},{digit})"),
        ));
    }
    extra
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
        let model = SudokuModel::build(puzzle, self.config.model, &self.config.objective, rng)?;
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
        stats.build_time = Some(build + run.load_time);
        fill_stats(&mut stats, &run);
        let status = match run.end {
            RunEnd::Solved { grid, optimal } => {
                stats
                    .extra
                    .push(("proven_optimal".into(), optimal.to_string()));
                Status::Solved(grid)
            }
            RunEnd::Infeasible { by } => {
                stats.extra.push(("infeasible_by".into(), by.into()));
                Status::Infeasible
            }
            RunEnd::Stopped(limit) => Status::Exhausted { limit, best: None },
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
        let model = SudokuModel::build(puzzle, self.config.model, &self.config.objective, rng)?;
        out.stats = self.base_stats(Some(&model));
        let mut build = start.elapsed();
        let mut solve = Duration::ZERO;
        let mut cuts: Vec<Vec<usize>> = Vec::new();
        let mut last = None;
        loop {
            if out.count >= limit {
                out.end = CountEnd::LimitReached;
                break;
            }
            let t = Instant::now();
            let lp = model.lp_with_cuts(&cuts);
            build += t.elapsed();
            let run = run_cbc(puzzle, &model, &lp, &self.config, deadline, None)?;
            build += run.load_time;
            solve += run.solve_time;
            out.stats.nodes += run.nodes;
            out.stats.iterations += run.iterations;
            let end = run.end.clone();
            last = Some(run);
            match end {
                RunEnd::Solved { grid, .. } => {
                    out.count += 1;
                    cuts.push(model.support(&grid));
                    if collect {
                        out.solutions.push(grid);
                    }
                }
                RunEnd::Infeasible { .. } => {
                    out.end = CountEnd::Complete;
                    break;
                }
                RunEnd::Stopped(l) => {
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
        if let Some(run) = last {
            out.stats.extra.push(("cbc_status".into(), run.status));
            out.stats
                .extra
                .push(("cbc_secondary_status".into(), run.secondary));
        }
        Ok(out)
    }
}

fn fill_stats(stats: &mut Stats, run: &Run) {
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
}

impl Solver for IlpSolver {
    fn name(&self) -> &str {
        crate::NAME
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

    fn count(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        collect: bool,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Result<CountOutcome, Unsupported> {
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
