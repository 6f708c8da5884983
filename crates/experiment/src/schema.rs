//! The experiment file as typed values: what each table holds ([`ExperimentFile`],
//! [`BudgetSpec`], [`QuickSpec`], [`MethodSpec`], [`InstanceSpec`], [`GenerateSpec`],
//! [`CarveSpec`]), their defaults, what a trial does ([`Kind`]) and the command-line
//! [`Overrides`]; the checks of single values are in `fields.rs`, those of the whole file in
//! `validate.rs`.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::Deserialize;
use sudoku_core::{Budget, Order, Variant};

use crate::fields::{
    count, count_limit, from_text, max_instances, opt_from_text, opt_iteration_limit, opt_limit,
    opt_node_limit, opt_repeat, opt_time_limit, opt_trials, order, orders, params, repeat,
    time_limit, trials, variants,
};
use crate::shape::Shape;

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
