//! The 9×9 path of `prop` (issue #18) against `norvig` and the general kernel (`prop` with
//! naked pairs on, which the 9×9 path does not serve): the same counts to 2, the same
//! answer where it is unique, infeasibility alike, on every public 9×9 set and on random
//! puzzles (permuted full grids with cells removed, sometimes with a clashing given).

mod common;

use common::dataset;
use proptest::prelude::*;
use rand::Rng as _;
use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Order, OtherSolution,
    Puzzle, Solver, Status, Variant,
};
use sudoku_prop::{Norvig, Prop, PropConfig};

/// `prop` (the 9×9 path serves its default rules), `norvig`, and the general kernel (singles
/// only, and with naked pairs, which the 9×9 path does not serve).
fn solvers() -> Vec<Box<dyn Solver>> {
    let prop = |locked_candidates, naked_pairs| {
        Box::new(Prop::new(PropConfig {
            locked_candidates,
            naked_pairs,
        })) as Box<dyn Solver>
    };
    vec![
        prop(true, false),
        prop(false, false),
        Box::new(Norvig::new()),
        prop(true, true),
    ]
}

/// Checks that all solvers agree on `puzzle`; returns its count (to 2).
fn agree(solvers: &mut [Box<dyn Solver>], puzzle: &Puzzle, what: &str) -> u64 {
    let unlimited = Budget::unlimited();
    let mut first: Option<(u64, Option<Grid>)> = None;
    for s in solvers.iter_mut() {
        let c = s
            .count(
                puzzle,
                Count::collecting(2),
                &unlimited,
                &mut rng_from_seed(0),
            )
            .unwrap();
        let end = if c.count == 2 {
            CountEnd::LimitReached
        } else {
            CountEnd::Complete
        };
        assert_eq!(c.end, end, "{what}: {}", s.name());
        for g in &c.solutions {
            assert!(verify_solution(puzzle, g).is_ok(), "{what}: {}", s.name());
        }
        let out = s.solve(puzzle, &unlimited, &mut rng_from_seed(0));
        let solved = match out.status {
            Status::Solved(g) => {
                assert!(verify_solution(puzzle, &g).is_ok(), "{what}: {}", s.name());
                Some(g)
            }
            Status::Infeasible => None,
            other => panic!("{what}: {}: {other:?}", s.name()),
        };
        assert_eq!(solved.is_some(), c.count > 0, "{what}: {}", s.name());
        // Only a unique solution is the same for every method.
        let unique = if c.count == 1 { solved } else { None };
        match &first {
            None => first = Some((c.count, unique)),
            Some(f) => assert_eq!(f, &(c.count, unique), "{what}: {} disagrees", s.name()),
        }
    }
    first.map_or(0, |f| f.0)
}

/// Every `step`-th puzzle of a public set agrees; returns how many were unique.
fn agree_on_set(file: &str, step: usize) -> usize {
    let Some(grids) = dataset(file) else { return 0 };
    let mut solvers = solvers();
    let mut unique = 0;
    for (i, g) in grids.into_iter().enumerate().step_by(step) {
        if g.order().size() != 9 {
            continue;
        }
        let p = Puzzle::new(g, Variant::Classic);
        unique += usize::from(agree(&mut solvers, &p, &format!("{file} #{}", i + 1)) == 1);
    }
    unique
}

#[test]
fn public_sets_agree() {
    // Small sets whole; magictour's 1465 every 5th (293 puzzles, all unique).
    assert_eq!(agree_on_set("magictour_top1465.txt", 5), 293);
    assert_eq!(agree_on_set("norvig_top95.txt", 1), 95);
    assert_eq!(agree_on_set("norvig_hardest.txt", 1), 11);
    assert!(agree_on_set("norvig_easy50.txt", 1) > 0);
    assert!(agree_on_set("gecode_9x9.txt", 1) > 0);
    agree_on_set("lewis_acs_logic_solvable_9x9.txt", 1);
}

/// A valid full grid: one fixed solution with digits relabelled, rows permuted within
/// bands, bands permuted, and maybe transposed, all drawn from `seed`.
fn full_grid(seed: u64) -> Vec<u16> {
    let mut rng = rng_from_seed(seed);
    let mut digits: Vec<u16> = (1..=9).collect();
    let mut rows: Vec<usize> = (0..9).collect();
    let mut bands: Vec<usize> = (0..3).collect();
    for i in (1..9).rev() {
        digits.swap(i, rng.random_range(0..=i));
    }
    for b in 0..3 {
        for i in (1..3).rev() {
            rows.swap(3 * b + i, 3 * b + rng.random_range(0..=i));
        }
    }
    for i in (1..3).rev() {
        bands.swap(i, rng.random_range(0..=i));
    }
    let transpose = rng.random_bool(0.5);
    let mut cells = vec![0u16; 81];
    for r in 0..9 {
        let src = 3 * bands[r / 3] + rows[r] % 3;
        for c in 0..9 {
            // The pattern grid: row r, column c holds (3r + r/3 + c) mod 9.
            let v = (3 * src + src / 3 + c) % 9;
            let (rr, cc) = if transpose { (c, r) } else { (r, c) };
            cells[9 * rr + cc] = digits[v];
        }
    }
    cells
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random puzzles: a full grid with `keep` of 81 cells kept (few keep many solutions,
    /// many a unique one), and with `clash` a given changed to another digit (often
    /// infeasible).
    #[test]
    fn random_puzzles_agree(seed in any::<u64>(), keep in 17usize..60, clash in any::<bool>()) {
        let full = full_grid(seed);
        let order = Order::new(3).unwrap();
        let full_grid = Grid::from_cells(order, full.clone()).unwrap();
        prop_assert!(verify_solution(&Puzzle::empty(order, Variant::Classic), &full_grid).is_ok());
        let mut rng = rng_from_seed(seed ^ 0x9e37_79b9);
        let mut cells: Vec<usize> = (0..81).collect();
        for i in (1..81).rev() {
            cells.swap(i, rng.random_range(0..=i));
        }
        let mut givens = vec![0u16; 81];
        for &c in &cells[..keep] {
            givens[c] = full[c];
        }
        if clash {
            let c = cells[0];
            givens[c] = givens[c] % 9 + 1;
        }
        let puzzle = Puzzle::new(Grid::from_cells(order, givens).unwrap(), Variant::Classic);
        let what = format!("seed {seed} keep {keep} clash {clash}: {}",
            format::to_line(puzzle.givens()).unwrap());
        let n = agree(&mut solvers(), &puzzle, &what);
        if !clash {
            prop_assert!(n >= 1, "{}", what);
        }
    }
}

/// The carver's question on the 9×9 path (a search for a solution that differs at a removed
/// cell) gives the answer of a count to 2: on each norvig_top95 puzzle with a quarter of its
/// empty cells filled from the solution (so that some givens can go), for every given taken
/// out alone, and with its point mirror where that is a given too.
#[test]
fn count_other_answers_as_counting_does() {
    let Some(grids) = dataset("norvig_top95.txt") else {
        return;
    };
    let unlimited = Budget::unlimited();
    let mut rng = rng_from_seed(0);
    let mut prop = Prop::default();
    let (mut still_unique, mut not_unique) = (0, 0);
    for (i, g) in grids.into_iter().enumerate() {
        let puzzle = Puzzle::new(g.clone(), Variant::Classic);
        let Status::Solved(solution) = prop.solve(&puzzle, &unlimited, &mut rng).status else {
            panic!("top95 #{}: not solved", i + 1);
        };
        let mut g = g;
        for c in 0..81 {
            if g.get(c) == 0 && (7 * c + i) % 4 == 0 {
                g.set(c, solution.get(c));
            }
        }
        for c in (0..81).filter(|&c| g.get(c) != 0) {
            let mirror = 80 - c;
            let pairs: &[&[usize]] = if mirror != c && g.get(mirror) != 0 {
                &[&[c], &[c, mirror]]
            } else {
                &[&[c]]
            };
            for &removed in pairs {
                let mut givens = g.clone();
                for &r in removed {
                    givens.set(r, 0);
                }
                let p = Puzzle::new(givens, Variant::Classic);
                let other = prop
                    .count_other(
                        OtherSolution {
                            puzzle: &p,
                            solution: &solution,
                            removed,
                        },
                        &unlimited,
                        &mut rng,
                    )
                    .unwrap();
                let count = prop
                    .count(&p, Count::upto(2), &unlimited, &mut rng)
                    .unwrap();
                assert_eq!(
                    (other.count, other.end),
                    (count.count, count.end),
                    "top95 #{} without {removed:?}",
                    i + 1
                );
                if count.count == 1 {
                    assert_eq!(count.end, CountEnd::Complete);
                    still_unique += 1;
                } else {
                    not_unique += 1;
                }
            }
        }
    }
    // Both answers occur.
    assert!(
        still_unique > 0 && not_unique > 0,
        "{still_unique} {not_unique}"
    );
}
