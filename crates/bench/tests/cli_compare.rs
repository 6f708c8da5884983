//! `compare` through the binary: two runs of one small experiment, the same run made slower
//! (a regression), a committed run against itself, and the folders it refuses.

use std::path::{Path, PathBuf};
use std::process::Output;

mod binary;
use binary::{bench, root};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs a two-method experiment named `name` on the 7 puzzles of 000_unicamp_ilp.txt into
/// `dir/out`.
fn run(dir: &Path, name: &str, out: &str) -> PathBuf {
    let puzzles = root().join("datasets/seeds/000_unicamp_ilp.txt");
    let exp = dir.join(format!("{name}.toml"));
    std::fs::write(
        &exp,
        format!(
            "name = \"{name}\"\nseed = 5\ntrials = 1\n[[method]]\nname = \"prop\"\n[[method]]\nname = \"dlx\"\n[[instances]]\nfile = \"{}\"\n",
            puzzles.display()
        ),
    )
    .unwrap();
    let res = dir.join(out);
    let o = bench(
        dir,
        &[
            "run",
            exp.to_str().unwrap(),
            "--out",
            res.to_str().unwrap(),
            "--no-plots",
        ],
    );
    assert!(o.status.success(), "{}", text(&o).1);
    res
}

#[test]
fn two_runs_compare_and_a_slower_one_is_a_regression() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), "pair", "a");
    let b = run(dir.path(), "pair", "b");
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    // B as it ran: every line compared on the 7 shared instances, printed as Markdown.
    let o = bench(dir.path(), &["compare", sa, sb]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.starts_with("# Compare: pair\n"), "{out}");
    assert!(out.contains("B against A on 2 configuration × group lines:"));
    assert!(out.contains("| prop | 7 | 7/7 | 7/7 |"), "{out}");
    assert!(out.contains("| dlx | 7 | 7/7 | 7/7 |"), "{out}");
    // B three times slower: both lines regress, beyond any noise.
    let csv = std::fs::read_to_string(b.join("trials.csv")).unwrap();
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let headers = r.headers().unwrap().clone();
    let wall = headers.iter().position(|h| h == "wall_ms").unwrap();
    let mut w = csv::Writer::from_path(b.join("trials.csv")).unwrap();
    w.write_record(&headers).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        let fields: Vec<String> = rec
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if i == wall {
                    (f.parse::<f64>().unwrap() * 3.0 + 1.0).to_string()
                } else {
                    f.to_string()
                }
            })
            .collect();
        w.write_record(&fields).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let report = dir.path().join("cmp");
    let o = bench(
        dir.path(),
        &[
            "compare",
            sa,
            sb,
            "--out",
            report.to_str().unwrap(),
            "--fail-on-regression",
        ],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains(": 2 regressions, 0 improvements, 0 unchanged (threshold 10 %)."),
        "{err}"
    );
    let md = std::fs::read_to_string(report.join("compare.md")).unwrap();
    assert_eq!(md.matches("| **regression** |").count(), 2, "{md}");
    let html = std::fs::read_to_string(report.join("compare.html")).unwrap();
    assert!(html.contains("<section id=\"compare\">"));
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!html.contains("http:") && !html.contains("https:") && !html.contains("src="));
    // Without the flag a regression is reported, not failed.
    assert!(bench(dir.path(), &["compare", sa, sb]).status.success());
}

#[test]
fn a_committed_run_against_itself_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let run = root().join("results/large-orders-targets");
    let r = run.to_str().unwrap();
    let o = bench(dir.path(), &["compare", r, r]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains(
        "B against A on 50 configuration × group lines: 0 regressions, 0 improvements, 50 unchanged (threshold 10 %)."
    ), "{out}");
    assert!(out.contains("| 1.00 (1.00–1.00) |"));
}

#[test]
fn other_experiments_and_bad_folders_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), "one", "a");
    let b = run(dir.path(), "two", "b");
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = bench(dir.path(), &["compare", sa, sb]);
    assert_eq!(o.status.code(), Some(2));
    let (_, err) = text(&o);
    assert!(
        err.contains("experiment `one`")
            && err.contains("compare needs two runs of one experiment"),
        "{err}"
    );
    let o = bench(dir.path(), &["compare", sa, dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("trials.csv not found"));
    let o = bench(dir.path(), &["compare", sa, sa, "--threshold=-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--threshold -1"));
}
