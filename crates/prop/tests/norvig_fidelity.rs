//! `norvig` searches exactly as Peter Norvig's own sudoku.py does: the same number of search
//! nodes and branching nodes, and the same solution, on fixed puzzles of his three sets.
//!
//! The known values are his: they were obtained by running his unchanged sudoku.py (py/sudoku.py
//! of github.com/norvig/pytudes) through scripts/adapters/norvig_original.py, which counts the
//! calls of his `search` (nodes: the root and every child tried) and those that branched
//! (guesses), e.g.
//!   echo PUZZLE | NORVIG_SUDOKU_PY=sudoku.py python3 scripts/adapters/norvig_original.py
//! scripts/experiments/fidelity-norvig.toml compares all 156 puzzles of the three sets.

mod common;

use common::{line_puzzle, solve_verified};
use sudoku_core::{format, rng_from_seed, Budget, Solver, Status, Variant};
use sudoku_prop::Norvig;

/// (set and line, puzzle, his nodes, his guesses, his solution).
const HIS: [(&str, &str, u64, u64, &str); 5] = [
    (
        "norvig_easy50.txt:1",
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        1,
        0,
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382",
    ),
    (
        "norvig_top95.txt:1",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        26,
        15,
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
    ),
    (
        "norvig_top95.txt:4",
        "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
        219,
        107,
        "487312695593684271126597384735849162914265837268731549851476923379128456642953718",
    ),
    (
        "norvig_top95.txt:49",
        "2.3.8....8..7...........1...6.5.7...4......3....1............82.5....6...1.......",
        447,
        225,
        "273681495891754263546392178169537824485269731327148956734916582958423617612875349",
    ),
    (
        "norvig_hardest.txt:1",
        "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
        9,
        4,
        "859612437723854169164379528986147352375268914241593786432981675617425893598736241",
    ),
];

#[test]
fn the_same_nodes_guesses_and_solution_as_norvigs_own_code() {
    let mut norvig = Norvig::new();
    for (name, puzzle, nodes, guesses, solution) in HIS {
        let p = line_puzzle(puzzle, Variant::Classic);
        let out = norvig.solve(&p, &Budget::unlimited(), &mut rng_from_seed(0));
        assert_eq!(
            (out.stats.nodes, out.stats.guesses),
            (nodes, guesses),
            "{name}: (nodes, guesses) differ from Norvig's"
        );
        let Status::Solved(grid) = out.status else {
            panic!("{name}: not solved: {:?}", out.status)
        };
        assert_eq!(format::to_line(&grid).unwrap(), solution, "{name}");
        assert_eq!(solve_verified(&mut norvig, &p), grid, "{name}: repeatable");
    }
}

#[test]
fn contradictory_givens_are_one_node_as_in_his_code() {
    // His parse_grid fails on the second 1 of the first row, and search(False) is one call.
    let p = line_puzzle(&format!("11{}", ".".repeat(79)), Variant::Classic);
    let out = Norvig::new().solve(&p, &Budget::unlimited(), &mut rng_from_seed(0));
    assert_eq!(out.status, Status::Infeasible);
    assert_eq!((out.stats.nodes, out.stats.guesses), (1, 0));
}
