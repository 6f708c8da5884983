//! The representation: incremental cost equals the cost recomputed from scratch, blocks stay
//! permutations, fixed cells never move.

use proptest::prelude::*;
use sudoku_core::{rng_from_seed, Grid, Order, Puzzle, Variant};
use sudoku_meta::Board;

/// A puzzle of order `n` with a random share of cells given from a simple valid grid
/// (the pattern grid), so fixed cells never contradict the blocks.
fn puzzle(n: usize, variant: Variant, keep: &[bool]) -> Puzzle {
    let order = Order::new(n).unwrap();
    let size = order.size();
    let mut g = Grid::empty(order);
    for r in 0..size {
        for c in 0..size {
            let i = r * size + c;
            if keep[i % keep.len()] {
                // The classic pattern grid: row r is shifted by n·(r mod n) + r / n.
                let d = (n * (r % n) + r / n + c) % size;
                g.set(i, d as u16 + 1);
            }
        }
    }
    Puzzle::new(g, variant)
}

fn check_blocks(board: &Board, p: &Puzzle) {
    let geo = p.geometry();
    let size = geo.size();
    for b in 0..size {
        let mut digits: Vec<u16> = geo
            .unit(2 * size + b)
            .iter()
            .map(|&c| board.get(c as usize))
            .collect();
        digits.sort_unstable();
        assert_eq!(digits, (1..=size as u16).collect::<Vec<_>>());
    }
    for (i, &d) in p.givens().cells().iter().enumerate() {
        if d != 0 {
            assert_eq!(board.get(i), d);
            assert!(board.is_fixed(i));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn incremental_cost_equals_recomputed(
        n in 2usize..=5,
        diagonal in any::<bool>(),
        keep in proptest::collection::vec(prop::bool::weighted(0.3), 7..40),
        seed in any::<u64>(),
        alpha in 0.0f64..=1.0,
        rcl in any::<bool>(),
        restrict in any::<bool>(),
        swaps in 1usize..300,
    ) {
        let variant = if diagonal { Variant::Diagonal } else { Variant::Classic };
        let p = puzzle(n, variant, &keep);
        // The pattern grid is not a Sudoku-X solution, but fixed cells only need distinct
        // digits per block for the representation.
        let mut board = Board::new(&p, p.givens()).unwrap();
        let mut rng = rng_from_seed(seed);
        if restrict {
            board.restrict_to_candidates();
        }
        if rcl { board.fill_rcl(alpha, &mut rng) } else { board.fill_random(&mut rng) }
        prop_assert_eq!(board.cost(), board.recompute_cost());
        check_blocks(&board, &p);
        for _ in 0..swaps {
            let Some((a, b)) = board.random_swap(&mut rng) else { break };
            if !board.swap_allowed(a, b) {
                continue;
            }
            let before = board.cost() as i64;
            let delta = board.delta(a, b);
            board.apply(a, b, delta);
            prop_assert_eq!(board.cost() as i64, before + delta);
            prop_assert_eq!(board.cost(), board.recompute_cost());
        }
        check_blocks(&board, &p);
    }
}

#[test]
fn a_solution_has_cost_zero_and_every_swap_in_it_costs_more() {
    for n in 2..=4 {
        let empty = puzzle(n, Variant::Classic, &[false]);
        let full = puzzle(n, Variant::Classic, &[true]);
        let mut board = Board::new(&empty, empty.givens()).unwrap();
        board.fill_random(&mut rng_from_seed(n as u64));
        board.restore(full.givens().cells());
        assert_eq!(board.cost(), 0);
        assert_eq!(board.recompute_cost(), 0);
        let size = empty.order().size();
        for b in 0..size {
            let free = board.free_cells(b).to_vec();
            for i in 0..free.len() {
                for j in i + 1..free.len() {
                    let (a, c) = (free[i] as usize, free[j] as usize);
                    let delta = board.delta(a, c);
                    // A digit moved within its block meets its copy in the new row or column.
                    assert!(delta > 0);
                    let mut moved = board.clone();
                    moved.apply(a, c, delta);
                    assert_eq!(moved.recompute_cost() as i64, delta);
                }
            }
        }
    }
}

#[test]
fn fixed_cells_repeating_in_a_block_are_rejected() {
    let order = Order::new(2).unwrap();
    let mut g = Grid::empty(order);
    g.set(0, 1);
    g.set(5, 1); // r2c2, same block as r1c1
    let p = Puzzle::new(g.clone(), Variant::Classic);
    assert!(Board::new(&p, &g).is_err());
}
