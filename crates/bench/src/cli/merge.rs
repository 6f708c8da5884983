//! `merge`: joins results folders (shards) and re-summarises.

use std::path::PathBuf;

use clap::Args;

use crate::cli::Failure;
use crate::io::{shown, Out};
use crate::progress::Console;

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
    let merged = sudoku_runner::merge(&a.dirs, &a.out, &Console::default())?;
    let mut out = Out::new();
    out.line(format_args!(
        "merged {} trials from {} folders into {}",
        merged.trials,
        a.dirs.len(),
        shown(&a.out)
    ))?;
    for f in merged.files {
        out.line(format_args!("  {}", shown(&f)))?;
    }
    Ok(out.finish()?)
}
