//! The registry: names, documented parameters and builders of this crate's generators. Each
//! generator's parameters are declared with it; `prune` and `weighted-prune` add their `alpha`
//! here to `backtrack`'s.

use sudoku_core::{Generator, GeneratorInfo, ParamError, Params};

use crate::fill::{PropFill, PROP_FILL};
use crate::pattern::{Pattern, PATTERN};
use crate::prune::{PaperSearch, TryRule, BACKTRACK, PRUNE, WEIGHTED_PRUNE};

sudoku_core::config! {
    /// `prune`: `backtrack` trying two digits with probability `alpha`, else one.
    struct Prune for PRUNE {
        alpha: f64 = 0.7 in 0.0..=1.0,
            "probability of trying 2 digits at a cell (else 1); paper's best 0.7 (swept 0.5..1.0)";
        search: PaperSearch = group;
    }
}

sudoku_core::config! {
    /// `weighted-prune`: `backtrack` trying two digits with probability
    /// `alpha · filled / total`, else one.
    struct WeightedPrune for WEIGHTED_PRUNE {
        alpha: f64 = 1.0 in 0.0..=4.0,
            "2 digits are tried with probability alpha*filled/total (else 1); paper's best 1.0 \
             (swept 0.7..1.4)";
        search: PaperSearch = group;
    }
}

fn build_prune(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    let Prune { alpha, search } = Prune::from_params(p)?;
    Ok(Box::new(PaperSearch {
        rule: TryRule::Prune { alpha },
        ..search
    }))
}

fn build_weighted(p: &Params) -> Result<Box<dyn Generator + Send>, ParamError> {
    let WeightedPrune { alpha, search } = WeightedPrune::from_params(p)?;
    Ok(Box::new(PaperSearch {
        rule: TryRule::WeightedPrune { alpha },
        ..search
    }))
}

/// This crate's full-grid generators, for the runner's registry.
pub fn generators() -> Vec<GeneratorInfo> {
    vec![
        GeneratorInfo {
            name: PATTERN,
            summary: "polynomial construction (Takano et al. circular/rows; linear for Sudoku-X) \
                      plus random symmetries",
            params: Pattern::PARAMS,
            thread_safe: true,
            build: |p| Ok(Box::new(Pattern::from_params(p)?)),
        },
        GeneratorInfo {
            name: BACKTRACK,
            summary: "Raggi et al. backtracking: diagonal blocks first, random digit order, lists \
                      refreshed per row, restart when stuck",
            params: PaperSearch::PARAMS,
            thread_safe: true,
            build: |p| Ok(Box::new(PaperSearch::from_params(p)?)),
        },
        GeneratorInfo {
            name: PRUNE,
            summary: "Raggi et al. big prune: try 2 digits with probability alpha else 1, restart \
                      on failure",
            params: Prune::PARAMS,
            thread_safe: true,
            build: build_prune,
        },
        GeneratorInfo {
            name: WEIGHTED_PRUNE,
            summary: "Raggi et al. big weighted prune: try 2 digits with probability \
                      alpha*filled/total else 1, restart on failure",
            params: WeightedPrune::PARAMS,
            thread_safe: true,
            build: build_weighted,
        },
        GeneratorInfo {
            name: PROP_FILL,
            summary: "ours: random fill with naked/hidden-single propagation, fewest-candidates \
                      cell, backtracking and doubling restarts",
            params: PropFill::PARAMS,
            thread_safe: true,
            build: |p| Ok(Box::new(PropFill::from_params(p)?)),
        },
    ]
}
