//! `sat` against `prop` (the project's reference exact method) on the public sets, the seed
//! papers' puzzles and mutated puzzles: same verdict, same count up to 2, same solutions; both
//! solutions of Raimundo et al.'s Figure 9; a generated 36×36 within a conflict budget; every
//! encoding, and every rule set run before encoding (`logic=`), gives the same answers.

mod common;

use std::collections::BTreeSet;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng as _;
use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Limit, Order, Puzzle, Solver,
    Status, Variant,
};
use sudoku_fixtures::{public_dir, public_grids, seed_grid, seed_puzzle, seed_puzzles};
use sudoku_logic::RuleSet;
use sudoku_prop::Prop;
use sudoku_sat::{Amo, Encoding, Preset, Sat, SatConfig};

/// Solutions, counted to 2 and kept, when the count is exact.
fn answers(s: &mut dyn Solver, p: &Puzzle) -> (u64, CountEnd, BTreeSet<Vec<u16>>) {
    let c = s
        .count(
            p,
            Count::collecting(2),
            &Budget::unlimited(),
            &mut rng_from_seed(1),
        )
        .expect("exact methods count");
    for g in &c.solutions {
        verify_solution(p, g).expect("a counted solution is valid");
    }
    let sols = c.solutions.iter().map(|g| g.cells().to_vec()).collect();
    (c.count, c.end, sols)
}

/// `sat` and `prop` give the same verdict and count on `p`; returns the count.
fn agree(sat: &mut Sat, p: &Puzzle, what: &str) -> u64 {
    let mut prop = Prop::default();
    let budget = Budget::unlimited();
    let solved = |s: &mut dyn Solver| match s.solve(p, &budget, &mut rng_from_seed(1)).status {
        Status::Solved(g) => {
            verify_solution(p, &g).unwrap_or_else(|e| panic!("{what}: {e}"));
            true
        }
        Status::Infeasible => false,
        other => panic!("{what}: {other:?}"),
    };
    assert_eq!(solved(sat), solved(&mut prop), "{what}: solve verdicts");
    let a = answers(sat, p);
    let b = answers(&mut prop, p);
    assert_eq!((a.0, a.1), (b.0, b.1), "{what}: counts");
    if a.1 == CountEnd::Complete {
        assert_eq!(a.2, b.2, "{what}: solutions");
    }
    a.0
}

/// Every public set (at most `per_file` puzzles of each, spread over the file).
#[test]
fn agrees_with_prop_on_every_public_set() {
    let dir = public_dir().expect("the public sets are in the checkout");
    let mut files: Vec<String> = Vec::new();
    for sub in ["", "lewis/"] {
        let mut names: Vec<String> = std::fs::read_dir(dir.join(sub))
            .expect("readable")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
            .map(|n| format!("{sub}{n}"))
            .collect();
        names.sort();
        files.extend(names);
    }
    assert!(files.len() >= 20, "{files:?}");
    let mut sat = Sat::default();
    let (mut unique, mut multiple, mut infeasible) = (0, 0, 0);
    for file in &files {
        let grids = public_grids(file).unwrap().unwrap();
        let per_file = if grids[0].order().n() >= 4 { 5 } else { 12 };
        let step = grids.len().div_ceil(per_file).max(1);
        for (i, g) in grids.into_iter().enumerate().step_by(step) {
            let p = Puzzle::new(g, Variant::Classic);
            match agree(&mut sat, &p, &format!("{file} #{}", i + 1)) {
                0 => infeasible += 1,
                1 => unique += 1,
                _ => multiple += 1,
            }
        }
    }
    // The Lewis sets with few givens have several solutions each.
    assert!(
        unique > 50 && multiple > 10,
        "{unique} {multiple} {infeasible}"
    );
}

#[test]
fn agrees_on_the_seed_papers_and_on_infeasible_puzzles() {
    let mut sat = Sat::default();
    for (file, variant) in [
        ("000_unicamp_ilp.txt", Variant::Classic),
        ("000_unicamp_ilp.diagonal.txt", Variant::Diagonal),
        ("001_jump.txt", Variant::Classic),
        ("002_takano.txt", Variant::Classic),
        ("004_teles.txt", Variant::Classic),
    ] {
        for (i, p) in seed_puzzles(file, variant).unwrap().iter().enumerate() {
            agree(&mut sat, p, &format!("{file} #{}", i + 1));
        }
    }
    // Each puzzle of norvig_top95 made infeasible: an empty cell takes a digit a peer holds.
    let grids = public_grids("norvig_top95.txt").unwrap().unwrap();
    let mut rng = rng_from_seed(3);
    for g in grids.iter().take(20) {
        let p = Puzzle::new(g.clone(), Variant::Classic);
        let geom = p.geometry();
        let empty: Vec<usize> = (0..geom.cells()).filter(|&c| g.get(c) == 0).collect();
        let mut bad = g.clone();
        let &c = empty.choose(&mut rng).unwrap();
        let peer = geom
            .peers(c)
            .iter()
            .find(|&&q| g.get(q as usize) != 0)
            .unwrap();
        bad.set(c, g.get(*peer as usize));
        let bad = Puzzle::new(bad, Variant::Classic);
        assert_eq!(agree(&mut sat, &bad, "mutated"), 0);
    }
}

#[test]
fn finds_both_solutions_of_figure_9() {
    let p = seed_puzzle("000_unicamp_ilp.multiple.txt", "Figure 9", Variant::Classic).unwrap();
    let sols = "000_unicamp_ilp.multiple.solutions.txt";
    let expected: BTreeSet<Vec<u16>> = ["Figure 10a", "Figure 10b"]
        .iter()
        .map(|l| seed_grid(sols, l).unwrap().cells().to_vec())
        .collect();
    for encoding in [Encoding::Minimal, Encoding::Extended, Encoding::Optimised] {
        let mut sat = Sat::new(SatConfig {
            encoding,
            amo: Amo::Auto,
            ..SatConfig::default()
        });
        let (count, end, found) = answers(&mut sat, &p);
        assert_eq!((count, end), (2, CountEnd::LimitReached), "{encoding:?}");
        assert_eq!(found, expected, "{encoding:?}");
        let c = sat
            .count(
                &p,
                Count::upto(10),
                &Budget::unlimited(),
                &mut rng_from_seed(1),
            )
            .unwrap();
        assert_eq!((c.count, c.end), (2, CountEnd::Complete), "{encoding:?}");
    }
}

#[test]
fn every_encoding_agrees_on_both_variants() {
    let mut configs: Vec<SatConfig> = [Encoding::Minimal, Encoding::Extended, Encoding::Optimised]
        .into_iter()
        .flat_map(|encoding| {
            [Amo::Pairwise, Amo::Sequential].map(|amo| SatConfig {
                encoding,
                amo,
                ..SatConfig::default()
            })
        })
        .collect();
    // CaDiCaL's presets change its search, never its answers.
    configs.extend([Preset::Sat, Preset::Unsat].map(|preset| SatConfig {
        preset,
        ..SatConfig::default()
    }));
    let mut puzzles = seed_puzzles("000_unicamp_ilp.diagonal.txt", Variant::Diagonal).unwrap();
    puzzles.extend(seed_puzzles("002_takano.txt", Variant::Classic).unwrap());
    puzzles.extend(seed_puzzles("000_unicamp_ilp.multiple.txt", Variant::Classic).unwrap());
    for (i, p) in puzzles.iter().enumerate() {
        let mut reference = None;
        for cfg in &configs {
            let got = answers(&mut Sat::new(cfg.clone()), p);
            match &reference {
                None => reference = Some(got),
                // Which two of several solutions are found first depends on the formula.
                Some(r) if r.1 == CountEnd::LimitReached => {
                    assert_eq!((got.0, got.1), (r.0, r.1), "puzzle {i} with {cfg:?}")
                }
                Some(r) => assert_eq!(&got, r, "puzzle {i} with {cfg:?}"),
            }
        }
    }
}

/// A 36×36 grid from the pattern construction with shuffled digits, rows within bands and
/// bands, with 60 % of its cells kept.
fn generated_36x36(seed: u64) -> (Puzzle, Grid) {
    let order = Order::new(6).unwrap();
    let (n, size) = (6, 36);
    let mut rng = rng_from_seed(seed);
    let mut digits: Vec<u16> = (1..=size as u16).collect();
    digits.shuffle(&mut rng);
    let mut bands: Vec<usize> = (0..n).collect();
    bands.shuffle(&mut rng);
    let rows: Vec<usize> = bands
        .iter()
        .flat_map(|&b| {
            let mut inner: Vec<usize> = (0..n).map(|r| b * n + r).collect();
            inner.shuffle(&mut rng);
            inner
        })
        .collect();
    let mut full = Grid::empty(order);
    let mut givens = Grid::empty(order);
    for (r, &src) in rows.iter().enumerate() {
        for c in 0..size {
            let d = digits[(src % n * n + src / n + c) % size];
            full.set(r * size + c, d);
            if rng.random_bool(0.6) {
                givens.set(r * size + c, d);
            }
        }
    }
    (Puzzle::new(givens, Variant::Classic), full)
}

#[test]
fn solves_a_generated_36x36_within_its_conflict_budget() {
    let (p, full) = generated_36x36(11);
    assert!(verify_solution(&Puzzle::new(full.clone(), Variant::Classic), &full).is_ok());
    let budget = Budget {
        nodes: Some(200_000),
        ..Budget::default()
    };
    let out = Sat::default().solve(&p, &budget, &mut rng_from_seed(1));
    let Status::Solved(g) = out.status else {
        panic!("{:?}", out.status)
    };
    verify_solution(&p, &g).unwrap();
    assert!(out.stats.nodes <= 200_000);
    assert!(out.stats.build_time.is_some());
}

#[test]
fn a_conflict_budget_stops_the_search() {
    // 36×36 with 30 % of cells kept needs more than one conflict.
    let (p, _) = generated_36x36(5);
    let sparse: Vec<u16> = p
        .givens()
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &d)| if i % 2 == 0 { d } else { 0 })
        .collect();
    let p = Puzzle::new(
        Grid::from_cells(p.order(), sparse).unwrap(),
        Variant::Classic,
    );
    let budget = Budget {
        nodes: Some(1),
        ..Budget::default()
    };
    let out = Sat::default().solve(&p, &budget, &mut rng_from_seed(1));
    match out.status {
        Status::Exhausted { limit, .. } => assert_eq!(limit, Limit::Nodes),
        Status::Solved(g) => verify_solution(&p, &g).unwrap(),
        other => panic!("{other:?}"),
    }
}

/// `sat` with each rule set of `logic=` (and the encodings with it), and with the box-line
/// clauses (`boxline=on`).
fn logic_configs() -> Vec<SatConfig> {
    let mut configs: Vec<SatConfig> = RuleSet::ALL
        .map(|rules| SatConfig {
            logic: Some(rules),
            ..SatConfig::default()
        })
        .to_vec();
    configs.extend(
        [Encoding::Minimal, Encoding::Extended].map(|encoding| SatConfig {
            encoding,
            logic: Some(RuleSet::TwoUnit),
            ..SatConfig::default()
        }),
    );
    configs.extend(
        [Encoding::Minimal, Encoding::Optimised].map(|encoding| SatConfig {
            encoding,
            boxline: true,
            ..SatConfig::default()
        }),
    );
    configs.push(SatConfig {
        logic: Some(RuleSet::TwoUnit),
        boxline: true,
        ..SatConfig::default()
    });
    configs
}

/// The rules run before encoding and the box-line clauses are sound: with every `logic=`
/// level and with `boxline=on`, `sat` gives `prop`'s verdicts, counts to 2 and solutions, on a
/// sample of the public sets, the seed papers' puzzles (both variants, Figure 9's two
/// solutions) and infeasible mutations, some of which the rules themselves prove infeasible.
#[test]
fn every_logic_level_agrees_with_prop() {
    let mut puzzles: Vec<(String, Puzzle)> = Vec::new();
    for file in [
        "norvig_top95.txt",
        "gecode_16x16.txt",
        "lewis/lewis_9x9_f030.txt",
        "lewis/lewis_9x9_f060.txt",
    ] {
        let grids = public_grids(file)
            .unwrap()
            .expect("the public sets are in the checkout");
        let step = grids.len().div_ceil(4).max(1);
        for (i, g) in grids.into_iter().enumerate().step_by(step) {
            puzzles.push((
                format!("{file} #{}", i + 1),
                Puzzle::new(g, Variant::Classic),
            ));
        }
    }
    for (file, variant) in [
        ("000_unicamp_ilp.diagonal.txt", Variant::Diagonal),
        ("000_unicamp_ilp.multiple.txt", Variant::Classic),
        ("004_teles.txt", Variant::Classic),
    ] {
        for (i, p) in seed_puzzles(file, variant).unwrap().into_iter().enumerate() {
            puzzles.push((format!("{file} #{}", i + 1), p));
        }
    }
    puzzles.extend(common::mutated(12, 4));
    for cfg in logic_configs() {
        let mut sat = Sat::new(cfg.clone());
        let mut by_logic = 0;
        for (what, p) in &puzzles {
            let count = agree(&mut sat, p, &format!("{what} with {cfg:?}"));
            let out = sat.solve(p, &Budget::unlimited(), &mut rng_from_seed(1));
            let by = out.stats.extra.iter().find(|(k, _)| k == "infeasible_by");
            if by.is_some_and(|(_, v)| v == "logic") {
                assert_eq!(count, 0, "{what} with {cfg:?}");
                by_logic += 1;
            }
        }
        assert!(
            cfg.logic.is_none() || by_logic > 0,
            "the rules prove some mutation infeasible: {cfg:?}"
        );
    }
}
