//! Standing agreement between the exact methods of every crate (issue 14, item 5): on samples
//! of the public sets, on every puzzle of the papers, and on puzzles mutated from them
//! to be infeasible or to have several solutions, every exact method gives the same verdict
//! (solved or infeasible) and the same count up to a limit, with the same solutions; a
//! property test asks the same of random 4×4, 9×9 and 16×16 puzzles.
//!
//! `datasets.rs` and `prop_agreement.rs` in sudoku-baselines compare the baselines' answers
//! on unique puzzles, and `conformance.rs` checks each method against the papers'
//! printed answers; this file adds the ILP, infeasible and multi-solution puzzles, and
//! counts, across all of them at once.

use std::collections::BTreeSet;

mod common;

use proptest::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng as _;
use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, Grid, Order, Params, Puzzle, Rng,
    Solver, Status, Variant,
};
use sudoku_fixtures::{public_grids, seed_puzzles, seeds_dir};

/// Counts go up to this many solutions.
const COUNT_LIMIT: u64 = 2;

/// The methods every puzzle goes through; pure backtracking only where `easy` says so.
const EXACT: [&str; 6] = [
    "prop",
    "norvig",
    "backtrack-fc",
    "backtrack-bits",
    "dlx",
    "ilp",
];

struct Method {
    name: &'static str,
    solver: Box<dyn Solver + Send>,
}

/// Every registered exact method, built with defaults; checks that the ones the issue names
/// are all there (a new exact method joins by itself).
fn exact_methods() -> Vec<Method> {
    let methods: Vec<Method> = common::methods()
        .into_iter()
        .filter(|m| m.caps.complete)
        .map(|m| Method {
            name: m.name,
            solver: (m.build)(&Params::new()).expect("defaults build"),
        })
        .collect();
    let names: BTreeSet<&str> = methods.iter().map(|m| m.name).collect();
    for name in EXACT.iter().chain(&["backtrack"]) {
        assert!(names.contains(name), "{name} is not registered as exact");
    }
    methods
}

/// What one method says about one puzzle.
#[derive(Clone, Debug, PartialEq)]
struct Verdict {
    /// `solve` found a (verified) solution.
    solved: bool,
    /// Solutions counted, up to [`COUNT_LIMIT`].
    count: u64,
    /// Whether the count is exact (`Complete`) or reached the limit.
    end: CountEnd,
    /// The solutions counted, sorted, when the count is exact.
    solutions: Vec<Grid>,
}

fn verdict(m: &mut Method, puzzle: &Puzzle, what: &str) -> Verdict {
    let (name, unlimited) = (m.name, Budget::unlimited());
    let mut rng = rng_from_seed(5);
    let solved = match m.solver.solve(puzzle, &unlimited, &mut rng).status {
        Status::Solved(g) => {
            verify_solution(puzzle, &g).unwrap_or_else(|e| panic!("{name} on {what}: {e}"));
            true
        }
        Status::Infeasible => false,
        other => panic!("{name} on {what}: {other:?} without a limit"),
    };
    let c = m
        .solver
        .count(puzzle, Count::collecting(COUNT_LIMIT), &unlimited, &mut rng)
        .unwrap_or_else(|e| panic!("{name} on {what}: {e}"));
    assert!(
        matches!(c.end, CountEnd::Complete | CountEnd::LimitReached),
        "{name} on {what}: count ended {:?} without a limit",
        c.end
    );
    let mut solutions = c.solutions;
    for g in &solutions {
        verify_solution(puzzle, g).unwrap_or_else(|e| panic!("{name} on {what}: {e}"));
    }
    solutions.sort_by(|a, b| a.cells().cmp(b.cells()));
    solutions.dedup();
    assert_eq!(
        solutions.len() as u64,
        c.count,
        "{name} on {what}: the solutions collected are not the count, or repeat"
    );
    assert_eq!(
        solved,
        c.count > 0,
        "{name} on {what}: solve and count disagree"
    );
    if c.end == CountEnd::LimitReached {
        // Which solutions are found first is each method's own business.
        solutions.clear();
    }
    Verdict {
        solved,
        count: c.count,
        end: c.end,
        solutions,
    }
}

/// Asserts that every method (pure backtracking too when `easy`) says the same about
/// `puzzle`; returns the verdict.
fn agree(methods: &mut [Method], puzzle: &Puzzle, easy: bool, what: &str) -> Verdict {
    let mut first: Option<(&str, Verdict)> = None;
    for m in methods.iter_mut().filter(|m| easy || m.name != "backtrack") {
        let v = verdict(m, puzzle, what);
        match &first {
            None => first = Some((m.name, v)),
            Some((name, reference)) => {
                assert_eq!(&v, reference, "{} vs {name} on {what}", m.name)
            }
        }
    }
    first.expect("some method").1
}

/// `puzzle` with one given changed to another digit that no given peer holds (so the givens
/// still do not clash), or `None` when no given can change.
fn change_a_given(puzzle: &Puzzle, rng: &mut Rng) -> Option<Puzzle> {
    let geo = puzzle.geometry();
    let givens = puzzle.givens();
    let mut cells: Vec<usize> = (0..geo.cells()).filter(|&c| givens.get(c) != 0).collect();
    cells.shuffle(rng);
    for c in cells {
        let taken: BTreeSet<u16> = geo
            .peers(c)
            .iter()
            .map(|&p| givens.get(p as usize))
            .collect();
        let free: Vec<u16> = (1..=geo.size() as u16)
            .filter(|&d| d != givens.get(c) && !taken.contains(&d))
            .collect();
        if let Some(&d) = free.choose(rng) {
            let mut g = givens.clone();
            g.set(c, d);
            return Some(Puzzle::new(g, puzzle.variant()));
        }
    }
    None
}

/// `puzzle` with `k` givens (chosen at random) removed.
fn remove_givens(puzzle: &Puzzle, k: usize, rng: &mut Rng) -> Puzzle {
    let givens = puzzle.givens();
    let mut cells: Vec<usize> = (0..givens.cells().len())
        .filter(|&c| givens.get(c) != 0)
        .collect();
    cells.shuffle(rng);
    let mut g = givens.clone();
    for &c in cells.iter().take(k) {
        g.set(c, 0);
    }
    Puzzle::new(g, puzzle.variant())
}

/// Tallies of the verdicts seen, so the test can say it met every kind.
#[derive(Debug, Default)]
struct Seen {
    puzzles: usize,
    unique: usize,
    several: usize,
    infeasible: usize,
}

impl Seen {
    fn add(&mut self, v: &Verdict) {
        self.puzzles += 1;
        match v.count {
            0 => self.infeasible += 1,
            1 => self.unique += 1,
            _ => self.several += 1,
        }
    }
}

/// Each puzzle, one with a given changed, and one with `remove` givens removed.
fn with_mutants(
    methods: &mut [Method],
    puzzles: &[Puzzle],
    remove: usize,
    easy: bool,
    set: &str,
    seen: &mut Seen,
) {
    let mut rng = rng_from_seed(14);
    for (i, p) in puzzles.iter().enumerate() {
        seen.add(&agree(methods, p, easy, &format!("{set} #{i}")));
        if let Some(changed) = change_a_given(p, &mut rng) {
            let what = format!("{set} #{i} with a given changed");
            seen.add(&agree(methods, &changed, easy, &what));
        }
        let fewer = remove_givens(p, remove, &mut rng);
        let what = format!("{set} #{i} less {remove} givens");
        seen.add(&agree(methods, &fewer, easy, &what));
    }
}

/// The first `take` puzzles of a public set, less those at the indices in `skip`.
fn public(file: &str, take: usize, skip: &[usize]) -> Vec<Puzzle> {
    public_grids(file)
        .expect("public set parses")
        .expect("public sets are in the checkout")
        .into_iter()
        .take(take)
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, g)| Puzzle::new(g, Variant::Classic))
        .collect()
}

#[test]
fn exact_methods_agree_on_the_public_sets_and_their_mutants() {
    let mut methods = exact_methods();
    let mut seen = Seen::default();
    // Skipped, to keep the test under two minutes: two of the hardest, on which CBC's branch
    // and cut alone takes several seconds, and a 16×16 that keeps backtrack-fc busy as long.
    for (file, take, skip, remove) in [
        ("norvig_top95.txt", 8, &[][..], 4),
        ("magictour_top1465.txt", 8, &[], 4),
        ("norvig_hardest.txt", 11, &[1, 5], 4),
        ("gecode_9x9.txt", 18, &[], 4),
        ("gecode_16x16.txt", 4, &[2], 2),
    ] {
        let puzzles = public(file, take, skip);
        with_mutants(&mut methods, &puzzles, remove, false, file, &mut seen);
    }
    // Pure backtracking on the easy set.
    let easy = public("norvig_easy50.txt", 6, &[]);
    with_mutants(&mut methods, &easy, 3, true, "norvig_easy50", &mut seen);
    eprintln!("public sets: {seen:?}");
    assert!(
        seen.infeasible >= 10 && seen.several >= 10 && seen.unique >= 40,
        "{seen:?}"
    );
}

#[test]
fn exact_methods_agree_on_the_seed_puzzles_and_their_mutants() {
    let mut methods = exact_methods();
    let mut seen = Seen::default();
    let mut files: Vec<String> = std::fs::read_dir(seeds_dir())
        .expect("datasets/seeds")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".txt") && !f.contains("solutions") && !f.contains("full_grids"))
        // The damaged files are unreadable on purpose (parser tests).
        .filter(|f| !f.contains("damaged"))
        .collect();
    files.sort();
    for file in &files {
        let variant = if file.contains("diagonal") {
            Variant::Diagonal
        } else {
            Variant::Classic
        };
        let puzzles = seed_puzzles(file, variant).expect("seed file parses");
        // Pure backtracking only where the grid is 9×9 and well filled.
        let (small, large): (Vec<Puzzle>, Vec<Puzzle>) =
            puzzles.into_iter().partition(|p| p.order().n() == 3);
        let (easy, hard): (Vec<Puzzle>, Vec<Puzzle>) =
            small.into_iter().partition(|p| p.givens().filled() >= 30);
        with_mutants(&mut methods, &easy, 3, true, file, &mut seen);
        with_mutants(&mut methods, &hard, 2, false, file, &mut seen);
        // The 25×25: as given and with a changed given (removing givens would leave counts
        // that take the slower methods long).
        let mut rng = rng_from_seed(25);
        for (i, p) in large.iter().enumerate() {
            seen.add(&agree(&mut methods, p, false, &format!("{file} #{i}")));
            if let Some(changed) = change_a_given(p, &mut rng) {
                let what = format!("{file} #{i} with a given changed");
                seen.add(&agree(&mut methods, &changed, false, &what));
            }
        }
    }
    eprintln!("seed puzzles: {seen:?}");
    assert!(
        seen.infeasible >= 5 && seen.several >= 5 && seen.unique >= 10,
        "{seen:?}"
    );
}

/// A random full grid of order `n` (pattern construction with random symmetries).
fn random_grid(n: usize, variant: Variant, rng: &mut Rng) -> Grid {
    let info = sudoku_gen::generators()
        .into_iter()
        .find(|g| g.name == "pattern")
        .expect("pattern generator");
    let mut generator = (info.build)(&Params::new()).expect("defaults build");
    let order = Order::new(n).expect("order");
    match generator
        .generate(order, variant, &Budget::unlimited(), rng)
        .status
    {
        Status::Solved(g) => g,
        other => panic!("pattern {n} {variant:?}: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// A random grid of order 2–4, each cell kept with a random probability, then some givens
    /// changed and some removed: every exact method says the same.
    #[test]
    fn exact_methods_agree_on_random_small_puzzles(
        n in 2usize..=4,
        diagonal in any::<bool>(),
        seed in any::<u64>(),
        keep in 0.0f64..1.0,
        changes in 0usize..=2,
        removals in 0usize..=3,
    ) {
        let variant = if diagonal { Variant::Diagonal } else { Variant::Classic };
        let mut rng = rng_from_seed(seed);
        let grid = random_grid(n, variant, &mut rng);
        // 16×16 keeps at least half its cells: fewer leave counts that take the plain
        // searches long.
        let keep = match n {
            4 => 0.5 + 0.4 * keep,
            _ => 0.15 + 0.8 * keep,
        };
        let mut givens = grid.clone();
        for c in 0..grid.cells().len() {
            if !rng.random_bool(keep) {
                givens.set(c, 0);
            }
        }
        let mut puzzle = Puzzle::new(givens, variant);
        for _ in 0..changes {
            if let Some(p) = change_a_given(&puzzle, &mut rng) {
                puzzle = p;
            }
        }
        puzzle = remove_givens(&puzzle, removals, &mut rng);
        let mut methods = exact_methods();
        let v = agree(&mut methods, &puzzle, n == 2, &format!("random {n} {variant:?} seed {seed}"));
        if changes == 0 {
            // Kept cells of a full grid: that grid is one of the solutions.
            prop_assert!(v.solved);
        }
    }
}
