//! README.md's "which method" tables are `sudoku-bench findings` on committed runs, and the
//! guide's fidelity table is `sudoku-bench fidelity` on them: the block between each pair of
//! markers is generated, never typed by hand.

use std::path::Path;
use std::process::Command;

/// README.md's block between `start` and `end` equals `findings ARGS`.
fn block_is_generated(args: &[&str], start: &str, end: &str) {
    doc_block_is_generated("README.md", "findings", args, start, end);
}

/// `doc`'s block between `start` and `end` equals `COMMAND ARGS`.
fn doc_block_is_generated(doc: &str, command: &str, args: &[&str], start: &str, end: &str) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .arg(command)
        .args(args)
        .current_dir(&workspace)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let generated = String::from_utf8(o.stdout).expect("UTF-8");
    let readme = std::fs::read_to_string(workspace.join(doc)).expect("the document");
    let start = format!("{start}\n");
    let from = readme.find(&start).expect("the document has the block") + start.len();
    let to = from + readme[from..].find(end).expect("the block ends");
    assert_eq!(
        &readme[from..to],
        generated,
        "{doc}'s block {start:?} differs from the committed run's; run \
         `cargo run --release -- {command} {} --into {doc}`",
        args.join(" ")
    );
}

#[test]
fn the_readme_findings_block_is_what_findings_writes_from_the_committed_run() {
    block_is_generated(
        &["results/which-method"],
        "<!-- findings:start -->",
        "<!-- findings:end -->",
    );
}

#[test]
fn the_readme_proper_puzzles_block_is_what_findings_peers_writes() {
    block_is_generated(
        &["results/proper-puzzles", "--peers"],
        "<!-- findings:proper:start -->",
        "<!-- findings:proper:end -->",
    );
}

#[test]
fn the_guide_fidelity_block_is_what_fidelity_writes() {
    doc_block_is_generated(
        "docs/reproducing.md",
        "fidelity",
        FIDELITY,
        "<!-- findings:fidelity:start -->",
        "<!-- findings:fidelity:end -->",
    );
}

/// The pairs of the guide's fidelity table.
const FIDELITY: &[&str] = &[
    "results/fidelity-acs:acs=acs-original",
    "results/fidelity-norvig:norvig=norvig-original:nodes",
    "results/fidelity-norvig:norvig=norvig-original:time",
    "results/fidelity-sa:sa=sa-lewis:iterations",
];
