//! `merge`: joins results folders (shards) and re-summarises.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::Args;
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;

use crate::cli::Failure;
use crate::io::Out;
use crate::outputs::{merge_dirs, write_outputs};
use crate::results::{read_rows, write_atomic, write_rows, Row};
use crate::runner::lock::lock_folder;

#[derive(Args)]
pub struct MergeArgs {
    /// Results folders to merge (e.g. the shard-K-of-N folders).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged results: a new folder, or one of earlier merged results of the
    /// same experiment (never one of the folders merged).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Joins shard outputs: rows ordered by task, each trial once; then re-summarises.
pub fn merge(a: &MergeArgs) -> Result<(), Failure> {
    refuse_an_input_as_output(&a.dirs, &a.out)?;
    let (rows, traces) = merge_dirs(&a.dirs)?;
    if rows.is_empty() {
        return Err(anyhow!(
            "no trial rows in {} (their trials.csv are empty or only a header): nothing to merge",
            a.dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
        .into());
    }
    let experiment = rows[0].experiment.clone();
    let metas = a
        .dirs
        .iter()
        .map(|d| RunMeta::read(d))
        .collect::<Result<Vec<_>, _>>()?;
    warn_missing_shards(&a.dirs, &metas);
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let _lock = lock_folder(&a.out, "merge")?;
    refuse_another_experiment(&a.out, &experiment)?;
    write_rows(&a.out.join(files::TRIALS), &rows)?;
    let old_traces = a.out.join(files::TRACES);
    if !traces.is_empty() {
        write_rows(&old_traces, &traces)?;
    } else if old_traces.exists() {
        // Traces of an earlier merge would not belong to these rows.
        std::fs::remove_file(&old_traces)
            .with_context(|| format!("removing {}", old_traces.display()))?;
    }
    // The first meta.json, as the whole set's: no longer one shard's.
    if let Some(mut m) = metas.into_iter().flatten().next() {
        m.shard = None;
        if let Some(s) = m.settings.as_mut() {
            s.shard = None;
        }
        let text = serde_json::to_string_pretty(&m).map_err(|e| anyhow!(e))?;
        write_atomic(&a.out.join(files::META), &text)?;
    }
    let mut out = Out::new();
    out.line(format_args!(
        "merged {} trials from {} folders into {}",
        rows.len(),
        a.dirs.len(),
        a.out.display()
    ))?;
    for f in write_outputs(&a.out, &experiment, true)? {
        out.line(format_args!("  {}", f.display()))?;
    }
    Ok(out.finish()?)
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

/// `--out` may not be a folder being merged: its trials.csv and meta.json would be replaced
/// while they are read (and were left empty).
fn refuse_an_input_as_output(dirs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let target = same_place(out);
    if let Some(d) = dirs.iter().find(|d| same_place(d) == target) {
        bail!(
            "--out {} is {}, one of the folders being merged: merging into it would overwrite its trials.csv and meta.json while they are read; give a new folder",
            out.display(),
            d.display()
        );
    }
    Ok(())
}

/// A folder that holds another experiment's results is not overwritten (`run` refuses the
/// same); earlier merged results of this experiment are replaced.
fn refuse_another_experiment(out: &Path, experiment: &str) -> anyhow::Result<()> {
    let mut found: Option<(String, PathBuf)> = None;
    if let Some(m) = RunMeta::read(out).ok().flatten() {
        if !m.experiment.is_empty() {
            found = Some((m.experiment, out.join(files::META)));
        }
    }
    let trials = out.join(files::TRIALS);
    if found.is_none() && trials.exists() {
        let rows: anyhow::Result<Vec<Row>> = read_rows(&trials).map_err(Into::into);
        match rows {
            Ok(rows) => found = rows.first().map(|r| (r.experiment.clone(), trials.clone())),
            Err(e) => bail!(
                "--out {}: it holds a trials.csv this merge cannot read ({}); merging would replace it: give a new folder",
                out.display(),
                crate::cli::chain_text(&e)
            ),
        }
    }
    match found {
        Some((other, file)) if other != experiment => bail!(
            "--out {}: it holds the results of experiment `{}` ({}), and these are of `{}`: merging would replace them; give a new folder",
            out.display(),
            sudoku_analysis::escape::visible(&other),
            file.display(),
            sudoku_analysis::escape::visible(experiment)
        ),
        _ => Ok(()),
    }
}

/// Says on stderr which shards of a set are not among the folders merged (from their
/// meta.json's `shard`, `K/N`): the merged results would otherwise look complete.
fn warn_missing_shards(dirs: &[PathBuf], metas: &[Option<RunMeta>]) {
    let shards: Vec<Option<(usize, usize)>> = metas
        .iter()
        .map(|m| {
            m.as_ref()
                .and_then(|m| m.shard.as_deref())
                .and_then(|s| crate::cli::run::parse_shard(s).ok())
        })
        .collect();
    let sets: BTreeSet<usize> = shards.iter().flatten().map(|&(_, n)| n).collect();
    if sets.len() > 1 {
        eprintln!(
            "warning: the folders are shards of sets of different sizes ({}): not one sharded run",
            sets.iter()
                .map(|n| format!("of {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return;
    }
    let Some(&n) = sets.first() else { return };
    let have: BTreeSet<usize> = shards.iter().flatten().map(|&(k, _)| k).collect();
    let missing: Vec<String> = (1..=n)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "warning: shard {} of the set is not among the {} folders merged: the merged results hold {} of its {n} shards",
            missing.join(", "),
            dirs.len(),
            have.len()
        );
    }
}
