//! Known answers from the seed papers: the JuMP notebook's puzzles (001) and the two-solution
//! puzzle of the first seed paper's Figure 9 (000), solved and counted by both methods.

mod common;

use common::{both, line_puzzle, solve_verified};
use sudoku_core::{format, rng_from_seed, Budget, CountEnd, Puzzle, Solver, Variant};

/// The four 9×9 instances of the JuMP seed (001) and the solutions printed there.
const JUMP_9: [(&str, &str); 4] = [
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

/// Figure 9 of seed 000: r1c1, r1c2, r7c1 and r7c2 are blank; 1 and 2 go there either way.
const FIGURE_9: &str = "\
..6958437
875643912
349127865
481295376
937816254
652374189
..8769543
794531628
563482791";

/// The two solutions the paper prints in Figure 10 (a) and (b): they differ in those four
/// cells only.
const FIGURE_10: [&str; 2] = [
    "126958437875643912349127865481295376937816254652374189218769543794531628563482791",
    "216958437875643912349127865481295376937816254652374189128769543794531628563482791",
];

#[test]
fn jump_9x9_puzzles_have_the_printed_solutions() {
    for (givens, solution) in JUMP_9 {
        let puzzle = line_puzzle(givens, Variant::Classic);
        for solver in both().iter_mut() {
            let answer = solve_verified(solver.as_mut(), &puzzle);
            assert_eq!(
                format::to_line(&answer).unwrap(),
                solution,
                "{}",
                solver.name()
            );
            let count = solver
                .count(
                    &puzzle,
                    2,
                    false,
                    &Budget::unlimited(),
                    &mut rng_from_seed(0),
                )
                .unwrap();
            assert_eq!((count.count, count.end), (1, CountEnd::Complete));
        }
    }
}

#[test]
fn figure_9_has_exactly_the_two_solutions_of_figure_10() {
    let grid = format::parse_str(&FIGURE_9.replace('\n', ""), "figure 9")
        .unwrap()
        .remove(0)
        .grid;
    assert_eq!(grid.filled(), 77);
    let puzzle = Puzzle::new(grid, Variant::Classic);
    for solver in both().iter_mut() {
        let out = solver
            .count(
                &puzzle,
                10,
                true,
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
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
        assert_eq!(lines, FIGURE_10);
        // With the limit at 2 the search stops at the second one.
        let out = solver
            .count(
                &puzzle,
                2,
                false,
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
        assert_eq!((out.count, out.end), (2, CountEnd::LimitReached));
        assert!(out.solutions.is_empty());
    }
}
/// The 25×25 instance of the JuMP seed (001), as a grid block (0 = empty).
const JUMP_25: &str = "\
2 0 0 0 6 24 9 16 20 3 0 4 23 0 11 13 0 10 17 0 0 14 0 19 5
16 1 22 0 5 23 19 0 0 0 12 2 0 0 25 11 0 0 0 9 0 0 18 21 6
0 24 0 0 0 4 0 8 0 0 16 19 18 5 3 0 0 12 0 6 0 0 9 1 25
11 0 23 0 0 10 0 1 0 25 6 17 20 0 13 4 0 2 22 0 0 0 0 16 24
8 0 13 21 3 0 6 18 0 17 0 9 22 0 14 1 0 5 0 25 7 0 0 0 0
24 0 0 0 15 7 0 3 16 20 0 0 21 10 2 0 1 0 11 8 25 0 0 4 0
25 0 0 23 0 21 0 0 0 19 24 0 3 6 0 17 0 0 18 16 9 2 0 0 0
0 21 19 0 10 0 4 0 15 0 5 18 25 23 12 0 0 13 0 20 11 0 0 14 0
22 13 20 17 0 6 0 0 25 0 19 11 14 0 4 0 2 21 0 23 0 8 15 0 0
0 0 6 0 0 17 14 13 22 9 0 0 0 16 0 0 0 25 0 0 24 19 3 23 0
10 0 2 9 11 8 17 0 0 16 0 0 7 0 0 22 0 0 13 0 0 25 20 18 15
13 0 0 0 22 0 0 21 0 1 0 0 0 0 15 0 0 0 0 5 2 12 0 0 19
1 0 15 8 14 22 25 23 7 11 0 6 2 0 10 0 20 0 21 0 0 24 5 0 0
0 20 0 25 0 5 0 15 19 2 0 16 11 0 24 6 0 18 8 17 23 9 0 22 0
21 6 18 19 0 20 12 0 14 0 0 0 17 0 22 0 0 0 0 2 16 7 11 0 1
0 0 0 0 17 25 2 20 0 10 0 0 0 4 1 0 12 24 0 15 22 5 0 0 0
5 2 24 0 25 0 8 19 0 7 9 10 12 0 6 3 0 4 0 13 0 0 0 0 0
4 3 0 6 20 0 15 22 0 21 0 25 5 8 0 16 0 0 0 11 0 0 23 12 18
0 23 9 10 19 0 0 0 3 4 0 0 0 22 0 0 5 8 6 1 0 13 16 0 11
0 18 0 0 0 1 0 11 0 14 13 7 19 0 20 2 17 23 10 22 8 0 24 0 0
9 0 0 1 0 0 20 25 0 5 0 0 0 2 16 12 0 0 0 0 4 15 0 11 8
0 0 25 7 0 15 16 0 17 13 14 0 10 20 0 0 0 9 5 0 1 0 21 3 2
23 0 0 2 12 0 0 0 0 6 7 8 0 19 0 18 21 16 24 0 17 0 0 13 9
20 4 14 0 21 0 0 0 0 0 22 15 6 25 0 0 13 0 0 0 0 16 0 0 7
0 8 16 3 0 9 24 0 0 12 0 21 1 17 23 0 0 0 2 0 6 22 14 0 10
";

/// The first ten rows of its solution as printed in the seed (the rest is cut off there).
const JUMP_25_ROWS: [&str; 10] = [
    "2 25 12 18 6 24 9 16 20 3 1 4 23 7 11 13 8 10 17 21 15 14 22 19 5",
    "16 1 22 4 5 23 19 14 13 15 12 2 8 24 25 11 3 20 7 9 10 17 18 21 6",
    "17 24 10 20 7 4 21 8 2 22 16 19 18 5 3 14 23 12 15 6 13 11 9 1 25",
    "11 14 23 15 9 10 7 1 5 25 6 17 20 21 13 4 19 2 22 18 12 3 8 16 24",
    "8 19 13 21 3 11 6 18 12 17 10 9 22 15 14 1 24 5 16 25 7 4 2 20 23",
    "24 9 5 14 15 7 23 3 16 20 17 13 21 10 2 19 1 22 11 8 25 18 6 4 12",
    "25 12 4 23 8 21 1 5 11 19 24 22 3 6 7 17 15 14 18 16 9 2 13 10 20",
    "3 21 19 16 10 2 4 24 15 8 5 18 25 23 12 7 6 13 9 20 11 1 17 14 22",
    "22 13 20 17 1 6 10 12 25 18 19 11 14 9 4 24 2 21 3 23 5 8 15 7 16",
    "18 7 6 11 2 17 14 13 22 9 20 1 15 16 8 5 4 25 12 10 24 19 3 23 21",
];

#[test]
fn jump_25x25_puzzle_matches_the_printed_rows() {
    let grid = format::parse_str(JUMP_25, "jump 25")
        .unwrap()
        .remove(0)
        .grid;
    assert_eq!(grid.size(), 25);
    let puzzle = Puzzle::new(grid, Variant::Classic);
    let mut prop = sudoku_prop::Prop::default();
    let answer = solve_verified(&mut prop, &puzzle);
    for (r, row) in JUMP_25_ROWS.iter().enumerate() {
        let expected: Vec<u16> = row.split(' ').map(|x| x.parse().unwrap()).collect();
        assert_eq!(
            &answer.cells()[r * 25..(r + 1) * 25],
            &expected[..],
            "row {}",
            r + 1
        );
    }
    let count = prop
        .count(
            &puzzle,
            2,
            false,
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap();
    assert_eq!((count.count, count.end), (1, CountEnd::Complete));
}
