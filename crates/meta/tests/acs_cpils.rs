//! `acs` and `cp-ils`: verified solutions on small public instances with fixed seeds,
//! reproducibility from the seed, and the pheromone and propagation invariants.

use proptest::prelude::*;
use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Grid, Order, Puzzle, Solver, Status, Variant,
};
use sudoku_meta::{deposit, Acs, AcsConfig, AntBoard, CpIls, CpIlsConfig, Pheromone};

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

/// The first `k` puzzles of a public set, or none when the datasets are absent.
fn public(file: &str, k: usize) -> Vec<Puzzle> {
    let Some(dir) = sudoku_fixtures::public_dir() else {
        return Vec::new();
    };
    let entries = format::read_file(&dir.join(file)).expect("readable dataset");
    entries
        .into_iter()
        .take(k)
        .map(|e| Puzzle::new(e.grid, Variant::Classic))
        .collect()
}

fn solvers() -> [Box<dyn Solver>; 2] {
    [
        Box::new(Acs::new(AcsConfig::default())),
        Box::new(CpIls::new(CpIlsConfig::default())),
    ]
}

fn assert_solved(p: &Puzzle, status: &Status, what: &str) {
    let Status::Solved(g) = status else {
        panic!("{what} not solved: {status:?}");
    };
    verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
}

#[test]
fn small_public_instances_are_solved_and_verified() {
    let mut puzzles = public("norvig_easy50.txt", 3);
    puzzles.extend(public("lewis/lewis_9x9_f045.txt", 3));
    puzzles.extend(public("lewis_acs_logic_solvable_9x9.txt", 2));
    puzzles.extend(public("gecode_16x16.txt", 2));
    for (i, p) in puzzles.iter().enumerate() {
        for mut s in solvers() {
            let out = s.solve(p, &iterations(50_000_000), &mut rng_from_seed(i as u64));
            assert_solved(p, &out.status, &format!("{} on puzzle {i}", s.name()));
            assert_eq!(out.stats.best_cost, Some(0));
        }
    }
}

/// The givens propagate to the same grid as in the authors' program (its `--showinitial`):
/// the cells fixed on the 25×25 Lewis instances whose count depends on the order in which
/// peers are constrained (a worklist over each cell's peers fixes 256, 254, 256, 300, 296 and
/// 313 here), and on two where it does not.
#[test]
fn givens_propagate_as_in_the_authors_program() {
    // (file, instance numbered from 0, cells fixed in their initial constrained grid)
    let cases = [
        ("lewis-25x25/lewis_25x25_f040.txt", 6, 255),
        ("lewis-25x25/lewis_25x25_f040.txt", 11, 253),
        ("lewis-25x25/lewis_25x25_f040.txt", 61, 258),
        ("lewis-25x25/lewis_25x25_f045.txt", 34, 298),
        ("lewis-25x25/lewis_25x25_f045.txt", 41, 293),
        ("lewis-25x25/lewis_25x25_f045.txt", 58, 311),
        ("lewis-25x25/lewis_25x25_f040.txt", 0, 253),
        ("lewis-25x25/lewis_25x25_f045.txt", 10, 300),
    ];
    for (file, i, fixed) in cases {
        let Some(p) = public(file, i + 1).pop() else {
            return;
        };
        let b = AntBoard::<1>::with_givens(&p).expect("the givens propagate");
        assert_eq!((b.fixed(), b.dead()), (fixed, 0), "{file} instance {i}");
    }
}

#[test]
fn an_empty_grid_and_a_diagonal_puzzle_are_solved() {
    for variant in [Variant::Classic, Variant::Diagonal] {
        let empty = Puzzle::empty(Order::new(3).unwrap(), variant);
        for mut s in solvers() {
            let out = s.solve(&empty, &iterations(50_000_000), &mut rng_from_seed(2));
            assert_solved(&empty, &out.status, &format!("{} {variant:?}", s.name()));
            let Status::Solved(full) = out.status else {
                unreachable!()
            };
            // A puzzle carved from that answer, solved again.
            let mut givens = full.clone();
            for i in 0..81 {
                if i % 2 == 0 || i % 5 == 0 {
                    givens.set(i, 0);
                }
            }
            let p = Puzzle::new(givens, variant);
            for mut t in solvers() {
                let out = t.solve(&p, &iterations(50_000_000), &mut rng_from_seed(3));
                assert_solved(&p, &out.status, &format!("{} carved {variant:?}", t.name()));
            }
        }
    }
}

#[test]
fn same_seed_same_run() {
    let mut puzzles = public("norvig_top95.txt", 2);
    puzzles.extend(public("gecode_16x16.txt", 1));
    if puzzles.is_empty() {
        puzzles.push(Puzzle::empty(Order::new(4).unwrap(), Variant::Classic));
    }
    for p in &puzzles {
        // A budget that may stop a run unsolved, and one that solves: both must repeat.
        for budget in [iterations(3_000), iterations(50_000_000)] {
            for (mut a, mut b) in solvers().into_iter().zip(solvers()) {
                let x = a.solve(p, &budget, &mut rng_from_seed(17));
                let y = b.solve(p, &budget, &mut rng_from_seed(17));
                assert_eq!(x.status, y.status, "{}", a.name());
                assert_eq!(x.stats.iterations, y.stats.iterations, "{}", a.name());
                assert_eq!(x.stats.restarts, y.stats.restarts, "{}", a.name());
                assert_eq!(x.stats.best_cost, y.stats.best_cost, "{}", a.name());
                assert_eq!(x.stats.extra, y.stats.extra, "{}", a.name());
                if let Status::Solved(g) = &x.status {
                    verify_solution(p, g).unwrap();
                }
            }
        }
    }
}

#[test]
fn contradictory_givens_are_infeasible_and_unsolved_runs_keep_no_grid() {
    // Row 1 needs a 9 at r1c9, but column 9 already holds one: singles find the empty cell.
    let line = "12345678.........9...............................................................";
    let p = Puzzle::new(
        format::parse_str(line, "t").unwrap()[0].grid.clone(),
        Variant::Classic,
    );
    for mut s in solvers() {
        let out = s.solve(&p, &iterations(1_000), &mut rng_from_seed(0));
        assert_eq!(out.status, Status::Infeasible, "{}", s.name());
    }
    let hard = public("norvig_top95.txt", 1);
    for p in &hard {
        for mut s in solvers() {
            let out = s.solve(p, &iterations(50), &mut rng_from_seed(0));
            if let Status::Exhausted { best, .. } = &out.status {
                assert!(best.is_none());
                assert!(out.stats.best_cost.unwrap() > 0);
            }
        }
    }
}

/// A 9×9 solution to carve puzzles from.
fn solution9() -> Grid {
    let empty = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    match CpIls::default()
        .solve(&empty, &iterations(1_000_000), &mut rng_from_seed(1))
        .status
    {
        Status::Solved(g) => g,
        other => panic!("no solution of the empty grid: {other:?}"),
    }
}

/// A 9×9 puzzle keeping the cells of [`solution9`] where `keep` says.
fn carved(keep: &[bool]) -> Puzzle {
    let mut givens = solution9();
    for (i, &k) in keep.iter().enumerate() {
        if !k {
            givens.set(i, 0);
        }
    }
    Puzzle::new(givens, Variant::Classic)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Local and global updates, with the colony's deposit and best-value evaporation,
    /// keep every value within [tau0, cells]; the global update moves each best cell towards
    /// the deposit, so it raises every value below it.
    #[test]
    fn pheromone_stays_within_bounds(
        steps in proptest::collection::vec((0usize..81, 1usize..=9, 0usize..81, any::<bool>()), 1..300),
        rho in 0.0f64..=1.0,
        xi in 0.0f64..=1.0,
        bve in 0.0f64..=0.5,
    ) {
        let cells = 81;
        let mut ph = Pheromone::new(cells, 9);
        let mut best = vec![0u16; cells];
        let mut best_deposit = 0.0f64;
        for (c, d, filled, global) in steps {
            if global {
                best[c] = d as u16;
                best_deposit = best_deposit.max(deposit(cells, filled));
                let before = ph.get(c, d);
                ph.global(&best, rho, best_deposit);
                let after = ph.get(c, d);
                prop_assert!((after - best_deposit).abs() <= (before - best_deposit).abs() + 1e-12);
                if before < best_deposit && rho > 0.0 {
                    prop_assert!(after > before);
                }
                best_deposit *= 1.0 - bve;
            } else {
                ph.local(c, d, xi);
            }
            let tau0 = ph.tau0();
            for &t in ph.values() {
                prop_assert!(t.is_finite());
                prop_assert!(t >= tau0 * (1.0 - 1e-12) && t <= cells as f64 * (1.0 + 1e-12));
            }
        }
    }

    /// Ant propagation: givens stay, no unit holds a digit twice, every open cell's
    /// candidates avoid the digits fixed among its peers, and the counts add up.
    #[test]
    fn ant_board_stays_consistent(
        keep in proptest::collection::vec(prop::bool::weighted(0.35), 81),
        choices in proptest::collection::vec((0usize..81, 0usize..9), 0..81),
    ) {
        let p = carved(&keep);
        let geo = p.geometry();
        let mut b = AntBoard::<1>::with_givens(&p).expect("givens of a solution propagate");
        for (c, pick) in choices {
            let cand = b.candidates(c);
            if b.value(c) != 0 || cand.is_empty() {
                continue;
            }
            let d = cand.iter().nth(pick % cand.len()).unwrap();
            b.set(c, d);
            let mut fixed = 0;
            let mut dead = 0;
            for cell in 0..81 {
                let g = p.givens().get(cell);
                if g != 0 {
                    prop_assert_eq!(b.value(cell), g);
                }
                let v = b.value(cell);
                if v != 0 {
                    fixed += 1;
                    prop_assert_eq!(b.candidates(cell).only(), Some(v as usize));
                    for &q in geo.peers(cell) {
                        prop_assert_ne!(b.value(q as usize), v);
                    }
                } else if b.candidates(cell).is_empty() {
                    dead += 1;
                } else {
                    for &q in geo.peers(cell) {
                        let w = b.value(q as usize);
                        prop_assert!(w == 0 || !b.candidates(cell).contains(w as usize));
                    }
                }
            }
            prop_assert_eq!(fixed, b.fixed());
            prop_assert_eq!(dead, b.dead());
        }
    }

    /// cp-ils from any seed and budget: a solution passes the verifier and keeps the givens;
    /// an unsolved run reports a cost no larger than the open cells after the givens.
    #[test]
    fn cp_ils_answers_are_sound(
        keep in proptest::collection::vec(prop::bool::weighted(0.3), 81),
        seed in any::<u64>(),
        budget in 1u64..3_000,
    ) {
        let p = carved(&keep);
        let out = CpIls::default().solve(&p, &iterations(budget), &mut rng_from_seed(seed));
        match &out.status {
            Status::Solved(g) => prop_assert!(verify_solution(&p, g).is_ok()),
            Status::Exhausted { best: None, .. } => {
                prop_assert!(out.stats.best_cost.unwrap() <= 81 - p.givens().filled() as u64);
            }
            other => prop_assert!(false, "unexpected {:?}", other),
        }
    }
}
