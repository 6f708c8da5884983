//! Simulated annealing after R. Lewis (2007), "Metaheuristics can solve sudoku puzzles",
//! J. Heuristics 13: random block permutations, random swap moves, initial temperature from
//! the standard deviation of the cost over a sample of moves, geometric cooling, Markov chains
//! of length (free cells)², and reheating to the initial temperature when stuck.

use rand::Rng as _;
use sudoku_core::{Budget, Outcome, Puzzle, Rng, Solver};

use crate::run::{start, Run, Start};
use crate::Preprocess;

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "sa";

sudoku_core::config! {
    /// The configuration of [`Sa`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct SaConfig for NAME {
        t0_factor: f64 = 1.0 in 0.0..=1000.0,
            "initial temperature = t0_factor × standard deviation of the cost over t0_sample \
             random moves (Lewis: 1)";
        t0_sample: u64 = 200 in 2..=1000000,
            "random moves sampled to estimate the initial temperature";
        cooling: f64 = 0.99 in 0.0..=1.0,
            "geometric cooling factor applied after each Markov chain (Lewis: 0.99)";
        chain_factor: f64 = 1.0 in 0.0..=1000.0,
            "Markov chain length = chain_factor × (free cells)² (Lewis: 1)";
        reheat: u64 = 20 in 0..,
            "Markov chains in a row that end with no lower cost than they started with, before \
             reheating to the initial temperature; 0 = never reheat";
        /// Preprocessing before the search.
        preprocess: Preprocess = use crate::PREPROCESS;
        /// Restrict the initial fill and swaps to candidates (digits no fixed peer holds).
        candidates as "moves": bool = "all" of crate::MOVES_CHOICES,
            "candidates: the initial fill prefers, and swaps may not add, digits that a fixed cell \
             of the same row, column or diagonal already holds (not in Lewis 2007)";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
    }
}

/// Lewis's simulated annealing.
#[derive(Clone, Debug, Default)]
pub struct Sa {
    /// Its configuration.
    pub config: SaConfig,
}

impl Sa {
    /// A solver with this configuration.
    pub fn new(config: SaConfig) -> Sa {
        Sa { config }
    }
}

impl Solver for Sa {
    fn name(&self) -> &str {
        NAME
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        let (mut board, stats) = match start(puzzle, cfg.preprocess, cfg.candidates, rng) {
            Start::Search(board, stats) => (board, stats),
            Start::Done(decided) => return decided,
        };
        board.fill_random(rng);
        let mut run = Run::new(budget, 1024, cfg.trace, stats);
        let mut best: Vec<u16> = Vec::new();
        board.copy_cells_into(&mut best);
        run.offer(board.cost());

        // Initial temperature: a random walk of t0_sample moves, all accepted.
        let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
        let (mut sampled, mut drawn) = (0u64, 0u64);
        // Disallowed draws are skipped; the bound on draws keeps a run whose swaps are almost
        // all disallowed from spending its budget here.
        while sampled < cfg.t0_sample
            && drawn < 100 * cfg.t0_sample
            && board.cost() > 0
            && !run.should_stop()
        {
            let Some((a, b)) = board.random_swap(rng) else {
                break;
            };
            run.iterations += 1;
            drawn += 1;
            if !board.swap_allowed(a, b) {
                continue;
            }
            let delta = board.delta(a, b);
            board.apply(a, b, delta);
            sampled += 1;
            let c = board.cost() as f64;
            sum += c;
            sum_sq += c * c;
            if run.offer(board.cost()) {
                board.copy_cells_into(&mut best);
            }
        }
        let var = if sampled > 1 {
            (sum_sq - sum * sum / sampled as f64) / (sampled - 1) as f64
        } else {
            0.0
        };
        // A flat sample (tiny puzzles) still needs a positive temperature to move.
        let t0 = (cfg.t0_factor * var.max(0.0).sqrt()).max(1e-3);
        let free = board.free_count() as f64;
        let chain = ((cfg.chain_factor * free * free).round() as u64).max(1);
        run.stats.extra.push(("t0".into(), format!("{t0:.4}")));
        run.stats
            .extra
            .push(("chain_length".into(), chain.to_string()));

        let mut temp = t0;
        // A swap changes the cost by at most 8 (two cells, four lines each): the acceptance
        // probabilities of uphill moves are tabulated once per chain instead of calling exp.
        let mut accept_table = [0.0f64; 9];
        let tabulate = |table: &mut [f64; 9], t: f64| {
            for (d, p) in table.iter_mut().enumerate() {
                *p = (-(d as f64) / t).exp();
            }
        };
        tabulate(&mut accept_table, temp);
        let mut unsaved = false;
        let mut stale_chains = 0u64;
        let mut chains = 0u64;
        'outer: while board.cost() > 0 {
            // A chain is stale when it ends no lower than it started. Judged against the best
            // ever (or since the reheat), hot chains rarely beat it and the run would reheat
            // before it ever cools; a frozen run, though, ends chain after chain unchanged.
            let cost_at_start = board.cost();
            for _ in 0..chain {
                if run.should_stop() {
                    break 'outer;
                }
                let Some((a, b)) = board.random_swap(rng) else {
                    break 'outer;
                };
                let delta = board.delta(a, b);
                run.iterations += 1;
                let accept =
                    delta <= 0 || rng.random::<f64>() < accept_table[(delta as usize).min(8)];
                if !accept {
                    continue;
                }
                if delta > 0 && unsaved {
                    // Leaving the best assignment: save it now rather than at every new best.
                    board.copy_cells_into(&mut best);
                    unsaved = false;
                }
                board.apply(a, b, delta);
                if run.offer(board.cost()) {
                    unsaved = true;
                    if board.cost() == 0 {
                        break 'outer;
                    }
                }
            }
            chains += 1;
            temp *= cfg.cooling;
            if board.cost() < cost_at_start {
                stale_chains = 0;
            } else {
                stale_chains += 1;
                if cfg.reheat > 0 && stale_chains >= cfg.reheat {
                    temp = t0;
                    stale_chains = 0;
                    run.stats.restarts += 1;
                }
            }
            tabulate(&mut accept_table, temp);
        }
        if unsaved {
            board.copy_cells_into(&mut best);
        }
        run.stats.extra.push(("chains".into(), chains.to_string()));
        board.restore(&best);
        let grid = board.to_grid();
        run.finish(grid)
    }
}
