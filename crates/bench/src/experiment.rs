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
//! Unknown keys and bad values are errors that name the key (or show the line); relative paths
//! are taken from the directory the command runs in.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Deserializer};
use sudoku_core::{Budget, Order, Params, Variant};
use sudoku_gen::{Level, PuzzleSpec};

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
}

impl Kind {
    /// The name used in results.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Solve => "solve",
            Kind::Count => "count",
            Kind::Relax => "relax",
            Kind::Generate => "generate",
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
    #[serde(default = "one")]
    pub trials: u32,
    /// Variant of every instance unless an instance source says otherwise.
    #[serde(default, deserialize_with = "from_text")]
    pub variant: Variant,
    /// Count limit for `kind = "count"`; 2 is a uniqueness check (see the module doc).
    #[serde(default = "uniqueness_check")]
    pub count_limit: u64,
    /// Best-of-R repetitions per trial (micro-timings); a `[[method]]` may override it.
    #[serde(default = "one")]
    pub repeat: u32,
    /// `kind = "generate"` only: carve a puzzle from each generated grid.
    #[serde(default)]
    pub carve: Option<CarveSpec>,
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

fn seconds_value<E: serde::de::Error>(t: f64) -> Result<Duration, E> {
    if t > 0.0 && t.is_finite() {
        Ok(Duration::from_secs_f64(t))
    } else {
        Err(E::custom(format!(
            "{t} is not a positive number of seconds"
        )))
    }
}

fn seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    seconds_value(f64::deserialize(d)?)
}

fn opt_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    seconds(d).map(Some)
}

/// `[budget]`, or a `[[method]]`'s `budget = { … }` (each key given overrides `[budget]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetSpec {
    /// Seconds per trial.
    #[serde(default, deserialize_with = "opt_seconds")]
    pub time_limit: Option<Duration>,
    /// Search nodes per trial.
    pub node_limit: Option<u64>,
    /// Iterations per trial.
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
    #[serde(default = "one")]
    pub trials: u32,
    /// Instances kept per source in quick mode.
    #[serde(default = "three")]
    pub max_instances: usize,
    /// Time limit in quick mode (never raises the experiment's own).
    #[serde(default = "two_seconds", deserialize_with = "seconds")]
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
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// Trials for this method (e.g. 1 for a deterministic method); default: the experiment's.
    #[serde(default)]
    pub trials: Option<u32>,
    /// Limits for this method, each overriding `[budget]`'s.
    #[serde(default)]
    pub budget: BudgetSpec,
    /// Best-of-R repetitions for this method; default: the experiment's `repeat`.
    #[serde(default)]
    pub repeat: Option<u32>,
    /// Run this method only on instances of these orders (e.g. a slow search on the small
    /// ones); default: every instance.
    #[serde(default, deserialize_with = "orders")]
    pub orders: Option<Vec<Order>>,
}

/// `[[instances]]`: exactly one of `file`, `glob`, `generate`, `orders`.
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
    /// Keep only the first `limit` puzzles of each file.
    pub limit: Option<usize>,
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
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// What to carve from each grid.
    #[serde(default)]
    pub puzzle: Shape,
    /// For `unique`: stop at this many clues.
    pub clues: Option<usize>,
    /// How many puzzles.
    #[serde(default = "one_usize")]
    pub count: usize,
    /// The complete method that checks uniqueness while carving.
    #[serde(default = "default_checker")]
    pub checker: String,
    /// Time for generating and carving each instance (see the module doc for the default).
    #[serde(default = "generate_time", deserialize_with = "seconds")]
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
}

impl CarveSpec {
    /// Names the carving in instance ids and sets, e.g. `minimal/prop`, `unique30/dlx`.
    pub fn describe(&self) -> String {
        let clues = self.clues.map(|c| c.to_string()).unwrap_or_default();
        format!("{}{clues}/{}", self.puzzle, self.checker)
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

/// A puzzle to carve from a full grid: `unique`, `minimal`, `easy`, `medium`, `hard`, or
/// `keep=P` (share of cells kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub enum Shape {
    /// Unique solution (optionally stopping at a clue count).
    #[default]
    Unique,
    /// Unique and minimal.
    Minimal,
    /// A clue-count level.
    Level(Level),
    /// Keep this share of the cells.
    Keep(f64),
}

impl Shape {
    /// The generator's spec, with the clue target of `unique`.
    pub fn spec(self, clues: Option<usize>) -> PuzzleSpec {
        match self {
            Shape::Unique => PuzzleSpec::Unique { clues },
            Shape::Minimal => PuzzleSpec::Minimal,
            Shape::Level(l) => PuzzleSpec::Level(l),
            Shape::Keep(p) => PuzzleSpec::Keep(p),
        }
    }
}

impl FromStr for Shape {
    type Err = String;
    fn from_str(s: &str) -> Result<Shape, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "unique" => Shape::Unique,
            "minimal" => Shape::Minimal,
            "easy" => Shape::Level(Level::Easy),
            "medium" => Shape::Level(Level::Medium),
            "hard" => Shape::Level(Level::Hard),
            t => match t.strip_prefix("keep=").map(str::parse::<f64>) {
                Some(Ok(p)) if (0.0..=1.0).contains(&p) => Shape::Keep(p),
                _ => return Err(format!("puzzle `{s}`: expected unique, minimal, easy, medium, hard or keep=P with P in 0..=1")),
            },
        })
    }
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
            Shape::Level(Level::Easy) => f.write_str("easy"),
            Shape::Level(Level::Medium) => f.write_str("medium"),
            Shape::Level(Level::Hard) => f.write_str("hard"),
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
pub fn load(path: &Path) -> Result<(ExperimentFile, String)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let exp = parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok((exp, text))
}

/// Parses experiment text and checks what can be checked without the registry.
pub fn parse(text: &str) -> Result<ExperimentFile> {
    let exp: ExperimentFile =
        toml::from_str(text).map_err(|e| anyhow!("{}", e.to_string().trim_end()))?;
    if exp.name.trim().is_empty() || exp.name.contains(['/', '\\']) {
        bail!(
            "key `name`: `{}` must be non-empty and contain no path separator",
            exp.name
        );
    }
    if exp.methods.is_empty() {
        bail!("no [[method]]: an experiment needs at least one method");
    }
    if exp.trials == 0 {
        bail!("key `trials`: must be at least 1");
    }
    if exp.repeat == 0 {
        bail!("key `repeat`: must be at least 1");
    }
    for (i, m) in exp.methods.iter().enumerate() {
        if m.repeat == Some(0) {
            bail!("method[{i}].repeat: must be at least 1");
        }
    }
    if exp.carve.is_some() && exp.kind != Kind::Generate {
        bail!(
            "key `carve`: only with kind = \"generate\" (it carves puzzles from generated grids)"
        );
    }
    for (i, s) in exp.instances.iter().enumerate() {
        let sources = [
            s.file.is_some(),
            s.glob.is_some(),
            s.generate.is_some(),
            s.orders.is_some(),
        ];
        if sources.iter().filter(|&&b| b).count() != 1 {
            bail!("instances[{i}]: give exactly one of `file`, `glob`, `generate`, `orders`");
        }
        if s.carve.is_some() && (exp.kind != Kind::Generate || s.orders.is_none()) {
            bail!("instances[{i}].carve: only with kind = \"generate\" and `orders` (it carves puzzles from the grids generated on those empty grids)");
        }
    }
    // Two [[method]] entries giving the same configuration would share seeds and result rows
    // (resume could not tell them apart).
    let mut seen = std::collections::HashSet::new();
    for (i, m) in exp.methods.iter().enumerate() {
        for p in expand_params(&m.params, &format!("method[{i}]"))? {
            // A named configuration is known by its name alone (`Params::shown`).
            if !seen.insert((m.name.clone(), p.shown())) {
                bail!("method[{i}]: `{}` with parameters `{p}` is already configured by an earlier [[method]]; give each configuration once", m.name);
            }
        }
    }
    if exp.instances.is_empty() {
        bail!("no [[instances]]: an experiment needs at least one instance source");
    }
    Ok(exp)
}

/// Expands a parameter table into its grid of configurations, in a stable order (keys sorted,
/// list elements in the order written).
pub fn expand_params(table: &BTreeMap<String, toml::Value>, what: &str) -> Result<Vec<Params>> {
    let mut grid = vec![Params::new()];
    for (key, value) in table {
        let values: Vec<String> = match value {
            toml::Value::Array(items) => {
                if items.is_empty() {
                    bail!("{what}.params.{key}: an empty list gives no configuration");
                }
                items
                    .iter()
                    .map(|v| scalar(v).ok_or_else(|| anyhow!("{what}.params.{key}: list elements must be numbers, strings or booleans")))
                    .collect::<Result<_>>()?
            }
            v => vec![scalar(v).ok_or_else(|| {
                anyhow!("{what}.params.{key}: must be a number, string, boolean or a list of them")
            })?],
        };
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

fn scalar(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
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
}
