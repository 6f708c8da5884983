//! `docs/methods.md` is `sudoku-bench list --markdown`: the committed page and the registry
//! cannot drift apart.

use std::path::Path;
use std::process::Command;

#[test]
fn the_committed_methods_page_is_what_list_markdown_writes() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(["list", "--markdown"])
        .current_dir(&workspace)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let generated = String::from_utf8(o.stdout).expect("UTF-8");
    let page = workspace.join("docs/methods.md");
    let committed = std::fs::read_to_string(&page).unwrap_or_default();
    if generated != committed {
        let first = generated
            .lines()
            .zip(committed.lines())
            .position(|(g, c)| g != c)
            .unwrap_or_else(|| generated.lines().count().min(committed.lines().count()));
        panic!(
            "docs/methods.md differs from `list --markdown` (first at line {}: {:?} in the page, \
             {:?} generated); run `cargo run --release -- list --markdown > docs/methods.md`",
            first + 1,
            committed.lines().nth(first).unwrap_or("(end of page)"),
            generated.lines().nth(first).unwrap_or("(end of output)"),
        );
    }
}
