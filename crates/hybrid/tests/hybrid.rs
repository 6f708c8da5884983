//! `hybrid`: agreement with `prop` (solutions, infeasibility, counts), infeasibility that only
//! the exact half can prove, a 36×36 puzzle at half givens, both halves finding solutions,
//! budgets, reproducibility from the seed, the pooled scheme in the turns, and the helper thread
//! (its per-order default, the expert keys and the old spelling `helper`).

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Limit, ParamSpec,
    Params, Puzzle, Solver, Status, Variant,
};
use sudoku_fixtures::{
    carved_pattern, line_puzzle, public_dir, seed_pairs, seed_puzzle, UNSOLVABLE_PAST_SINGLES,
};
use sudoku_hybrid::{methods, Hybrid, HybridConfig, Turns};
use sudoku_meta::TabuConfig;
use sudoku_prop::Prop;

fn hybrid() -> Hybrid {
    Hybrid::default()
}

/// The turns alone, on one thread: a seed fixes the run.
fn one_thread() -> HybridConfig {
    HybridConfig {
        threads: Some(1),
        ..HybridConfig::default()
    }
}

fn extra<'a>(stats: &'a sudoku_core::Stats, key: &str) -> Option<&'a str> {
    stats
        .extra
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn solved(p: &Puzzle, status: &Status, what: &str) -> Grid {
    let Status::Solved(g) = status else {
        panic!("{what} not solved: {status:?}");
    };
    verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
    g.clone()
}

/// `h` ends on [`UNSOLVABLE_PAST_SINGLES`] as infeasible, proved by the CDCL half.
fn proves_unsolvable_by_sat(mut h: Hybrid) {
    let out = h.solve(
        &line_puzzle(UNSOLVABLE_PAST_SINGLES),
        &Budget::unlimited(),
        &mut rng_from_seed(0),
    );
    assert_eq!(out.status, Status::Infeasible);
    assert_eq!(extra(&out.stats, "infeasible_by"), Some("sat"));
}

/// Node and step budgets well above what the 36×36 test puzzle needs.
fn generous() -> Budget {
    Budget {
        nodes: Some(2_000_000),
        iterations: Some(50_000_000),
        ..Budget::default()
    }
}

fn carved(n: usize, keep: f64, seed: u64) -> Puzzle {
    carved_pattern(n, keep, seed)
}

#[test]
fn seed_puzzles_give_the_printed_solutions() {
    let pairs = seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads");
    for (k, (p, solution)) in pairs.iter().enumerate() {
        let out = hybrid().solve(p, &Budget::unlimited(), &mut rng_from_seed(k as u64));
        assert_eq!(&solved(p, &out.status, "JuMP"), solution, "puzzle {k}");
    }
}

#[test]
fn agrees_with_prop_on_public_puzzles() {
    let Some(dir) = public_dir() else {
        return;
    };
    for (file, k) in [("norvig_top95.txt", 20), ("gecode_16x16.txt", 5)] {
        let entries = format::read_file(&dir.join(file)).expect("readable dataset");
        for (i, e) in entries.into_iter().take(k).enumerate() {
            let p = Puzzle::new(e.grid, Variant::Classic);
            let mut rng = rng_from_seed(i as u64);
            let ours = hybrid().solve(&p, &Budget::unlimited(), &mut rng);
            let theirs = Prop::default().solve(&p, &Budget::unlimited(), &mut rng);
            // These puzzles have one solution each, so both must give the same grid.
            assert_eq!(
                solved(&p, &ours.status, file),
                solved(&p, &theirs.status, file),
                "{file} #{i}"
            );
        }
    }
}

#[test]
fn infeasibility_singles_miss_is_proved_by_the_exact_half() {
    let proof = Prop::default().solve(
        &line_puzzle(UNSOLVABLE_PAST_SINGLES),
        &Budget::unlimited(),
        &mut rng_from_seed(0),
    );
    assert_eq!(proof.status, Status::Infeasible);
    proves_unsolvable_by_sat(hybrid());
}

#[test]
fn contradictions_found_by_propagation_are_infeasible() {
    let p = line_puzzle(
        ".234567891.......................................................................",
    );
    let out = hybrid().solve(&p, &Budget::unlimited(), &mut rng_from_seed(0));
    assert_eq!(out.status, Status::Infeasible);
    assert_eq!(extra(&out.stats, "infeasible_by"), Some("propagation"));
}

#[test]
fn counting_finds_both_solutions_of_figure_9() {
    let p = seed_puzzle("000_unicamp_ilp.multiple.txt", "Figure 9", Variant::Classic).unwrap();
    let out = hybrid()
        .count(
            &p,
            Count::collecting(10),
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap();
    assert_eq!(out.count, 2);
    assert_eq!(out.end, CountEnd::Complete);
    for g in &out.solutions {
        verify_solution(&p, g).unwrap();
    }
    assert_ne!(out.solutions[0], out.solutions[1]);
}

#[test]
fn a_36x36_puzzle_at_half_givens_is_solved_within_budget() {
    // The hard region at 36×36; the budgets are well above what this seed needs, and either
    // half (or, with two threads, the helper) may be the one to finish.
    let p = carved(6, 0.5, 21);
    let budget = generous();
    let out = hybrid().solve(&p, &budget, &mut rng_from_seed(3));
    solved(&p, &out.status, "36×36 at 50 %");
    let by = extra(&out.stats, "found_by").expect("found_by is reported");
    assert!(["sat", "tabu", "helper"].contains(&by), "{by}");
}

#[test]
fn each_half_can_be_the_one_that_finds_the_solution() {
    let p = carved(5, 0.45, 4);
    // Almost no conflicts per turn: tabu finishes first.
    let out = Hybrid::new(HybridConfig {
        conflicts: 1,
        ..one_thread()
    })
    .solve(&p, &Budget::unlimited(), &mut rng_from_seed(1));
    solved(&p, &out.status, "tabu first");
    assert_eq!(extra(&out.stats, "found_by"), Some("tabu"));
    // One tabu step per open cell, then a CDCL turn large enough to solve a 25×25 puzzle: sat
    // finishes.
    let out = Hybrid::new(HybridConfig {
        steps_per_cell: 1,
        conflicts: 1_000_000_000,
        ..one_thread()
    })
    .solve(&p, &Budget::unlimited(), &mut rng_from_seed(1));
    solved(&p, &out.status, "sat first");
    assert_eq!(extra(&out.stats, "found_by"), Some("sat"));
    let open: u64 = extra(&out.stats, "open_cells").unwrap().parse().unwrap();
    assert_eq!(out.stats.iterations, open);
}

#[test]
fn budgets_end_the_run_with_their_limit() {
    let p = carved(6, 0.45, 8);
    let tight = HybridConfig {
        conflicts: 1,
        steps_per_cell: 1,
        ..one_thread()
    };
    let nodes = Budget {
        nodes: Some(3),
        ..Budget::default()
    };
    let out = Hybrid::new(tight).solve(&p, &nodes, &mut rng_from_seed(0));
    if !matches!(out.status, Status::Solved(_)) {
        assert_eq!(
            out.status,
            Status::Exhausted {
                limit: Limit::Nodes,
                best: None
            }
        );
        assert!(out.stats.nodes >= 3);
    }
    let steps = Budget {
        iterations: Some(10),
        ..Budget::default()
    };
    let out = Hybrid::new(tight).solve(&p, &steps, &mut rng_from_seed(0));
    if !matches!(out.status, Status::Solved(_)) {
        assert_eq!(
            out.status,
            Status::Exhausted {
                limit: Limit::Iterations,
                best: None
            }
        );
        assert_eq!(out.stats.iterations, 10);
    }
}

#[test]
fn same_seed_same_run() {
    let p = carved(5, 0.45, 2);
    let budget = Budget {
        nodes: Some(100_000),
        iterations: Some(10_000_000),
        ..Budget::default()
    };
    let cfg = HybridConfig {
        conflicts: 50,
        ..one_thread()
    };
    let x = Hybrid::new(cfg).solve(&p, &budget, &mut rng_from_seed(3));
    let y = Hybrid::new(cfg).solve(&p, &budget, &mut rng_from_seed(3));
    assert_eq!(x.status, y.status);
    assert_eq!(x.stats.iterations, y.stats.iterations);
    assert_eq!(x.stats.nodes, y.stats.nodes);
    assert_eq!(extra(&x.stats, "found_by"), extra(&y.stats, "found_by"));
}

#[test]
fn registry_lists_hybrid_and_rejects_unknown_parameters() {
    let info = methods().into_iter().next().unwrap();
    assert_eq!(info.name, "hybrid");
    assert!(info.caps.complete);
    let mut bad = Params::default();
    bad.set("step", "3");
    assert!((info.build)(&bad).is_err());
    let mut zero = Params::default();
    zero.set("conflicts", "0");
    assert!((info.build)(&zero).is_err());
    let mut ok = Params::default();
    ok.set("preset", "unsat")
        .set("lambda", "0.6")
        .set("threads", "2")
        .set("helper_lambda", "0.35")
        .set("helper_scheme", "pooled");
    assert!((info.build)(&ok).is_ok());
    for (key, bad) in [("helper_lambda", "-1"), ("threads", "0"), ("threads", "3")] {
        let mut p = Params::default();
        p.set(key, bad);
        assert!((info.build)(&p).is_err(), "{key}={bad}");
    }
    for key in ["helper_scheme", "scheme"] {
        let mut scheme = Params::default();
        scheme.set(key, "pool");
        assert!((info.build)(&scheme).is_err(), "{key}=pool");
        scheme.set(key, "pooled");
        assert!((info.build)(&scheme).is_ok(), "{key}=pooled");
    }
    // `scheme=auto`: pooled turns from 49×49 on.
    let mut auto = Params::default();
    auto.set("scheme", "auto");
    let turns = HybridConfig::from_params(&auto).unwrap().scheme;
    assert_eq!(turns, Turns::Auto);
    assert_eq!(
        (4..=8).map(|n| turns.pooled(n)).collect::<Vec<_>>(),
        [false, false, false, true, true]
    );
    assert_eq!(HybridConfig::default().scheme, Turns::Plain);
    // What the turns ran is reported.
    let cfg = HybridConfig {
        scheme: Turns::Auto,
        ..HybridConfig::default()
    };
    let few = Budget {
        iterations: Some(1_000),
        ..Budget::default()
    };
    for (n, keep, turns) in [(5, 0.45, "plain"), (7, 0.5, "pooled")] {
        let out = Hybrid::new(cfg).solve(&carved(n, keep, 1), &few, &mut rng_from_seed(0));
        assert_eq!(extra(&out.stats, "turns"), Some(turns), "order {n}");
    }
    // (parameter, a value the registry rejects, one it takes, how it reads back, its value)
    type Read = fn(&HybridConfig) -> u64;
    let steps: [(&str, &str, &str, Read, u64); 2] = [
        (
            "segment",
            "0",
            "1000000",
            |c| c.segment.unwrap_or(0),
            1_000_000,
        ),
        ("restart", "-1", "20000000", |c| c.restart, 20_000_000),
    ];
    for (key, bad, good, read, want) in steps {
        let mut p = Params::default();
        p.set(key, bad);
        assert!((info.build)(&p).is_err(), "{key}={bad}");
        p.set(key, good);
        assert_eq!(read(&HybridConfig::from_params(&p).unwrap()), want, "{key}");
    }
    assert_eq!(HybridConfig::default().segment, None, "by order");
    assert_eq!(
        HybridConfig::default().restart,
        0,
        "no fresh starts by default"
    );
}

#[test]
fn tabus_parameters_are_taken_not_copied() {
    let spec = |params: &[ParamSpec], key: &str| *params.iter().find(|s| s.name == key).unwrap();
    for key in ["lambda", "tenure", "restart"] {
        assert_eq!(
            spec(HybridConfig::PARAMS, key),
            spec(TabuConfig::PARAMS, key),
            "{key}"
        );
    }
    let (hybrid, tabu) = (HybridConfig::default(), TabuConfig::default());
    assert_eq!(
        (hybrid.lambda, hybrid.tenure, hybrid.restart),
        (tabu.lambda, tabu.tenure, tabu.restart)
    );
    // `segment` is `tabu`'s range or `auto`, which is `tabu`'s default below 49x49.
    assert_eq!(
        spec(HybridConfig::PARAMS, "segment").range,
        format!("{}|auto", spec(TabuConfig::PARAMS, "segment").range)
    );
    let pooled_helper = HybridConfig {
        helper_pooled: Some(true),
        threads: Some(2),
        ..hybrid
    };
    assert_eq!(
        pooled_helper.helper_search(6).map(|t| t.segment),
        Some(tabu.segment)
    );
}

#[test]
fn the_turns_can_run_the_pooled_scheme() {
    let pooled = HybridConfig {
        scheme: Turns::Pooled,
        segment: Some(20_000),
        ..one_thread()
    };
    // The printed solutions of the first paper's 25×25 puzzles.
    let pairs = seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads");
    for (k, (p, solution)) in pairs.iter().enumerate() {
        let out = Hybrid::new(pooled).solve(p, &Budget::unlimited(), &mut rng_from_seed(k as u64));
        assert_eq!(
            &solved(p, &out.status, "JuMP, pooled"),
            solution,
            "puzzle {k}"
        );
    }
    // The hard region at 36×36, within the budgets, and the same run from the same seed.
    let p = carved(6, 0.5, 21);
    let runs: Vec<_> = (0..2)
        .map(|_| Hybrid::new(pooled).solve(&p, &generous(), &mut rng_from_seed(3)))
        .collect();
    solved(&p, &runs[0].status, "36×36 at 50 %, pooled");
    assert_eq!(runs[0].status, runs[1].status);
    assert_eq!(runs[0].stats.iterations, runs[1].stats.iterations);
    assert_eq!(runs[0].stats.nodes, runs[1].stats.nodes);
    assert_eq!(
        extra(&runs[0].stats, "found_by"),
        extra(&runs[1].stats, "found_by")
    );
    // Fresh starts every 5,000 steps without a new low: the starts are counted, and the same
    // seed gives the same run (a million steps; the search with fresh starts that often is
    // slow to solve this puzzle).
    let restarting = HybridConfig {
        restart: 5_000,
        ..pooled
    };
    let budget = Budget {
        iterations: Some(1_000_000),
        ..Budget::default()
    };
    let runs: Vec<_> = (0..2)
        .map(|_| Hybrid::new(restarting).solve(&p, &budget, &mut rng_from_seed(3)))
        .collect();
    assert!(runs[0].stats.restarts > 0);
    assert_eq!(runs[0].status, runs[1].status);
    assert_eq!(runs[0].stats.iterations, runs[1].stats.iterations);
    assert_eq!(runs[0].stats.restarts, runs[1].stats.restarts);
    // Infeasibility is still CDCL's proof.
    proves_unsolvable_by_sat(Hybrid::new(pooled));
    // An iteration budget counts the pooled search's steps across its segments.
    let budget = Budget {
        iterations: Some(250_000),
        ..Budget::default()
    };
    let hard = carved(7, 0.5, 5);
    let out = Hybrid::new(HybridConfig {
        conflicts: 1,
        ..pooled
    })
    .solve(&hard, &budget, &mut rng_from_seed(1));
    match out.status {
        Status::Exhausted { limit, .. } => {
            assert_eq!(limit, Limit::Iterations);
            assert_eq!(out.stats.iterations, 250_000);
        }
        Status::Solved(ref g) => verify_solution(&hard, g).unwrap(),
        ref other => panic!("{other:?}"),
    }
}

#[test]
fn a_helper_thread_changes_answers_but_not_outcomes() {
    // Both of the helper's schemes, plain tabu and the pooled one, and two pooled searches
    // (the helper's and the turns').
    for (pooled, scheme) in [
        (false, Turns::Plain),
        (true, Turns::Plain),
        (true, Turns::Pooled),
    ] {
        let helped = HybridConfig {
            threads: Some(2),
            helper_lambda: Some(0.35),
            helper_pooled: Some(pooled),
            scheme,
            ..HybridConfig::default()
        };
        // A hard-region puzzle: solved and verified, whichever of the three searches ends it, and
        // the helper reports its steps.
        let p = carved(6, 0.5, 21);
        let budget = generous();
        let out = Hybrid::new(helped).solve(&p, &budget, &mut rng_from_seed(3));
        solved(&p, &out.status, "36×36 at 50 % with a helper");
        let by = extra(&out.stats, "found_by").expect("found_by is reported");
        assert!(["sat", "tabu", "helper"].contains(&by), "{by}");
        assert!(extra(&out.stats, "helper_steps").is_some());
        // The rows mark it as a two-thread call, and its CPU time counts the helper's thread
        // (in this process, as this test calls it without a time limit).
        assert_eq!(out.stats.threads, 2);
        assert!(out.stats.child_cpu.is_some_and(|c| !c.is_zero()));
        // Infeasibility is still the CDCL half's proof: the helper, which can never finish on
        // this puzzle, is stopped when the proof is in.
        proves_unsolvable_by_sat(Hybrid::new(helped));
        // With tabu's half kept to almost nothing and CDCL's to one conflict per turn, an
        // iteration budget ends the call; the helper stops with it.
        let budget = Budget {
            iterations: Some(2_000),
            ..Budget::default()
        };
        let hard = carved(7, 0.5, 5);
        let out = Hybrid::new(HybridConfig {
            conflicts: 1,
            steps_per_cell: 1,
            ..helped
        })
        .solve(&hard, &budget, &mut rng_from_seed(1));
        match out.status {
            Status::Exhausted { limit, .. } => assert_eq!(limit, Limit::Iterations),
            Status::Solved(ref g) => verify_solution(&hard, g).unwrap(),
            ref other => panic!("{other:?}"),
        }
    }
}

#[test]
fn two_threads_run_the_helper_measured_for_the_order() {
    let info = methods().into_iter().next().unwrap();
    let two = HybridConfig {
        threads: Some(2),
        ..HybridConfig::default()
    };
    // (order, the helper as (λ, pooled, segment), or none)
    let by_order = [
        (3, None),
        (4, None),
        (5, Some((0.6, false, 100_000))),
        (6, Some((0.6, false, 100_000))),
        (7, Some((0.5, true, 1_000_000))),
        (8, Some((0.6, false, 100_000))),
    ];
    let helper = |cfg: &HybridConfig, n| {
        cfg.helper_search(n)
            .map(|t| (t.lambda, t.pool > 0, t.segment))
    };
    for (n, want) in by_order {
        assert_eq!(helper(&two, n), want, "order {n}");
        if let Some(t) = two.helper_search(n).filter(|t| t.pool > 0) {
            assert_eq!(
                (t.pool, t.weights, t.select),
                (50, 5, sudoku_meta::Select::Cell)
            );
        }
    }
    // One thread: no helper at any order, and the solver says how many threads it uses.
    for n in 3..=8 {
        assert_eq!(one_thread().helper_search(n), None);
    }
    assert_eq!(Hybrid::new(one_thread()).threads(), 1);
    assert_eq!(Hybrid::new(two).threads(), 2);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(Hybrid::default().threads(), cores.min(2), "auto");
    // The expert keys override the per-order choice one part each; a given λ runs a helper at
    // every order.
    let mut p = Params::default();
    p.set("threads", "2").set("helper_lambda", "0.35");
    let cfg = HybridConfig::from_params(&p).unwrap();
    assert_eq!(helper(&cfg, 3), Some((0.35, false, 100_000)));
    assert_eq!(helper(&cfg, 7), Some((0.35, true, 1_000_000)));
    p.set("helper_scheme", "plain");
    let cfg = HybridConfig::from_params(&p).unwrap();
    assert_eq!(helper(&cfg, 7), Some((0.35, false, 100_000)));
    p.set("helper_scheme", "pooled").set("segment", "5000");
    let cfg = HybridConfig::from_params(&p).unwrap();
    assert_eq!(helper(&cfg, 7), Some((0.35, true, 5000)));
    assert_eq!(helper(&cfg, 6), Some((0.35, true, 5000)));
    let mut p = Params::default();
    p.set("threads", "2").set("helper_scheme", "pooled");
    let cfg = HybridConfig::from_params(&p).unwrap();
    assert_eq!(
        helper(&cfg, 4),
        None,
        "no helper below 25×25 unless λ is given"
    );
    assert_eq!(helper(&cfg, 6), Some((0.6, true, 100_000)));
    // The helper's keys with threads=1 make no sense, and the error says why.
    for key in ["helper_lambda", "helper_scheme"] {
        let mut p = Params::default();
        p.set("threads", "1").set(
            key,
            if key == "helper_scheme" {
                "plain"
            } else {
                "0.5"
            },
        );
        let err = (info.build)(&p).err().expect("refused").to_string();
        assert!(err.contains(key) && err.contains("threads=1"), "{err}");
    }
    // The old spelling keeps its meaning: a number is a helper of that tenure at every order,
    // plain with 100,000-step segments unless those are given; 0 is one thread; auto is two.
    let old = |pairs: &[(&str, &str)]| {
        let mut p = Params::default();
        for (k, v) in pairs {
            p.set(*k, *v);
        }
        HybridConfig::from_params(&p)
    };
    let cfg = old(&[("helper", "0.35")]).unwrap();
    assert_eq!(helper(&cfg, 3), Some((0.35, false, 100_000)));
    assert_eq!(helper(&cfg, 7), Some((0.35, false, 100_000)));
    let cfg = old(&[("helper", "0.5"), ("helper_scheme", "pooled")]).unwrap();
    assert_eq!(helper(&cfg, 7), Some((0.5, true, 100_000)));
    let cfg = old(&[
        ("helper", "0.5"),
        ("helper_scheme", "pooled"),
        ("segment", "1000000"),
    ]);
    assert_eq!(helper(&cfg.unwrap(), 7), Some((0.5, true, 1_000_000)));
    assert_eq!(old(&[("helper", "0")]).unwrap().threads(), 1);
    let cfg = old(&[("helper", "AUTO"), ("scheme", "auto")]).unwrap();
    assert_eq!((cfg.threads(), cfg.scheme), (2, Turns::Auto));
    for (n, want) in by_order {
        assert_eq!(helper(&cfg, n), want, "helper=auto, order {n}");
    }
    for key in ["threads", "helper_lambda"] {
        let err = old(&[("helper", "0.5"), (key, "1")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("helper") && err.contains(key), "{err}");
    }
    for bad in ["autox", "-0.5", "NaN"] {
        assert!(old(&[("helper", bad)]).is_err(), "helper={bad}");
    }
    // `none`, its default, is as if it were not given.
    let cfg = old(&[("helper", "none"), ("threads", "1")]).unwrap();
    assert_eq!(cfg, one_thread());
    // The call reports what ran: none at 16×16, plain 0.6 at 25×25; the puzzle is solved.
    for (n, shown) in [(4, None), (5, Some("plain 0.6"))] {
        let puzzle = carved(n, 0.45, 2);
        let out = Hybrid::new(two).solve(&puzzle, &generous(), &mut rng_from_seed(4));
        solved(&puzzle, &out.status, "two threads");
        assert_eq!(extra(&out.stats, "helper"), shown, "order {n}");
    }
}
