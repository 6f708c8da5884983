//! `search=dfs` (this crate's tree over CBC's LPs) solves the seed fixtures as CBC's own
//! branch and cut does (Figure 9 for both searches is in `seeds.rs`); CBC's node count is read; band-by-band generation gives valid grids.

mod fixtures;

use fixtures::*;
use sudoku_core::{rng_from_seed, Budget, Generator, Grid, Order, Puzzle, Solver, Status, Variant};
use sudoku_ilp::{
    CbcOptions, Cuts, Decompose, IlpConfig, IlpGenerator, IlpSolver, Lookahead, ModelKind,
    Objective, Prefill, Preprocess, Presolve, Search,
};

fn dfs(objective: Objective, model: ModelKind) -> IlpSolver {
    searching(objective, model, Search::Dfs)
}

#[test]
fn dfs_solves_the_seed_puzzles_to_their_printed_solutions() {
    for (p, solution) in jump_9x9() {
        for model in BUILDS {
            for objective in [Objective::Zero, Objective::Weighted, Objective::Constant] {
                let out = solve(&mut dfs(objective, model), &p);
                assert_eq!(solved(&out, &p), solution, "{model} {objective:?}");
                assert!(out.stats.nodes >= 1, "the root LP is a node");
                assert_eq!(extra(&out, "search"), Some("dfs"));
            }
            let out = solve(&mut dfs(Objective::Weighted, model), &p);
            assert_eq!(out.stats.objective, Some(405.0));
        }
    }
    let (p, first) = jump_25x25();
    let g = solved(
        &solve(&mut dfs(Objective::Zero, ModelKind::Reduced), &p),
        &p,
    );
    assert_eq!(g.cells()[..250], first[..]);
}

#[test]
fn dfs_proves_infeasibility() {
    // The hidden contradiction passes the givens check; only the search can refute it.
    let p = hidden_contradiction();
    let mut s = IlpSolver::new(IlpConfig {
        model: ModelKind::Full,
        search: Search::Dfs,
        ..IlpConfig::default()
    });
    let out = solve(&mut s, &p);
    assert_eq!(out.status, Status::Infeasible);
    assert_eq!(extra(&out, "infeasible_by"), Some("dfs"));
    // Figure 5 as a Sudoku-X: two 1s on the main diagonal, handed to the search unchecked.
    let p = fig5_equivalent(Variant::Diagonal);
    let mut s = IlpSolver::new(IlpConfig {
        model: ModelKind::Full,
        precheck: false,
        search: Search::Dfs,
        ..IlpConfig::default()
    });
    assert_eq!(solve(&mut s, &p).status, Status::Infeasible);
}

#[test]
fn dfs_respects_a_node_limit() {
    let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Classic);
    let budget = Budget {
        nodes: Some(1),
        ..Budget::unlimited()
    };
    let out = dfs(Objective::Zero, ModelKind::Reduced).solve(&p, &budget, &mut rng_from_seed(1));
    // The empty grid's LP optimum is fractional, so one node cannot finish.
    assert!(
        matches!(out.status, Status::Exhausted { .. }),
        "{:?}",
        out.status
    );
    assert_eq!(out.stats.nodes, 1);
}

#[test]
fn cbc_reports_its_branch_and_bound_nodes() {
    // With CBC's preprocessing, cuts and heuristics off, Norvig's sixth "hardest" puzzle
    // takes CBC a few branch-and-bound nodes (4 when this test was written; CBC's own log
    // agrees), so the node count read from CBC must be positive.
    let p = puzzle(
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        Variant::Classic,
    );
    let mut s = IlpSolver::new(IlpConfig {
        model: ModelKind::Reduced,
        lp_first: false,
        cbc: CbcOptions {
            presolve: Presolve::Off,
            preprocess: Preprocess::Off,
            cuts: Cuts::Off,
            heuristics: false,
            log: 0,
        },
        ..IlpConfig::default()
    });
    let out = solve(&mut s, &p);
    solved(&out, &p);
    assert!(out.stats.nodes > 0, "nodes = {}", out.stats.nodes);
}

fn generate(g: &mut IlpGenerator, n: usize, variant: Variant, seed: u64) -> Grid {
    let order = Order::new(n).unwrap();
    let out = g.generate(
        order,
        variant,
        &Budget::unlimited(),
        &mut rng_from_seed(seed),
    );
    let p = Puzzle::empty(order, variant);
    let grid = solved(&out, &p);
    assert_eq!(extra(&out, "decompose"), Some("bands"));
    grid
}

#[test]
fn band_by_band_generation_gives_valid_reproducible_grids() {
    for lookahead in [Lookahead::Columns, Lookahead::Full] {
        for objective in [Objective::Zero, Objective::Random] {
            let config = IlpConfig {
                objective,
                ..IlpConfig::default()
            };
            let make = || {
                IlpGenerator::new(config, Prefill::DiagonalBlocks, 50)
                    .with_decompose(Decompose::Bands, lookahead)
            };
            for n in [2, 3, 4] {
                let a = generate(&mut make(), n, Variant::Classic, 5);
                assert_eq!(a, generate(&mut make(), n, Variant::Classic, 5));
            }
            // Sudoku-X always looks ahead with the full model.
            generate(&mut make(), 3, Variant::Diagonal, 5);
        }
    }
    // Random weights vary the grid beyond the pre-fill.
    let config = IlpConfig {
        objective: Objective::Random,
        ..IlpConfig::default()
    };
    let grids: std::collections::HashSet<Grid> = (1..5)
        .map(|seed| {
            let mut g = IlpGenerator::new(config, Prefill::None, 50)
                .with_decompose(Decompose::Bands, Lookahead::Columns);
            generate(&mut g, 3, Variant::Classic, seed)
        })
        .collect();
    assert!(grids.len() > 1);
}
