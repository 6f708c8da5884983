//! The `external` method through `run`: a fake solver's misbehaviour becomes the row's status
//! with its standard-error tail in `message`, the configuration's `name` labels its rows and
//! tables, the child's CPU time reaches `cpu_ms`, and resume finds every row again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod binary;
use binary::root;

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn experiment(dir: &Path, modes: &[(&str, &str)]) -> PathBuf {
    let fake = root().join("crates/external/tests/fixtures/fake_solver.py");
    let seeds = root().join("datasets/seeds");
    let mut text = "name = \"peers-test\"\nseed = 2\n[budget]\ntime_limit = 30.0\n[[method]]\nname = \"prop\"\n".to_string();
    for (name, mode) in modes {
        text.push_str(&format!(
            "[[method]]\nname = \"external\"\nparams = {{ name = \"{name}\", batch = true, command = \"python3 '{}' {mode} '{}'\" }}\n",
            fake.display(),
            seeds.join("001_jump.solutions.txt").display()
        ));
        // Ample time for the others, even on a loaded machine, and a short wait for this one.
        if *mode == "slow" {
            text.push_str("budget = { time_limit = 2.0 }\n");
        }
    }
    text.push_str(&format!(
        "[[instances]]\nfile = \"{}\"\nlimit = 2\n",
        seeds.join("001_jump.txt").display()
    ));
    let p = dir.join("peers-test.toml");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn misbehaving_external_solvers_become_statuses_under_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(
        dir.path(),
        &[
            ("fake-right", "right"),
            ("fake-wrong", "wrong"),
            ("fake-crash", "crash"),
            ("fake-garbage", "garbage"),
            ("fake-slow", "slow"),
        ],
    );
    let exp = exp.to_str().unwrap();
    let out = run(dir.path(), &["run", exp, "--no-plots"]);
    // A wrong answer makes the run fail, after every row is written.
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("WRONG"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let res = dir.path().join("results/peers-test");
    let mut rows = csv::Reader::from_path(res.join("trials.csv")).unwrap();
    let headers = rows.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut seen: BTreeMap<String, Vec<(String, String, f64)>> = BTreeMap::new();
    for r in rows.records() {
        let r = r.unwrap();
        seen.entry(format!("{} {}", &r[col("method")], &r[col("params")]))
            .or_default()
            .push((
                r[col("status")].to_string(),
                r[col("message")].to_string(),
                r[col("cpu_ms")].parse().unwrap(),
            ));
    }
    let statuses =
        |label: &str| -> Vec<String> { seen[label].iter().map(|(s, _, _)| s.clone()).collect() };
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert_eq!(statuses("prop "), ["solved", "solved"]);
    assert_eq!(statuses("external name=fake-right"), ["solved", "solved"]);
    assert_eq!(statuses("external name=fake-wrong"), ["wrong", "wrong"]);
    assert_eq!(statuses("external name=fake-crash"), ["error", "error"]);
    assert_eq!(statuses("external name=fake-garbage"), ["error", "error"]);
    assert_eq!(statuses("external name=fake-slow"), ["timeout", "timeout"]);
    // Its 2 s limit holds within a tenth (plus the slack of tests/budgets.rs): the process
    // group is killed at the deadline.
    let mut rows = csv::Reader::from_path(res.join("trials.csv")).unwrap();
    for r in rows.records() {
        let r = r.unwrap();
        if &r[col("params")] == "name=fake-slow" {
            let wall: f64 = r[col("wall_ms")].parse().unwrap();
            eprintln!("fake-slow: {wall} ms");
            assert!(wall <= 2000.0 * 1.1 + 250.0, "fake-slow took {wall} ms");
        }
    }
    for (label, says) in [
        (
            "external name=fake-crash",
            "stderr: fake: crash on puzzle 0",
        ),
        (
            "external name=fake-garbage",
            "malformed answer `hello world`",
        ),
    ] {
        assert!(
            seen[label].iter().all(|(_, m, _)| m.contains(says)),
            "{label}: {:?}",
            seen[label]
        );
    }
    // Starting Python costs CPU time in the child, which the runner's thread clock never sees.
    let right_cpu: f64 = seen["external name=fake-right"].iter().map(|r| r.2).sum();
    assert!(right_cpu > 0.0);
    let summary = std::fs::read_to_string(res.join("summary.md")).unwrap();
    assert!(
        summary.contains("| external | name=fake-slow |"),
        "{summary}"
    );

    // Resume finds every row under the same keys: nothing runs again.
    let again = run(dir.path(), &["run", exp, "--resume", "--no-plots"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let n = csv::Reader::from_path(res.join("trials.csv"))
        .unwrap()
        .records()
        .count();
    assert_eq!(n, 12);
}

#[test]
fn two_configurations_may_not_share_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), &[("same", "right"), ("same", "wrong")]);
    let out = run(dir.path(), &["run", exp.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name=same"));
}
