//! `run`, `plot` and `merge` through the binary: outputs of a real run, resume after SIGKILL,
//! and the Slurm scripts' shards merged back into the unsharded run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod binary;
use binary::root;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_sudoku-bench")
}

fn bench(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn experiment(dir: &Path, name: &str, trials: u32) -> PathBuf {
    let puzzles = root().join("datasets/seeds/001_jump.txt");
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(
        &p,
        format!(
            "name = \"{name}\"\nseed = 3\ntrials = {trials}\n[[method]]\nname = \"prop\"\nparams = {{ naked_pairs = [false, true] }}\n[[method]]\nname = \"norvig\"\n[[instances]]\nfile = \"{}\"\n",
            puzzles.display()
        ),
    )
    .unwrap();
    p
}

/// Rows as text without the timing columns (wall_ms, cpu_ms, build_ms, time_to_best_ms) and
/// the memory measurement (peak_rss_kb).
fn rows_sans_timing(path: &Path) -> Vec<String> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    let skip: Vec<usize> = headers
        .iter()
        .enumerate()
        .filter(|(_, h)| h.ends_with("_ms") || *h == "peak_rss_kb")
        .map(|(i, _)| i)
        .collect();
    let mut rows: Vec<(usize, String)> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            let task: usize = rec[0].parse().unwrap();
            let kept: Vec<&str> = rec
                .iter()
                .enumerate()
                .filter(|(i, _)| !skip.contains(i))
                .map(|(_, f)| f)
                .collect();
            (task, kept.join(","))
        })
        .collect();
    rows.sort();
    rows.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn a_run_writes_csv_tables_charts_and_meta() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "small", 2);
    let out = bench(dir.path(), &["run", exp.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let res = dir.path().join("results/small");
    for f in [
        "trials.csv",
        "summary.csv",
        "summary.md",
        "summary.tex",
        "meta.json",
        "boxplot.svg",
        "boxplot.png",
    ] {
        assert!(res.join(f).exists(), "{f} missing");
    }
    let rows = rows_sans_timing(&res.join("trials.csv"));
    // (2 prop configurations + norvig) × 4 puzzles × 2 trials, all solved and verified.
    assert_eq!(rows.len(), 24);
    assert!(rows.iter().all(|r| r.contains(",solved,true,")), "{rows:?}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(res.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["experiment"], "small");
    assert!(meta["experiment_text"]
        .as_str()
        .unwrap()
        .contains("naked_pairs"));
    assert!(meta["finished"].is_string());
    // A second plain run refuses to overwrite; --resume has nothing left to do.
    let again = bench(dir.path(), &["run", exp.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let resumed = bench(dir.path(), &["run", exp.to_str().unwrap(), "--resume"]);
    assert!(resumed.status.success());
    assert_eq!(rows_sans_timing(&res.join("trials.csv")).len(), 24);
    // plot redraws from the CSV alone.
    std::fs::remove_file(res.join("boxplot.png")).unwrap();
    std::fs::remove_file(res.join("summary.md")).unwrap();
    assert!(bench(dir.path(), &["plot", res.to_str().unwrap()])
        .status
        .success());
    assert!(res.join("boxplot.png").exists() && res.join("summary.md").exists());
}

#[test]
fn resume_after_sigkill_loses_nothing_and_duplicates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "long", 1000);
    let reference = bench(
        dir.path(),
        &["run", exp.to_str().unwrap(), "--out", "ref", "--no-plots"],
    );
    assert!(reference.status.success());
    let want = rows_sans_timing(&dir.path().join("ref/trials.csv"));
    assert_eq!(want.len(), 3 * 4 * 1000);
    // Kill the same run partway (SIGKILL: no chance to clean up), as often as it takes to
    // catch it in the middle.
    let trials = dir.path().join("cut/trials.csv");
    let mut killed_mid_run = false;
    for _attempt in 0..5 {
        let _ = std::fs::remove_dir_all(dir.path().join("cut"));
        let mut child = Command::new(bin())
            .args(["run", exp.to_str().unwrap(), "--out", "cut", "--no-plots"])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Kill as soon as some rows are on disk, whatever the build's speed.
        for _ in 0..5000 {
            let done = std::fs::read_to_string(&trials)
                .map(|t| t.lines().count())
                .unwrap_or(0);
            if done > 10 {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let done = std::fs::read_to_string(&trials)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if done > 1 && done < want.len() {
            killed_mid_run = true;
            break;
        }
    }
    assert!(killed_mid_run, "could not interrupt the run midway");
    let out = bench(
        dir.path(),
        &[
            "run",
            exp.to_str().unwrap(),
            "--out",
            "cut",
            "--resume",
            "--no-plots",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(rows_sans_timing(&trials), want);
}

/// (instance, trial, method and params) of each row, in the order the rows were written.
fn run_order(path: &Path) -> Vec<(String, String, String)> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (i, t, m, p) = (col("instance"), col("trial"), col("method"), col("params"));
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let method = format!("{} {}", &rec[m], &rec[p]);
            (rec[i].to_string(), rec[t].to_string(), method)
        })
        .collect()
}

#[test]
fn interleave_runs_every_method_on_an_instance_before_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "order", 2);
    let text = std::fs::read_to_string(&exp).unwrap();
    let mixed = dir.path().join("order-interleaved.toml");
    std::fs::write(&mixed, format!("interleave = true\n{text}")).unwrap();
    for (file, out) in [(&exp, "by-method"), (&mixed, "by-instance")] {
        let o = bench(
            dir.path(),
            &["run", file.to_str().unwrap(), "--out", out, "--no-plots"],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let by_method = run_order(&dir.path().join("by-method/trials.csv"));
    let by_instance = run_order(&dir.path().join("by-instance/trials.csv"));
    // 3 configurations x 4 puzzles x 2 trials.
    assert_eq!(by_method.len(), 24);
    let methods: Vec<&String> = by_method.iter().step_by(8).map(|r| &r.2).collect();
    assert!(by_method[..8].iter().all(|r| &r.2 == methods[0]));
    // Interleaved: each (instance, trial) in turn, the three configurations in the file's order.
    for (k, block) in by_instance.chunks(3).enumerate() {
        assert!(block
            .iter()
            .all(|r| (&r.0, &r.1) == (&block[0].0, &block[0].1)));
        assert_eq!(
            block.iter().map(|r| &r.2).collect::<Vec<_>>(),
            methods,
            "block {k}"
        );
    }
    let mut seen: Vec<_> = by_instance
        .iter()
        .step_by(3)
        .map(|r| (&r.0, &r.1))
        .collect();
    let firsts: Vec<_> = by_method[..8].iter().map(|r| (&r.0, &r.1)).collect();
    assert_eq!(seen, firsts, "instances and trials in the plan's order");
    seen.dedup();
    assert_eq!(seen.len(), 8);
    // The same trials, seeds and answers either way.
    assert_eq!(
        rows_sans_timing(&dir.path().join("by-method/trials.csv")),
        rows_sans_timing(&dir.path().join("by-instance/trials.csv"))
    );
}

#[test]
fn slurm_shards_merged_equal_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "sweep", 3);
    assert!(bench(
        dir.path(),
        &["run", exp.to_str().unwrap(), "--out", "whole", "--no-plots"]
    )
    .status
    .success());
    for k in 1..=3 {
        let out = Command::new("bash")
            .arg(root().join("scripts/slurm/shard.sbatch"))
            .current_dir(dir.path())
            .env("EXP", &exp)
            .env("SHARDS", "3")
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("BIN", bin())
            .env("EXTRA", "--no-plots")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::new("bash")
        .arg(root().join("scripts/slurm/merge.sbatch"))
        .current_dir(dir.path())
        .env("NAME", "sweep")
        .env("SHARDS", "3")
        .env("BIN", bin())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        rows_sans_timing(&dir.path().join("results/sweep/trials.csv")),
        rows_sans_timing(&dir.path().join("whole/trials.csv"))
    );
    assert!(dir.path().join("results/sweep/summary.md").exists());
}

#[test]
fn bad_experiment_files_name_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "bad", 1);
    let text = std::fs::read_to_string(&exp).unwrap();
    let cases = [
        (
            text.replace("trials = 1", "trials = 1\ntimelimit = 3"),
            "unknown field `timelimit`",
        ),
        (
            text.replace(
                "name = \"norvig\"",
                "name = \"norvig\"\nparams = { speed = 1 }",
            ),
            "method[1] (`norvig`): method `norvig` has no parameter `speed`",
        ),
        (
            text.replace("naked_pairs = [false, true]", "naked_pairs = \"maybe\""),
            "parameter `naked_pairs`: `maybe` is not valid",
        ),
        (
            text.replace("name = \"prop\"", "name = \"quantum\""),
            "unknown method `quantum`",
        ),
    ];
    for (body, want) in cases {
        std::fs::write(&exp, &body).unwrap();
        let out = bench(dir.path(), &["run", exp.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "want {want:?} in {err}");
    }
}

#[test]
fn fresh_removes_every_output_of_an_earlier_run() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "fresh", 1);
    let res = dir.path().join("results/fresh");
    assert!(bench(dir.path(), &["run", exp.to_str().unwrap()])
        .status
        .success());
    // Stale files an earlier, different run could have left (a sweep of `prop` and a chart
    // this run does not draw, a `.tmp` a killed run left), and files that are not ours: a
    // chart or a photo of the user's is no output, whatever its extension.
    for f in [
        "sweep_prop_locked_candidates.svg",
        "sweep_prop_locked_candidates.png",
        "convergence.png",
        "summary.md.tmp",
        "findings.md",
        "instances.txt",
        "traces.csv",
        "notes.md",
        "photo.png",
        "my-chart.svg",
    ] {
        std::fs::write(res.join(f), "stale").unwrap();
    }
    let out = bench(
        dir.path(),
        &["run", exp.to_str().unwrap(), "--fresh", "--no-plots"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut left: Vec<String> = std::fs::read_dir(&res)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    // Only what this run wrote (no charts: --no-plots), and the files that are not outputs.
    assert_eq!(
        left,
        [
            "findings.md",
            "meta.json",
            "my-chart.svg",
            "notes.md",
            "photo.png",
            "stats.md",
            "stats.tex",
            "summary.csv",
            "summary.md",
            "summary.tex",
            "trials.csv"
        ]
    );
    assert_eq!(rows_sans_timing(&res.join("trials.csv")).len(), 12);
}

/// The commit a run records is the build's, whatever folder the run is started in: a folder
/// outside any repository, and the top of another repository with a commit of its own.
#[test]
fn a_run_records_the_commit_it_was_built_from_in_any_folder() {
    let git = |dir: &Path, args: &[&str]| {
        let o = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs");
        assert!(o.status.success(), "git {args:?}: {o:?}");
        String::from_utf8(o.stdout).unwrap().trim().to_string()
    };
    let checkout = root();
    let head = git(&checkout, &["rev-parse", "--short=12", "HEAD"]);
    // The build's label, as `--version` names it: the commit, `+dirty` when the build script
    // found the sources changed. (Not compared with `git status` now: a source edited while
    // the tests run would make that a race; the build script reruns on every source change.)
    let version = bench(&checkout, &["--version"]);
    let text = String::from_utf8_lossy(&version.stdout).into_owned();
    let label = text
        .trim_end()
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once("(commit "))
        .map(|(_, l)| l.to_string())
        .unwrap_or_else(|| panic!("{text:?}"));
    let dirty = label.ends_with("+dirty");
    assert_eq!(label.trim_end_matches("+dirty"), head, "{text:?}");
    let outside = tempfile::tempdir().unwrap();
    let foreign = tempfile::tempdir().unwrap();
    git(foreign.path(), &["init", "-q"]);
    std::fs::write(foreign.path().join("f"), "x").unwrap();
    git(foreign.path(), &["add", "f"]);
    git(
        foreign.path(),
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "other",
        ],
    );
    let theirs = git(foreign.path(), &["rev-parse", "--short=12", "HEAD"]);
    assert_ne!(theirs, head);
    for dir in [outside.path(), foreign.path()] {
        let exp = experiment(dir, "where", 1);
        let out = bench(dir, &["run", exp.to_str().unwrap(), "--no-plots"]);
        assert!(out.status.success(), "{out:?}");
        let res = dir.join("results/where");
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(res.join("meta.json")).unwrap()).unwrap();
        assert_eq!(meta["commit"], head.as_str(), "run in {}", dir.display());
        assert_eq!(meta["dirty"], dirty, "run in {}", dir.display());
        let mut rows = csv::Reader::from_path(res.join("trials.csv")).unwrap();
        let col = rows
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "commit")
            .unwrap();
        for rec in rows.records() {
            assert_eq!(&rec.unwrap()[col], label.as_str());
        }
    }
}
