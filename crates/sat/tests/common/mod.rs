//! Puzzles the integration tests share.

use rand::seq::IndexedRandom;
use sudoku_core::{rng_from_seed, Puzzle, Variant};
use sudoku_fixtures::public_grids;

/// The first `count` puzzles of norvig_top95, each made infeasible (`seed` picks how): an
/// empty cell takes a digit one of its peers holds. Labelled `mutated #i`.
pub fn mutated(count: usize, seed: u64) -> Vec<(String, Puzzle)> {
    let grids = public_grids("norvig_top95.txt")
        .unwrap()
        .expect("the public sets are in the checkout");
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::new();
    for (i, g) in grids.iter().take(count).enumerate() {
        let geom = Puzzle::new(g.clone(), Variant::Classic).geometry();
        let empty: Vec<usize> = (0..geom.cells()).filter(|&c| g.get(c) == 0).collect();
        let &c = empty.choose(&mut rng).unwrap();
        let peer = geom.peers(c).iter().find(|&&q| g.get(q as usize) != 0);
        let mut bad = g.clone();
        bad.set(c, g.get(*peer.unwrap() as usize));
        out.push((format!("mutated #{i}"), Puzzle::new(bad, Variant::Classic)));
    }
    out
}
