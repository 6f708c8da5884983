//! `fidelity`: is each re-implemented method as strong as its original? From results folders
//! where ours and the original (through `external`) ran on the same puzzles the same number of
//! times: per instance set, both success counts with Fisher's exact test, both medians and
//! their ratio, and a verdict; printed, or written into a document's block (the guide's
//! fidelity table is this command's output on the committed runs).

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use sudoku_analysis::fidelity::{self, judge, Measure, Pair, ALPHA, RATIO};
use sudoku_analysis::RunOutputs;

use crate::cli::findings::emit;
use crate::cli::Failure;
use sudoku_runner::outputs::read_run;

#[derive(Args)]
pub struct FidelityArgs {
    /// `DIR:OURS=ORIGINAL[:MEASURE]`: a results folder, our configuration's label (as the
    /// results show it), the original's `external` name, and what the medians are of (`time`, the
    /// default, the harness's clock; `own`, each side's own clock, which the original must report
    /// as `# stats solve_ms=`; `nodes` or `iterations`). Several make one table.
    #[arg(required = true, value_name = "DIR:OURS=ORIGINAL[:MEASURE]", value_parser = spec)]
    pub pairs: Vec<Spec>,
    /// Replace the block between `<!-- findings:NAME:start -->` and `<!-- findings:NAME:end -->`
    /// of this Markdown file (NAME from --block, `fidelity` by default) instead of printing.
    #[arg(long, value_name = "FILE")]
    pub into: Option<PathBuf>,
    /// The block's name with --into.
    #[arg(
        long,
        value_name = "NAME",
        requires = "into",
        default_value = "fidelity"
    )]
    pub block: String,
}

/// One folder and the pair judged in it.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The results folder.
    pub dir: PathBuf,
    /// The pair.
    pub pair: Pair,
    /// As written, for the caption.
    pub text: String,
}

fn spec(s: &str) -> Result<Spec, String> {
    let bad = || {
        format!("`{s}`: expected DIR:OURS=ORIGINAL[:MEASURE], e.g. results/fidelity-acs:acs=acs-original")
    };
    // The folder is everything before the first `:` followed by a pair.
    let (dir, rest) = s.split_once(':').ok_or_else(bad)?;
    let (pair, measure) = match rest.rsplit_once(':') {
        Some((p, m)) => (
            p,
            Measure::parse(m).ok_or_else(|| {
                format!("`{s}`: unknown measure `{m}` (time, own, nodes or iterations)")
            })?,
        ),
        None => (rest, Measure::Time),
    };
    // Our label may hold `=` (`sa alpha=0.99`); the original's name does not.
    let (ours, original) = pair.rsplit_once('=').ok_or_else(bad)?;
    if dir.is_empty() || ours.trim().is_empty() || original.trim().is_empty() {
        return Err(bad());
    }
    Ok(Spec {
        dir: PathBuf::from(dir),
        pair: Pair {
            ours: ours.trim().to_string(),
            original: original.trim().to_string(),
            measure,
        },
        text: s.to_string(),
    })
}

/// The table with its caption.
pub fn block(specs: &[Spec]) -> Result<String, Failure> {
    let mut judged = Vec::new();
    for s in specs {
        let run = read_run(&s.dir, "fidelity")?;
        if let Some(why) = crate::cli::findings::partial_rows(&s.dir, run.meta.as_ref()) {
            say!("warning: {why}");
        }
        let js = judge(&RunOutputs::read_rows(&s.dir)?, &s.pair)
            .map_err(|e| anyhow!("{}: {e}", s.dir.display()))?;
        judged.push((s.pair.clone(), js));
    }
    let args: Vec<&str> = specs.iter().map(|s| s.text.as_str()).collect();
    Ok(format!(
        "_Written by `sudoku-bench fidelity {}` from the committed runs. Per instance set (its \
         number of puzzles in brackets), ours and the original on the same puzzles, limits and \
         runs: solved and verified runs, Fisher's exact test on those counts (two-sided), and \
         the medians over the solved runs of the measure named. Verdict: \"ours weaker\" or \
         \"ours stronger\" when p < {ALPHA}; otherwise \"ours slower\" or \"ours faster\" when \
         the medians differ by more than {RATIO}×, else \"faithful\"._\n\n{}",
        args.join(" "),
        fidelity::markdown(&judged)
    ))
}

/// Prints the table, or writes it into `--into`'s block.
pub fn fidelity(a: &FidelityArgs) -> Result<(), Failure> {
    let block = block(&a.pairs)?;
    emit(&block, a.into.as_deref(), Some(&a.block), "fidelity")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_say_why() {
        let s = spec("results/f:acs=acs-original").unwrap();
        assert_eq!(s.dir, PathBuf::from("results/f"));
        assert_eq!(
            (s.pair.ours.as_str(), s.pair.original.as_str()),
            ("acs", "acs-original")
        );
        assert_eq!(s.pair.measure, Measure::Time);
        let s = spec("r:norvig=norvig-original:nodes").unwrap();
        assert_eq!(s.pair.measure, Measure::Nodes);
        assert_eq!(s.pair.original, "norvig-original");
        let s = spec("r:sa alpha=0.99=sa-lewis:iterations").unwrap();
        assert_eq!(
            (s.pair.ours.as_str(), s.pair.original.as_str()),
            ("sa alpha=0.99", "sa-lewis")
        );
        assert!(spec("r:a=b:speed")
            .unwrap_err()
            .contains("unknown measure `speed`"));
        assert!(spec("results/f")
            .unwrap_err()
            .contains("expected DIR:OURS=ORIGINAL"));
        assert!(spec("r:a")
            .unwrap_err()
            .contains("expected DIR:OURS=ORIGINAL"));
        assert!(spec(":a=b").is_err());
    }
}
