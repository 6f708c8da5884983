//! The figures the documentation quotes come from committed runs of clean builds, and the
//! tables that rank methods are reported on puzzles that no tuning study saw.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md, docs/*.md and crates/*/README.md: the user documentation, with its text.
fn user_pages() -> Vec<(String, String)> {
    let top = workspace();
    let mut paths = vec![top.join("README.md")];
    for dir in ["docs", "crates"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(top.join(dir))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .map(|p| {
                if dir == "crates" {
                    p.join("README.md")
                } else {
                    p
                }
            })
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "md"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.strip_prefix(&top).unwrap().display().to_string(), text)
        })
        .collect()
}

/// Whether `text` names the folder `results/FOLDER` (not a longer name that starts the same).
fn quotes(text: &str, folder: &str) -> bool {
    let needle = format!("results/{folder}");
    text.match_indices(&needle).any(|(i, _)| {
        !text[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// Every committed results folder (its meta.json tracked by git), as `NAME` or `studies/NAME`:
/// not the runs a user made there (the main job's `results/default/`).
fn committed_runs() -> Vec<String> {
    let mut runs: Vec<String> = git(&["ls-files", "--", "results"])
        .lines()
        .filter_map(|p| p.strip_prefix("results/")?.strip_suffix("/meta.json"))
        .filter(|run| run.matches('/').count() == usize::from(run.starts_with("studies/")))
        .map(str::to_string)
        .collect();
    runs.sort();
    runs
}

/// What `git ARGS` prints in the workspace (these tests read a git checkout).
fn git(args: &[&str]) -> String {
    let o = std::process::Command::new("git")
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?} (these tests read a git checkout): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn every_run_the_documentation_quotes_is_from_a_clean_committed_build() {
    let pages = user_pages();
    let mut quoted = 0;
    let mut dirty = Vec::new();
    for run in committed_runs() {
        let by: Vec<&str> = pages
            .iter()
            .filter(|(_, text)| quotes(text, &run))
            .map(|(p, _)| p.as_str())
            .collect();
        if by.is_empty() {
            continue;
        }
        quoted += 1;
        let dir = workspace().join("results").join(&run);
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
        let commit = meta["commit"].as_str().unwrap_or_default().to_string();
        let clean = meta["dirty"] == false
            && commit.len() == 12
            && commit.chars().all(|c| c.is_ascii_hexdigit());
        // Every row names the same build: no row of a dirty or another build mixed in.
        let mut rows = csv::Reader::from_path(dir.join("trials.csv")).unwrap();
        let col = rows.headers().unwrap().iter().position(|h| h == "commit");
        let mixed = col.is_some_and(|c| {
            rows.records()
                .any(|r| r.map_or(true, |r| r.get(c) != Some(commit.as_str())))
        });
        if !clean || mixed {
            dirty.push(format!(
                "results/{run} (commit {commit:?}, dirty {}, rows of another build: {mixed}; quoted by {})",
                meta["dirty"],
                by.join(", ")
            ));
        }
    }
    assert!(quoted >= 10, "only {quoted} quoted runs found");
    assert!(
        dirty.is_empty(),
        "runs quoted by the documentation but not from a clean committed build (run them \
         again from a clean build: commit first, `cargo build --release`, then the experiment \
         with --fresh):\n{}",
        dirty.join("\n")
    );
}

/// The `file = "…"` and `glob = "…"` values, and the `seed`, of an experiment file.
fn sources(path: &Path) -> (Vec<String>, Option<i64>) {
    let v: toml::Value = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let files = v
        .get("instances")
        .and_then(|i| i.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|i| {
                    i.get("file")
                        .or_else(|| i.get("glob"))
                        .and_then(|f| f.as_str())
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    (files, v.get("seed").and_then(|s| s.as_integer()))
}

#[test]
fn the_ranking_tables_are_reported_on_puzzles_no_study_tuned_on() {
    let studies: Vec<PathBuf> = std::fs::read_dir(workspace().join("scripts/studies"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    assert!(studies.len() > 20);
    let tuning: Vec<(String, Vec<String>, Option<i64>)> = studies
        .iter()
        .map(|p| {
            let (files, seed) = sources(p);
            (p.display().to_string(), files, seed)
        })
        .collect();
    // proper-puzzles: its puzzle files are the reporting set, read by no study.
    let (files, _) = sources(&workspace().join("scripts/experiments/proper-puzzles.toml"));
    assert!(!files.is_empty());
    for f in &files {
        assert!(f.contains("proper-report-"), "{f} is not a reporting set");
        for (study, theirs, _) in &tuning {
            assert!(!theirs.contains(f), "{study} tunes on {f}");
        }
    }
    // which-method and large-orders-targets-auto (the README's and hybrid's tables): puzzles
    // generated from a seed no study uses, and never read by a study from the run's folder.
    for name in ["which-method", "large-orders-targets-auto"] {
        let (files, seed) = sources(&workspace().join(format!("scripts/experiments/{name}.toml")));
        assert!(files.is_empty(), "{name} reads {files:?}");
        let seed = seed.unwrap_or_else(|| panic!("{name} has no seed"));
        for (study, theirs, s) in &tuning {
            assert_ne!(*s, Some(seed), "{study} uses {name}'s seed");
            assert!(
                !theirs
                    .iter()
                    .any(|f| f.contains(&format!("results/{name}/"))),
                "{study} reads {name}'s puzzles"
            );
        }
    }
}

/// README.md's picture shows the committed run of which-method, whose self-contained report is
/// committed where the README links it (docs/which-method-report.html): scripts/readme-picture.sh
/// remakes both and records the run's start in docs/report-picture.txt; a re-run without a new
/// picture and report fails here.
#[test]
fn the_readme_picture_and_report_are_of_the_committed_which_method_run() {
    let top = workspace();
    let record = std::fs::read_to_string(top.join("docs/report-picture.txt")).unwrap();
    let field = |key: &str| {
        record
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("docs/report-picture.txt has no `{key} = `"))
            .to_string()
    };
    let run = field("run");
    assert_eq!(run, "results/which-method");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(top.join(&run).join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(
        field("started"),
        meta["started"].as_str().unwrap(),
        "docs/report.png shows another run of {run}: bash scripts/readme-picture.sh"
    );
    let readme = std::fs::read_to_string(top.join("README.md")).unwrap();
    assert!(
        readme.contains("(docs/report.png)](docs/which-method-report.html)"),
        "README.md's picture should link docs/which-method-report.html"
    );
    let report = top.join("docs/which-method-report.html");
    let size = std::fs::metadata(&report).unwrap().len();
    assert!(size < 1 << 20, "{} is {size} bytes", report.display());
    let html = std::fs::read_to_string(&report).unwrap();
    let trials = std::fs::read_to_string(top.join(&run).join("trials.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert!(
        html.contains(&format!("{trials} trials")),
        "{} does not speak of the run's {trials} trials: write it again (sudoku-bench report {run})",
        report.display()
    );
}

/// docs/report.md's example of `compare` (the committed `large-orders-targets` run against its
/// previous committed version, taken from git history as the page shows) quotes what
/// `compare` says of the two: the comparison is run again here and every figure checked.
#[test]
fn the_report_compare_example_quotes_what_compare_says() {
    let top = workspace();
    let file = "results/large-orders-targets/trials.csv";
    let log = git(&["log", "--format=%h", "-n", "2", "--", file]);
    let before = log.lines().nth(1).unwrap_or_else(|| {
        panic!("{file} has no previous committed version here (a shallow clone?): docs/report.md's compare example needs the history")
    });
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("before");
    std::fs::create_dir(&old).unwrap();
    for f in ["trials.csv", "meta.json"] {
        let text = git(&[
            "show",
            &format!("{before}:results/large-orders-targets/{f}"),
        ]);
        std::fs::write(old.join(f), text).unwrap();
    }
    let out = dir.path().join("compare");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .arg("compare")
        .arg(&old)
        .arg(top.join("results/large-orders-targets"))
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let said = std::fs::read_to_string(out.join("compare.md")).unwrap();
    let page = std::fs::read_to_string(top.join("docs/report.md")).unwrap();
    let start = page
        .find("For example, the committed run of `large-orders-targets`")
        .expect("docs/report.md's compare example");
    let example = &page[start..start + page[start..].find("\n## ").unwrap()];
    // The table's lines, as cells: configuration, n, solved A, solved B, …, the median ratio with
    // its interval (the seventh), …, the verdict (the twelfth).
    let lines: Vec<Vec<String>> = said
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| **") && !l.starts_with("| Config"))
        .map(|l| {
            l.split('|')
                .map(|c| c.trim().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|cells| cells.len() == 14)
        .collect();
    let ratio = |cell: &str| -> f64 { cell.split(' ').next().unwrap().parse().unwrap() };
    let range = |keep: &dyn Fn(&[String]) -> bool| {
        let r: Vec<f64> = lines
            .iter()
            .filter(|l| keep(l))
            .map(|l| ratio(&l[7]))
            .collect();
        assert!(!r.is_empty());
        let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    };
    let (lo, hi) = range(&|l| l[1] == "sat preset=sat");
    let mut quoted = vec![format!("median ratios {lo:.2} to {hi:.2}")];
    let (lo, hi) =
        range(&|l| (l[1].starts_with("tabu") || l[1] == "hybrid") && l[12] != "improvement");
    quoted.push(format!("median ratios from {lo:.2} to {hi:.2}"));
    let summary = said
        .lines()
        .find(|l| l.contains(" regressions, "))
        .expect("compare.md's summary");
    let at = summary.find(" regressions, ").unwrap();
    let from = summary[..at].rfind(": ").unwrap() + 2;
    let to = at + summary[at..].find(" (").unwrap();
    quoted.push(summary[from..to].to_string());
    let after = |key: &str| {
        let i = summary
            .find(key)
            .unwrap_or_else(|| panic!("`{key}` in {summary}"))
            + key.len();
        summary[i..].split(' ').next().unwrap().to_string()
    };
    quoted.push(format!("spread by ×{}", after("spread by ×")));
    quoted.push(format!("from ×{}", after("from ×")));
    // The last group is 64×64: its tabu lambda=0.6 and hybrid lines.
    let last = |config: &str| {
        lines
            .iter()
            .rev()
            .find(|l| l[1] == config)
            .unwrap_or_else(|| panic!("no line of {config}"))
    };
    quoted.push(format!("median ratio {}", last("tabu lambda=0.6")[7]));
    let hybrid = last("hybrid");
    quoted.push(format!("{} instead of {}", hybrid[4], hybrid[3]));
    let flat = example.split_whitespace().collect::<Vec<_>>().join(" ");
    for q in &quoted {
        assert!(
            flat.contains(q.as_str()),
            "docs/report.md's compare example should say `{q}` (compare.md:\n{said})"
        );
    }
}

/// docs/datasets.md's shares of givens of the committed proper puzzles (both sets of each size,
/// rounded to whole per cent) are those of the files.
#[test]
fn the_proper_puzzles_shares_of_givens_are_those_of_the_files() {
    let top = workspace();
    let page = std::fs::read_to_string(top.join("docs/datasets.md")).unwrap();
    let start = page
        .find("Puzzles with exactly one solution at 16×16")
        .expect("docs/datasets.md's paragraph on the proper puzzles");
    let paragraph = page[start..start + page[start..].find("\n\n").unwrap()]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for side in [16, 25, 36, 49] {
        let mut shares = Vec::new();
        for file in [
            format!("proper-{side}x{side}.txt"),
            format!("proper-report-{side}x{side}.txt"),
        ] {
            let text = std::fs::read_to_string(top.join("datasets/generated").join(&file)).unwrap();
            for entry in sudoku_core::format::parse_str(&text, &file).unwrap() {
                assert_eq!(entry.grid.size(), side, "{file}");
                shares.push(100.0 * entry.grid.filled() as f64 / (side * side) as f64);
            }
        }
        let lo = shares.iter().copied().fold(f64::INFINITY, f64::min).round();
        let hi = shares
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            .round();
        let said = if lo == hi {
            format!("{lo} %")
        } else {
            format!("{lo}-{hi} %")
        };
        let at = paragraph
            .find(&format!("{side}×{side} ("))
            .unwrap_or_else(|| panic!("docs/datasets.md names no share at {side}×{side}"));
        let stated = &paragraph[at..at + paragraph[at..].find(')').unwrap() + 1];
        assert!(
            stated.contains(&said),
            "docs/datasets.md says `{stated}` of the proper {side}×{side} puzzles; the files give {said}"
        );
    }
}
