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

/// A keyword parameter as an enum: `name()`, `Display` and `FromStr` (case-insensitive, an
/// [`IlpError::UnknownName`] listing the keywords otherwise). One variant carries
/// `#[default]`.
macro_rules! keyword_enum {
    ($(#[$doc:meta])* $name:ident, $what:literal, $expected:literal,
     { $($(#[$vdoc:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
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
                Err(IlpError::UnknownName { what: $what, name: s.to_string(), expected: $expected })
            }
        }
    };
}

mod bands;
mod cbc;
mod dfs;
mod error;
mod generate;
mod model;
mod relax;
mod solve;

pub use error::IlpError;
pub use generate::{Decompose, IlpGenerator, Lookahead, Prefill};
pub use model::{ModelKind, Objective};
pub use relax::{relax, relaxers, RelaxConfig, RelaxReport};
pub use solve::{CbcOptions, Cuts, IlpConfig, IlpSolver, Preprocess, Presolve, Search};

use sudoku_core::{Capabilities, GeneratorInfo, MethodInfo, ParamError, ParamSpec, Params};

/// Parameters shared by the solver and the generator.
macro_rules! common_params {
    ($objective_range:literal, $objective_default:literal, $objective_help:expr) => {
        [
            ParamSpec {
                name: "objective",
                default: $objective_default,
                range: $objective_range,
                help: $objective_help,
            },
            ParamSpec {
                name: "model",
                default: "reduced",
                range: "full|reduced",
                help: "full = all N³ variables as in the seeds; reduced = variables fixed \
                       by the givens and the rows they satisfy removed before CBC",
            },
            ParamSpec {
                name: "presolve",
                default: "on",
                range: "on|off|more",
                help: "CBC presolve",
            },
            ParamSpec {
                name: "preprocess",
                default: "default",
                range: "default|off|on|sos|equal",
                help: "CBC integer preprocessing (default = CBC's own choice)",
            },
            ParamSpec {
                name: "cuts",
                default: "on",
                range: "on|off|root|ifmove|forceon",
                help: "CBC cut generators",
            },
            ParamSpec {
                name: "heuristics",
                default: "on",
                range: "on|off",
                help: "CBC primal heuristics",
            },
            ParamSpec {
                name: "log",
                default: "0",
                range: "0..=4",
                help: "CBC log level; 0 is silent, above 0 CBC prints to standard output",
            },
            ParamSpec {
                name: "lp_first",
                default: "true",
                range: "true|false",
                help: "solve the LP relaxation first and stop if it is integral (then it is \
                       optimal); false goes straight to branch and cut (generator: only with \
                       decompose=none)",
            },
            ParamSpec {
                name: "search",
                default: "cbc",
                range: "cbc|dfs",
                help: "who runs the tree: cbc = CBC's branch and cut; dfs = our depth-first \
                       branch and bound over the same LPs (solved by Clp inside CBC, warm \
                       started), without CBC's fixed ~2 ms setup (generator: only with \
                       decompose=none)",
            },
        ]
    };
}

const SOLVER_PARAMS: &[ParamSpec] = &{
    let c = common_params!(
        "zero|constant|weighted|prefer|random",
        "zero",
        "objective: zero = 0ᵀx (seed 002); constant = max Σx (seed 003); weighted = min Σ k·x \
         (seed 000, 405 on every 9x9 solution); prefer = min sign·x(cell, digit) (seed 000's \
         Z1/Z2); random = min of seeded random weights"
    );
    [
        c[0],
        c[1],
        ParamSpec {
            name: "cell",
            default: "1,1",
            range: "R,C (1-based)",
            help: "objective=prefer: the cell of x(R,C,digit)",
        },
        ParamSpec {
            name: "digit",
            default: "1",
            range: "1..=N",
            help: "objective=prefer: the digit of x(R,C,digit)",
        },
        ParamSpec {
            name: "sign",
            default: "-1",
            range: "-1|1",
            help: "objective=prefer: -1 prefers the digit in the cell (Z1), 1 avoids it (Z2)",
        },
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
        c[7],
        c[8],
        ParamSpec {
            name: "precheck",
            default: "true",
            range: "true|false",
            help: "detect givens that repeat a digit before building the model; false hands \
                   them to CBC (full model), as the seeds do",
        },
    ]
};

const GENERATOR_PARAMS: &[ParamSpec] = &{
    let c = common_params!(
        "zero|constant|weighted|random",
        "random",
        "objective: zero = 0ᵀx (seed 002); constant = max Σx (seed 003); weighted = min Σ k·x \
         (seed 000); random = min of seeded random weights, so grids vary beyond the pre-fill"
    );
    [
        c[0],
        c[1],
        ParamSpec {
            name: "prefill",
            default: "diagonal-blocks",
            range: "none|first-row|diagonal-blocks",
            help: "fix part of the grid at random first: nothing, a random first row, or \
                   random permutations in the diagonal blocks (independent of each other)",
        },
        ParamSpec {
            name: "restarts",
            default: "20",
            range: "0..=1000",
            help: "new pre-fills to draw when one is infeasible (Sudoku-X diagonal blocks, \
                   or a band with no completion)",
        },
        ParamSpec {
            name: "decompose",
            default: "bands",
            range: "none|bands",
            help: "none = one program for the whole grid (seed 003); bands = relax and fix: \
                   one band at a time integer, the later bands as LP, then fix the band",
        },
        ParamSpec {
            name: "lookahead",
            default: "columns",
            range: "full|columns",
            help: "decompose=bands: the later bands as the full LP of their cells, or only as \
                   which digits each column takes per band (exact up to rows; classic only)",
        },
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
        c[7],
        c[8],
    ]
};

fn parse_named<T: std::str::FromStr>(
    p: &Params,
    key: &str,
    default: &str,
) -> Result<T, ParamError> {
    let raw = p.raw(key).unwrap_or(default);
    raw.parse().map_err(|_| {
        let expected = SOLVER_PARAMS
            .iter()
            .chain(GENERATOR_PARAMS)
            .find(|s| s.name == key)
            .map_or("", |s| s.range);
        ParamError::Invalid {
            key: key.to_string(),
            value: raw.to_string(),
            expected: expected.to_string(),
        }
    })
}

/// `cell`, `digit` and `sign`, checked even when the objective is not `prefer`.
fn parse_prefer(p: &Params) -> Result<(usize, usize, u16, i8), ParamError> {
    let cell = p.raw("cell").unwrap_or("1,1");
    let parsed = cell.split_once(',').and_then(|(r, c)| {
        Some((
            r.trim().parse::<usize>().ok()?,
            c.trim().parse::<usize>().ok()?,
        ))
    });
    let (row, col) = parsed
        .filter(|&(r, c)| (1..=256).contains(&r) && (1..=256).contains(&c))
        .ok_or_else(|| p.invalid("cell", "R,C with 1-based row and column"))?;
    let digit = p.get_in("digit", 1u16, 1, 256)?;
    let sign = match p.raw("sign").unwrap_or("-1").trim() {
        "-1" => -1,
        "1" | "+1" => 1,
        _ => return Err(p.invalid("sign", "-1|1")),
    };
    Ok((row, col, digit, sign))
}

/// The objective; `allow_prefer` for the solver (whose default is `zero`), not for the
/// generator (whose default is `random`, so grids vary beyond the pre-fill).
fn parse_objective(p: &Params, allow_prefer: bool) -> Result<Objective, ParamError> {
    if allow_prefer {
        parse_prefer(p)?;
    }
    let names: &[&str] = if allow_prefer {
        &["zero", "constant", "weighted", "prefer", "random"]
    } else {
        &["zero", "constant", "weighted", "random"]
    };
    let default = if allow_prefer { "zero" } else { "random" };
    Ok(match p.choice("objective", default, names)? {
        "constant" => Objective::Constant,
        "weighted" => Objective::Weighted,
        "random" => Objective::Random,
        "prefer" => {
            let (row, col, digit, sign) = parse_prefer(p)?;
            Objective::Prefer {
                row,
                col,
                digit,
                sign,
            }
        }
        _ => Objective::Zero,
    })
}

fn parse_common(p: &Params, objective: Objective) -> Result<IlpConfig, ParamError> {
    Ok(IlpConfig {
        objective,
        model: parse_named(p, "model", "reduced")?,
        cbc: CbcOptions {
            presolve: parse_named(p, "presolve", "on")?,
            preprocess: parse_named(p, "preprocess", "default")?,
            cuts: parse_named(p, "cuts", "on")?,
            heuristics: p.flag("heuristics", true)?,
            log: p.get_in("log", 0u8, 0, 4)?,
        },
        precheck: p.flag("precheck", true)?,
        lp_first: p.flag("lp_first", true)?,
        search: parse_named(p, "search", "cbc")?,
    })
}

/// The solver configuration named by `params` (unknown keys and bad values are errors).
pub fn config_from_params(params: &Params) -> Result<IlpConfig, ParamError> {
    params.check_known("ilp", SOLVER_PARAMS)?;
    parse_common(params, parse_objective(params, true)?)
}

fn build_solver(params: &Params) -> Result<Box<dyn sudoku_core::Solver + Send>, ParamError> {
    Ok(Box::new(IlpSolver::new(config_from_params(params)?)))
}

fn build_generator(params: &Params) -> Result<Box<dyn sudoku_core::Generator + Send>, ParamError> {
    params.check_known("ilp", GENERATOR_PARAMS)?;
    let config = parse_common(params, parse_objective(params, false)?)?;
    let prefill = parse_named(params, "prefill", "diagonal-blocks")?;
    let restarts = params.get_in("restarts", 20u64, 0, 1000)?;
    let decompose = parse_named(params, "decompose", "bands")?;
    let lookahead = parse_named(params, "lookahead", "columns")?;
    Ok(Box::new(
        IlpGenerator::new(config, prefill, restarts).with_decompose(decompose, lookahead),
    ))
}

/// The registry entry of the solver: one method, `ilp`.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: "ilp",
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
        name: "ilp",
        summary: "full grid by solving the binary program of an empty or randomly pre-filled \
                  grid with CBC; seed 003",
        params: GENERATOR_PARAMS,
        thread_safe: false,
        build: build_generator,
    }]
}
