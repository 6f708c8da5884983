//! `mmcol`: known solutions, hard-region puzzles on one and two threads, proved infeasibility,
//! an exhausted run's grid and cost, reproducibility from the seed, and the Latin square side
//! (generated quasigroups with holes, the kernelization's proofs, completions checked).

use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Grid, Params, Puzzle, Solver, Status, Variant,
};
use sudoku_fixtures::{carved_pattern, line_puzzle, seed_pairs, UNSOLVABLE_PAST_SINGLES};
use sudoku_meta::mmcol::latin::{quasigroup_with_holes, random_latin, LatinError, PartialLatin};
use sudoku_meta::{methods, solve_latin, tabucol_latin, Mmcol, MmcolConfig};

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

/// A small configuration, so that generations come quickly on small puzzles.
fn small() -> MmcolConfig {
    MmcolConfig {
        population: 6,
        depth: 2_000,
        rounds: 1,
        ..MmcolConfig::default()
    }
}

fn solved(p: &Puzzle, status: &Status, what: &str) -> Grid {
    let Status::Solved(g) = status else {
        panic!("{what} not solved: {status:?}");
    };
    verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
    g.clone()
}

/// Pairs of peers holding one digit in `g`: the cost `mmcol` reports.
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

fn extra<'a>(stats: &'a sudoku_core::Stats, key: &str) -> &'a str {
    stats
        .extra
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key} in {:?}", stats.extra))
}

#[test]
fn seed_puzzles_give_the_printed_solutions() {
    let pairs = seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook loads");
    for (k, (p, solution)) in pairs.iter().enumerate() {
        let out =
            Mmcol::new(small()).solve(p, &iterations(5_000_000), &mut rng_from_seed(k as u64));
        let g = solved(p, &out.status, &format!("JuMP puzzle {k}"));
        assert_eq!(&g, solution, "JuMP puzzle {k} has one solution");
        assert_eq!(out.stats.best_cost, Some(0));
    }
}

#[test]
fn hard_region_puzzles_are_solved_on_one_and_two_threads() {
    // 25×25 at 45 % and 36×36 at 50 % givens, inside the hard region of each order; the budgets
    // are many times what the seeds need.
    for (n, keep, steps) in [(5, 0.45, 20_000_000), (6, 0.5, 60_000_000)] {
        let p = carved_pattern(n, keep, 5);
        for threads in [1, 2] {
            let cfg = MmcolConfig {
                threads,
                ..MmcolConfig::default()
            };
            let out = Mmcol::new(cfg).solve(&p, &iterations(steps), &mut rng_from_seed(7));
            solved(
                &p,
                &out.status,
                &format!("order {n} at {keep}, {threads} threads"),
            );
            assert_eq!(out.stats.threads, if threads == 2 { 2 } else { 0 });
        }
    }
}

#[test]
fn generations_run_and_a_seed_gives_one_run() {
    // An unsolvable puzzle keeps the memetic loop going until the steps run out: offspring are
    // made and offered, and the same seed repeats the whole run on one thread.
    let p = line_puzzle(UNSOLVABLE_PAST_SINGLES);
    let run = || Mmcol::new(small()).solve(&p, &iterations(300_000), &mut rng_from_seed(3));
    let (x, y) = (run(), run());
    let Status::Exhausted { best: Some(g), .. } = &x.status else {
        panic!("expected Exhausted with a grid, got {:?}", x.status);
    };
    assert!(g.is_full());
    assert!(x.stats.best_cost.unwrap() > 0);
    assert_eq!(Some(clashing_pairs(&p, g)), x.stats.best_cost);
    assert_eq!(x.stats.iterations, 300_000);
    let made: u64 = extra(&x.stats, "generations").parse().unwrap();
    assert!(made > 0, "generations: {made}");
    let fate: u64 = ["offspring_entered", "offspring_rejected", "offspring_twins"]
        .iter()
        .map(|k| extra(&x.stats, k).parse::<u64>().unwrap())
        .sum();
    assert_eq!(fate, made, "every offspring is offered to the pool once");
    assert_eq!(x.status, y.status);
    // Everything but the setup's wall time.
    let counts = |s: &sudoku_core::Stats| {
        s.extra
            .iter()
            .filter(|(k, _)| k != "setup_ms")
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(counts(&x.stats), counts(&y.stats));
}

#[test]
fn contradictory_givens_are_infeasible_and_parameters_are_checked() {
    let mut text = vec![b'.'; 81];
    text[0] = b'5';
    text[1] = b'5';
    let p = line_puzzle(std::str::from_utf8(&text).unwrap());
    let out = Mmcol::default().solve(&p, &iterations(1_000), &mut rng_from_seed(0));
    assert_eq!(out.status, Status::Infeasible);
    let info = methods().into_iter().find(|m| m.name == "mmcol").unwrap();
    for bad in [
        "population=1",
        "threads=3",
        "strength=2",
        "init=best",
        "size=4",
    ] {
        let mut params = Params::new();
        params.push_pair(bad).unwrap();
        assert!((info.build)(&params).is_err(), "{bad} accepted");
    }
}

#[test]
fn random_latin_squares_are_latin_and_qwh_keep_their_holes() {
    let mut rng = rng_from_seed(11);
    for n in [1, 2, 7, 30] {
        let full = random_latin(n, (n * n * n) as u64, &mut rng);
        let square = PartialLatin::new(n, full.clone()).expect("a Latin square");
        assert_eq!(square.holes(), 0);
        assert!(full.iter().all(|&s| (1..=n as u8).contains(&s)));
    }
    let (square, full) = quasigroup_with_holes(30, 360, &mut rng);
    assert_eq!(square.holes(), 360);
    square
        .check_completion(&full)
        .expect("the square it came from");
    // The chain moves: two draws differ.
    assert_ne!(
        random_latin(10, 1000, &mut rng),
        random_latin(10, 1000, &mut rng)
    );
}

#[test]
fn latin_squares_are_completed_and_checked() {
    // Quasigroups with holes at side 30, across the shares of holes: every one completed, by
    // MMCOL and by plain TabuCol on the same kernel.
    for (holes, seed) in [(270, 1), (360, 2), (450, 3)] {
        let (square, _) = quasigroup_with_holes(30, holes, &mut rng_from_seed(seed));
        let cfg = small();
        let run = solve_latin(
            &square,
            &cfg,
            &iterations(50_000_000),
            &mut rng_from_seed(seed),
        )
        .expect("completable");
        let done = run.completion.expect("a completion");
        square.check_completion(&done).expect("checked");
        assert_eq!(run.best_cost, 0);
        assert!(run.open_cells <= holes);
        let plain = tabucol_latin(
            &square,
            &cfg,
            &iterations(50_000_000),
            &mut rng_from_seed(seed),
        )
        .expect("completable");
        square
            .check_completion(&plain.completion.expect("a completion"))
            .expect("checked");
    }
}

#[test]
fn the_kernelization_proves_what_it_can_and_bad_squares_are_named() {
    // 1 2 . / 2 1 . / . . .: the third cell of row 1 must be 3, and so must that of row 2, in
    // one column.
    let square = PartialLatin::new(3, vec![1, 2, 0, 2, 1, 0, 0, 0, 0]).unwrap();
    let cfg = MmcolConfig::default();
    let solved = solve_latin(&square, &cfg, &iterations(1_000), &mut rng_from_seed(0));
    assert!(solved.is_err(), "{solved:?}");
    // Rules alone complete a square with one hole per row.
    let full = random_latin(9, 729, &mut rng_from_seed(5));
    let mut cells = full.clone();
    for i in 0..9 {
        cells[i * 9 + i] = 0;
    }
    let square = PartialLatin::new(9, cells).unwrap();
    let run = solve_latin(&square, &cfg, &iterations(1_000), &mut rng_from_seed(0)).unwrap();
    assert_eq!(run.completion.as_deref(), Some(&full[..]));
    assert_eq!(run.fixed_single + run.fixed_unique, 9);
    assert_eq!(run.steps, 0);
    assert_eq!(
        PartialLatin::new(2, vec![1, 1, 0, 0]),
        Err(LatinError::Repeat {
            value: 1,
            unit: "row",
            index: 1
        })
    );
    assert!(matches!(
        PartialLatin::new(2, vec![3, 0, 0, 0]),
        Err(LatinError::Symbol { .. })
    ));
    assert!(matches!(
        PartialLatin::new(3, vec![0; 8]),
        Err(LatinError::Length { .. })
    ));
    assert!(matches!(
        square.check_completion(&[0; 81]),
        Err(LatinError::Hole { .. })
    ));
}
