//! `sat` with a DIMACS program as its solver (`solver=kissat`, `command=`) against `sat` with
//! CaDiCaL on the same formulas: the seed papers' puzzles (both variants), Figure 9's two
//! solutions, infeasible mutations (proved by the program itself with the extended encoding,
//! which leaves them to the solver), counts, node limits and carving's one-search check.
//! Skipped, with a message, when kissat is not installed (CI installs it with the venv).

mod common;

use std::collections::BTreeSet;

use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Limit, OtherSolution, Params, Puzzle,
    Solver, Status, Variant,
};
use sudoku_fixtures::{seed_grid, seed_puzzle, seed_puzzles};
use sudoku_sat::{find_kissat, Sat};

fn sat(pairs: &[(&str, &str)]) -> Sat {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, *v);
    }
    Sat::from_params(&p).unwrap()
}

/// Kissat's path, or None after saying why the test does nothing.
fn kissat(test: &str) -> Option<String> {
    match find_kissat() {
        Ok(path) => Some(path.to_string_lossy().into_owned()),
        Err(why) => {
            sudoku_fixtures::skip(test, &why);
            None
        }
    }
}

/// Solve verdict and count to 2 with their solutions.
fn answers(s: &mut Sat, p: &Puzzle, what: &str) -> (bool, u64, CountEnd, BTreeSet<Vec<u16>>) {
    let budget = Budget::unlimited();
    let out = s.solve(p, &budget, &mut rng_from_seed(1));
    assert!(out.stats.error.is_none(), "{what}: {:?}", out.stats.error);
    let solved = match out.status {
        Status::Solved(g) => {
            verify_solution(p, &g).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(out.stats.solve_time.is_some(), "{what}: solve_time");
            true
        }
        Status::Infeasible => false,
        other => panic!("{what}: {other:?}"),
    };
    let c = s
        .count(p, Count::collecting(2), &budget, &mut rng_from_seed(1))
        .expect("sat counts");
    for g in &c.solutions {
        verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    let sols = c.solutions.iter().map(|g| g.cells().to_vec()).collect();
    (solved, c.count, c.end, sols)
}

fn seed_set() -> Vec<(String, Puzzle)> {
    let mut puzzles = Vec::new();
    for (file, variant) in [
        ("000_unicamp_ilp.txt", Variant::Classic),
        ("000_unicamp_ilp.diagonal.txt", Variant::Diagonal),
        ("000_unicamp_ilp.multiple.txt", Variant::Classic),
        ("001_jump.txt", Variant::Classic),
        ("002_takano.txt", Variant::Classic),
        ("004_teles.txt", Variant::Classic),
    ] {
        for (i, p) in seed_puzzles(file, variant).unwrap().into_iter().enumerate() {
            puzzles.push((format!("{file} #{}", i + 1), p));
        }
    }
    // Infeasible: an empty cell of a top95 puzzle takes a digit one of its peers holds.
    puzzles.extend(common::mutated(6, 5));
    puzzles
}

#[test]
fn kissat_agrees_with_cadical_on_the_papers_puzzles() {
    let Some(_) = kissat("kissat_agrees_with_cadical_on_the_papers_puzzles") else {
        return;
    };
    let puzzles = seed_set();
    let mut infeasible = 0;
    for encoding in ["optimised", "extended"] {
        let mut ours = sat(&[("encoding", encoding)]);
        let mut theirs = sat(&[("encoding", encoding), ("solver", "kissat")]);
        for (what, p) in &puzzles {
            let what = format!("{what} ({encoding})");
            let a = answers(&mut ours, p, &what);
            let b = answers(&mut theirs, p, &what);
            assert_eq!((a.0, a.1, a.2), (b.0, b.1, b.2), "{what}");
            if a.2 == CountEnd::Complete {
                assert_eq!(a.3, b.3, "{what}: solutions");
            }
            infeasible += usize::from(!a.0);
        }
    }
    assert_eq!(infeasible, 12, "the six mutations, with each encoding");
    // Kissat's own figures reach the statistics.
    let p = &puzzles[0].1;
    let out = sat(&[("solver", "kissat")]).solve(p, &Budget::unlimited(), &mut rng_from_seed(1));
    let extra = |k: &str| out.stats.extra.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    assert!(extra("solver").unwrap().starts_with("kissat "));
    assert_eq!(extra("solve_clock").unwrap(), "kissat");
}

#[test]
fn kissat_counts_both_solutions_of_figure_9() {
    let Some(_) = kissat("kissat_counts_both_solutions_of_figure_9") else {
        return;
    };
    let p = seed_puzzle("000_unicamp_ilp.multiple.txt", "Figure 9", Variant::Classic).unwrap();
    let sols = "000_unicamp_ilp.multiple.solutions.txt";
    let expected: BTreeSet<Vec<u16>> = ["Figure 10a", "Figure 10b"]
        .iter()
        .map(|l| seed_grid(sols, l).unwrap().cells().to_vec())
        .collect();
    let mut s = sat(&[("solver", "kissat"), ("preset", "sat")]);
    let c = s
        .count(
            &p,
            Count::collecting(10),
            &Budget::unlimited(),
            &mut rng_from_seed(1),
        )
        .unwrap();
    assert_eq!((c.count, c.end), (2, CountEnd::Complete));
    let found: BTreeSet<Vec<u16>> = c.solutions.iter().map(|g| g.cells().to_vec()).collect();
    assert_eq!(found, expected);
    let calls = c.stats.extra.iter().find(|(k, _)| k == "solve_calls");
    assert_eq!(
        calls.map(|(_, v)| v.as_str()),
        Some("3"),
        "a run per solution, and one more"
    );
}

#[test]
fn a_generic_command_and_the_node_limit() {
    let Some(path) = kissat("a_generic_command_and_the_node_limit") else {
        return;
    };
    let p = seed_puzzle("000_unicamp_ilp.multiple.txt", "Figure 9", Variant::Classic).unwrap();
    let mut s = sat(&[("command", &format!("{path} -q"))]);
    let (solved, count, end, _) = answers(&mut s, &p, "command");
    assert_eq!((solved, count, end), (true, 2, CountEnd::LimitReached));
    let out = s.solve(&p, &Budget::unlimited(), &mut rng_from_seed(1));
    let clock = out.stats.extra.iter().find(|(k, _)| k == "solve_clock");
    assert_eq!(clock.map(|(_, v)| v.as_str()), Some("cpu"));
    // A node limit cannot be passed to an arbitrary program: an error, not a silent skip.
    let budget = Budget {
        nodes: Some(10),
        ..Budget::unlimited()
    };
    let out = s.solve(&p, &budget, &mut rng_from_seed(1));
    assert!(out.stats.error.unwrap().contains("node"));
    // The time limit kills the program: a 36×36 puzzle with few givens and 50 ms.
    let hard = sudoku_fixtures::carved_pattern(6, 0.40, 1);
    let short = Budget {
        time: Some(std::time::Duration::from_millis(50)),
        ..Budget::unlimited()
    };
    let out = sat(&[("solver", "kissat")]).solve(&hard, &short, &mut rng_from_seed(1));
    assert!(out.stats.error.is_none(), "{:?}", out.stats.error);
    match out.status {
        Status::Exhausted {
            limit: Limit::Time, ..
        } => {}
        Status::Solved(g) => verify_solution(&hard, &g).unwrap(),
        other => panic!("{other:?}"),
    }
    // Kissat takes it as its conflict limit: a 25×25 puzzle with few givens runs out.
    let hard = sudoku_fixtures::carved_pattern(5, 0.42, 3);
    let out = sat(&[("solver", "kissat")]).solve(&hard, &budget, &mut rng_from_seed(1));
    assert!(
        matches!(
            out.status,
            Status::Solved(_)
                | Status::Exhausted {
                    limit: Limit::Nodes,
                    ..
                }
        ),
        "{:?}",
        out.status
    );
}

#[test]
fn kissat_answers_carvings_check() {
    let Some(_) = kissat("kissat_answers_carvings_check") else {
        return;
    };
    let mut ours = sat(&[]);
    let mut theirs = sat(&[("solver", "kissat")]);
    for (label, p) in seed_set().into_iter().take(8) {
        let Status::Solved(solution) = ours
            .solve(&p, &Budget::unlimited(), &mut rng_from_seed(1))
            .status
        else {
            continue;
        };
        // Remove each given in turn: both back ends agree whether the solution stays unique.
        let givens: Vec<usize> = (0..p.givens().cells().len())
            .filter(|&c| p.givens().get(c) != 0)
            .step_by(7)
            .collect();
        for &c in &givens {
            let mut g = p.givens().clone();
            g.set(c, 0);
            let q = Puzzle::new(g, p.variant());
            let budget = Budget::unlimited();
            let mut rng = rng_from_seed(1);
            let ask = OtherSolution {
                puzzle: &q,
                solution: &solution,
                removed: &[c],
            };
            let a = ours.count_other(ask, &budget, &mut rng).unwrap();
            let b = theirs.count_other(ask, &budget, &mut rng).unwrap();
            assert_eq!((a.count, a.end), (b.count, b.end), "{label} without {c}");
        }
    }
}
