//! Property tests: text round trips, and the verifier against valid grids and their mutations.

use proptest::prelude::*;
use sudoku_core::format::{parse_str, to_block, to_line, to_text};
use sudoku_core::{verify_solution, Grid, Order, Puzzle, Variant};

/// The textbook pattern grid: row r is the first row shifted by n·(r mod n) + r div n.
fn pattern(order: Order) -> Grid {
    let (n, s) = (order.n(), order.size());
    let cells = (0..s * s)
        .map(|i| {
            let (r, c) = (i / s, i % s);
            ((n * (r % n) + r / n + c) % s + 1) as u16
        })
        .collect();
    Grid::from_cells(order, cells).unwrap()
}

/// Symmetries that map valid grids to valid grids: relabel digits, permute rows in a band,
/// bands, columns in a stack, stacks, and transpose.
fn transform(g: &Grid, relabel: &[usize], rows: &[usize], cols: &[usize], transpose: bool) -> Grid {
    let s = g.size();
    let mut cells = vec![0u16; s * s];
    for r in 0..s {
        for c in 0..s {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            cells[r * s + c] = relabel[g.at(sr, sc) as usize - 1] as u16 + 1;
        }
    }
    Grid::from_cells(g.order(), cells).unwrap()
}

/// A permutation of 0..s that keeps bands of n together: shuffle bands, then lines inside each.
fn band_perm(n: usize, keys: &[u32]) -> Vec<usize> {
    let mut bands: Vec<usize> = (0..n).collect();
    bands.sort_by_key(|&b| keys[b]);
    let mut out = Vec::with_capacity(n * n);
    for (i, &b) in bands.iter().enumerate() {
        let mut lines: Vec<usize> = (0..n).collect();
        lines.sort_by_key(|&l| keys[n + i * n + l]);
        out.extend(lines.into_iter().map(|l| b * n + l));
    }
    out
}

fn perm(s: usize, keys: &[u32]) -> Vec<usize> {
    let mut p: Vec<usize> = (0..s).collect();
    p.sort_by_key(|&i| keys[i]);
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn line_round_trip(n in 2usize..=5, cells in proptest::collection::vec(0u16..=25, 625)) {
        let order = Order::new(n).unwrap();
        let s = order.size() as u16;
        let g = Grid::from_cells(order, cells[..order.cells()].iter().map(|v| v % (s + 1)).collect()).unwrap();
        let text = to_line(&g).unwrap();
        let back = parse_str(&text, "p").unwrap();
        prop_assert_eq!(&back[0].grid, &g);
        prop_assert_eq!(to_line(&back[0].grid).unwrap(), text);
    }

    #[test]
    fn block_round_trip(n in 2usize..=7, seed in any::<u64>()) {
        let order = Order::new(n).unwrap();
        let s = order.size() as u64;
        let mut x = seed | 1;
        let cells = (0..order.cells()).map(|_| {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            (x % (s + 1)) as u16
        }).collect();
        let g = Grid::from_cells(order, cells).unwrap();
        let text = to_block(&g);
        let back = parse_str(&text, "p").unwrap();
        prop_assert_eq!(&back[0].grid, &g);
        prop_assert_eq!(to_block(&back[0].grid), text);
        // The default writer picks the line format up to 35 digits, blocks beyond.
        let two = format!("{}{}", to_text(&g), to_text(&g));
        prop_assert_eq!(parse_str(&two, "p").unwrap().len(), 2);
    }

    #[test]
    fn verifier_accepts_symmetric_images_and_rejects_any_single_change(
        n in 2usize..=5,
        keys in proptest::collection::vec(any::<u32>(), 64),
        transpose in any::<bool>(),
        cell in any::<prop::sample::Index>(),
        bump in 1u16..25,
    ) {
        let order = Order::new(n).unwrap();
        let s = order.size();
        let base = pattern(order);
        let relabel = perm(s, &keys[..s]);
        let rows = band_perm(n, &keys[s..]);
        let cols = band_perm(n, &keys[(s + 1) % 8..]);
        let g = transform(&base, &relabel, &rows, &cols, transpose);
        let empty = Puzzle::empty(order, Variant::Classic);
        prop_assert!(verify_solution(&empty, &g).is_ok());
        // Any one changed cell breaks it.
        let i = cell.index(order.cells());
        let mut bad = g.clone();
        let d = ((g.get(i) as usize - 1 + bump as usize % (s - 1) + 1) % s + 1) as u16;
        prop_assume!(d != g.get(i));
        bad.set(i, d);
        prop_assert!(verify_solution(&empty, &bad).is_err());
        // With its own cells as givens, emptying one is also caught.
        let mut hole = g.clone();
        hole.set(i, 0);
        prop_assert!(verify_solution(&Puzzle::new(g.clone(), Variant::Classic), &hole).is_err());
        // A valid grid that contradicts one given is caught, and named as such.
        let mut givens = Grid::empty(order);
        givens.set(i, d);
        let err = verify_solution(&Puzzle::new(givens, Variant::Classic), &g).unwrap_err();
        prop_assert!(err.to_string().contains("given"), "{}", err);
        // Two cells of one row swapped: every row still holds each digit once.
        let j = (i / s) * s + (i % s + 1) % s;
        let mut swapped = g.clone();
        swapped.set(i, g.get(j));
        swapped.set(j, g.get(i));
        prop_assert!(verify_solution(&empty, &swapped).is_err());
        // The diagonal variant's own units are still checked.
        prop_assume!(n >= 3);
        let diagonal = Puzzle::empty(order, Variant::Diagonal);
        prop_assert!(verify_solution(&diagonal, &base).is_err());
    }
}

#[test]
fn pattern_grids_are_valid_up_to_order_10() {
    for n in 2..=10 {
        let order = Order::new(n).unwrap();
        assert!(verify_solution(&Puzzle::empty(order, Variant::Classic), &pattern(order)).is_ok());
    }
}

#[test]
fn parse_errors_name_the_column_with_or_without_ascii() {
    let line = format!("{}x{}", ".".repeat(40), ".".repeat(40));
    let err = parse_str(&format!("# a label\n  {line}\n"), "f").unwrap_err();
    let text = err.to_string();
    assert!(text.contains("f:2:43"), "{text}");
    let line = format!("{}é{}", "1".repeat(40), ".".repeat(40));
    let err = parse_str(&line, "f").unwrap_err().to_string();
    assert!(err.contains("f:1:41"), "{err}");
}
