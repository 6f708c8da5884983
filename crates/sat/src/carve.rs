//! Uniqueness checks for carving, in one solver call each.
//!
//! A carver removes clues one at a time from a puzzle whose only solution it knows, and asks
//! each time whether another solution appeared. Another solution of the puzzle without clue
//! `c` must differ from the known one at `c` (if it agreed there, it would solve the puzzle
//! before the removal, which had only the known one). So instead of counting to 2 (find a
//! solution, block it, search again), one search suffices: the puzzle's CNF plus the clause
//! "some removed cell is not its known digit". When unit propagation at encoding time already
//! fixes every removed cell to its known digit, the answer comes without searching.
//! (Keeping one CaDiCaL instance across checks, the clues as assumptions, was tried and was
//! slower: docs/notes/proper-puzzles.md.)

use std::time::Instant;

use sudoku_core::{Budget, CountEnd, CountOutcome, Limit, OtherSolution, Stats};

use crate::config::SatConfig;
use crate::encode::Layout;
use crate::session::{Answer, Session, CADICAL_VERSION};

/// The clause "some removed cell is not its known digit", over the variables `layout` kept.
pub(crate) fn differs(ask: OtherSolution<'_>, layout: &Layout) -> Vec<i32> {
    ask.removed
        .iter()
        .filter_map(|&c| layout.var(c, ask.solution.get(c)))
        .map(|v| -v)
        .collect()
}

/// Counts to 2 the solutions of `puzzle`, knowing that `solution` is one and the only one
/// that agrees with it on the cells of `removed` (see the module doc).
pub(crate) fn count_other(ask: OtherSolution<'_>, cfg: SatConfig, budget: &Budget) -> CountOutcome {
    let start = Instant::now();
    let deadline = budget.deadline(start);
    let mut session = match Session::new(ask.puzzle, cfg, deadline) {
        Ok(s) => s,
        Err(e) => {
            let stats = Stats {
                error: Some(e.to_string()),
                ..Stats::default()
            };
            return outcome(0, CountEnd::Exhausted(Limit::Nodes), stats);
        }
    };
    let layout = session.layout();
    let differs = differs(ask, layout);
    let mut stats = Stats {
        build_time: Some(session.build_time()),
        extra: vec![("solver".into(), format!("cadical {CADICAL_VERSION}"))],
        ..Stats::default()
    };
    // The encoding drops the variables propagation fixed: a removed cell without its known
    // digit's variable is fixed to it (or the puzzle is infeasible, which the premise rules
    // out), so when every removed cell is (`differs` is empty), no other solution exists.
    if layout.infeasible || differs.is_empty() {
        session.release(false);
        return outcome(1, CountEnd::Complete, stats);
    }
    session.add_clause(&differs);
    let answer = session.solve(budget.nodes, deadline);
    stats.nodes = session.conflicts();
    stats.solve_time = Some(session.solve_time());
    stats
        .extra
        .push(("conflicts".into(), stats.nodes.to_string()));
    session.release(false);
    match answer {
        Answer::Unsat => outcome(1, CountEnd::Complete, stats),
        Answer::Found(_) => outcome(2, CountEnd::LimitReached, stats),
        Answer::Stopped(limit) => outcome(1, CountEnd::Exhausted(limit), stats),
    }
}

/// A count to 2 without the solutions.
pub(crate) fn outcome(count: u64, end: CountEnd, stats: Stats) -> CountOutcome {
    CountOutcome {
        count,
        end,
        solutions: Vec::new(),
        stats,
    }
}
