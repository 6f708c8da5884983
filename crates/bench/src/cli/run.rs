//! `run`: an experiment file → trials.csv, summaries, tables, charts and meta.json.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;

use crate::cli::Failure;
use crate::clock::RealClock;
use crate::experiment::{self, Overrides};
use crate::outputs::{clear_outputs, write_outputs};
use crate::provenance;
use crate::registry::Registry;
use crate::results::write_atomic;
use crate::runner::{self, ExecOptions};
use sudoku_analysis::meta::RunMeta;

#[derive(Args, Default)]
pub struct RunArgs {
    /// Experiment file (TOML), e.g. scripts/experiments/default.toml.
    pub experiment: PathBuf,
    /// Trials per (configuration, instance), overriding the file (at least 1).
    #[arg(long)]
    pub trials: Option<u32>,
    /// Time limit per trial in seconds, overriding the file (positive, at most 1e9).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Output folder (default: results/<name>, or results/<name>/shard-K-of-N).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A fast smoke run: the file's [quick] settings (1 trial, 3 instances per source, ≤ 2 s).
    #[arg(long)]
    pub quick: bool,
    /// Continue an interrupted run: skip trials already in trials.csv. Refused when the
    /// settings differ from those recorded in the folder's meta.json (trials, limits, seed,
    /// methods and parameters, instances): use --fresh or another --out then.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard earlier results in the output folder and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Run only every N-th task, starting at the K-th (1-based), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Worker threads for thread-safe methods (CBC solves never overlap).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Skip the charts.
    #[arg(long)]
    pub no_plots: bool,
}

/// Runs an experiment and writes everything under its output folder.
pub fn run(a: &RunArgs, registry: &Registry) -> Result<(), Failure> {
    let (exp, text) = experiment::load(&a.experiment)?;
    let ov = Overrides {
        trials: a.trials,
        time_limit: a.time_limit,
        quick: a.quick,
    };
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if a.trials == Some(0) {
        return Err(anyhow!("--trials: 0 trials asked for (give at least 1)").into());
    }
    if a.jobs == 0 {
        return Err(anyhow!("--jobs must be at least 1").into());
    }
    let out = match &a.out {
        Some(o) => o.clone(),
        None => {
            // The name comes from the file: it must stay one folder under results/.
            let plain = Path::new(&exp.name).components().count() == 1
                && matches!(
                    Path::new(&exp.name).components().next(),
                    Some(std::path::Component::Normal(_))
                );
            if !plain || exp.name.chars().any(char::is_control) {
                return Err(anyhow!(
                    "experiment name {:?} is not a plain folder name, so it cannot name results/<name>: pass --out DIR",
                    exp.name
                )
                .into());
            }
            let base = PathBuf::from("results").join(&exp.name);
            match shard {
                Some((k, n)) => base.join(format!("shard-{k}-of-{n}")),
                None => base,
            }
        }
    };
    let name = exp.name.clone();
    eprintln!("planning {} ({})", name, a.experiment.display());
    if let Some(d) = &exp.description {
        eprintln!("  {}", d.trim());
    }
    let plan = runner::make_plan(exp, registry, &ov)?;
    for n in &plan.notes {
        eprintln!("note: {n}");
    }
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    if a.fresh {
        for f in clear_outputs(&out)? {
            eprintln!("removed {}", f.display());
        }
    }
    let settings = runner::resume::settings_of(&plan, a.shard.as_deref());
    if a.resume {
        // Before meta.json is rewritten: it holds the settings of the rows already there.
        runner::resume::check_resume(&out, &settings)?;
    }
    let (commit, dirty) = provenance::git_commit();
    let mut m = RunMeta {
        experiment: name.clone(),
        commit: commit.clone(),
        dirty,
        rustc: provenance::rustc_version(),
        cpu: provenance::cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        os: provenance::os_name(),
        cbc: registry.cbc_version.map(str::to_string),
        started: provenance::now_utc(),
        finished: None,
        command: provenance::command_line(),
        jobs: a.jobs,
        shard: a.shard.clone(),
        experiment_file: a.experiment.display().to_string(),
        experiment_text: text,
        settings: Some(settings),
    };
    write_atomic(
        &out.join("meta.json"),
        &serde_json::to_string_pretty(&m).map_err(|e| anyhow!(e))?,
    )?;
    runner::write_generated(&plan, &out)?;
    let clock = RealClock::new();
    let opts = ExecOptions {
        out: out.clone(),
        resume: a.resume,
        shard,
        jobs: a.jobs,
        commit: if dirty == Some(true) {
            format!("{commit}+dirty")
        } else {
            commit
        },
        clock: &clock,
        progress: true,
    };
    eprintln!(
        "{} configurations × {} instances → {} tasks{}",
        plan.configs.len(),
        plan.instances.len(),
        plan.tasks.len(),
        shard
            .map(|(k, n)| format!(" (shard {k}/{n})"))
            .unwrap_or_default()
    );
    let report = runner::execute_plan(&plan, &opts)?;
    if report.skipped > 0 {
        eprintln!(
            "resumed: {} trials were already done, {} run now",
            report.skipped, report.ran
        );
    }
    m.finished = Some(provenance::now_utc());
    write_atomic(
        &out.join("meta.json"),
        &serde_json::to_string_pretty(&m).map_err(|e| anyhow!(e))?,
    )?;
    let files = write_outputs(&out, &name, !a.no_plots)?;
    println!(
        "{}: {} trials run, {} definitive answers, {} wrong, {} errors",
        name, report.ran, report.succeeded, report.wrong, report.errors
    );
    println!("results in {}:", out.display());
    for f in files {
        println!("  {}", f.display());
    }
    if report.wrong > 0 {
        eprintln!(
            "WARNING: {} trials returned wrong answers (status `wrong` in trials.csv)",
            report.wrong
        );
        return Err(Failure::Check);
    }
    Ok(())
}

/// Where the default experiment lives: `scripts/experiments/default.toml` from the current
/// directory, or from the workspace this binary was built in.
pub fn default_experiment() -> Result<PathBuf> {
    let rel = Path::new("scripts/experiments/default.toml");
    if rel.exists() {
        return Ok(rel.to_path_buf());
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    if built.exists() {
        // Dataset paths in the file are relative to the workspace root: run from there.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        std::env::set_current_dir(&root).with_context(|| format!("entering {}", root.display()))?;
        return Ok(rel.to_path_buf());
    }
    bail!("scripts/experiments/default.toml not found: run from the sudoku-bench checkout, or give `run EXPERIMENT.toml`")
}

/// Parses `--shard k/N` (1-based k).
pub fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| anyhow!("--shard {s}: expected k/N, e.g. 1/4"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| anyhow!("--shard {s}: k is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| anyhow!("--shard {s}: N is not a number"))?;
    if n == 0 || k == 0 || k > n {
        bail!("--shard {s}: need 1 <= k <= N");
    }
    Ok((k, n))
}
