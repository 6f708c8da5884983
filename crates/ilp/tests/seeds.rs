//! The ILP method against the papers' published instances and answers.

mod fixtures;

use fixtures::*;
use sudoku_core::{
    rng_from_seed, Budget, Count, CountEnd, Generator, Order, Params, Puzzle, Solver, Status,
    Variant,
};
use sudoku_ilp::{
    generators, methods, relax, Decompose, IlpConfig, IlpGenerator, IlpSolver, Lookahead,
    ModelKind, Objective, Prefill, RelaxConfig, Search,
};

const SEARCHES: [Search; 2] = [Search::Cbc, Search::Dfs];

fn solver(objective: Objective, model: ModelKind) -> IlpSolver {
    searching(objective, model, Search::Cbc)
}

#[test]
fn jump_9x9_puzzles_solve_to_the_printed_solutions_with_both_builds() {
    for (p, solution) in jump_9x9() {
        for model in BUILDS {
            for lp_first in [false, true] {
                let mut s = IlpSolver::new(IlpConfig {
                    model,
                    lp_first,
                    ..IlpConfig::default()
                });
                let out = solve(&mut s, &p);
                assert_eq!(solved(&out, &p), solution, "{model} lp_first={lp_first}");
                assert!(out.stats.build_time.is_some());
                assert!(extra(&out, "cbc_status").is_some());
            }
        }
    }
}

#[test]
fn jump_25x25_solves_and_matches_the_printed_rows() {
    let (p, first) = jump_25x25();
    assert_eq!(first.len(), 250);
    for model in BUILDS {
        let out = solve(&mut solver(Objective::Zero, model), &p);
        let g = solved(&out, &p);
        assert_eq!(g.cells()[..250], first[..], "{model}");
    }
}

#[test]
fn contradictory_givens_are_infeasible_with_or_without_the_precheck() {
    // Figure 4 (two 1s in row 1) and Figure 5 (two 1s on the main diagonal of a Sudoku-X).
    for p in [fig4_equivalent(), fig5_equivalent(Variant::Diagonal)] {
        for model in BUILDS {
            for precheck in [true, false] {
                for lp_first in [false, true] {
                    let mut s = IlpSolver::new(IlpConfig {
                        model,
                        precheck,
                        lp_first,
                        ..IlpConfig::default()
                    });
                    let out = solve(&mut s, &p);
                    assert_eq!(
                        out.status,
                        Status::Infeasible,
                        "{model} precheck={precheck}"
                    );
                    let by = extra(&out, "infeasible_by").unwrap();
                    let expected = match (precheck, model, lp_first) {
                        (true, _, _) => "givens",
                        (false, ModelKind::Full, false) => "cbc",
                        (false, ModelKind::Full, true) => "lp",
                        (false, ModelKind::Reduced, _) => "reduction",
                    };
                    assert_eq!(by, expected);
                }
            }
        }
    }
    // Figure 5 is feasible as a classic puzzle (Figure 7 is one of its solutions).
    let p = fig5_equivalent(Variant::Classic);
    solved(
        &solve(&mut solver(Objective::Zero, ModelKind::Full), &p),
        &p,
    );
}

#[test]
fn cbc_proves_a_hidden_contradiction() {
    let p = hidden_contradiction();
    let mut s = IlpSolver::new(IlpConfig {
        model: ModelKind::Full,
        lp_first: false,
        ..IlpConfig::default()
    });
    let out = solve(&mut s, &p);
    assert_eq!(out.status, Status::Infeasible);
    assert_eq!(extra(&out, "infeasible_by"), Some("cbc"));
    let out = solve(&mut solver(Objective::Zero, ModelKind::Reduced), &p);
    assert_eq!(out.status, Status::Infeasible);
    assert_eq!(extra(&out, "infeasible_by"), Some("reduction"));
}

#[test]
fn empty_grids_give_valid_grids_for_both_variants() {
    for variant in Variant::ALL {
        for n in [2, 3] {
            let p = Puzzle::empty(Order::new(n).unwrap(), variant);
            for model in BUILDS {
                let out = solve(&mut solver(Objective::Zero, model), &p);
                solved(&out, &p);
            }
        }
    }
}

#[test]
fn figure_9_prefer_objectives_choose_the_published_solutions() {
    let p = fig9();
    for (model, search) in BUILDS.into_iter().flat_map(|m| SEARCHES.map(|s| (m, s))) {
        for (sign, expected, value) in [(-1, fig10a(), -1.0), (1, fig10b(), 0.0)] {
            let objective = Objective::Prefer {
                row: 1,
                col: 1,
                digit: 1,
                sign,
            };
            let out = solve(&mut searching(objective, model, search), &p);
            assert_eq!(solved(&out, &p), expected, "{model} {search} sign {sign}");
            assert_eq!(out.stats.objective, Some(value));
            assert_eq!(extra(&out, "proven_optimal"), Some("true"));
        }
    }
}

#[test]
fn figure_9_has_exactly_two_solutions() {
    let p = fig9();
    for (model, search) in BUILDS.into_iter().flat_map(|m| SEARCHES.map(|s| (m, s))) {
        let c = searching(Objective::Zero, model, search)
            .count(
                &p,
                Count::collecting(10),
                &Budget::unlimited(),
                &mut rng_from_seed(1),
            )
            .unwrap();
        assert_eq!(
            (c.count, c.end),
            (2, CountEnd::Complete),
            "{model} {search}"
        );
        let mut found = c.solutions.clone();
        found.sort_by(|a, b| a.cells().cmp(b.cells()));
        assert_eq!(found, vec![fig10a(), fig10b()]);
        // A limit below the count stops there.
        let c = solver(Objective::Zero, model)
            .count(
                &p,
                Count::upto(1),
                &Budget::unlimited(),
                &mut rng_from_seed(1),
            )
            .unwrap();
        assert_eq!((c.count, c.end), (1, CountEnd::LimitReached));
    }
    let unique = jump_9x9().swap_remove(0).0;
    let c = solver(Objective::Zero, ModelKind::Reduced)
        .count(
            &unique,
            Count::upto(10),
            &Budget::unlimited(),
            &mut rng_from_seed(1),
        )
        .unwrap();
    assert_eq!((c.count, c.end), (1, CountEnd::Complete));
}

#[test]
fn constant_objectives_take_their_value_on_every_solution() {
    let mut cases: Vec<Puzzle> = jump_9x9().into_iter().map(|(p, _)| p).collect();
    cases.push(fig9());
    cases.push(Puzzle::empty(Order::new(3).unwrap(), Variant::Classic));
    cases.push(Puzzle::empty(Order::new(3).unwrap(), Variant::Diagonal));
    for p in &cases {
        for model in BUILDS {
            for (objective, value) in [
                (Objective::Weighted, 405.0),
                (Objective::Constant, 81.0),
                (Objective::Zero, 0.0),
            ] {
                let out = solve(&mut solver(objective, model), p);
                solved(&out, p);
                let got = out.stats.objective.unwrap();
                assert!((got - value).abs() < 1e-6, "{objective:?} {model}: {got}");
                assert_eq!(extra(&out, "objective"), Some(objective.name()));
            }
        }
    }
}

#[test]
fn random_objective_is_reproducible_and_varies_with_the_seed() {
    let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    let run = |seed| {
        let mut s = solver(Objective::Random, ModelKind::Reduced);
        let out = s.solve(&p, &Budget::unlimited(), &mut rng_from_seed(seed));
        solved(&out, &p)
    };
    assert_eq!(run(1), run(1));
    let distinct: std::collections::HashSet<_> = (1..5).map(run).collect();
    assert!(distinct.len() > 1, "four seeds gave one grid");
}

#[test]
fn lp_relaxation_is_integral_and_unique_on_easy_puzzles_only() {
    let cfg = RelaxConfig::default();
    // An easy puzzle (the JuMP notebook's third): pigeonhole-solvable, so Provan's theorem applies.
    let (p, solution) = jump_9x9().swap_remove(2);
    for model in BUILDS {
        let r = relax(&p, &RelaxConfig { model, ..cfg }, &mut rng_from_seed(1)).unwrap();
        assert!(r.feasible && r.integral, "{model}: {r:?}");
        assert_eq!(r.fractional, 0);
        assert_eq!(r.unique, Some(true));
        assert_eq!(r.grid, Some(solution.clone()));
    }
    // Figure 9 has two solutions, so the LP feasible set is not one point.
    let p = fig9();
    let r = relax(&p, &cfg, &mut rng_from_seed(1)).unwrap();
    assert_eq!(r.unique, Some(false));
    // The empty grid: the LP optimum found by Clp is fractional.
    let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    let r = relax(&p, &cfg, &mut rng_from_seed(1)).unwrap();
    assert!(r.feasible);
    assert_eq!(r.unique, Some(false));
    // Infeasible givens: the relaxation is infeasible too.
    let r = relax(
        &hidden_contradiction(),
        &RelaxConfig {
            model: ModelKind::Full,
            ..cfg
        },
        &mut rng_from_seed(1),
    )
    .unwrap();
    assert!(!r.feasible);
}

#[test]
fn generator_fills_empty_grids_with_every_prefill() {
    for variant in Variant::ALL {
        for prefill in [Prefill::None, Prefill::FirstRow, Prefill::DiagonalBlocks] {
            for (model, decompose) in [
                (ModelKind::Full, Decompose::None),
                (ModelKind::Reduced, Decompose::None),
                (ModelKind::Reduced, Decompose::Bands),
            ] {
                let config = IlpConfig {
                    model,
                    ..IlpConfig::default()
                };
                let mut g = IlpGenerator::new(config, prefill, 20)
                    .with_decompose(decompose, Lookahead::Columns);
                let order = Order::new(3).unwrap();
                let out = g.generate(order, variant, &Budget::unlimited(), &mut rng_from_seed(3));
                let p = Puzzle::empty(order, variant);
                let grid = solved(&out, &p);
                assert!(grid.is_full());
            }
        }
    }
}

/// The registry contract is checked for every method in crates/runner/tests/conformance.rs;
/// here only what is particular to the ILP's parameters.
#[test]
fn prefer_and_generator_parameters() {
    let m = &methods()[0];
    assert!(!m.caps.thread_safe);
    let mut params = Params::new();
    params
        .set("objective", "prefer")
        .set("cell", "1,1")
        .set("sign", "1");
    let mut s = (m.build)(&params).unwrap();
    let p = fig9();
    let out = s.solve(&p, &Budget::unlimited(), &mut rng_from_seed(1));
    assert_eq!(out.status, Status::Solved(fig10b()));
    for (k, v) in [
        ("objective", "best"),
        ("model", "tiny"),
        ("cell", "0,1"),
        ("sign", "2"),
        ("cuts", "some"),
        ("log", "9"),
        ("search", "bfs"),
        ("colour", "red"),
    ] {
        let mut bad = Params::new();
        bad.set(k, v);
        assert!((m.build)(&bad).is_err(), "{k}={v} accepted");
    }
    let g = &generators()[0];
    let mut params = Params::new();
    params
        .set("prefill", "first-row")
        .set("objective", "random");
    assert!((g.build)(&params).is_ok());
    for (k, v) in [("decompose", "stacks"), ("lookahead", "none")] {
        let mut bad = params.clone();
        bad.set(k, v);
        assert!((g.build)(&bad).is_err(), "{k}={v} accepted");
    }
    params.set("cell", "1,1");
    assert!(
        (g.build)(&params).is_err(),
        "prefer's keys belong to the solver only"
    );
}

#[test]
fn a_prefer_cell_outside_the_grid_is_an_error_not_a_panic() {
    let p = Puzzle::empty(Order::new(2).unwrap(), Variant::Classic);
    let objective = Objective::Prefer {
        row: 5,
        col: 1,
        digit: 1,
        sign: -1,
    };
    let mut s = solver(objective, ModelKind::Full);
    assert!(s
        .try_solve(&p, &Budget::unlimited(), &mut rng_from_seed(1))
        .is_err());
    let out = solve(&mut s, &p);
    assert!(matches!(out.status, Status::Exhausted { .. }));
    assert!(extra(&out, "error").is_some());
}
