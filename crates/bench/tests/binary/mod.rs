//! Running the `sudoku-bench` binary from integration tests: the checkout's top folder and one
//! call with its output. Each test binary that includes this module uses part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
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

/// The rows of a CSV file (a trials.csv), each as its values by column name.
pub fn csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}
