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

/// An experiment of `methods` (TOML `[[method]]` tables) on the first `limit` puzzles of `file`.
fn experiment_of(dir: &Path, methods: &str, file: &Path, limit: usize) -> PathBuf {
    let text = format!(
        "name = \"harness-test\"\nseed = 3\n[budget]\ntime_limit = 30.0\n{methods}\
         [[instances]]\nfile = \"{}\"\nlimit = {limit}\n",
        file.display()
    );
    let p = dir.join("harness-test.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// The rows of a results folder as (label, column values) maps.
fn rows_of(res: &Path) -> Vec<BTreeMap<String, String>> {
    binary::csv_rows(&res.join("trials.csv"))
}

#[test]
fn the_null_solver_answers_every_puzzle_in_batch_and_per_puzzle_modes() {
    let dir = tempfile::tempdir().unwrap();
    let set = root().join("datasets/public/norvig_top95.txt");
    // `serve --replay` looks each answer up: it does no work, so a trial times the harness.
    let methods = format!(
        "[[method]]\nname = \"external\"\nparams = {{ name = \"null-batch\", batch = true, command = \"\\\"$SUDOKU_BENCH\\\" serve --replay '{0}'\" }}\n\
         [[method]]\nname = \"external\"\nparams = {{ name = \"null-each\", command = \"\\\"$SUDOKU_BENCH\\\" serve --replay '{0}'\" }}\n\
         [[method]]\nname = \"external\"\nparams = {{ name = \"prop-piped\", batch = true, command = \"\\\"$SUDOKU_BENCH\\\" serve -m prop\" }}\n",
        set.display()
    );
    let exp = experiment_of(dir.path(), &methods, &set, 95);
    let out = run(dir.path(), &["run", exp.to_str().unwrap(), "--no-plots"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = rows_of(&dir.path().join("results/harness-test"));
    assert_eq!(rows.len(), 3 * 95);
    for r in &rows {
        assert_eq!(
            (r["status"].as_str(), r["verified"].as_str()),
            ("solved", "true"),
            "{r:?}"
        );
        let own = &r["solve_ms"];
        if r["params"] == "name=prop-piped" {
            // The method's own clock lands in its column, and is within the harness's.
            let own: f64 = own.parse().unwrap();
            let wall: f64 = r["wall_ms"].parse().unwrap();
            assert!(own > 0.0 && own <= wall, "{r:?}");
            assert!(r["extra"].contains("guesses=") && !r["extra"].contains("solve_ms"));
        } else {
            // A replay's own clock is its look-up's, within the harness's.
            let own: f64 = own.parse().unwrap();
            let wall: f64 = r["wall_ms"].parse().unwrap();
            assert!(own <= wall, "{r:?}");
        }
    }
    // The calibration table sets the clocks side by side.
    let res = dir.path().join("results/harness-test");
    let out = run(dir.path(), &["findings", res.to_str().unwrap(), "--clocks"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("| `external name=prop-piped` | 95 |"),
        "{table}"
    );
}

#[test]
fn an_outside_programs_claim_of_no_solution_is_checked_like_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let fake = root().join("crates/external/tests/fixtures/fake_solver.py");
    // With no known solutions, the fake claims that every puzzle has none.
    let none = dir.path().join("none.txt");
    std::fs::write(&none, "# no solutions\n").unwrap();
    let mut corner = String::from("12345678.........9");
    corner.push_str(&".".repeat(63));
    let first = std::fs::read_to_string(root().join("datasets/seeds/001_jump.txt")).unwrap();
    let solvable = first
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap();
    let set = dir.path().join("claims.txt");
    std::fs::write(&set, format!("{solvable}\n{corner}\n")).unwrap();
    let command = format!("python3 '{}' right '{}'", fake.display(), none.display());
    let set = set.to_str().unwrap();
    for extra in [&[][..], &["--count", "2"][..]] {
        let mut args = vec!["solve", set, "-m", "external", "-p"];
        let c = format!("command={command}");
        args.push(&c);
        args.extend_from_slice(extra);
        let out = run(dir.path(), &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // A false claim is a wrong answer (exit 1); the true one is kept, verified.
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stdout
                .lines()
                .next()
                .unwrap()
                .starts_with("wrong: claimed no solution, but prop found a solution"),
            "{stdout}"
        );
        assert!(stderr.contains("1 wrong"), "{stderr}");
    }
}
