//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Count, CountOutcome, Grid, Puzzle, Solver,
    Status, Variant,
};
use sudoku_prop::{Norvig, Prop, PropConfig};

/// Both methods, with `prop` in its default configuration.
pub fn both() -> Vec<Box<dyn Solver>> {
    vec![Box::new(Norvig::new()), Box::new(Prop::default())]
}

/// `norvig` and `prop` under every combination of its rule switches.
pub fn every_config() -> Vec<Box<dyn Solver>> {
    let mut v: Vec<Box<dyn Solver>> = vec![Box::new(Norvig::new())];
    for locked_candidates in [false, true] {
        for naked_pairs in [false, true] {
            v.push(Box::new(Prop::new(PropConfig {
                locked_candidates,
                naked_pairs,
            })));
        }
    }
    v
}

/// A puzzle from one line of text.
pub fn line_puzzle(line: &str, variant: Variant) -> Puzzle {
    let grid = format::parse_str(line, "test").unwrap().remove(0).grid;
    Puzzle::new(grid, variant)
}

/// Solves without limits and checks the answer with the core verifier.
pub fn solve_verified(solver: &mut dyn Solver, puzzle: &Puzzle) -> Grid {
    let out = solver.solve(puzzle, &Budget::unlimited(), &mut rng_from_seed(0));
    match out.status {
        Status::Solved(g) => {
            if let Err(e) = verify_solution(puzzle, &g) {
                panic!("{} returned a wrong answer: {e}", solver.name());
            }
            g
        }
        other => panic!("{} did not solve: {other:?}", solver.name()),
    }
}
/// The shared datasets directory beside the repository, if present.
pub fn datasets() -> Option<PathBuf> {
    sudoku_fixtures::public_dir()
}

/// The puzzles of a dataset file, or `None` (with a printed reason) when it is absent.
pub fn dataset(name: &str) -> Option<Vec<Grid>> {
    sudoku_fixtures::public_grids(name).expect("dataset parses")
}

/// `solver`'s count of `puzzle` with no budget and seed 0 (the methods here are deterministic).
pub fn count<S: Solver + ?Sized>(solver: &mut S, puzzle: &Puzzle, ask: Count) -> CountOutcome {
    solver
        .count(puzzle, ask, &Budget::unlimited(), &mut rng_from_seed(0))
        .expect("a complete method counts")
}
