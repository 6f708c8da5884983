//! The catalogue of the canonical experiments, for docs/experiments.md: per experiment file
//! of `scripts/experiments/`, its question (the file's `# Question:` line), the committed
//! run of it (the results folders whose meta.json names the experiment), that run's trials,
//! how long its last session ran and with how many jobs, the build it ran from, and the pages
//! of the user documentation that quote the folder; and the table of the papers' committed
//! reproductions (per paper its folder, whether each experiment ran in full, the verdicts of
//! its comparison and how long it ran). Every figure comes from the committed files, so `docs
//! blocks` keeps the tables in step with the runs.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use sudoku_analysis::meta::RunMeta;

use crate::cli::Failure;

/// One committed run of an experiment.
struct Run {
    folder: String,
    trials: usize,
    meta: Option<RunMeta>,
}

/// The catalogue as a Markdown table, from the checkout at `top`.
pub fn markdown(top: &Path) -> Result<String, Failure> {
    let mut files = list(&top.join("scripts/experiments"), "toml")?;
    files.sort();
    let runs = committed_runs(top)?;
    let pages = user_pages(top)?;
    let mut out = String::from(
        "_Generated from `scripts/experiments/*.toml` and the committed runs' `meta.json` by \
         `sudoku-bench docs experiments`. Ran for: the last session of the committed run, from \
         its start to its end (a run that was resumed counts only its last session)._\n\n\
         | experiment | question | committed run | trials | ran for | build | quoted in |\n\
         |---|---|---|---:|---|---|---|\n",
    );
    for file in files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        let question = text
            .lines()
            .find_map(|l| l.strip_prefix("# Question:"))
            .map(str::trim)
            .ok_or_else(|| anyhow!("{}: no `# Question:` line", file.display()))?;
        let mine: Vec<&Run> = runs
            .iter()
            .filter(|r| r.meta.as_ref().is_some_and(|m| m.experiment == name))
            .collect();
        if mine.is_empty() {
            out.push_str(&format!(
                "| `{name}` | {} | none committed | – | – | – | – |\n",
                cell(question)
            ));
        }
        for r in mine {
            let quoted: Vec<String> = pages
                .iter()
                .filter(|(_, text)| quotes(text, &r.folder))
                .map(|(page, _)| page.clone())
                .collect();
            out.push_str(&format!(
                "| `{name}` | {} | `results/{}/` | {} | {} | {} | {} |\n",
                cell(question),
                r.folder,
                thousands(r.trials),
                r.meta.as_ref().map_or("–".into(), ran_for),
                r.meta.as_ref().map_or("–".into(), build),
                if quoted.is_empty() {
                    "–".to_string()
                } else {
                    quoted.join(", ")
                }
            ));
        }
    }
    Ok(out)
}

/// The papers' committed reproductions (`results/repro-NAME/`, as `repro` writes them) as a
/// Markdown table, from the checkout at `top`: per paper its comparison, which experiments ran
/// in full, the items by verdict (from comparison.csv; "with a measured cause": an item that
/// differs whose reason gives one) and the time its experiments ran, summed.
pub fn repro_markdown(top: &Path) -> Result<String, Failure> {
    let mut out = String::from(
        "_Generated from `results/repro-*/comparison.csv` and each experiment's `meta.json` by \
         `sudoku-bench docs repro`. Ran for: the experiments' last sessions, from start to end, \
         added up._\n\n\
         | paper | comparison | version | reproduced | differs | of which with a measured cause | not yet | quick: not judged | ran for |\n\
         |---|---|---|---:|---:|---:|---:|---:|---|\n",
    );
    for paper in sudoku_repro::CATALOGUE {
        let dir = top.join(format!("results/repro-{}", paper.name));
        let csv_path = dir.join("comparison.csv");
        if !csv_path.is_file() {
            out.push_str(&format!(
                "| `{}` | none committed | – | – | – | – | – | – | – |\n",
                paper.name
            ));
            continue;
        }
        let mut reader = csv::Reader::from_path(&csv_path)
            .with_context(|| format!("reading {}", csv_path.display()))?;
        let headers = reader
            .headers()
            .with_context(|| format!("reading {}", csv_path.display()))?
            .clone();
        let column = |name: &str| {
            headers
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| anyhow!("{}: no `{name}` column", csv_path.display()))
        };
        let (verdict, reason) = (column("verdict")?, column("reason")?);
        let mut counts = std::collections::BTreeMap::<String, usize>::new();
        let mut caused = 0;
        for record in reader.records() {
            let record = record.with_context(|| format!("reading {}", csv_path.display()))?;
            let v = record.get(verdict).unwrap_or_default();
            *counts.entry(v.to_string()).or_default() += 1;
            if v == "differs"
                && record
                    .get(reason)
                    .is_some_and(|r| r.contains("measured cause"))
            {
                caused += 1;
            }
        }
        let experiments = run_folders(&dir)?;
        let (mut quick, mut secs, mut jobs) = (Vec::new(), 0u64, 1usize);
        for e in &experiments {
            let Some(m) = RunMeta::read(e)? else { continue };
            if m.command.iter().any(|c| c == "--quick") {
                quick.push(format!("`{}`", m.experiment));
            }
            secs += session(&m).unwrap_or(0);
            jobs = jobs.max(m.jobs);
        }
        let version = if quick.is_empty() {
            "full".to_string()
        } else if quick.len() == experiments.len() {
            "quick".to_string()
        } else {
            format!("full, except {} (quick)", quick.join(", "))
        };
        let n = |v: &str| counts.get(v).copied().unwrap_or(0);
        let differs = n("differs");
        out.push_str(&format!(
            "| `{}` | `results/repro-{}/comparison.md` | {version} | {} | {differs} | {} | {} | {} | {}, --jobs {jobs} |\n",
            paper.name,
            paper.name,
            n("reproduced"),
            if differs == 0 { "–".to_string() } else { caused.to_string() },
            n("not yet"),
            n("quick: not judged"),
            duration(secs),
        ));
    }
    Ok(out)
}

/// The files of `dir` ending in `.ext`.
fn list(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = e
            .with_context(|| format!("reading {}", dir.display()))?
            .path();
        if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    Ok(out)
}

/// The folders of `dir` that hold a meta.json (a run each), sorted.
fn run_folders(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    out.sort();
    Ok(out)
}

/// The folders under `results/` whose meta.json git tracks (the committed runs); `None`
/// outside a git checkout (a source archive), where every run folder counts.
fn tracked_runs(top: &Path) -> Option<Vec<PathBuf>> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z", "--", "results"])
        .current_dir(top)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(
        out.stdout
            .split(|&b| b == 0)
            .filter_map(|p| std::str::from_utf8(p).ok()?.strip_suffix("/meta.json"))
            .map(|d| top.join(d))
            .collect(),
    )
}

/// Every committed folder of `results/` with a meta.json, with its trial count: a run the user
/// made there (the main job's `results/default/`) is not one of the catalogue's.
fn committed_runs(top: &Path) -> Result<Vec<Run>, Failure> {
    let tracked = tracked_runs(top);
    let mut out = Vec::new();
    for p in run_folders(&top.join("results"))? {
        if tracked.as_ref().is_some_and(|t| !t.contains(&p)) {
            continue;
        }
        let meta = RunMeta::read(&p)?;
        let trials = match std::fs::File::open(p.join("trials.csv")) {
            Ok(f) => csv::Reader::from_reader(std::io::BufReader::new(f))
                .records()
                .count(),
            Err(_) => 0,
        };
        out.push(Run {
            folder: p
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            trials,
            meta,
        });
    }
    Ok(out)
}

/// README.md, docs/*.md and crates/*/README.md, each with its text.
fn user_pages(top: &Path) -> Result<Vec<(String, String)>, Failure> {
    let mut paths = vec![top.join("README.md")];
    let mut docs = list(&top.join("docs"), "md")?;
    docs.sort();
    paths.extend(docs);
    let mut crates: Vec<PathBuf> = std::fs::read_dir(top.join("crates"))
        .context("reading crates/")?
        .filter_map(|e| e.ok().map(|e| e.path().join("README.md")))
        .filter(|p| p.is_file())
        .collect();
    crates.sort();
    paths.extend(crates);
    let mut out = Vec::new();
    for p in paths {
        // The catalogue itself is not a page that quotes a run.
        if p.ends_with("docs/experiments.md") {
            continue;
        }
        let text =
            std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
        let name = p
            .strip_prefix(top)
            .unwrap_or(&p)
            .display()
            .to_string()
            .trim_start_matches("./")
            .to_string();
        out.push((name, text));
    }
    Ok(out)
}

/// Whether `text` names the folder `results/FOLDER` (followed by `/`, a blank, a backtick or
/// the end of a word; not a longer name that starts the same).
fn quotes(text: &str, folder: &str) -> bool {
    let needle = format!("results/{folder}");
    text.match_indices(&needle).any(|(i, _)| {
        !text[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// `1h 02m`, `27 min`, `40 s` from meta.json's start and end, with its jobs.
fn ran_for(m: &RunMeta) -> String {
    match session(m) {
        Some(s) => format!("{}, --jobs {}", duration(s), m.jobs.max(1)),
        None => "not finished".into(),
    }
}

/// The seconds from meta.json's start to its end; `None` for a run not finished.
fn session(m: &RunMeta) -> Option<u64> {
    let (start, end) = (seconds(&m.started)?, seconds(m.finished.as_deref()?)?);
    Some(end.saturating_sub(start))
}

/// `1h 02m`, `27 min`, `40 s`.
fn duration(s: u64) -> String {
    if s < 120 {
        format!("{s} s")
    } else if s < 7200 {
        format!("{} min", (s + 30) / 60)
    } else {
        format!("{}h {:02}m", s / 3600, (s % 3600 + 30) / 60)
    }
}

/// The build a run came from: its commit, and `dirty` when its sources differed.
fn build(m: &RunMeta) -> String {
    match m.dirty {
        Some(true) => format!("`{}`, dirty", m.commit),
        Some(false) => format!("`{}`, clean", m.commit),
        None => format!("`{}`, not known", m.commit),
    }
}

/// Seconds since the Unix epoch of `YYYY-MM-DDTHH:MM:SSZ`.
fn seconds(iso: &str) -> Option<u64> {
    let b = iso.as_bytes();
    if b.len() != 20 || b[4] != b'-' || b[10] != b'T' || b[19] != b'Z' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| iso.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // Days from civil, after H. Hinnant's public-domain algorithm description.
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + h * 3600 + mi * 60 + s).ok()
}

/// `12,345`.
fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Text for a Markdown table cell: `|` escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_counts_read_as_written() {
        assert_eq!(seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(seconds("2000-02-29T00:00:00Z"), Some(951_782_400));
        assert_eq!(seconds("2026-11-18T11:06:40Z"), Some(1_795_000_000));
        assert_eq!(seconds("2026-11-18 11:06:40"), None);
        assert_eq!(thousands(983_020), "983,020");
        assert_eq!(thousands(12), "12");
        assert!(quotes("see `results/peers/`", "peers"));
        assert!(quotes("results/peers", "peers"));
        assert!(!quotes("results/peers-large", "peers"));
        let m = RunMeta {
            started: "2026-11-28T03:00:00Z".into(),
            finished: Some("2026-11-28T03:27:10Z".into()),
            jobs: 2,
            ..RunMeta::default()
        };
        assert_eq!(ran_for(&m), "27 min, --jobs 2");
    }
}
