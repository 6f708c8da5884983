//! Criterion benchmark: `norvig` and `prop` (with each rule switch) on a few fixed puzzles.
//! Whole-file numbers come from the runner: `scripts/experiments/prop-sets.toml`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use sudoku_core::{format, rng_from_seed, Budget, Puzzle, Solver, Variant};
use sudoku_prop::{Norvig, Prop, PropConfig};

/// (name, puzzle line): an easy one, two hard 9×9 ones, and the empty 16×16 and 25×25 grids.
const PUZZLES: &[(&str, &str)] = &[
    (
        "easy",
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    ),
    (
        "top1465#1",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    ),
    (
        "norvig-hard",
        ".....6....59.....82....8....45........3........6..3.54...325..6..................",
    ),
];

fn puzzle(line: &str) -> Puzzle {
    let grid = format::parse_str(line, "bench")
        .expect("bench puzzle")
        .remove(0)
        .grid;
    Puzzle::new(grid, Variant::Classic)
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    let budget = Budget::unlimited();
    let mut rng = rng_from_seed(0);
    let configs = [
        ("prop", PropConfig::default()),
        (
            "prop-singles-only",
            PropConfig {
                locked_candidates: false,
                naked_pairs: false,
            },
        ),
        (
            "prop-all-rules",
            PropConfig {
                locked_candidates: true,
                naked_pairs: true,
            },
        ),
    ];
    let mut all: Vec<(String, Puzzle)> = PUZZLES
        .iter()
        .map(|(n, l)| (n.to_string(), puzzle(l)))
        .collect();
    for n in [4, 5] {
        let order = sudoku_core::Order::new(n).expect("order");
        all.push((
            format!("empty-{order}"),
            Puzzle::empty(order, Variant::Classic),
        ));
    }
    for (name, p) in &all {
        for (label, cfg) in configs {
            let mut s = Prop::new(cfg);
            group.bench_with_input(BenchmarkId::new(label, name), p, |b, p| {
                b.iter(|| s.solve(p, &budget, &mut rng))
            });
        }
        if p.order().n() == 3 {
            let mut s = Norvig::new();
            group.bench_with_input(BenchmarkId::new("norvig", name), p, |b, p| {
                b.iter(|| s.solve(p, &budget, &mut rng))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
