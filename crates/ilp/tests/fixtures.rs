//! The papers' puzzles (read from `datasets/seeds/`), stand-ins for the figures lost from
//! their text, and solver helpers shared by the integration tests.
#![allow(dead_code)]

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Grid, Outcome, Puzzle, Solver, Status, Variant,
};
use sudoku_fixtures::{seed_grid, seed_grids, seed_pairs, seed_puzzle, seed_puzzles};
use sudoku_ilp::{IlpConfig, IlpSolver, ModelKind, Objective, Search};

/// the JuMP notebook (JuMP notebook), the four 9×9 puzzles and the solutions it prints.
pub fn jump_9x9() -> Vec<(Puzzle, Grid)> {
    seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads")
}

/// the JuMP notebook's 25×25 puzzle and the first ten rows of its solution (250 cells): the notebook's
/// printout stops there.
pub fn jump_25x25() -> (Puzzle, Vec<u16>) {
    let p = seed_puzzles("001_jump.25x25.txt", Variant::Classic).expect("the JuMP notebook loads");
    let partial =
        seed_grids("001_jump.25x25.partial_solutions.txt").expect("the JuMP notebook loads");
    (p[0].clone(), partial[0].cells()[..250].to_vec())
}

const MULTIPLE: &str = "000_unicamp_ilp.multiple.txt";
const MULTIPLE_SOLUTIONS: &str = "000_unicamp_ilp.multiple.solutions.txt";

/// Raimundo et al., Figure 9: a 9×9 with exactly two solutions (r1c1/r1c2 and r7c1/r7c2 swap
/// 1 and 2).
pub fn fig9() -> Puzzle {
    seed_puzzle(MULTIPLE, "Figure 9", Variant::Classic).expect("Figure 9 loads")
}

/// Raimundo et al., Figure 10(a): the solution chosen by Z1 = −x(1,1,1).
pub fn fig10a() -> Grid {
    seed_grid(MULTIPLE_SOLUTIONS, "Figure 10a").expect("Figure 10a loads")
}

/// Raimundo et al., Figure 10(b): the solution chosen by Z2 = x(1,1,1).
pub fn fig10b() -> Grid {
    seed_grid(MULTIPLE_SOLUTIONS, "Figure 10b").expect("Figure 10b loads")
}

/// Raimundo et al., Figure 7: a classic solution of Figure 5a, which has 1 at r1c1 and r9c9 (both
/// on the main diagonal). Figures 4 and 5 themselves were images and are lost from the text.
pub fn fig7() -> Grid {
    seed_grid("000_unicamp_ilp.full_grids.txt", "Figure 7").expect("Figure 7 loads")
}

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
    let mut g = fig9().givens().clone();
    g.set(0, 1);
    g.set(1, 1);
    Puzzle::new(g, Variant::Classic)
}

/// Stand-in for Figure 5 (feasible as classic, two 1s on the main diagonal): some cells of
/// Figure 7 including r1c1 = 1 and r9c9 = 1, as a diagonal puzzle.
pub fn fig5_equivalent(variant: Variant) -> Puzzle {
    let full = fig7();
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
