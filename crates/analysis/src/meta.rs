//! `meta.json`: what a result was produced with — commit, toolchain, machine, date, the
//! experiment file as run, and the settings the rows were made with — so a table in a report
//! can be traced back. One typed shape ([`RunMeta`], [`RunSettings`]) that the runner writes
//! and that `plot`, `report`, `merge` and `run --resume` read back.
//!
//! Every field may be missing when read: meta.json files written before a field existed (and
//! before settings were recorded at all) still read, with the field empty. A file that is not
//! JSON, or whose fields have the wrong type, is an error naming the file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::AnalysisError;

/// The facts recorded beside every run, in the order meta.json lists them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// Experiment name.
    pub experiment: String,
    /// The commit the runner was built from (short); `archive` for a build from a source
    /// archive, `unknown` in files from before it was taken from the build.
    pub commit: String,
    /// Whether the build's sources differed from that commit (`None`: not known).
    pub dirty: Option<bool>,
    /// `rustc --version` of the compiler that built the runner.
    pub rustc: String,
    /// CPU model.
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// Operating system.
    pub os: String,
    /// CBC version linked in, if any.
    pub cbc: Option<String>,
    /// When the run started (UTC, ISO 8601).
    pub started: String,
    /// When it finished, if it did.
    pub finished: Option<String>,
    /// The command line.
    pub command: Vec<String>,
    /// Worker threads.
    pub jobs: usize,
    /// Shard, as `k/N`.
    pub shard: Option<String>,
    /// Path of the experiment file.
    pub experiment_file: String,
    /// The experiment file's text, as run.
    pub experiment_text: String,
    /// The settings the rows were made with (after command-line overrides), which `--resume`
    /// compares with its own; `None` in files from before they were recorded.
    pub settings: Option<RunSettings>,
    /// A duet (`run --baseline`): which side's rows this folder holds, and the old build's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duet: Option<Duet>,
    /// TEST ONLY: configurations made slower on purpose (`LABEL=PERCENT`, or
    /// `baseline:LABEL=PERCENT` for a duet's old build): timing numbers of this run are not
    /// the methods' own. Empty in every real run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub test_slowdown: Vec<String>,
}

/// What a folder of a duet run holds: both builds ran every trial, interleaved instance by
/// instance, the new one in process and the old one (the baseline) through its `serve`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Duet {
    /// `new` (the rows of the build that ran the experiment) or `baseline` (the old build's).
    pub side: String,
    /// The old build's program, as given to `--baseline`.
    pub baseline: String,
    /// What it says of itself (`sudoku-bench --version`).
    pub baseline_version: String,
    /// Where the processes ran (the harness's CPU and the `serve` processes' CPU).
    pub placement: String,
}

impl Duet {
    /// The side of the folder that holds the old build's rows.
    pub const BASELINE: &'static str = "baseline";
    /// The side of the folder that holds the new build's rows.
    pub const NEW: &'static str = "new";
}

/// What decides a run's rows besides the code: `run --resume` continues a folder only when
/// its plan has the same settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// solve, count, relax or generate.
    pub kind: String,
    /// The experiment's seed.
    pub seed: u64,
    /// Kind = count: the count limit.
    pub count_limit: u64,
    /// Shard, as `k/N`.
    pub shard: Option<String>,
    /// Every configuration, in plan order.
    pub configs: Vec<ConfigSettings>,
    /// How many instances.
    pub instances: usize,
    /// A digest of the instances' ids, sets and givens.
    pub instances_digest: String,
}

/// The settings of one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigSettings {
    /// The configuration, as [`config_label`] names it.
    pub label: String,
    /// Trials per instance.
    pub trials: u32,
    /// Best-of-R repetitions.
    pub repeat: u32,
    /// Seconds per trial.
    pub time_limit: Option<f64>,
    /// Search nodes per trial.
    pub node_limit: Option<u64>,
    /// Iterations per trial.
    pub iteration_limit: Option<u64>,
    /// Only instances of these orders (n).
    pub orders: Option<Vec<usize>>,
    /// Only instances of these variants (`classic`, `diagonal`); absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variants: Option<Vec<String>>,
}

/// The name of a method configuration — `method`, or `method params` with the parameters as
/// shown (`a=1 b=2`) — as the plan, meta.json's settings, the tables and the charts name it.
pub fn config_label(method: &str, params: &str) -> String {
    if params.is_empty() {
        method.to_string()
    } else {
        format!("{method} {params}")
    }
}

impl RunMeta {
    /// The warning every document of a run made with a test slowdown opens with; `None` for
    /// a real run.
    pub fn test_warning(&self) -> Option<String> {
        (!self.test_slowdown.is_empty()).then(|| {
            format!(
                "TEST ONLY: this run made configurations slower on purpose (`--test-slowdown {}`): its times of them are not the methods' own. Do not report them.",
                self.test_slowdown.join(" --test-slowdown ")
            )
        })
    }

    /// The `meta.json` of the results folder `dir`; `None` when there is none (a merged
    /// cluster run or copied CSV files have none).
    pub fn read(dir: &Path) -> Result<Option<RunMeta>, AnalysisError> {
        use sudoku_core::format::{read_text_within, ReadError};
        let path = dir.join(crate::files::META);
        // It holds the experiment file (at most 1 MiB) and a few lines more.
        let text = match read_text_within(
            &path,
            16 << 20,
            "a meta.json",
            "it holds the experiment file and a few facts",
        ) {
            Ok(t) => t,
            Err(ReadError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                return Ok(None)
            }
            Err(ReadError::Io { source, .. }) => return Err(AnalysisError::io(&path, source)),
            Err(e) => return Err(AnalysisError::Text(e)),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| AnalysisError::Meta { path, source })
    }
}
