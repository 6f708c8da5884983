//! The trial-row schema: [`TrialStatus`], [`Row`] (one line of `trials.csv`), [`TraceRow`] (one
//! line of `traces.csv`), and reading and writing those CSV files.
//!
//! Every row read is checked ([`CsvRow`]) before anything is computed from it: beside the
//! types, the values one line must hold together (finite, non-negative times of at most
//! [`MAX_MS`]; a status and its `verified` and `limit`; `givens` within the grid; `repeats` at
//! least 1), each trial once, one experiment per file, and, given the run's settings from
//! meta.json, each row's configuration, trial number, repeats, order and kind. An error names
//! the file, the line and the column.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::time::Duration;

use csv::StringRecord;
use serde::{Deserialize, Deserializer, Serialize};
use sudoku_core::format::{read_text_within, visible, ReadError};
use sudoku_core::limits::MAX_SECONDS;
use sudoku_core::{Limit, Order, Stats, Variant};

use crate::header::{csv_header, field_names};
use crate::kinds::{self, KindColumns};
use crate::meta::{config_label, RunSettings};
use crate::AnalysisError;

/// The longest time a row may hold, in ms: the largest time limit ([`MAX_SECONDS`], about 31
/// years). A longer one is a damaged file, and an infinite or absurd one would break every
/// statistic and chart made from it.
pub const MAX_MS: f64 = MAX_SECONDS * 1000.0;

/// The most bytes a results CSV may hold: 1 GiB, a row of about 1 KiB for each of the most
/// tasks a run may hold (a million); a larger file is not one run's output.
pub const MAX_CSV_BYTES: u64 = 1 << 30;

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
    /// A rule solver ran out of rules that make progress (not solvable by its enabled rules).
    Stuck = "stuck",
    /// An outside program's claim that cannot be shown (no solution, or no solution beyond
    /// those it counted) that the checker could not confirm within its budget: not a success.
    Unverified = "unverified",
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
/// [`Row::set_stats`] reads it from the method's [`Stats`]. Adding a statistic is its field in
/// `Stats` (which crosses from a forked child by itself, `Stats` deriving its encoding) and one
/// line here; the method then sets it.
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
    /// The columns of the trial's kind alone ([`KindColumns`]); the file has every kind's,
    /// empty in rows of other kinds. Read after the rest, by the row's `kind`.
    #[serde(skip_deserializing, serialize_with = "crate::kinds::write")]
    kind_columns: Option<KindColumns>,
    /// Peak resident memory during the trial (KiB; the largest over repeats), measured by the
    /// runner (empty in CSVs written before the column, or where it cannot be read).
    #[serde(default)]
    peak_rss_kb: Option<u64>,
    /// Threads the call ran on at once (1 when absent: CSVs written before the column). With
    /// more than one, `cpu_ms` counts every thread and may exceed `wall_ms`.
    #[serde(default = "one")]
    threads: u32 = |s: &Stats| s.threads.max(1),
    /// The solver's own clock (ms): its search alone, without start-up, reading the puzzle or
    /// building a model, as the method or program reports it (empty when it reports none).
    #[serde(default)]
    solve_ms: Option<f64> = |s: &Stats| s.solve_time.map(ms),
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

/// What one line of a results CSV may not hold: `(column, why)`.
pub type Invalid = (&'static str, String);

/// A row of a results CSV: its type, and the checks of the values one line holds beyond it.
pub trait CsvRow: for<'de> Deserialize<'de> {
    /// Checks one row, against the run's settings when they are known.
    fn check(&self, settings: Option<&RunSettings>) -> Result<(), Invalid>;

    /// The trial it records, when a file holds each trial once.
    fn trial_key(&self) -> Option<String> {
        None
    }

    /// The experiment it belongs to, when a file holds one experiment.
    fn experiment(&self) -> Option<&str> {
        None
    }

    /// Columns a file must have even though a row may leave them empty: read without them,
    /// every row would take the empty value without a word.
    const REQUIRED: &'static [&'static str] = &[];

    /// Reads from the row's line what the derived reading leaves out (a row's kind columns,
    /// which depend on its kind).
    fn complete(
        &mut self,
        record: &StringRecord,
        headers: &StringRecord,
    ) -> Result<(), csv::Error> {
        let _ = (record, headers);
        Ok(())
    }

    /// Every column the type reads, by which an error names one.
    fn columns() -> Vec<&'static str> {
        field_names::<Self>().to_vec()
    }
}

/// A time column: finite, not negative, at most [`MAX_MS`].
fn check_ms(column: &'static str, v: f64) -> Result<(), Invalid> {
    if !v.is_finite() || v < 0.0 {
        return Err((
            column,
            format!("{v} is not a time (a finite number of ms, at least 0)"),
        ));
    }
    if v > MAX_MS {
        return Err((
            column,
            format!("{v:e} ms is more than {MAX_MS:e} ms (the largest time limit, about 31 years)"),
        ));
    }
    Ok(())
}

impl CsvRow for Row {
    /// Without `verified`, a `solved` row would read as unverified and pass for a success.
    const REQUIRED: &'static [&'static str] = &["verified"];

    fn complete(
        &mut self,
        record: &StringRecord,
        headers: &StringRecord,
    ) -> Result<(), csv::Error> {
        self.kind_columns = KindColumns::read(&self.kind, record, headers)?;
        Ok(())
    }

    fn columns() -> Vec<&'static str> {
        let mut all = field_names::<Row>().to_vec();
        all.extend(kinds::columns());
        all
    }

    fn check(&self, settings: Option<&RunSettings>) -> Result<(), Invalid> {
        // Far more than a run may hold (a million tasks); the analysis keeps it in 32 bits.
        if u32::try_from(self.task).is_err() {
            return Err((
                "task",
                format!(
                    "{} is more than {} (no run holds that many tasks)",
                    self.task,
                    u32::MAX
                ),
            ));
        }
        check_ms("wall_ms", self.wall_ms)?;
        check_ms("cpu_ms", self.cpu_ms)?;
        for (column, v) in [
            ("build_ms", self.build_ms),
            ("time_to_best_ms", self.time_to_best_ms),
            ("solve_ms", self.solve_ms),
        ] {
            v.map_or(Ok(()), |v| check_ms(column, v))?;
        }
        if self.objective.is_some_and(|o| !o.is_finite()) {
            return Err(("objective", "not a finite number".to_string()));
        }
        if self.variant.parse::<Variant>().is_err() {
            return Err((
                "variant",
                format!("`{}` is not a variant (classic or diagonal)", self.variant),
            ));
        }
        // `order` is checked when read (2..=16), so the cells cannot overflow.
        let cells = self.order.pow(4);
        if self.givens > cells {
            return Err((
                "givens",
                format!(
                    "{} givens, but a grid of order {} has {cells} cells",
                    self.givens, self.order
                ),
            ));
        }
        if self.repeats == 0 {
            return Err((
                "repeats",
                "0 repetitions: a trial runs at least once".to_string(),
            ));
        }
        let status = self.status;
        let verified = match self.verified {
            Some(v) => v.to_string(),
            None => "empty".to_string(),
        };
        // Kinds whose answers are grids: a solution (or the two of `multiple`) counts only once
        // the verifier passed it. Relaxations and logic-lp rows have no grid to verify.
        let grids = matches!(self.kind.as_str(), "solve" | "count" | "generate");
        match (status, self.verified) {
            (TrialStatus::Wrong, Some(false)) => {}
            (TrialStatus::Wrong, _) => {
                return Err(("verified", format!("{verified} with status `wrong`: a wrong answer is one that failed the verifier (false)")))
            }
            (_, Some(false)) => {
                return Err(("verified", format!("false with status `{status}`: an answer that fails the verifier is `wrong`")))
            }
            (TrialStatus::Solved | TrialStatus::Multiple, v) if grids && v != Some(true) => {
                return Err(("verified", format!("{verified} with status `{status}` (kind `{}`): a solution counts only once the verifier passed it (true); a row without that is no success", self.kind)))
            }
            _ => {}
        }
        let limit_ok = match status {
            TrialStatus::Timeout => self.limit == Limit::Time.name(),
            TrialStatus::Failed => {
                self.limit == Limit::Nodes.name() || self.limit == Limit::Iterations.name()
            }
            _ => self.limit.is_empty(),
        };
        if !limit_ok {
            return Err(("limit", format!("`{}` with status `{status}` (a timeout ran out of time, a failed trial of nodes or iterations, others of nothing)", self.limit)));
        }
        let Some(s) = settings else { return Ok(()) };
        if self.kind != s.kind {
            return Err((
                "kind",
                format!(
                    "`{}`, but meta.json's settings say the run is of kind `{}`",
                    self.kind, s.kind
                ),
            ));
        }
        let label = config_label(&self.method, &self.params);
        let Some(c) = s.configs.iter().find(|c| c.label == label) else {
            return Err((
                "method",
                format!("configuration `{label}` is not among those of meta.json's settings"),
            ));
        };
        if self.trial >= c.trials {
            return Err(("trial", format!("trial {}, but `{label}` runs {} trials (numbered from 0) in meta.json's settings", self.trial, c.trials)));
        }
        if self.repeats != c.repeat {
            return Err((
                "repeats",
                format!(
                    "{}, but `{label}` repeats each trial {} times in meta.json's settings",
                    self.repeats, c.repeat
                ),
            ));
        }
        if c.orders
            .as_ref()
            .is_some_and(|os| !os.contains(&self.order))
        {
            return Err((
                "order",
                format!(
                    "order {}, which `{label}` does not run in meta.json's settings",
                    self.order
                ),
            ));
        }
        if c.variants
            .as_ref()
            .is_some_and(|vs| !vs.contains(&self.variant))
        {
            return Err((
                "variant",
                format!(
                    "variant {}, which `{label}` does not run in meta.json's settings",
                    self.variant
                ),
            ));
        }
        Ok(())
    }

    fn trial_key(&self) -> Option<String> {
        Some(self.key())
    }

    fn experiment(&self) -> Option<&str> {
        Some(&self.experiment)
    }
}

impl CsvRow for TraceRow {
    fn check(&self, _: Option<&RunSettings>) -> Result<(), Invalid> {
        check_ms("elapsed_ms", self.elapsed_ms)
    }
}

/// An `order` column: an order sudoku-core holds, so what is made from rows (`N×N` labels, cell
/// counts) cannot overflow on a damaged file.
fn order<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = usize::deserialize(d)?;
    Order::new(n)
        .map(Order::n)
        .map_err(|e| serde::de::Error::custom(format!("`{n}`: {e}")))
}

/// One point of a convergence trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

/// Reads every row of a CSV file. A last line without its newline is a row cut off while
/// being written (a killed run): an error naming the file and line, since reading on would
/// drop it silently. A header without rows reads as no rows.
pub fn read_rows<T: CsvRow>(path: &Path) -> Result<Vec<T>, AnalysisError> {
    read_checked(path, None)
}

/// [`read_rows`], each row also checked against the run's settings (from its meta.json).
pub fn read_checked<T: CsvRow>(
    path: &Path,
    settings: Option<&RunSettings>,
) -> Result<Vec<T>, AnalysisError> {
    let mut rows = Vec::new();
    visit_checked(path, settings, |row| rows.push(row))?;
    Ok(rows)
}

/// [`read_checked`] a row at a time: each row read and checked is handed to `each`, so a file of
/// a million rows is held neither whole as text nor as rows (what is kept of each row is the
/// caller's choice). Refuses what [`read_checked`] refuses.
pub fn visit_checked<T: CsvRow>(
    path: &Path,
    settings: Option<&RunSettings>,
    each: impl FnMut(T),
) -> Result<(), AnalysisError> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let io = |e| AnalysisError::io(path, e);
    let mut file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len > MAX_CSV_BYTES {
        return Err(AnalysisError::Text(ReadError::TooLarge {
            path: path.display().to_string(),
            limit: MAX_CSV_BYTES,
            what: CSV_WHAT,
            why: CSV_WHY,
        }));
    }
    if len > 0 {
        let mut last = [0u8];
        file.seek(SeekFrom::End(-1)).map_err(io)?;
        file.read_exact(&mut last).map_err(io)?;
        if last[0] != b'\n' {
            // The torn line's number: the lines before it, counted only on this error.
            file.rewind().map_err(io)?;
            let mut before = 0;
            let mut buf = vec![0u8; 1 << 16];
            loop {
                let n = file.read(&mut buf).map_err(io)?;
                if n == 0 {
                    break;
                }
                before += buf[..n].iter().filter(|&&b| b == b'\n').count();
            }
            return Err(AnalysisError::Torn {
                path: path.to_path_buf(),
                line: before + 1,
            });
        }
        file.rewind().map_err(io)?;
    }
    check_rows(
        std::io::BufReader::new(file.take(len)),
        path,
        settings,
        each,
    )
}

/// [`read_rows`] for resuming a killed run: a torn last line is left out (the run appends
/// after cutting it off, so that trial runs again). Rows are checked against `settings`, the
/// run's, when given.
pub fn read_rows_resuming<T: CsvRow>(
    path: &Path,
    settings: Option<&RunSettings>,
) -> Result<Vec<T>, AnalysisError> {
    parse_checked(read_csv_text(path)?, path, true, settings)
}

/// What a results CSV is, and why it is bounded, in the error of one too large.
const CSV_WHAT: &str = "a results file";
const CSV_WHY: &str = "about 1 KiB for each of the most tasks a run may hold, a million";

/// A results CSV's text, at most [`MAX_CSV_BYTES`].
fn read_csv_text(path: &Path) -> Result<String, AnalysisError> {
    read_text_within(path, MAX_CSV_BYTES, CSV_WHAT, CSV_WHY).map_err(|e| match e {
        ReadError::Io { source, .. } => AnalysisError::io(path, source),
        e => AnalysisError::Text(e),
    })
}

/// The rows of a CSV file's text, as [`read_rows`] (or, with `drop_torn`,
/// [`read_rows_resuming`]) reads them; `path` names the file in errors. Apart from the file
/// reading so the parsing can be fuzzed without files.
pub fn parse_rows<T: CsvRow>(
    text: String,
    path: &Path,
    drop_torn: bool,
) -> Result<Vec<T>, AnalysisError> {
    parse_checked(text, path, drop_torn, None)
}

/// [`parse_rows`], each row also checked against the run's settings when given.
pub fn parse_checked<T: CsvRow>(
    mut text: String,
    path: &Path,
    drop_torn: bool,
    settings: Option<&RunSettings>,
) -> Result<Vec<T>, AnalysisError> {
    if !text.is_empty() && !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        if !drop_torn {
            return Err(AnalysisError::Torn {
                path: path.to_path_buf(),
                line: text[..keep].matches('\n').count() + 1,
            });
        }
        text.truncate(keep);
    }
    let mut rows = Vec::new();
    check_rows(text.as_bytes(), path, settings, |row| rows.push(row))?;
    Ok(rows)
}

/// The rows of a CSV text read from `input`, each checked (against `settings` when given) and
/// handed to `each`; `path` names the file in errors. The text must end with its newline.
fn check_rows<T: CsvRow>(
    input: impl std::io::Read,
    path: &Path,
    settings: Option<&RunSettings>,
    mut each: impl FnMut(T),
) -> Result<(), AnalysisError> {
    let mut reader = csv::Reader::from_reader(input);
    let headers = reader
        .headers()
        .map_err(|source| AnalysisError::Row {
            path: path.to_path_buf(),
            row: 1,
            source,
        })?
        .clone();
    let mut record = csv::StringRecord::new();
    let row_err = |line: u64, source| AnalysisError::Row {
        path: path.to_path_buf(),
        row: line as usize,
        source,
    };
    // Text from the file shows with its control characters written out (a NUL as `\0`).
    let invalid = |line: u64, (column, problem): Invalid| AnalysisError::Invalid {
        path: path.to_path_buf(),
        line: line as usize,
        column,
        problem: visible(&problem),
    };
    let columns = T::columns();
    // An empty file has no header and no rows: nothing is missing from it.
    if !headers.is_empty() {
        if let Some(missing) = T::REQUIRED
            .iter()
            .find(|c| !headers.iter().any(|h| h == **c))
        {
            let why = "no such column in the header: a file without it cannot say which answers the verifier passed".to_string();
            return Err(invalid(1, (missing, why)));
        }
    }
    // The line of each trial seen (by a 128-bit digest of its key: a million keys as text
    // took more memory than their rows), and the first row's experiment.
    let mut seen: HashMap<[u64; 2], u64> = HashMap::new();
    let mut experiment: Option<(String, u64)> = None;
    loop {
        // Lines, not records, name the place: a quoted field may span lines.
        let next = reader.position().line();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let line = record.position().map_or(next, |p| p.line());
                let bad = |e| match column_error(&e, &headers, &record, &columns) {
                    Some(why) => invalid(line, why),
                    None => row_err(line, e),
                };
                let mut row: T = record.deserialize(Some(&headers)).map_err(bad)?;
                row.complete(&record, &headers).map_err(bad)?;
                row.check(settings).map_err(|e| invalid(line, e))?;
                if let Some(key) = row.trial_key() {
                    if let Some(first) = seen.insert(digest(&key), line) {
                        let why = format!("the trial of line {first} again (each trial has one row; `merge` joins shards without repeating one)");
                        return Err(invalid(line, ("trial", why)));
                    }
                }
                if let Some(e) = row.experiment() {
                    match &experiment {
                        None => experiment = Some((e.to_string(), line)),
                        Some((first, at)) if first != e => {
                            let why = format!("`{e}`, but line {at} is of `{first}`: one file holds one experiment's rows");
                            return Err(invalid(line, ("experiment", why)));
                        }
                        _ => {}
                    }
                }
                each(row);
            }
            Err(e) => {
                let line = e.position().map_or(next, |p| p.line());
                if let csv::ErrorKind::Utf8 { .. } = e.kind() {
                    return Err(AnalysisError::Text(ReadError::NotUtf8 {
                        path: path.display().to_string(),
                        line: line as usize,
                    }));
                }
                return Err(row_err(line, e));
            }
        }
    }
    Ok(())
}

/// Two independent 64-bit SipHash digests of `key`: two different keys share both with
/// probability about 2^-128, far below any chance of a damaged disk, so a trial found twice
/// by its digest is one written twice.
fn digest(key: &str) -> [u64; 2] {
    use std::hash::{DefaultHasher, Hash as _, Hasher as _};
    let mut a = DefaultHasher::new();
    key.hash(&mut a);
    let mut b = DefaultHasher::new();
    (key, 0x9e37_79b9_7f4a_7c15u64).hash(&mut b);
    [a.finish(), b.finish()]
}

/// What a field that does not read as its column's type is, named by its column (csv names
/// it by its index, `field 13`): `None` when the error names no field this can find.
fn column_error(
    e: &csv::Error,
    headers: &csv::StringRecord,
    record: &csv::StringRecord,
    columns: &[&'static str],
) -> Option<Invalid> {
    use csv::DeserializeErrorKind as K;
    let csv::ErrorKind::Deserialize { err, .. } = e.kind() else {
        return None;
    };
    let named = |i: usize| {
        let h = headers.get(i)?;
        columns.iter().copied().find(|c| *c == h)
    };
    // A field's own parse error says which field; serde's messages (an unknown status, a
    // column missing) do not, but quote the value or the column.
    let (column, value) = match err.field() {
        Some(i) => (named(i as usize)?, record.get(i as usize).unwrap_or("")),
        None => match err.kind() {
            K::Message(m) => {
                if let Some(c) = columns
                    .iter()
                    .find(|c| m == &format!("missing field `{c}`"))
                {
                    let why = "no such column in the header".to_string();
                    return Some((c, why));
                }
                let i = (0..record.len()).find(|&i| {
                    named(i).is_some() && m.contains(&format!("`{}`", record.get(i).unwrap_or("")))
                })?;
                (named(i)?, record.get(i).unwrap_or(""))
            }
            _ => return None,
        },
    };
    let problem = match err.kind() {
        K::ParseBool(_) => format!("`{value}` is not `true`, `false` or empty"),
        K::ParseInt(_) => format!("`{value}` is not a whole number of at least 0"),
        K::ParseFloat(_) => format!("`{value}` is not a number"),
        K::UnexpectedEndOfRow => "the line ends before this column".to_string(),
        K::InvalidUtf8(_) => "not UTF-8 text".to_string(),
        // Our own readers' messages start with the value (`order`).
        K::Message(m) if m.starts_with(&format!("`{value}`")) => m.clone(),
        K::Message(m) | K::Unsupported(m) => format!("`{value}` is not valid: {m}"),
    };
    Some((column, problem))
}

/// Rewrites a CSV file with exactly these rows, whole or not at all
/// ([`crate::writing::write_with`]).
pub fn write_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), AnalysisError> {
    crate::writing::write_with(path, |out| {
        // The header written here, not by csv: it refuses a row's nested columns. No rows, no
        // header: an empty file still reads as no rows.
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        if let Some(first) = rows.first() {
            w.write_record(csv_header(first).map_err(std::io::Error::other)?)
                .map_err(std::io::Error::other)?;
        }
        for r in rows {
            w.serialize(r).map_err(std::io::Error::other)?;
        }
        w.flush()
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("trials.csv");
        std::fs::write(&p, text).unwrap();
        (dir, p)
    }

    fn csv_of(rows: &[Row]) -> String {
        let (_d, p) = file("");
        write_rows(&p, rows).unwrap();
        std::fs::read_to_string(&p).unwrap()
    }

    #[test]
    fn torn_and_bad_lines_are_named_by_line() {
        let rows = [
            Row {
                task: 0,
                // A quoted field over two lines: later lines are still named right.
                instance_set: "two\nlines".into(),
                order: 3,
                variant: "classic".into(),
                repeats: 1,
                ..Row::default()
            },
            Row {
                task: 1,
                trial: 1,
                order: 3,
                variant: "classic".into(),
                repeats: 1,
                ..Row::default()
            },
        ];
        let good = csv_of(&rows);
        let (_d, p) = file(&good);
        assert_eq!(read_rows::<Row>(&p).unwrap(), rows);
        // Torn: the last row cut in the middle.
        let torn = &good[..good.len() - 5];
        let (_d, p) = file(torn);
        let e = read_rows::<Row>(&p).unwrap_err().to_string();
        assert!(
            e.ends_with("trials.csv: line 4 is cut off (no newline at its end), as a run killed while writing leaves it: `run --resume` removes it, or delete the line"),
            "{e}"
        );
        assert_eq!(read_rows_resuming::<Row>(&p, None).unwrap(), rows[..1]);
        // A line that is no row.
        let (_d, p) = file(&format!("{good}1,2,3\n"));
        let e = read_rows::<Row>(&p).unwrap_err().to_string();
        assert!(
            e.contains("trials.csv: line 5 is not a valid result row"),
            "{e}"
        );
        // Empty, or only a header: no rows.
        let (_d, p) = file("");
        assert!(read_rows::<Row>(&p).unwrap().is_empty());
        let header = good.lines().next().unwrap();
        let (_d, p) = file(&format!("{header}\n"));
        assert!(read_rows::<Row>(&p).unwrap().is_empty());
    }

    /// The analysis holds a task's number in 32 bits: a row past that is refused by name.
    #[test]
    fn a_task_number_past_32_bits_is_refused() {
        let row = Row {
            task: 1 << 32,
            order: 3,
            variant: "classic".into(),
            repeats: 1,
            ..Row::default()
        };
        let (_d, p) = file(&csv_of(&[row]));
        let e = read_rows::<Row>(&p).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column `task`: 4294967296 is more than 4294967295"),
            "{e}"
        );
    }

    #[test]
    fn threads_come_from_the_stats_and_default_to_one() {
        let mut row = Row {
            order: 3,
            variant: "classic".into(),
            repeats: 1,
            ..Row::default()
        };
        row.set_stats(&Stats::default());
        assert_eq!(
            row.threads, 1,
            "a method that says nothing ran on the calling thread"
        );
        row.set_stats(&Stats {
            threads: 2,
            ..Stats::default()
        });
        assert_eq!(row.threads, 2);
        // A CSV written before the columns `threads` and `solve_ms` (the last two) reads as
        // one thread and no solver clock.
        let text = csv_of(&[row]);
        let (header, line) = text.split_once('\n').unwrap();
        let strip = |s: &str| {
            let (rest, _) = s.rsplit_once(',').unwrap();
            rest.rsplit_once(',').unwrap().0.to_string()
        };
        let old = format!("{}\n{}\n", strip(header), strip(line.trim_end()));
        let (_d, p) = file(&old);
        let back = &read_rows::<Row>(&p).unwrap()[0];
        assert_eq!((back.threads, back.solve_ms), (1, None));
    }
}
