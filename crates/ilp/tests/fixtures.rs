//! Puzzles transcribed from the seed papers, as literals.
#![allow(dead_code)]

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Grid, Outcome, Puzzle, Solver, Status, Variant,
};
use sudoku_ilp::{IlpConfig, IlpSolver, ModelKind, Objective, Search};

/// Seed 001 (JuMP notebook), the four 9×9 puzzles and the solutions it prints.
pub const JUMP_9X9: [(&str, &str); 4] = [
    (
        "..6......92...34......8...156..3..8...7...5....4..6...7...........9...4.35...29..",
        "186427395925163478473589621561234789237891564894756132749318256612975843358642917",
    ),
    (
        "8.5..93..2...........6....9.4....2..9.3..68......1..7..2...5...5.47...8..6....4..",
        "875129364296543718431687529147958236953276841682314975328465197514792683769831452",
    ),
    (
        "3156....4.9....2..2..59..13.6.175...18.3..7..53..4..96.29.51.78....3..2.743..25..",
        "315627984496813257278594613964175832182369745537248196629451378851736429743982561",
    ),
    (
        ".9.8.74....5....6.....2........9.2..6..2.1.4..1..3....9.......7.7.1.48.......3...",
        "396817425825349761741625389458796213637251948219438576964582137573164892182973654",
    ),
];

/// Seed 001's 25×25 puzzle (block format, 0 = empty).
pub const JUMP_25X25: &str = "
 2  0  0  0  6 24  9 16 20  3  0  4 23  0 11 13  0 10 17  0  0 14  0 19  5
16  1 22  0  5 23 19  0  0  0 12  2  0  0 25 11  0  0  0  9  0  0 18 21  6
 0 24  0  0  0  4  0  8  0  0 16 19 18  5  3  0  0 12  0  6  0  0  9  1 25
11  0 23  0  0 10  0  1  0 25  6 17 20  0 13  4  0  2 22  0  0  0  0 16 24
 8  0 13 21  3  0  6 18  0 17  0  9 22  0 14  1  0  5  0 25  7  0  0  0  0
24  0  0  0 15  7  0  3 16 20  0  0 21 10  2  0  1  0 11  8 25  0  0  4  0
25  0  0 23  0 21  0  0  0 19 24  0  3  6  0 17  0  0 18 16  9  2  0  0  0
 0 21 19  0 10  0  4  0 15  0  5 18 25 23 12  0  0 13  0 20 11  0  0 14  0
22 13 20 17  0  6  0  0 25  0 19 11 14  0  4  0  2 21  0 23  0  8 15  0  0
 0  0  6  0  0 17 14 13 22  9  0  0  0 16  0  0  0 25  0  0 24 19  3 23  0
10  0  2  9 11  8 17  0  0 16  0  0  7  0  0 22  0  0 13  0  0 25 20 18 15
13  0  0  0 22  0  0 21  0  1  0  0  0  0 15  0  0  0  0  5  2 12  0  0 19
 1  0 15  8 14 22 25 23  7 11  0  6  2  0 10  0 20  0 21  0  0 24  5  0  0
 0 20  0 25  0  5  0 15 19  2  0 16 11  0 24  6  0 18  8 17 23  9  0 22  0
21  6 18 19  0 20 12  0 14  0  0  0 17  0 22  0  0  0  0  2 16  7 11  0  1
 0  0  0  0 17 25  2 20  0 10  0  0  0  4  1  0 12 24  0 15 22  5  0  0  0
 5  2 24  0 25  0  8 19  0  7  9 10 12  0  6  3  0  4  0 13  0  0  0  0  0
 4  3  0  6 20  0 15 22  0 21  0 25  5  8  0 16  0  0  0 11  0  0 23 12 18
 0 23  9 10 19  0  0  0  3  4  0  0  0 22  0  0  5  8  6  1  0 13 16  0 11
 0 18  0  0  0  1  0 11  0 14 13  7 19  0 20  2 17 23 10 22  8  0 24  0  0
 9  0  0  1  0  0 20 25  0  5  0  0  0  2 16 12  0  0  0  0  4 15  0 11  8
 0  0 25  7  0 15 16  0 17 13 14  0 10 20  0  0  0  9  5  0  1  0 21  3  2
23  0  0  2 12  0  0  0  0  6  7  8  0 19  0 18 21 16 24  0 17  0  0 13  9
20  4 14  0 21  0  0  0  0  0 22 15  6 25  0  0 13  0  0  0  0 16  0  0  7
 0  8 16  3  0  9 24  0  0 12  0 21  1 17 23  0  0  0  2  0  6 22 14  0 10
";

/// The first ten rows of the 25×25 solution: the notebook's printout stops there.
pub const JUMP_25X25_FIRST_ROWS: &str = "
 2 25 12 18  6 24  9 16 20  3  1  4 23  7 11 13  8 10 17 21 15 14 22 19  5
16  1 22  4  5 23 19 14 13 15 12  2  8 24 25 11  3 20  7  9 10 17 18 21  6
17 24 10 20  7  4 21  8  2 22 16 19 18  5  3 14 23 12 15  6 13 11  9  1 25
11 14 23 15  9 10  7  1  5 25  6 17 20 21 13  4 19  2 22 18 12  3  8 16 24
 8 19 13 21  3 11  6 18 12 17 10  9 22 15 14  1 24  5 16 25  7  4  2 20 23
24  9  5 14 15  7 23  3 16 20 17 13 21 10  2 19  1 22 11  8 25 18  6  4 12
25 12  4 23  8 21  1  5 11 19 24 22  3  6  7 17 15 14 18 16  9  2 13 10 20
 3 21 19 16 10  2  4 24 15  8  5 18 25 23 12  7  6 13  9 20 11  1 17 14 22
22 13 20 17  1  6 10 12 25 18 19 11 14  9  4 24  2 21  3 23  5  8 15  7 16
18  7  6 11  2 17 14 13 22  9 20  1 15 16  8  5  4 25 12 10 24 19  3 23 21
";

/// Seed 000, Figure 9: a 9×9 with exactly two solutions (r1c1/r1c2 and r7c1/r7c2 swap
/// 1 and 2).
pub const FIG9: &str =
    "..6958437875643912349127865481295376937816254652374189..8769543794531628563482791";
/// Seed 000, Figure 10(a): the solution chosen by Z1 = −x(1,1,1).
pub const FIG10A: &str =
    "126958437875643912349127865481295376937816254652374189218769543794531628563482791";
/// Seed 000, Figure 10(b): the solution chosen by Z2 = x(1,1,1).
pub const FIG10B: &str =
    "216958437875643912349127865481295376937816254652374189128769543794531628563482791";

/// Seed 000, Figure 7: a classic solution of Figure 5a, which has 1 at r1c1 and r9c9 (both
/// on the main diagonal). Figures 4 and 5 themselves were images and are lost from the text.
pub const FIG7: &str =
    "149765283867392514352418967598673142621849735473521896716954328285136479934287651";

pub fn grid(text: &str) -> Grid {
    format::parse_str(text, "fixture")
        .expect("fixture parses")
        .remove(0)
        .grid
}

pub fn puzzle(text: &str, variant: Variant) -> Puzzle {
    Puzzle::new(grid(text), variant)
}

/// Stand-in for Figure 4 (two 1s in the first row): Figure 9's givens with r1c1 = 1 and
/// r1c2 = 1.
pub fn fig4_equivalent() -> Puzzle {
    let mut g = grid(FIG9);
    g.set(0, 1);
    g.set(1, 1);
    Puzzle::new(g, Variant::Classic)
}

/// Stand-in for Figure 5 (feasible as classic, two 1s on the main diagonal): some cells of
/// Figure 7 including r1c1 = 1 and r9c9 = 1, as a diagonal puzzle.
pub fn fig5_equivalent(variant: Variant) -> Puzzle {
    let full = grid(FIG7);
    let mut g = Grid::empty(full.order());
    for c in [0, 10, 20, 30, 40, 44, 50, 60, 70, 80, 8, 72] {
        g.set(c, full.get(c));
    }
    Puzzle::new(g, variant)
}

/// An infeasible puzzle without a repeated given: row 1 holds 2..=9, so r1c1 must be 1, but
/// column 1 already has a 1 (r2c1).
pub fn hidden_contradiction() -> Puzzle {
    puzzle(
        ".234567891.......................................................................",
        Variant::Classic,
    )
}

/// The grid of a solved outcome, checked against its puzzle.
pub fn solved(out: &Outcome, p: &Puzzle) -> Grid {
    match &out.status {
        Status::Solved(g) => {
            verify_solution(p, g).expect("every answer verifies");
            g.clone()
        }
        other => panic!("expected a solution, got {other:?} ({:?})", out.stats.extra),
    }
}

/// One `extra` statistic of an outcome.
pub fn extra<'a>(out: &'a Outcome, key: &str) -> Option<&'a str> {
    out.stats
        .extra
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Both model builds, for tests that run each.
pub const BUILDS: [ModelKind; 2] = [ModelKind::Full, ModelKind::Reduced];

/// CBC's branch and cut, or this crate's depth-first search over CBC's LPs.
pub fn searching(objective: Objective, model: ModelKind, search: Search) -> IlpSolver {
    IlpSolver::new(IlpConfig {
        objective,
        model,
        search,
        ..IlpConfig::default()
    })
}

/// Solves with no budget and a fixed seed.
pub fn solve(s: &mut IlpSolver, p: &Puzzle) -> Outcome {
    s.solve(p, &Budget::unlimited(), &mut rng_from_seed(7))
}
