//! Criterion benchmark, bench only: `prop` (its 9×9 path) and the crates.io `sudoku` crate on
//! the same public sets, in the same order, on one thread; one iteration solves (or counts to
//! 2) every puzzle of a set, so criterion's time divided by the set's size is the mean per
//! puzzle. `cargo run --release -p speed-bench` prints the per-puzzle medians with the ratio.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use sudoku::Sudoku;
use sudoku_core::{format, rng_from_seed, Budget, Count, Puzzle, Solver, Variant};
use sudoku_fixtures::public_grids;
use sudoku_prop::Prop;

/// The sets of issue #18's table that datasets/public holds.
const SETS: [&str; 3] = [
    "magictour_top1465.txt",
    "norvig_top95.txt",
    "norvig_hardest.txt",
];

/// A set in both solvers' forms.
fn load(file: &str) -> (Vec<Puzzle>, Vec<Sudoku>) {
    let grids = public_grids(file)
        .expect("a committed public set")
        .expect("datasets/public is part of the checkout");
    let ours: Vec<Puzzle> = grids
        .into_iter()
        .map(|g| Puzzle::new(g, Variant::Classic))
        .collect();
    let theirs = ours
        .iter()
        .map(|p| {
            let line = format::to_line(p.givens()).expect("9×9 fits a line");
            Sudoku::from_str_line(&line).expect("a valid 9×9 line")
        })
        .collect();
    (ours, theirs)
}

fn side_by_side(c: &mut Criterion) {
    let budget = Budget::unlimited();
    for file in SETS {
        let (ours, theirs) = load(file);
        let set = file.trim_end_matches(".txt");
        let mut prop = Prop::default();
        let mut rng = rng_from_seed(0);
        let mut group = c.benchmark_group(format!("{set} ({} puzzles)", ours.len()));
        group.sample_size(20);
        group.bench_function(BenchmarkId::new("first", "prop"), |b| {
            b.iter(|| {
                for p in &ours {
                    black_box(prop.solve(p, &budget, &mut rng));
                }
            })
        });
        group.bench_function(BenchmarkId::new("first", "sudoku"), |b| {
            b.iter(|| {
                for s in &theirs {
                    black_box(s.some_solution());
                }
            })
        });
        group.bench_function(BenchmarkId::new("count-2", "prop"), |b| {
            b.iter(|| {
                for p in &ours {
                    black_box(prop.count(p, Count::upto(2), &budget, &mut rng).ok());
                }
            })
        });
        group.bench_function(BenchmarkId::new("count-2", "sudoku"), |b| {
            b.iter(|| {
                for s in &theirs {
                    black_box(s.solutions_count_up_to(2));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, side_by_side);
criterion_main!(benches);
