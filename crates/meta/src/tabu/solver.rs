//! `tabu::solver`: [`Tabu`], the [`Solver`] the runner calls: it builds the search within the
//! time limit, runs plain TabuCol or the pooled scheme to the budget, and reports; apart from
//! the engines, which `hybrid` drives step by step without it.

use sudoku_core::{Budget, Deadline, Limit, Outcome, Puzzle, Rng, Solver, Stats, Status};

use super::pooled::PooledSearch;
use super::state::TabuSearch;
use super::{TabuConfig, NAME};
use crate::run::Run;

/// Tabu search on list colouring (registered as `tabu`).
#[derive(Clone, Debug, Default)]
pub struct Tabu {
    /// Its configuration.
    pub config: TabuConfig,
}

impl Tabu {
    /// A solver with this configuration.
    pub fn new(config: TabuConfig) -> Tabu {
        Tabu { config }
    }
}

impl Solver for Tabu {
    fn name(&self) -> &str {
        NAME
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let cfg = self.config;
        // The time limit counts the setup too: the search gets what is left of it.
        let started = std::time::Instant::now();
        let (mut search, stats) = match start(puzzle, &cfg, budget, rng) {
            Ok(started) => started,
            Err(done) => return *done,
        };
        let left = Budget {
            time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
            ..*budget
        };
        let mut run = Run::new(
            &left,
            clock_stride(search.candidate_count()),
            cfg.trace,
            stats,
        );
        run.offer(search.cost());
        if cfg.pool > 0 {
            return pool_search(search, &cfg, run, rng);
        }
        while search.cost() > 0 && !run.should_stop() {
            let cost = search.step(rng);
            run.iterations = search.steps();
            run.offer(cost);
        }
        let grid = search.best_grid();
        run.finish(grid)
    }
}
/// Steps between two readings of the clock: 1024 on small grids, fewer as a step's cost grows
/// with the candidates (a step of an empty 256×256 grid, 16.7 million candidates, takes about
/// half a millisecond: the clock is read at every step there).
fn clock_stride(candidates: usize) -> u32 {
    let steps = (1usize << 22) / candidates.max(1);
    steps.clamp(1, 1024) as u32
}

fn pool_search(search: TabuSearch, cfg: &TabuConfig, mut run: Run, rng: &mut Rng) -> Outcome {
    let mut pooled = PooledSearch::from_search(search, cfg);
    while pooled.best_cost() > 0 && !run.should_stop() {
        let cost = pooled.step(rng);
        run.iterations = pooled.steps();
        run.offer(cost);
    }
    run.stats
        .extra
        .push(("segments".into(), pooled.segments().to_string()));
    run.stats.restarts = pooled.restarts();
    let grid = pooled.best_grid();
    run.finish(grid)
}

/// The search of `puzzle` built within `budget`'s time limit, with the row's first statistics
/// (open cells, candidates); or the outcome when it cannot start: the time ran out during the
/// setup (said in the row), or propagation found a contradiction. `tabu` and `mmcol` start
/// alike.
pub(crate) fn start(
    puzzle: &Puzzle,
    cfg: &TabuConfig,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<(TabuSearch, Stats), Box<Outcome>> {
    let mut stats = Stats::default();
    let mut setup = Deadline::new(budget, 64);
    let search = match TabuSearch::new_until(puzzle, cfg, rng, &mut setup) {
        Ok(Some(s)) => s,
        Ok(None) => {
            stats.extra.push(("stopped".into(), "setup".into()));
            return Err(Box::new(Outcome {
                status: Status::Exhausted {
                    limit: Limit::Time,
                    best: None,
                },
                stats,
            }));
        }
        Err(why) => {
            stats.extra.push(("infeasible".into(), why.to_string()));
            return Err(Box::new(Outcome {
                status: Status::Infeasible,
                stats,
            }));
        }
    };
    stats
        .extra
        .push(("open_cells".into(), search.open_cells().to_string()));
    stats
        .extra
        .push(("candidates".into(), search.candidate_count().to_string()));
    Ok((search, stats))
}
