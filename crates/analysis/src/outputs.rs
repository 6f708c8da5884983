//! Everything a results folder's files are made from, computed once ([`RunOutputs`]), and the
//! writers of its text files: summary.csv, summary.md and summary.tex (with the performance
//! table), stats.md and stats.tex, findings.md (the verdict per instance group). The charts,
//! cd.svg and report.html are drawn from it by `sudoku-report`.

use std::path::{Path, PathBuf};

use crate::compare::{self, Comparison};
use crate::files::{self, Made};
use crate::findings::{self, Finding};
use crate::meta::RunMeta;
use crate::meta::RunSettings;
use crate::summary::{self, SummaryRow};
use crate::tables::{self, Caps, PerfRow, TimeLimits};
use crate::writing::write_whole;
use crate::{read_checked, write_rows, AnalysisError, CsvRow, Row, TraceRow, Trials};

/// A run's trials and settings and all that is computed from them: the configurations' time
/// limits, the summary, the performance rows, the statistical comparisons and the findings.
/// Built once; every output is written from it.
#[derive(Clone, Debug)]
pub struct RunOutputs {
    /// The title of every document (the experiment's name).
    pub title: String,
    /// The trials (the columns of the rows that the outputs read).
    pub trials: Trials,
    /// The trace rows.
    pub traces: Vec<TraceRow>,
    /// The folder's meta.json, when it has one.
    pub meta: Option<RunMeta>,
    /// Each configuration's time limit: recorded in the settings, else read from the trials
    /// (every table, test and verdict that counts an unsolved trial takes it from here).
    pub caps: Caps,
    /// One row per (kind, method, params, variant, order, instance set).
    pub summary: Vec<SummaryRow>,
    /// The performance table's rows, with each configuration's time limit from the settings.
    pub perf: Vec<PerfRow>,
    /// The statistical comparisons, one per (kind, variant, order).
    pub comparisons: Vec<Comparison>,
    /// The leaderboard and verdict of each (kind, variant, order, instance set).
    pub findings: Vec<Finding>,
}

impl RunOutputs {
    /// Computes everything from the rows, traces and meta.json of a run.
    pub fn new(
        title: &str,
        rows: Vec<Row>,
        traces: Vec<TraceRow>,
        meta: Option<RunMeta>,
    ) -> RunOutputs {
        RunOutputs::of(title, Trials::from(rows), traces, meta)
    }

    /// Computes everything from the trials, traces and meta.json of a run.
    pub fn of(
        title: &str,
        trials: Trials,
        traces: Vec<TraceRow>,
        meta: Option<RunMeta>,
    ) -> RunOutputs {
        let limits = TimeLimits::from_settings(meta.as_ref().and_then(|m| m.settings.as_ref()));
        let caps = tables::config_caps(&trials, &limits);
        RunOutputs {
            title: title.to_string(),
            summary: summary::summarise(&trials),
            perf: tables::perf_rows(&trials, &caps),
            comparisons: compare::compare(&trials, &caps),
            findings: findings::findings(&trials, &caps),
            caps,
            trials,
            traces,
            meta,
        }
    }

    /// Reads the results folder `dir` (trials.csv and traces.csv, each empty when absent, and
    /// meta.json, which may be absent but not unreadable) and computes everything. The title
    /// is `title`, else the experiment of the first row, else `results`.
    pub fn read(dir: &Path, title: Option<&str>) -> Result<RunOutputs, AnalysisError> {
        // meta.json first: its settings check every row.
        let meta = RunMeta::read(dir)?;
        let settings = meta.as_ref().and_then(|m| m.settings.as_ref());
        // The trials a row at a time: a million rows are never held as rows.
        let path = dir.join(files::TRIALS);
        let trials = if path.exists() {
            Trials::read(&path, settings)?
        } else {
            Trials::default()
        };
        let traces: Vec<TraceRow> = read_if_there(&dir.join(files::TRACES), settings)?;
        let title = match (title, trials.is_empty()) {
            (Some(t), _) => t.to_string(),
            (None, false) => trials.experiment.clone(),
            (None, true) => "results".to_string(),
        };
        Ok(RunOutputs::of(&title, trials, traces, meta))
    }

    /// The trial rows of the results folder `dir`, every column, each checked against its
    /// meta.json's settings (for what needs more columns than [`Trials`] keep; a run's outputs
    /// need only [`RunOutputs::read`]).
    pub fn read_rows(dir: &Path) -> Result<Vec<Row>, AnalysisError> {
        let meta = RunMeta::read(dir)?;
        read_if_there(
            &dir.join(files::TRIALS),
            meta.as_ref().and_then(|m| m.settings.as_ref()),
        )
    }

    /// summary.md: the summary, the performance table, then the best costs of the unsolved
    /// trials (when a metaheuristic left any).
    pub fn summary_markdown(&self) -> String {
        summary::markdown(&self.title, &self.summary)
            + &tables::performance_markdown(&self.perf)
            + &tables::best_costs_markdown(&self.trials)
    }

    /// summary.tex: the summary, then the performance table (booktabs).
    pub fn summary_latex(&self) -> String {
        summary::latex(&self.title, &self.summary) + &tables::performance_latex(&self.perf)
    }

    /// stats.md.
    pub fn stats_markdown(&self) -> String {
        compare::markdown(&self.title, &self.comparisons)
    }

    /// stats.tex.
    pub fn stats_latex(&self) -> String {
        compare::latex(&self.title, &self.comparisons)
    }

    /// findings.md: the verdicts, the winners and every leaderboard.
    pub fn findings_markdown(&self) -> String {
        let text = findings::markdown(&self.title, &self.findings);
        match self.meta.as_ref().and_then(RunMeta::test_warning) {
            // Under the title, before anything else: such a run's verdicts are not real.
            Some(w) => match text.split_once("\n\n") {
                Some((title, rest)) => format!("{title}\n\n> **{w}**\n\n{rest}"),
                None => format!("> **{w}**\n\n{text}"),
            },
            None => text,
        }
    }

    /// Writes summary.csv, summary.md, summary.tex, stats.md and stats.tex into `dir`;
    /// returns them in that order.
    pub fn write_summaries(&self, dir: &Path) -> Result<Vec<PathBuf>, AnalysisError> {
        let mut written = Vec::new();
        for name in files::named(|f| f.made == Made::Text).filter(|n| *n != files::FINDINGS) {
            let path = dir.join(name);
            if self.write_file(&path, name)? {
                written.push(path);
            }
        }
        Ok(written)
    }

    /// Writes the files made from the data alone ([`Made::Text`]: the summaries, the
    /// statistics and findings.md) into `dir`. Returns the folder's files so far, those that
    /// exist, in the order of [`files::RUN_FILES`]: the run's own files among them.
    pub fn write_text(&self, dir: &Path) -> Result<Vec<PathBuf>, AnalysisError> {
        let mut listed = Vec::new();
        for name in files::named(|f| f.made != Made::Drawn) {
            let path = dir.join(name);
            if self.write_file(&path, name)? || path.exists() {
                listed.push(path);
            }
        }
        Ok(listed)
    }

    /// Writes `path`, the file `name` of [`files::RUN_FILES`], when it is made from the data
    /// alone; `false` (nothing written) for the others.
    fn write_file(&self, path: &Path, name: &str) -> Result<bool, AnalysisError> {
        let text = match name {
            files::SUMMARY_CSV => {
                write_rows(path, &self.summary)?;
                return Ok(true);
            }
            files::SUMMARY_MD => self.summary_markdown(),
            files::SUMMARY_TEX => self.summary_latex(),
            files::STATS_MD => self.stats_markdown(),
            files::STATS_TEX => self.stats_latex(),
            files::FINDINGS => self.findings_markdown(),
            _ => return Ok(false),
        };
        write_whole(path, &text)?;
        Ok(true)
    }
}

/// The rows of `path`, checked against `settings`; none when there is no such file.
fn read_if_there<T: CsvRow>(
    path: &Path,
    settings: Option<&RunSettings>,
) -> Result<Vec<T>, AnalysisError> {
    if path.exists() {
        read_checked(path, settings)
    } else {
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_made_from_the_data_has_its_writer_and_no_other_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunOutputs::new("t", Vec::new(), Vec::new(), None);
        for f in files::RUN_FILES {
            for name in f.names.iter().filter(|n| !n.starts_with('*')) {
                let written = run.write_file(&dir.path().join(name), name).unwrap();
                assert_eq!(written, f.made == Made::Text, "{name}");
            }
        }
    }
}
