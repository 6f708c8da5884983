//! `threads=2` (two searches on different copies, the first answer wins) and `copy=` (a
//! relabelled or reseeded copy solved instead of the puzzle, its answers mapped back) give the
//! same verdicts, counts and solutions as the plain `sat`: the seed papers' puzzles in both
//! variants (Figure 9's two solutions among them) and infeasible mutations.

mod common;

use std::collections::BTreeSet;

use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Params, Puzzle, Solver, Variant,
};
use sudoku_fixtures::seed_puzzles;
use sudoku_sat::Sat;

fn answers(s: &mut Sat, p: &Puzzle, what: &str) -> (u64, CountEnd, BTreeSet<Vec<u16>>) {
    let c = s
        .count(
            p,
            Count::collecting(2),
            &Budget::unlimited(),
            &mut rng_from_seed(1),
        )
        .unwrap();
    assert!(c.stats.error.is_none(), "{what}: {:?}", c.stats.error);
    for g in &c.solutions {
        verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    (
        c.count,
        c.end,
        c.solutions.iter().map(|g| g.cells().to_vec()).collect(),
    )
}

#[test]
fn copies_and_the_portfolio_agree_with_one_search() {
    let mut puzzles = Vec::new();
    for (file, variant) in [
        ("000_unicamp_ilp.diagonal.txt", Variant::Diagonal),
        ("000_unicamp_ilp.multiple.txt", Variant::Classic),
        ("002_takano.txt", Variant::Classic),
    ] {
        for (i, p) in seed_puzzles(file, variant).unwrap().into_iter().enumerate() {
            puzzles.push((format!("{file} #{}", i + 1), p));
        }
    }
    puzzles.extend(common::mutated(4, 6));
    let mut plain = Sat::default();
    let configs: Vec<Vec<(&str, &str)>> = vec![
        vec![("threads", "2")],
        vec![("threads", "2"), ("copies", "reseed"), ("preset", "sat")],
        vec![("copy", "1")],
        vec![("copy", "7"), ("encoding", "extended")],
        vec![("copy", "3"), ("copies", "reseed"), ("options", "chrono=0")],
    ];
    let kissat = sudoku_sat::find_kissat().is_ok();
    if !kissat {
        eprintln!("kissat not found: its relabelled copies are not checked");
    }
    let configs = configs
        .into_iter()
        .chain(kissat.then(|| vec![("copy", "2"), ("solver", "kissat")]));
    for pairs in configs {
        let mut params = Params::new();
        for (k, v) in &pairs {
            params.set(*k, *v);
        }
        let mut other = Sat::from_params(&params).unwrap();
        for (what, p) in &puzzles {
            let what = format!("{what} with {params}");
            let (a, b) = (answers(&mut plain, p, &what), answers(&mut other, p, &what));
            assert_eq!((a.0, a.1), (b.0, b.1), "{what}");
            // Which two of many solutions a count to 2 finds depends on the search.
            if a.1 == CountEnd::Complete {
                assert_eq!(a.2, b.2, "{what}");
            }
            let out = other.solve(p, &Budget::unlimited(), &mut rng_from_seed(1));
            if let sudoku_core::Status::Solved(g) = &out.status {
                verify_solution(p, g).unwrap_or_else(|e| panic!("{what}: {e}"));
            }
            if params.raw("threads").is_some() {
                assert_eq!(out.stats.threads, 2, "{what}");
            }
        }
    }
}
