//! Counting, infeasibility, budgets, variants, statistics and the registry.

mod common;

use std::time::Duration;

use common::{both, every_config, line_puzzle, solve_verified};
use sudoku_core::{
    check_givens, format, rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Limit,
    Order, Params, Puzzle, Solver, Status, Variant,
};
use sudoku_fixtures::{seed_pairs, seed_puzzle};
use sudoku_prop::{Norvig, Prop};

const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn count(solver: &mut dyn Solver, p: &Puzzle, limit: u64) -> (u64, CountEnd) {
    let out = solver
        .count(
            p,
            Count::upto(limit),
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap();
    (out.count, out.end)
}

#[test]
fn empty_4x4_has_288_solutions() {
    let p = Puzzle::empty(Order::new(2).unwrap(), Variant::Classic);
    for s in every_config().iter_mut() {
        let out = s
            .count(
                &p,
                Count::collecting(1000),
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
        assert_eq!(
            (out.count, out.end),
            (288, CountEnd::Complete),
            "{}",
            s.name()
        );
        let mut distinct: Vec<&Grid> = out.solutions.iter().collect();
        distinct.sort_by_key(|g| g.cells().to_vec());
        distinct.dedup();
        assert_eq!(distinct.len(), 288);
        assert!(out.solutions.iter().all(|g| verify_solution(&p, g).is_ok()));
    }
}

#[test]
fn empty_diagonal_4x4_counts_the_classic_grids_that_respect_the_diagonals() {
    let order = Order::new(2).unwrap();
    let classic = Puzzle::empty(order, Variant::Classic);
    let diagonal = Puzzle::empty(order, Variant::Diagonal);
    let all = Prop::default()
        .count(
            &classic,
            Count::collecting(1000),
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap()
        .solutions;
    let expected = all
        .iter()
        .filter(|g| verify_solution(&diagonal, g).is_ok())
        .count() as u64;
    assert!(expected > 0 && expected < 288);
    for s in every_config().iter_mut() {
        assert_eq!(
            count(s.as_mut(), &diagonal, 1000),
            (expected, CountEnd::Complete),
            "{}",
            s.name()
        );
    }
}

#[test]
fn empty_9x9_reaches_the_limit_with_distinct_verified_grids() {
    let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    for s in both().iter_mut() {
        let out = s
            .count(
                &p,
                Count::collecting(500),
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
        assert_eq!((out.count, out.end), (500, CountEnd::LimitReached));
        let mut lines: Vec<String> = out
            .solutions
            .iter()
            .map(|g| {
                verify_solution(&p, g).unwrap();
                format::to_line(g).unwrap()
            })
            .collect();
        lines.sort();
        lines.dedup();
        assert_eq!(lines.len(), 500);
    }
}

#[test]
fn contradictory_givens_are_infeasible() {
    // Two 5s in the first row; and a 4×4 with two 1s in a block.
    let row = line_puzzle(
        "5...5............................................................................",
        Variant::Classic,
    );
    let block = line_puzzle("1....1..........", Variant::Classic);
    // Fine as a classic puzzle, but two 3s on the main diagonal.
    let diag = line_puzzle("3.........3.....", Variant::Diagonal);
    for p in [&row, &block, &diag] {
        assert!(check_givens(p).is_err());
        for s in every_config().iter_mut() {
            let out = s.solve(p, &Budget::unlimited(), &mut rng_from_seed(0));
            assert_eq!(out.status, Status::Infeasible, "{}", s.name());
            assert_eq!(count(s.as_mut(), p, 5), (0, CountEnd::Complete));
        }
    }
    assert!(check_givens(&Puzzle::new(diag.givens().clone(), Variant::Classic)).is_ok());
}

#[test]
fn consistent_looking_but_unsolvable_puzzles_are_infeasible() {
    // A cell with no candidate left: row 1 holds 1..8, column 9 holds the 9.
    let mut text = String::from("12345678.");
    text.push_str(&".".repeat(81 - 9));
    text.replace_range(4 * 9 + 8..4 * 9 + 9, "9");
    let dead_cell = line_puzzle(&text, Variant::Classic);
    // A unique puzzle with one more given that differs from its solution at that cell and
    // clashes with no given: its solutions are those of the original with that digit there,
    // and there are none. Search (not the givens) has to find this out.
    // The fourth JuMP puzzle (the JuMP notebook) and its printed solution.
    let (base, solution) = seed_pairs("001_jump", Variant::Classic)
        .unwrap()
        .swap_remove(3);
    let geo = base.geometry();
    let solution = solution.cells();
    let (cell, digit) = (0..81)
        .filter(|&c| base.givens().get(c) == 0)
        .flat_map(|c| (1..=9u16).map(move |d| (c, d)))
        .find(|&(c, d)| {
            d != solution[c]
                && geo
                    .peers(c)
                    .iter()
                    .all(|&p| base.givens().get(p as usize) != d)
        })
        .unwrap();
    let mut givens = base.givens().clone();
    givens.set(cell, digit);
    let wrong = Puzzle::new(givens, Variant::Classic);
    for p in [&dead_cell, &wrong] {
        assert!(check_givens(p).is_ok());
        for s in every_config().iter_mut() {
            let out = s.solve(p, &Budget::unlimited(), &mut rng_from_seed(0));
            assert_eq!(out.status, Status::Infeasible, "{}", s.name());
            assert_eq!(count(s.as_mut(), p, 5), (0, CountEnd::Complete));
        }
    }
}

#[test]
fn budgets_end_the_search_cleanly() {
    let hard = line_puzzle(HARD, Variant::Classic);
    let empty = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    let one_node = Budget {
        nodes: Some(1),
        ..Budget::default()
    };
    for s in both().iter_mut() {
        let out = s.solve(&hard, &one_node, &mut rng_from_seed(0));
        assert_eq!(
            out.status,
            Status::Exhausted {
                limit: Limit::Nodes,
                best: None
            },
            "{}",
            s.name()
        );
        assert_eq!(out.stats.nodes, 1);
        let c = s
            .count(&empty, Count::upto(1000), &one_node, &mut rng_from_seed(0))
            .unwrap();
        assert_eq!(c.end, CountEnd::Exhausted(Limit::Nodes));
        // The empty 9×9 grid has ~6.7e21 solutions: only the clock can end this count.
        let c = s
            .count(
                &empty,
                Count::upto(u64::MAX),
                &Budget::time(Duration::from_millis(20)),
                &mut rng_from_seed(0),
            )
            .unwrap();
        assert_eq!(c.end, CountEnd::Exhausted(Limit::Time));
        assert!(c.count > 0);
        // The solver is still usable afterwards.
        solve_verified(s.as_mut(), &hard);
    }
}

#[test]
fn guesses_are_zero_exactly_when_propagation_suffices() {
    // The third JuMP puzzle falls to singles alone; HARD needs search.
    let easy = seed_puzzle("001_jump.txt", "In [6]", Variant::Classic).unwrap();
    let hard = line_puzzle(HARD, Variant::Classic);
    for s in every_config().iter_mut() {
        let out = s.solve(&easy, &Budget::unlimited(), &mut rng_from_seed(0));
        assert!(matches!(out.status, Status::Solved(_)));
        assert_eq!((out.stats.guesses, out.stats.nodes), (0, 1), "{}", s.name());
        let out = s.solve(&hard, &Budget::unlimited(), &mut rng_from_seed(0));
        assert!(out.stats.guesses > 0 && out.stats.nodes > out.stats.guesses);
        // Same puzzle, same work: no hidden state leaks between calls.
        let again = s.solve(&hard, &Budget::unlimited(), &mut rng_from_seed(9));
        assert_eq!(again, out);
    }
}

#[test]
fn diagonal_variant_is_respected() {
    for n in [3, 4] {
        let p = Puzzle::empty(Order::new(n).unwrap(), Variant::Diagonal);
        for s in both().iter_mut() {
            if n == 4 && s.name() == "norvig" {
                continue;
            }
            let g = solve_verified(s.as_mut(), &p);
            // The classic solver's first answer breaks a diagonal; this one does not.
            assert!(verify_solution(&p, &g).is_ok());
        }
    }
    let classic = solve_verified(
        &mut Prop::default(),
        &Puzzle::empty(Order::new(3).unwrap(), Variant::Classic),
    );
    let as_diagonal = Puzzle::empty(Order::new(3).unwrap(), Variant::Diagonal);
    assert!(verify_solution(&as_diagonal, &classic).is_err());
}

#[test]
fn empty_large_grids_are_solved_by_prop() {
    for n in [5, 6] {
        for variant in Variant::ALL {
            let p = Puzzle::empty(Order::new(n).unwrap(), variant);
            solve_verified(&mut Prop::default(), &p);
        }
    }
}

#[test]
fn one_solver_handles_changing_orders_and_variants() {
    let mut s = Prop::default();
    let mut norvig = Norvig::new();
    for (n, v) in [
        (3, Variant::Classic),
        (2, Variant::Diagonal),
        (3, Variant::Classic),
    ] {
        let p = Puzzle::empty(Order::new(n).unwrap(), v);
        solve_verified(&mut s, &p);
        solve_verified(&mut norvig, &p);
    }
}

/// The registry contract is checked for every method in crates/runner/tests/conformance.rs;
/// here only how `prop`'s switches reach its configuration.
#[test]
fn prop_parameters_reach_its_configuration() {
    let parsed = Prop::from_params(Params::new().set("naked_pairs", "1")).unwrap();
    assert!(parsed.config().naked_pairs && parsed.config().locked_candidates);
    let parsed = Prop::from_params(Params::new().set("locked_candidates", "off")).unwrap();
    assert!(!parsed.config().naked_pairs && !parsed.config().locked_candidates);
}
