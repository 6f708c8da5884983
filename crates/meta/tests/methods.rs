//! Behaviour of `grasp` and `sa`: answers verified by core, givens never moved, determinism,
//! the registry, preprocessing and proved infeasibility.

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Grid, Order, Params, Puzzle, Solver, Status,
    Variant,
};
use sudoku_fixtures::seed_pairs;
use sudoku_meta::{
    methods, propagate_singles, Contradiction, Grasp, GraspConfig, Preprocess, Sa, SaConfig,
};

/// The four 9×9 puzzles of the JuMP notebook (the JuMP notebook) and the solutions printed there.
fn jump() -> Vec<(Puzzle, Grid)> {
    seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads")
}

/// The `k`-th (0-based) JuMP puzzle.
fn jump_puzzle(k: usize) -> Puzzle {
    jump().swap_remove(k).0
}

fn puzzle(line: &str, variant: Variant) -> Puzzle {
    let entries = format::parse_str(line, "test").expect("valid puzzle text");
    Puzzle::new(entries[0].grid.clone(), variant)
}

fn has_param(info: &sudoku_core::MethodInfo, name: &str) -> bool {
    info.params.iter().any(|s| s.name == name)
}

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

fn grasp(preprocess: Preprocess) -> Grasp {
    Grasp::new(GraspConfig {
        preprocess,
        ..GraspConfig::default()
    })
}

fn sa(preprocess: Preprocess) -> Sa {
    Sa::new(SaConfig {
        preprocess,
        ..SaConfig::default()
    })
}

/// Every full assignment a method returns keeps the givens; a Solved one passes the verifier.
fn check(puzzle: &Puzzle, status: &Status) {
    let grid = match status {
        Status::Solved(g) => {
            verify_solution(puzzle, g).expect("a Solved grid passes the verifier");
            g
        }
        Status::Exhausted { best: Some(g), .. } => g,
        other => panic!("unexpected status {other:?}"),
    };
    assert!(grid.is_full());
    for (i, &d) in puzzle.givens().cells().iter().enumerate() {
        if d != 0 {
            assert_eq!(grid.get(i), d, "given at cell {i} moved");
        }
    }
}

#[test]
fn jump_puzzles_solved_by_both_methods_with_and_without_preprocessing() {
    for (k, (p, solution)) in jump().into_iter().enumerate() {
        for pre in [Preprocess::None, Preprocess::Singles] {
            let solvers: [Box<dyn Solver>; 2] = [Box::new(grasp(pre)), Box::new(sa(pre))];
            for mut s in solvers {
                let out = s.solve(&p, &iterations(200_000_000), &mut rng_from_seed(k as u64));
                check(&p, &out.status);
                let Status::Solved(g) = &out.status else {
                    panic!(
                        "{} {pre:?} did not solve JuMP puzzle {}: {:?}",
                        s.name(),
                        k + 1,
                        out.stats
                    );
                };
                assert_eq!(out.stats.best_cost, Some(0));
                if k > 0 {
                    // Puzzles 2..4 are compared with the notebook's printed solution.
                    assert_eq!(g, &solution);
                }
            }
        }
    }
}

#[test]
fn same_seed_same_run() {
    let p = jump_puzzle(3);
    for pre in [Preprocess::None, Preprocess::Singles] {
        let solvers: [(Box<dyn Solver>, Box<dyn Solver>); 2] = [
            (Box::new(grasp(pre)), Box::new(grasp(pre))),
            (Box::new(sa(pre)), Box::new(sa(pre))),
        ];
        for (mut a, mut b) in solvers {
            // A budget too small to solve, so the whole run (best grid, counters) is compared.
            let x = a.solve(&p, &iterations(20_000), &mut rng_from_seed(9));
            let y = b.solve(&p, &iterations(20_000), &mut rng_from_seed(9));
            assert_eq!(x.status, y.status);
            assert_eq!(x.stats.iterations, y.stats.iterations);
            assert_eq!(x.stats.restarts, y.stats.restarts);
            assert_eq!(x.stats.best_cost, y.stats.best_cost);
            check(&p, &x.status);
        }
    }
}

#[test]
fn exhausted_runs_report_limit_best_grid_and_cost() {
    let p = jump_puzzle(3);
    let out = Sa::new(SaConfig::default()).solve(&p, &iterations(1_000), &mut rng_from_seed(3));
    check(&p, &out.status);
    match &out.status {
        Status::Exhausted {
            limit,
            best: Some(g),
        } => {
            assert_eq!(*limit, sudoku_core::Limit::Iterations);
            assert!(out.stats.best_cost.unwrap() > 0);
            assert!(verify_solution(&p, g).is_err());
        }
        other => panic!("1000 moves should not solve it: {other:?}"),
    }
    assert_eq!(out.stats.iterations, 1_000);
}

#[test]
fn trace_records_only_improvements() {
    let p = jump_puzzle(1);
    let mut params = Params::new();
    params.set("trace", "true");
    for info in methods() {
        let mut s = (info.build)(&params).unwrap();
        let out = s.solve(&p, &iterations(200_000_000), &mut rng_from_seed(5));
        check(&p, &out.status);
        let t = &out.stats.trace;
        assert!(!t.is_empty(), "{}", info.name);
        assert!(t.windows(2).all(|w| w[1].best_cost < w[0].best_cost));
        assert!(t.windows(2).all(|w| w[1].iteration >= w[0].iteration));
        assert_eq!(t.last().unwrap().best_cost, 0);
    }
}

/// Sudoku-X: the empty 9×9 diagonal puzzle, then a puzzle carved from its answer; every
/// answer must satisfy both diagonals.
#[test]
fn diagonal_solutions_satisfy_the_diagonals() {
    let empty = Puzzle::empty(Order::new(3).unwrap(), Variant::Diagonal);
    let out = sa(Preprocess::None).solve(&empty, &iterations(200_000_000), &mut rng_from_seed(4));
    let Status::Solved(full) = out.status else {
        panic!("sa did not fill an empty Sudoku-X grid");
    };
    verify_solution(&empty, &full).expect("a Sudoku-X solution");
    let main: Vec<u16> = (0..9).map(|i| full.at(i, i)).collect();
    let mut sorted = main.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (1..=9).collect::<Vec<u16>>());
    let mut givens = full.clone();
    for i in 0..81 {
        if i % 2 == 0 || i % 7 == 0 {
            givens.set(i, 0);
        }
    }
    let p = Puzzle::new(givens, Variant::Diagonal);
    for pre in [Preprocess::None, Preprocess::Singles] {
        for mut s in [Box::new(grasp(pre)) as Box<dyn Solver>, Box::new(sa(pre))] {
            let out = s.solve(&p, &iterations(200_000_000), &mut rng_from_seed(11));
            check(&p, &out.status);
            let Status::Solved(g) = &out.status else {
                panic!("{} {pre:?} did not solve the diagonal puzzle", s.name());
            };
            verify_solution(&p, g).unwrap();
        }
    }
}

#[test]
fn contradictory_givens_are_infeasible() {
    // Two 5s in row 1.
    let p = puzzle(
        "55...............................................................................",
        Variant::Classic,
    );
    for info in methods() {
        // acs and cp-ils always propagate the givens and have no `preprocess`.
        let has_preprocess = has_param(&info, "preprocess");
        let pres: &[&str] = if has_preprocess {
            &["none", "singles"]
        } else {
            &["none"]
        };
        for &pre in pres {
            let mut params = Params::new();
            if has_preprocess {
                params.set("preprocess", pre);
            }
            let mut s = (info.build)(&params).unwrap();
            let out = s.solve(&p, &iterations(10_000), &mut rng_from_seed(0));
            assert_eq!(out.status, Status::Infeasible, "{} {pre}", info.name);
        }
    }
}

#[test]
fn singles_prove_infeasibility_beyond_the_givens() {
    // Givens that repeat nothing, yet r1c9 has no candidate: row 1 holds 1..8, column 9
    // holds a 9.
    let mut line = String::from("12345678.");
    line.push_str("........9");
    line.push_str(&".".repeat(63));
    let p = puzzle(&line, Variant::Classic);
    assert!(matches!(
        propagate_singles(&p),
        Err(Contradiction::EmptyCell { cell: 8, .. })
    ));
    let mut params = Params::new();
    params.set("preprocess", "singles");
    for info in methods() {
        // acs and cp-ils always propagate the givens (no `preprocess`): they prove it too.
        let p0 = if has_param(&info, "preprocess") {
            params.clone()
        } else {
            Params::new()
        };
        let mut s = (info.build)(&p0).unwrap();
        let out = s.solve(&p, &iterations(10_000), &mut rng_from_seed(0));
        assert_eq!(out.status, Status::Infeasible);
    }
    // Without preprocessing the methods cannot prove it: they run out of budget.
    let out = Sa::new(SaConfig::default()).solve(&p, &iterations(10_000), &mut rng_from_seed(0));
    assert!(matches!(out.status, Status::Exhausted { .. }));
}

#[test]
fn singles_solve_an_easy_puzzle_alone() {
    // JuMP puzzle 3 falls to singles alone.
    let (p, solution) = jump().swap_remove(2);
    let done = propagate_singles(&p).unwrap();
    assert!(done.grid.is_full());
    verify_solution(&p, &done.grid).unwrap();
    assert_eq!(done.grid, solution);
    // The methods then return it without a move.
    let out = grasp(Preprocess::Singles).solve(&p, &iterations(1), &mut rng_from_seed(0));
    assert!(matches!(out.status, Status::Solved(_)));
    assert_eq!(out.stats.iterations, 0);
}

#[test]
fn full_and_empty_grids_of_several_orders() {
    for n in 2..=4 {
        let order = Order::new(n).unwrap();
        let p = Puzzle::empty(order, Variant::Classic);
        for mut s in [
            Box::new(grasp(Preprocess::None)) as Box<dyn Solver>,
            Box::new(sa(Preprocess::None)),
        ] {
            let out = s.solve(&p, &iterations(50_000_000), &mut rng_from_seed(n as u64));
            check(&p, &out.status);
            assert!(
                matches!(out.status, Status::Solved(_)),
                "{} order {n}",
                s.name()
            );
        }
    }
}

/// The registry contract is checked for every method in crates/runner/tests/conformance.rs;
/// here only what is particular to GRASP's parameters.
#[test]
fn grasp_parameters_reach_its_configuration() {
    let mut p = Params::new();
    p.set("local", "first");
    p.set("alpha", "0");
    let config = GraspConfig::from_params(&p).unwrap();
    assert_eq!(config.local, sudoku_meta::LocalSearch::First);
    assert_eq!(config.alpha, 0.0);
    assert_eq!(
        GraspConfig::from_params(&Params::new()),
        Ok(GraspConfig::default())
    );
}

#[test]
fn registry_documents_and_checks_parameters() {
    let infos = methods();
    let names: Vec<_> = infos.iter().map(|m| m.name).collect();
    assert_eq!(names, ["grasp", "sa", "acs", "cp-ils", "tabu", "mmcol"]);
    for info in &infos {
        assert!(!info.caps.complete && info.caps.thread_safe && info.caps.randomized);
        assert!(info
            .params
            .iter()
            .all(|s| !s.help.is_empty() && !s.default.is_empty()));
        // Every documented default parses.
        let mut defaults = Params::new();
        for s in info.params {
            defaults.set(s.name, s.default);
        }
        assert!((info.build)(&defaults).is_ok(), "{}", info.name);
        let mut bad = Params::new();
        bad.set("nonsense", "1");
        assert!((info.build)(&bad).is_err());
        let mut bad = Params::new();
        bad.set("preprocess", "magic");
        assert!((info.build)(&bad).is_err());
    }
    // Range checks of acs and cp-ils, NaN included.
    for (k, key, value) in [
        (2, "q0", "1.5"),
        (2, "rho", "NaN"),
        (2, "bve", "0.9"),
        (2, "ants", "0"),
        (2, "xi", "-0.1"),
        (3, "destroy", "NaN"),
        (3, "walk", "2"),
    ] {
        let mut p = Params::new();
        p.set(key, value);
        assert!((infos[k].build)(&p).is_err(), "{key}={value}");
    }
    let mut p = Params::new();
    p.set("alpha", "1.5");
    assert!((infos[0].build)(&p).is_err());
    let mut p = Params::new();
    p.set("cooling", "-0.1");
    assert!((infos[1].build)(&p).is_err());
    let mut p = Params::new();
    p.set("local", "first");
    p.set("alpha", "0");
    assert_eq!(
        GraspConfig::from_params(&p).unwrap().local,
        sudoku_meta::LocalSearch::First
    );
}

#[test]
fn moves_restricted_to_candidates_still_solve_and_keep_givens() {
    let mut params = Params::new();
    params.set("moves", "candidates");
    for info in methods().into_iter().filter(|i| has_param(i, "moves")) {
        for (k, (p, _)) in jump().into_iter().enumerate() {
            let mut s = (info.build)(&params).unwrap();
            let out = s.solve(&p, &iterations(200_000_000), &mut rng_from_seed(k as u64));
            check(&p, &out.status);
            assert!(
                matches!(out.status, Status::Solved(_)),
                "{} moves=candidates, JuMP puzzle {}",
                info.name,
                k + 1
            );
        }
    }
}

#[test]
fn kick_restarts_solve_and_repeat_with_the_same_seed() {
    let mut params = Params::new();
    params.set("kick", "3");
    params.set("plateau", "10");
    let info = methods()[0];
    for (k, (p, _)) in jump().into_iter().enumerate() {
        let mut s = (info.build)(&params).unwrap();
        let out = s.solve(&p, &iterations(200_000_000), &mut rng_from_seed(k as u64));
        check(&p, &out.status);
        assert!(
            matches!(out.status, Status::Solved(_)),
            "kick, JuMP puzzle {}",
            k + 1
        );
    }
    let p = jump_puzzle(0);
    let a = (info.build)(&params)
        .unwrap()
        .solve(&p, &iterations(30_000), &mut rng_from_seed(2));
    let b = (info.build)(&params)
        .unwrap()
        .solve(&p, &iterations(30_000), &mut rng_from_seed(2));
    assert_eq!(a.status, b.status);
    assert_eq!(a.stats.restarts, b.stats.restarts);
}

#[test]
fn an_iteration_limit_of_zero_stops_cleanly_with_a_full_assignment() {
    let p = jump_puzzle(3);
    for mut m in [
        Box::new(grasp(Preprocess::None)) as Box<dyn Solver>,
        Box::new(sa(Preprocess::None)),
    ] {
        let out = m.solve(&p, &iterations(0), &mut rng_from_seed(1));
        check(&p, &out.status);
        assert!(
            matches!(out.status, Status::Exhausted { .. } | Status::Solved(_)),
            "{:?}",
            out.status
        );
    }
}
