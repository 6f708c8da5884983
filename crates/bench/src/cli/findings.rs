//! `findings`: a results folder's verdicts as one short Markdown table (per grid and share of
//! givens, the best method and the runner-up, their medians, the speed-up and the test), on
//! standard output or into the block of a document between `<!-- findings:start -->` and
//! `<!-- findings:end -->`. README.md's "which method" table is this command's output on the
//! committed `which-method` run, and a test keeps the two equal.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use clap::Args;

use sudoku_analysis::findings::{brief, method_text};

use crate::cli::plot::read_run;
use crate::cli::Failure;

/// The markers of the block `--into` replaces.
pub const START: &str = "<!-- findings:start -->";
/// See [`START`].
pub const END: &str = "<!-- findings:end -->";

#[derive(Args)]
pub struct FindingsArgs {
    /// A results folder holding trials.csv (and meta.json).
    pub dir: PathBuf,
    /// Replace the block between `<!-- findings:start -->` and `<!-- findings:end -->` in this
    /// Markdown file instead of printing.
    #[arg(long, value_name = "FILE")]
    pub into: Option<PathBuf>,
}

/// The block for `dir` as it is named (the caption cites the folder and its experiment file).
pub fn block(dir: &Path) -> Result<String, Failure> {
    let run = read_run(dir, "findings")?;
    let source = match &run.meta {
        Some(m) => format!("the run of `{}` in `{}`", m.experiment_file, dir.display()),
        None => format!("the run in `{}`", dir.display()),
    };
    Ok(format!(
        "_Written by `sudoku-bench findings {dir} --into FILE` from {source}. {method} Median: \
         of the solved trials' wall times._\n\n{table}",
        dir = dir.display(),
        method = method_text(),
        table = brief(&run.findings),
    ))
}

/// `text` with the block between the markers replaced by `block`; `None` without markers.
pub fn replace_block(text: &str, block: &str) -> Option<String> {
    let start = text.find(START)? + START.len();
    let end = start + text[start..].find(END)?;
    Some(format!("{}\n{}{}", &text[..start], block, &text[end..]))
}

/// Prints the block, or writes it into `--into`'s file.
pub fn findings(a: &FindingsArgs) -> Result<(), Failure> {
    let block = block(&a.dir)?;
    let Some(file) = &a.into else {
        print!("{block}");
        return Ok(());
    };
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let Some(new) = replace_block(&text, &block) else {
        return Err(anyhow!(
            "{}: no `{START}` … `{END}` block to replace (add the two lines where the table goes)",
            file.display()
        )
        .into());
    };
    std::fs::write(file, new).with_context(|| format!("writing {}", file.display()))?;
    eprintln!("{}: findings block written", file.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_between_the_markers_is_replaced_and_the_rest_kept() {
        let text = format!("a\n{START}\nold\n{END}\nb\n");
        assert_eq!(
            replace_block(&text, "new\n").unwrap(),
            format!("a\n{START}\nnew\n{END}\nb\n")
        );
        assert_eq!(replace_block("no markers", "x"), None);
        assert_eq!(replace_block(&format!("{END} {START}"), "x"), None);
    }
}
