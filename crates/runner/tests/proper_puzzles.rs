//! The committed proper puzzles (datasets/generated/): every exact method that answers them in
//! test time agrees with `prop` that each has exactly one solution, that solution is the one
//! the file records, and a contradiction planted in each is infeasible for all of them; the
//! 25×25 set is solved and proven unique by `sat` within a conflict budget.

mod common;

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Params, Puzzle, Solver,
    Status, Variant,
};

/// Each puzzle of `datasets/generated/NAME` with the solution its comment line records.
fn proper(name: &str) -> Vec<(Puzzle, Grid)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/generated")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the committed set reads");
    let entries = format::parse_str(&text, name).expect("the committed set parses");
    assert!(!entries.is_empty(), "{name} is empty");
    let solutions: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.split_once(", solution ").map(|(_, s)| s.trim()))
        .map(|s| {
            format::parse_str(s, name).expect("a recorded solution parses")[0]
                .grid
                .clone()
        })
        .collect();
    assert_eq!(
        solutions.len(),
        entries.len(),
        "{name}: one solution per puzzle"
    );
    entries
        .into_iter()
        .map(|e| Puzzle::new(e.grid, Variant::Classic))
        .zip(solutions)
        .collect()
}

fn method(name: &str) -> Box<dyn Solver + Send> {
    let info = common::methods()
        .into_iter()
        .find(|m| m.name == name)
        .expect("registered");
    (info.build)(&Params::new()).expect("defaults build")
}

/// The first open cell of `p`'s row-mates given a digit, set to that digit in another open
/// cell of the row: two equal digits in a row, so no solution.
fn contradiction(p: &Puzzle) -> Puzzle {
    let size = p.order().size();
    let g = p.givens();
    for r in 0..size {
        let row: Vec<usize> = (r * size..(r + 1) * size).collect();
        let given = row.iter().find(|&&c| g.get(c) != 0);
        let open = row.iter().find(|&&c| g.get(c) == 0);
        if let (Some(&a), Some(&b)) = (given, open) {
            let mut bad = g.clone();
            bad.set(b, g.get(a));
            return Puzzle::new(bad, Variant::Classic);
        }
    }
    panic!("a puzzle with an open cell and a given in one row");
}

#[test]
fn exact_methods_agree_on_the_16x16_set() {
    let set = proper("proper-16x16.txt");
    let budget = Budget::unlimited();
    for name in ["prop", "gac", "sat", "dlx"] {
        let mut m = method(name);
        for (k, (p, solution)) in set.iter().enumerate() {
            let c = m
                .count(p, Count::collecting(2), &budget, &mut rng_from_seed(1))
                .expect("exact methods count");
            assert_eq!(
                (c.count, c.end),
                (1, CountEnd::Complete),
                "{name}, puzzle {k}"
            );
            verify_solution(p, &c.solutions[0]).expect("a verified solution");
            assert_eq!(&c.solutions[0], solution, "{name}, puzzle {k}");
            let bad = contradiction(p);
            let out = m.solve(&bad, &budget, &mut rng_from_seed(1));
            assert!(
                matches!(out.status, Status::Infeasible),
                "{name}, puzzle {k} with a contradiction: {:?}",
                out.status
            );
        }
    }
}

#[test]
fn sat_solves_and_proves_the_25x25_set_unique_within_a_conflict_budget() {
    let set = proper("proper-25x25.txt");
    // Counted to 2 within this many conflicts each (the set takes far fewer: the
    // proper-puzzles run's `nodes` column).
    let budget = Budget {
        nodes: Some(2_000_000),
        ..Budget::unlimited()
    };
    let mut sat = method("sat");
    for (k, (p, solution)) in set.iter().enumerate() {
        let c = sat
            .count(p, Count::collecting(2), &budget, &mut rng_from_seed(1))
            .expect("sat counts");
        assert_eq!((c.count, c.end), (1, CountEnd::Complete), "puzzle {k}");
        verify_solution(p, &c.solutions[0]).expect("a verified solution");
        assert_eq!(&c.solutions[0], solution, "puzzle {k}");
    }
}
