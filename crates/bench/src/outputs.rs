//! A results folder's derived files: written from its CSVs and meta.json in one pass
//! ([`RunOutputs`]), shards joined, and every output of a run listed so `--fresh` can clear
//! them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{read_checked, RunOutputs};

use crate::results::{Row, TraceRow};

/// Writes summary.csv, summary.md, summary.tex (with the performance table), stats.md,
/// stats.tex, findings.md, and with `plots` cd.svg, the charts and report.html, from `<dir>/trials.csv`
/// (and traces.csv and meta.json); returns every file of the folder's results.
pub fn write_outputs(dir: &Path, title: &str, plots: bool) -> Result<Vec<PathBuf>> {
    check_meta_experiment(dir)?;
    write_run(&RunOutputs::read(dir, Some(title))?, dir, plots)
}

/// Writes every output of `run` into `dir` (the charts and report.html with `plots`), says
/// which charts were left out, and returns every file of the folder's results.
pub fn write_run(run: &RunOutputs, dir: &Path, plots: bool) -> Result<Vec<PathBuf>> {
    let written = sudoku_report::write(run, dir, plots)?;
    for s in &written.skipped {
        eprintln!("chart {} not drawn: {}", s.stem, s.reason);
    }
    Ok(written.files)
}

/// A folder's meta.json must be of the experiment its rows are of: one copied from another
/// run would check the rows against other settings, or pass and name the wrong run. Only the
/// first row is read here (a file holds one experiment; reading it whole checks that); a
/// folder without meta.json, or whose trials.csv cannot be read, is left to that reading.
pub fn check_meta_experiment(dir: &Path) -> Result<()> {
    let Some(meta) = RunMeta::read(dir)? else {
        return Ok(());
    };
    let trials = dir.join(files::TRIALS);
    let Ok(file) = std::fs::File::open(&trials) else {
        return Ok(());
    };
    use std::io::Read;
    let mut reader = csv::Reader::from_reader(file.take(1 << 20));
    let Some(column) = reader
        .headers()
        .ok()
        .and_then(|h| h.iter().position(|c| c == "experiment"))
    else {
        return Ok(());
    };
    let mut record = csv::StringRecord::new();
    if !matches!(reader.read_record(&mut record), Ok(true)) {
        return Ok(());
    }
    let rows = record.get(column).unwrap_or_default();
    if !meta.experiment.is_empty() && rows != meta.experiment {
        let shown = sudoku_analysis::escape::visible;
        bail!(
            "{}: of experiment `{}`, but the rows of {} are of `{}`: the folder mixes two runs' files; put back the meta.json of the run that wrote these rows, or remove it",
            dir.join(files::META).display(),
            shown(&meta.experiment),
            trials.display(),
            shown(rows)
        );
    }
    Ok(())
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
            bail!("{} not found", p.display());
        }
        check_meta_experiment(d)?;
        let meta = RunMeta::read(d)?;
        let settings = meta.as_ref().and_then(|m| m.settings.as_ref());
        for r in read_checked::<Row>(&p, settings)? {
            match &experiment {
                None => experiment = Some(r.experiment.clone()),
                Some(e) if *e != r.experiment => {
                    bail!(
                        "{} holds experiment `{}`, the others `{e}`: not shards of one run",
                        p.display(),
                        r.experiment
                    )
                }
                _ => {}
            }
            if let Some(first) = seen.insert(r.key(), p.clone()) {
                bail!(
                    "trial {} is in both {} and {}: not shards of one run (each holds its own trials); leave one folder out",
                    r.key(),
                    first.display(),
                    p.display()
                );
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

/// Removes every output an earlier run left in `dir` (the files of
/// [`sudoku_analysis::files::RUN_FILES`], charts included, and their `.tmp` siblings), so
/// `--fresh` starts from a folder with nothing stale; other files and sub-folders stay. Returns
/// what it removed.
pub fn clear_outputs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    if !dir.is_dir() {
        return Ok(removed);
    }
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        let output = path
            .file_name()
            .is_some_and(|n| files::is_output(&n.to_string_lossy()));
        if output && path.is_file() {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}
