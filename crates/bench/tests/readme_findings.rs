//! README.md's "which method" table is `sudoku-bench findings results/which-method`: the block
//! between its findings markers is generated from the committed run, never typed by hand.

use std::path::Path;
use std::process::Command;

#[test]
fn the_readme_findings_block_is_what_findings_writes_from_the_committed_run() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(["findings", "results/which-method"])
        .current_dir(&workspace)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let generated = String::from_utf8(o.stdout).expect("UTF-8");
    let readme = std::fs::read_to_string(workspace.join("README.md")).expect("README.md");
    let (start, end) = ("<!-- findings:start -->\n", "<!-- findings:end -->");
    let from = readme.find(start).expect("README.md has a findings block") + start.len();
    let to = from + readme[from..].find(end).expect("the block ends");
    assert_eq!(
        &readme[from..to],
        generated,
        "README.md's findings block differs from the committed run's; run \
         `cargo run --release -- findings results/which-method --into README.md`"
    );
}
