//! The public puzzle sets in datasets/public.

mod common;

use common::{dataset, datasets, every_config, solve_verified};
use sudoku_core::{format, rng_from_seed, Budget, Count, CountEnd, Puzzle, Variant};
use sudoku_prop::{Norvig, Prop};

/// Every configuration solves every puzzle of `file` (up to `take`) with a verified answer,
/// and, where the puzzle is unique, all give the same grid. Returns how many were unique.
fn all_agree(file: &str, take: usize) -> usize {
    let Some(grids) = dataset(file) else { return 0 };
    let mut solvers = every_config();
    let mut unique = 0;
    for (i, g) in grids.into_iter().take(take).enumerate() {
        let p = Puzzle::new(g, Variant::Classic);
        let answers: Vec<String> = solvers
            .iter_mut()
            .map(|s| format::to_line(&solve_verified(s.as_mut(), &p)).unwrap())
            .collect();
        let c = solvers[1]
            .count(
                &p,
                Count::upto(2),
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .unwrap();
        if c.count > 1 {
            continue;
        }
        unique += 1;
        assert!(
            answers.iter().all(|a| a == &answers[0]),
            "{file} puzzle {}: the methods disagree",
            i + 1
        );
    }
    unique
}

#[test]
fn magictour_top1465_first_200_agree() {
    if datasets().is_some() {
        assert_eq!(all_agree("magictour_top1465.txt", 200), 200);
    }
}

#[test]
fn norvig_sets_agree() {
    for file in [
        "norvig_top95.txt",
        "norvig_hardest.txt",
        "norvig_easy50.txt",
        "gecode_9x9.txt",
    ] {
        if datasets().is_some() {
            assert!(all_agree(file, usize::MAX) > 0, "{file}");
        }
    }
    // Not all of these are unique; the unique ones must agree.
    all_agree("lewis_acs_logic_solvable_9x9.txt", usize::MAX);
}

#[test]
fn norvig_sets_are_unique() {
    let Some(grids) = dataset("norvig_top95.txt") else {
        return;
    };
    let mut prop = Prop::default();
    for g in grids {
        let p = Puzzle::new(g, Variant::Classic);
        let c = common::count(&mut prop, &p, Count::upto(2));
        assert_eq!((c.count, c.end), (1, CountEnd::Complete));
    }
}

#[test]
fn gecode_16x16_solved_by_prop() {
    let Some(grids) = dataset("gecode_16x16.txt") else {
        return;
    };
    assert_eq!(grids[0].size(), 16);
    let mut prop = Prop::default();
    let mut norvig = Norvig::new();
    for (i, g) in grids.into_iter().enumerate() {
        let p = Puzzle::new(g, Variant::Classic);
        let a = solve_verified(&mut prop, &p);
        // Norvig is slow in debug builds; a handful is enough to compare.
        if i < 5 {
            assert_eq!(solve_verified(&mut norvig, &p), a);
        }
    }
}

#[test]
fn lewis_sets_with_many_solutions_are_solved_and_counted() {
    let Some(dir) = datasets() else { return };
    let mut prop = Prop::default();
    let mut norvig = Norvig::new();
    for pct in ["000", "020", "040", "045", "050", "060", "100"] {
        let file = format!("lewis/lewis_9x9_f{pct}.txt");
        if !dir.join(&file).is_file() {
            println!("skipped: {file} is missing");
            continue;
        }
        let Some(grids) = dataset(&file) else {
            continue;
        };
        for g in grids.into_iter().take(20) {
            let p = Puzzle::new(g, Variant::Classic);
            solve_verified(&mut prop, &p);
            solve_verified(&mut norvig, &p);
            let a = common::count(&mut prop, &p, Count::collecting(3));
            let b = common::count(&mut norvig, &p, Count::collecting(3));
            assert_eq!((a.count, a.end), (b.count, b.end), "{file}");
            assert!(a.count >= 1);
            // Same search order for singletons is not promised, so compare as sets.
            let mut x = a.solutions.clone();
            let mut y = b.solutions.clone();
            x.sort_by_key(|g| g.cells().to_vec());
            y.sort_by_key(|g| g.cells().to_vec());
            if a.end == CountEnd::Complete {
                assert_eq!(x, y, "{file}");
            }
            for s in &a.solutions {
                sudoku_core::verify_solution(&p, s).unwrap();
            }
        }
    }
}
