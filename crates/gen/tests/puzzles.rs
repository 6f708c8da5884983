//! Carving: unique puzzles count exactly one solution (by two independent counters), minimal
//! puzzles lose uniqueness when any clue goes, the Lewis share keeps the right number of
//! clues; the counter and the Latin-square reduction give known counts.

use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Generator, Grid, Order, Outcome,
    Puzzle, Rng, Solver, Status, Variant,
};
use sudoku_gen::{
    latin_to_sudoku, make_puzzle, sudoku_to_latin, CarveEnd, FillCounter, GenError, Level,
    PropFill, PuzzleSpec, Symmetry,
};
use sudoku_prop::Prop;

fn order(n: usize) -> Order {
    Order::new(n).unwrap()
}

fn full_grid(n: usize, v: Variant, seed: u64) -> Grid {
    let out =
        PropFill::default().generate(order(n), v, &Budget::unlimited(), &mut rng_from_seed(seed));
    match out.status {
        Status::Solved(g) => g,
        s => panic!("no grid: {s:?}"),
    }
}

fn count(s: &mut dyn Solver, givens: &Grid, v: Variant, limit: u64) -> (u64, CountEnd) {
    let out = s
        .count(
            &Puzzle::new(givens.clone(), v),
            Count::upto(limit),
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap();
    (out.count, out.end)
}

fn carve(
    grid: &Grid,
    v: Variant,
    spec: PuzzleSpec,
    sym: Symmetry,
    seed: u64,
) -> sudoku_gen::Carved {
    make_puzzle(
        grid,
        v,
        spec,
        sym,
        &mut Prop::default(),
        &Budget::unlimited(),
        &mut rng_from_seed(seed),
    )
    .unwrap()
}

/// Unique for both counters, consistent with the grid.
fn assert_unique(givens: &Grid, grid: &Grid, v: Variant) {
    let puzzle = Puzzle::new(givens.clone(), v);
    verify_solution(&puzzle, grid).expect("the grid solves its puzzle");
    assert_eq!(
        count(&mut Prop::default(), givens, v, 2),
        (1, CountEnd::Complete)
    );
    assert_eq!(
        count(&mut FillCounter::new(), givens, v, 2),
        (1, CountEnd::Complete)
    );
}

#[test]
fn minimal_puzzles_are_unique_and_every_clue_is_needed() {
    for (n, v, seeds) in [
        (2, Variant::Classic, 0..5),
        (3, Variant::Classic, 0..8),
        (3, Variant::Diagonal, 0..4),
        (4, Variant::Classic, 0..2),
    ] {
        for seed in seeds {
            let grid = full_grid(n, v, seed);
            let c = carve(&grid, v, PuzzleSpec::Minimal, Symmetry::None, seed);
            assert_eq!(c.end, CarveEnd::Minimal);
            assert_eq!(c.clues, c.givens.filled());
            assert!(c.checks as usize >= order(n).cells() - c.clues);
            assert_unique(&c.givens, &grid, v);
            let mut prop = Prop::default();
            for cell in 0..order(n).cells() {
                if c.givens.get(cell) != 0 {
                    let mut fewer = c.givens.clone();
                    fewer.set(cell, 0);
                    let (k, _) = count(&mut prop, &fewer, v, 2);
                    assert_eq!(k, 2, "{n} {v} seed {seed}: clue {cell} is not needed");
                }
            }
            if n == 3 && v == Variant::Classic {
                assert!((17..=35).contains(&c.clues), "{} clues", c.clues);
            }
        }
    }
}

#[test]
fn clue_targets_levels_and_symmetry() {
    let v = Variant::Classic;
    for seed in 0..4 {
        let grid = full_grid(3, v, 100 + seed);
        let c = carve(
            &grid,
            v,
            PuzzleSpec::Unique { clues: Some(40) },
            Symmetry::None,
            seed,
        );
        assert_eq!((c.clues, c.end), (40, CarveEnd::Target));
        assert_unique(&c.givens, &grid, v);

        let easy = carve(
            &grid,
            v,
            PuzzleSpec::Level(Level::Easy),
            Symmetry::None,
            seed,
        );
        assert_eq!((easy.clues, easy.end), (37, CarveEnd::Target));
        assert_unique(&easy.givens, &grid, v);
        let medium = carve(
            &grid,
            v,
            PuzzleSpec::Level(Level::Medium),
            Symmetry::None,
            seed,
        );
        assert!(medium.clues >= 29 && medium.clues < 37);
        assert_unique(&medium.givens, &grid, v);
        let hard = carve(
            &grid,
            v,
            PuzzleSpec::Level(Level::Hard),
            Symmetry::None,
            seed,
        );
        assert_eq!(hard.end, CarveEnd::Minimal);
        assert_unique(&hard.givens, &grid, v);

        // Point symmetry: cell i is a clue exactly when cell 80 - i is.
        let s = carve(&grid, v, PuzzleSpec::Minimal, Symmetry::Point, seed);
        for i in 0..81 {
            assert_eq!(s.givens.get(i) != 0, s.givens.get(80 - i) != 0);
        }
        assert_unique(&s.givens, &grid, v);
        // Unique without a target is minimal too (one pass suffices).
        let u = carve(
            &grid,
            v,
            PuzzleSpec::Unique { clues: None },
            Symmetry::None,
            seed,
        );
        assert_eq!(u.end, CarveEnd::Minimal);
    }
    assert_eq!(Level::Easy.target(81), Some(37));
    assert_eq!(Level::Medium.target(256), Some(90));
    assert_eq!(Level::Hard.target(81), None);
}

#[test]
fn larger_orders_carve_to_a_target() {
    for (n, v, target) in [(4, Variant::Diagonal, 140), (5, Variant::Classic, 400)] {
        let grid = full_grid(n, v, 7);
        let c = carve(
            &grid,
            v,
            PuzzleSpec::Unique {
                clues: Some(target),
            },
            Symmetry::None,
            7,
        );
        assert_eq!((c.clues, c.end), (target, CarveEnd::Target));
        assert_unique(&c.givens, &grid, v);
    }
}

#[test]
fn keep_share_keeps_that_many_clues_of_the_grid() {
    let grid = full_grid(3, Variant::Classic, 1);
    for (p, k) in [(0.0, 0), (0.4, 32), (0.45, 36), (0.5, 41), (1.0, 81)] {
        let c = carve(
            &grid,
            Variant::Classic,
            PuzzleSpec::Keep(p),
            Symmetry::None,
            3,
        );
        assert_eq!((c.clues, c.givens.filled(), c.end), (k, k, CarveEnd::Kept));
        verify_solution(&Puzzle::new(c.givens.clone(), Variant::Classic), &grid).unwrap();
    }
    let err = make_puzzle(
        &grid,
        Variant::Classic,
        PuzzleSpec::Keep(1.5),
        Symmetry::None,
        &mut Prop::default(),
        &Budget::unlimited(),
        &mut rng_from_seed(0),
    )
    .unwrap_err();
    assert!(matches!(err, GenError::Share(_)));
}

#[test]
fn same_seed_same_puzzle() {
    let grid = full_grid(3, Variant::Classic, 5);
    let a = carve(
        &grid,
        Variant::Classic,
        PuzzleSpec::Minimal,
        Symmetry::None,
        11,
    );
    let b = carve(
        &grid,
        Variant::Classic,
        PuzzleSpec::Minimal,
        Symmetry::None,
        11,
    );
    let c = carve(
        &grid,
        Variant::Classic,
        PuzzleSpec::Minimal,
        Symmetry::None,
        12,
    );
    assert_eq!(a, b);
    assert_ne!(a.givens, c.givens);
}

struct NoCount;
impl Solver for NoCount {
    fn name(&self) -> &str {
        "no-count"
    }
    fn solve(&mut self, _: &Puzzle, _: &Budget, _: &mut Rng) -> Outcome {
        Outcome {
            status: Status::Infeasible,
            stats: Default::default(),
        }
    }
}

#[test]
fn bad_inputs_are_errors() {
    let grid = full_grid(3, Variant::Classic, 2);
    let mut broken = grid.clone();
    broken.set(0, grid.get(1));
    let run = |g: &Grid, checker: &mut dyn Solver| {
        make_puzzle(
            g,
            Variant::Classic,
            PuzzleSpec::Minimal,
            Symmetry::None,
            checker,
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
    };
    assert!(matches!(
        run(&broken, &mut Prop::default()),
        Err(GenError::NotASolution(_))
    ));
    assert!(matches!(
        run(&grid, &mut NoCount),
        Err(GenError::Checker(_))
    ));
    // A tiny node budget stops carving with a unique (if not minimal) puzzle.
    let c = make_puzzle(
        &grid,
        Variant::Classic,
        PuzzleSpec::Minimal,
        Symmetry::None,
        &mut FillCounter::new(),
        &Budget {
            iterations: Some(10),
            ..Budget::default()
        },
        &mut rng_from_seed(0),
    )
    .unwrap();
    assert_eq!(c.end, CarveEnd::Budget(sudoku_core::Limit::Iterations));
    assert_eq!(c.checks, 10);
    assert_unique(&c.givens, &grid, Variant::Classic);
}

#[test]
fn a_check_out_of_nodes_keeps_its_clue_and_carving_goes_on() {
    let grid = full_grid(4, Variant::Classic, 3);
    let carve = |nodes: Option<u64>| {
        make_puzzle(
            &grid,
            Variant::Classic,
            PuzzleSpec::Minimal,
            Symmetry::None,
            &mut Prop::default(),
            &Budget {
                nodes,
                ..Budget::default()
            },
            &mut rng_from_seed(5),
        )
        .unwrap()
    };
    let full = carve(None);
    let bounded = carve(Some(1));
    assert_eq!(full.end, CarveEnd::Minimal);
    // Every cell is still tried; the ones whose check ran out keep their clue.
    let CarveEnd::Undecided(k) = bounded.end else {
        panic!("expected undecided checks, got {:?}", bounded.end);
    };
    assert!(k > 0);
    assert_eq!(bounded.checks, full.checks);
    assert!(bounded.clues > full.clues);
    assert_unique(&bounded.givens, &grid, Variant::Classic);
}

#[test]
fn counter_knows_small_counts_and_agrees_with_prop() {
    // 288 full 4x4 Sudoku grids; 12 Latin squares of side 3 (via the reduction below).
    let empty = Grid::empty(order(2));
    assert_eq!(
        count(&mut FillCounter::new(), &empty, Variant::Classic, 1000),
        (288, CountEnd::Complete)
    );
    assert_eq!(
        count(&mut FillCounter::new(), &empty, Variant::Diagonal, 1000),
        count(&mut Prop::default(), &empty, Variant::Diagonal, 1000)
    );
    // Sparse 9x9 puzzles with many solutions: both counters agree on exact counts.
    for seed in 0..6 {
        let grid = full_grid(3, Variant::Classic, seed);
        let c = carve(
            &grid,
            Variant::Classic,
            PuzzleSpec::Keep(0.3),
            Symmetry::None,
            seed,
        );
        let a = count(&mut FillCounter::new(), &c.givens, Variant::Classic, 5000);
        let b = count(&mut Prop::default(), &c.givens, Variant::Classic, 5000);
        assert_eq!(a, b, "seed {seed}");
        assert!(a.0 >= 1);
    }
    let mut collected = FillCounter::new()
        .count(
            &Puzzle::empty(order(2), Variant::Classic),
            Count::collecting(10),
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap();
    assert_eq!(
        (collected.count, collected.end),
        (10, CountEnd::LimitReached)
    );
    for g in collected.solutions.drain(..) {
        verify_solution(&Puzzle::empty(order(2), Variant::Classic), &g).unwrap();
    }
}

#[test]
fn counter_solves_published_puzzles_uniquely() {
    let Some(grids) = sudoku_fixtures::public_grids("norvig_top95.txt").unwrap() else {
        return;
    };
    let mut fc = FillCounter::new();
    for (i, g) in grids.iter().take(30).enumerate() {
        let p = Puzzle::new(g.clone(), Variant::Classic);
        let out = fc
            .count(
                &p,
                Count::collecting(2),
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
        assert_eq!(
            (out.count, out.end),
            (1, CountEnd::Complete),
            "puzzle {}",
            i + 1
        );
        verify_solution(&p, &out.solutions[0]).unwrap();
    }
}

#[test]
fn latin_square_reduction_preserves_counts() {
    // Completions of the empty Latin square of side 2, 3, 4: 2, 12, 576.
    for (n, expected) in [(2, 2), (3, 12), (4, 576)] {
        let p = latin_to_sudoku(n, &vec![0; n * n]).unwrap();
        assert_eq!(p.givens().filled(), order(n).cells() - n * n);
        let out = Prop::default()
            .count(
                &p,
                Count::collecting(10_000),
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
        assert_eq!(
            (out.count, out.end),
            (expected, CountEnd::Complete),
            "side {n}"
        );
        for s in &out.solutions {
            verify_solution(&p, s).unwrap();
            let l = sudoku_to_latin(s);
            for i in 0..n {
                let mut row: Vec<u16> = l[i * n..(i + 1) * n].to_vec();
                let mut col: Vec<u16> = (0..n).map(|r| l[r * n + i]).collect();
                row.sort();
                col.sort();
                let all: Vec<u16> = (1..=n as u16).collect();
                assert_eq!((row, col), (all.clone(), all));
            }
        }
    }
    // A partial square with one completion, and one with none.
    let one = [1, 2, 0, 0, 0, 1, 0, 0, 0];
    let p = latin_to_sudoku(3, &one).unwrap();
    let out = Prop::default()
        .count(
            &p,
            Count::collecting(10),
            &Budget::unlimited(),
            &mut rng_from_seed(0),
        )
        .unwrap();
    assert_eq!(out.count, 1);
    assert_eq!(
        sudoku_to_latin(&out.solutions[0]),
        vec![1, 2, 3, 2, 3, 1, 3, 1, 2]
    );
    let dead = [1, 0, 0, 0, 0, 1, 0, 2, 0];
    // Row 3 holds a 2 in column 2 and needs its 1 in column 1 or 3, which both have one.
    assert_eq!(
        count(
            &mut Prop::default(),
            latin_to_sudoku(3, &dead).unwrap().givens(),
            Variant::Classic,
            10
        )
        .0,
        0
    );
    assert!(matches!(
        latin_to_sudoku(3, &[0; 8]),
        Err(GenError::LatinShape { .. })
    ));
    assert!(matches!(
        latin_to_sudoku(3, &[4; 9]),
        Err(GenError::LatinSymbol { .. })
    ));
    assert!(matches!(latin_to_sudoku(1, &[0]), Err(GenError::Order(_))));
}
