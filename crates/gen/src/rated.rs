//! Carving to a difficulty rating: clues are removed in random order while the solution stays
//! unique and the rater's score stays at most `max`; the result is kept when its score is at
//! least `min`; if not, the puzzle with the fewest clues met on the way whose score was in
//! range is kept, and only when there was none is another random order tried. The rater is a callback (sudoku-logic's
//! `rate` in the CLI), so this crate does not depend on the rule solver.

use std::time::Instant;

use rand::seq::SliceRandom;
use sudoku_core::{
    verify_solution, Budget, CountEnd, Grid, OtherSolution, Puzzle, Rng, Solver, Variant,
};

use crate::{CarveEnd, Carved, GenError};

/// Carving attempts (random removal orders) before giving up.
pub const RATED_ATTEMPTS: u32 = 50;

/// Carves from `grid` a unique puzzle whose `rate` score lies in `min..=max`, within `budget`
/// (time for the whole call; nodes per uniqueness check). Gives
/// [`GenError::RatingNotReached`] when [`RATED_ATTEMPTS`] orders all miss the range.
#[allow(clippy::too_many_arguments)]
pub fn make_rated_puzzle(
    grid: &Grid,
    variant: Variant,
    min: f64,
    max: f64,
    rate: &mut dyn FnMut(&Puzzle) -> f64,
    checker: &mut dyn Solver,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Carved, GenError> {
    let start = Instant::now();
    let empty = Puzzle::empty(grid.order(), variant);
    verify_solution(&empty, grid).map_err(GenError::NotASolution)?;
    let cells = grid.cells().len();
    let mut checks = 0u64;
    let mut best = f64::NAN;
    let mut attempts = 0;
    let distance = |s: f64| (min - s).max(s - max).max(0.0);
    while attempts < RATED_ATTEMPTS {
        attempts += 1;
        let mut idx: Vec<usize> = (0..cells).collect();
        idx.shuffle(rng);
        let mut givens = grid.clone();
        let mut clues = cells;
        // The in-range puzzle with the fewest clues met on the way, in case the end is not.
        let mut last_in_range: Option<(Grid, usize)> = None;
        for c in idx {
            let left = match budget.time {
                Some(t) => match t.checked_sub(start.elapsed()) {
                    Some(l) if !l.is_zero() => Some(l),
                    _ => return Err(out_of_time(min, max, attempts, best)),
                },
                None => None,
            };
            givens.set(c, 0);
            let puzzle = Puzzle::new(givens.clone(), variant);
            let check_budget = Budget {
                time: left,
                nodes: budget.nodes,
                iterations: None,
            };
            let out = checker
                .count_other(
                    OtherSolution {
                        puzzle: &puzzle,
                        solution: grid,
                        removed: &[c],
                    },
                    &check_budget,
                    rng,
                )
                .map_err(GenError::Checker)?;
            checks += 1;
            let keep_removed = match (out.count, out.end) {
                (1, CountEnd::Complete) => {
                    let score = rate(&puzzle);
                    if (min..=max).contains(&score) {
                        last_in_range = Some((givens.clone(), clues - 1));
                    }
                    score <= max
                }
                (0, CountEnd::Complete) => {
                    return Err(GenError::CheckerDisagrees {
                        checker: checker.name().to_string(),
                    })
                }
                _ => false,
            };
            if keep_removed {
                clues -= 1;
            } else {
                givens.set(c, grid.get(c));
            }
        }
        let score = rate(&Puzzle::new(givens.clone(), variant));
        if (min..=max).contains(&score) {
            return Ok(Carved {
                givens,
                clues,
                checks,
                end: CarveEnd::Target,
            });
        }
        if let Some((givens, clues)) = last_in_range {
            return Ok(Carved {
                givens,
                clues,
                checks,
                end: CarveEnd::Target,
            });
        }
        if best.is_nan() || distance(score) < distance(best) {
            best = score;
        }
    }
    Err(GenError::RatingNotReached {
        min,
        max,
        attempts,
        best,
    })
}

fn out_of_time(min: f64, max: f64, attempts: u32, best: f64) -> GenError {
    GenError::RatingNotReached {
        min,
        max,
        attempts,
        best,
    }
}
