//! Full-grid generation by solving the model of an empty grid (Raggi et al., which reports the
//! approach limited to 6²×6², about 200 s). Optional pre-filling fixes part of the grid at
//! random first, which both randomises the result and shrinks the model.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use sudoku_core::{
    check_givens, Budget, Generator, Geometry, Grid, Limit, Order, Outcome, Puzzle, Rng, Solver,
    Stats, Status, Variant,
};

use crate::cbc::CbcModel;
use crate::config::{config_extra, IlpConfig};
use crate::isolate::{self, worth_isolating, Isolated};
use crate::model::{Objective, SudokuModel};
use crate::search::{configure_branch_and_cut, INT_TOL};
use crate::solve::IlpSolver;
use crate::IlpError;
use rand::Rng as _;

keyword_enum!(
    /// What to fix at random before calling CBC.
    Prefill, "prefill", {
        /// Nothing: CBC fills the empty grid.
        #[default]
        None => "none",
        /// A random permutation in the first row. Relabelling the digits of any grid gives any
        /// first row, so this never makes the grid infeasible.
        FirstRow => "first-row",
        /// Random permutations in the `n` blocks of the main diagonal, which share no row,
        /// column or block. For Sudoku-X the main diagonal runs through exactly these blocks,
        /// so it gets a random permutation first and each block is completed around it.
        DiagonalBlocks => "diagonal-blocks",
    }
);

impl Prefill {
    /// The pre-filled grid.
    pub fn fill(self, order: Order, variant: Variant, rng: &mut Rng) -> Grid {
        let geo = Geometry::get(order, variant);
        let (n, size) = (order.n(), order.size());
        let mut grid = Grid::empty(order);
        let mut digits: Vec<u16> = (1..=size as u16).collect();
        match self {
            Prefill::None => {}
            Prefill::FirstRow => {
                digits.shuffle(rng);
                for (c, &d) in digits.iter().enumerate() {
                    grid.set(geo.cell(0, c), d);
                }
            }
            Prefill::DiagonalBlocks => {
                // The main diagonal first (only constrained in Sudoku-X; harmless otherwise).
                let mut diagonal = digits.clone();
                diagonal.shuffle(rng);
                for b in 0..n {
                    let cells: Vec<usize> = geo
                        .unit(2 * size + b * n + b)
                        .iter()
                        .map(|&c| c as usize)
                        .collect();
                    let on_diag = |c: usize| geo.row(c) == geo.col(c);
                    let mut rest: Vec<u16> = digits.clone();
                    if variant == Variant::Diagonal {
                        for &c in cells.iter().filter(|&&c| on_diag(c)) {
                            let d = diagonal[geo.row(c)];
                            grid.set(c, d);
                            rest.retain(|&x| x != d);
                        }
                    }
                    rest.shuffle(rng);
                    let mut it = rest.into_iter();
                    for &c in &cells {
                        if grid.get(c) == 0 {
                            grid.set(c, it.next().unwrap_or(0));
                        }
                    }
                }
            }
        }
        grid
    }
}

keyword_enum!(
    /// How the grid is handed to CBC.
    Decompose, "decompose", {
        /// One integer program for the whole grid (Raggi et al.).
        None => "none",
        /// Relax and fix, one band (`n` rows) at a time: the model of every cell still empty,
        /// with only the current band's variables integer and the rest continuous, so the LP
        /// of the later bands keeps the band's choice completable; the band's values are then
        /// fixed and the next band is solved. A band whose program is infeasible (the LP of
        /// the rest let it through, but no integral completion exists) restarts from a new
        /// pre-fill.
        #[default]
        Bands => "bands",
    }
);

keyword_enum!(
    /// What the later bands look like to a band's program under [`Decompose::Bands`].
    Lookahead, "lookahead", {
        /// The full model of every later cell, continuous.
        Full => "full",
        /// Only "digit `d` goes into column `c` in band `B`", continuous: exact for
        /// completion up to splitting into rows, which always succeeds (see the `bands`
        /// module), and about `n` times smaller. Classic variant only; Sudoku-X uses
        /// [`Lookahead::Full`].
        #[default]
        Columns => "columns",
    }
);

/// The ILP full-grid generator (registry name `ilp`).
#[derive(Clone, Debug, Default)]
pub struct IlpGenerator {
    config: IlpConfig,
    prefill: Prefill,
    max_restarts: u64,
    decompose: Decompose,
    lookahead: Lookahead,
}

/// How a band-by-band fill ended.
enum BandsEnd {
    Filled(Grid),
    /// A band had no integral completion: draw a new pre-fill.
    Infeasible,
    Stopped(Limit),
}

/// Totals over the CBC runs of a band-by-band fill.
#[derive(Default)]
struct BandsStats {
    runs: u64,
    nodes: u64,
    iterations: u64,
    build: Duration,
    solve: Duration,
    /// CPU time of the child processes the band programs ran in (see `isolate`), if any did.
    child_cpu: Option<Duration>,
}

/// What one band's CBC run says, read in the process that ran it.
struct BandSolve {
    infeasible: bool,
    seconds_limit: bool,
    node_limit: bool,
    status: String,
    nodes: u64,
    iterations: u64,
    x: Vec<f64>,
}

impl BandSolve {
    fn run(cbc: &mut CbcModel) -> BandSolve {
        cbc.solve();
        BandSolve {
            infeasible: cbc.is_proven_infeasible() || cbc.secondary_status() == 1,
            seconds_limit: cbc.is_seconds_limit_reached(),
            node_limit: cbc.is_node_limit_reached(),
            status: cbc.status_name(),
            nodes: cbc.node_count(),
            iterations: cbc.iteration_count(),
            x: cbc.col_solution(),
        }
    }
}

sudoku_isolate::wire_struct!(BandSolve {
    infeasible,
    seconds_limit,
    node_limit,
    status,
    nodes,
    iterations,
    x,
});

impl IlpGenerator {
    /// A generator solving with `config` after `prefill`. A pre-fill that turns out
    /// infeasible (possible only for Sudoku-X with diagonal blocks) is drawn again, up to
    /// `max_restarts` times.
    pub fn new(config: IlpConfig, prefill: Prefill, max_restarts: u64) -> IlpGenerator {
        IlpGenerator {
            config,
            prefill,
            max_restarts,
            decompose: Decompose::Bands,
            lookahead: Lookahead::Columns,
        }
    }

    /// The same generator, handing CBC the grid as `decompose` says, with `lookahead` for
    /// [`Decompose::Bands`].
    pub fn with_decompose(mut self, decompose: Decompose, lookahead: Lookahead) -> IlpGenerator {
        self.decompose = decompose;
        self.lookahead = lookahead;
        self
    }

    /// Fills `grid` band by band (see [`Decompose::Bands`]).
    fn fill_bands(
        &self,
        mut grid: Grid,
        variant: Variant,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
        rng: &mut Rng,
        totals: &mut BandsStats,
    ) -> Result<BandsEnd, IlpError> {
        let order = grid.order();
        let geo = Geometry::get(order, variant);
        let n = order.n();
        for band in 0..n {
            let in_band = |c: usize| geo.row(c) / n == band;
            if (0..geo.cells()).all(|c| !in_band(c) || grid.get(c) != 0) {
                continue;
            }
            let remaining = match deadline {
                Some(at) => {
                    let left = at.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(BandsEnd::Stopped(Limit::Time));
                    }
                    Some(left)
                }
                None => None,
            };
            let t = Instant::now();
            // The program, and for each of the band's binary columns its cell and digit.
            let (lp, band_vars) = if self.lookahead == Lookahead::Columns
                && variant == Variant::Classic
            {
                let objective = self.config.objective;
                let mut weight = |_c: usize, d: usize| match objective {
                    Objective::Constant => 1.0,
                    Objective::Weighted => (d + 1) as f64,
                    Objective::Random => rng.random_range(0.0..1.0),
                    _ => 0.0,
                };
                let bm = crate::bands::build(&geo, &grid, band, &mut weight);
                if bm.infeasible {
                    return Ok(BandsEnd::Infeasible);
                }
                let vars: Vec<(usize, usize, u16)> = (0..bm.x_cells.len())
                    .map(|j| (j, bm.x_cells[j] as usize, bm.x_digits[j]))
                    .collect();
                (bm.lp, vars)
            } else {
                let puzzle = Puzzle::new(grid.clone(), variant);
                let model =
                    SudokuModel::build(&puzzle, self.config.model, &self.config.objective, rng)?;
                if model.infeasible.is_some() {
                    return Ok(BandsEnd::Infeasible);
                }
                let vars: Vec<(usize, usize, u16)> = (0..model.num_vars())
                    .filter(|&j| in_band(model.var_cell[j] as usize))
                    .map(|j| (j, model.var_cell[j] as usize, model.var_digit[j]))
                    .collect();
                (model.lp, vars)
            };
            let mut cbc = CbcModel::new(&lp);
            cbc.set_minimise(self.config.objective.minimises());
            cbc.set_log_level(i32::from(self.config.cbc.log));
            for &(j, _, _) in &band_vars {
                cbc.set_integer(j);
            }
            let left_nodes = node_limit.map(|m| m.saturating_sub(totals.nodes).max(1));
            configure_branch_and_cut(&mut cbc, &self.config, remaining, left_nodes);
            totals.build += t.elapsed();
            let t = Instant::now();
            let report = match deadline.filter(|_| worth_isolating(deadline, lp.num_cols())) {
                Some(at) => {
                    let kill_at = at + isolate::grace(remaining.unwrap_or_default());
                    let child = isolate::run(kill_at, || BandSolve::run(&mut cbc))?;
                    *totals.child_cpu.get_or_insert_default() += child.cpu;
                    match child.end {
                        Isolated::Done(report) => report,
                        Isolated::Killed => {
                            totals.solve += t.elapsed();
                            totals.runs += 1;
                            return Ok(BandsEnd::Stopped(Limit::Time));
                        }
                    }
                }
                None => BandSolve::run(&mut cbc),
            };
            totals.solve += t.elapsed();
            totals.runs += 1;
            totals.nodes += report.nodes;
            totals.iterations += report.iterations;
            if report.infeasible {
                return Ok(BandsEnd::Infeasible);
            }
            let x = report.x;
            let mut placed = grid.clone();
            for &(j, c, d) in &band_vars {
                if x[j] > 1.0 - INT_TOL {
                    placed.set(c, d);
                }
            }
            let complete = (0..geo.cells()).all(|c| !in_band(c) || placed.get(c) != 0);
            let consistent = check_givens(&Puzzle::new(placed.clone(), variant)).is_ok();
            if !(complete && consistent) {
                if report.seconds_limit {
                    return Ok(BandsEnd::Stopped(Limit::Time));
                }
                if report.node_limit {
                    return Ok(BandsEnd::Stopped(Limit::Nodes));
                }
                return Err(IlpError::Abandoned {
                    status: report.status,
                    secondary: format!("band {} not integral", band + 1),
                });
            }
            grid = placed;
        }
        Ok(BandsEnd::Filled(grid))
    }

    /// [`Generator::generate`] with [`Decompose::Bands`].
    fn generate_bands(
        &self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        deadline: Option<Instant>,
        rng: &mut Rng,
    ) -> Outcome {
        let mut totals = BandsStats::default();
        let mut restarts = 0;
        let (status, error) = loop {
            let t = Instant::now();
            let grid = self.prefill.fill(order, variant, rng);
            totals.build += t.elapsed();
            match self.fill_bands(grid, variant, deadline, budget.nodes, rng, &mut totals) {
                Ok(BandsEnd::Filled(grid)) => break (Status::Solved(grid), None),
                Ok(BandsEnd::Infeasible) if restarts < self.max_restarts => restarts += 1,
                Ok(BandsEnd::Infeasible) => {
                    let limit = Limit::Iterations;
                    break (Status::Exhausted { limit, best: None }, None);
                }
                Ok(BandsEnd::Stopped(limit)) => {
                    break (Status::Exhausted { limit, best: None }, None)
                }
                Err(e) => {
                    let limit = Limit::Iterations;
                    break (Status::Exhausted { limit, best: None }, Some(e.to_string()));
                }
            }
        };
        let mut extra = config_extra(&self.config);
        // Each band goes straight to CbcMain1: neither the LP-first shortcut nor `dfs` apply.
        extra.retain(|(k, _)| k != "lp_first" && k != "search");
        extra.extend([
            ("prefill".to_string(), self.prefill.name().to_string()),
            ("decompose".to_string(), self.decompose.name().to_string()),
            ("lookahead".to_string(), self.lookahead.name().to_string()),
            ("cbc_runs".to_string(), totals.runs.to_string()),
            (
                "solve_seconds".to_string(),
                format!("{:.6}", totals.solve.as_secs_f64()),
            ),
        ]);
        if let Some(e) = error {
            extra.push(("error".to_string(), e));
        }
        Outcome {
            status,
            stats: Stats {
                nodes: totals.nodes,
                iterations: totals.iterations,
                restarts,
                build_time: Some(totals.build),
                extra,
                child_cpu: totals.child_cpu,
                ..Stats::default()
            },
        }
    }
}

impl Generator for IlpGenerator {
    fn name(&self) -> &str {
        crate::NAME
    }

    fn generate(
        &mut self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Outcome {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        if self.decompose == Decompose::Bands {
            return self.generate_bands(order, variant, budget, deadline, rng);
        }
        let mut solver = IlpSolver::new(self.config);
        let mut restarts = 0;
        loop {
            let t = Instant::now();
            let puzzle = Puzzle::new(self.prefill.fill(order, variant, rng), variant);
            let prefill_time = t.elapsed();
            let left = Budget {
                time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                ..*budget
            };
            let mut out = solver.solve(&puzzle, &left, rng);
            out.stats.restarts = restarts;
            out.stats.build_time = out.stats.build_time.map(|b| b + prefill_time);
            out.stats
                .extra
                .push(("prefill".into(), self.prefill.name().into()));
            out.stats
                .extra
                .push(("decompose".into(), self.decompose.name().into()));
            match out.status {
                Status::Infeasible if restarts < self.max_restarts => {
                    restarts += 1;
                    continue;
                }
                Status::Infeasible => {
                    // Every pre-fill drawn was infeasible: stop as out of attempts rather
                    // than claim the order has no grid.
                    return Outcome {
                        status: Status::Exhausted {
                            limit: Limit::Iterations,
                            best: None,
                        },
                        stats: Stats {
                            restarts,
                            ..out.stats
                        },
                    };
                }
                _ => return out,
            }
        }
    }
}
