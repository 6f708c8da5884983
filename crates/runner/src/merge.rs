//! Joining the results folders of one run's shards ([`merge`]): rows ordered by task, each
//! trial once, under the folder lock of the merged folder, then every output written again.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::read_checked;

use crate::error::{chain_text, Result, RunError};
use crate::lock::lock_folder;
use crate::outputs::{check_meta_experiment, write_outputs};
use crate::results::{read_rows, write_atomic, write_rows, Row, TraceRow};
use crate::shard::Shard;
use crate::sink::{Event, Sink};

/// What [`merge`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The experiment of the rows.
    pub experiment: String,
    /// Trials merged.
    pub trials: usize,
    /// Every file of the merged folder's results.
    pub files: Vec<PathBuf>,
}

/// Joins the results folders `dirs` (the shards of one run, docs/clusters.md) into `out` and
/// writes every output of the merged run. A trial found in two folders, folders of two
/// experiments, an `out` that is one of `dirs` or that holds another experiment's results are
/// errors; a shard of the set missing from `dirs` is a warning to `sink`, and the merged
/// meta.json names no shard.
pub fn merge(dirs: &[PathBuf], out: &Path, sink: &dyn Sink) -> Result<Merged> {
    refuse_an_input_as_output(dirs, out)?;
    for d in dirs {
        if let Some(who) = crate::lock::writer(d) {
            sink.event(Event::Warning(&format!(
                "{} is being written by {who}: its rows so far are merged, the rest will be missing",
                d.display()
            )));
        }
    }
    let (rows, traces) = merge_dirs(dirs)?;
    let Some(first) = rows.first() else {
        return Err(RunError::Folder(format!(
            "no trial rows in {} (their trials.csv are empty or only a header): nothing to merge",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let experiment = first.experiment.clone();
    let metas = dirs
        .iter()
        .map(|d| RunMeta::read(d))
        .collect::<Result<Vec<_>, _>>()?;
    warn_missing_shards(dirs, &metas, sink);
    std::fs::create_dir_all(out)
        .map_err(|e| RunError::io(format!("creating {}", out.display()), e))?;
    let _lock = lock_folder(out, "merge", sink)?;
    refuse_another_experiment(out, &experiment)?;
    write_rows(&out.join(files::TRIALS), &rows)?;
    let old_traces = out.join(files::TRACES);
    if !traces.is_empty() {
        write_rows(&old_traces, &traces)?;
    } else if old_traces.exists() {
        // Traces of an earlier merge would not belong to these rows.
        std::fs::remove_file(&old_traces)
            .map_err(|e| RunError::io(format!("removing {}", old_traces.display()), e))?;
    }
    // The first meta.json, as the whole set's: no longer one shard's.
    if let Some(mut m) = metas.into_iter().flatten().next() {
        m.shard = None;
        if let Some(s) = m.settings.as_mut() {
            s.shard = None;
        }
        let text = serde_json::to_string_pretty(&m)
            .map_err(|e| RunError::io("writing meta.json", std::io::Error::other(e)))?;
        write_atomic(&out.join(files::META), &text)?;
    }
    let trials = rows.len();
    // The rows are in the file now: the outputs read them from there.
    drop((rows, traces));
    let files = write_outputs(out, &experiment, true, sink)?;
    Ok(Merged {
        experiment,
        trials,
        files,
    })
}

/// Reads and joins the rows of several results folders, each checked as `plot` checks it
/// (against its own meta.json's settings); a trial in two folders is an error (shards of one
/// run never share one).
pub fn merge_dirs(dirs: &[PathBuf]) -> Result<(Vec<Row>, Vec<TraceRow>)> {
    let mut rows: Vec<Row> = Vec::new();
    let mut traces: Vec<TraceRow> = Vec::new();
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    let mut experiment: Option<String> = None;
    for d in dirs {
        let p = d.join(files::TRIALS);
        if !p.exists() {
            return Err(RunError::Folder(format!("{} not found", p.display())));
        }
        check_meta_experiment(d)?;
        let meta = RunMeta::read(d)?;
        let settings = meta.as_ref().and_then(|m| m.settings.as_ref());
        for r in read_checked::<Row>(&p, settings)? {
            match &experiment {
                None => experiment = Some(r.experiment.clone()),
                Some(e) if *e != r.experiment => {
                    return Err(RunError::Folder(format!(
                        "{} holds experiment `{}`, the others `{e}`: not shards of one run",
                        p.display(),
                        r.experiment
                    )))
                }
                _ => {}
            }
            if let Some(first) = seen.insert(r.key(), p.clone()) {
                return Err(RunError::Folder(format!(
                    "trial {} is in both {} and {}: not shards of one run (each holds its own trials); leave one folder out",
                    r.key(),
                    first.display(),
                    p.display()
                )));
            }
            rows.push(r);
        }
        let t = d.join(files::TRACES);
        if t.exists() {
            traces.extend(read_checked::<TraceRow>(&t, settings)?);
        }
    }
    rows.sort_by_key(|r| r.task);
    traces.sort_by(|a, b| a.task.cmp(&b.task).then(a.iteration.cmp(&b.iteration)));
    Ok((rows, traces))
}

/// The folder a path names, to compare folders however they were written (`a`, `./a`, `a/`,
/// a link): the path made absolute through its nearest existing ancestor.
fn same_place(p: &Path) -> PathBuf {
    let absolute = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

/// `out` may not be a folder being merged: its trials.csv and meta.json would be replaced
/// while they are read (and were left empty).
fn refuse_an_input_as_output(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let target = same_place(out);
    if let Some(d) = dirs.iter().find(|d| same_place(d) == target) {
        return Err(RunError::Folder(format!(
            "--out {} is {}, one of the folders being merged: merging into it would overwrite its trials.csv and meta.json while they are read; give a new folder",
            out.display(),
            d.display()
        )));
    }
    Ok(())
}

/// A folder that holds another experiment's results is not overwritten (`run` refuses the
/// same); earlier merged results of this experiment are replaced.
fn refuse_another_experiment(out: &Path, experiment: &str) -> Result<()> {
    let mut found: Option<(String, PathBuf)> = None;
    if let Some(m) = RunMeta::read(out).ok().flatten() {
        if !m.experiment.is_empty() {
            found = Some((m.experiment, out.join(files::META)));
        }
    }
    let trials = out.join(files::TRIALS);
    if found.is_none() && trials.exists() {
        match read_rows::<Row>(&trials) {
            Ok(rows) => found = rows.first().map(|r| (r.experiment.clone(), trials.clone())),
            Err(e) => {
                return Err(RunError::Folder(format!(
                    "--out {}: it holds a trials.csv this merge cannot read ({}); merging would replace it: give a new folder",
                    out.display(),
                    chain_text(&e)
                )))
            }
        }
    }
    match found {
        Some((other, file)) if other != experiment => Err(RunError::Folder(format!(
            "--out {}: it holds the results of experiment `{}` ({}), and these are of `{}`: merging would replace them; give a new folder",
            out.display(),
            sudoku_analysis::escape::visible(&other),
            file.display(),
            sudoku_analysis::escape::visible(experiment)
        ))),
        _ => Ok(()),
    }
}

/// Says to `sink` which shards of a set are not among the folders merged (from their
/// meta.json's `shard`, `K/N`): the merged results would otherwise look complete.
fn warn_missing_shards(dirs: &[PathBuf], metas: &[Option<RunMeta>], sink: &dyn Sink) {
    let shards: Vec<Option<Shard>> = metas
        .iter()
        .map(|m| {
            m.as_ref()
                .and_then(|m| m.shard.as_deref())
                .and_then(|s| s.parse::<Shard>().ok())
        })
        .collect();
    let sets: BTreeSet<usize> = shards.iter().flatten().map(|s| s.n()).collect();
    if sets.len() > 1 {
        sink.event(Event::Warning(&format!(
            "the folders are shards of sets of different sizes ({}): not one sharded run",
            sets.iter()
                .map(|n| format!("of {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
        return;
    }
    let Some(&n) = sets.first() else { return };
    let have: BTreeSet<usize> = shards.iter().flatten().map(|s| s.k()).collect();
    let missing: Vec<String> = (1..=n)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        sink.event(Event::Warning(&format!(
            "shard {} of the set is not among the {} folders merged: the merged results hold {} of its {n} shards",
            missing.join(", "),
            dirs.len(),
            have.len()
        )));
    }
}
