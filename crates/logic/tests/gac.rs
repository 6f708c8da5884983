//! `gac`: agreement with `prop` (solutions, counts to 2, infeasibility) on samples of the
//! public sets and the seed puzzles, both variants; the AllDifferent filter against brute
//! force; budgets.

use std::time::Duration;

use proptest::prelude::*;
use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Count, CountEnd, DigitSet, Grid, Limit, Order,
    Outcome, Params, Puzzle, Solver, Status, Variant,
};
use sudoku_fixtures as fixtures;
use sudoku_logic::gac::{AllDifferent, Gac, Search, Select};
use sudoku_prop::Prop;

fn solvers() -> Vec<(&'static str, Gac)> {
    vec![
        ("gac mrv", Gac::new(Select::Mrv, true)),
        ("gac dom-wdeg", Gac::new(Select::DomWdeg, true)),
        ("gac mrv, no intersections", Gac::new(Select::Mrv, false)),
        ("gac max-sd", Gac::new(Select::MaxSd, true)),
        // Restarts every few nodes: solving restarts, counting must not.
        ("gac max-sd, restarts", restarting(Select::MaxSd)),
        ("gac dom-wdeg, restarts", restarting(Select::DomWdeg)),
    ]
}

fn restarting(select: Select) -> Gac {
    Gac::with_search(Search {
        select,
        restart: 2,
        ..Search::default()
    })
}

/// Every `gac` configuration against `prop` on one puzzle: the same count to 2 (and both
/// complete), verified solutions, and the same solution when it is unique. Returns the count.
fn agree(puzzle: &Puzzle, what: &str) -> u64 {
    let mut rng = rng_from_seed(3);
    let unlimited = Budget::unlimited();
    let reference = Prop::default()
        .count(puzzle, Count::upto(2), &unlimited, &mut rng)
        .unwrap();
    assert_ne!(reference.end, CountEnd::Exhausted(Limit::Time), "{what}");
    let expected = Prop::default().solve(puzzle, &unlimited, &mut rng).status;
    for (name, mut gac) in solvers() {
        let c = gac
            .count(puzzle, Count::collecting(2), &unlimited, &mut rng)
            .unwrap();
        assert_eq!(
            (c.count, c.end),
            (reference.count, reference.end),
            "{name} on {what}"
        );
        for g in &c.solutions {
            verify_solution(puzzle, g).unwrap_or_else(|e| panic!("{name} on {what}: {e}"));
        }
        let out = gac.solve(puzzle, &unlimited, &mut rng);
        match (&out.status, &expected) {
            (Status::Solved(g), Status::Solved(p)) => {
                verify_solution(puzzle, g).unwrap_or_else(|e| panic!("{name} on {what}: {e}"));
                if reference.count == 1 {
                    assert_eq!(g, p, "{name} on {what}");
                }
            }
            (Status::Infeasible, Status::Infeasible) => {}
            (a, b) => panic!("{name} on {what}: {a:?}, prop {b:?}"),
        }
        assert!(out.stats.nodes >= 1 && out.stats.guesses < out.stats.nodes);
    }
    reference.count
}

/// Every `step`-th puzzle of a public set (each set has at least one puzzle).
fn public_sample(file: &str, step: usize) -> Vec<Grid> {
    let grids = fixtures::public_grids(file).unwrap().unwrap();
    assert!(!grids.is_empty(), "{file}");
    grids.into_iter().step_by(step).collect()
}

#[test]
fn agrees_with_prop_on_the_public_sets() {
    for (file, step) in [
        ("magictour_top1465.txt", 60),
        ("norvig_hardest.txt", 1),
        ("norvig_top95.txt", 8),
        ("gecode_9x9.txt", 2),
        ("gecode_16x16.txt", 6),
    ] {
        for (i, g) in public_sample(file, step).into_iter().enumerate() {
            let n = agree(&Puzzle::new(g, Variant::Classic), &format!("{file} #{i}"));
            assert_eq!(n, 1, "{file} #{i} is unique");
        }
    }
    // Lewis's sets keep a share of a solution's cells: the sparse ones have many solutions.
    let mut several = 0;
    for file in [
        "lewis_9x9_f020.txt",
        "lewis_9x9_f040.txt",
        "lewis_9x9_f060.txt",
    ] {
        for (i, g) in public_sample(&format!("lewis/{file}"), 25)
            .into_iter()
            .enumerate()
        {
            several +=
                usize::from(agree(&Puzzle::new(g, Variant::Classic), &format!("{file} #{i}")) == 2);
        }
    }
    assert!(several > 0);
}

#[test]
fn classic_puzzles_read_as_sudoku_x_agree_too() {
    // The extra diagonal units make most of these infeasible or change their solution.
    let mut infeasible = 0;
    for (i, g) in public_sample("norvig_top95.txt", 10)
        .into_iter()
        .enumerate()
    {
        infeasible += usize::from(
            agree(
                &Puzzle::new(g, Variant::Diagonal),
                &format!("top95 #{i} as X"),
            ) == 0,
        );
    }
    assert!(infeasible > 0);
}

#[test]
fn agrees_with_prop_and_the_printed_solutions_on_the_seeds() {
    for stem in [
        "000_unicamp_ilp",
        "000_unicamp_ilp.diagonal",
        "000_unicamp_ilp.multiple",
        "001_jump",
        "002_takano",
    ] {
        let variant = match stem.contains("diagonal") {
            true => Variant::Diagonal,
            false => Variant::Classic,
        };
        let pairs = fixtures::seed_pairs(stem, variant).unwrap();
        assert!(!pairs.is_empty(), "{stem}");
        for (i, (puzzle, printed)) in pairs.iter().enumerate() {
            let n = agree(puzzle, &format!("{stem} #{i}"));
            if n == 1 {
                let out = Gac::default().solve(puzzle, &Budget::unlimited(), &mut rng_from_seed(1));
                assert_eq!(out.status, Status::Solved(printed.clone()), "{stem} #{i}");
            }
        }
    }
    for (file, variant) in [
        ("004_teles.txt", Variant::Classic),
        ("001_jump.25x25.txt", Variant::Classic),
        ("000_unicamp_ilp.diagonal.txt", Variant::Diagonal),
    ] {
        for (i, p) in fixtures::seed_puzzles(file, variant)
            .unwrap()
            .iter()
            .enumerate()
        {
            agree(p, &format!("{file} #{i}"));
        }
    }
}

#[test]
fn contradictions_are_proved_infeasible() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let grid = format::parse_str(line, "t").unwrap().remove(0).grid;
    let solution = match Prop::default().solve(
        &Puzzle::new(grid.clone(), Variant::Classic),
        &Budget::unlimited(),
        &mut rng_from_seed(1),
    ) {
        Outcome {
            status: Status::Solved(s),
            ..
        } => s,
        other => panic!("{other:?}"),
    };
    // A wrong digit in an empty cell that clashes with no given: the unique puzzle has no
    // solution left, which only search (or strong propagation) shows.
    let mut wrong = grid.clone();
    let c = (0..81).find(|&c| grid.get(c) == 0).unwrap();
    let geo = Puzzle::new(grid.clone(), Variant::Diagonal).geometry();
    let d = (1..=9u16)
        .find(|&d| d != solution.get(c) && geo.peers(c).iter().all(|&p| grid.get(p as usize) != d))
        .unwrap();
    wrong.set(c, d);
    for variant in Variant::ALL {
        assert_eq!(
            agree(&Puzzle::new(wrong.clone(), variant), "wrong digit"),
            0
        );
    }
    // Givens that repeat a digit in a row.
    let mut clash = grid.clone();
    clash.set(1, 4);
    let p = Puzzle::new(clash, Variant::Classic);
    assert_eq!(agree(&p, "clash"), 0);
    let out = Gac::default().solve(&p, &Budget::unlimited(), &mut rng_from_seed(1));
    assert_eq!((out.status, out.stats.nodes), (Status::Infeasible, 1));
}

#[test]
fn budgets_end_exhausted() {
    let mut rng = rng_from_seed(1);
    // GAC solves many hard 9×9 puzzles at the root; the empty grid needs search.
    let p = Puzzle::empty(Order::new(4).unwrap(), Variant::Classic);
    let nodes = Budget {
        nodes: Some(1),
        ..Budget::unlimited()
    };
    let stops: Vec<_> = solvers()
        .into_iter()
        .map(|(_, mut gac)| {
            let out = gac.solve(&p, &nodes, &mut rng);
            (out.status, out.stats.nodes)
        })
        .collect();
    let stop = (
        Status::Exhausted {
            limit: Limit::Nodes,
            best: None,
        },
        1,
    );
    assert!(stops.iter().all(|s| *s == stop), "{stops:?}");
    // Counting all grids of the empty 9×9 cannot finish in 500 nodes or 50 ms.
    let empty = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    let c = Gac::default()
        .count(
            &empty,
            Count::upto(u64::MAX),
            &Budget {
                nodes: Some(500),
                ..Budget::unlimited()
            },
            &mut rng,
        )
        .unwrap();
    assert_eq!(c.end, CountEnd::Exhausted(Limit::Nodes));
    assert!(c.count > 0 && c.stats.nodes == 500);
    let c = Gac::default()
        .count(
            &empty,
            Count::upto(u64::MAX),
            &Budget::time(Duration::from_millis(50)),
            &mut rng,
        )
        .unwrap();
    assert_eq!(c.end, CountEnd::Exhausted(Limit::Time));
    // Larger orders, both variants: the empty grid is solved without a single backtrack.
    for (n, variant) in [
        (4, Variant::Classic),
        (5, Variant::Diagonal),
        (6, Variant::Classic),
    ] {
        let empty = Puzzle::empty(Order::new(n).unwrap(), variant);
        let out = Gac::default().solve(&empty, &Budget::time(Duration::from_secs(60)), &mut rng);
        let Status::Solved(g) = out.status else {
            panic!("{n} {variant:?}: {:?}", out.status)
        };
        verify_solution(&empty, &g).unwrap();
    }
}

#[test]
fn the_registry_entry_reads_its_parameters() {
    let info = sudoku_logic::methods()
        .into_iter()
        .find(|m| m.name == "gac")
        .unwrap();
    assert!(info.caps.complete);
    let mut p = Params::new();
    p.set("select", "dom-wdeg");
    assert_eq!((info.build)(&p).unwrap().name(), "gac");
    p.set("select", "random");
    assert!((info.build)(&p).is_err());
    let mut p = Params::new();
    p.set("nope", "1");
    assert!((info.build)(&p).is_err());
}

/// The values of each variable that appear in some solution of AllDifferent over `doms`
/// (None: no solution), by enumerating every assignment.
fn supports(doms: &[DigitSet<1>]) -> Option<Vec<DigitSet<1>>> {
    fn go(
        doms: &[DigitSet<1>],
        at: usize,
        used: &mut Vec<usize>,
        out: &mut Vec<DigitSet<1>>,
    ) -> bool {
        if at == doms.len() {
            for (i, &v) in used.iter().enumerate() {
                out[i].insert(v);
            }
            return true;
        }
        let mut any = false;
        for v in doms[at].iter() {
            if !used.contains(&v) {
                used.push(v);
                any |= go(doms, at + 1, used, out);
                used.pop();
            }
        }
        any
    }
    let mut out = vec![DigitSet::EMPTY; doms.len()];
    go(doms, 0, &mut Vec::new(), &mut out).then_some(out)
}

fn domains() -> impl Strategy<Value = Vec<DigitSet<1>>> {
    // 1..=6 variables over values 1..=7 (so some values are free), domains from bit masks.
    prop::collection::vec(0u64..128, 1..=6).prop_map(|masks| {
        masks
            .into_iter()
            .map(|m| (1..=7).filter(|v| m & (1 << (v - 1)) != 0).collect())
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// GAC is exact for one AllDifferent: it keeps every value of some solution and removes
    /// every other; it fails exactly when there is no solution.
    #[test]
    fn the_filter_keeps_exactly_the_supported_values(doms in domains(), shrink in domains()) {
        let mut c = AllDifferent::<1>::new(doms.len());
        let mut filtered = doms.clone();
        match supports(&doms) {
            None => prop_assert!(c.filter(&mut filtered).is_err()),
            Some(expected) => {
                prop_assert!(c.filter(&mut filtered).is_ok());
                prop_assert_eq!(&filtered, &expected);
                // Incremental: shrink the domains and filter again with the kept matching.
                let smaller: Vec<DigitSet<1>> = filtered
                    .iter()
                    .zip(shrink.iter().chain(std::iter::repeat(&DigitSet::EMPTY)))
                    .map(|(d, s)| { let e = d.difference(s); if e.is_empty() { *d } else { e } })
                    .collect();
                let mut again = smaller.clone();
                match supports(&smaller) {
                    None => prop_assert!(c.filter(&mut again).is_err()),
                    Some(expected) => {
                        prop_assert!(c.filter(&mut again).is_ok());
                        prop_assert_eq!(again, expected);
                    }
                }
            }
        }
    }
}

#[test]
fn restarts_happen_and_a_puzzle_runs_the_same_on_every_call() {
    let mut rng = rng_from_seed(1);
    let mut restarts = 0;
    for (i, g) in public_sample("magictour_top1465.txt", 97)
        .into_iter()
        .enumerate()
    {
        let p = Puzzle::new(g, Variant::Classic);
        for select in [Select::MaxSd, Select::DomWdeg] {
            let search = Search {
                select,
                restart: 1,
                ..Search::default()
            };
            let first = Gac::with_search(search).solve(&p, &Budget::unlimited(), &mut rng);
            let Status::Solved(answer) = &first.status else {
                panic!("#{i}: {:?}", first.status)
            };
            verify_solution(&p, answer).unwrap_or_else(|e| panic!("#{i}: {e}"));
            let again = Gac::with_search(search).solve(&p, &Budget::unlimited(), &mut rng);
            assert_eq!(
                (&again.status, again.stats.nodes, again.stats.restarts),
                (&first.status, first.stats.nodes, first.stats.restarts),
                "#{i} {select:?}"
            );
            restarts += first.stats.restarts;
        }
    }
    assert!(restarts > 0, "the sample needs search");
}
