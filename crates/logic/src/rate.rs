//! The difficulty rating: the hardest rule a run of the rule solver needed, its steps, and a
//! score on the scale of the crate README, with a level.

use std::fmt;

use sudoku_core::{Deadline, Puzzle};

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

/// Rates `puzzle` with every rule (the default configuration).
pub fn rate(puzzle: &Puzzle) -> Rating {
    let mut deadline = Deadline::new(&sudoku_core::Budget::unlimited(), 1024);
    Rating::of(&trace(puzzle, &LogicConfig::default(), &mut deadline))
}
