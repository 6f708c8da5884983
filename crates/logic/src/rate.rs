//! The difficulty rating: the hardest rule a run of the rule solver needed, its steps, and a
//! score on the scale of the crate README, with a level; and why a puzzle that has no solution,
//! or several, has none ([`Unrateable`]), since such a grid is no puzzle to rate.

use std::fmt;
use std::time::Instant;

use sudoku_core::{
    check_givens, rng_from_seed, Budget, Count, CountEnd, Deadline, Puzzle, Solver, UnitKind,
    Violation,
};
use sudoku_prop::Prop;

use crate::solve::{trace, End, LogicConfig, Trace};
use crate::step::{RuleKind, RuleSet};

/// The named bands of the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Singles only (score ≤ 1.2).
    Easy,
    /// Locked candidates at most (score ≤ 2.0).
    Medium,
    /// Pairs, triples, X-wing, swordfish (score ≤ 4.0).
    Hard,
    /// Wings, quadruples, jellyfish, larger pigeonhole patterns (score < 6).
    Expert,
    /// The rules are stuck (score ≥ 6).
    BeyondLogic,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::BeyondLogic,
    ];

    /// The level of a score.
    pub fn of(score: f64) -> Level {
        if score <= 1.2 + 1e-9 {
            Level::Easy
        } else if score <= 2.0 + 1e-9 {
            Level::Medium
        } else if score <= 4.0 + 1e-9 {
            Level::Hard
        } else if score < 6.0 {
            Level::Expert
        } else {
            Level::BeyondLogic
        }
    }

    /// The scores of this level, as an inclusive range `(min, max)`.
    pub fn range(self) -> (f64, f64) {
        match self {
            Level::Easy => (0.0, 1.2),
            Level::Medium => (1.3, 2.0),
            Level::Hard => (2.1, 4.0),
            Level::Expert => (4.1, 5.9),
            Level::BeyondLogic => (6.0, 10.0),
        }
    }

    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::BeyondLogic => "beyond-logic",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A puzzle's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The hardest rule applied (`None`: no step was needed, or none applied).
    pub hardest: Option<RuleKind>,
    /// Steps applied.
    pub steps: usize,
    /// The score (see [`Rating::score_of`]).
    pub score: f64,
    /// Its level.
    pub level: Level,
    /// `solved`, `stuck`, `infeasible` or `timeout`.
    pub end: &'static str,
    /// The smallest rule set that solves it (`None` when the rules do not).
    pub needs: Option<RuleSet>,
}

impl Rating {
    /// Rates a finished run: solved, the largest step difficulty, rounded to one decimal; stuck,
    /// `6 + 4 × (open cells left / open cells at the start)`, so 6 to 10.
    pub fn of(trace: &Trace) -> Rating {
        let hardest = trace.steps.iter().map(|s| s.rule).max_by(|a, b| {
            a.difficulty()
                .partial_cmp(&b.difficulty())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let solved = matches!(trace.end, End::Solved(_));
        let score = if solved {
            hardest.map_or(0.0, |r| r.difficulty())
        } else {
            let left = trace.open_at_end() as f64 / trace.open_at_start.max(1) as f64;
            6.0 + 4.0 * left
        };
        let score = (score * 10.0).round() / 10.0;
        let needs = solved.then(|| {
            trace
                .steps
                .iter()
                .map(|s| s.rule.rule_set())
                .max()
                .unwrap_or(RuleSet::Singles)
        });
        Rating {
            hardest,
            steps: trace.steps.len(),
            score,
            level: Level::of(score),
            end: match trace.end {
                End::Solved(_) => "solved",
                End::Stuck { .. } => "stuck",
                End::Contradiction => "infeasible",
                End::Timeout => "timeout",
            },
            needs,
        }
    }
}

/// Why a puzzle has no rating: it has no solution, or several (a puzzle has one), and the
/// rules or, where they are stuck, a search show it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unrateable {
    /// A digit stands twice in one unit among the givens.
    #[error("contradictory givens: {0}")]
    Duplicate(Violation),
    /// An open cell all of whose digits are given in its units.
    #[error("contradictory givens: cell r{row}c{col} has no candidate (its units hold every digit)", row = .row + 1, col = .col + 1)]
    NoCandidate {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// A digit missing from a unit with no open cell of the unit left for it.
    #[error("contradictory givens: digit {digit} has no place in {unit}")]
    NoPlace {
        /// The digit.
        digit: u16,
        /// The unit.
        unit: UnitKind,
    },
    /// The givens pass the checks above, but the rules reach a contradiction later.
    #[error(
        "no solution: the rules reach a contradiction after {steps} steps (`explain` shows them)"
    )]
    Contradiction {
        /// Steps applied before it.
        steps: usize,
    },
    /// The rules are stuck, and a search from where they stopped finds no solution.
    #[error(
        "no solution: the rules are stuck after {steps} steps and a search from there finds none"
    )]
    NoSolution {
        /// Steps applied before the rules were stuck.
        steps: usize,
    },
    /// The rules are stuck, and a search from where they stopped finds two solutions.
    #[error("several solutions: the rules are stuck after {steps} steps and a search from there finds two (a puzzle has one)")]
    Several {
        /// Steps applied before the rules were stuck.
        steps: usize,
    },
}

impl Unrateable {
    /// Why the givens of `puzzle` have no solution, when that shows before any rule: a digit
    /// twice in a unit, an open cell with no candidate, or a digit with no place in a unit.
    pub fn of_givens(puzzle: &Puzzle) -> Option<Unrateable> {
        if let Err(v) = check_givens(puzzle) {
            return Some(Unrateable::Duplicate(v));
        }
        let geo = puzzle.geometry();
        let givens = puzzle.givens();
        let size = geo.size();
        // Bit sets of digits 1..=size, one bit per digit.
        let words = (size + 1).div_ceil(64);
        let mut held = vec![0u64; geo.unit_count() * words];
        for (u, cells) in geo.units().enumerate() {
            for &c in cells {
                let d = usize::from(givens.get(c as usize));
                if d != 0 {
                    held[u * words + d / 64] |= 1 << (d % 64);
                }
            }
        }
        let has = |set: &[u64], d: usize| set[d / 64] & (1 << (d % 64)) != 0;
        // Every digit 1..=size, as a bit set.
        let all: Vec<u64> = (0..words)
            .map(|w| {
                (0..64)
                    .filter(|b| (1..=size).contains(&(w * 64 + b)))
                    .fold(0, |m, b| m | 1 << b)
            })
            .collect();
        let mut room = vec![0u64; geo.unit_count() * words];
        let mut cand = vec![0u64; words];
        for c in (0..geo.cells()).filter(|&c| givens.get(c) == 0) {
            cand.copy_from_slice(&all);
            for &u in geo.cell_units(c) {
                for (k, w) in cand.iter_mut().zip(&held[u as usize * words..]) {
                    *k &= !w;
                }
            }
            if cand.iter().all(|&w| w == 0) {
                return Some(Unrateable::NoCandidate {
                    row: geo.row(c),
                    col: geo.col(c),
                });
            }
            for &u in geo.cell_units(c) {
                for (r, w) in room[u as usize * words..][..words].iter_mut().zip(&cand) {
                    *r |= w;
                }
            }
        }
        for u in 0..geo.unit_count() {
            let (h, r) = (&held[u * words..], &room[u * words..]);
            if let Some(d) = (1..=size).find(|&d| !has(h, d) && !has(r, d)) {
                return Some(Unrateable::NoPlace {
                    digit: d as u16,
                    unit: geo.unit_kind(u),
                });
            }
        }
        None
    }

    /// Why a run of the rules gives no rating: the givens' contradiction, or the rules'.
    pub fn of_run(puzzle: &Puzzle, trace: &Trace) -> Option<Unrateable> {
        match trace.end {
            End::Contradiction => Some(Unrateable::of_givens(puzzle).unwrap_or(
                Unrateable::Contradiction {
                    steps: trace.steps.len(),
                },
            )),
            _ => None,
        }
    }
}

/// A search for the solutions of a stuck grid ran out of its budget: whether the grid has one
/// solution is not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undecided;

impl Unrateable {
    /// Why a run whose rules got stuck gives no rating: a search (`prop`, counting to two from
    /// the grid the rules left, within `budget`) finds no solution, or several. The rules only
    /// remove what no solution uses, so a grid they solve has one solution; only a stuck one
    /// may have none or several. `Ok(None)`: one solution, or a run that did not get stuck;
    /// [`Undecided`] when the search ran out of the budget first.
    pub fn of_stuck(
        puzzle: &Puzzle,
        trace: &Trace,
        budget: &Budget,
    ) -> Result<Option<Unrateable>, Undecided> {
        let End::Stuck { grid, .. } = &trace.end else {
            return Ok(None);
        };
        let from = Puzzle::new(grid.clone(), puzzle.variant());
        let counted = Prop::default()
            .count(&from, Count::upto(2), budget, &mut rng_from_seed(0))
            .map_err(|_| Undecided)?;
        let steps = trace.steps.len();
        match (counted.end, counted.count) {
            (_, n) if n >= 2 => Ok(Some(Unrateable::Several { steps })),
            (CountEnd::Complete, 0) => Ok(Some(Unrateable::NoSolution { steps })),
            (CountEnd::Exhausted(_), _) => Err(Undecided),
            _ => Ok(None),
        }
    }
}

/// What the rules say of one puzzle within a time limit, as `explain` and `rate` (the command
/// and the Python package) report it: the run of the rules, why the puzzle has no rating when
/// it has no solution or several, and whether the time ran out.
#[derive(Clone, Debug)]
pub struct Examined {
    /// The run of the rules.
    pub trace: Trace,
    /// Why it has no rating: no solution or several (`None`: one, or not known in time).
    pub why: Option<Unrateable>,
    /// The rules are stuck and the search for a second solution ran out of time: a rating
    /// is of the rules alone, on a grid that may have several solutions.
    pub undecided: bool,
    /// The time limit stopped the rules.
    pub timeout: bool,
}

/// Runs the rules of `config` on `puzzle` within `budget`'s time, then, where they are stuck,
/// a search from where they stopped within what is left of it: a stuck run may be stuck
/// because the grid has several solutions, or none.
pub fn examine(puzzle: &Puzzle, config: &LogicConfig, budget: &Budget) -> Examined {
    let started = Instant::now();
    let mut deadline = Deadline::new(budget, 16);
    let run = trace(puzzle, config, &mut deadline);
    let left = Budget {
        time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
        ..*budget
    };
    let (why, undecided) = match Unrateable::of_run(puzzle, &run) {
        Some(w) => (Some(w), false),
        None => match Unrateable::of_stuck(puzzle, &run, &left) {
            Ok(w) => (w, false),
            Err(Undecided) => (None, true),
        },
    };
    Examined {
        timeout: matches!(run.end, End::Timeout),
        trace: run,
        why,
        undecided,
    }
}

/// Rates `puzzle` with every rule (the default configuration).
pub fn rate(puzzle: &Puzzle) -> Rating {
    let mut deadline = Deadline::new(&sudoku_core::Budget::unlimited(), 1024);
    Rating::of(&trace(puzzle, &LogicConfig::default(), &mut deadline))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{format, Variant};

    fn puzzle(text: &str, variant: Variant) -> Puzzle {
        Puzzle::new(
            format::parse_str(text, "t").unwrap().remove(0).grid,
            variant,
        )
    }

    #[test]
    fn a_puzzle_without_solution_says_why() {
        let why = |text: &str| Unrateable::of_givens(&puzzle(text, Variant::Classic));
        let dots = |n: usize| ".".repeat(n);
        assert_eq!(
            why(&format!("55{}", dots(79))).unwrap().to_string(),
            "contradictory givens: row 1 has digit 5 twice (at r1c1 and r1c2)"
        );
        assert_eq!(
            why(&format!("12345678.{}9{}", dots(8), dots(63))).unwrap(),
            Unrateable::NoCandidate { row: 0, col: 8 }
        );
        assert_eq!(
            why(&format!("12345678.{}9{}", dots(8), dots(63)))
                .unwrap()
                .to_string(),
            "contradictory givens: cell r1c9 has no candidate (its units hold every digit)"
        );
        // Row 1 lacks 8 and 9; the 9 at r2c7 shuts both its open cells (block 3) to 9.
        let text = format!("1234567..{}9..{}", dots(6), dots(63));
        assert_eq!(
            why(&text).unwrap().to_string(),
            "contradictory givens: digit 9 has no place in row 1"
        );
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        assert_eq!(why(easy), None);
    }
}
