//! The seed-003 searches were sped up without changing their search: for a seed and a node
//! budget they must visit the same nodes, restart as often and return the same grid as the
//! straightforward implementation did. The expected values below were recorded from that
//! implementation (full-board refresh of every list at each row start).

use rand::Rng as _;
use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Generator, Order, Puzzle, Status, Variant,
};
use sudoku_gen::{FillOrder, PaperSearch, Stale, TryRule};

/// FNV-1a of the grid's cells (0 when no grid): a compact fingerprint to pin.
fn fingerprint(status: &Status) -> u64 {
    let Status::Solved(g) = status else {
        return 0;
    };
    g.cells().iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &d| {
        (h ^ u64::from(d)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// (rule, fill order, diagonals, variant, order n, seed, node budget).
type Case = (TryRule, FillOrder, bool, Variant, usize, u64, u64);

fn cases() -> Vec<Case> {
    let wp = TryRule::WeightedPrune { alpha: 1.0 };
    let pr = TryRule::Prune { alpha: 0.7 };
    let c = Variant::Classic;
    let d = Variant::Diagonal;
    let mut v = Vec::new();
    for (n, budget) in [(3, 1_000_000), (4, 1_000_000), (5, 300_000)] {
        for seed in [1, 2] {
            v.push((wp, FillOrder::Rows, true, c, n, seed, budget));
            v.push((pr, FillOrder::Rows, true, c, n, seed, budget));
        }
    }
    for seed in [1, 2, 3] {
        v.push((TryRule::All, FillOrder::Rows, true, c, 4, seed, 200_000));
        v.push((wp, FillOrder::Rows, true, d, 4, seed, 200_000));
        v.push((wp, FillOrder::Rows, false, c, 4, seed, 200_000));
        v.push((wp, FillOrder::Columns, true, c, 4, seed, 200_000));
        v.push((wp, FillOrder::Blocks, true, c, 4, seed, 200_000));
        v.push((pr, FillOrder::Random, true, c, 3, seed, 200_000));
        v.push((wp, FillOrder::Fewest, true, c, 3, seed, 200_000));
        v.push((TryRule::All, FillOrder::Fewest, false, d, 3, seed, 200_000));
    }
    // Larger orders, cut by the node budget: the search's path must match node for node.
    v.push((wp, FillOrder::Rows, true, c, 6, 1, 1_000_000));
    v.push((wp, FillOrder::Rows, true, c, 7, 1, 1_000_000));
    v.push((pr, FillOrder::Rows, true, c, 7, 2, 500_000));
    v
}

/// (nodes, restarts, attempts, grid fingerprint, next draw of the caller's rng) per case, from
/// the old implementation. The rng draw pins every random choice the search made, so a run
/// cut by its node budget is pinned too.
const EXPECTED: [(u64, u64, u64, u64, u64); 39] = [
    (180, 1, 2, 0x2c352580ffcca544, 0xdde148171bd1a2e6),
    (172, 0, 1, 0xe6b064964d7ee68c, 0xa32a21f075c47599),
    (208, 0, 1, 0x533c8d8d0b0a0410, 0xdbb35670e4937e21),
    (374, 0, 1, 0xa62fee032705ff0c, 0xb30a45f566749883),
    (1527, 0, 1, 0xef92321842ea3889, 0x7edc5d2d0172fac1),
    (2666, 0, 1, 0x6d5cf7c00fa2e521, 0x66ccda58cf241027),
    (3570, 0, 1, 0x8563b0dbd848b85d, 0xc3cac5e354d969c3),
    (2387, 0, 1, 0x2ff2aa8fcb3b8709, 0xc37ae2824e8682e3),
    (49082, 0, 1, 0xb4947330fb5bffe0, 0x7d81c5ba454b3613),
    (29772, 0, 1, 0x99e3ab08c3226e68, 0x5b94e93a5836f505),
    (62535, 0, 1, 0x5e08d327ecc30ca0, 0x70ebd1224096b89b),
    (41271, 0, 1, 0x7273da7dd913ff50, 0x8fd9e35934fd8112),
    (3815, 0, 1, 0x3a2bd612d8c65fe5, 0xb3f16485ca0963d7),
    (200000, 0, 1, 0x0, 0x1d15ed7233e5980a),
    (881, 0, 1, 0xb9c475efc82e1839, 0xbb1314bdb83cc2c8),
    (4437, 0, 1, 0xfea33adf378b754d, 0xf216c15ff4913894),
    (10696, 0, 1, 0xa08205b1494c701, 0x2e8f87f41b105f37),
    (6992, 0, 1, 0x7d98056f095a5dfc, 0x854cd28395a75df1),
    (66, 0, 1, 0xef7b8e5f851abc98, 0xe141c1135a1af9c9),
    (948, 4, 5, 0x99639a34fd730120, 0xf427b4c3c2f51ce7),
    (1298, 0, 1, 0xdf5a9abae7e9e95, 0xa6c1bad055e95eab),
    (5978, 0, 1, 0xc0d133fc4bd8c441, 0xcc7d0f9c54b45c02),
    (469, 0, 1, 0x9619a46d17d0c305, 0xd2cd0dd99e8e34f9),
    (2939, 0, 1, 0x1a3e4c5eb8818005, 0xfe7b770af88fd55f),
    (4123, 0, 1, 0x41aae764282fecc5, 0x293c82a211b0bf7c),
    (153860, 3, 4, 0xab5e19b4f7a9c3dc, 0x2a8acdcb82ff46a),
    (311, 7, 8, 0x2ecd6dd6d4783524, 0x4bea4f4ddd544859),
    (2448, 15, 16, 0x9526852561e2aec8, 0xb3d0f417e5f7d31c),
    (4469, 0, 1, 0x804eddaa43488ba5, 0x930a0912f340b12e),
    (110702, 0, 1, 0x537dc7996f8f7ac5, 0xa02ace880722273a),
    (1497, 0, 1, 0xff381504ff684409, 0x73a5ffc535fddc09),
    (1309, 0, 1, 0x2aa14a978380db59, 0xb3958cb2ee1d91c7),
    (12092, 0, 1, 0x11a6adca1ac360bd, 0x27180a14f59efabd),
    (54707, 0, 1, 0xb355c82186a0e270, 0xf361eed730e645ee),
    (115, 1, 2, 0x501a8a1d511071f0, 0x179a5d00446fffb6),
    (104, 0, 1, 0x24c0aa3fb6372460, 0x6d04f66138e9d1d2),
    (850172, 0, 1, 0x2f4569710e4a2b71, 0xd3601aa83a1f7539),
    (1000000, 0, 1, 0x0, 0xe51b93b6cf7257b9),
    (500000, 0, 1, 0x0, 0x42a0ad0a438bea85),
];

#[test]
fn the_faster_search_is_the_same_search() {
    let cases = cases();
    assert_eq!(cases.len(), EXPECTED.len());
    for ((rule, fo, diagonals, variant, n, seed, nodes), want) in cases.into_iter().zip(EXPECTED) {
        // The recorded runs drew new diagonal blocks at each restart and skipped stale digits.
        let mut g = PaperSearch {
            order: fo,
            diagonals,
            stale: Stale::Skip,
            redraw: true,
            ..PaperSearch::new(rule)
        };
        let b = Budget {
            nodes: Some(nodes),
            ..Budget::default()
        };
        let mut rng = rng_from_seed(seed);
        let out = g.generate(Order::new(n).unwrap(), variant, &b, &mut rng);
        let got = (
            out.stats.nodes,
            out.stats.restarts,
            out.stats.iterations,
            fingerprint(&out.status),
            rng.random::<u64>(),
        );
        let what = format!("{rule:?} {fo:?} diagonals={diagonals} {variant} n={n} seed={seed}");
        assert_eq!(got, want, "{what}");
        if let Status::Solved(grid) = &out.status {
            let empty = Puzzle::empty(Order::new(n).unwrap(), variant);
            assert!(verify_solution(&empty, grid).is_ok(), "{what}");
        }
    }
}
