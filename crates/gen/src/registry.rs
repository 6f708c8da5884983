//! The registry: names, documented parameters and builders of this crate's generators.

use sudoku_core::{
    choices, number_param, Generator, GeneratorInfo, Param, ParamError, ParamSpec, Params,
};

use crate::fill::PropFill;
use crate::pattern::{Construction, Pattern};
use crate::prune::{FillOrder, PaperSearch, Stale, TryRule};

// The registry names, also returned by each generator's `Generator::name`.
pub(crate) const PATTERN: &str = "pattern";
pub(crate) const BACKTRACK: &str = "backtrack";
pub(crate) const PRUNE: &str = "prune";
pub(crate) const WEIGHTED_PRUNE: &str = "weighted-prune";
pub(crate) const PROP_FILL: &str = "prop-fill";

pub(crate) const CONSTRUCTION: Param<Construction> = Param::choice(
    "construction",
    "auto",
    choices![
        "auto" => Construction::Auto,
        "circular" => Construction::Circular,
        "rows" => Construction::Rows,
        "linear" => Construction::Linear,
    ],
    "circular/rows: seed 002's constructions (classic only); linear: ours, also satisfies both \
     diagonals; auto: circular for classic, linear for diagonal",
);
pub(crate) const SHUFFLE: Param<bool> = Param::flag(
    "shuffle",
    true,
    "apply random symmetries (relabel digits, permute bands/rows/stacks/columns, transpose) so \
     the output is not one fixed grid",
);
const PATTERN_PARAMS: &[ParamSpec] = &[CONSTRUCTION.spec, SHUFFLE.spec];

const ORDER: Param<FillOrder> = Param::choice(
    "order",
    "rows",
    choices![
        "rows" => FillOrder::Rows,
        "columns" => FillOrder::Columns,
        "blocks" => FillOrder::Blocks,
        "random" => FillOrder::Random,
        "fewest" => FillOrder::Fewest,
    ],
    "fill order; lists are refreshed at the start of each row of this order (every N cells for \
     random/fewest); the paper found rows best",
);
const DIAGONALS: Param<bool> = Param::flag(
    "diagonals",
    true,
    "fill the independent main-diagonal blocks with random permutations first (classic \
     variant only)",
);
const STALE: Param<Stale> = Param::choice(
    "stale",
    "skip",
    choices!["skip" => Stale::Skip, "count" => Stale::Count],
    "a digit left in a cell's list that an earlier cell of the same row has taken: skip it \
     without using a try, or count it as a try that fails at once (the paper's loop does not \
     say)",
);
const REDRAW: Param<bool> = Param::flag(
    "redraw",
    false,
    "draw new diagonal blocks at each restart; false keeps them, as the paper's MAIN \
     (fillDiagonals once, then while !canFill)",
);
const BACKTRACK_PARAMS: &[ParamSpec] = &[ORDER.spec, DIAGONALS.spec, STALE.spec, REDRAW.spec];

const PRUNE_ALPHA: Param<f64> = number_param!(
    "alpha",
    f64,
    0.7,
    0.0..=1.0,
    "probability of trying 2 digits at a cell (else 1); paper's best 0.7 (swept 0.5..1.0)"
);
const PRUNE_PARAMS: &[ParamSpec] = &[
    PRUNE_ALPHA.spec,
    ORDER.spec,
    DIAGONALS.spec,
    STALE.spec,
    REDRAW.spec,
];

const WEIGHTED_ALPHA: Param<f64> = number_param!(
    "alpha",
    f64,
    1.0,
    0.0..=4.0,
    "2 digits are tried with probability alpha*filled/total (else 1); paper's best 1.0 (swept \
     0.7..1.4)"
);
const WEIGHTED_PARAMS: &[ParamSpec] = &[
    WEIGHTED_ALPHA.spec,
    ORDER.spec,
    DIAGONALS.spec,
    STALE.spec,
    REDRAW.spec,
];

pub(crate) const RESTART: Param<f64> = number_param!(
    "restart",
    f64,
    1.3,
    0.0..=1000.0 "(0 = never)",
    "first restart after restart*N^2 search nodes (an attempt that succeeds needs about N^2)"
);
pub(crate) const GROWTH: Param<f64> = number_param!(
    "growth",
    f64,
    1.1,
    1.0..=10.0,
    "the node allowance is multiplied by this at each restart (above 1 keeps the search \
     complete)"
);
pub(crate) const HIDDEN: Param<bool> = Param::flag(
    "hidden",
    true,
    "propagate hidden singles as well as naked singles",
);
pub(crate) const PRESSURE: Param<bool> = Param::choice(
    "value",
    "pressure",
    choices!["pressure" => true, "random" => false],
    "digit order: fewest places left in the cell's units first (ties random), or uniformly \
     random",
);
const PROP_FILL_PARAMS: &[ParamSpec] = &[RESTART.spec, GROWTH.spec, HIDDEN.spec, PRESSURE.spec];

fn build_pattern(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known(PATTERN, PATTERN_PARAMS)?;
    Ok(Box::new(Pattern {
        construction: CONSTRUCTION.read(p)?,
        shuffle: SHUFFLE.read(p)?,
    }))
}

fn paper(
    p: &Params,
    name: &str,
    specs: &[ParamSpec],
    rule: TryRule,
) -> Result<PaperSearch, ParamError> {
    p.check_known(name, specs)?;
    Ok(PaperSearch {
        rule,
        order: ORDER.read(p)?,
        diagonals: DIAGONALS.read(p)?,
        stale: STALE.read(p)?,
        redraw: REDRAW.read(p)?,
    })
}

fn build_backtrack(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    Ok(Box::new(paper(
        p,
        BACKTRACK,
        BACKTRACK_PARAMS,
        TryRule::All,
    )?))
}

fn build_prune(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known(PRUNE, PRUNE_PARAMS)?;
    let alpha = PRUNE_ALPHA.read(p)?;
    Ok(Box::new(paper(
        p,
        PRUNE,
        PRUNE_PARAMS,
        TryRule::Prune { alpha },
    )?))
}

fn build_weighted(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known(WEIGHTED_PRUNE, WEIGHTED_PARAMS)?;
    let alpha = WEIGHTED_ALPHA.read(p)?;
    Ok(Box::new(paper(
        p,
        WEIGHTED_PRUNE,
        WEIGHTED_PARAMS,
        TryRule::WeightedPrune { alpha },
    )?))
}

fn build_prop_fill(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known(PROP_FILL, PROP_FILL_PARAMS)?;
    Ok(Box::new(PropFill::new(
        RESTART.read(p)?,
        GROWTH.read(p)?,
        HIDDEN.read(p)?,
        PRESSURE.read(p)?,
    )))
}

/// This crate's full-grid generators, for the runner's registry.
pub fn generators() -> Vec<GeneratorInfo> {
    vec![
        GeneratorInfo {
            name: PATTERN,
            summary: "polynomial construction (seed 002 circular/rows; linear for Sudoku-X) \
                      plus random symmetries",
            params: PATTERN_PARAMS,
            thread_safe: true,
            build: build_pattern,
        },
        GeneratorInfo {
            name: BACKTRACK,
            summary: "seed 003 backtracking: diagonal blocks first, random digit order, lists \
                      refreshed per row, restart when stuck",
            params: BACKTRACK_PARAMS,
            thread_safe: true,
            build: build_backtrack,
        },
        GeneratorInfo {
            name: PRUNE,
            summary: "seed 003 big prune: try 2 digits with probability alpha else 1, restart \
                      on failure",
            params: PRUNE_PARAMS,
            thread_safe: true,
            build: build_prune,
        },
        GeneratorInfo {
            name: WEIGHTED_PRUNE,
            summary: "seed 003 big weighted prune: try 2 digits with probability \
                      alpha*filled/total else 1, restart on failure",
            params: WEIGHTED_PARAMS,
            thread_safe: true,
            build: build_weighted,
        },
        GeneratorInfo {
            name: PROP_FILL,
            summary: "ours: random fill with naked/hidden-single propagation, fewest-candidates \
                      cell, backtracking and doubling restarts",
            params: PROP_FILL_PARAMS,
            thread_safe: true,
            build: build_prop_fill,
        },
    ]
}
