//! `solve --jobs N` (issue #18): the same lines in the same order as one thread, on a file of
//! several chunks, for solving and counting.

use std::path::Path;
use std::process::Command;

fn solve(file: &Path, extra: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .arg("solve")
        .arg(file)
        .args(["-m", "prop"])
        .args(extra)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{extra:?}: {err}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

#[test]
fn parallel_output_keeps_the_file_order() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/public/magictour_top1465.txt");
    for mode in [&[][..], &["--count", "2"][..]] {
        let (one, err) = solve(&file, mode);
        assert_eq!(one.lines().count(), 1465, "{err}");
        assert!(err.contains("1465 puzzles"), "{err}");
        for jobs in ["2", "3"] {
            let args: Vec<&str> = mode.iter().copied().chain(["--jobs", jobs]).collect();
            let (many, err) = solve(&file, &args);
            assert_eq!(many, one, "--jobs {jobs} {mode:?}: {err}");
        }
    }
}

#[test]
fn zero_jobs_is_an_error() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/public/norvig_top95.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .arg("solve")
        .arg(&file)
        .args(["-m", "prop", "--jobs", "0"])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
}

/// The summary gives the method's wall time and the process's CPU time; the per-puzzle CPU
/// clock (two system calls per puzzle) only on request.
#[test]
fn per_puzzle_cpu_time_only_with_cpu_time() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/public/norvig_top95.txt");
    let (plain_out, plain) = solve(&file, &[]);
    assert!(plain.contains("95 solved"), "{plain}");
    assert!(plain.contains("ms wall per puzzle"), "{plain}");
    assert!(plain.contains("process CPU time"), "{plain}");
    assert!(!plain.contains("ms CPU per puzzle"), "{plain}");
    let (cpu_out, cpu) = solve(&file, &["--cpu-time"]);
    assert!(cpu.contains("ms CPU per puzzle"), "{cpu}");
    assert_eq!(plain_out, cpu_out);
}
