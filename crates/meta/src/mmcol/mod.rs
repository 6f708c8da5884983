//! `mmcol`: the memetic list colouring of Jin and Hao (2019, IEEE Trans. Evol. Comput. 23,
//! "Solving the Latin square completion problem by memetic graph coloring"), the method that
//! solved every Latin square completion benchmark of its time, on Sudoku.
//!
//! Its four parts, as the paper's abstract names them:
//!
//! 1. a propagation-based kernelization of the list-colouring graph: a cell with one candidate
//!    takes it, a symbol with one place in a unit takes it, until neither rule applies; what is
//!    left open is the graph (on Sudoku the blocks are one more kind of unit, which is exactly
//!    [`propagate_singles`](crate::propagate_singles));
//! 2. a crossover for Latin squares rather than GPX ([`crossover`]): colour classes pass to the
//!    child with their symbol;
//! 3. an iterated tabu search on each offspring ([`evolve`]): TabuCol with Galinier and Hao's
//!    tenure on `tabu`'s engine, perturbed when it stalls;
//! 4. a pool updated by a distance-quality rule that keeps it diverse ([`pool`]).
//!
//! [`latin`] holds the Latin square side (partial squares of any side up to 128, the
//! kernelization on rows and columns, quasigroups with holes), so that the method can be checked
//! on the problem it was made for; [`solve_latin`] runs it there.

mod crossover;
mod evolve;
pub mod latin;
mod pool;

use std::time::{Duration, Instant};

use sudoku_core::{Budget, Deadline, Limit, Outcome, Puzzle, Rng, Solver, Stats, Status};

use crate::run::DEFAULT_ITERATIONS;
use crate::tabu::{TabuConfig, TabuSearch, LINK_BUDGET};
use evolve::{evolve, Found, Settings};
use latin::{kernelize, PartialLatin};

pub use crate::propagate::Contradiction;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "mmcol";

sudoku_core::config! {
    /// The configuration of [`Mmcol`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct MmcolConfig for NAME {
        population: usize = 4 in 2..=10000,
            "assignments in the population (Jin & Hao: 20; 4 measured best at the peaks of 49x49 \
             and 64x64, docs/notes/mmcol-peaks.md)";
        depth: u64 = 1000000 in 1..=1000000000000,
            "a tabu search ends after this many steps in a row without a better cost (Jin & Hao: \
             100000; 1000000 measured best at the peaks)";
        rounds: u32 = 1 in 0..=1000000,
            "the iterated tabu search on an offspring ends after this many perturbations in a row \
             that bring no better cost (0: one tabu search, no perturbation)";
        strength: f64 = 0.05 in 0.0..=1.0,
            "perturbation: this share of the open cells, at random, take another candidate";
        beta: f64 = 0.08 in 0.0..=100.0,
            "pool update: an assignment's score is its cost + exp(beta x open cells / distance to \
             the nearest other); the worst-scored leaves (Lü & Hao's MACOL, as Jin & Hao: 0.08)";
        lambda: f64 = 0.6 in 0.0..=100.0,
            "tabu tenure per conflicting cell, as `tabu`'s (Galinier & Hao, as Jin & Hao: 0.6)";
        /// The random part of the tabu tenure (`tabu`'s parameter).
        tenure: u64 = use TabuConfig::PARAM.tenure;
        greedy as "init": bool = "greedy"
            of sudoku_core::choices!["greedy" => true, "random" => false],
            "the starts of the population: greedy (fewest candidates first, each cell the digit \
             that clashes least, as `tabu` starts) or random (each cell a random candidate), each \
             improved by the iterated tabu search";
        threads: usize = 1 in 1..=2,
            "1: one search. 2: two threads share the population, each making and improving its \
             own offspring; the first solution ends both, so a seed no longer fixes the run";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
    }
}

impl MmcolConfig {
    fn settings(&self) -> Settings {
        Settings {
            population: self.population,
            depth: self.depth,
            rounds: self.rounds,
            strength: self.strength,
            beta: self.beta,
            greedy: self.greedy,
            threads: self.threads,
            trace: self.trace,
            default_steps: DEFAULT_ITERATIONS,
        }
    }

    fn tabu(&self) -> TabuConfig {
        TabuConfig {
            lambda: self.lambda,
            tenure: self.tenure,
            ..TabuConfig::default()
        }
    }
}

/// MMCOL on Sudoku (registered as `mmcol`).
#[derive(Clone, Debug, Default)]
pub struct Mmcol {
    /// Its configuration.
    pub config: MmcolConfig,
}

impl Mmcol {
    /// A solver with this configuration.
    pub fn new(config: MmcolConfig) -> Mmcol {
        Mmcol { config }
    }
}

/// The statistics of a run, as [`Stats`] carries them.
fn stats_of(found: &Found, mut stats: Stats, setup: Duration) -> Stats {
    stats.iterations = found.steps;
    stats.best_cost = Some(found.cost);
    stats.time_to_best = found.time_to_best;
    stats.trace.clone_from(&found.trace);
    let generations = found.generations.max(1);
    for (k, v) in [
        ("generations", found.generations.to_string()),
        ("offspring_entered", found.entered.to_string()),
        ("offspring_rejected", found.rejected.to_string()),
        ("offspring_twins", found.twins.to_string()),
        (
            "child_cost_mean",
            format!("{:.1}", found.child_cost as f64 / generations as f64),
        ),
        (
            "child_filled_mean",
            format!("{:.1}", found.filled as f64 / generations as f64),
        ),
        (
            "pool_closest",
            found.closest.map_or("-".into(), |d| d.to_string()),
        ),
        ("setup_ms", format!("{:.1}", setup.as_secs_f64() * 1e3)),
    ] {
        stats.extra.push((k.into(), v));
    }
    stats
}

impl Solver for Mmcol {
    fn name(&self) -> &str {
        NAME
    }

    fn threads(&self) -> usize {
        self.config.threads
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        let started = Instant::now();
        let (search, mut stats) = match crate::tabu::start(puzzle, &cfg.tabu(), budget, rng) {
            Ok(started) => started,
            Err(done) => return *done,
        };
        let setup_time = started.elapsed();
        let size = puzzle.order().size();
        let reader = search.reader();
        let set = cfg.settings();
        let found = evolve(search, size, &set, budget, started, rng);
        if set.threads > 1 {
            stats.threads = set.threads as u32;
        }
        let grid = reader
            .grid(&found.best)
            .expect("a search built from the puzzle");
        let limit = if found.timed_out {
            Limit::Time
        } else {
            Limit::Iterations
        };
        let status = if found.cost == 0 {
            Status::Solved(grid)
        } else {
            Status::Exhausted {
                limit,
                best: Some(grid),
            }
        };
        Outcome {
            status,
            stats: stats_of(&found, stats, setup_time),
        }
    }
}

/// What [`solve_latin`] found.
#[derive(Clone, Debug)]
pub struct LatinRun {
    /// A completion (row-major symbols), when one was found.
    pub completion: Option<Vec<u8>>,
    /// The fewest clashing pairs reached (0: the completion).
    pub best_cost: u64,
    /// Tabu steps, over all threads.
    pub steps: u64,
    /// Offspring made.
    pub generations: u64,
    /// The time to the best cost, from the call's start.
    pub time_to_best: Option<Duration>,
    /// Cells the kernelization fixed, by each rule.
    pub fixed_single: usize,
    /// Cells the kernelization fixed as the one place of a symbol in a row or column.
    pub fixed_unique: usize,
    /// Open cells after the kernelization (the graph's vertices).
    pub open_cells: usize,
    /// Method statistics, as the Sudoku method reports them.
    pub stats: Stats,
}

/// MMCOL on a partial Latin square: the kernelization, then the memetic search on what it
/// leaves open, within `budget`. A contradiction of the kernelization proves that the square
/// has no completion. A completion returned has been checked against the square.
pub fn solve_latin(
    square: &PartialLatin,
    cfg: &MmcolConfig,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<LatinRun, Contradiction> {
    let started = Instant::now();
    let kernel = kernelize(square)?;
    let open_cells = kernel.graph.cell.len();
    let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
    let search = TabuSearch::from_graph(
        kernel.graph,
        None,
        &cfg.tabu(),
        rng,
        LINK_BUDGET,
        &mut unlimited,
    )?
    .expect("no deadline to pass");
    let setup = started.elapsed();
    let reader = search.reader();
    let candidates = search.candidate_count();
    let set = cfg.settings();
    let found = evolve(search, square.side(), &set, budget, started, rng);
    let mut cells = kernel.cells;
    for (c, d) in reader.cells(&found.best) {
        cells[c] = d;
    }
    let completion = (found.cost == 0).then(|| {
        square
            .check_completion(&cells)
            .expect("a cost-0 assignment completes the square");
        cells
    });
    Ok(LatinRun {
        completion,
        best_cost: found.cost,
        steps: found.steps,
        generations: found.generations,
        time_to_best: found.time_to_best,
        fixed_single: kernel.single,
        fixed_unique: kernel.unique,
        open_cells,
        stats: stats_of(
            &found,
            Stats {
                extra: vec![("candidates".into(), candidates.to_string())],
                ..Stats::default()
            },
            setup,
        ),
    })
}

/// Plain TabuCol on the same kernel (`tabu`'s engine, MMCOL's tenure), for comparison: one
/// search from the greedy start until a completion or the budget; its best cost, steps, time
/// to best, and the completion when found (checked against the square).
pub fn tabucol_latin(
    square: &PartialLatin,
    cfg: &MmcolConfig,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<LatinRun, Contradiction> {
    let started = Instant::now();
    let kernel = kernelize(square)?;
    let open_cells = kernel.graph.cell.len();
    let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
    let mut search = TabuSearch::from_graph(
        kernel.graph,
        None,
        &cfg.tabu(),
        rng,
        LINK_BUDGET,
        &mut unlimited,
    )?
    .expect("no deadline to pass");
    let mut deadline = Deadline::new(budget, 1024);
    let cap = budget.iterations.unwrap_or(if budget.time.is_some() {
        u64::MAX
    } else {
        DEFAULT_ITERATIONS
    });
    let (mut low, mut at) = (search.best_cost(), None);
    while search.cost() > 0 && search.steps() < cap && !deadline.expired() {
        search.step(rng);
        if search.best_cost() < low {
            (low, at) = (search.best_cost(), Some(started.elapsed()));
        }
    }
    let mut cells = kernel.cells;
    for (c, d) in search.reader().cells(search.best_assignment()) {
        cells[c] = d;
    }
    let completion = (low == 0).then(|| {
        square
            .check_completion(&cells)
            .expect("a cost-0 assignment completes the square");
        cells
    });
    Ok(LatinRun {
        completion,
        best_cost: low,
        steps: search.steps(),
        generations: 0,
        time_to_best: at,
        fixed_single: kernel.single,
        fixed_unique: kernel.unique,
        open_cells,
        stats: Stats::default(),
    })
}
