//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use sudoku_core::{format, Grid, MethodInfo, Params, Puzzle, Solver, Variant};

/// Every registered method, built with default parameters, plus `backtrack-bits` in its
/// row-major mode, each with a label.
pub fn all_solvers() -> Vec<(String, Box<dyn Solver + Send>)> {
    let mut out: Vec<(String, Box<dyn Solver + Send>)> = sudoku_baselines::methods()
        .iter()
        .map(|m: &MethodInfo| {
            (
                m.name.to_string(),
                (m.build)(&Params::new()).expect("defaults are valid"),
            )
        })
        .collect();
    let mut p = Params::new();
    p.set("select", "row-major");
    out.push((
        "backtrack-bits select=row-major".to_string(),
        Box::new(sudoku_baselines::BitsBacktrack::new(
            sudoku_baselines::Select::RowMajor,
        )),
    ));
    out
}

/// One puzzle from a line (or block) of text.
pub fn grid(text: &str) -> Grid {
    format::parse_str(text, "test")
        .expect("test literal parses")
        .remove(0)
        .grid
}

pub fn classic(text: &str) -> Puzzle {
    Puzzle::new(grid(text), Variant::Classic)
}
/// The shared datasets directory beside the repository, if present.
pub fn datasets() -> Option<PathBuf> {
    sudoku_fixtures::public_dir()
}

/// The puzzles of a dataset file, or `None` (with a printed reason) when it is absent.
pub fn dataset(name: &str) -> Option<Vec<Grid>> {
    sudoku_fixtures::public_grids(name).expect("dataset parses")
}

/// The sample size for a dataset test: `n` in release builds, a third of it in debug builds
/// (unoptimised search is 10–30× slower, and `cargo test` without `--release` should stay
/// quick).
pub fn sample(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n.div_ceil(3)
    } else {
        n
    }
}
