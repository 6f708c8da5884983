//! A results folder's derived files: summaries and charts written from its CSVs, shards
//! joined, and every output of a run listed so `--fresh` can clear them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::results::{read_rows, write_atomic, write_rows, Row, TraceRow};
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::report::Section;
use sudoku_analysis::tables::{self, TimeLimits};
use sudoku_analysis::{compare, summary};

/// Writes summary.csv, summary.md, summary.tex (with the performance table), stats.md,
/// stats.tex, and with `plots` cd.svg, the charts and report.html, from `<dir>/trials.csv`
/// (and traces.csv); returns every file of the folder's results.
pub fn write_outputs(dir: &Path, title: &str, plots: bool) -> Result<Vec<PathBuf>> {
    let trials = dir.join("trials.csv");
    let rows: Vec<Row> = if trials.exists() {
        read_rows(&trials)?
    } else {
        Vec::new()
    };
    let traces_path = dir.join("traces.csv");
    let traces: Vec<TraceRow> = if traces_path.exists() {
        read_rows(&traces_path)?
    } else {
        Vec::new()
    };
    let s = summary::summarise(&rows);
    let meta = RunMeta::read(dir)?;
    let limits = TimeLimits::from_settings(meta.as_ref().and_then(|m| m.settings.as_ref()));
    let perf = tables::perf_rows(&rows, &limits);
    write_rows(&dir.join("summary.csv"), &s)?;
    let md = summary::markdown(title, &s) + &tables::performance_markdown(&perf);
    write_atomic(&dir.join("summary.md"), &md)?;
    let tex = summary::latex(title, &s) + &tables::performance_latex(&perf);
    write_atomic(&dir.join("summary.tex"), &tex)?;
    let mut files = vec![trials];
    if traces_path.exists() {
        files.push(traces_path);
    }
    files.extend(["summary.csv", "summary.md", "summary.tex", "meta.json"].map(|f| dir.join(f)));
    files.extend(compare::write_stats(dir, title, &rows, &limits, plots)?);
    if plots && !rows.is_empty() {
        let drawn = sudoku_analysis::plots::draw_all(dir, &rows, &traces)?;
        for s in &drawn.skipped {
            eprintln!("chart {} not drawn: {}", s.stem, s.reason);
        }
        files.extend(drawn.files());
        let mut report = sudoku_analysis::report::Report::new(dir, title, &rows, &drawn)?;
        report.replace(Section::new(
            "tables",
            "Tables",
            summary::html(&s) + &tables::performance_html(&perf),
        ));
        let comparisons = compare::compare(&rows, &limits);
        let mut statistics = compare::html(&comparisons);
        if let Some(svg) = compare::cd_svg(&comparisons)? {
            statistics.push_str("<figure>");
            statistics.push_str(&svg);
            statistics.push_str(
                "<figcaption>Critical-difference diagram (Nemenyi, α = 0.05): average ranks; \
                 a bar joins methods whose difference is not significant.</figcaption></figure>",
            );
        }
        report.insert_after(
            "tables",
            Section::new("statistics", "Statistics", statistics),
        );
        files.push(report.write(dir)?);
    }
    files.retain(|f| f.exists());
    Ok(files)
}

/// Reads and joins the rows of several results folders.
pub fn merge_dirs(dirs: &[PathBuf]) -> Result<(Vec<Row>, Vec<TraceRow>)> {
    let mut rows: Vec<Row> = Vec::new();
    let mut traces: Vec<TraceRow> = Vec::new();
    let mut seen = HashSet::new();
    let mut experiment: Option<String> = None;
    for d in dirs {
        let p = d.join("trials.csv");
        if !p.exists() {
            bail!("{} not found", p.display());
        }
        for r in read_rows::<Row>(&p)? {
            match &experiment {
                None => experiment = Some(r.experiment.clone()),
                Some(e) if *e != r.experiment => {
                    bail!(
                        "{} holds experiment `{}`, the others `{e}`: not shards of one run",
                        p.display(),
                        r.experiment
                    )
                }
                _ => {}
            }
            if seen.insert(r.key()) {
                rows.push(r);
            }
        }
        let t = d.join("traces.csv");
        if t.exists() {
            traces.extend(read_rows::<TraceRow>(&t)?);
        }
    }
    rows.sort_by_key(|r| r.task);
    traces.sort_by(|a, b| a.task.cmp(&b.task).then(a.iteration.cmp(&b.iteration)));
    Ok((rows, traces))
}

/// Files a run writes into its folder, besides the charts (`*.svg`, `*.png`).
const RUN_FILES: [&str; 11] = [
    "trials.csv",
    "stats.md",
    "stats.tex",
    "report.html",
    "traces.csv",
    "summary.csv",
    "summary.md",
    "summary.tex",
    "meta.json",
    "instances.txt",
    "trials.csv.tmp",
];

/// Removes every output an earlier run left in `dir` (its CSVs, summaries, meta.json,
/// instances.txt and charts), so `--fresh` starts from a folder with nothing stale; other
/// files and sub-folders stay. Returns what it removed.
pub fn clear_outputs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    if !dir.is_dir() {
        return Ok(removed);
    }
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let chart = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("svg" | "png")
        );
        if path.is_file() && (chart || name.is_some_and(|n| RUN_FILES.contains(&n.as_str()))) {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}
