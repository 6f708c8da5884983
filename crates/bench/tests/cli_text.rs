//! The text commands as a user runs them: `check` on the seed datasets (valid solutions valid,
//! damaged grids invalid with the right reason) and on malformed inputs (one error line with
//! file:line:col and a non-zero exit).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn every_printed_seed_solution_is_valid() {
    let seeds = root().join("datasets/seeds");
    let mut pairs = 0;
    for entry in std::fs::read_dir(&seeds).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".solutions.txt") else {
            continue;
        };
        if stem.ends_with(".as_printed") {
            continue;
        }
        let puzzles = format!("datasets/seeds/{stem}.txt");
        let solutions = format!("datasets/seeds/{name}");
        let variant = if stem.contains(".diagonal") {
            "diagonal"
        } else {
            "classic"
        };
        let out = bench(&["check", &puzzles, &solutions, "--variant", variant]);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{puzzles}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(stdout.contains(" 0 failed"), "{stdout}");
        assert_eq!(
            stdout.matches(": ok (solution valid)").count() + 1,
            stdout.lines().count(),
            "{stdout}"
        );
        pairs += 1;
    }
    assert!(pairs >= 5, "only {pairs} puzzle/solution pairs found");
}

#[test]
fn damaged_seed_grids_fail_with_their_reason() {
    let out = bench(&[
        "check",
        "datasets/seeds/000_unicamp_ilp.diagonal.as_printed.txt",
        "--variant",
        "diagonal",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("FAIL contradictory givens: row 2 has digit 4 twice (at r2c2 and r2c5)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL contradictory givens: block 5 has digit 7 twice (at r4c5 and r5c6)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL contradictory givens: block 8 has digit 5 twice (at r7c6 and r8c5)"),
        "{stdout}"
    );
    // Paper 002's Figure 1a as printed is consistent but disagrees with its printed solution.
    let out = bench(&[
        "check",
        "datasets/seeds/002_takano.as_printed.txt",
        "datasets/seeds/002_takano.as_printed.solutions.txt",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("FAIL solution invalid: cell r1c6 is given as 8 but holds 9"),
        "{}",
        text(&out.stdout)
    );
    // Grids printed with missing rows do not parse, each reported at its first line.
    let out = bench(&["check", "datasets/seeds/000_unicamp_ilp.damaged.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(
        stderr
            .lines()
            .all(|l| l.contains("the grid block starting here has 8 rows, 9 expected")),
        "{stderr}"
    );
}

#[test]
fn malformed_inputs_give_one_error_line_and_a_nonzero_exit() {
    let dir = root().join("tests/malformed");
    let expected = std::fs::read_to_string(dir.join("EXPECTED.txt")).unwrap();
    let mut n = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let (file, error) = line.split_once('\t').expect("FILE<TAB>ERROR");
        let rel = format!("tests/malformed/{file}");
        let want = format!("error: tests/malformed/{error}");
        for cmd in ["show", "check"] {
            let out = bench(&[cmd, &rel]);
            assert_eq!(out.status.code(), Some(2), "{cmd} {rel}");
            let stderr = text(&out.stderr);
            assert_eq!(
                stderr.lines().collect::<Vec<_>>(),
                [want.as_str()],
                "{cmd} {rel}"
            );
        }
        n += 1;
    }
    assert!(n >= 10);
}

#[test]
fn show_and_convert_round_trip() {
    let out = bench(&["convert", "datasets/seeds/001_jump.txt", "--to", "block"]);
    assert!(out.status.success());
    let blocks = text(&out.stdout);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("b.txt");
    std::fs::write(&p, &blocks).unwrap();
    let back = bench(&["convert", p.to_str().unwrap(), "--to", "line"]);
    assert!(back.status.success());
    let original = std::fs::read_to_string(root().join("datasets/seeds/001_jump.txt")).unwrap();
    let lines = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&text(&back.stdout)), lines(&original));
    let shown = bench(&["show", "datasets/seeds/001_jump.25x25.txt"]);
    let s = text(&shown.stdout);
    assert!(s.contains("25x25, 344 givens"), "{s}");
    assert!(s.contains("---------------+----------------"), "{s}");
}
