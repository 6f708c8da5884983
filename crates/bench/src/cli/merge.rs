//! `merge`: joins results folders (shards) and re-summarises.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::Args;

use crate::cli::Failure;
use crate::outputs::{merge_dirs, write_outputs};
use crate::results::write_rows;

#[derive(Args)]
pub struct MergeArgs {
    /// Results folders to merge (e.g. the shard-K-of-N folders).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged results.
    #[arg(long)]
    pub out: PathBuf,
}

/// Joins shard outputs: rows ordered by task, each trial once; then re-summarises.
pub fn merge(a: &MergeArgs) -> Result<(), Failure> {
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
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    write_rows(&a.out.join("trials.csv"), &rows)?;
    if !traces.is_empty() {
        write_rows(&a.out.join("traces.csv"), &traces)?;
    }
    if let Some(m) = a
        .dirs
        .iter()
        .map(|d| d.join("meta.json"))
        .find(|p| p.exists())
    {
        std::fs::copy(&m, a.out.join("meta.json"))
            .with_context(|| format!("copying {}", m.display()))?;
    }
    let title = rows
        .first()
        .map(|r| r.experiment.clone())
        .unwrap_or_else(|| "merged".into());
    println!(
        "merged {} trials from {} folders into {}",
        rows.len(),
        a.dirs.len(),
        a.out.display()
    );
    for f in write_outputs(&a.out, &title, true)? {
        println!("  {}", f.display());
    }
    Ok(())
}
