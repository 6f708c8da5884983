//! The first puzzles of the public Lewis sets (skipped, with a message, when the shared
//! datasets are not beside the repository).

use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Puzzle, Status, Variant};

#[test]
fn lewis_sets_near_the_hard_region_are_solved_and_verified() {
    let Some(dir) = sudoku_fixtures::public_dir() else {
        return;
    };
    let budget = Budget {
        iterations: Some(300_000_000),
        ..Budget::default()
    };
    for level in ["f040", "f045", "f050"] {
        let path = dir.join(format!("lewis/lewis_9x9_{level}.txt"));
        let entries = format::read_file(&path).expect("readable dataset");
        for (i, e) in entries.iter().take(3).enumerate() {
            let p = Puzzle::new(e.grid.clone(), Variant::Classic);
            for info in sudoku_meta::methods() {
                let mut s = (info.build)(&Default::default()).unwrap();
                let out = s.solve(&p, &budget, &mut rng_from_seed(i as u64));
                let Status::Solved(g) = &out.status else {
                    panic!("{} did not solve {level} #{i}: {:?}", info.name, out.stats);
                };
                verify_solution(&p, g).unwrap();
            }
        }
    }
}
