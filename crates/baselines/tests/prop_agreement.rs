//! Agreement with the propagators of `sudoku-prop` (another crate, another author): same
//! answers on dataset samples, same counts on the count fixtures.

mod common;

use common::{all_solvers, dataset, sample};
use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Order, Params, Puzzle, Solver,
    Status, Variant,
};

fn propagators() -> Vec<(String, Box<dyn Solver + Send>)> {
    sudoku_prop::methods()
        .iter()
        .map(|m| {
            (
                m.name.to_string(),
                (m.build)(&Params::new()).expect("defaults are valid"),
            )
        })
        .collect()
}

fn solve(name: &str, s: &mut Box<dyn Solver + Send>, puzzle: &Puzzle) -> Grid {
    let out = s.solve(puzzle, &Budget::unlimited(), &mut rng_from_seed(3));
    match out.status {
        Status::Solved(g) => {
            verify_solution(puzzle, &g).unwrap_or_else(|e| panic!("{name}: {e}"));
            g
        }
        other => panic!("{name}: {other:?}"),
    }
}

/// Every fast baseline (the slow ones are covered in `datasets.rs`) gives prop's answer.
fn agree_with_prop(file: &str, take: usize, variant: Variant) {
    let Some(grids) = dataset(file) else { return };
    let mut props = propagators();
    let mut ours: Vec<_> = all_solvers()
        .into_iter()
        .filter(|(n, _)| ["dlx", "backtrack-fc", "backtrack-bits"].contains(&n.as_str()))
        .collect();
    for (i, g) in grids.into_iter().take(sample(take)).enumerate() {
        let puzzle = Puzzle::new(g, variant);
        let (pname, p) = &mut props[0];
        let reference = solve(pname, p, &puzzle);
        for (name, s) in ours.iter_mut().chain(props.iter_mut().skip(1)) {
            assert_eq!(
                solve(name, s, &puzzle),
                reference,
                "{name} vs prop on {file} #{i}"
            );
        }
    }
}

#[test]
fn agree_with_prop_on_norvig_top95() {
    agree_with_prop("norvig_top95.txt", 30, Variant::Classic);
}

#[test]
fn agree_with_prop_on_magictour() {
    agree_with_prop("magictour_top1465.txt", 100, Variant::Classic);
}

#[test]
fn agree_with_prop_on_gecode_16x16() {
    agree_with_prop("gecode_16x16.txt", 5, Variant::Classic);
}

#[test]
fn counts_agree_with_prop() {
    let mut rng = rng_from_seed(3);
    let cases = [
        Puzzle::empty(Order::new(2).unwrap(), Variant::Classic),
        Puzzle::empty(Order::new(2).unwrap(), Variant::Diagonal),
    ];
    for puzzle in &cases {
        let mut counts = Vec::new();
        for (name, mut s) in propagators().into_iter().chain(all_solvers()) {
            let c = s
                .count(puzzle, Count::upto(10_000), &Budget::unlimited(), &mut rng)
                .unwrap();
            assert_eq!(c.end, CountEnd::Complete, "{name}");
            counts.push((name, c.count));
        }
        assert!(
            counts.iter().all(|(_, c)| *c == counts[0].1),
            "{} counts differ: {counts:?}",
            puzzle.variant()
        );
    }
}
