//! `explain`, `rate`, `solve --method logic` and rated generation as a user runs them, with
//! malformed input.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs the binary from the checkout's root, with `input` on standard input.
fn bench_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin.write_all(input.as_bytes()).expect("writing input");
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

fn bench(args: &[&str]) -> Output {
    bench_stdin(args, "")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn explain_prints_every_step_and_the_end() {
    let out = bench(&["explain", "datasets/public/norvig_easy50.txt"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert_eq!(s.matches("solved in ").count(), 50);
    assert!(s.contains("hidden-single in "));
    assert!(s.lines().any(|l| l.trim_start().starts_with("1. ")));
}

#[test]
fn explain_json_is_one_object_per_puzzle() {
    let out = bench(&[
        "explain",
        "--json",
        "--rules",
        "singles",
        "datasets/public/norvig_hardest.txt",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let lines: Vec<serde_json::Value> = s
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 11);
    for v in &lines {
        assert_eq!(v["rules"], "singles");
        for step in v["steps"].as_array().unwrap() {
            let rule = step["rule"].as_str().unwrap();
            assert!(rule == "naked-single" || rule == "hidden-single", "{rule}");
            assert!(step["place"]["digit"].as_u64().is_some());
        }
    }
}

#[test]
fn rate_gives_a_line_per_puzzle_with_level() {
    let out = bench(&["rate", "datasets/public/norvig_easy50.txt"]);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert_eq!(s.lines().count(), 51);
    // Norvig's "easy" set: all solved by the rules, most with singles alone.
    assert!(s.lines().skip(1).all(|l| l.contains("\tsolved\t")), "{s}");
    assert!(
        s.lines().filter(|l| l.ends_with("\teasy")).count() >= 40,
        "{s}"
    );
    assert!(text(&out.stderr).contains("0 beyond-logic"));
}

#[test]
fn malformed_input_is_an_error_with_position() {
    for cmd in ["explain", "rate"] {
        let out = bench_stdin(&[cmd, "-"], "12345\n");
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = text(&out.stderr);
        assert!(err.contains(":1:"), "{cmd}: {err}");
    }
    let out = bench(&[
        "rate",
        "--rules",
        "three-unit",
        "datasets/public/norvig_easy50.txt",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// `solve --method logic -p PARAM` on Norvig's hardest set: its summary line.
fn solve_hardest(param: &str) -> String {
    let file = "datasets/public/norvig_hardest.txt";
    let out = bench(&["solve", file, "--method", "logic", "-p", param]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stderr)
}

#[test]
fn logic_stuck_is_its_own_status() {
    let err = solve_hardest("rules=singles");
    assert!(err.contains(" stuck"), "{err}");
    assert!(err.contains("0 wrong"), "{err}");
    let err = solve_hardest("fallback=prop");
    assert!(err.contains("11 solved"), "{err}");
}

#[test]
fn generated_puzzles_meet_their_rating() {
    for (flag, value, level) in [
        ("--puzzle", "easy", "easy"),
        ("--puzzle", "hard", "hard"),
        ("--rating", "4.1..5.9", "expert"),
    ] {
        let out = bench(&[
            "generate", "--order", "3", flag, value, "--count", "2", "--seed", "3",
        ]);
        assert!(out.status.success(), "{value}: {}", text(&out.stderr));
        let rated = bench_stdin(&["rate", "-"], &text(&out.stdout));
        let s = text(&rated.stdout);
        assert_eq!(s.lines().count(), 3, "{s}");
        assert!(
            s.lines()
                .skip(1)
                .all(|l| l.ends_with(&format!("\t{level}"))),
            "{value}: {s}"
        );
    }
    // The clue-count levels keep their clue targets under their new names.
    let out = bench(&[
        "generate",
        "--order",
        "3",
        "--puzzle",
        "clues-easy",
        "--seed",
        "1",
    ]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("# 37 clues"),
        "{}",
        text(&out.stdout)
    );
}
