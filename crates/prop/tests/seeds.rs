//! Known answers from the papers: the JuMP notebook's puzzles (001) and the two-solution
//! puzzle of Figure 9 of Raimundo et al. (unicamp-ilp), solved and counted by both methods.

mod common;

use common::{both, solve_verified};
use sudoku_core::{format, Count, CountEnd, Puzzle, Variant};
use sudoku_fixtures::{seed_grid, seed_grids, seed_pairs, seed_puzzles};

/// The two-solution puzzle of Raimundo et al. (Figure 9) and its solutions (Figures 10a, 10b).
const MULTIPLE: &str = "000_unicamp_ilp.multiple.txt";
const MULTIPLE_SOLUTIONS: &str = "000_unicamp_ilp.multiple.solutions.txt";

#[test]
fn jump_9x9_puzzles_have_the_printed_solutions() {
    for (puzzle, solution) in seed_pairs("001_jump", Variant::Classic).unwrap() {
        for solver in both().iter_mut() {
            let answer = solve_verified(solver.as_mut(), &puzzle);
            assert_eq!(
                format::to_line(&answer).unwrap(),
                format::to_line(&solution).unwrap(),
                "{}",
                solver.name()
            );
            let count = common::count(&mut **solver, &puzzle, Count::upto(2));
            assert_eq!((count.count, count.end), (1, CountEnd::Complete));
        }
    }
}

#[test]
fn figure_9_has_exactly_the_two_solutions_of_figure_10() {
    // r1c1, r1c2, r7c1 and r7c2 are blank; 1 and 2 go there either way.
    let grid = seed_grid(MULTIPLE, "Figure 9").unwrap();
    assert_eq!(grid.filled(), 77);
    // The two solutions the paper prints: they differ in those four cells only.
    let figure_10: Vec<String> = ["Figure 10a", "Figure 10b"]
        .map(|label| format::to_line(&seed_grid(MULTIPLE_SOLUTIONS, label).unwrap()).unwrap())
        .to_vec();
    let puzzle = Puzzle::new(grid, Variant::Classic);
    for solver in both().iter_mut() {
        let out = common::count(&mut **solver, &puzzle, Count::collecting(10));
        assert_eq!(
            (out.count, out.end),
            (2, CountEnd::Complete),
            "{}",
            solver.name()
        );
        let mut lines: Vec<String> = out
            .solutions
            .iter()
            .map(|g| {
                sudoku_core::verify_solution(&puzzle, g).unwrap();
                format::to_line(g).unwrap()
            })
            .collect();
        lines.sort();
        assert_eq!(lines, figure_10);
        // With the limit at 2 the search stops at the second one.
        let out = common::count(&mut **solver, &puzzle, Count::upto(2));
        assert_eq!((out.count, out.end), (2, CountEnd::LimitReached));
        assert!(out.solutions.is_empty());
    }
}
#[test]
fn jump_25x25_puzzle_matches_the_printed_rows() {
    let puzzle = seed_puzzles("001_jump.25x25.txt", Variant::Classic).unwrap()[0].clone();
    assert_eq!(puzzle.givens().size(), 25);
    // The first ten rows of its solution as printed in the seed (the rest is cut off there).
    let printed = seed_grids("001_jump.25x25.partial_solutions.txt").unwrap()[0].clone();
    let mut prop = sudoku_prop::Prop::default();
    let answer = solve_verified(&mut prop, &puzzle);
    for r in 0..10 {
        assert_eq!(
            &answer.cells()[r * 25..(r + 1) * 25],
            &printed.cells()[r * 25..(r + 1) * 25],
            "row {}",
            r + 1
        );
    }
    let count = common::count(&mut prop, &puzzle, Count::upto(2));
    assert_eq!((count.count, count.end), (1, CountEnd::Complete));
}
