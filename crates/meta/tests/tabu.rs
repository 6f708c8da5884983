//! `tabu`: known solutions on the seed and public fixtures, both variants, a 36×36 puzzle in
//! the hard region, proved infeasibility, reproducibility from the seed, and the step-by-step
//! engine's cost bookkeeping.

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Grid, Order, Params, Puzzle, Solver, Status,
    Variant,
};
use sudoku_fixtures::{carved_pattern, line_puzzle, seed_pairs, UNSOLVABLE_PAST_SINGLES};
use sudoku_meta::{methods, Select, Tabu, TabuConfig, TabuSearch};

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

fn tabu() -> Tabu {
    Tabu::new(TabuConfig::default())
}

/// Sudoku-LS's scheme: cell selection, a pool of 50, weights bumped with probability 1/5.
fn pooled_config() -> TabuConfig {
    TabuConfig {
        select: Select::Cell,
        pool: 50,
        weights: 5,
        ..TabuConfig::default()
    }
}

fn pooled() -> Tabu {
    Tabu::new(pooled_config())
}

fn solved(p: &Puzzle, status: &Status, what: &str) -> Grid {
    let Status::Solved(g) = status else {
        panic!("{what} not solved: {status:?}");
    };
    verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
    g.clone()
}

/// Pairs of peers holding one digit in `g`: the cost `tabu` reports.
fn clashing_pairs(p: &Puzzle, g: &Grid) -> u64 {
    let geo = p.geometry();
    let mut twice = 0u64;
    for c in 0..g.cells().len() {
        for &q in geo.peers(c) {
            if g.get(q as usize) == g.get(c) {
                twice += 1;
            }
        }
    }
    twice / 2
}

#[test]
fn seed_puzzles_give_the_printed_solutions() {
    let pairs = seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads");
    // The default configuration and the pooled one.
    for make in [tabu, pooled] {
        for (k, (p, solution)) in pairs.iter().enumerate() {
            let out = make().solve(p, &iterations(5_000_000), &mut rng_from_seed(k as u64));
            let g = solved(p, &out.status, &format!("JuMP puzzle {k}"));
            assert_eq!(&g, solution, "JuMP puzzle {k} has one solution");
            assert_eq!(out.stats.best_cost, Some(0));
        }
    }
}

#[test]
fn public_sets_are_solved() {
    let Some(dir) = sudoku_fixtures::public_dir() else {
        return;
    };
    for (file, k) in [
        ("norvig_top95.txt", 5),
        ("lewis/lewis_9x9_f045.txt", 5),
        ("gecode_16x16.txt", 3),
    ] {
        let entries = format::read_file(&dir.join(file)).expect("readable dataset");
        for (i, e) in entries.into_iter().take(k).enumerate() {
            let p = Puzzle::new(e.grid, Variant::Classic);
            let out = tabu().solve(&p, &iterations(20_000_000), &mut rng_from_seed(i as u64));
            solved(&p, &out.status, &format!("{file} #{i}"));
        }
    }
}

#[test]
fn empty_grids_of_both_variants_are_filled() {
    for variant in [Variant::Classic, Variant::Diagonal] {
        for n in [2, 3, 4] {
            let p = Puzzle::empty(Order::new(n).unwrap(), variant);
            let out = tabu().solve(&p, &iterations(5_000_000), &mut rng_from_seed(n as u64));
            solved(&p, &out.status, &format!("empty {n} {variant:?}"));
        }
    }
}

#[test]
fn a_36x36_puzzle_at_half_givens_is_solved() {
    // 50 % givens at 36×36 is inside the hard region that stalls `prop` and `ilp`; the steps
    // budget is about a hundred times what the test seed needs.
    let p = carved_pattern(6, 0.5, 5);
    let out = tabu().solve(&p, &iterations(20_000_000), &mut rng_from_seed(7));
    solved(&p, &out.status, "36×36 at 50 %");
}

#[test]
fn the_pooled_configuration_fills_empty_grids_and_solves_a_36x36() {
    // Its known solutions: seed_puzzles_give_the_printed_solutions.
    for variant in [Variant::Classic, Variant::Diagonal] {
        let p = Puzzle::empty(Order::new(4).unwrap(), variant);
        let out = pooled().solve(&p, &iterations(5_000_000), &mut rng_from_seed(4));
        solved(&p, &out.status, &format!("empty 16x16 {variant:?}"));
    }
    // Cell selection alone, and the pool with pair steps, on the hard-region 36×36 of the
    // default's test.
    let p = carved_pattern(6, 0.5, 5);
    for cfg in [
        TabuConfig {
            select: Select::Cell,
            ..TabuConfig::default()
        },
        TabuConfig {
            pool: 50,
            weights: 5,
            ..TabuConfig::default()
        },
    ] {
        let out = Tabu::new(cfg).solve(&p, &iterations(20_000_000), &mut rng_from_seed(7));
        solved(&p, &out.status, &format!("36×36 at 50 % with {cfg:?}"));
    }
    // The pooled scheme is slower than the default at 36×36 (docs/notes/tabu-pooled-scheme.md): the
    // hard-region 25×25 instead.
    let p = carved_pattern(5, 0.45, 5);
    let out = pooled().solve(&p, &iterations(20_000_000), &mut rng_from_seed(7));
    solved(&p, &out.status, "25×25 at 45 %, pooled");
    assert!(out.stats.extra.iter().any(|(k, _)| k == "segments"));
}

#[test]
fn the_pooled_configuration_ends_exhausted_on_an_unsolvable_puzzle() {
    // The pool keeps restarting from its members and runs out of steps; with `restart`, the
    // stalled cost also brings fresh starts every 3,000 steps. Either way the grid returned is
    // one of the lowest cost of the whole run.
    let p = line_puzzle(UNSOLVABLE_PAST_SINGLES);
    for restart in [0, 3_000] {
        let cfg = TabuConfig {
            select: Select::Cell,
            pool: 5,
            segment: 1_000,
            weights: 2,
            restart,
            ..TabuConfig::default()
        };
        let out = Tabu::new(cfg).solve(&p, &iterations(50_000), &mut rng_from_seed(0));
        let Status::Exhausted { best: Some(g), .. } = out.status else {
            panic!("expected Exhausted with a grid, got {:?}", out.status);
        };
        assert!(g.is_full());
        assert!(out.stats.best_cost.unwrap() > 0);
        assert_eq!(out.stats.iterations, 50_000);
        assert_eq!(Some(clashing_pairs(&p, &g)), out.stats.best_cost);
        let starts = out.stats.restarts;
        assert!(
            if restart == 0 {
                starts == 0
            } else {
                starts >= 5
            },
            "{starts} fresh starts"
        );
    }
}

#[test]
fn fresh_starts_still_solve_and_repeat() {
    // A hard-region 25×25 is still solved with fresh starts every 5,000 steps without a new
    // low, and a seed gives one run.
    let p = carved_pattern(5, 0.45, 5);
    let cfg = TabuConfig {
        restart: 5_000,
        ..pooled_config()
    };
    let x = Tabu::new(cfg).solve(&p, &iterations(50_000_000), &mut rng_from_seed(7));
    solved(&p, &x.status, "25×25 at 45 %, pooled with fresh starts");
    assert!(x.stats.restarts > 0, "the run started afresh");
    let y = Tabu::new(cfg).solve(&p, &iterations(50_000_000), &mut rng_from_seed(7));
    assert_eq!(
        (x.status, x.stats.iterations),
        (y.status, y.stats.iterations)
    );
    assert_eq!(x.stats.restarts, y.stats.restarts);
}

#[test]
fn contradictions_found_by_singles_are_infeasible() {
    // Row 1 needs a 9 at r1c9, but column 9 already holds one.
    let p = line_puzzle(
        "12345678.........9...............................................................",
    );
    let out = tabu().solve(&p, &iterations(1_000), &mut rng_from_seed(0));
    assert_eq!(out.status, Status::Infeasible);
    assert!(TabuSearch::new(&p, &TabuConfig::default(), &mut rng_from_seed(0)).is_err());
}

#[test]
fn an_unsolvable_puzzle_singles_miss_ends_exhausted_with_a_full_grid() {
    // Singles find no contradiction, so tabu searches and can only run out of budget: it
    // proves nothing.
    let p = line_puzzle(UNSOLVABLE_PAST_SINGLES);
    let proof = sudoku_prop::Prop::default().solve(&p, &Budget::default(), &mut rng_from_seed(0));
    assert_eq!(proof.status, Status::Infeasible);
    assert!(TabuSearch::new(&p, &TabuConfig::default(), &mut rng_from_seed(0)).is_ok());
    let out = tabu().solve(&p, &iterations(20_000), &mut rng_from_seed(0));
    let Status::Exhausted { best: Some(g), .. } = out.status else {
        panic!("expected Exhausted with a grid, got {:?}", out.status);
    };
    assert!(g.is_full());
    assert!(out.stats.best_cost.unwrap() > 0);
    assert_eq!(out.stats.iterations, 20_000);
}

#[test]
fn same_seed_same_run() {
    let p = carved_pattern(5, 0.45, 1);
    for budget in [iterations(2_000), iterations(10_000_000)] {
        for make in [tabu, pooled] {
            let x = make().solve(&p, &budget, &mut rng_from_seed(3));
            let y = make().solve(&p, &budget, &mut rng_from_seed(3));
            assert_eq!(x.status, y.status);
            assert_eq!(x.stats.iterations, y.stats.iterations);
            assert_eq!(x.stats.best_cost, y.stats.best_cost);
            assert_eq!(x.stats.extra, y.stats.extra);
        }
    }
}

#[test]
fn the_engine_cost_counts_clashing_pairs() {
    let p = carved_pattern(4, 0.3, 9);
    let mut rng = rng_from_seed(11);
    let mut s = TabuSearch::new(&p, &TabuConfig::default(), &mut rng).unwrap();
    assert!(s.candidate_count() >= 2 * s.open_cells());
    for _ in 0..200 {
        s.step(&mut rng);
        let best = s.best_grid();
        // Recount the best assignment's clashes from the grid.
        assert_eq!(clashing_pairs(&p, &best), s.best_cost());
        assert!(s.best_cost() <= s.cost());
        for (i, &d) in p.givens().cells().iter().enumerate() {
            if d != 0 {
                assert_eq!(best.get(i), d);
            }
        }
        if s.cost() == 0 {
            break;
        }
    }
}

#[test]
fn registry_lists_tabu_and_rejects_unknown_parameters() {
    let info = methods()
        .into_iter()
        .find(|m| m.name == "tabu")
        .expect("tabu is registered");
    assert!(info.params.iter().any(|s| s.name == "lambda"));
    let mut bad = Params::default();
    bad.set("tenur", "3");
    assert!((info.build)(&bad).is_err());
    let mut neg = Params::default();
    neg.set("lambda", "-1");
    assert!((info.build)(&neg).is_err());
    for (key, bad) in [
        ("select", "vertex"),
        ("pool", "-1"),
        ("segment", "0"),
        ("weights", "x"),
        ("restart", "-5"),
    ] {
        let mut p = Params::default();
        p.set(key, bad);
        let err = (info.build)(&p)
            .err()
            .unwrap_or_else(|| panic!("{key}={bad} accepted"));
        assert!(err.to_string().contains(key), "{key}: {err}");
    }
    let mut good = Params::default();
    for (key, value) in [
        ("select", "cell"),
        ("pool", "50"),
        ("segment", "1000"),
        ("weights", "5"),
        ("restart", "20000000"),
    ] {
        good.set(key, value);
    }
    assert!((info.build)(&good).is_ok());
}
