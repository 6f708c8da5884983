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

#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use sudoku_core::{Budget, Order, Params, Variant};
use thiserror::Error;

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

/// What can be wrong with an experiment file.
#[derive(Debug, Error)]
pub enum ExperimentError {
    /// The file could not be read.
    #[error("reading {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is too large or not text.
    #[error(transparent)]
    Text(sudoku_core::format::ReadError),
    /// An error in the named file.
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error.
        error: Box<ExperimentError>,
    },
    /// Not TOML, an unknown key, or a bad value: toml's message, with the line and the key.
    #[error("{}", .0.to_string().trim_end())]
    Toml(#[from] toml::de::Error),
    /// `name` is empty or a path.
    #[error("key `name`: `{0}` must be non-empty and contain no path separator")]
    Name(String),
    /// No `[[method]]`.
    #[error("no [[method]]: an experiment needs at least one method")]
    NoMethod,
    /// No `[[instances]]`.
    #[error("no [[instances]]: an experiment needs at least one instance source")]
    NoInstances,
    /// A top-level `carve` without `kind = "generate"`.
    #[error("key `carve`: only with kind = \"generate\" (it carves puzzles from generated grids)")]
    CarveWithoutGenerate,
    /// An `[[instances]]` entry with no source or several.
    #[error("instances[{0}]: give exactly one of `file`, `glob`, `generate`, `orders`, `latin`")]
    Sources(usize),
    /// Latin squares where the reduction cannot serve: another kind, or the diagonal variant.
    #[error("instances[{0}].latin: only with kind = \"solve\" or \"count\" and the classic variant (each square becomes a classic Sudoku whose solutions are read back as its completions)")]
    LatinUse(usize),
    /// A `clues` that carving cannot reach or that does not apply (as `generate --clues`).
    #[error("{what}: key `clues`: {problem}")]
    Clues {
        /// Where: `instances[0].generate`, `carve`, `instances[1].carve`.
        what: String,
        /// What is wrong.
        problem: String,
    },
    /// An `[[instances]]` `carve` where it cannot apply.
    #[error("instances[{0}].carve: only with kind = \"generate\" and `orders` (it carves puzzles from the grids generated on those empty grids)")]
    SourceCarve(usize),
    /// Two `[[method]]` entries configure the same thing.
    #[error("method[{index}]: `{method}` with parameters `{params}` is already configured by an earlier [[method]]; give each configuration once")]
    Duplicate {
        /// Index of the later `[[method]]`.
        index: usize,
        /// Method name.
        method: String,
        /// The configuration's parameters.
        params: String,
    },
    /// A bad parameter value or grid.
    #[error("{what}.params.{key}: {problem}")]
    Param {
        /// Where: `method[0]`, …
        what: String,
        /// The parameter.
        key: String,
        /// What is wrong.
        problem: String,
    },
    /// A parameter grid too large to expand.
    #[error("{what}.params: the grid has {size} configurations, more than {MAX_CONFIGURATIONS}; split it over several experiments")]
    GridTooLarge {
        /// Where: `method[0]`, …
        what: String,
        /// Its size (saturating).
        size: usize,
    },
}

/// A time limit that is not a number of seconds from a nanosecond to [`MAX_SECONDS`].
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub struct BadSeconds(pub f64);

impl fmt::Display for BadSeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 1e300 written out would be 301 digits.
        if self.0.abs() >= 1e15 {
            write!(f, "{:e}", self.0)?;
        } else {
            write!(f, "{}", self.0)?;
        }
        write!(f, " is not a positive number of seconds from 1e-9 to {MAX_SECONDS:e} (about 31 years; leave the limit out for none)")
    }
}

/// Seconds as a [`Duration`], checked (a plain conversion panics past about 1.8e19).
pub fn seconds(t: f64) -> Result<Duration, BadSeconds> {
    sudoku_core::limits::time_limit(t).map_err(|_| BadSeconds(t))
}

/// What each trial does. Adding a kind: a variant here, and its capability in
/// `runner::kind`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Solve each puzzle.
    #[default]
    Solve,
    /// Count solutions up to `count_limit`.
    Count,
    /// Solve a relaxation (methods with that capability: the ILP's LP relaxation).
    Relax,
    /// Generate a full grid of each order (methods are generators).
    Generate,
    /// Teles's experiment: which rule sets of sudoku-logic solve the puzzle, and whether the
    /// LP relaxation (the method's, `ilp`) is integral and its only point.
    #[serde(rename = "logic-lp")]
    LogicLp,
}

impl Kind {
    /// The name used in results.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Solve => "solve",
            Kind::Count => "count",
            Kind::Relax => "relax",
            Kind::Generate => "generate",
            Kind::LogicLp => "logic-lp",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The file as written, with its values typed.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    /// Name; also the default output folder under `results/`.
    pub name: String,
    /// Free text for people.
    #[serde(default)]
    pub description: Option<String>,
    /// Experiment seed.
    pub seed: u64,
    /// What each trial does.
    #[serde(default)]
    pub kind: Kind,
    /// Trials per (configuration, instance).
    #[serde(default = "one", deserialize_with = "trials")]
    pub trials: u32,
    /// Variant of every instance unless an instance source says otherwise.
    #[serde(default, deserialize_with = "from_text")]
    pub variant: Variant,
    /// Count limit for `kind = "count"`; 2 is a uniqueness check (see the module doc).
    #[serde(default = "uniqueness_check", deserialize_with = "count_limit")]
    pub count_limit: u64,
    /// Best-of-R repetitions per trial (micro-timings); a `[[method]]` may override it.
    #[serde(default = "one", deserialize_with = "repeat")]
    pub repeat: u32,
    /// `kind = "generate"` only: carve a puzzle from each generated grid.
    #[serde(default)]
    pub carve: Option<CarveSpec>,
    /// Run order: method by method (false), or every method on an instance before the next
    /// instance (true), so that a drift in the machine's speed falls on every method alike and,
    /// with `--jobs 2`, two methods time the same puzzle side by side. Tasks keep their indices
    /// (seeds, resume and shards do not change).
    #[serde(default)]
    pub interleave: bool,
    /// Per-trial limits.
    #[serde(default)]
    pub budget: BudgetSpec,
    /// What `--quick` changes.
    #[serde(default)]
    pub quick: QuickSpec,
    /// Methods (or generators), each with a parameter grid.
    #[serde(rename = "method")]
    pub methods: Vec<MethodSpec>,
    /// Where the instances come from.
    #[serde(default)]
    pub instances: Vec<InstanceSpec>,
}

fn one() -> u32 {
    1
}
fn uniqueness_check() -> u64 {
    2
}

/// Parses a string field with the type's `FromStr`.
fn from_text<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

fn opt_from_text<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    from_text(d).map(Some)
}

fn order<'de, D: Deserializer<'de>>(d: D) -> Result<Order, D::Error> {
    Order::new(usize::deserialize(d)?).map_err(serde::de::Error::custom)
}

fn orders<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Order>>, D::Error> {
    let ns = Vec::<usize>::deserialize(d)?;
    ns.into_iter()
        .map(|n| Order::new(n).map_err(serde::de::Error::custom))
        .collect::<Result<_, _>>()
        .map(Some)
}

fn variants<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Variant>>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    names
        .iter()
        .map(|v| v.parse().map_err(serde::de::Error::custom))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// A `time_limit` value (every key of that name is in seconds).
fn time_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    seconds(f64::deserialize(d)?).map_err(|e| D::Error::custom(format!("key `time_limit`: {e}")))
}

fn opt_time_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    time_limit(d).map(Some)
}

/// Deserializers of counts that must be at least 1, each naming its key (a 0 would make an
/// empty run, or a limit that stops before the first step).
macro_rules! at_least_one {
    ($($name:ident: $t:ty = $key:literal),* $(,)?) => {$(
        fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
            let v = <$t>::deserialize(d)?;
            if v == 0 {
                return Err(D::Error::custom(concat!("key `", $key, "`: must be at least 1")));
            }
            Ok(v)
        }
    )*};
}

at_least_one! {
    trials: u32 = "trials",
    repeat_count: u32 = "repeat",
    count_limit: u64 = "count_limit",
    max_instances: usize = "max_instances",
    count: usize = "count",
    node_limit: u64 = "node_limit",
    iteration_limit: u64 = "iteration_limit",
    limit: usize = "limit",
}

/// `repeat`: at least 1 and at most [`MAX_REPEAT`].
fn repeat<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let r = repeat_count(d)?;
    if r > MAX_REPEAT {
        return Err(D::Error::custom(format!(
            "key `repeat`: {r} repetitions, more than {MAX_REPEAT} (the time limit applies to each one)"
        )));
    }
    Ok(r)
}

fn opt_trials<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    trials(d).map(Some)
}
fn opt_repeat<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    repeat(d).map(Some)
}
fn opt_node_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    node_limit(d).map(Some)
}
fn opt_iteration_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    iteration_limit(d).map(Some)
}
fn opt_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    limit(d).map(Some)
}

/// A `params` table, each value checked as [`expand_params`] will read it (so a NaN or a
/// nested table is reported with its line).
fn params<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, toml::Value>, D::Error> {
    let table = BTreeMap::<String, toml::Value>::deserialize(d)?;
    for (key, value) in &table {
        param_values(value).map_err(|p| D::Error::custom(format!("params.{key}: {p}")))?;
    }
    Ok(table)
}

/// `[budget]`, or a `[[method]]`'s `budget = { … }` (each key given overrides `[budget]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetSpec {
    /// Seconds per trial.
    #[serde(default, deserialize_with = "opt_time_limit")]
    pub time_limit: Option<Duration>,
    /// Search nodes per trial.
    #[serde(default, deserialize_with = "opt_node_limit")]
    pub node_limit: Option<u64>,
    /// Iterations per trial.
    #[serde(default, deserialize_with = "opt_iteration_limit")]
    pub iteration_limit: Option<u64>,
}

impl BudgetSpec {
    /// These limits, each absent one taken from `base`.
    pub fn over(&self, base: &BudgetSpec) -> BudgetSpec {
        BudgetSpec {
            time_limit: self.time_limit.or(base.time_limit),
            node_limit: self.node_limit.or(base.node_limit),
            iteration_limit: self.iteration_limit.or(base.iteration_limit),
        }
    }

    /// The budget a method receives.
    pub fn budget(&self) -> Budget {
        Budget {
            time: self.time_limit,
            nodes: self.node_limit,
            iterations: self.iteration_limit,
        }
    }
}

/// `[quick]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuickSpec {
    /// Trials in quick mode.
    #[serde(default = "one", deserialize_with = "trials")]
    pub trials: u32,
    /// Instances kept per source in quick mode.
    #[serde(default = "three", deserialize_with = "max_instances")]
    pub max_instances: usize,
    /// Time limit in quick mode (never raises the experiment's own).
    #[serde(default = "two_seconds", deserialize_with = "time_limit")]
    pub time_limit: Duration,
}

fn three() -> usize {
    3
}
fn two_seconds() -> Duration {
    Duration::from_secs(2)
}

impl Default for QuickSpec {
    fn default() -> Self {
        QuickSpec {
            trials: 1,
            max_instances: 3,
            time_limit: two_seconds(),
        }
    }
}

/// `[[method]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MethodSpec {
    /// Registered name.
    pub name: String,
    /// Parameters; a list value expands into one configuration per element.
    #[serde(default, deserialize_with = "params")]
    pub params: BTreeMap<String, toml::Value>,
    /// Trials for this method (e.g. 1 for a deterministic method); default: the experiment's.
    #[serde(default, deserialize_with = "opt_trials")]
    pub trials: Option<u32>,
    /// Limits for this method, each overriding `[budget]`'s.
    #[serde(default)]
    pub budget: BudgetSpec,
    /// Best-of-R repetitions for this method; default: the experiment's `repeat`.
    #[serde(default, deserialize_with = "opt_repeat")]
    pub repeat: Option<u32>,
    /// Run this method only on instances of these orders (e.g. a slow search on the small
    /// ones); default: every instance.
    #[serde(default, deserialize_with = "orders")]
    pub orders: Option<Vec<Order>>,
    /// Run this method only on instances of these variants (a program that solves only the
    /// classic rules); default: every instance.
    #[serde(default, deserialize_with = "variants")]
    pub variants: Option<Vec<Variant>>,
}

/// `[[instances]]`: exactly one of `file`, `glob`, `generate`, `orders`, `latin`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceSpec {
    /// A puzzle file.
    pub file: Option<String>,
    /// A glob of puzzle files.
    pub glob: Option<String>,
    /// Puzzles generated for the experiment.
    pub generate: Option<GenerateSpec>,
    /// Empty grids of these orders.
    #[serde(default, deserialize_with = "orders")]
    pub orders: Option<Vec<Order>>,
    /// A file of partial Latin squares, each reduced to a Sudoku (Takano et al.'s §3).
    pub latin: Option<String>,
    /// Keep only the first `limit` puzzles of each file.
    #[serde(default, deserialize_with = "opt_limit")]
    pub limit: Option<usize>,
    /// Leave out the first `skip` puzzles of each file (before `limit`), e.g. to hold out the
    /// puzzles a method was tuned on.
    #[serde(default)]
    pub skip: usize,
    /// Skip (with a note) when the file is missing, e.g. for the shared data sets.
    #[serde(default)]
    pub optional: bool,
    /// Variant of these instances.
    #[serde(default, deserialize_with = "opt_from_text")]
    pub variant: Option<Variant>,
    /// Name of the instance set in results (default: the file name, or a description).
    pub set: Option<String>,
    /// `kind = "generate"` with `orders`: carve a puzzle from each grid made on these empty
    /// grids (overrides the top-level `carve`), so one experiment can compare carvings.
    #[serde(default)]
    pub carve: Option<CarveSpec>,
}

/// `generate = { … }` inside `[[instances]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateSpec {
    /// Order n.
    #[serde(deserialize_with = "order")]
    pub order: Order,
    /// Full-grid generator.
    #[serde(default = "default_generator")]
    pub method: String,
    /// Generator parameters.
    #[serde(default, deserialize_with = "params")]
    pub params: BTreeMap<String, toml::Value>,
    /// What to carve from each grid.
    #[serde(default)]
    pub puzzle: Shape,
    /// For `unique`: stop at this many clues.
    pub clues: Option<usize>,
    /// How many puzzles.
    #[serde(default = "one_usize", deserialize_with = "count")]
    pub count: usize,
    /// The complete method that checks uniqueness while carving.
    #[serde(default = "default_checker")]
    pub checker: String,
    /// Time for generating and carving each instance (see the module doc for the default).
    #[serde(default = "generate_time", deserialize_with = "time_limit")]
    pub time_limit: Duration,
}

/// `carve = { … }` (kind = "generate"): each trial carves a puzzle from its grid.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarveSpec {
    /// What to carve.
    #[serde(default)]
    pub puzzle: Shape,
    /// For `unique`: stop at this many clues.
    pub clues: Option<usize>,
    /// The complete method that checks uniqueness while carving.
    #[serde(default = "default_checker")]
    pub checker: String,
    /// Nodes (for `sat`: conflicts) each uniqueness check may spend: a check that does not
    /// conclude within them keeps its clue and carving goes on, so the puzzle stays unique but
    /// may not be minimal. None: a check runs to its answer (or the time limit ends the carve).
    #[serde(default)]
    pub check_nodes: Option<u64>,
}

impl CarveSpec {
    /// Names the carving in instance ids and sets, e.g. `minimal/prop`, `unique30/dlx`.
    pub fn describe(&self) -> String {
        let clues = self.clues.map(|c| c.to_string()).unwrap_or_default();
        let nodes = self
            .check_nodes
            .map(|n| format!(" nodes={n}"))
            .unwrap_or_default();
        format!("{}{clues}/{}{nodes}", self.puzzle, self.checker)
    }
}

fn default_generator() -> String {
    "prop-fill".into()
}
fn default_checker() -> String {
    "prop".into()
}
fn generate_time() -> Duration {
    Duration::from_secs(120)
}
fn one_usize() -> usize {
    1
}

/// A clue-count level of Takano et al., carved by sudoku-gen: the names an experiment file may give
/// as a puzzle (`clues-easy`, `clues-medium`, `clues-hard`). The runner maps each to the
/// generator's own level (and a test checks the names agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClueLevel {
    /// Many clues.
    Easy,
    /// Between easy and hard.
    Medium,
    /// A minimal puzzle.
    Hard,
}

impl ClueLevel {
    /// Every level, easiest first.
    pub const ALL: [ClueLevel; 3] = [ClueLevel::Easy, ClueLevel::Medium, ClueLevel::Hard];

    /// The name in experiment files.
    pub fn name(self) -> &'static str {
        match self {
            ClueLevel::Easy => "clues-easy",
            ClueLevel::Medium => "clues-medium",
            ClueLevel::Hard => "clues-hard",
        }
    }
}

/// sudoku-logic's rating bands by the names an experiment file may give as a puzzle, each with
/// its inclusive score range: `puzzle = "medium"` is `rating=1.3..2.0`. The runner's tests
/// check them against sudoku-logic's own bands.
pub const RATING_LEVELS: [(&str, (f64, f64)); 5] = [
    ("easy", (0.0, 1.2)),
    ("medium", (1.3, 2.0)),
    ("hard", (2.1, 4.0)),
    ("expert", (4.1, 5.9)),
    ("beyond-logic", (6.0, 10.0)),
];

/// A puzzle to carve from a full grid: `unique`, `minimal`, a rating level (`easy`, `medium`,
/// `hard`, `expert`, `beyond-logic`: sudoku-logic's score bands) or range (`rating=MIN..MAX`),
/// a clue-count level (`clues-easy`, `clues-medium`, `clues-hard`: Takano et al.'s), or `keep=P`
/// (share of cells kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub enum Shape {
    /// Unique solution (optionally stopping at a clue count).
    #[default]
    Unique,
    /// Unique and minimal.
    Minimal,
    /// A clue-count level.
    Level(ClueLevel),
    /// A rating range (inclusive), as sudoku-logic's `rate` scores it.
    Rated(f64, f64),
    /// Keep this share of the cells.
    Keep(f64),
}

impl FromStr for Shape {
    type Err = String;
    fn from_str(s: &str) -> Result<Shape, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "unique" => Shape::Unique,
            "minimal" => Shape::Minimal,
            t => {
                if let Some(l) = ClueLevel::ALL.into_iter().find(|l| l.name() == t) {
                    return Ok(Shape::Level(l));
                }
                if let Some((_, (min, max))) = RATING_LEVELS.iter().find(|(name, _)| *name == t) {
                    return Ok(Shape::Rated(*min, *max));
                }
                if let Some(range) = t.strip_prefix("rating=") {
                    return parse_rating(range).map(|(a, b)| Shape::Rated(a, b));
                }
                match t.strip_prefix("keep=").map(str::parse::<f64>) {
                    Some(Ok(p)) if (0.0..=1.0).contains(&p) => Shape::Keep(p),
                    _ => return Err(format!("puzzle `{s}`: expected unique, minimal, easy, medium, hard, expert, beyond-logic, rating=MIN..MAX, clues-easy, clues-medium, clues-hard or keep=P with P in 0..=1")),
                }
            }
        })
    }
}

/// `MIN..MAX`, two scores with `MIN <= MAX` (either may be left out: 0 and 10).
pub fn parse_rating(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("rating `{text}`: expected MIN..MAX, scores from 0 to 10");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let num = |t: &str, default: f64| -> Result<f64, String> {
        let t = t.trim().trim_start_matches('=');
        if t.is_empty() {
            return Ok(default);
        }
        t.parse::<f64>()
            .ok()
            .filter(|v| (0.0..=10.0).contains(v))
            .ok_or_else(bad)
    };
    let (min, max) = (num(a, 0.0)?, num(b, 10.0)?);
    if min > max {
        return Err(bad());
    }
    Ok((min, max))
}

impl TryFrom<String> for Shape {
    type Error = String;
    fn try_from(s: String) -> Result<Shape, String> {
        s.parse()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Unique => f.write_str("unique"),
            Shape::Minimal => f.write_str("minimal"),
            Shape::Level(l) => f.write_str(l.name()),
            Shape::Rated(min, max) => {
                match RATING_LEVELS
                    .iter()
                    .find(|(_, range)| *range == (*min, *max))
                {
                    Some((name, _)) => f.write_str(name),
                    None => write!(f, "rating={min}..{max}"),
                }
            }
            Shape::Keep(p) => write!(f, "keep={p}"),
        }
    }
}

/// Command-line overrides.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--trials`.
    pub trials: Option<u32>,
    /// `--time-limit` (seconds).
    pub time_limit: Option<f64>,
    /// `--quick`.
    pub quick: bool,
}

/// Loads and parses an experiment file; errors name the file and the key.
pub fn load(path: &Path) -> Result<(ExperimentFile, String), ExperimentError> {
    use sudoku_core::format::{read_text_within, ReadError};
    let text = read_text_within(
        path,
        MAX_FILE_BYTES,
        "an experiment file",
        "shipped ones are a few KiB; puzzles go in files of their own",
    )
    .map_err(|e| match e {
        ReadError::Io { source, .. } => ExperimentError::Read {
            path: path.to_path_buf(),
            error: source,
        },
        e => ExperimentError::Text(e),
    })?;
    let exp = parse(&text).map_err(|e| ExperimentError::InFile {
        path: path.to_path_buf(),
        error: Box::new(e),
    })?;
    Ok((exp, text))
}

/// Parses experiment text and checks what can be checked without the registry.
pub fn parse(text: &str) -> Result<ExperimentFile, ExperimentError> {
    let exp: ExperimentFile = toml::from_str(text)?;
    if exp.name.trim().is_empty() || exp.name.contains(['/', '\\']) {
        return Err(ExperimentError::Name(exp.name));
    }
    if exp.methods.is_empty() {
        return Err(ExperimentError::NoMethod);
    }
    if exp.carve.is_some() && exp.kind != Kind::Generate {
        return Err(ExperimentError::CarveWithoutGenerate);
    }
    for (i, s) in exp.instances.iter().enumerate() {
        let sources = [
            s.file.is_some(),
            s.glob.is_some(),
            s.generate.is_some(),
            s.orders.is_some(),
            s.latin.is_some(),
        ];
        if sources.iter().filter(|&&b| b).count() != 1 {
            return Err(ExperimentError::Sources(i));
        }
        let latin_fits = matches!(exp.kind, Kind::Solve | Kind::Count)
            && s.variant.unwrap_or(exp.variant) == Variant::Classic;
        if s.latin.is_some() && !latin_fits {
            return Err(ExperimentError::LatinUse(i));
        }
        if s.carve.is_some() && (exp.kind != Kind::Generate || s.orders.is_none()) {
            return Err(ExperimentError::SourceCarve(i));
        }
        if let Some(g) = &s.generate {
            check_clues(
                &format!("instances[{i}].generate"),
                g.puzzle,
                g.clues,
                &[g.order],
            )?;
        }
        if let (Some(c), Some(orders)) = (&s.carve, &s.orders) {
            check_clues(&format!("instances[{i}].carve"), c.puzzle, c.clues, orders)?;
        }
    }
    if let Some(c) = &exp.carve {
        // It carves the grids of every source of empty grids without a carve of its own.
        let orders: Vec<Order> = exp
            .instances
            .iter()
            .filter(|s| s.carve.is_none())
            .flat_map(|s| s.orders.iter().flatten().copied())
            .collect();
        check_clues("carve", c.puzzle, c.clues, &orders)?;
    }
    // Two [[method]] entries giving the same configuration would share seeds and result rows
    // (resume could not tell them apart).
    let mut seen = std::collections::HashSet::new();
    for (i, m) in exp.methods.iter().enumerate() {
        for p in expand_params(&m.params, &format!("method[{i}]"))? {
            // A named configuration is known by its name alone (`Params::shown`).
            if !seen.insert((m.name.clone(), p.shown())) {
                return Err(ExperimentError::Duplicate {
                    index: i,
                    method: m.name.clone(),
                    params: p.to_string(),
                });
            }
        }
    }
    if exp.instances.is_empty() {
        return Err(ExperimentError::NoInstances);
    }
    Ok(exp)
}

/// A carve's `clues`, checked as `generate --clues` checks it: only with `puzzle = "unique"`
/// (the other shapes decide their own clues), at least 1 (no grid is the one solution of an
/// empty puzzle, so carving could never stop at 0), and at most the cells of each grid carved
/// (`orders`).
pub fn check_clues(
    what: &str,
    puzzle: Shape,
    clues: Option<usize>,
    orders: &[Order],
) -> Result<(), ExperimentError> {
    let Some(c) = clues else { return Ok(()) };
    let problem = if puzzle != Shape::Unique {
        format!("only with puzzle = \"unique\" (where to stop carving); `{puzzle}` decides its own clues")
    } else if c == 0 {
        "0: no puzzle without clues has one solution, so carving could never stop there; leave `clues` out to carve as far as uniqueness allows, or give at least 1".to_string()
    } else if let Some(o) = orders.iter().find(|o| c > o.cells()) {
        format!("{c} clues, but a {o} grid has only {} cells", o.cells())
    } else {
        return Ok(());
    };
    Err(ExperimentError::Clues {
        what: what.to_string(),
        problem,
    })
}

/// Expands a parameter table into its grid of configurations, in a stable order (keys sorted,
/// list elements in the order written); `what` names the table's owner in errors.
pub fn expand_params(
    table: &BTreeMap<String, toml::Value>,
    what: &str,
) -> Result<Vec<Params>, ExperimentError> {
    let mut columns = Vec::with_capacity(table.len());
    let mut size = 1usize;
    for (key, value) in table {
        let values = param_values(value).map_err(|problem| ExperimentError::Param {
            what: what.to_string(),
            key: key.clone(),
            problem,
        })?;
        size = size.saturating_mul(values.len());
        columns.push((key, values));
    }
    if size > MAX_CONFIGURATIONS {
        return Err(ExperimentError::GridTooLarge {
            what: what.to_string(),
            size,
        });
    }
    let mut grid = vec![Params::new()];
    for (key, values) in columns {
        let mut next = Vec::with_capacity(grid.len() * values.len());
        for p in &grid {
            for v in &values {
                let mut q = p.clone();
                q.set(key.clone(), v.clone());
                next.push(q);
            }
        }
        grid = next;
    }
    Ok(grid)
}

/// The values one parameter takes, as text: a scalar, or each element of a non-empty list.
fn param_values(value: &toml::Value) -> Result<Vec<String>, String> {
    match value {
        toml::Value::Array(items) => {
            if items.is_empty() {
                return Err("an empty list gives no configuration".into());
            }
            items
                .iter()
                .map(|v| {
                    scalar(v)?.ok_or_else(|| {
                        "list elements must be numbers, strings or booleans".to_string()
                    })
                })
                .collect()
        }
        v => Ok(vec![scalar(v)?.ok_or_else(|| {
            "must be a number, string, boolean or a list of them".to_string()
        })?]),
    }
}

/// A scalar as text; `None` for a table, list or date; an error for a float that is not a
/// number a method could use.
fn scalar(v: &toml::Value) -> Result<Option<String>, String> {
    Ok(match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) if !f.is_finite() => {
            return Err(format!("{f} is not a finite number"));
        }
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"
name = "t"
seed = 1
[[method]]
name = "m"
params = { alpha = [0.5, 0.7], mode = "best", k = [1, 2] }
[[instances]]
orders = [2, 3]
"#;

    #[test]
    fn grids_expand_in_a_stable_order() {
        let e = parse(OK).unwrap();
        let grid = expand_params(&e.methods[0].params, "method[0]").unwrap();
        let labels: Vec<String> = grid.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            labels,
            [
                "alpha=0.5 k=1 mode=best",
                "alpha=0.5 k=2 mode=best",
                "alpha=0.7 k=1 mode=best",
                "alpha=0.7 k=2 mode=best"
            ]
        );
    }

    #[test]
    fn errors_name_the_key() {
        let e = parse(&OK.replace("seed = 1", "seed = 1\ntrails = 3"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `trails`"), "{e}");
        assert!(e.contains("line 4"), "{e}");
        let e = parse(&OK.replace("seed = 1", "seed = \"x\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed"), "{e}");
        // Typed values are checked while reading: the error shows the line and the key.
        let e = parse(&OK.replace("orders = [2, 3]", "orders = [2, 30]"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 8") && e.contains("orders = [2, 30]"),
            "{e}"
        );
        let e = parse(&OK.replace("orders = [2, 3]", "orders = [2]\nfile = \"x\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("exactly one of"), "{e}");
        let e = parse(&format!("{OK}variant = \"hex\""))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 9") && e.contains("variant = \"hex\""),
            "{e}"
        );
        let mut t = BTreeMap::new();
        t.insert("alpha".to_string(), toml::Value::Array(vec![]));
        assert!(expand_params(&t, "method[0]")
            .unwrap_err()
            .to_string()
            .contains("method[0].params.alpha"));
    }

    #[test]
    fn latin_squares_are_a_source_for_solve_and_count_on_classic_grids() {
        let latin = "latin = \"squares.txt\"";
        let e = parse(&OK.replace("orders = [2, 3]", latin)).unwrap();
        assert_eq!(e.instances[0].latin.as_deref(), Some("squares.txt"));
        let counted = OK.replace("orders = [2, 3]", latin);
        assert!(parse(&counted.replace("seed = 1", "seed = 1\nkind = \"count\"")).is_ok());
        for (from, to) in [
            ("seed = 1", "seed = 1\nkind = \"relax\""),
            ("seed = 1", "seed = 1\nvariant = \"diagonal\""),
            (latin, "latin = \"squares.txt\"\nvariant = \"diagonal\""),
        ] {
            let e = parse(&counted.replace(from, to)).unwrap_err().to_string();
            assert!(
                e.starts_with("instances[0].latin: only with kind"),
                "{to}: {e}"
            );
        }
        let e = error_with("orders = [2, 3]", "orders = [2]\nlatin = \"x\"");
        assert!(e.contains("exactly one of") && e.contains("`latin`"), "{e}");
    }

    #[test]
    fn interleave_is_off_unless_asked_and_must_be_a_boolean() {
        assert!(!parse(OK).unwrap().interleave);
        assert!(
            parse(&OK.replace("seed = 1", "seed = 1\ninterleave = true"))
                .unwrap()
                .interleave
        );
        let e = error_with("seed = 1", "seed = 1\ninterleave = \"yes\"");
        assert!(e.contains("interleave") && e.contains("line 4"), "{e}");
    }

    /// The error for `OK` with `from` replaced by `to`.
    fn error_with(from: &str, to: &str) -> String {
        assert!(OK.contains(from), "{from}");
        parse(&OK.replace(from, to)).unwrap_err().to_string()
    }

    #[test]
    fn time_limits_are_positive_finite_and_capped() {
        for bad in [
            "1e300",
            "1e20",
            "inf",
            "-inf",
            "nan",
            "-1.0",
            "0.0",
            "0",
            "1000000001",
            "1e-12",
        ] {
            let e = error_with(
                "seed = 1",
                &format!("seed = 1\n[budget]\ntime_limit = {bad}"),
            );
            assert!(
                e.contains("line 5") && e.contains("key `time_limit`"),
                "{bad}: {e}"
            );
        }
        // The same check in [quick], in a method's budget and in `generate`.
        let e = error_with("seed = 1", "seed = 1\n[quick]\ntime_limit = 1e300");
        assert!(
            e.contains("line 5") && e.contains("key `time_limit`"),
            "{e}"
        );
        let e = error_with(
            "name = \"m\"",
            "name = \"m\"\nbudget = { time_limit = nan }",
        );
        assert!(
            e.contains("line 6") && e.contains("key `time_limit`"),
            "{e}"
        );
        let e = error_with(
            "orders = [2, 3]",
            "generate = { order = 3, time_limit = 1e300 }",
        );
        assert!(
            e.contains("line 8") && e.contains("key `time_limit`"),
            "{e}"
        );
        // The largest accepted limit, and an integer number of seconds.
        let e = parse(&OK.replace("seed = 1", "seed = 1\n[budget]\ntime_limit = 1e9")).unwrap();
        assert_eq!(
            e.budget.time_limit,
            Some(Duration::from_secs(1_000_000_000))
        );
        let e = parse(&OK.replace("seed = 1", "seed = 1\n[budget]\ntime_limit = 3")).unwrap();
        assert_eq!(e.budget.time_limit, Some(Duration::from_secs(3)));
        assert!(seconds(f64::NAN).is_err() && seconds(1e20).is_err());
        assert_eq!(seconds(0.5), Ok(Duration::from_millis(500)));
    }

    #[test]
    fn counts_and_limits_of_zero_or_below_are_errors() {
        for (key, line) in [
            ("node_limit", 5),
            ("iteration_limit", 5),
            ("count_limit", 4),
            ("trials", 4),
            ("repeat", 4),
        ] {
            let table = if key.ends_with("_limit") && key != "count_limit" {
                "[budget]\n"
            } else {
                ""
            };
            for bad in ["0", "-1"] {
                let e = error_with("seed = 1", &format!("seed = 1\n{table}{key} = {bad}"));
                assert!(
                    e.contains(&format!("line {line}")) && e.contains(key),
                    "{key} = {bad}: {e}"
                );
            }
        }
        // Elsewhere in the file: (text replaced, replacement, line, key).
        for (from, to, line, key) in [
            (
                "seed = 1",
                "seed = 1\n[quick]\nmax_instances = 0",
                5,
                "max_instances",
            ),
            (
                "name = \"m\"",
                "name = \"m\"\nbudget = { node_limit = 0 }",
                6,
                "node_limit",
            ),
            ("name = \"m\"", "name = \"m\"\nrepeat = 0", 6, "repeat"),
            ("orders = [2, 3]", "file = \"x\"\nlimit = 0", 9, "limit"),
            (
                "orders = [2, 3]",
                "generate = { order = 3, count = 0 }",
                8,
                "count",
            ),
        ] {
            let e = error_with(from, to);
            let want = format!("key `{key}`: must be at least 1");
            assert!(
                e.contains(&format!("line {line}")) && e.contains(&want),
                "{e}"
            );
        }
        // Past the type's range.
        let e = error_with("seed = 1", "seed = 1\ntrials = 4294967296");
        assert!(e.contains("line 4") && e.contains("trials"), "{e}");
    }

    #[test]
    fn repeat_is_bounded_where_it_is_written() {
        for (from, to, line) in [
            ("seed = 1", "seed = 1\nrepeat = 4294967295", 4),
            ("name = \"m\"", "name = \"m\"\nrepeat = 1001", 6),
        ] {
            let e = error_with(from, to);
            assert!(
                e.contains(&format!("line {line}"))
                    && e.contains("key `repeat`: ")
                    && e.contains("more than 1000 (the time limit applies to each one)"),
                "{e}"
            );
        }
        let e = parse(&OK.replace("seed = 1", "seed = 1\nrepeat = 1000")).unwrap();
        assert_eq!(e.repeat, MAX_REPEAT);
    }

    #[test]
    fn parameter_values_must_be_finite() {
        for bad in ["nan", "-nan", "inf", "-inf", "[0.5, nan]", "[inf]"] {
            let e = error_with("alpha = [0.5, 0.7]", &format!("alpha = {bad}"));
            assert!(
                e.contains("line 6")
                    && e.contains("params.alpha")
                    && e.contains("not a finite number"),
                "{bad}: {e}"
            );
        }
        let e = error_with(
            "orders = [2, 3]",
            "generate = { order = 3, params = { p = nan } }",
        );
        assert!(e.contains("line 8") && e.contains("params.p"), "{e}");
        // Tables are reported with their line too.
        let e = error_with("mode = \"best\"", "mode = { a = 1 }");
        assert!(
            e.contains("line 6") && e.contains("params.mode: must be a number"),
            "{e}"
        );
        // A huge finite float reaches the method's own range check as a plain number.
        let e = parse(&OK.replace("alpha = [0.5, 0.7]", "alpha = 1e300")).unwrap();
        let grid = expand_params(&e.methods[0].params, "method[0]").unwrap();
        assert_eq!(grid[0].raw("alpha").unwrap().parse::<f64>(), Ok(1e300));
        // And a NaN put in by a program is refused when expanding.
        let mut t = BTreeMap::new();
        t.insert("alpha".to_string(), toml::Value::Float(f64::NAN));
        let e = expand_params(&t, "method[0]").unwrap_err().to_string();
        assert_eq!(e, "method[0].params.alpha: NaN is not a finite number");
    }

    #[test]
    fn parameter_grids_are_bounded() {
        let lists: Vec<String> = (0..14).map(|i| format!("k{i} = [1, 2]")).collect();
        let e = error_with(
            "alpha = [0.5, 0.7], mode = \"best\", k = [1, 2]",
            &lists.join(", "),
        );
        assert!(
            e.contains("method[0].params: the grid has 16384 configurations"),
            "{e}"
        );
        // Sizes that overflow a usize saturate instead.
        let lists: Vec<String> = (0..70).map(|i| format!("k{i} = [1, 2]")).collect();
        let e = error_with(
            "alpha = [0.5, 0.7], mode = \"best\", k = [1, 2]",
            &lists.join(", "),
        );
        assert!(e.contains(&format!("{}", usize::MAX)), "{e}");
    }

    #[test]
    fn load_names_the_file_once() {
        let dir = std::env::temp_dir().join(format!("sudoku-experiment-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.toml");
        let e = load(&missing).unwrap_err().to_string();
        assert!(
            e.starts_with("reading ") && e.matches("missing.toml").count() == 1,
            "{e}"
        );
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, OK.replace("seed = 1", "seed = 1\ntrials = 0")).unwrap();
        let e = load(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.toml: ") && e.contains("line 4") && e.contains("key `trials`"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod shipped {
    /// Every experiment file in the repository reads under the checks above.
    #[test]
    fn every_shipped_experiment_parses() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/experiments");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                super::load(&path).unwrap_or_else(|e| panic!("{e}"));
                n += 1;
            }
        }
        assert!(n > 5, "only {n} experiment files in {}", dir.display());
    }
}

pub mod keys;
pub use keys::{tables, Table};
