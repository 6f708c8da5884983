//! The committed `results/` stays small enough to clone: under 10 MB of tracked files (charts,
//! report.html, LaTeX tables and generated puzzles are made again by `plot` or `run`).

use std::path::Path;
use std::process::Command;

const LIMIT: u64 = 10_000_000;

#[test]
fn tracked_results_stay_under_ten_megabytes() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Ok(o) = Command::new("git")
        .args(["ls-files", "-z", "results"])
        .current_dir(&workspace)
        .output()
    else {
        eprintln!("skipped: git is not available");
        return;
    };
    if !o.status.success() {
        eprintln!("skipped: not a git checkout");
        return;
    }
    let mut sizes: Vec<(u64, String)> = o
        .stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .map(|p| {
            let len = std::fs::metadata(workspace.join(&p)).map_or(0, |m| m.len());
            (len, p)
        })
        .collect();
    let total: u64 = sizes.iter().map(|s| s.0).sum();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let largest: Vec<String> = sizes
        .iter()
        .take(5)
        .map(|(n, p)| format!("{p} ({n} bytes)"))
        .collect();
    assert!(
        total < LIMIT,
        "tracked results/ holds {total} bytes, more than {LIMIT}; the largest: {}",
        largest.join(", ")
    );
}
