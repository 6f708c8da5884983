//! Agreement between the methods on samples of the public puzzle sets in datasets/public.

mod common;

use common::{all_solvers, dataset, sample};
use sudoku_baselines::Dlx;
use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Limit, Puzzle, Solver, Status,
    Variant,
};

/// Solves every puzzle with every method; all answers must verify and be the same grid (the
/// sets' puzzles have unique solutions, which DLX's count confirms). Pure backtracking and
/// row-major bit backtracking run under `slow_nodes` and may stop with
/// [`Status::Exhausted`] instead.
fn agree(file: &str, take: usize, slow_nodes: u64) {
    let Some(grids) = dataset(file) else { return };
    let mut rng = rng_from_seed(7);
    let mut solvers = all_solvers();
    let mut exhausted = 0;
    for (i, g) in grids.into_iter().take(sample(take)).enumerate() {
        let puzzle = Puzzle::new(g, Variant::Classic);
        let unique = Dlx::new()
            .count(&puzzle, Count::upto(2), &Budget::unlimited(), &mut rng)
            .unwrap();
        assert_eq!(
            (unique.count, unique.end),
            (1, CountEnd::Complete),
            "{file} #{i}"
        );
        let mut answer: Option<Grid> = None;
        for (name, s) in solvers.iter_mut() {
            let slow = name == "backtrack" || name.contains("row-major");
            let budget = Budget {
                nodes: slow.then_some(slow_nodes),
                ..Budget::default()
            };
            let out = s.solve(&puzzle, &budget, &mut rng);
            match out.status {
                Status::Solved(g) => {
                    verify_solution(&puzzle, &g)
                        .unwrap_or_else(|e| panic!("{name} on {file} #{i}: {e}"));
                    match &answer {
                        None => answer = Some(g),
                        Some(a) => assert_eq!(&g, a, "{name} on {file} #{i}"),
                    }
                }
                Status::Exhausted {
                    limit: Limit::Nodes,
                    best: None,
                } if slow => {
                    assert_eq!(out.stats.nodes, slow_nodes);
                    exhausted += 1;
                }
                other => panic!("{name} on {file} #{i}: {other:?}"),
            }
        }
    }
    eprintln!("{file}: {exhausted} budget stops of the slow methods");
}

#[test]
fn methods_agree_on_norvig_top95() {
    agree("norvig_top95.txt", 30, 20_000);
}

#[test]
fn methods_agree_on_magictour() {
    agree("magictour_top1465.txt", 100, 20_000);
}

#[test]
fn methods_agree_on_gecode_16x16() {
    let Some(grids) = dataset("gecode_16x16.txt") else {
        return;
    };
    let mut rng = rng_from_seed(7);
    for (i, g) in grids.into_iter().take(5).enumerate() {
        let puzzle = Puzzle::new(g, Variant::Classic);
        let mut answer: Option<Grid> = None;
        for (name, s) in all_solvers().iter_mut() {
            if !["dlx", "backtrack-fc", "backtrack-bits"].contains(&name.as_str()) {
                continue;
            }
            let out = s.solve(&puzzle, &Budget::unlimited(), &mut rng);
            let Status::Solved(g) = out.status else {
                panic!("{name} on 16x16 #{i}: {:?}", out.status)
            };
            verify_solution(&puzzle, &g).unwrap();
            match &answer {
                None => answer = Some(g),
                Some(a) => assert_eq!(&g, a, "{name} on 16x16 #{i}"),
            }
        }
    }
}
