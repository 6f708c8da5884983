//! # sudoku-ilp
//!
//! Sudoku of any order as the binary integer program of the papers, solved with COIN-OR
//! CBC: `x(i,j,k) = 1` when cell `(i,j)` holds `k`, one digit per cell, each digit once per
//! row, column, block (and main diagonal for Sudoku-X), givens fixed to 1. CBC is compiled
//! from source by the `cbc-src` crate, linked statically and called through `coin_cbc`: no
//! system library is needed.
//!
//! For: measuring the exact ILP approach (the ILP papers (Raimundo et al., the JuMP notebook, Takano et al., Raggi et al.)) against the other methods; proving
//! infeasibility; counting solutions with no-good cuts; the LP relaxation and Provan's
//! uniqueness property (Teles); generating full grids (Raggi et al.). Not for: fast solving
//! of many easy puzzles (a propagating search is far cheaper), or parallel use: CBC is not
//! thread-safe, so every CBC solve in the process is serialised behind `coin_cbc`'s lock.
//!
//! - [`IlpSolver`] with [`IlpConfig`]: [`Objective`] (`zero`, `constant`, `weighted`,
//!   `prefer`, `random`), [`ModelKind`] (`full` or `reduced`), [`CbcOptions`], [`Search`]
//!   (CBC's branch and cut, or this crate's depth-first search over the same LPs).
//! - [`IlpGenerator`] with [`Prefill`] and [`Decompose`] (the whole grid at once, or band by
//!   band with a [`Lookahead`] at the bands below).
//! - [`relax`] with [`RelaxConfig`] → [`sudoku_core::RelaxReport`].
//! - [`methods`] and [`generators`]: the registry entries (`ilp`), with documented parameters.
//! - [`IlpError`].
//!
//! ```
//! use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Puzzle, Solver, Status, Variant};
//! use sudoku_ilp::{IlpConfig, IlpSolver, ModelKind, Objective};
//!
//! let grid = format::parse_str("1.3.3.1.2.4.4.2.", "example").unwrap()[0].grid.clone();
//! let puzzle = Puzzle::new(grid, Variant::Classic);
//! let config = IlpConfig { objective: Objective::Weighted, model: ModelKind::Reduced, ..IlpConfig::default() };
//! let out = IlpSolver::new(config).solve(&puzzle, &Budget::unlimited(), &mut rng_from_seed(1));
//! let Status::Solved(answer) = out.status else { panic!("a 4x4 with a solution") };
//! assert!(verify_solution(&puzzle, &answer).is_ok());
//! // Σ k·x is the same on every solution: 4 · (1 + 2 + 3 + 4).
//! assert_eq!(out.stats.objective, Some(40.0));
//! ```
#![deny(missing_docs)]

/// A keyword parameter as an enum: `name()`, `Display`, `FromStr` (case-insensitive, an
/// [`IlpError::UnknownName`] listing the keywords otherwise) and `CHOICES`, the keywords for
/// a [`Param::choice`](sudoku_core::Param::choice). One variant carries `#[default]`.
macro_rules! keyword_enum {
    ($(#[$doc:meta])* $name:ident, $what:literal,
     { $($(#[$vdoc:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// The keywords and their values, as the parameters spell them.
            pub const CHOICES: sudoku_core::Choices<$name> =
                sudoku_core::choices!($($text => $name::$variant),+);

            /// The keyword, as CBC and the parameters spell it.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = IlpError;
            fn from_str(s: &str) -> Result<$name, IlpError> {
                $(if s.eq_ignore_ascii_case($text) { return Ok($name::$variant); })+
                Err(IlpError::UnknownName {
                    what: $what,
                    name: s.to_string(),
                    expected: $name::CHOICES.text,
                })
            }
        }
    };
}

mod bands;
mod cbc;
mod config;
mod dfs;
mod error;
mod generate;
mod isolate;
mod model;
mod polytope;
mod relax;
mod relaxer;
mod search;
mod solve;

pub use config::{CbcOptions, Cuts, IlpConfig, Preprocess, Presolve, Search};
pub use error::IlpError;
pub use generate::{Decompose, IlpGenerator, Lookahead, Prefill};
pub use model::{ModelKind, Objective};
pub use polytope::{random_objective_range, random_objective_range_until};
pub use relax::{relax, relax_until, RelaxConfig};
pub use relaxer::relaxers;
pub use solve::IlpSolver;

use sudoku_core::{choices, Capabilities, GeneratorInfo, MethodInfo, ParamError, Params};

/// The registry name of the solver and of the generator.
pub(crate) const NAME: &str = "ilp";

sudoku_core::config! {
    /// The parameters of the `ilp` generator: the solver's model and CBC settings, and how the
    /// grid is pre-filled and split.
    struct GeneratorParams for NAME {
        // The generator's default is `random`, so grids vary beyond the pre-fill.
        objective: Objective = "random"
            of choices![
                "zero" => Objective::Zero,
                "constant" => Objective::Constant,
                "weighted" => Objective::Weighted,
                "random" => Objective::Random,
            ],
            "objective: zero = 0ᵀx (Takano et al.); constant = max Σx (Raggi et al.); weighted = min Σ k·x \
             (Raimundo et al.); random = min of seeded random weights, so grids vary beyond the pre-fill";
        model: ModelKind = use config::MODEL;
        prefill: Prefill = "diagonal-blocks" of Prefill::CHOICES,
            "fix part of the grid at random first: nothing, a random first row, or random \
             permutations in the diagonal blocks (independent of each other)";
        restarts: u64 = 20 in 0..=1000,
            "new pre-fills to draw when one is infeasible (Sudoku-X diagonal blocks, or a band \
             with no completion)";
        decompose: Decompose = "bands" of Decompose::CHOICES,
            "none = one program for the whole grid (Raggi et al.); bands = relax and fix: one band at \
             a time integer, the later bands as LP, then fix the band";
        lookahead: Lookahead = "columns" of Lookahead::CHOICES,
            "decompose=bands: the later bands as the full LP of their cells, or only as which \
             digits each column takes per band (exact up to rows; classic only)";
        cbc: CbcOptions = group;
        lp_first: bool = use config::LP_FIRST;
        search: Search = use config::SEARCH;
    }
}

fn build_generator(params: &Params) -> Result<Box<dyn sudoku_core::Generator + Send>, ParamError> {
    let g = GeneratorParams::from_params(params)?;
    let config = IlpConfig {
        objective: g.objective,
        model: g.model,
        cbc: g.cbc,
        lp_first: g.lp_first,
        search: g.search,
        ..IlpConfig::default()
    };
    Ok(Box::new(
        IlpGenerator::new(config, g.prefill, g.restarts).with_decompose(g.decompose, g.lookahead),
    ))
}

/// The registry entry of the solver: one method, `ilp`.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: NAME,
        summary: "binary integer program (x(i,j,k) = 1 when cell (i,j) holds k) solved by \
                  COIN-OR CBC; Raimundo et al., the JuMP notebook, Takano et al.",
        params: IlpConfig::PARAMS,
        caps: Capabilities {
            complete: true,
            thread_safe: false,
            // Only objective=random uses the generator.
            randomized: false,
        },
        build: |params| Ok(Box::new(IlpSolver::new(IlpConfig::from_params(params)?))),
    }]
}

/// The registry entry of the generator: `ilp`, CBC on an empty (or pre-filled) grid (Raggi et al.).
pub fn generators() -> Vec<GeneratorInfo> {
    vec![GeneratorInfo {
        name: NAME,
        summary: "full grid by solving the binary program of an empty or randomly pre-filled \
                  grid with CBC; Raggi et al.",
        params: GeneratorParams::PARAMS,
        thread_safe: false,
        build: build_generator,
    }]
}
