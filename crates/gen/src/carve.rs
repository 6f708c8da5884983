//! Puzzles from a full grid: remove clues while the solution stays unique (Takano et al., §5), or
//! keep a random share of the cells (the Lewis protocol used for metaheuristic benchmarks).

use std::time::Instant;

use rand::seq::SliceRandom;
use sudoku_core::{
    verify_solution, Budget, CountEnd, Grid, Limit, OtherSolution, Puzzle, Rng, Solver, Variant,
};

use crate::GenError;

/// Difficulty levels by clue count, after Takano et al. §5: many clues (few empty cells) is easy;
/// near the minimum (the 17-clue bound on 9×9) is hard; medium in between. The thresholds
/// are shares of the `N²` cells, so they scale with the order:
///
/// | level | clues kept | 9×9 |
/// |---|---|---|
/// | easy | `⌈0.45·N²⌉` | 37 |
/// | medium | `⌈0.35·N²⌉` | 29 |
/// | hard | a minimal puzzle (no clue can be removed) | typically 22–27 |
///
/// This is a clue-count grading, as in the seed; it is not a grading by the human techniques
/// a puzzle needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Many clues.
    Easy,
    /// Between easy and hard.
    Medium,
    /// A minimal puzzle.
    Hard,
}

impl Level {
    /// The clue target for `cells` cells, or `None` for "as few as possible" (hard).
    pub fn target(self, cells: usize) -> Option<usize> {
        match self {
            Level::Easy => Some((cells * 45).div_ceil(100)),
            Level::Medium => Some((cells * 35).div_ceil(100)),
            Level::Hard => None,
        }
    }

    /// The name used in parameters.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "clues-easy",
            Level::Medium => "clues-medium",
            Level::Hard => "clues-hard",
        }
    }
}

/// What kind of puzzle to carve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PuzzleSpec {
    /// Unique solution; stop at `clues` clues if given (or when no clue can be removed).
    Unique {
        /// Target number of clues.
        clues: Option<usize>,
    },
    /// Unique and minimal: every remaining clue is needed.
    Minimal,
    /// Keep a random share `p ∈ [0, 1]` of the cells, `round(p·N²)` clues; uniqueness is not
    /// required (Lewis's protocol).
    Keep(f64),
    /// A clue-count [`Level`] (Takano et al.'s easy/medium/hard, named `clues-*`).
    Level(Level),
    /// A difficulty rating in `min..=max`, as a rater scores it (sudoku-logic's `rate`):
    /// carved by [`crate::make_rated_puzzle`], which takes the rater; [`make_puzzle`] cannot.
    Rated {
        /// Lowest score accepted.
        min: f64,
        /// Highest score accepted.
        max: f64,
    },
}

/// Which cells are removed together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// One cell at a time, in random order.
    #[default]
    None,
    /// A cell and its image under the half-turn about the centre, together. "Minimal" then
    /// means no symmetric pair can be removed.
    Point,
}

/// Why carving stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarveEnd {
    /// The clue target was reached.
    Target,
    /// Every cell (or symmetric pair) was tried: no more can be removed; the puzzle is
    /// minimal (for [`Symmetry::None`]).
    Minimal,
    /// The share was kept ([`PuzzleSpec::Keep`]).
    Kept,
    /// A budget limit ran out (or a check could not conclude); the puzzle is still unique,
    /// but neither minimal nor at the target.
    Budget(Limit),
    /// Every cell was tried, but this many checks ran out of their node budget and kept their
    /// clue: the puzzle is unique and may not be minimal.
    Undecided(u64),
}

/// A carved puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Carved {
    /// The givens (0 = empty).
    pub givens: Grid,
    /// Number of clues.
    pub clues: usize,
    /// Uniqueness checks made (calls to the checker's `count`).
    pub checks: u64,
    /// Why it stopped.
    pub end: CarveEnd,
}

/// Carves a puzzle out of the full `grid` (which must solve the empty puzzle of `variant`).
///
/// For the unique specs, cells (or symmetric pairs) are visited once in random order and a
/// clue is removed when the `checker` proves the solution stays unique
/// ([`Solver::count_other`], a count to 2 unless the checker knows better).
/// One pass suffices for minimality: a removal refused now stays refused after later ones.
/// `budget` caps the whole call; each check gets what is left of its time and `budget.nodes`
/// nodes: a check that spends them keeps its clue and carving goes on
/// ([`CarveEnd::Undecided`]).
pub fn make_puzzle(
    grid: &Grid,
    variant: Variant,
    spec: PuzzleSpec,
    symmetry: Symmetry,
    checker: &mut dyn Solver,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Carved, GenError> {
    let order = grid.order();
    verify_solution(&Puzzle::empty(order, variant), grid).map_err(GenError::NotASolution)?;
    let cells = order.cells();
    if let PuzzleSpec::Keep(p) = spec {
        if !(0.0..=1.0).contains(&p) {
            return Err(GenError::Share(p));
        }
        let keep = ((p * cells as f64).round() as usize).min(cells);
        let mut idx: Vec<usize> = (0..cells).collect();
        idx.shuffle(rng);
        let mut givens = Grid::empty(order);
        for &c in &idx[..keep] {
            givens.set(c, grid.get(c));
        }
        return Ok(Carved {
            givens,
            clues: keep,
            checks: 0,
            end: CarveEnd::Kept,
        });
    }
    let target = match spec {
        PuzzleSpec::Rated { .. } => return Err(GenError::NeedsRater),
        PuzzleSpec::Unique { clues } => clues,
        PuzzleSpec::Level(l) => l.target(cells),
        _ => None,
    };
    let start = Instant::now();
    // Groups of cells removed together, in random order.
    let mut groups: Vec<(usize, Option<usize>)> = match symmetry {
        Symmetry::None => (0..cells).map(|c| (c, None)).collect(),
        Symmetry::Point => (0..cells.div_ceil(2))
            .map(|c| (c, (cells - 1 - c != c).then_some(cells - 1 - c)))
            .collect(),
    };
    groups.shuffle(rng);
    let mut givens = grid.clone();
    let mut clues = cells;
    let mut checks = 0u64;
    let mut end = CarveEnd::Minimal;
    let mut undecided = 0u64;
    for (a, b) in groups {
        if target.is_some_and(|t| clues <= t) {
            end = CarveEnd::Target;
            break;
        }
        if budget.iterations.is_some_and(|m| checks >= m) {
            end = CarveEnd::Budget(Limit::Iterations);
            break;
        }
        let left = match budget.time {
            Some(t) => match t.checked_sub(start.elapsed()) {
                Some(l) if !l.is_zero() => Some(l),
                _ => {
                    end = CarveEnd::Budget(Limit::Time);
                    break;
                }
            },
            None => None,
        };
        givens.set(a, 0);
        if let Some(b) = b {
            givens.set(b, 0);
        }
        let removed = 1 + usize::from(b.is_some());
        let check_budget = Budget {
            time: left,
            nodes: budget.nodes,
            iterations: None,
        };
        let puzzle = Puzzle::new(givens.clone(), variant);
        let pair = [a, b.unwrap_or(a)];
        let out = checker
            .count_other(
                OtherSolution {
                    puzzle: &puzzle,
                    solution: grid,
                    removed: &pair[..removed],
                },
                &check_budget,
                rng,
            )
            .map_err(GenError::Checker)?;
        checks += 1;
        match (out.count, out.end) {
            (1, CountEnd::Complete) => {
                clues -= removed;
                continue;
            }
            (0, CountEnd::Complete) => {
                return Err(GenError::CheckerDisagrees {
                    checker: checker.name().to_string(),
                })
            }
            _ => {}
        }
        // Another solution exists, or the check could not tell: the clues stay.
        givens.set(a, grid.get(a));
        if let Some(b) = b {
            givens.set(b, grid.get(b));
        }
        match (out.count, out.end) {
            (c, _) if c >= 2 => {}
            // This check's node budget ran out: the puzzle stays unique, so go on; it may
            // then not be minimal.
            (_, CountEnd::Exhausted(Limit::Nodes)) if budget.nodes.is_some() => undecided += 1,
            (_, e) => {
                // Not proven either way and out of time or checks: stop honestly.
                end = CarveEnd::Budget(match e {
                    CountEnd::Exhausted(l) => l,
                    _ => Limit::Nodes,
                });
                break;
            }
        }
    }
    if end == CarveEnd::Minimal && target.is_some_and(|t| clues <= t) {
        end = CarveEnd::Target;
    }
    if end == CarveEnd::Minimal && undecided > 0 {
        end = CarveEnd::Undecided(undecided);
    }
    Ok(Carved {
        givens,
        clues,
        checks,
        end,
    })
}
