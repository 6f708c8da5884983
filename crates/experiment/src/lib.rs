//! Experiment files: what to run, parsed from TOML into typed values (variant, orders,
//! durations, puzzle shapes) once, here, so the runner never re-parses them.
//!
//! ```toml
//! name = "demo"            # results go to results/<name>/
//! seed = 42                # every trial's seed derives from it
//! kind = "solve"           # solve | count | relax | generate
//! trials = 3
//! variant = "classic"      # or "diagonal"
//! count_limit = 2          # kind = "count": stop counting at this many solutions
//! repeat = 1               # best-of-R: run each trial R times, keep the fastest time
//! interleave = false       # true: every method on an instance before the next instance
//! [budget]
//! time_limit = 10.0        # seconds per trial
//! node_limit = 1000000
//! iteration_limit = 5000000
//! [quick]                  # what --quick changes (these are the defaults)
//! trials = 1
//! max_instances = 3        # per instance source
//! time_limit = 2.0
//! [[method]]
//! name = "grasp"
//! params = { alpha = [0.1, 0.3, 0.5] }   # a list expands into one configuration per value
//! budget = { time_limit = 300.0 }        # overrides [budget] for this method, key by key
//! repeat = 3                             # overrides the top-level repeat
//! orders = [3, 4]                        # only instances of these orders
//! [[instances]]
//! file = "datasets/seeds/001_jump.txt"   # or glob = "…/*.txt"; limit = 10; optional = true
//! [[instances]]
//! generate = { order = 3, method = "prop-fill", puzzle = "unique", count = 5, checker = "prop", time_limit = 120.0 }
//! [[instances]]
//! latin = "datasets/latin/small.txt"     # partial Latin squares, each reduced to a Sudoku
//! [[instances]]
//! orders = [3, 4, 5]       # empty grids: for kind = "generate", or solving empty puzzles
//! ```
//!
//! With `kind = "generate"`, a top-level `carve = { puzzle = "minimal", checker = "prop" }`
//! makes each trial carve a puzzle from the grid it generated (timed together); a source of
//! empty grids may carry its own `carve = { … }`, which names its instances.
//!
//! Defaults with a reason:
//! - `count_limit = 2`: counting stops at the second solution, which is what a uniqueness
//!   check needs (0 infeasible, 1 unique, 2 several) and costs far less than a full count.
//! - `generate.time_limit = 120` seconds per generated instance: generous for every order the
//!   shipped generators handle in seconds, yet bounded, so a generator stuck on a large order
//!   stops the planning with an error instead of hanging it.
//! - `checker = "prop"`: the fastest registered complete method, used for the uniqueness
//!   checks while carving.
//!
//! Every value is checked while reading, so an error shows the line and names the key:
//! unknown keys, wrong types, counts of 0 (`trials`, `repeat`, `count_limit`, `node_limit`,
//! `iteration_limit`, `max_instances`, `limit`, `count`), a `repeat` above [`MAX_REPEAT`], time
//! limits that are not a number of seconds from a nanosecond to [`MAX_SECONDS`], and parameter
//! values that are NaN or infinite. A method's parameter grid may hold at most
//! [`MAX_CONFIGURATIONS`] points, and the file at most [`MAX_FILE_BYTES`]. Relative paths are
//! taken from the directory the command runs in.
//!
//! This crate is the format only: what the names mean (methods, files) is resolved by the
//! runner in `sudoku-bench`, which also holds the command-line [`Overrides`] to apply.
//!
//! Modules: `schema` (the tables as types), `shape` (what to carve), `fields` (the checks of
//! single keys), `validate` ([`load`], [`parse`] and the checks across keys), `grid`
//! ([`expand_params`]), `error` ([`ExperimentError`]) and [`keys`] (each table's keys).

#![deny(missing_docs)]

mod error;
mod fields;
mod grid;
pub mod keys;
mod schema;
mod shape;
mod validate;

pub use error::{BadSeconds, ExperimentError};
pub use fields::seconds;
pub use grid::expand_params;
pub use keys::{tables, Table};
pub use schema::{
    BudgetSpec, CarveSpec, ExperimentFile, GenerateSpec, InstanceSpec, Kind, MethodSpec, Overrides,
    QuickSpec,
};
pub use shape::{parse_rating, ClueLevel, Shape, RATING_LEVELS};
pub use validate::{check_clues, load, parse};

pub use sudoku_core::limits::MAX_SECONDS;

/// The most configurations one `[[method]]`'s parameter grid may expand into: a grid is the
/// product of its lists, so a few long lists would otherwise exhaust memory before any check.
pub const MAX_CONFIGURATIONS: usize = 10_000;

/// The most repetitions of a trial (`repeat`): best-of-R is for micro-timings, where a few
/// dozen repetitions already find the fastest run; the time limit applies to each repetition,
/// so a large R multiplies a trial's worst case.
pub const MAX_REPEAT: u32 = 1000;

/// The most bytes an experiment file may hold: 1 MiB. The largest shipped one is a few KiB;
/// puzzles go in files of their own.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
