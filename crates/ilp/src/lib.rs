//! # sudoku-ilp
//!
//! Sudoku of any order as the binary integer program of the seed papers, solved with COIN-OR
//! CBC: `x(i,j,k) = 1` when cell `(i,j)` holds `k`, one digit per cell, each digit once per
//! row, column, block (and main diagonal for Sudoku-X), givens fixed to 1. CBC is compiled
//! from source by the `cbc-src` crate, linked statically and called through `coin_cbc`: no
//! system library is needed.
//!
//! For: measuring the exact ILP approach (seeds 000–003) against the other methods; proving
//! infeasibility; counting solutions with no-good cuts; the LP relaxation and Provan's
//! uniqueness property (seed 004); generating full grids (seed 003). Not for: fast solving
//! of many easy puzzles (a propagating search is far cheaper), or parallel use: CBC is not
//! thread-safe, so every CBC solve in the process is serialised behind `coin_cbc`'s lock.
//!
//! - [`IlpSolver`] with [`IlpConfig`]: [`Objective`] (`zero`, `constant`, `weighted`,
//!   `prefer`, `random`), [`ModelKind`] (`full` or `reduced`), [`CbcOptions`], [`Search`]
//!   (CBC's branch and cut, or this crate's depth-first search over the same LPs).
//! - [`IlpGenerator`] with [`Prefill`] and [`Decompose`] (the whole grid at once, or band by
//!   band with a [`Lookahead`] at the bands below).
//! - [`relax`] with [`RelaxConfig`] → [`RelaxReport`].
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
/// a [`Param::choice`]. One variant carries `#[default]`.
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
mod search;
mod solve;

pub use config::{CbcOptions, Cuts, IlpConfig, Preprocess, Presolve, Search};
pub use error::IlpError;
pub use generate::{Decompose, IlpGenerator, Lookahead, Prefill};
pub use model::{ModelKind, Objective};
pub use polytope::{random_objective_range, random_objective_range_until};
pub use relax::{relax, relax_until, relaxers, RelaxConfig, RelaxReport};
pub use solve::IlpSolver;

use sudoku_core::{
    choices, number_param, Capabilities, Choices, GeneratorInfo, MethodInfo, Param, ParamError,
    ParamSpec, Params,
};

/// The registry name of the solver and of the generator.
pub(crate) const NAME: &str = "ilp";

// The parameters; the solver's and the generator's lists below pick from them.
const OBJECTIVE: Param<Objective> = Param::choice(
    "objective",
    "zero",
    choices![
        "zero" => Objective::Zero,
        "constant" => Objective::Constant,
        "weighted" => Objective::Weighted,
        // Its cell, digit and sign are read from their own parameters.
        "prefer" => Objective::Prefer {
            row: CELL.default.0,
            col: CELL.default.1,
            digit: DIGIT.default,
            sign: SIGN.default,
        },
        "random" => Objective::Random,
    ],
    "objective: zero = 0ᵀx (seed 002); constant = max Σx (seed 003); weighted = min Σ k·x (seed \
     000, 405 on every 9x9 solution); prefer = min sign·x(cell, digit) (seed 000's Z1/Z2); \
     random = min of seeded random weights",
);
// The generator's default is `random`, so grids vary beyond the pre-fill.
const GENERATOR_OBJECTIVE: Param<Objective> = Param::choice(
    "objective",
    "random",
    choices![
        "zero" => Objective::Zero,
        "constant" => Objective::Constant,
        "weighted" => Objective::Weighted,
        "random" => Objective::Random,
    ],
    "objective: zero = 0ᵀx (seed 002); constant = max Σx (seed 003); weighted = min Σ k·x (seed \
     000); random = min of seeded random weights, so grids vary beyond the pre-fill",
);
const CELL: Param<(usize, usize)> = Param::new(
    ParamSpec {
        name: "cell",
        default: "1,1",
        range: "R,C (1-based)",
        help: "objective=prefer: the cell of x(R,C,digit)",
    },
    (1, 1),
    "R,C with 1-based row and column",
    |s| {
        let (r, c) = s.split_once(',')?;
        let rc = (r.trim().parse().ok()?, c.trim().parse().ok()?);
        let ok = |x: usize| (1..=256).contains(&x);
        (ok(rc.0) && ok(rc.1)).then_some(rc)
    },
);
const DIGIT: Param<u16> = number_param!(
    "digit",
    u16,
    1,
    1..=256 as "1..=N",
    "objective=prefer: the digit of x(R,C,digit)"
);
const SIGN: Param<i8> = Param::choice(
    "sign",
    "-1",
    Choices {
        table: &[("-1", -1), ("1", 1), ("+1", 1)],
        text: "-1|1",
    },
    "objective=prefer: -1 prefers the digit in the cell (Z1), 1 avoids it (Z2)",
);
pub(crate) const MODEL: Param<ModelKind> = Param::choice(
    "model",
    "reduced",
    ModelKind::CHOICES,
    "full = all N³ variables as in the seeds; reduced = variables fixed by the givens and the \
     rows they satisfy removed before CBC",
);
pub(crate) const PRESOLVE: Param<Presolve> =
    Param::choice("presolve", "on", Presolve::CHOICES, "CBC presolve");
pub(crate) const PREPROCESS: Param<Preprocess> = Param::choice(
    "preprocess",
    "default",
    Preprocess::CHOICES,
    "CBC integer preprocessing (default = CBC's own choice)",
);
pub(crate) const CUTS: Param<Cuts> =
    Param::choice("cuts", "on", Cuts::CHOICES, "CBC cut generators");
pub(crate) const HEURISTICS: Param<bool> =
    Param::on_off("heuristics", true, "CBC primal heuristics");
pub(crate) const LOG: Param<u8> = number_param!(
    "log",
    u8,
    0,
    0..=4,
    "CBC log level; 0 is silent, above 0 CBC prints to standard output"
);
pub(crate) const LP_FIRST: Param<bool> = Param::flag(
    "lp_first",
    true,
    "solve the LP relaxation first and stop if it is integral (then it is optimal); false goes \
     straight to branch and cut (generator: only with decompose=none)",
);
pub(crate) const SEARCH: Param<Search> = Param::choice(
    "search",
    "cbc",
    Search::CHOICES,
    "who runs the tree: cbc = CBC's branch and cut; dfs = our depth-first branch and bound over \
     the same LPs (solved by Clp inside CBC, warm started), without CBC's fixed ~2 ms setup \
     (generator: only with decompose=none)",
);
pub(crate) const PRECHECK: Param<bool> = Param::flag(
    "precheck",
    true,
    "detect givens that repeat a digit before building the model; false hands them to CBC \
     (full model), as the seeds do",
);
const PREFILL: Param<Prefill> = Param::choice(
    "prefill",
    "diagonal-blocks",
    Prefill::CHOICES,
    "fix part of the grid at random first: nothing, a random first row, or random permutations \
     in the diagonal blocks (independent of each other)",
);
const RESTARTS: Param<u64> = number_param!(
    "restarts",
    u64,
    20,
    0..=1000,
    "new pre-fills to draw when one is infeasible (Sudoku-X diagonal blocks, or a band with no \
     completion)"
);
const DECOMPOSE: Param<Decompose> = Param::choice(
    "decompose",
    "bands",
    Decompose::CHOICES,
    "none = one program for the whole grid (seed 003); bands = relax and fix: one band at a \
     time integer, the later bands as LP, then fix the band",
);
const LOOKAHEAD: Param<Lookahead> = Param::choice(
    "lookahead",
    "columns",
    Lookahead::CHOICES,
    "decompose=bands: the later bands as the full LP of their cells, or only as which digits \
     each column takes per band (exact up to rows; classic only)",
);

/// The CBC settings both the solver and the generator have, in the order `list` shows them.
const CBC_PARAMS: &[ParamSpec] = &[
    PRESOLVE.spec,
    PREPROCESS.spec,
    CUTS.spec,
    HEURISTICS.spec,
    LOG.spec,
    LP_FIRST.spec,
    SEARCH.spec,
];

const SOLVER_PARAMS: &[ParamSpec] = &concat_specs::<13>([
    &[OBJECTIVE.spec, MODEL.spec, CELL.spec, DIGIT.spec, SIGN.spec],
    CBC_PARAMS,
    &[PRECHECK.spec],
]);

const GENERATOR_PARAMS: &[ParamSpec] = &concat_specs::<13>([
    &[
        GENERATOR_OBJECTIVE.spec,
        MODEL.spec,
        PREFILL.spec,
        RESTARTS.spec,
        DECOMPOSE.spec,
        LOOKAHEAD.spec,
    ],
    CBC_PARAMS,
    &[],
]);

/// The three lists one after the other; `N` must be their total length (checked when the
/// constant is evaluated).
const fn concat_specs<const N: usize>(parts: [&[ParamSpec]; 3]) -> [ParamSpec; N] {
    let mut out = [CELL.spec; N];
    let (mut k, mut part) = (0, 0);
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() {
            out[k] = parts[part][i];
            (i, k) = (i + 1, k + 1);
        }
        part += 1;
    }
    assert!(k == N, "N is not the total length of the lists");
    out
}

/// Everything but the objective; `precheck` is read for the generator too (it has no such
/// parameter, so it is always the default there).
fn parse_common(p: &Params, objective: Objective) -> Result<IlpConfig, ParamError> {
    Ok(IlpConfig {
        objective,
        model: MODEL.read(p)?,
        cbc: CbcOptions {
            presolve: PRESOLVE.read(p)?,
            preprocess: PREPROCESS.read(p)?,
            cuts: CUTS.read(p)?,
            heuristics: HEURISTICS.read(p)?,
            log: LOG.read(p)?,
        },
        precheck: PRECHECK.read(p)?,
        lp_first: LP_FIRST.read(p)?,
        search: SEARCH.read(p)?,
    })
}

/// The solver configuration named by `params` (unknown keys and bad values are errors).
pub fn config_from_params(params: &Params) -> Result<IlpConfig, ParamError> {
    params.check_known(NAME, SOLVER_PARAMS)?;
    // `cell`, `digit` and `sign` are checked even when the objective is not `prefer`.
    let (cell, digit, sign) = (CELL.read(params)?, DIGIT.read(params)?, SIGN.read(params)?);
    let objective = match OBJECTIVE.read(params)? {
        Objective::Prefer { .. } => Objective::Prefer {
            row: cell.0,
            col: cell.1,
            digit,
            sign,
        },
        other => other,
    };
    parse_common(params, objective)
}

fn build_solver(params: &Params) -> Result<Box<dyn sudoku_core::Solver + Send>, ParamError> {
    Ok(Box::new(IlpSolver::new(config_from_params(params)?)))
}

fn build_generator(params: &Params) -> Result<Box<dyn sudoku_core::Generator + Send>, ParamError> {
    params.check_known(NAME, GENERATOR_PARAMS)?;
    let config = parse_common(params, GENERATOR_OBJECTIVE.read(params)?)?;
    Ok(Box::new(
        IlpGenerator::new(config, PREFILL.read(params)?, RESTARTS.read(params)?)
            .with_decompose(DECOMPOSE.read(params)?, LOOKAHEAD.read(params)?),
    ))
}

/// The registry entry of the solver: one method, `ilp`.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: NAME,
        summary: "binary integer program (x(i,j,k) = 1 when cell (i,j) holds k) solved by \
                  COIN-OR CBC; seeds 000-002",
        params: SOLVER_PARAMS,
        caps: Capabilities {
            complete: true,
            thread_safe: false,
            // Only objective=random uses the generator.
            randomized: false,
        },
        build: build_solver,
    }]
}

/// The registry entry of the generator: `ilp`, CBC on an empty (or pre-filled) grid (seed 003).
pub fn generators() -> Vec<GeneratorInfo> {
    vec![GeneratorInfo {
        name: NAME,
        summary: "full grid by solving the binary program of an empty or randomly pre-filled \
                  grid with CBC; seed 003",
        params: GENERATOR_PARAMS,
        thread_safe: false,
        build: build_generator,
    }]
}
