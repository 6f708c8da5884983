//! Experiment files: what to run, parsed from TOML and expanded into a stable list of tasks.
//!
//! ```toml
//! name = "demo"            # results go to results/<name>/
//! seed = 42                # every trial's seed derives from it
//! kind = "solve"           # solve | count | relax | generate
//! trials = 3
//! variant = "classic"      # or "diagonal"
//! count_limit = 2          # kind = "count": stop counting at this many solutions
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
//! [[instances]]
//! file = "datasets/seeds/001_jump.txt"   # or glob = "…/*.txt"; limit = 10; optional = true
//! [[instances]]
//! generate = { order = 3, method = "prop-fill", puzzle = "unique", count = 5 }
//! [[instances]]
//! orders = [3, 4, 5]       # empty grids: for kind = "generate", or solving empty puzzles
//! ```
//!
//! Unknown keys and bad values are errors that name the key; relative paths are taken from the
//! directory the command runs in.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;
use sudoku_core::{Order, Params, Variant};

/// What each trial does.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Solve each puzzle.
    #[default]
    Solve,
    /// Count solutions up to `count_limit`.
    Count,
    /// Solve the LP relaxation (ILP methods).
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

/// The file as written.
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
    #[serde(default)]
    pub variant: Option<String>,
    /// Count limit for `kind = "count"`.
    #[serde(default)]
    pub count_limit: Option<u64>,
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

/// `[budget]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetSpec {
    /// Seconds per trial.
    pub time_limit: Option<f64>,
    /// Search nodes per trial.
    pub node_limit: Option<u64>,
    /// Iterations per trial.
    pub iteration_limit: Option<u64>,
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
    /// Time limit in quick mode (seconds; never raises the experiment's own).
    #[serde(default = "two")]
    pub time_limit: f64,
}

fn three() -> usize {
    3
}
fn two() -> f64 {
    2.0
}

impl Default for QuickSpec {
    fn default() -> Self {
        QuickSpec {
            trials: 1,
            max_instances: 3,
            time_limit: 2.0,
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
    pub orders: Option<Vec<usize>>,
    /// Keep only the first `limit` puzzles of each file.
    pub limit: Option<usize>,
    /// Skip (with a note) when the file is missing, e.g. for the shared data sets.
    #[serde(default)]
    pub optional: bool,
    /// Variant of these instances.
    pub variant: Option<String>,
    /// Name of the instance set in results (default: the file name, or a description).
    pub set: Option<String>,
}

/// `generate = { … }` inside `[[instances]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateSpec {
    /// Order n.
    pub order: usize,
    /// Full-grid generator.
    #[serde(default = "default_generator")]
    pub method: String,
    /// Generator parameters.
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// `unique`, `minimal`, `easy`, `medium`, `hard`, or `keep=P` (share of cells kept).
    #[serde(default = "default_puzzle")]
    pub puzzle: String,
    /// For `unique`: stop at this many clues.
    pub clues: Option<usize>,
    /// How many puzzles.
    #[serde(default = "one_usize")]
    pub count: usize,
}

fn default_generator() -> String {
    "prop-fill".into()
}
fn default_puzzle() -> String {
    "unique".into()
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

/// One method configuration: a method and one point of its parameter grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Registered name.
    pub method: String,
    /// Parameter values.
    pub params: Params,
    /// Trials per instance.
    pub trials: u32,
}

impl Config {
    /// `method` or `method a=1 b=2`: names the configuration in seeds and messages.
    pub fn label(&self) -> String {
        if self.params.is_empty() {
            self.method.clone()
        } else {
            format!("{} {}", self.method, self.params)
        }
    }
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
    if let Some(v) = &exp.variant {
        v.parse::<Variant>()
            .map_err(|e| anyhow!("key `variant`: {e}"))?;
    }
    if let Some(t) = exp.budget.time_limit {
        if !(t > 0.0 && t.is_finite()) {
            bail!("key `budget.time_limit`: {t} is not a positive number of seconds");
        }
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
        if let Some(v) = &s.variant {
            v.parse::<Variant>()
                .map_err(|e| anyhow!("instances[{i}].variant: {e}"))?;
        }
        if let Some(orders) = &s.orders {
            for &n in orders {
                Order::new(n).map_err(|e| anyhow!("instances[{i}].orders: {e}"))?;
            }
        }
        if let Some(g) = &s.generate {
            Order::new(g.order).map_err(|e| anyhow!("instances[{i}].generate.order: {e}"))?;
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
        let e = parse(&OK.replace("orders = [2, 3]", "orders = [2, 30]"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("instances[0].orders"), "{e}");
        let e = parse(&OK.replace("orders = [2, 3]", "orders = [2]\nfile = \"x\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("exactly one of"), "{e}");
        let e = parse(&format!("{OK}variant = \"hex\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("instances[0].variant"), "{e}");
        let mut t = BTreeMap::new();
        t.insert("alpha".to_string(), toml::Value::Array(vec![]));
        assert!(expand_params(&t, "method[0]")
            .unwrap_err()
            .to_string()
            .contains("method[0].params.alpha"));
    }
}
