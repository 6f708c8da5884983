//! A results folder's derived files: written from its CSVs and meta.json in one pass
//! ([`RunOutputs`]), redrawn from them alone ([`redraw`]: what `plot` and `report` do), and
//! every output of a run listed so `fresh` can clear them.

use std::path::{Path, PathBuf};

use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::RunOutputs;

use crate::error::{Result, RunError};
use crate::lock::lock_folder;
use crate::registry::Registry;
use crate::sink::{Event, Sink};

/// Writes summary.csv, summary.md, summary.tex (with the performance table), stats.md,
/// stats.tex, findings.md, and with `plots` cd.svg, the charts and report.html, from `<dir>/trials.csv`
/// (and traces.csv and meta.json); returns every file of the folder's results. The charts left
/// out are said to `sink`.
pub fn write_outputs(
    dir: &Path,
    title: &str,
    plots: bool,
    sink: &dyn Sink,
) -> Result<Vec<PathBuf>> {
    crate::memory::return_large_blocks();
    check_meta_experiment(dir)?;
    write_run(&RunOutputs::read(dir, Some(title))?, dir, plots, sink)
}

/// Writes every output of `run` into `dir` (the charts and report.html with `plots`), says
/// which charts were left out, and returns every file of the folder's results.
pub fn write_run(
    run: &RunOutputs,
    dir: &Path,
    plots: bool,
    sink: &dyn Sink,
) -> Result<Vec<PathBuf>> {
    let written = sudoku_report::write(run, dir, plots)?;
    for s in &written.skipped {
        sink.event(Event::ChartSkipped {
            chart: &s.stem,
            reason: &s.reason,
        });
    }
    Ok(written.files)
}

/// Rewrites every derived file of the results folder `dir` (summaries, charts, report.html)
/// from its CSV (and meta.json) alone, titled by the experiment of its rows, so a folder copied
/// from another machine or merged from a cluster is reported as `run` reports it; `command`
/// (`plot`, `report`) names what asked in errors. Returns the folder's files.
/// The folder is locked while it is read and written, as `run` locks it: a run still writing
/// it stops the redraw with [`RunError::Busy`] (its rows are not all there yet, and the files
/// would be written twice at once).
pub fn redraw(dir: &Path, command: &str, sink: &dyn Sink) -> Result<Vec<PathBuf>> {
    // A folder that is not there is `read_run`'s error to tell.
    let _lock = if dir.is_dir() {
        Some(lock_folder(dir, command, sink)?)
    } else {
        None
    };
    let run = read_run(dir, command)?;
    write_run(&run, dir, true, sink)
}

/// A results folder's rows and everything computed from them, for `command` (named in the
/// errors): a folder without trials.csv, or with no row in it, is an error.
pub fn read_run(dir: &Path, command: &str) -> Result<RunOutputs> {
    crate::memory::return_large_blocks();
    let trials = dir.join(files::TRIALS);
    if !trials.exists() {
        return Err(RunError::Folder(format!(
            "{} not found: `{command}` needs a results folder written by `run`",
            trials.display()
        )));
    }
    check_meta_experiment(dir)?;
    let run = RunOutputs::read(dir, None)?;
    if run.trials.is_empty() {
        return Err(RunError::Folder(format!(
            "{}: no trial rows (the file is empty or only a header): nothing for `{command}` to do",
            trials.display()
        )));
    }
    Ok(run)
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
        return Err(RunError::Folder(format!(
            "{}: of experiment `{}`, but the rows of {} are of `{}`: the folder mixes two runs' files; put back the meta.json of the run that wrote these rows, or remove it",
            dir.join(files::META).display(),
            shown(&meta.experiment),
            trials.display(),
            shown(rows)
        )));
    }
    Ok(())
}

/// The stems of every chart a run with the methods of `registry` may draw: the fixed charts,
/// and the sweep of each parameter of each method and generator (`sweep_tabu_alpha`).
pub fn chart_stems(registry: &Registry) -> Vec<String> {
    let methods = registry.methods.iter().map(|m| (m.name, m.params));
    let generators = registry.generators.iter().map(|g| (g.name, g.params));
    let mut stems = sudoku_report::plots::stems();
    for (name, params) in methods.chain(generators) {
        stems.extend(
            params
                .iter()
                .map(|p| sudoku_report::plots::sweep_stem(name, p.name)),
        );
    }
    stems
}

/// Removes every output an earlier run left in `dir`: the files of
/// [`sudoku_analysis::files::RUN_FILES`], the charts by the names a run with `registry` may
/// give them ([`chart_stems`]), and their `.tmp` siblings, so `fresh` starts from a folder with
/// nothing stale. Other files (a `.svg` or `.png` of the user's among them) and sub-folders
/// stay. Returns what it removed.
pub fn clear_outputs(dir: &Path, registry: &Registry) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    if !dir.is_dir() {
        return Ok(removed);
    }
    let charts = chart_stems(registry);
    let reading = |e| RunError::io(format!("reading {}", dir.display()), e);
    for entry in std::fs::read_dir(dir).map_err(reading)? {
        let path = entry.map_err(reading)?.path();
        let output = path
            .file_name()
            .is_some_and(|n| files::is_output(&n.to_string_lossy(), &charts));
        if output && path.is_file() {
            std::fs::remove_file(&path)
                .map_err(|e| RunError::io(format!("removing {}", path.display()), e))?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}
