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

/// Runs a three-method experiment named `name` on the 7 puzzles of 000_unicamp_ilp.txt into
/// `dir/out`.
fn run(dir: &Path, name: &str, out: &str) -> PathBuf {
    let puzzles = root().join("datasets/seeds/000_unicamp_ilp.txt");
    let exp = dir.join(format!("{name}.toml"));
    std::fs::write(
        &exp,
        format!(
            "name = \"{name}\"\nseed = 5\ntrials = 1\n[[method]]\nname = \"prop\"\n[[method]]\nname = \"dlx\"\n[[method]]\nname = \"norvig\"\n[[instances]]\nfile = \"{}\"\n",
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
    assert!(out.contains("B against A on 3 configuration × group lines:"));
    assert!(out.contains("| prop | 7 | 7/7 | 7/7 |"), "{out}");
    assert!(out.contains("| dlx | 7 | 7/7 | 7/7 |"), "{out}");
    // From here on B is A's own rows made slower, so the verdicts below depend on the slow-down
    // alone: two real runs of sub-millisecond solves differ by noise, and a line whose noise
    // pulled it back towards 1 was once judged "unchanged" instead of "moved with the run".
    let b_rows = std::fs::read_to_string(a.join("trials.csv")).unwrap();
    // Every method three times slower: the whole run's shift, said first; no method regressed.
    slow_down(&b, &b_rows, |_| true);
    let o = bench(dir.path(), &["compare", sa, sb, "--fail-on-regression"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("\n\nB's whole run is ")
            && out.contains("the machine, or a change that touches every method"),
        "{out}"
    );
    assert!(
        out.contains(": 0 regressions, 0 improvements, 3 unchanged"),
        "{out}"
    );
    assert_eq!(
        out.matches("| unchanged (moved with the run) |").count(),
        3,
        "{out}"
    );
    // `dlx` alone three times slower: its regression, beyond any noise.
    slow_down(&b, &b_rows, |method| method == "dlx");
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
        err.contains(": 1 regression, 0 improvements, 2 unchanged (threshold 10 %)."),
        "{err}"
    );
    let md = std::fs::read_to_string(report.join("compare.md")).unwrap();
    assert_eq!(md.matches("| **regression** |").count(), 1, "{md}");
    assert!(md.contains("Regressions: `dlx` at 9×9"), "{md}");
    let html = std::fs::read_to_string(report.join("compare.html")).unwrap();
    assert!(html.contains("<section id=\"compare\">"));
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!html.contains("http:") && !html.contains("https:") && !html.contains("src="));
    // Without the flag a regression is reported, not failed.
    assert!(bench(dir.path(), &["compare", sa, sb]).status.success());
}

/// Writes `rows` (a trials.csv's text) back into `dir` with the wall time of every row whose
/// method `slower` picks made three times longer.
fn slow_down(dir: &Path, rows: &str, slower: impl Fn(&str) -> bool) {
    let mut r = csv::Reader::from_reader(rows.as_bytes());
    let headers = r.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (wall, method) = (col("wall_ms"), col("method"));
    let mut w = csv::Writer::from_path(dir.join("trials.csv")).unwrap();
    w.write_record(&headers).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        let slow = slower(&rec[method]);
        let fields: Vec<String> = rec
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if i == wall && slow {
                    (f.parse::<f64>().unwrap() * 3.0).to_string()
                } else {
                    f.to_string()
                }
            })
            .collect();
        w.write_record(&fields).unwrap();
    }
    w.flush().unwrap();
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
