//! One conformance test for every registered method and generator of every crate: the
//! registry contract (unique names, documented parameters whose defaults build, unknown keys
//! and out-of-range values rejected) and behaviour on the papers' puzzles read from
//! `datasets/seeds/` (exact methods solve, prove infeasible and count; incomplete ones return
//! only verified solutions; generators give verified grids).

use std::collections::BTreeSet;

use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, GeneratorInfo, Grid, Order,
    ParamError, ParamSpec, Params, Puzzle, Status, Variant,
};
use sudoku_fixtures::{seed_pairs, seed_puzzles};

mod common;
use common::methods;

fn generators() -> Vec<GeneratorInfo> {
    [sudoku_gen::generators(), sudoku_ilp::generators()].concat()
}

/// Values `spec` must reject: text no parameter accepts and, for a documented numeric range
/// (`lo..=hi` or `0..`), values outside it and NaN.
fn bad_values(spec: &ParamSpec) -> Vec<String> {
    let mut bad = vec!["not-a-value".to_string()];
    let range = spec.range.split(' ').next().unwrap_or("");
    if range == "0.." {
        bad.push("-1".into());
    } else if let Some((lo, hi)) = range.split_once("..=") {
        if let (Ok(lo), Ok(hi)) = (lo.parse::<f64>(), hi.parse::<f64>()) {
            bad.push((hi + 1.0).to_string());
            bad.push((lo - 1.0).to_string());
            bad.push("NaN".into());
        }
    }
    bad
}

/// The parameter contract of one registry entry.
fn check_params<T>(
    kind: &str,
    name: &str,
    specs: &[ParamSpec],
    build: impl Fn(&Params) -> Result<T, ParamError>,
) {
    assert!(build(&Params::new()).is_ok(), "{kind} {name}: defaults");
    let mut keys = BTreeSet::new();
    let mut all_defaults = Params::new();
    for spec in specs {
        assert!(keys.insert(spec.name), "{kind} {name}: {} twice", spec.name);
        assert!(
            !spec.help.is_empty() && !spec.range.is_empty() && !spec.default.is_empty(),
            "{kind} {name}: {} undocumented",
            spec.name
        );
        let mut p = Params::new();
        p.set(spec.name, spec.default);
        assert!(build(&p).is_ok(), "{kind} {name}: {}'s default", spec.name);
        all_defaults.set(spec.name, spec.default);
        for bad in bad_values(spec) {
            let mut p = Params::new();
            p.set(spec.name, bad.as_str());
            assert!(
                matches!(build(&p).err(), Some(ParamError::Invalid { .. })),
                "{kind} {name}: {}={bad} accepted",
                spec.name
            );
        }
    }
    assert!(build(&all_defaults).is_ok(), "{kind} {name}: all defaults");
    let mut unknown = Params::new();
    unknown.set("no_such_key", "1");
    assert!(
        matches!(build(&unknown).err(), Some(ParamError::Unknown { .. })),
        "{kind} {name}: unknown key accepted"
    );
}

#[test]
fn every_registry_entry_keeps_the_contract() {
    let methods = methods();
    let names: BTreeSet<&str> = methods.iter().map(|m| m.name).collect();
    assert_eq!(names.len(), methods.len(), "method names are not unique");
    for m in &methods {
        check_params("method", m.name, m.params, |p| (m.build)(p).map(|_| ()));
        let solver = (m.build)(&Params::new()).expect("defaults build");
        assert_eq!(solver.name(), m.name);
        // Exact methods are deterministic, but for `hybrid`, whose tabu half draws random
        // moves (they change its speed, not its verdicts);
        // incomplete ones are randomized searches, or rule solvers (`logic`) that are
        // deterministic but may end stuck.
        assert!(
            !(m.caps.complete && m.caps.randomized) || m.name == "hybrid",
            "{}: exact methods here are deterministic",
            m.name
        );
    }
    let generators = generators();
    let names: BTreeSet<&str> = generators.iter().map(|g| g.name).collect();
    assert_eq!(
        names.len(),
        generators.len(),
        "generator names are not unique"
    );
    for g in &generators {
        check_params("generator", g.name, g.params, |p| (g.build)(p).map(|_| ()));
        assert_eq!((g.build)(&Params::new()).expect("builds").name(), g.name);
    }
}

/// A puzzle and the solution the paper prints for it.
type Pair = (Puzzle, Grid);

/// The 9×9 seed puzzles with their printed solutions, split into those with a unique
/// solution and those with several: the `multiple` file and the empty Sudoku-X grid.
fn seeds() -> (Vec<Pair>, Vec<Pair>) {
    let (mut unique, mut several) = (Vec::new(), Vec::new());
    for (stem, variant) in [
        ("000_unicamp_ilp", Variant::Classic),
        ("000_unicamp_ilp.diagonal", Variant::Diagonal),
        ("000_unicamp_ilp.multiple", Variant::Classic),
        ("001_jump", Variant::Classic),
        ("002_takano", Variant::Classic),
    ] {
        for pair in seed_pairs(stem, variant).expect("seed file") {
            let is_several = stem.ends_with("multiple") || pair.0.givens().filled() == 0;
            if is_several {
                &mut several
            } else {
                &mut unique
            }
            .push(pair);
        }
    }
    assert_eq!((unique.len(), several.len()), (7 + 4 + 4 + 1, 1 + 4));
    (unique, several)
}

/// Figure 1a of Raimundo et al. read as Sudoku-X: its givens do not clash, but it has no solution.
fn infeasible_seed() -> Puzzle {
    let puzzle =
        seed_puzzles("000_unicamp_ilp.txt", Variant::Diagonal).expect("seed file")[0].clone();
    assert!(sudoku_core::check_givens(&puzzle).is_ok());
    puzzle
}

#[test]
fn exact_methods_solve_prove_and_count_the_seed_puzzles() {
    let (unique, several) = seeds();
    let infeasible = infeasible_seed();
    for m in methods().iter().filter(|m| m.caps.complete) {
        let mut solver = (m.build)(&Params::new()).expect("defaults build");
        let mut rng = rng_from_seed(1);
        let unlimited = Budget::unlimited();
        for (puzzle, answer) in &unique {
            let out = solver.solve(puzzle, &unlimited, &mut rng);
            assert_eq!(out.status, Status::Solved(answer.clone()), "{}", m.name);
        }
        let out = solver.solve(&infeasible, &unlimited, &mut rng);
        assert_eq!(out.status, Status::Infeasible, "{}", m.name);
        let count = solver
            .count(&infeasible, Count::upto(2), &unlimited, &mut rng)
            .expect("exact methods count");
        assert_eq!(
            (count.count, count.end),
            (0, CountEnd::Complete),
            "{}",
            m.name
        );
        // Each has at least two solutions.
        for (puzzle, printed) in &several {
            let count = solver
                .count(puzzle, Count::collecting(2), &unlimited, &mut rng)
                .expect("exact methods count");
            assert_eq!(
                (count.count, count.end),
                (2, CountEnd::LimitReached),
                "{}",
                m.name
            );
            for g in &count.solutions {
                assert!(verify_solution(puzzle, g).is_ok(), "{}", m.name);
            }
            // Figure 9 has exactly two solutions, so both printed ones are found.
            if puzzle.givens().filled() == 77 {
                assert!(count.solutions.contains(printed), "{}", m.name);
            }
        }
    }
}

#[test]
fn incomplete_methods_return_only_verified_solutions_on_the_seed_puzzles() {
    let budget = Budget {
        iterations: Some(300_000),
        ..Budget::default()
    };
    let (unique, _) = seeds();
    let infeasible = infeasible_seed();
    for m in methods().iter().filter(|m| !m.caps.complete) {
        let mut solver = (m.build)(&Params::new()).expect("defaults build");
        let mut solved = 0;
        for (i, (puzzle, answer)) in unique.iter().enumerate() {
            let out = solver.solve(puzzle, &budget, &mut rng_from_seed(i as u64));
            match out.status {
                Status::Solved(g) => {
                    assert_eq!(&g, answer, "{}: a unique puzzle's solution", m.name);
                    solved += 1;
                }
                Status::Exhausted { .. } => {}
                // A rule solver that cannot finish keeps only digits of the solution.
                Status::Stuck { grid, .. } => {
                    for (d, a) in grid.cells().iter().zip(answer.cells()) {
                        assert!(*d == 0 || d == a, "{}: stuck grid", m.name);
                    }
                }
                other => panic!("{}: {other:?}", m.name),
            }
        }
        // JuMP's first puzzle (the easy one) at least.
        assert!(solved > 0, "{} solved no seed puzzle", m.name);
        let out = solver.solve(&infeasible, &budget, &mut rng_from_seed(0));
        assert!(
            matches!(
                out.status,
                Status::Exhausted { .. } | Status::Infeasible | Status::Stuck { .. }
            ),
            "{}: {:?}",
            m.name,
            out.status
        );
    }
}

#[test]
fn generators_give_verified_grids_of_order_2_and_3() {
    for g in generators() {
        let mut generator = (g.build)(&Params::new()).expect("defaults build");
        for n in [2, 3] {
            let order = Order::new(n).expect("order");
            for variant in Variant::ALL {
                let budget = Budget::time(std::time::Duration::from_secs(20));
                let out = generator.generate(order, variant, &budget, &mut rng_from_seed(n as u64));
                let Status::Solved(grid) = out.status else {
                    panic!("{} {n} {variant:?}: {:?}", g.name, out.status)
                };
                let empty = Puzzle::empty(order, variant);
                assert!(verify_solution(&empty, &grid).is_ok(), "{}", g.name);
            }
        }
    }
}
