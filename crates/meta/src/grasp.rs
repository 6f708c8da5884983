//! GRASP (Takano et al., after Lewis's representation): a randomised greedy construction by
//! a restricted candidate list, then hill climbing over swaps of two free cells of one block,
//! restarted with a new construction when stuck; the best assignment is kept.

use rand::Rng as _;
use sudoku_core::{choices, Budget, Outcome, Puzzle, Rng, Solver};

use crate::board::Board;
use crate::run::{start, Run, Start};
use crate::Preprocess;

/// How the hill climber picks a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalSearch {
    /// Evaluate the whole neighbourhood, take a best move (ties at random), as in the paper.
    Best,
    /// Take the first improving move of a scan that starts at a random block.
    First,
}

/// The registry name, also returned by [`Solver::name`].
pub(crate) const NAME: &str = "grasp";

sudoku_core::config! {
    /// The configuration of [`Grasp`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct GraspConfig for NAME {
        alpha: f64 = 0.5 in 0.0..=1.0,
            "share of the cost-ranked candidates (digits missing from the cell's block) that form \
             the restricted candidate list; 0 = greedy, 1 = random";
        local: LocalSearch = "best"
            of choices!["best" => LocalSearch::Best, "first" => LocalSearch::First],
            "hill climbing: best improvement over the whole swap neighbourhood (the paper) or \
             first improvement";
        max_iters: u64 = 0 in 0..,
            "maximum GRASP iterations (construction + hill climbing); 0 = only the budget limits \
             the run";
        plateau: u64 = 200 in 0..,
            "sideways moves (no cost change) allowed in a row without improvement before \
             restarting with a new construction; 0 = strict hill climbing";
        kick: u64 = 0 in 0..,
            "0 = restart with a new construction when stuck (the paper); k > 0 = instead apply k \
             random swaps to the local optimum just reached and climb again (iterated local \
             search, not in the paper)";
        /// Preprocessing before the search.
        preprocess: Preprocess = use crate::PREPROCESS;
        /// Restrict construction and swaps to candidates (digits no fixed peer holds).
        candidates as "moves": bool = "all" of crate::MOVES_CHOICES,
            "candidates: construction prefers, and swaps may not add, digits that a fixed cell of \
             the same row, column or diagonal already holds (not in the paper)";
        /// Record the best cost each time it improves.
        trace: bool = use crate::TRACE;
    }
}

/// The GRASP solver.
#[derive(Clone, Debug, Default)]
pub struct Grasp {
    /// Its configuration.
    pub config: GraspConfig,
}

impl Grasp {
    /// A solver with this configuration.
    pub fn new(config: GraspConfig) -> Grasp {
        Grasp { config }
    }
}

impl Solver for Grasp {
    fn name(&self) -> &str {
        NAME
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        let (mut board, stats) = match start(puzzle, cfg.preprocess, cfg.candidates, rng) {
            Start::Search(board, stats) => (board, stats),
            Start::Done(decided) => return decided,
        };
        let mut run = Run::new(budget, 8, cfg.trace, stats);
        let mut best: Vec<u16> = Vec::new();
        let mut constructions = 0u64;
        let mut moves = Vec::new();
        loop {
            // At least one construction, so there is a best assignment to return even when
            // a limit (an iteration limit of 0) is already reached.
            if constructions > 0 && run.should_stop() {
                break;
            }
            if cfg.max_iters > 0 && constructions >= cfg.max_iters {
                break;
            }
            if constructions > 0 {
                run.stats.restarts += 1;
            }
            constructions += 1;
            let before = run.best_cost;
            if cfg.kick > 0 && constructions > 1 {
                kick(&mut board, cfg.kick, &mut run, rng);
            } else {
                board.fill_rcl(cfg.alpha, rng);
            }
            run.offer(board.cost());
            climb(&mut board, &mut run, &cfg, rng, &mut moves);
            // Hill climbing never worsens, so the board ends at this round's best, which is
            // the overall best if the round improved it.
            if run.best_cost < before {
                board.copy_cells_into(&mut best);
            }
            if run.best_cost == 0 {
                break;
            }
        }
        run.stats
            .extra
            .push(("constructions".into(), constructions.to_string()));
        if cfg.max_iters > 0 && constructions >= cfg.max_iters && run.stopped.is_none() {
            run.stopped = Some(sudoku_core::Limit::Iterations);
        }
        board.restore(&best);
        let grid = board.to_grid();
        run.finish(grid)
    }
}

/// `k` random allowed swaps, whatever their cost.
fn kick(board: &mut Board, k: u64, run: &mut Run, rng: &mut Rng) {
    let mut done = 0;
    // Bounded draws: with moves restricted to candidates, most draws may be disallowed.
    for _ in 0..k.saturating_mul(100) {
        if done == k {
            break;
        }
        let Some((a, b)) = board.random_swap(rng) else {
            return;
        };
        run.iterations += 1;
        if board.swap_allowed(a, b) {
            let delta = board.delta(a, b);
            board.apply(a, b, delta);
            done += 1;
        }
    }
}

/// One hill climb from the current board: improving moves, and up to `plateau` sideways moves
/// in a row, until stuck, solved, or out of budget.
fn climb(
    board: &mut Board,
    run: &mut Run,
    cfg: &GraspConfig,
    rng: &mut Rng,
    moves: &mut Vec<(u32, u32)>,
) {
    let mut sideways = 0u64;
    while board.cost() > 0 && !run.should_stop() {
        let found = match cfg.local {
            LocalSearch::Best => best_move(board, run, rng, moves),
            LocalSearch::First => first_move(board, run, rng, moves),
        };
        // No allowed swap at all (moves restricted to candidates): stuck.
        let Some((delta, a, b)) = found else { return };
        if delta < 0 {
            sideways = 0;
        } else if delta == 0 && sideways < cfg.plateau {
            sideways += 1;
        } else {
            return;
        }
        board.apply(a, b, delta);
        run.offer(board.cost());
    }
}

/// Scans every swap; returns a best one (ties broken uniformly at random).
fn best_move(
    board: &Board,
    run: &mut Run,
    rng: &mut Rng,
    ties: &mut Vec<(u32, u32)>,
) -> Option<(i64, usize, usize)> {
    let mut best = i64::MAX;
    ties.clear();
    for &blk in board.movable_blocks() {
        let free = board.free_cells(blk as usize);
        for i in 0..free.len() {
            for j in i + 1..free.len() {
                if !board.swap_allowed(free[i] as usize, free[j] as usize) {
                    continue;
                }
                let d = board.delta(free[i] as usize, free[j] as usize);
                if d < best {
                    best = d;
                    ties.clear();
                }
                if d == best {
                    ties.push((free[i], free[j]));
                }
            }
        }
    }
    run.iterations += board.neighbourhood_size();
    if ties.is_empty() {
        return None;
    }
    let (a, b) = ties[rng.random_range(0..ties.len())];
    Some((best, a as usize, b as usize))
}

/// Scans swaps from a random block on; returns the first improving one, or else a random
/// sideways one, or else a least-bad one.
fn first_move(
    board: &Board,
    run: &mut Run,
    rng: &mut Rng,
    ties: &mut Vec<(u32, u32)>,
) -> Option<(i64, usize, usize)> {
    let blocks = board.movable_blocks();
    let first = rng.random_range(0..blocks.len());
    let mut best = i64::MAX;
    ties.clear();
    for k in 0..blocks.len() {
        let free = board.free_cells(blocks[(first + k) % blocks.len()] as usize);
        for i in 0..free.len() {
            for j in i + 1..free.len() {
                run.iterations += 1;
                if !board.swap_allowed(free[i] as usize, free[j] as usize) {
                    continue;
                }
                let d = board.delta(free[i] as usize, free[j] as usize);
                if d < 0 {
                    return Some((d, free[i] as usize, free[j] as usize));
                }
                if d < best {
                    best = d;
                    ties.clear();
                }
                if d == best {
                    ties.push((free[i], free[j]));
                }
            }
        }
    }
    if ties.is_empty() {
        return None;
    }
    let (a, b) = ties[rng.random_range(0..ties.len())];
    Some((best, a as usize, b as usize))
}
