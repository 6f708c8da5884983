//! `trials.csv` (one tidy row per trial) and `traces.csv` (convergence points): written row by
//! row and flushed, read back for resume, merge, summaries and charts.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// One trial. Every column is always present; "not applicable" is an empty field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Position in the experiment's stable task order.
    pub task: usize,
    /// Experiment name.
    pub experiment: String,
    /// solve, count, relax or generate.
    pub kind: String,
    /// Method (or generator) name.
    pub method: String,
    /// Parameters, `k=v k=v`.
    pub params: String,
    /// classic or diagonal.
    pub variant: String,
    /// Order n.
    pub order: usize,
    /// The instance set (file name, or generated-set description).
    pub instance_set: String,
    /// The instance (`file:line`, or a generated id).
    pub instance: String,
    /// Number of givens.
    pub givens: usize,
    /// Trial number, from 0.
    pub trial: u32,
    /// The trial's seed.
    pub seed: u64,
    /// solved, infeasible, multiple, timeout, failed, wrong or error.
    pub status: String,
    /// Whether the answer passed the verifier (empty when there is no answer to verify).
    pub verified: String,
    /// Wall time of the method call (ms).
    pub wall_ms: f64,
    /// CPU time of the method call on its thread (ms).
    pub cpu_ms: f64,
    /// Model build time (ILP), included in wall_ms.
    pub build_ms: Option<f64>,
    /// Search nodes.
    pub nodes: u64,
    /// Branching decisions.
    pub guesses: u64,
    /// Iterations.
    pub iterations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Best cost reached.
    pub best_cost: Option<u64>,
    /// Objective value.
    pub objective: Option<f64>,
    /// Time to the best cost (ms).
    pub time_to_best_ms: Option<f64>,
    /// Solutions counted (kind = count).
    pub count: Option<u64>,
    /// Which limit ran out (time, nodes, iterations), if one did.
    pub limit: String,
    /// Method-specific statistics, `k=v;k=v`.
    pub extra: String,
    /// Error or verification message.
    pub message: String,
    /// Git commit the binary was built from (`+dirty` when the tree had changes).
    pub commit: String,
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
        matches!(self.status.as_str(), "solved" | "infeasible" | "multiple")
    }
}

/// The resume key of a trial.
pub fn task_key(method: &str, params: &str, variant: &str, instance: &str, trial: u32) -> String {
    format!("{method}|{params}|{variant}|{instance}|{trial}")
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

/// Appends rows to a CSV file, flushing each one so a killed run loses at most the row in
/// flight.
pub struct Appender<T> {
    writer: csv::Writer<File>,
    _row: std::marker::PhantomData<T>,
}

impl<T: Serialize + for<'de> Deserialize<'de>> Appender<T> {
    /// Opens `path` for appending; writes the header when the file is new or empty. A torn
    /// last line (from a killed run) is cut off first.
    pub fn open(path: &Path) -> Result<Appender<T>> {
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        cut_torn_tail(&mut file, path)?;
        let empty = file.metadata()?.len() == 0;
        let writer = csv::WriterBuilder::new()
            .has_headers(empty)
            .from_writer(file);
        Ok(Appender {
            writer,
            _row: std::marker::PhantomData,
        })
    }

    /// Writes one row and flushes it to the operating system.
    pub fn push(&mut self, row: &T) -> Result<()> {
        self.writer.serialize(row)?;
        self.writer.flush()?;
        Ok(())
    }
}

/// Truncates a file to its last newline: a process killed mid-write leaves a partial row.
fn cut_torn_tail(file: &mut File, path: &Path) -> Result<()> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let mut text = Vec::with_capacity(len as usize);
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut text)?;
    if text.last() == Some(&b'\n') {
        return Ok(());
    }
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    file.set_len(keep as u64)
        .with_context(|| format!("cutting the torn last line of {}", path.display()))?;
    Ok(())
}

/// Reads every row of a CSV file written by [`Appender`] (a torn last line is ignored).
pub fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>> {
    let mut text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(keep);
    }
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, r) in reader.deserialize().enumerate() {
        rows.push(r.with_context(|| {
            format!(
                "{}: row {} is not a valid result row",
                path.display(),
                i + 2
            )
        })?);
    }
    Ok(rows)
}

/// Rewrites a CSV file with exactly these rows.
pub fn write_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let tmp = path.with_extension("csv.tmp");
    {
        let mut w =
            csv::Writer::from_path(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
        for r in rows {
            w.serialize(r)?;
        }
        if rows.is_empty() {
            // Keep a header so the file stays readable.
            drop(w);
            std::fs::write(&tmp, "")?;
        } else {
            w.flush()?;
        }
    }
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// The keys of the trials already recorded in `trials.csv`, and its rows; fails on duplicate
/// keys (a file that is not one run's output).
pub fn done_keys(path: &Path) -> Result<(HashSet<String>, Vec<Row>)> {
    if !path.exists() {
        return Ok((HashSet::new(), Vec::new()));
    }
    let rows: Vec<Row> = read_rows(path)?;
    let mut keys = HashSet::with_capacity(rows.len());
    for r in &rows {
        if !keys.insert(r.key()) {
            bail!("{}: trial {} appears twice", path.display(), r.key());
        }
    }
    Ok((keys, rows))
}

/// Writes `text` to `path` via a temporary file, so a reader never sees half a file.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = File::create(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
    f.write_all(text.as_bytes())?;
    f.sync_all().ok();
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_tail_is_cut_and_appending_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("trials.csv");
        {
            let mut a = Appender::<Row>::open(&p).unwrap();
            a.push(&Row {
                task: 0,
                method: "m".into(),
                ..Row::default()
            })
            .unwrap();
        }
        // A kill in the middle of the second row.
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"1,exp,solve,m,,cla").unwrap();
        drop(f);
        assert_eq!(read_rows::<Row>(&p).unwrap().len(), 1);
        {
            let mut a = Appender::<Row>::open(&p).unwrap();
            a.push(&Row {
                task: 1,
                method: "m".into(),
                ..Row::default()
            })
            .unwrap();
        }
        let rows: Vec<Row> = read_rows(&p).unwrap();
        assert_eq!(rows.iter().map(|r| r.task).collect::<Vec<_>>(), [0, 1]);
    }
}
