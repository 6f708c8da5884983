//! Every method against the same fixtures: known solutions, known counts, known infeasibility,
//! budgets, the diagonal variant, and the registry.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use common::{all_solvers, classic};
use sudoku_baselines::{Backtrack, Dlx};
use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Limit, Order, Puzzle, Solver,
    Status, Variant,
};
use sudoku_fixtures::{seed_grids, seed_pairs, seed_puzzle, seed_puzzles};

/// The four 9×9 puzzles of the JuMP seed notebook (the JuMP notebook, cells In [4]–In [7]) and the
/// solutions printed there.
fn jump_9x9() -> Vec<(Puzzle, Grid)> {
    seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads")
}

/// A puzzle made to defeat row-major backtracking (its first row is empty and the solution's
/// first row is 987654321); it needs hundreds of millions of nodes.
const ANTI_BACKTRACK: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

fn solved(out: &sudoku_core::Outcome, who: &str) -> Grid {
    match &out.status {
        Status::Solved(g) => g.clone(),
        other => panic!("{who}: expected a solution, got {other:?}"),
    }
}

#[test]
fn jump_puzzles_match_the_printed_solutions() {
    let mut rng = rng_from_seed(0);
    for (name, mut s) in all_solvers() {
        for (i, (puzzle, sol)) in jump_9x9().iter().enumerate() {
            let out = s.solve(puzzle, &Budget::unlimited(), &mut rng);
            let g = solved(&out, &name);
            verify_solution(puzzle, &g).unwrap();
            assert_eq!(&g, sol, "{name} on JuMP puzzle {}", i + 1);
            assert!(out.stats.nodes > 0, "{name} reports nodes");
            let c = s
                .count(puzzle, Count::upto(2), &Budget::unlimited(), &mut rng)
                .unwrap();
            assert_eq!((c.count, c.end), (1, CountEnd::Complete), "{name} unique");
            assert!(c.solutions.is_empty(), "not collected");
        }
    }
}

#[test]
fn empty_4x4_has_288_solutions() {
    let mut rng = rng_from_seed(0);
    let puzzle = Puzzle::empty(Order::new(2).unwrap(), Variant::Classic);
    for (name, mut s) in all_solvers() {
        let c = s
            .count(
                &puzzle,
                Count::collecting(1000),
                &Budget::unlimited(),
                &mut rng,
            )
            .unwrap();
        assert_eq!((c.count, c.end), (288, CountEnd::Complete), "{name}");
        let distinct: HashSet<_> = c.solutions.iter().collect();
        assert_eq!(distinct.len(), 288, "{name} collects distinct grids");
        for g in &c.solutions {
            verify_solution(&puzzle, g).unwrap();
        }
        // A limit below the count stops there.
        let c = s
            .count(&puzzle, Count::upto(100), &Budget::unlimited(), &mut rng)
            .unwrap();
        assert_eq!((c.count, c.end), (100, CountEnd::LimitReached), "{name}");
        let c = s
            .count(&puzzle, Count::upto(0), &Budget::unlimited(), &mut rng)
            .unwrap();
        assert_eq!(c.count, 0, "{name}");
    }
}

#[test]
fn diagonal_4x4_count_matches_filtering_the_classic_grids() {
    let mut rng = rng_from_seed(0);
    let order = Order::new(2).unwrap();
    let classic_all = Dlx::new()
        .count(
            &Puzzle::empty(order, Variant::Classic),
            Count::collecting(1000),
            &Budget::unlimited(),
            &mut rng,
        )
        .unwrap();
    let diag = Puzzle::empty(order, Variant::Diagonal);
    // Independent of any solver's diagonal handling: the verifier filters the 288 grids.
    let expected: HashSet<Grid> = classic_all
        .solutions
        .into_iter()
        .filter(|g| verify_solution(&diag, g).is_ok())
        .collect();
    assert!(!expected.is_empty() && expected.len() < 288);
    for (name, mut s) in all_solvers() {
        let c = s
            .count(
                &diag,
                Count::collecting(1000),
                &Budget::unlimited(),
                &mut rng,
            )
            .unwrap();
        assert_eq!(c.end, CountEnd::Complete, "{name}");
        let got: HashSet<Grid> = c.solutions.into_iter().collect();
        assert_eq!(got, expected, "{name}");
    }
}

/// Finds a deadly pattern in a full 9×9 grid: rows r1, r2 in one band and columns c1, c2 in
/// different stacks with the digits a/b, b/a at the corners, so that the four cells lie in
/// exactly two blocks and swapping a and b gives a second grid.
fn deadly_rectangle(g: &Grid) -> Option<[(usize, usize); 4]> {
    for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in (c1 / 3 + 1) * 3..9 {
                    if g.at(r1, c1) == g.at(r2, c2) && g.at(r1, c2) == g.at(r2, c1) {
                        return Some([(r1, c1), (r1, c2), (r2, c1), (r2, c2)]);
                    }
                }
            }
        }
    }
    None
}

#[test]
fn a_blanked_deadly_pattern_has_exactly_two_solutions() {
    let mut rng = rng_from_seed(0);
    // Search the four JuMP solutions for a deadly pattern.
    let (full, rect) = jump_9x9()
        .into_iter()
        .find_map(|(_, g)| deadly_rectangle(&g).map(|r| (g, r)))
        .expect("one of the JuMP solutions holds a deadly pattern");
    let mut givens = full.clone();
    for &(r, c) in &rect {
        givens.set(r * 9 + c, 0);
    }
    let puzzle = Puzzle::new(givens, Variant::Classic);
    let mut swapped = full.clone();
    for &(r, c) in &rect {
        let other = if full.at(r, c) == full.at(rect[0].0, rect[0].1) {
            full.at(rect[1].0, rect[1].1)
        } else {
            full.at(rect[0].0, rect[0].1)
        };
        swapped.set(r * 9 + c, other);
    }
    let expected: HashSet<Grid> = [full, swapped].into_iter().collect();
    for (name, mut s) in all_solvers() {
        let c = s
            .count(
                &puzzle,
                Count::collecting(10),
                &Budget::unlimited(),
                &mut rng,
            )
            .unwrap();
        assert_eq!((c.count, c.end), (2, CountEnd::Complete), "{name}");
        let got: HashSet<Grid> = c.solutions.into_iter().collect();
        assert_eq!(got, expected, "{name}");
        let c = s
            .count(&puzzle, Count::upto(2), &Budget::unlimited(), &mut rng)
            .unwrap();
        assert_eq!((c.count, c.end), (2, CountEnd::LimitReached), "{name}");
    }
}

#[test]
fn infeasible_puzzles_are_proved_infeasible() {
    let mut rng = rng_from_seed(0);
    // Two 5s in the first row.
    let contradictory =
        "5...5............................................................................";
    // No duplicate among the givens, and every empty cell has a candidate, but the first row
    // needs 1, 2 and 3 in its first three cells while block 1 already holds 3 below them.
    let hidden =
        "...456789 3........ ......... ......... ......... ......... ......... ......... .........";
    let hidden: String = hidden.split_whitespace().collect();
    // Classic-feasible, but two 1s on the main diagonal (like Raimundo et al.'s figure 5).
    let mut diag_givens = Grid::empty(Order::new(3).unwrap());
    diag_givens.set(0, 1);
    diag_givens.set(4 * 9 + 4, 1);
    let cases = [
        (classic(contradictory), "contradictory givens"),
        (classic(&hidden), "consistent but unsolvable"),
        (
            Puzzle::new(diag_givens.clone(), Variant::Diagonal),
            "diagonal duplicate",
        ),
    ];
    for (name, mut s) in all_solvers() {
        for (puzzle, what) in &cases {
            let out = s.solve(puzzle, &Budget::unlimited(), &mut rng);
            assert_eq!(out.status, Status::Infeasible, "{name}: {what}");
            let c = s
                .count(puzzle, Count::collecting(5), &Budget::unlimited(), &mut rng)
                .unwrap();
            assert_eq!((c.count, c.end), (0, CountEnd::Complete), "{name}: {what}");
        }
        // The same givens are fine without the diagonals.
        let classic_ok = Puzzle::new(diag_givens.clone(), Variant::Classic);
        let out = s.solve(&classic_ok, &Budget::unlimited(), &mut rng);
        verify_solution(&classic_ok, &solved(&out, &name)).unwrap();
    }
}

#[test]
fn full_grid_is_its_own_solution() {
    let mut rng = rng_from_seed(0);
    let full = jump_9x9().swap_remove(0).1;
    let puzzle = Puzzle::new(full.clone(), Variant::Classic);
    for (name, mut s) in all_solvers() {
        let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
        assert_eq!(solved(&out, &name), full, "{name}");
        let c = s
            .count(&puzzle, Count::upto(5), &Budget::unlimited(), &mut rng)
            .unwrap();
        assert_eq!((c.count, c.end), (1, CountEnd::Complete), "{name}");
    }
}

#[test]
fn pure_backtracking_stops_at_its_budget() {
    let mut rng = rng_from_seed(0);
    let puzzle = classic(ANTI_BACKTRACK);
    let mut bt = Backtrack::new();
    let budget = Budget {
        nodes: Some(10_000),
        ..Budget::default()
    };
    let out = bt.solve(&puzzle, &budget, &mut rng);
    assert_eq!(
        out.status,
        Status::Exhausted {
            limit: Limit::Nodes,
            best: None
        }
    );
    assert_eq!(out.stats.nodes, 10_000);
    let out = bt.solve(&puzzle, &Budget::time(Duration::from_millis(2)), &mut rng);
    assert_eq!(
        out.status,
        Status::Exhausted {
            limit: Limit::Time,
            best: None
        }
    );
    let c = bt
        .count(&puzzle, Count::upto(2), &budget, &mut rng)
        .unwrap();
    assert_eq!((c.count, c.end), (0, CountEnd::Exhausted(Limit::Nodes)));
    // The other methods take it in stride, and agree.
    let mut answers = HashSet::new();
    for (name, mut s) in all_solvers() {
        if name == "backtrack" || name.contains("row-major") {
            continue;
        }
        let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
        let g = solved(&out, &name);
        verify_solution(&puzzle, &g).unwrap();
        answers.insert(g);
    }
    assert_eq!(answers.len(), 1);
}

#[test]
fn every_method_honours_a_node_limit() {
    let mut rng = rng_from_seed(0);
    let puzzle = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    let budget = Budget {
        nodes: Some(5),
        ..Budget::default()
    };
    for (name, mut s) in all_solvers() {
        let out = s.solve(&puzzle, &budget, &mut rng);
        assert_eq!(
            out.status,
            Status::Exhausted {
                limit: Limit::Nodes,
                best: None
            },
            "{name}"
        );
        assert_eq!(out.stats.nodes, 5, "{name}");
    }
}

#[test]
fn empty_diagonal_9x9_is_solved() {
    let mut rng = rng_from_seed(0);
    let puzzle = Puzzle::empty(Order::new(3).unwrap(), Variant::Diagonal);
    for (name, mut s) in all_solvers() {
        let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
        let g = solved(&out, &name);
        verify_solution(&puzzle, &g).unwrap();
    }
}

#[test]
fn larger_empty_grids() {
    let mut rng = rng_from_seed(0);
    // Without propagation, the MRV methods have heavy tails on empty grids from 25×25 up
    // (the diagonal 36×36 defeats all but DLX within seconds), so each order gets the methods
    // that fill it quickly.
    for (n, variant, names) in [
        (
            4,
            Variant::Classic,
            &["backtrack", "backtrack-fc", "backtrack-bits", "dlx"][..],
        ),
        (
            4,
            Variant::Diagonal,
            &["backtrack-fc", "backtrack-bits", "dlx"][..],
        ),
        (5, Variant::Classic, &["dlx"][..]),
        (
            5,
            Variant::Diagonal,
            &["backtrack-fc", "backtrack-bits", "dlx"][..],
        ),
        (6, Variant::Classic, &["dlx"][..]),
    ] {
        let puzzle = Puzzle::empty(Order::new(n).unwrap(), variant);
        for (name, mut s) in all_solvers() {
            if !names.contains(&name.as_str()) {
                continue;
            }
            let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
            let g = solved(&out, &name);
            verify_solution(&puzzle, &g)
                .unwrap_or_else(|e| panic!("{name} order {n} {variant}: {e}"));
        }
    }
}

#[test]
fn jump_25x25_is_solved_and_matches_the_printed_rows() {
    let mut rng = rng_from_seed(0);
    let puzzle = seed_puzzles("001_jump.25x25.txt", Variant::Classic).unwrap()[0].clone();
    // The seed prints the first 10 rows of the solution only.
    let rows =
        seed_grids("001_jump.25x25.partial_solutions.txt").unwrap()[0].cells()[..250].to_vec();
    assert_eq!(rows.len(), 250);
    for (name, mut s) in all_solvers() {
        if !["dlx", "backtrack-fc", "backtrack-bits"].contains(&name.as_str()) {
            continue;
        }
        let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
        let g = solved(&out, &name);
        verify_solution(&puzzle, &g).unwrap();
        assert_eq!(&g.cells()[..250], &rows[..], "{name}: the printed rows");
    }
    let c = Dlx::new()
        .count(&puzzle, Count::upto(2), &Budget::unlimited(), &mut rng)
        .unwrap();
    assert_eq!((c.count, c.end), (1, CountEnd::Complete));
}

#[test]
fn an_easy_puzzle_needs_no_guess_and_dlx_builds_only_what_is_open() {
    let mut rng = rng_from_seed(0);
    // JuMP puzzle 3: 38 givens, solvable by singles.
    let puzzle = seed_puzzle("001_jump.txt", "In [6]", Variant::Classic).unwrap();
    let empties = 81 - puzzle.givens().filled() as u64;
    for (name, mut s) in all_solvers() {
        if ["backtrack-fc", "backtrack-bits", "dlx"].contains(&name.as_str()) {
            let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
            assert_eq!((out.stats.nodes, out.stats.guesses), (empties, 0), "{name}");
        }
    }
    let extra = |p: &Puzzle| {
        let out = Dlx::new().solve(p, &Budget::unlimited(), &mut rng_from_seed(0));
        assert!(out.stats.build_time.is_some());
        out.stats.extra
    };
    let pair = |r: usize, c: usize| {
        vec![
            ("rows".to_string(), r.to_string()),
            ("columns".to_string(), c.to_string()),
        ]
    };
    let order = Order::new(3).unwrap();
    // 81 cells × 9 digits; 81 cell columns + 27 (or 29) units × 9 digits.
    assert_eq!(
        extra(&Puzzle::empty(order, Variant::Classic)),
        pair(729, 324)
    );
    assert_eq!(
        extra(&Puzzle::empty(order, Variant::Diagonal)),
        pair(729, 342)
    );
    // 43 open cells + 243 unit-digit pairs less the 3 × 38 the givens fill.
    assert_eq!(extra(&puzzle)[1], pair(0, 43 + 243 - 3 * 38)[1]);
}
