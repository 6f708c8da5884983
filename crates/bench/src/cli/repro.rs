//! `repro PAPER`: run the experiments that reproduce a paper, named as in
//! [`sudoku_repro::CATALOGUE`] (`takano`, or its number `002`), from
//! `scripts/experiments/repro/ID-*.toml`, each through `run`, so timing, progress and resume are
//! the runner's own; then put the paper's values (`datasets/seeds/paper_values.csv`) beside ours
//! in `results/repro-NAME/comparison.md`, `.tex` and `.csv`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{read_rows, Row};
use sudoku_repro::{
    check_experiments, compare, counts_text, latex, markdown, paper, read_paper_values, write_csv,
    Paper, PaperValue, CATALOGUE, PAPERS,
};

use crate::cli::run::{run, RunArgs};
use crate::cli::{whole, Failure};
use crate::io::Out;
use sudoku_analysis::write_whole;
use sudoku_runner::experiment;
use sudoku_runner::Registry;

/// Where the reproduction experiments live.
const REPRO_DIR: &str = "scripts/experiments/repro";
/// The papers' values.
const VALUES: &str = "datasets/seeds/paper_values.csv";

#[derive(Args, Default)]
#[command(after_help = papers_help())]
pub struct ReproArgs {
    /// The paper: unicamp-ilp, jump, takano, raggi, teles, lewis, or all of them; or its number
    /// (000 to 004, listed below).
    pub paper: String,
    /// The reduced version: each experiment's [quick] settings (minutes in all).
    #[arg(long)]
    pub quick: bool,
    /// Output folder (default: results/repro-NAME; with `all`, one repro-NAME folder per paper
    /// inside it).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue an interrupted reproduction: each experiment skips the trials it already has.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard earlier results in the output folders and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Worker threads for thread-safe methods.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = whole(1, None::<usize>), allow_negative_numbers = true)]
    pub jobs: usize,
    /// Skip the charts, cd.svg and report.html (the text summaries are still written).
    #[arg(long)]
    pub no_plots: bool,
    /// The papers' values (CSV).
    #[arg(long, value_name = "FILE", default_value = VALUES)]
    pub values: PathBuf,
    /// Compare only: rebuild the comparison from the trials already in the output folders.
    #[arg(long, conflicts_with_all = ["resume", "fresh"])]
    pub compare_only: bool,
}

/// One reproduction experiment file.
struct ReproFile {
    path: PathBuf,
    name: String,
    /// `# expected full run: …` / `# expected quick run: …` from the file's comments.
    full: Option<String>,
    quick: Option<String>,
}

/// The experiment files of `paper`, sorted by name.
fn files_of(paper: &str) -> Result<Vec<ReproFile>> {
    let dir = Path::new(REPRO_DIR);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {} (run from the checkout)", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "toml")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{paper}-")))
        })
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let (exp, text) = experiment::load(&path)?;
        let comment = |key: &str| {
            text.lines()
                .filter_map(|l| l.trim().strip_prefix('#'))
                .find_map(|l| l.trim().strip_prefix(key).map(|v| v.trim().to_string()))
        };
        out.push(ReproFile {
            full: comment("expected full run:"),
            quick: comment("expected quick run:"),
            name: exp.name,
            path,
        });
    }
    if out.is_empty() {
        bail!("no {REPRO_DIR}/{paper}-*.toml: paper {paper} has no reproduction experiment");
    }
    Ok(out)
}

/// The papers, one per line, for `repro --help`.
pub fn papers_help() -> String {
    let mut s = String::from("Papers (NAME, or its number):\n");
    for p in CATALOGUE {
        s.push_str(&format!("  {:<12} {:<6} {}\n", p.name, p.id, p.byline()));
    }
    s.push_str("Full citations: docs/reproducing.md.");
    s
}

/// Runs `repro`.
pub fn repro(a: &ReproArgs, registry: &Registry) -> Result<(), Failure> {
    let papers: Vec<&Paper> = match a.paper.as_str() {
        "all" => CATALOGUE.iter().collect(),
        p => match paper(p) {
            Some(p) => vec![p],
            None => {
                let names: Vec<&str> = CATALOGUE.iter().map(|p| p.name).collect();
                return Err(anyhow!(
                    "unknown paper `{p}` (expected one of {}, or all; or a number {})",
                    names.join(", "),
                    PAPERS.join(", ")
                )
                .into());
            }
        },
    };
    let values = read_paper_values(&a.values)?;
    let mut files = BTreeMap::new();
    let mut names = BTreeMap::new();
    for p in PAPERS {
        let f = files_of(p)?;
        names.insert(p.to_string(), f.iter().map(|f| f.name.clone()).collect());
        files.insert(*p, f);
    }
    check_experiments(&values, &a.values, &names)?;
    let started = std::time::Instant::now();
    let mut outcome = Ok(());
    for p in &papers {
        let folder = format!("repro-{}", p.name);
        let out = match (&a.out, papers.len()) {
            (Some(o), 1) => o.clone(),
            (Some(o), _) => o.join(folder),
            (None, _) => Path::new("results").join(folder),
        };
        let fs = &files[p.id];
        announce(p, fs, a.quick);
        let mut rows = BTreeMap::new();
        // The experiments whose rows come from a --quick run (this one, or with --compare-only
        // the one that wrote the folder, as its meta.json's command says).
        let mut quick = BTreeSet::new();
        for f in fs {
            let dir = out.join(&f.name);
            if !a.compare_only {
                let args = RunArgs {
                    experiment: f.path.clone(),
                    out: Some(dir.clone()),
                    quick: a.quick,
                    resume: a.resume,
                    fresh: a.fresh,
                    jobs: a.jobs,
                    no_plots: a.no_plots,
                    ..Default::default()
                };
                match run(&args, registry) {
                    // Wrong answers and trials in `error` set the exit code at the end, after
                    // the comparison is written.
                    Err(f @ (Failure::Check | Failure::Errors)) => {
                        outcome = Failure::worst(outcome, Err(f))
                    }
                    r => r?,
                }
            }
            let trials = dir.join(files::TRIALS);
            if trials.exists() {
                let r: Vec<Row> = read_rows(&trials)?;
                rows.insert(f.name.clone(), r);
                let was_quick = if a.compare_only {
                    RunMeta::read(&dir)?.is_some_and(|m| m.command.iter().any(|c| c == "--quick"))
                } else {
                    a.quick
                };
                if was_quick {
                    quick.insert(f.name.clone());
                }
            }
        }
        let mine: Vec<PaperValue> = values.iter().filter(|v| v.paper == p.id).cloned().collect();
        let cs = compare(&mine, &rows, &quick);
        let title = format!(
            "Paper {}, {}: its values beside ours ({} run)",
            p.name,
            p.byline(),
            match quick.len() {
                0 => "full",
                n if n == rows.len() => "quick",
                _ => "partly quick",
            }
        );
        std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
        write_whole(&out.join("comparison.md"), &markdown(&title, &cs))?;
        write_whole(&out.join("comparison.tex"), &latex(&title, &cs))?;
        write_csv(&out.join("comparison.csv"), &cs)?;
        let mut stdout = Out::new();
        stdout.line(format_args!(
            "paper {}: {} → {}",
            p.name,
            counts_text(&cs),
            crate::io::shown(&out.join("comparison.md"))
        ))?;
        stdout.finish()?;
    }
    say!(
        "repro {}{}: {:.1} s",
        a.paper,
        if a.quick { " --quick" } else { "" },
        started.elapsed().as_secs_f64()
    );
    outcome
}

/// Says what is about to run and, for the full version, how long it is expected to take.
fn announce(paper: &Paper, fs: &[ReproFile], quick: bool) {
    say!(
        "paper {} ({}): {} experiment(s){}",
        paper.name,
        paper.byline(),
        fs.len(),
        if quick { " (quick)" } else { "" }
    );
    for f in fs {
        let expected = if quick { &f.quick } else { &f.full };
        say!(
            "  {} ({}): expected {}",
            f.name,
            f.path.display(),
            expected.as_deref().unwrap_or("(not stated)")
        );
    }
}
