//! Running the `sudoku-bench` binary from integration tests: the checkout's top folder and one
//! call with its output. Each test binary that includes this module uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The checkout's top folder, where the shipped experiment files and data sets are.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `sudoku-bench ARGS` run in `dir`.
pub fn bench(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}
