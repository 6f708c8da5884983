//! `prop`'s 9×9 path (issue #18) against `dlx` (another crate, another algorithm): counts to
//! 2 and unique answers on every public 9×9 set, and infeasibility on puzzles made
//! contradictory by changing one given.

mod common;

use common::dataset;
use sudoku_baselines::Dlx;
use sudoku_core::{rng_from_seed, Budget, Count, Grid, Puzzle, Solver, Status, Variant};
use sudoku_prop::Prop;

/// (count to 2, the answer when unique) of one solver.
fn verdict(s: &mut dyn Solver, p: &Puzzle) -> (u64, Option<Grid>) {
    let budget = Budget::unlimited();
    let n = s
        .count(p, Count::upto(2), &budget, &mut rng_from_seed(1))
        .unwrap()
        .count;
    let answer = match s.solve(p, &budget, &mut rng_from_seed(1)).status {
        Status::Solved(g) => Some(g),
        Status::Infeasible => None,
        other => panic!("{}: {other:?}", s.name()),
    };
    assert_eq!(answer.is_some(), n > 0, "{}", s.name());
    (n, answer.filter(|_| n == 1))
}

#[test]
fn prop_nine_agrees_with_dlx_on_every_public_9x9_set() {
    let (mut prop, mut dlx) = (Prop::default(), Dlx::default());
    for (file, step) in [
        ("magictour_top1465.txt", 7),
        ("norvig_top95.txt", 1),
        ("norvig_hardest.txt", 1),
        ("norvig_easy50.txt", 1),
        ("gecode_9x9.txt", 1),
        ("lewis_acs_logic_solvable_9x9.txt", 1),
    ] {
        let Some(grids) = dataset(file) else { continue };
        let mut infeasible = 0;
        for (i, g) in grids.into_iter().enumerate().step_by(step) {
            let p = Puzzle::new(g.clone(), Variant::Classic);
            assert_eq!(
                verdict(&mut prop, &p),
                verdict(&mut dlx, &p),
                "{file} #{}",
                i + 1
            );
            // The first given changed to the next digit: often no solution left.
            let mut bad = g;
            if let Some(c) = (0..81).find(|&c| bad.get(c) != 0) {
                bad.set(c, bad.get(c) % 9 + 1);
                let p = Puzzle::new(bad, Variant::Classic);
                let v = verdict(&mut prop, &p);
                infeasible += usize::from(v.0 == 0);
                assert_eq!(v, verdict(&mut dlx, &p), "{file} #{} changed", i + 1);
            }
        }
        assert!(infeasible > 0, "{file}: no infeasible case was tried");
    }
}
