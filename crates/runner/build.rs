// Records, for meta.json, every row and `sudoku-bench --version`, the compiler and the commit
// the runner is built from, with a dirty flag that cannot go stale: the script runs again
// whenever a compiled source changes (cargo scans the watched folders), not only when HEAD
// moves. A crate outside the workspace that depends on the runner by path gets the commit of
// the checkout the runner is in.
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binary is compiled from, relative to the workspace's top: a change here is a change
/// of the build. Results, docs and data sets are not sources (a run writing results/ does not
/// make the next build dirty).
const SOURCES: [&str; 3] = ["crates", "Cargo.toml", "Cargo.lock"];

/// `git ARGS` in `dir`, trimmed; `None` when git fails or is missing.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// Rebuild when `file` changes; a path that does not exist is not watched (cargo would then
/// run the script on every build).
fn watch(file: &Path) {
    if file.exists() {
        println!("cargo:rerun-if-changed={}", file.display());
    }
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!("cargo:rustc-env=SUDOKU_BENCH_RUSTC={version}");
    println!("cargo:rerun-if-changed=build.rs");

    // Read when the script runs, not compiled in: cargo may reuse one compiled script for two
    // checkouts that share a target folder, and the compiled-in path would name the other one.
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let top = manifest.join("../..");
    for source in SOURCES {
        watch(&top.join(source));
    }
    // The commit, only when this crate sits in a git checkout of this workspace: a source
    // archive unpacked inside another repository must not take that repository's commit.
    let ours = git(&manifest, &["rev-parse", "--show-toplevel"]).is_some_and(|t| {
        Path::new(&t)
            .join("crates/runner/build.rs")
            .canonicalize()
            .ok()
            == manifest.join("build.rs").canonicalize().ok()
    });
    let commit = ours
        .then(|| git(&top, &["rev-parse", "--short=12", "HEAD"]))
        .flatten();
    let (commit, dirty) = match commit {
        Some(hash) => {
            let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            args.extend(SOURCES);
            let dirty =
                git(&top, &args).map_or("unknown", |s| if s.is_empty() { "false" } else { "true" });
            (hash, dirty)
        }
        None => ("archive".to_string(), "unknown"),
    };
    println!("cargo:rustc-env=SUDOKU_BENCH_COMMIT={commit}");
    println!("cargo:rustc-env=SUDOKU_BENCH_DIRTY={dirty}");
    // As `--version` and every row name it.
    let label = if dirty == "true" {
        format!("{commit}+dirty")
    } else {
        commit
    };
    println!("cargo:rustc-env=SUDOKU_BENCH_BUILD={label}");
    // Build again when HEAD moves (a commit, a checkout): HEAD itself, and the branch it names.
    if ours {
        for (what, file) in [("--git-dir", "HEAD"), ("--git-common-dir", "packed-refs")] {
            if let Some(dir) = git(&manifest, &["rev-parse", what]) {
                watch(&manifest.join(dir).join(file));
            }
        }
        if let (Some(dir), Some(branch)) = (
            git(&manifest, &["rev-parse", "--git-common-dir"]),
            git(&manifest, &["symbolic-ref", "-q", "HEAD"]),
        ) {
            watch(&manifest.join(dir).join(branch));
        }
    }
}
