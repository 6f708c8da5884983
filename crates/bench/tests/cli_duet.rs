//! `run --baseline`: a duet of the binary against itself (both through its `serve`), the same
//! with one method made 50 % slower on one side (the test-only slowdown), a resumed duet, and
//! what a duet refuses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

mod binary;
use binary::{bench, csv_rows as rows_of, root};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The binary under test, as the old build of a duet.
fn program() -> &'static str {
    env!("CARGO_BIN_EXE_sudoku-bench")
}

/// Six exact methods on three sets of 40 public 9×9 puzzles, three trials each, interleaved:
/// eighteen lines, enough for the comparison's noise to be measured by its quartile rule. A
/// slowed method's three lines are a sixth of them, so the run's shift and noise stand on the
/// others (with four methods, a quarter of the lines moved, and the shift's estimate with them).
fn eighteen_lines(dir: &Path) -> PathBuf {
    let public = root().join("datasets/public");
    let magictour = public.join("magictour_top1465.txt");
    let exp = dir.join("duet.toml");
    std::fs::write(
        &exp,
        format!(
            r#"name = "duet"
seed = 11
trials = 3
interleave = true
[budget]
time_limit = 5
[[method]]
name = "prop"
[[method]]
name = "dlx"
[[method]]
name = "norvig"
[[method]]
name = "backtrack-bits"
[[method]]
name = "gac"
[[method]]
name = "sat"
[[instances]]
file = "{m}"
skip = 300
limit = 40
set = "magictour 301-340"
[[instances]]
file = "{m}"
skip = 700
limit = 40
set = "magictour 701-740"
[[instances]]
file = "{top95}"
limit = 40
set = "top95 1-40"
"#,
            m = magictour.display(),
            top95 = public.join("norvig_top95.txt").display()
        ),
    )
    .unwrap();
    exp
}

/// `run EXP --out DIR --baseline (this binary) --no-plots EXTRA…`, which must succeed.
fn duet(dir: &Path, exp: &Path, out: &str, extra: &[&str]) -> (PathBuf, String) {
    let res = dir.join(out);
    let mut args = vec![
        "run",
        exp.to_str().unwrap(),
        "--out",
        res.to_str().unwrap(),
        "--baseline",
        program(),
        "--no-plots",
    ];
    args.extend_from_slice(extra);
    let o = bench(dir, &args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    (res, err)
}

/// The compare.md table's lines that are flagged: (configuration, change).
fn flagged(md: &str) -> Vec<(String, String)> {
    md.lines()
        .filter(|l| {
            l.starts_with("| ")
                && !l.starts_with("| **")
                && !l.starts_with("| Config")
                && !l.starts_with("| ---")
        })
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let change = cells[cells.len() - 2].trim_matches('*').to_string();
            (!change.starts_with("unchanged")).then(|| (cells[1].to_string(), change))
        })
        .collect()
}

#[test]
fn a_duet_of_the_binary_against_itself_flags_nothing_and_a_slowed_method_alone() {
    let dir = tempfile::tempdir().unwrap();
    let exp = eighteen_lines(dir.path());
    let (aa, err) = duet(dir.path(), &exp, "aa", &[]);
    // Both builds ran every trial, from the same seed, and every answer was verified.
    let new = rows_of(&aa.join("trials.csv"));
    let old = rows_of(&aa.join("baseline/trials.csv"));
    assert_eq!((new.len(), old.len()), (6 * 120 * 3, 6 * 120 * 3));
    let key = |r: &BTreeMap<String, String>| {
        (
            r["method"].clone(),
            r["instance"].clone(),
            r["trial"].clone(),
        )
    };
    let old_by: BTreeMap<_, _> = old.iter().map(|r| (key(r), r)).collect();
    for r in &new {
        let o = old_by[&key(r)];
        assert_eq!(
            (r["seed"].as_str(), r["status"].as_str()),
            (o["seed"].as_str(), "solved")
        );
        assert_eq!(
            (o["status"].as_str(), o["verified"].as_str()),
            ("solved", "true")
        );
        // Each build's `serve` was handed the trial's seed, and says so.
        for row in [o, r] {
            assert!(
                row["extra"].contains(&format!("seed={}", r["seed"])),
                "{row:?}"
            );
            assert!(!row["solve_ms"].is_empty(), "{row:?}");
        }
        assert!(o["extra"].contains("duet=baseline") && r["extra"].contains("duet=new"));
        // The same search on both sides: the same nodes.
        assert_eq!(r["nodes"], o["nodes"], "{r:?} {o:?}");
    }
    // Who went first alternates: half the trials each.
    let firsts = new
        .iter()
        .filter(|r| r["extra"].contains("duet_first=new"))
        .count();
    assert_eq!(firsts, new.len() / 2);
    let md = std::fs::read_to_string(aa.join("compare.md")).unwrap();
    assert!(md.contains("on 18 configuration × group lines"), "{md}");
    assert!(md.contains("- A duet: the old build"), "{md}");
    assert_eq!(flagged(&md), [], "{md}");
    assert!(
        err.contains(": 0 regressions, 0 improvements, 18 unchanged"),
        "{err}"
    );
    assert!(aa.join("compare.html").is_file());
    assert!(aa.join("baseline/findings.md").is_file());
    let meta = std::fs::read_to_string(aa.join("baseline/meta.json")).unwrap();
    assert!(meta.contains("\"side\": \"baseline\""), "{meta}");

    // `dlx` 50 % slower in the old build: its lines, and nothing else, are flagged (an
    // improvement of the new build). 50 %, not 25 %: this checks the mechanism, and `dlx` at
    // 25 % is missed on a line now and then (its calls are the shortest; the compare-duet study
    // measures the power at 25 %, docs/notes/compare-duet.md).
    let (slow, err) = duet(
        dir.path(),
        &exp,
        "slow-old",
        &["--test-slowdown", "baseline:dlx=50"],
    );
    let md = std::fs::read_to_string(slow.join("compare.md")).unwrap();
    // Of its three lines, one at least, and no other method's.
    let only = |md: &str, change: &str| {
        let f = flagged(md);
        assert!(!f.is_empty(), "{md}");
        for (config, c) in &f {
            assert_eq!((config.as_str(), c.as_str()), ("dlx", change), "{md}");
        }
    };
    only(&md, "improvement");
    assert!(
        md.contains("TEST ONLY: run A made configurations slower on purpose (`baseline:dlx=50`)"),
        "{md}"
    );
    assert!(err.contains("WARNING: TEST ONLY"), "{err}");
    let old = rows_of(&slow.join("baseline/trials.csv"));
    for r in &old {
        assert_eq!(
            r["extra"].contains("test_slowdown=50"),
            r["method"] == "dlx",
            "{r:?}"
        );
    }
    // In this build instead: a regression of `dlx` alone, and its documents say so.
    let (slow, _) = duet(dir.path(), &exp, "slow-new", &["--test-slowdown", "dlx=50"]);
    let md = std::fs::read_to_string(slow.join("compare.md")).unwrap();
    only(&md, "regression");
    let findings = std::fs::read_to_string(slow.join("findings.md")).unwrap();
    assert!(findings.contains("> **TEST ONLY: this run made configurations slower on purpose (`--test-slowdown dlx=50`)"), "{findings}");
    let meta = std::fs::read_to_string(slow.join("meta.json")).unwrap();
    assert!(
        meta.contains("\"test_slowdown\": [\n    \"dlx=50\"\n  ]"),
        "{meta}"
    );
    for r in rows_of(&slow.join("trials.csv")) {
        assert_eq!(
            r["extra"].contains("test_slowdown=50"),
            r["method"] == "dlx",
            "{r:?}"
        );
    }
}

/// A small duet: `prop` and `tabu` (randomized) on 8 puzzles, two trials each.
fn small(dir: &Path) -> PathBuf {
    let exp = dir.join("small.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"small\"\nseed = 2\ntrials = 2\n[budget]\ntime_limit = 10\n[[method]]\nname = \"prop\"\n[[method]]\nname = \"tabu\"\n[[instances]]\nfile = \"{}\"\nlimit = 8\n",
            root().join("datasets/public/norvig_top95.txt").display()
        ),
    )
    .unwrap();
    exp
}

#[test]
fn a_randomized_method_makes_the_same_search_in_both_builds_and_a_duet_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let exp = small(dir.path());
    let (res, _) = duet(dir.path(), &exp, "r", &[]);
    let new = rows_of(&res.join("trials.csv"));
    let old = rows_of(&res.join("baseline/trials.csv"));
    assert_eq!((new.len(), old.len()), (32, 32));
    // The same seed, so tabu's search takes the same number of steps on both sides.
    for (n, o) in new.iter().zip(&old) {
        assert_eq!(
            (&n["instance"], &n["trial"], &n["iterations"]),
            (&o["instance"], &o["trial"], &o["iterations"])
        );
    }
    assert!(new
        .iter()
        .any(|r| r["method"] == "tabu" && r["iterations"] != "0"));
    // Interrupted: the last 5 rows of this build and the last 9 of the old one lost.
    let cut = |path: &Path, keep: usize| {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        std::fs::write(path, lines[..=keep].join("\n") + "\n").unwrap();
    };
    cut(&res.join("trials.csv"), 27);
    cut(&res.join("baseline/trials.csv"), 23);
    let (res, _) = duet(dir.path(), &exp, "r", &["--resume"]);
    let again = rows_of(&res.join("trials.csv"));
    let again_old = rows_of(&res.join("baseline/trials.csv"));
    assert_eq!((again.len(), again_old.len()), (32, 32));
    // The first 27 rows kept as they were, the rest run again.
    assert_eq!(again[..27], new[..27]);
    assert!(std::fs::read_to_string(res.join("compare.md"))
        .unwrap()
        .contains("on 2 configuration × group lines"));
    // Resumed without the old build, or a plain run's folder resumed as a duet: refused.
    let r = res.to_str().unwrap();
    let o = bench(
        dir.path(),
        &[
            "run",
            exp.to_str().unwrap(),
            "--out",
            r,
            "--resume",
            "--no-plots",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("holds a duet run"), "{}", text(&o).1);
    let plain = dir.path().join("plain");
    let p = plain.to_str().unwrap();
    let e = exp.to_str().unwrap();
    assert!(bench(dir.path(), &["run", e, "--out", p, "--no-plots"])
        .status
        .success());
    let o = bench(
        dir.path(),
        &[
            "run",
            e,
            "--out",
            p,
            "--resume",
            "--baseline",
            program(),
            "--no-plots",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("holds a run without a baseline"),
        "{}",
        text(&o).1
    );
}

#[test]
fn what_a_duet_cannot_run_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let exp = small(dir.path());
    let e = exp.to_str().unwrap();
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["run", e, "--no-plots", "--out"];
        let out = dir.path().join("x");
        all.push(out.to_str().unwrap());
        all.extend_from_slice(args);
        let o = bench(dir.path(), &all);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.join("trials.csv").exists(), "{args:?}");
    };
    refused(
        &["--baseline", program(), "--jobs", "2"],
        "a duet runs one trial at a time",
    );
    refused(
        &["--baseline", program(), "--shard", "1/2"],
        "a duet runs whole",
    );
    refused(
        &["--baseline", "/no/such/sudoku-bench"],
        "--baseline /no/such/sudoku-bench:",
    );
    refused(&["--baseline", "/bin/echo"], "not sudoku-bench's");
    refused(
        &["--test-slowdown", "baseline:prop=25"],
        "and there is none (--baseline PATH)",
    );
    refused(
        &["--test-slowdown", "gac=25"],
        "no configuration of the plan is named `gac`",
    );
    let o = bench(dir.path(), &["run", e, "--test-slowdown", "prop=0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("not a slowdown in per cent"),
        "{}",
        text(&o).1
    );
    // A node limit is not given to `serve`, and another kind is not what it answers.
    let limited = dir.path().join("limited.toml");
    std::fs::write(
        &limited,
        std::fs::read_to_string(&exp)
            .unwrap()
            .replace("time_limit = 10", "time_limit = 10\nnode_limit = 1000"),
    )
    .unwrap();
    let o = bench(
        dir.path(),
        &["run", limited.to_str().unwrap(), "--baseline", program()],
    );
    assert!(
        text(&o).1.contains("has a node or iteration limit"),
        "{}",
        text(&o).1
    );
    let relax = dir.path().join("relax.toml");
    std::fs::write(
        &relax,
        format!(
            "name = \"relax\"\nseed = 1\nkind = \"relax\"\n[[method]]\nname = \"ilp\"\n[[instances]]\nfile = \"{}\"\nlimit = 1\n",
            root().join("datasets/public/norvig_top95.txt").display()
        ),
    )
    .unwrap();
    let o = bench(
        dir.path(),
        &["run", relax.to_str().unwrap(), "--baseline", program()],
    );
    assert!(
        text(&o)
            .1
            .contains("a duet runs kind = \"solve\" or \"count\""),
        "{}",
        text(&o).1
    );
}

#[test]
fn a_test_slowdown_in_a_plain_run_is_recorded_everywhere_and_said_loudly() {
    let dir = tempfile::tempdir().unwrap();
    let exp = small(dir.path());
    let res = dir.path().join("slow");
    let o = bench(
        dir.path(),
        &[
            "run",
            exp.to_str().unwrap(),
            "--out",
            res.to_str().unwrap(),
            "--no-plots",
            "--test-slowdown",
            "prop=50",
        ],
    );
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("TEST ONLY: `prop` is made 50 % slower on purpose"),
        "{err}"
    );
    assert!(
        err.contains("WARNING: TEST ONLY: this run slowed prop=50 on purpose"),
        "{err}"
    );
    for r in rows_of(&res.join("trials.csv")) {
        assert_eq!(
            r["extra"].contains("test_slowdown=50"),
            r["method"] == "prop",
            "{r:?}"
        );
    }
    let meta = std::fs::read_to_string(res.join("meta.json")).unwrap();
    assert!(
        meta.contains("\"test_slowdown\": [\n    \"prop=50\"\n  ]"),
        "{meta}"
    );
    let findings = std::fs::read_to_string(res.join("findings.md")).unwrap();
    assert!(
        findings.starts_with("# Findings: small\n\n> **TEST ONLY"),
        "{findings}"
    );
    // The report says it under its title.
    let o = bench(dir.path(), &["report", res.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o).1);
    let html = std::fs::read_to_string(res.join("report.html")).unwrap();
    assert!(html.contains("<strong style=\"color:#b00\">TEST ONLY: this run made configurations slower on purpose"), "{}", &html[..2000]);
    // A real run says nothing of it.
    let plain = dir.path().join("plain");
    let o = bench(
        dir.path(),
        &[
            "run",
            exp.to_str().unwrap(),
            "--out",
            plain.to_str().unwrap(),
            "--no-plots",
        ],
    );
    assert!(o.status.success());
    assert!(!text(&o).1.contains("TEST ONLY"));
    assert!(!std::fs::read_to_string(plain.join("meta.json"))
        .unwrap()
        .contains("test_slowdown"));
    assert!(!std::fs::read_to_string(plain.join("findings.md"))
        .unwrap()
        .contains("TEST ONLY"));
}
