//! `logic=`: the rules of `sudoku-logic` run on the puzzle before it is encoded. They are
//! sound (every solution survives them), so what they place is fixed and what they eliminate
//! needs no variable, and counts stay exact.

use std::time::{Duration, Instant};

use sudoku_core::{Budget, Deadline, Puzzle};
use sudoku_logic::{trace, End, LogicConfig, RuleSet};

/// What the rules left.
pub(crate) enum Reduced {
    /// The puzzle with the digits the rules placed as givens, and the candidates of every cell
    /// (empty for filled ones).
    Open {
        puzzle: Puzzle,
        candidates: Vec<Vec<u16>>,
    },
    /// The rules met a contradiction: no solution.
    Contradiction,
    /// No rules were run, or the deadline passed before they finished: encode the puzzle as
    /// it is.
    Unchanged,
}

/// Runs `rules` on `puzzle` to a fixpoint (or until `deadline`), and says how long it took.
pub(crate) fn reduce(
    puzzle: &Puzzle,
    rules: RuleSet,
    deadline: Option<Instant>,
) -> (Reduced, Duration) {
    let start = Instant::now();
    let budget = Budget {
        time: deadline.map(|d| d.saturating_duration_since(start)),
        ..Budget::unlimited()
    };
    let config = LogicConfig {
        rules,
        ..LogicConfig::default()
    };
    let run = trace(puzzle, &config, &mut Deadline::new(&budget, 16));
    let reduced = match run.end {
        End::Solved(grid) => Reduced::Open {
            candidates: vec![Vec::new(); grid.cells().len()],
            puzzle: Puzzle::new(grid, puzzle.variant()),
        },
        End::Stuck { grid, candidates } => Reduced::Open {
            puzzle: Puzzle::new(grid, puzzle.variant()),
            candidates,
        },
        End::Contradiction => Reduced::Contradiction,
        End::Timeout => Reduced::Unchanged,
    };
    (reduced, start.elapsed())
}
