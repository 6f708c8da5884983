//! The registry: names, documented parameters and builders of this crate's generators.

use sudoku_core::{Generator, GeneratorInfo, ParamError, ParamSpec, Params};

use crate::fill::{PropFill, DEFAULT_GROWTH, DEFAULT_RESTART};
use crate::prune::{FillOrder, PaperSearch, Stale, TryRule};
use crate::pattern::{Construction, Pattern};

const PATTERN_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "construction",
        default: "auto",
        range: "auto|circular|rows|linear",
        help: "circular/rows: seed 002's constructions (classic only); linear: ours, also \
               satisfies both diagonals; auto: circular for classic, linear for diagonal",
    },
    ParamSpec {
        name: "shuffle",
        default: "true",
        range: "true|false",
        help: "apply random symmetries (relabel digits, permute bands/rows/stacks/columns, \
               transpose) so the output is not one fixed grid",
    },
];

const ORDER_SPEC: ParamSpec = ParamSpec {
    name: "order",
    default: "rows",
    range: "rows|columns|blocks|random|fewest",
    help: "fill order; lists are refreshed at the start of each row of this order (every N \
           cells for random/fewest); the paper found rows best",
};

const DIAGONALS_SPEC: ParamSpec = ParamSpec {
    name: "diagonals",
    default: "true",
    range: "true|false",
    help: "fill the independent main-diagonal blocks with random permutations first \
           (classic variant only)",
};

const STALE_SPEC: ParamSpec = ParamSpec {
    name: "stale",
    default: "skip",
    range: "skip|count",
    help: "a digit left in a cell's list that an earlier cell of the same row has taken: \
           skip it without using a try, or count it as a try that fails at once (the paper's \
           loop does not say)",
};

const REDRAW_SPEC: ParamSpec = ParamSpec {
    name: "redraw",
    default: "false",
    range: "true|false",
    help: "draw new diagonal blocks at each restart; false keeps them, as the paper's MAIN \
           (fillDiagonals once, then while !canFill)",
};

const BACKTRACK_PARAMS: &[ParamSpec] = &[ORDER_SPEC, DIAGONALS_SPEC, STALE_SPEC, REDRAW_SPEC];

const PRUNE_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        default: "0.7",
        range: "0.0..=1.0",
        help: "probability of trying 2 digits at a cell (else 1); paper's best 0.7 \
               (swept 0.5..1.0)",
    },
    ORDER_SPEC,
    DIAGONALS_SPEC,
    STALE_SPEC,
    REDRAW_SPEC,
];

const WEIGHTED_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        default: "1.0",
        range: "0.0..=4.0",
        help: "2 digits are tried with probability alpha*filled/total (else 1); paper's best \
               1.0 (swept 0.7..1.4)",
    },
    ORDER_SPEC,
    DIAGONALS_SPEC,
    STALE_SPEC,
    REDRAW_SPEC,
];

const PROP_FILL_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "restart",
        default: "1.3",
        range: "0.0..=1000.0 (0 = never)",
        help: "first restart after restart*N^2 search nodes (an attempt that succeeds needs \
               about N^2)",
    },
    ParamSpec {
        name: "growth",
        default: "1.1",
        range: "1.0..=10.0",
        help: "the node allowance is multiplied by this at each restart (above 1 keeps the \
               search complete)",
    },
    ParamSpec {
        name: "hidden",
        default: "true",
        range: "true|false",
        help: "propagate hidden singles as well as naked singles",
    },
    ParamSpec {
        name: "value",
        default: "pressure",
        range: "pressure|random",
        help: "digit order: fewest places left in the cell's units first (ties random), or \
               uniformly random",
    },
];

fn build_pattern(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known("pattern", PATTERN_PARAMS)?;
    let construction = match p.choice(
        "construction",
        "auto",
        &["auto", "circular", "rows", "linear"],
    )? {
        "circular" => Construction::Circular,
        "rows" => Construction::Rows,
        "linear" => Construction::Linear,
        _ => Construction::Auto,
    };
    Ok(Box::new(Pattern {
        construction,
        shuffle: p.flag("shuffle", true)?,
    }))
}

fn paper(
    p: &Params,
    name: &str,
    specs: &[ParamSpec],
    rule: TryRule,
) -> Result<PaperSearch, ParamError> {
    p.check_known(name, specs)?;
    let order = p.choice("order", "rows", &FillOrder::NAMES)?;
    let stale = p.choice("stale", STALE_SPEC.default, &Stale::NAMES)?;
    Ok(PaperSearch {
        rule,
        order: FillOrder::from_name(order).expect("choice returns a listed name"),
        diagonals: p.flag("diagonals", true)?,
        stale: Stale::from_name(stale).expect("choice returns a listed name"),
        redraw: p.flag("redraw", false)?,
    })
}

fn build_backtrack(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    Ok(Box::new(paper(
        p,
        "backtrack",
        BACKTRACK_PARAMS,
        TryRule::All,
    )?))
}

fn build_prune(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known("prune", PRUNE_PARAMS)?;
    let alpha = p.get_in("alpha", 0.7, 0.0, 1.0)?;
    Ok(Box::new(paper(
        p,
        "prune",
        PRUNE_PARAMS,
        TryRule::Prune { alpha },
    )?))
}

fn build_weighted(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known("weighted-prune", WEIGHTED_PARAMS)?;
    let alpha = p.get_in("alpha", 1.0, 0.0, 4.0)?;
    Ok(Box::new(paper(
        p,
        "weighted-prune",
        WEIGHTED_PARAMS,
        TryRule::WeightedPrune { alpha },
    )?))
}

fn build_prop_fill(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    p.check_known("prop-fill", PROP_FILL_PARAMS)?;
    Ok(Box::new(PropFill::new(
        p.get_in("restart", DEFAULT_RESTART, 0.0, 1000.0)?,
        p.get_in("growth", DEFAULT_GROWTH, 1.0, 10.0)?,
        p.flag("hidden", true)?,
        p.choice("value", "pressure", &["pressure", "random"])? == "pressure",
    )))
}

/// This crate's full-grid generators, for the runner's registry.
pub fn generators() -> Vec<GeneratorInfo> {
    vec![
        GeneratorInfo {
            name: "pattern",
            summary: "polynomial construction (seed 002 circular/rows; linear for Sudoku-X) \
                      plus random symmetries",
            params: PATTERN_PARAMS,
            thread_safe: true,
            build: build_pattern,
        },
        GeneratorInfo {
            name: "backtrack",
            summary: "seed 003 backtracking: diagonal blocks first, random digit order, lists \
                      refreshed per row, restart when stuck",
            params: BACKTRACK_PARAMS,
            thread_safe: true,
            build: build_backtrack,
        },
        GeneratorInfo {
            name: "prune",
            summary: "seed 003 big prune: try 2 digits with probability alpha else 1, restart \
                      on failure",
            params: PRUNE_PARAMS,
            thread_safe: true,
            build: build_prune,
        },
        GeneratorInfo {
            name: "weighted-prune",
            summary: "seed 003 big weighted prune: try 2 digits with probability \
                      alpha*filled/total else 1, restart on failure",
            params: WEIGHTED_PARAMS,
            thread_safe: true,
            build: build_weighted,
        },
        GeneratorInfo {
            name: "prop-fill",
            summary: "ours: random fill with naked/hidden-single propagation, fewest-candidates \
                      cell, backtracking and doubling restarts",
            params: PROP_FILL_PARAMS,
            thread_safe: true,
            build: build_prop_fill,
        },
    ]
}
