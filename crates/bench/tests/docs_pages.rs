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

/// `docs blocks` (or with `--check`) on the `blocks.toml` of `dir`, run there.
fn docs_blocks(dir: &Path, check: bool) -> std::process::Output {
    let mut args = vec!["docs", "blocks", "--list", "blocks.toml"];
    if check {
        args.push("--check");
    }
    Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap()
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
    let run = |check: bool| docs_blocks(dir.path(), check);
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

/// A chart copied into the documentation is what `plot` draws from its committed run: a copy
/// that differs is named by `--check` and drawn again by `docs blocks`.
#[test]
fn a_stale_chart_is_named_then_drawn_again() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    for f in ["trials.csv", "meta.json"] {
        std::fs::copy(
            workspace().join("results/harness-cost").join(f),
            run.join(f),
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("chart.svg"), "old").unwrap();
    std::fs::write(
        dir.path().join("blocks.toml"),
        "[[figure]]\nfile = \"chart.svg\"\nrun = \"run\"\nchart = \"cactus.svg\"\n",
    )
    .unwrap();
    let docs = |check: bool| docs_blocks(dir.path(), check);
    let o = docs(true);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("chart.svg: differs from the chart cactus.svg that `plot` draws from run"),
        "{err}"
    );
    assert!(docs(false).status.success());
    let drawn = std::fs::read_to_string(dir.path().join("chart.svg")).unwrap();
    assert!(
        drawn.starts_with("<svg") || drawn.starts_with("<?xml"),
        "{drawn:.80}"
    );
    assert!(docs(true).status.success());
    // A chart `plot` does not draw from that run is an error that names it.
    std::fs::write(
        dir.path().join("blocks.toml"),
        "[[figure]]\nfile = \"chart.svg\"\nrun = \"run\"\nchart = \"nothing.svg\"\n",
    )
    .unwrap();
    let o = docs(true);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("draws no chart nothing.svg"));
}

/// `findings --recommend` names the run in its caption and gives, per group, which of ours to
/// use and a command line that runs it; peers are left out.
#[test]
fn the_recommendation_names_its_run_and_a_command_per_group() {
    let text = bench(&["findings", "results/proper-puzzles", "--recommend"]);
    assert!(
        text.starts_with(
            "_Written by `sudoku-bench findings results/proper-puzzles --recommend` from the run \
             of `scripts/experiments/proper-puzzles.toml` in `results/proper-puzzles`."
        ),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| grid"))
        .collect();
    assert!(!rows.is_empty(), "{text}");
    for row in rows {
        assert!(row.contains("`sudoku-bench solve PUZZLES.txt -m "), "{row}");
        assert!(
            !row.contains("external") && !row.contains("kissat"),
            "{row}"
        );
    }
}

/// `docs repro` counts each paper's committed comparison by verdict: the counts add up to the
/// comparison's items, and agree with the line `repro` writes at the top of comparison.md.
#[test]
fn the_reproduction_table_counts_each_committed_comparison() {
    let table = bench(&["docs", "repro"]);
    for paper in ["unicamp-ilp", "jump", "takano", "raggi", "teles", "lewis"] {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("| `{paper}` |")))
            .unwrap_or_else(|| panic!("{paper} in {table}"));
        let cells: Vec<&str> = line.split(" | ").collect();
        let n = |i: usize| cells[i].trim().parse::<usize>().unwrap_or(0);
        let (reproduced, differs, not_yet, quick) = (n(3), n(4), n(6), n(7));
        let md = std::fs::read_to_string(
            workspace().join(format!("results/repro-{paper}/comparison.md")),
        )
        .unwrap();
        let head = md.lines().nth(2).unwrap();
        assert!(
            head.starts_with(&format!(
                "{reproduced} reproduced, {differs} differs, {not_yet} not yet"
            )),
            "{paper}: {head} against {line}"
        );
        let csv = std::fs::read_to_string(
            workspace().join(format!("results/repro-{paper}/comparison.csv")),
        )
        .unwrap();
        let items = csv::Reader::from_reader(csv.as_bytes()).records().count();
        assert_eq!(reproduced + differs + not_yet + quick, items, "{paper}");
    }
}
