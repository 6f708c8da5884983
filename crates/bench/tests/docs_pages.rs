//! The pages made from the code are what the code makes: `docs/methods.md` is `sudoku-bench
//! list --markdown`, `docs/cli.md` is `sudoku-bench docs cli`, and the generated blocks of
//! `docs/report.md` are those `sudoku-bench docs report` writes. A page and its source cannot
//! drift apart; each failure names the command that writes the page again.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary with `args` in the workspace; its standard output.
fn bench(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// Fails, naming the first line that differs and `command`, when `generated` is not the
/// committed `page`.
fn assert_page(page: &str, generated: &str, command: &str) {
    let committed = std::fs::read_to_string(workspace().join(page)).unwrap_or_default();
    if generated != committed {
        let first = generated
            .lines()
            .zip(committed.lines())
            .position(|(g, c)| g != c)
            .unwrap_or_else(|| generated.lines().count().min(committed.lines().count()));
        panic!(
            "{page} differs from what the code makes (first at line {}: {:?} in the page, \
             {:?} generated); run `{command}`",
            first + 1,
            committed.lines().nth(first).unwrap_or("(end of page)"),
            generated.lines().nth(first).unwrap_or("(end of output)"),
        );
    }
}

#[test]
fn the_committed_methods_page_is_what_list_markdown_writes() {
    assert_page(
        "docs/methods.md",
        &bench(&["list", "--markdown"]),
        "cargo run --release -- list --markdown > docs/methods.md",
    );
}

#[test]
fn the_committed_cli_page_is_what_docs_cli_writes() {
    let page = bench(&["docs", "cli"]);
    assert_page(
        "docs/cli.md",
        &page,
        "cargo run --release -- docs cli > docs/cli.md",
    );
    // The flags this page once missed, by hand.
    for flag in [
        "`--peers`",
        "`--block <NAME>`",
        "`--no-hall`",
        "`--values <FILE>`",
        "`-q, --quiet`",
        "`--check-nodes <N>`",
    ] {
        assert!(page.contains(flag), "{flag}");
    }
}

#[test]
fn the_generated_blocks_of_the_report_page_are_what_docs_report_writes() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("report.md");
    std::fs::copy(workspace().join("docs/report.md"), &copy).unwrap();
    bench(&["docs", "report", "--into", copy.to_str().unwrap()]);
    assert_page(
        "docs/report.md",
        &std::fs::read_to_string(&copy).unwrap(),
        "cargo run --release -- docs report --into docs/report.md",
    );
    let blocks = bench(&["docs", "report"]);
    for name in ["files", "columns", "charts"] {
        assert!(blocks.contains(&format!("<!-- generated:{name}:start -->")));
    }
}

/// Every block docs/blocks.toml lists (README.md's tables, the experiment catalogue, the
/// calibration tables, …) is its command's output on the committed runs.
#[test]
fn every_generated_block_is_its_commands_output_on_the_committed_runs() {
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(["docs", "blocks", "--check"])
        .current_dir(workspace())
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_stale_block_is_named_then_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("doc.md");
    std::fs::write(
        &doc,
        "# A page\n\n<!-- v:start -->\nold\n<!-- v:end -->\n\nAfter.\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("blocks.toml"),
        "[[block]]\nfile = \"doc.md\"\nname = \"v\"\nrun = \"--version\"\n",
    )
    .unwrap();
    let run = |check: bool| {
        let mut args = vec!["docs", "blocks", "--list", "blocks.toml"];
        if check {
            args.push("--check");
        }
        Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let o = run(true);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("doc.md: block `v` differs from `sudoku-bench --version`")
            && err.contains("run `cargo run --release -- docs blocks`"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&doc).unwrap().contains("\nold\n"));
    assert!(run(false).status.success());
    let text = std::fs::read_to_string(&doc).unwrap();
    assert!(
        text.starts_with("# A page\n\n<!-- v:start -->\nsudoku-bench ")
            && text.ends_with("<!-- v:end -->\n\nAfter.\n"),
        "{text}"
    );
    assert!(run(true).status.success());
}
