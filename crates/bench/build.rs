// Records, for meta.json and `--version`, the compiler and the commit the binary is built from.
use std::path::Path;
use std::process::Command;

/// `git ARGS` in this crate's folder, trimmed; `None` when git fails or is missing.
fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// Rebuild when `file` changes; a file that does not exist is not watched (cargo would then
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

    // The commit, only when this crate sits in a git checkout of this workspace (a source
    // archive unpacked inside another repository must not take that repository's commit).
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ours = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| {
        Path::new(&top)
            .join("crates/bench/build.rs")
            .canonicalize()
            .ok()
            == manifest.join("build.rs").canonicalize().ok()
    });
    let commit = ours
        .then(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .flatten()
        .map(|hash| {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}+dirty")
            } else {
                hash
            }
        })
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BENCH_COMMIT={commit}");
    // Build again when HEAD moves (a commit, a checkout): HEAD itself, and the branch it names.
    if ours {
        for (what, file) in [("--git-dir", "HEAD"), ("--git-common-dir", "packed-refs")] {
            if let Some(dir) = git(&["rev-parse", what]) {
                watch(&manifest.join(dir).join(file));
            }
        }
        if let (Some(dir), Some(branch)) = (
            git(&["rev-parse", "--git-common-dir"]),
            git(&["symbolic-ref", "-q", "HEAD"]),
        ) {
            watch(&manifest.join(dir).join(branch));
        }
    }
}
