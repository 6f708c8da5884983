//! The carver's question (`Solver::count_other`: is there a solution besides the known one,
//! once some clues are gone?) answered by `sat` in one search agrees with `prop`'s count to 2,
//! with or without rules run before encoding (`logic=`), and carving with either checker makes
//! the same puzzles.

use sudoku_core::{
    rng_from_seed, Budget, Count, CountEnd, Order, OtherSolution, Puzzle, Solver, Variant,
};
use sudoku_fixtures::seed_pairs;
use sudoku_gen::{make_puzzle, CarveEnd, PropFill, PuzzleSpec, Symmetry};
use sudoku_logic::RuleSet;
use sudoku_prop::Prop;
use sudoku_sat::{Sat, SatConfig};

/// `sat`'s one-search answer and `prop`'s count to 2 on `puzzle`, which `solution` solves and
/// is the only solution agreeing with it on `removed`.
fn both(
    sat: &mut Sat,
    puzzle: &Puzzle,
    solution: &sudoku_core::Grid,
    removed: &[usize],
) -> (u64, u64) {
    let budget = Budget::unlimited();
    let ours = sat
        .count_other(
            OtherSolution {
                puzzle,
                solution,
                removed,
            },
            &budget,
            &mut rng_from_seed(1),
        )
        .expect("sat counts");
    let reference = Prop::default()
        .count(puzzle, Count::upto(2), &budget, &mut rng_from_seed(1))
        .expect("prop counts");
    assert_ne!(ours.end, CountEnd::Exhausted(sudoku_core::Limit::Time));
    assert_ne!(reference.end, CountEnd::Exhausted(sudoku_core::Limit::Time));
    (ours.count, reference.count)
}

#[test]
fn one_search_agrees_with_counting_to_two_on_every_removal() {
    let pairs = seed_pairs("000_unicamp_ilp", Variant::Classic).expect("seed file reads");
    assert!(!pairs.is_empty());
    let (mut unique, mut more) = (0, 0);
    // The papers' puzzles are minimal (every removal leaves several solutions); with a third
    // of their open cells filled in from the solution, many removals keep it unique.
    let fuller = pairs.iter().map(|(p, s)| {
        let mut g = p.givens().clone();
        for c in (0..g.cells().len()).filter(|c| c % 3 == 0) {
            g.set(c, s.get(c));
        }
        (Puzzle::new(g, Variant::Classic), s.clone())
    });
    let all: Vec<_> = pairs.iter().cloned().chain(fuller).collect();
    // Without rules before encoding, and with each rule set (`logic=`).
    let mut sats: Vec<Sat> = RuleSet::ALL
        .map(|rules| {
            Sat::new(SatConfig {
                logic: Some(rules),
                ..SatConfig::default()
            })
        })
        .into();
    sats.push(Sat::default());
    for (k, (puzzle, solution)) in all.iter().enumerate() {
        let givens: Vec<usize> = (0..puzzle.givens().cells().len())
            .filter(|&c| puzzle.givens().get(c) != 0)
            .collect();
        // One clue out, then two neighbouring clues out (the selector-free clause of two).
        for (i, &c) in givens.iter().enumerate() {
            let mut g = puzzle.givens().clone();
            g.set(c, 0);
            let one = Puzzle::new(g.clone(), Variant::Classic);
            let two = givens.get(i + 1).map(|&d| {
                g.set(d, 0);
                (Puzzle::new(g.clone(), Variant::Classic), d)
            });
            for sat in &mut sats {
                let cfg = sat.config().clone();
                let (ours, reference) = both(sat, &one, solution, &[c]);
                assert_eq!(ours, reference, "puzzle {k}, clue {c} removed, {cfg:?}");
                if ours == 1 {
                    unique += 1;
                } else {
                    more += 1;
                }
                if let Some((p, d)) = &two {
                    let (ours, reference) = both(sat, p, solution, &[c, *d]);
                    assert_eq!(
                        ours, reference,
                        "puzzle {k}, clues {c}, {d} removed, {cfg:?}"
                    );
                }
            }
        }
    }
    // Both answers occur, so the agreement is not one-sided.
    assert!(unique > 0 && more > 0, "{unique} unique, {more} not");
}

#[test]
fn carving_with_sat_makes_the_puzzles_carving_with_prop_makes() {
    for (n, seed) in [(3, 1), (3, 2), (3, 3), (4, 1)] {
        let order = Order::new(n).unwrap();
        let mut rng = rng_from_seed(seed);
        let out = sudoku_core::Generator::generate(
            &mut PropFill::default(),
            order,
            Variant::Classic,
            &Budget::unlimited(),
            &mut rng,
        );
        let sudoku_core::Status::Solved(grid) = out.status else {
            panic!("prop-fill makes a grid");
        };
        let carve = |checker: &mut dyn Solver| {
            make_puzzle(
                &grid,
                Variant::Classic,
                PuzzleSpec::Minimal,
                Symmetry::None,
                checker,
                &Budget::unlimited(),
                &mut rng_from_seed(seed),
            )
            .expect("carving runs")
        };
        let with_prop = carve(&mut Prop::default());
        let with_logic = SatConfig {
            logic: Some(RuleSet::TwoUnit),
            ..SatConfig::default()
        };
        for cfg in [SatConfig::default(), with_logic] {
            let with_sat = carve(&mut Sat::new(cfg.clone()));
            assert_eq!(with_sat.end, CarveEnd::Minimal);
            assert_eq!(
                with_sat.givens, with_prop.givens,
                "order {n}, seed {seed}, {cfg:?}"
            );
            assert_eq!(with_sat.checks, with_prop.checks);
        }
    }
}
