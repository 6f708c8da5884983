//! Soundness on real puzzles: every digit `logic` places and every candidate it removes agrees
//! with the puzzle's solutions (found by `prop`), on every shared set and the seed puzzles,
//! in both variants where the files have them.

use sudoku_core::{rng_from_seed, Budget, Count, Deadline, Grid, Order, Puzzle, Solver, Variant};
use sudoku_fixtures as fixtures;
use sudoku_logic::{trace, End, LogicConfig, RuleSet};
use sudoku_prop::Prop;

/// Checks one puzzle; returns whether the rules solved it.
fn check(puzzle: &Puzzle, config: &LogicConfig, place: &str) -> bool {
    let mut prop = Prop::default();
    let mut rng = rng_from_seed(1);
    let count = prop
        .count(puzzle, Count::collecting(2), &Budget::unlimited(), &mut rng)
        .unwrap();
    let run = trace(puzzle, config, &mut Deadline::new(&Budget::unlimited(), 64));
    let solutions = count.solutions;
    if solutions.is_empty() {
        assert!(
            !matches!(run.end, End::Solved(_)),
            "{place}: solved an infeasible puzzle"
        );
        return false;
    }
    for (i, step) in run.steps.iter().enumerate() {
        for s in &solutions {
            if let Some((c, d)) = step.place {
                assert_eq!(
                    s.get(c),
                    d,
                    "{place}: step {i} {:?} places a wrong digit",
                    step.rule
                );
            }
            for &(c, d) in &step.eliminate {
                assert_ne!(
                    s.get(c),
                    d,
                    "{place}: step {i} {:?} removes the solution's digit",
                    step.rule
                );
            }
        }
    }
    match &run.end {
        End::Solved(g) => {
            assert_eq!(
                solutions.len(),
                1,
                "{place}: the rules solved a puzzle with several solutions"
            );
            assert_eq!(g, &solutions[0], "{place}");
            true
        }
        End::Stuck { grid, candidates } => {
            for s in &solutions {
                for (c, cands) in candidates.iter().enumerate() {
                    if grid.get(c) != 0 {
                        assert_eq!(grid.get(c), s.get(c), "{place}");
                    } else {
                        assert!(cands.contains(&s.get(c)), "{place}");
                    }
                }
            }
            false
        }
        other => panic!("{place}: ended {other:?} on a feasible puzzle"),
    }
}

fn check_set(grids: &[Grid], variant: Variant, name: &str) -> (usize, usize) {
    let config = LogicConfig::default();
    let solved = grids
        .iter()
        .enumerate()
        .filter(|(i, g)| {
            check(
                &Puzzle::new((*g).clone(), variant),
                &config,
                &format!("{name}:{i}"),
            )
        })
        .count();
    (solved, grids.len())
}

#[test]
fn public_sets_agree_with_their_solutions() {
    let dir = fixtures::public_dir().expect("datasets/public");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .chain(std::fs::read_dir(dir.join("lewis")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert!(files.len() >= 8);
    let mut total_solved = 0;
    for f in &files {
        let grids: Vec<Grid> = sudoku_core::format::read_file(std::path::Path::new(f))
            .unwrap()
            .into_iter()
            .map(|e| e.grid)
            .collect();
        let (solved, n) = check_set(&grids, Variant::Classic, f);
        assert!(n > 0);
        total_solved += solved;
    }
    assert!(total_solved > 100);
}

#[test]
fn easy_sets_are_solved_by_the_rules() {
    let grids = fixtures::public_grids("norvig_easy50.txt")
        .unwrap()
        .unwrap();
    assert_eq!(check_set(&grids, Variant::Classic, "easy50"), (50, 50));
}

#[test]
fn seed_puzzles_agree_in_both_variants() {
    for (file, variant) in [
        ("000_unicamp_ilp.txt", Variant::Classic),
        ("000_unicamp_ilp.diagonal.txt", Variant::Diagonal),
        ("000_unicamp_ilp.multiple.txt", Variant::Classic),
        ("001_jump.txt", Variant::Classic),
        ("001_jump.25x25.txt", Variant::Classic),
        ("002_takano.txt", Variant::Classic),
        ("004_teles.txt", Variant::Classic),
    ] {
        let grids = fixtures::seed_grids(file).unwrap();
        check_set(&grids, variant, file);
    }
}

#[test]
fn every_rule_set_is_sound_on_small_orders() {
    // Order 2: every 4×4 puzzle of the seed-free kind, carved from one grid by hand.
    let order = Order::new(2).unwrap();
    let full =
        Grid::from_cells(order, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
    for mask in (0u32..1 << 16).step_by(97) {
        let mut g = full.clone();
        for c in 0..16 {
            if mask & (1 << c) == 0 {
                g.set(c, 0);
            }
        }
        for rules in RuleSet::ALL {
            let config = LogicConfig {
                rules,
                ..LogicConfig::default()
            };
            for variant in Variant::ALL {
                check(
                    &Puzzle::new(g.clone(), variant),
                    &config,
                    &format!("mask {mask}"),
                );
            }
        }
    }
}
