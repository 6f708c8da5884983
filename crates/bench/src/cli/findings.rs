//! `findings`: a results folder's verdicts as one short Markdown table (per grid and share of
//! givens, the first and second methods, their scores, the speed-up, what decided and the test), on
//! standard output or into the block of a document between `<!-- findings:start -->` and
//! `<!-- findings:end -->`. README.md's "which method" table is this command's output on the
//! committed `which-method` run, and a test keeps the two equal.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use clap::Args;

use sudoku_analysis::clocks::{calibration, calibration_markdown, on_own_clock};
use sudoku_analysis::findings::{
    brief, brief_caption, peers_caption, recommendations, recommendations_caption, versus_peers,
};
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::writing::through_links;
use sudoku_analysis::{write_whole, RunOutputs};
use sudoku_core::format::read_text_within;

use crate::cli::Failure;
use crate::io::{shown, Out};
use sudoku_runner::outputs::read_run;

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
    /// Our best configuration against the best peer (an `external` program, or `sat` handing
    /// its formula to another SAT program) per grid and share of givens, with the ratio of
    /// their scores, what decided and the test, instead of the first and second.
    #[arg(long)]
    pub peers: bool,
    /// With --into: the block between `<!-- findings:NAME:start -->` and
    /// `<!-- findings:NAME:end -->` instead of the unnamed one (a document with several tables).
    #[arg(long, value_name = "NAME", requires = "into", value_parser = block_name)]
    pub block: Option<String>,
    /// Which clock ranks and times the trials: `harness` (`wall_ms`, the method call as the
    /// runner times it) or `own` (`solve_ms`, each solver's search alone, where every answered
    /// trial of a group has it; the caption names the groups left on the harness's clock).
    #[arg(long, value_enum, default_value_t = ClockArg::Harness)]
    pub clock: ClockArg,
    /// Instead of verdicts: each configuration's two clocks side by side (harness, own, and
    /// the difference), the calibration of a comparison with outside programs.
    #[arg(long, conflicts_with_all = ["peers", "clock"])]
    pub clocks: bool,
    /// Instead of verdicts: per grid and share of givens, which configuration of ours to use
    /// (the first of ours, with the second beside it when the paired test does not or cannot
    /// separate them), how sure that is, and the command line that runs it; peers left out.
    #[arg(long, conflicts_with_all = ["peers", "clocks"])]
    pub recommend: bool,
}

/// The clock a ranking uses (see [`sudoku_analysis::clocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ClockArg {
    /// `wall_ms`: the method call as the runner times it.
    Harness,
    /// `solve_ms`: each solver's own clock for its search alone.
    Own,
}

/// The caption's sentence on the clock, and the rows on that clock.
pub fn clocked(
    rows: Vec<sudoku_analysis::Row>,
    clock: ClockArg,
) -> (Vec<sudoku_analysis::Row>, String) {
    match clock {
        ClockArg::Harness => (rows, String::new()),
        ClockArg::Own => {
            let (rows, left) = on_own_clock(rows);
            let rest = if left.is_empty() {
                String::new()
            } else {
                format!(
                    " Left on the harness's clock (an outside program there reports no time of \
                     its own): {}.",
                    left.join(", ")
                )
            };
            (
                rows,
                format!(
                    " Times: each solver's own clock for its search alone (`solve_ms`; for a \
                     method of ours that reports none, its call less model building).{rest}"
                ),
            )
        }
    }
}

/// A block name: letters, digits and `-`, so that the markers stay plain HTML comments.
fn block_name(s: &str) -> Result<String, String> {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        Ok(s.to_string())
    } else {
        Err(format!("`{s}`: letters, digits and `-` only"))
    }
}

/// The two markers of a block: the unnamed one, or `NAME`'s.
pub fn markers(name: Option<&str>) -> (String, String) {
    match name {
        None => (START.to_string(), END.to_string()),
        Some(n) => (
            format!("<!-- findings:{n}:start -->"),
            format!("<!-- findings:{n}:end -->"),
        ),
    }
}

/// Is the configuration labelled `label` an outside solver: an `external` program, or `sat`
/// handing its formula to another SAT program (`solver=kissat`, `command=…`)?
fn is_peer(label: &str) -> bool {
    let mut words = label.split_whitespace();
    let method = words.next().unwrap_or_default();
    method == "external"
        || (method == "sat" && words.any(|w| w == "solver=kissat" || w.starts_with("command=")))
}

/// The calibration table of `dir`: every configuration's two clocks.
pub fn clocks_block(dir: &Path) -> Result<String, Failure> {
    read_run(dir, "findings")?;
    Ok(format!(
        "_Written by `sudoku-bench findings {} --clocks`._\n\n{}",
        dir.display(),
        calibration_markdown(&calibration(&RunOutputs::read_rows(dir)?))
    ))
}

/// The recommendation of `dir`'s run: per group, which of ours to use and the command that
/// runs it (the caption cites the folder and its experiment file), ranked and timed on `clock`.
pub fn recommend_block(dir: &Path, clock: ClockArg) -> Result<String, Failure> {
    let run = read_run(dir, "findings")?;
    let source = match &run.meta {
        Some(m) => format!("the run of `{}` in `{}`", m.experiment_file, dir.display()),
        None => format!("the run in `{}`", dir.display()),
    };
    let (findings, on_clock) = match clock {
        ClockArg::Harness => (run.findings, String::new()),
        ClockArg::Own => {
            let (rows, text) = clocked(RunOutputs::read_rows(dir)?, clock);
            let run = RunOutputs::new(&run.title, rows, run.traces, run.meta);
            (run.findings, text)
        }
    };
    let flag = if clock == ClockArg::Own {
        " --clock own"
    } else {
        ""
    };
    Ok(format!(
        "_Written by `sudoku-bench findings {dir} --recommend{flag}` from {source}. \
         {caption}{on_clock}_\n\n{table}",
        dir = dir.display(),
        caption = recommendations_caption(),
        table = recommendations(&findings, is_peer),
    ))
}

/// The block for `dir` as it is named (the caption cites the folder and its experiment file),
/// ranked and timed on `clock`.
pub fn block(dir: &Path, peers: bool, clock: ClockArg) -> Result<String, Failure> {
    let run = read_run(dir, "findings")?;
    let (run, on_clock) = match clock {
        ClockArg::Harness => (run, String::new()),
        ClockArg::Own => {
            let (rows, text) = clocked(RunOutputs::read_rows(dir)?, clock);
            (
                RunOutputs::new(&run.title, rows, run.traces, run.meta),
                text,
            )
        }
    };
    let flag = if clock == ClockArg::Own {
        " --clock own"
    } else {
        ""
    };
    let source = match &run.meta {
        Some(m) => format!("the run of `{}` in `{}`", m.experiment_file, dir.display()),
        None => format!("the run in `{}`", dir.display()),
    };
    if peers {
        let paired = run.findings.iter().any(|f| {
            f.board.iter().any(|e| is_peer(&e.config))
                && f.board.iter().any(|e| !is_peer(&e.config))
        });
        if !paired {
            return Err(anyhow!(
                "{}: no instance group has both one of our configurations and a peer (an `external` program, or `sat` with `solver=kissat` or `command=`), so the --peers table would have no row; without --peers the table ranks every configuration",
                shown(dir)
            )
            .into());
        }
        return Ok(format!(
            "_Written by `sudoku-bench findings {dir} --peers{flag}` from {source}. \
             {caption}{on_clock}_\n\n{table}",
            dir = dir.display(),
            caption = peers_caption(),
            table = versus_peers(&run.findings, is_peer),
        ));
    }
    Ok(format!(
        "_Written by `sudoku-bench findings {dir}{flag} --into FILE` from {source}. \
         {caption}{on_clock}_\n\n{table}",
        dir = dir.display(),
        caption = brief_caption(),
        table = brief(&run.findings),
    ))
}

/// Why a document's block cannot be replaced.
#[derive(Debug, PartialEq)]
pub enum BlockError {
    /// No start marker, or no end marker after it.
    Missing,
    /// The start marker twice, on these lines: which block is meant?
    Twice(usize, usize),
}

impl BlockError {
    /// The error for `file`, whose block between `open` and `close` is where `what` (`the
    /// table goes`).
    pub fn said(&self, file: &Path, open: &str, close: &str, what: &str) -> anyhow::Error {
        match self {
            BlockError::Missing => anyhow!(
                "{}: no `{open}` … `{close}` block to replace (add the two lines where {what})",
                shown(file)
            ),
            BlockError::Twice(a, b) => anyhow!(
                "{}: `{open}` is on line {a} and on line {b}: only one block may have that name, or the other would keep a stale table; remove one, or name each (`<!-- findings:NAME:start -->`, then --block NAME)",
                shown(file)
            ),
        }
    }
}

/// `text` with the block between the markers of block `name` replaced by `block`.
pub fn replace_block(text: &str, block: &str, name: Option<&str>) -> Result<String, BlockError> {
    let (open, close) = markers(name);
    replace_between(text, block, &open, &close)
}

/// `text` with what lies between the lines `open` and `close` replaced by `block`; an error
/// without them, or with `open` twice.
pub fn replace_between(
    text: &str,
    block: &str,
    open: &str,
    close: &str,
) -> Result<String, BlockError> {
    let line = |at: usize| text[..at].lines().count() + 1;
    let mut found = text.match_indices(open).map(|(at, _)| at);
    let first = found.next().ok_or(BlockError::Missing)?;
    if let Some(second) = found.next() {
        return Err(BlockError::Twice(line(first), line(second)));
    }
    let start = first + open.len();
    let end = start + text[start..].find(close).ok_or(BlockError::Missing)?;
    Ok(format!("{}\n{}{}", &text[..start], block, &text[end..]))
}

/// The most bytes a document a block is written into may hold: 16 MiB, hundreds of times
/// README.md; a device that never ends (`--into /dev/zero`) stops there.
pub const MAX_DOCUMENT_BYTES: u64 = 16 << 20;

/// The text of the document `--into` names, read as every input is (a size bound, UTF-8).
pub fn read_document(file: &Path) -> anyhow::Result<String> {
    if file.as_os_str() == "-" {
        bail!("--into -: give the file to rewrite (standard input cannot be written back)");
    }
    Ok(read_text_within(
        file,
        MAX_DOCUMENT_BYTES,
        "a document to write a block into",
        "a Markdown page is far smaller",
    )?)
}

/// Writes `text` over the document `file` (whole or not at all, through a link) and says so,
/// naming the file a link leads to. A document inside a results folder is written under the
/// folder's lock, as every writer of a results folder writes.
/// `command` (`findings --into`) names the writer in the error of a folder in use.
pub fn write_document(file: &Path, text: &str, command: &str, what: &str) -> anyhow::Result<()> {
    let _lock = lock_if_results(file.parent().unwrap_or(Path::new("")), command)?;
    write_whole(file, text)?;
    match through_links(file) {
        Ok(target) if target != file => say!(
            "{}: {what} written into {}, which it links to",
            shown(file),
            shown(&target)
        ),
        _ => say!("{}: {what} written", shown(file)),
    }
    Ok(())
}

/// The lock of `dir` when it is a results folder (it holds trials.csv), for `command`; a run
/// writing it stops the command with an error naming the run.
pub fn lock_if_results(
    dir: &Path,
    command: &str,
) -> anyhow::Result<Option<sudoku_runner::lock::FolderLock>> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if !dir.join(sudoku_analysis::files::TRIALS).is_file() {
        return Ok(None);
    }
    let console = crate::progress::Console::default();
    Ok(Some(sudoku_runner::lock::lock_folder(
        dir, command, &console,
    )?))
}

/// Prints the block, or writes it into `--into`'s file.
pub fn findings(a: &FindingsArgs) -> Result<(), Failure> {
    if let Some(why) = partial_rows(&a.dir, RunMeta::read(&a.dir).ok().flatten().as_ref()) {
        say!("warning: {why}");
    }
    let block = if a.clocks {
        clocks_block(&a.dir)?
    } else if a.recommend {
        recommend_block(&a.dir, a.clock)?
    } else {
        block(&a.dir, a.peers, a.clock)?
    };
    emit(&block, a.into.as_deref(), a.block.as_deref(), "findings")
}

/// Prints `block`, or puts it between the markers of block `name` in `into` (`what` names the
/// block in the message that says so).
pub fn emit(
    block: &str,
    into: Option<&Path>,
    name: Option<&str>,
    what: &str,
) -> Result<(), Failure> {
    let Some(file) = into else {
        let mut out = Out::new();
        out.text(block)?;
        return Ok(out.finish()?);
    };
    let text = read_document(file)?;
    let new = replace_block(&text, block, name).map_err(|e| {
        let (open, close) = markers(name);
        e.said(file, &open, &close, "the table goes")
    })?;
    write_document(
        file,
        &new,
        &format!("{what} --into"),
        &format!("{what} block"),
    )?;
    Ok(())
}

/// What a reader of the folder `dir` should know of its rows: a run is writing them still
/// (it holds the folder's lock), or the run that wrote them did not finish (meta.json records
/// no end: it was stopped, or is running elsewhere). `None` for a finished run's folder.
pub fn partial_rows(dir: &Path, meta: Option<&RunMeta>) -> Option<String> {
    if let Some(who) = sudoku_runner::lock::writer(dir) {
        return Some(format!(
            "{} is being written by {who}: its rows are those written so far",
            shown(dir)
        ));
    }
    meta.filter(|m| m.finished.is_none() && !m.started.is_empty())
        .map(|_| {
            format!(
                "{}: its run did not finish (meta.json records no end): its rows may be partial",
                shown(dir)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_between_the_markers_is_replaced_and_the_rest_kept() {
        let text = format!("a\n{START}\nold\n{END}\nb\n");
        assert_eq!(
            replace_block(&text, "new\n", None).unwrap(),
            format!("a\n{START}\nnew\n{END}\nb\n")
        );
        assert_eq!(
            replace_block("no markers", "x", None),
            Err(BlockError::Missing)
        );
        assert_eq!(
            replace_block(&format!("{END} {START}"), "x", None),
            Err(BlockError::Missing)
        );
        let twice = format!("{START}\na\n{END}\n\n{START}\nb\n{END}\n");
        assert_eq!(
            replace_block(&twice, "x", None),
            Err(BlockError::Twice(1, 5))
        );
    }

    #[test]
    fn a_named_block_is_replaced_and_the_unnamed_one_kept() {
        let (open, close) = markers(Some("proper"));
        let text = format!("{START}\nwhich\n{END}\n{open}\nold\n{close}\n");
        assert_eq!(
            replace_block(&text, "new\n", Some("proper")).unwrap(),
            format!("{START}\nwhich\n{END}\n{open}\nnew\n{close}\n")
        );
        assert_eq!(
            replace_block(&text, "x", Some("other")),
            Err(BlockError::Missing)
        );
        assert!(block_name("proper-puzzles").is_ok());
        assert!(block_name("a b").is_err() && block_name("").is_err());
    }

    #[test]
    fn peers_are_outside_programs_and_sat_on_another_solver() {
        assert!(super::is_peer("external name=kissat"));
        assert!(super::is_peer("sat preset=sat solver=kissat"));
        assert!(super::is_peer("sat command=minisat"));
        assert!(!super::is_peer("sat preset=sat"));
        assert!(!super::is_peer("sat options=vivify=0 preset=sat"));
        assert!(!super::is_peer("prop"));
    }
}
