//! The trial-row schema: [`TrialStatus`], [`Row`] (one line of `trials.csv`), [`TraceRow`] (one
//! line of `traces.csv`), and reading and writing those CSV files.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize};
use sudoku_core::{Limit, Order, Stats};

use crate::AnalysisError;

/// Declares [`TrialStatus`] from one list of (variant, name in results): adding a status is one
/// line here, plus the judge arm that produces it.
macro_rules! trial_statuses {
    ($( $(#[$attr:meta])* $variant:ident = $name:literal ),* $(,)?) => {
        /// How a trial ended. The names are the `status` column of `trials.csv`.
        #[derive(
            Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize,
            Deserialize,
        )]
        pub enum TrialStatus {
            $( $(#[$attr])* #[serde(rename = $name)] $variant, )*
        }

        impl TrialStatus {
            /// Every status, in the order summaries list them.
            pub const ALL: &'static [TrialStatus] = &[$( TrialStatus::$variant ),*];

            /// The name in results and messages.
            pub fn name(self) -> &'static str {
                match self {
                    $( TrialStatus::$variant => $name, )*
                }
            }
        }
    };
}

trial_statuses! {
    /// A verified solution (or, for `generate`, a verified grid).
    Solved = "solved",
    /// No solution: proved by the method, or the givens contradict each other.
    Infeasible = "infeasible",
    /// At least two solutions (kind = count).
    Multiple = "multiple",
    /// The time limit ran out first.
    Timeout = "timeout",
    /// A node or iteration limit ran out first.
    Failed = "failed",
    /// The answer failed the verifier.
    Wrong = "wrong",
    /// The method could not run (bad configuration, panic, method error).
    #[default]
    Error = "error",
}

impl TrialStatus {
    /// A definitive, verified answer: a solution, or a proof of none or of several.
    pub fn is_success(self) -> bool {
        matches!(
            self,
            TrialStatus::Solved | TrialStatus::Infeasible | TrialStatus::Multiple
        )
    }

    /// A budget limit ran out before an answer.
    pub fn is_limit(self) -> bool {
        matches!(self, TrialStatus::Timeout | TrialStatus::Failed)
    }

    /// The status of a trial stopped by `limit`.
    pub fn from_limit(limit: Limit) -> TrialStatus {
        match limit {
            Limit::Time => TrialStatus::Timeout,
            Limit::Nodes | Limit::Iterations => TrialStatus::Failed,
        }
    }
}

impl fmt::Display for TrialStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Declares [`Row`], its columns in CSV order. A column given as `= |s| expr` is a statistic:
/// [`Row::set_stats`] reads it from the method's [`Stats`], so adding a statistic is one line
/// here (plus its field in `Stats`).
macro_rules! trial_row {
    ($( $(#[$attr:meta])* $field:ident : $ty:ty $(= $read:expr)? ),* $(,)?) => {
        /// One trial. Every column is always present; "not applicable" is an empty field.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        pub struct Row {
            $( $(#[$attr])* pub $field: $ty, )*
        }

        impl Row {
            /// Fills the statistic columns from what the method reported.
            pub fn set_stats(&mut self, stats: &Stats) {
                $( $( self.$field = ($read)(stats); )? )*
            }
        }
    };
}

trial_row! {
    /// Position in the experiment's stable task order.
    task: usize,
    /// Experiment name.
    experiment: String,
    /// solve, count, relax or generate.
    kind: String,
    /// Method (or generator) name.
    method: String,
    /// Parameters, `k=v k=v`.
    params: String,
    /// classic or diagonal.
    variant: String,
    /// Order n.
    #[serde(deserialize_with = "order")]
    order: usize,
    /// The instance set (file name, or generated-set description).
    instance_set: String,
    /// The instance (`file:line`, or a generated id).
    instance: String,
    /// Number of givens (for a carved puzzle: its clues).
    givens: usize,
    /// Trial number, from 0.
    trial: u32,
    /// The trial's seed.
    seed: u64,
    /// How the trial ended.
    status: TrialStatus,
    /// Whether the answer passed the verifier (empty when there is no answer to verify).
    verified: Option<bool>,
    /// Wall time of the method call (ms).
    wall_ms: f64,
    /// CPU time of the method call on its thread (ms).
    cpu_ms: f64,
    /// Model build time (ILP), included in wall_ms.
    build_ms: Option<f64> = |s: &Stats| s.build_time.map(ms),
    /// Search nodes.
    nodes: u64 = |s: &Stats| s.nodes,
    /// Branching decisions.
    guesses: u64 = |s: &Stats| s.guesses,
    /// Iterations.
    iterations: u64 = |s: &Stats| s.iterations,
    /// Restarts.
    restarts: u64 = |s: &Stats| s.restarts,
    /// Best cost reached.
    best_cost: Option<u64> = |s: &Stats| s.best_cost,
    /// Objective value.
    objective: Option<f64> = |s: &Stats| s.objective,
    /// Time to the best cost (ms).
    time_to_best_ms: Option<f64> = |s: &Stats| s.time_to_best.map(ms),
    /// Solutions counted (kind = count).
    count: Option<u64>,
    /// Which limit ran out (time, nodes, iterations), if one did.
    limit: String,
    /// Method-specific statistics, `k=v;k=v`.
    extra: String = |s: &Stats| join_extra(&s.extra),
    /// Error or verification message.
    message: String,
    /// Git commit the binary was built from (`+dirty` when the tree had changes).
    commit: String,
    /// Best-of-R repetitions behind the times (1 when absent: CSVs written before the column).
    #[serde(default = "one")]
    repeats: u32,
}

fn one() -> u32 {
    1
}

impl Row {
    /// Identifies the trial across runs, for resume and merge.
    pub fn key(&self) -> String {
        task_key(
            &self.method,
            &self.params,
            &self.variant,
            &self.instance,
            self.trial,
        )
    }

    /// Did the trial end with a definitive, verified answer?
    pub fn success(&self) -> bool {
        self.status.is_success()
    }
}

/// `k=v;k=v`, the `extra` column.
pub fn join_extra(extra: &[(String, String)]) -> String {
    extra
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// Milliseconds, the unit of every time column.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The resume key of a trial.
pub fn task_key(method: &str, params: &str, variant: &str, instance: &str, trial: u32) -> String {
    format!("{method}|{params}|{variant}|{instance}|{trial}")
}

/// An `order` column: an order sudoku-core holds, so what is made from rows (`N×N` labels, cell
/// counts) cannot overflow on a damaged file.
fn order<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = usize::deserialize(d)?;
    Order::new(n)
        .map(Order::n)
        .map_err(serde::de::Error::custom)
}

/// One point of a convergence trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    /// The trial's task index.
    pub task: usize,
    /// Method.
    pub method: String,
    /// Parameters.
    pub params: String,
    /// Order n.
    #[serde(deserialize_with = "order")]
    pub order: usize,
    /// Instance.
    pub instance: String,
    /// Trial.
    pub trial: u32,
    /// Iterations when this best was reached.
    pub iteration: u64,
    /// Time when this best was reached (ms).
    pub elapsed_ms: f64,
    /// The best cost.
    pub best_cost: u64,
}

/// Reads every row of a CSV file written row by row (a torn last line, from a killed run, is
/// ignored).
pub fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, AnalysisError> {
    let text = std::fs::read_to_string(path).map_err(|e| AnalysisError::io(path, e))?;
    parse_rows(text, path)
}

/// The rows of a CSV file's text, as [`read_rows`] reads them; `path` names the file in errors
/// (apart from [`read_rows`] so the parsing can be fuzzed without files).
pub fn parse_rows<T: for<'de> Deserialize<'de>>(
    mut text: String,
    path: &Path,
) -> Result<Vec<T>, AnalysisError> {
    if !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(keep);
    }
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, r) in reader.deserialize().enumerate() {
        rows.push(r.map_err(|source| AnalysisError::Row {
            path: path.to_path_buf(),
            row: i + 2,
            source,
        })?);
    }
    Ok(rows)
}

/// Rewrites a CSV file with exactly these rows.
pub fn write_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), AnalysisError> {
    let tmp = path.with_extension("csv.tmp");
    let csv_err = |e: csv::Error| AnalysisError::Write {
        path: tmp.clone(),
        source: e,
    };
    {
        let mut w = csv::Writer::from_path(&tmp).map_err(csv_err)?;
        for r in rows {
            w.serialize(r).map_err(csv_err)?;
        }
        w.flush().map_err(|e| AnalysisError::io(&tmp, e))?;
    }
    if rows.is_empty() {
        // No rows, no header: an empty file still reads as no rows.
        std::fs::write(&tmp, "").map_err(|e| AnalysisError::io(&tmp, e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| AnalysisError::io(path, e))
}
