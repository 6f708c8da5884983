//! `run`: an experiment file → trials.csv, summaries, tables, charts and meta.json.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;

use crate::cli::{whole, Failure};
use crate::clock::RealClock;
use crate::experiment::{self, Overrides};
use crate::io::Out;
use crate::outputs::{clear_outputs, write_outputs};
use crate::provenance;
use crate::registry::Registry;
use crate::results::write_atomic;
use crate::runner::{self, ExecOptions};
use sudoku_analysis::escape::visible;
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;

#[derive(Args, Default)]
pub struct RunArgs {
    /// Experiment file (TOML), e.g. scripts/experiments/default.toml.
    pub experiment: PathBuf,
    /// Trials per (configuration, instance), overriding the file (at least 1).
    #[arg(long, value_parser = whole(1, None::<u32>), allow_negative_numbers = true)]
    pub trials: Option<u32>,
    /// Time limit per trial in seconds, overriding the file (positive, at most 1e9).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Output folder (default: results/<name>, or results/<name>/shard-K-of-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// A fast smoke run: the file's [quick] settings (1 trial, 3 instances per source, ≤ 2 s),
    /// each trial run once (no best-of-R repetitions).
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
    #[arg(long, default_value_t = 1, value_parser = whole(1, None::<usize>), allow_negative_numbers = true)]
    pub jobs: usize,
    /// Skip what is drawn: the charts, cd.svg and report.html (`plot` draws them later).
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
    // Said before anything is written: how many tasks, and how long they may take.
    eprintln!("{}", plan_size(&plan, shard)?);
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    // Held until the run ends: a second run, or a --resume, into the same folder stops here.
    let _lock = runner::lock::lock_folder(&out, "run")?;
    if a.fresh {
        for f in clear_outputs(&out)? {
            eprintln!("removed {}", f.display());
        }
    }
    // Computed once (it digests every instance): meta.json records it, and a resume checks
    // the folder's meta.json and its rows against it.
    let settings = runner::resume::settings_of(&plan, a.shard.as_deref());
    if a.resume {
        // Before meta.json is rewritten: it holds the settings of the rows already there.
        runner::resume::check_resume(&out, &settings)?;
    }
    let (commit, dirty) = provenance::build_commit();
    let mut m = RunMeta {
        experiment: name.clone(),
        commit,
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
    // Written before the first trial, not once at the end: the rows of a run that is killed
    // stay tied to the settings they were made with (a `--resume` with others is refused, and
    // the report says `not finished`). The end of the run only adds `finished`.
    write_meta(&out, &m)?;
    runner::write_generated(&plan, &out)?;
    let clock = RealClock::new();
    let opts = ExecOptions {
        out: out.clone(),
        resume: m.settings.as_ref().filter(|_| a.resume),
        shard,
        jobs: a.jobs,
        commit: provenance::row_commit(),
        clock: &clock,
        progress: true,
    };
    let report = runner::execute_plan(&plan, &opts)?;
    if report.skipped > 0 {
        eprintln!(
            "resumed: {} trials were already done, {} run now",
            report.skipped, report.ran
        );
    }
    m.finished = Some(provenance::now_utc());
    write_meta(&out, &m)?;
    // The plan (every task and puzzle) is not needed for the outputs: its memory serves them.
    drop(plan);
    let files = write_outputs(&out, &name, !a.no_plots)?;
    let mut stdout = Out::new();
    stdout.line(format_args!(
        "{}: {} trials run, {} definitive answers, {} wrong, {} errors",
        visible(&name),
        report.ran,
        report.succeeded,
        report.wrong,
        report.errors
    ))?;
    stdout.line(format_args!("results in {}:", out.display()))?;
    for f in files {
        stdout.line(format_args!("  {}", f.display()))?;
    }
    stdout.finish()?;
    if report.wrong > 0 {
        eprintln!(
            "WARNING: {} trials returned wrong answers (status `wrong` in trials.csv)",
            report.wrong
        );
    }
    if report.errors > 0 {
        eprintln!(
            "WARNING: {} trials ended in `error`: the method could not run or answer (the `message` column of trials.csv says why)",
            report.errors
        );
    }
    Failure::of_trials(report.wrong, report.errors)
}

/// Writes `out/meta.json` whole (or leaves the one there).
fn write_meta(out: &Path, m: &RunMeta) -> Result<()> {
    write_atomic(
        &out.join(files::META),
        &serde_json::to_string_pretty(m).map_err(|e| anyhow!(e))?,
    )
}

/// Where the default experiment lives: `scripts/experiments/default.toml` of the checkout in
/// the current folder. Only there: its dataset paths are relative to the checkout, and its
/// results go to `results/default/` beside them, so a binary started elsewhere (an installed
/// one) must not write into whatever tree it was built in.
pub fn default_experiment() -> Result<PathBuf> {
    let rel = Path::new("scripts/experiments/default.toml");
    if rel.is_file() {
        return Ok(rel.to_path_buf());
    }
    let here = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| "the current folder".to_string());
    bail!("no subcommand, and {here} is not a sudoku-bench checkout (no scripts/experiments/default.toml): the default experiment runs from the checkout's top folder; elsewhere give a command (`sudoku-bench --help`), e.g. `run EXPERIMENT.toml`")
}

/// The plan's size for the user: configurations, instances and tasks (of the shard), and the
/// longest the tasks may take, every repetition of every trial running to its time limit. A
/// shard that holds no task is an error.
fn plan_size(plan: &runner::plan::Plan, shard: Option<(usize, usize)>) -> Result<String> {
    let mine = |i: usize| shard.is_none_or(|(k, n)| i % n == k - 1);
    let mut tasks = 0usize;
    let mut worst = 0.0f64;
    let mut unlimited = None;
    let mut repeats = 1;
    for t in plan.tasks.iter().filter(|t| mine(t.index)) {
        let cfg = &plan.configs[t.config];
        tasks += 1;
        repeats = repeats.max(cfg.repeat);
        match cfg.budget.time {
            Some(limit) => worst += limit.as_secs_f64() * f64::from(cfg.repeat),
            None => unlimited = unlimited.or(Some(cfg.label())),
        }
    }
    if let Some((k, n)) = shard {
        if tasks == 0 {
            bail!(
                "--shard {k}/{n}: the plan has {} tasks, so shard {k} holds none (N may be at most {})",
                plan.tasks.len(),
                plan.tasks.len()
            );
        }
    }
    let reps = if repeats > 1 {
        format!(", up to {repeats} repetitions each")
    } else {
        String::new()
    };
    let bound = match unlimited {
        Some(label) => format!(
            "no bound on the time: `{}` has no time limit",
            sudoku_analysis::escape::visible(&label)
        ),
        None => format!(
            "at most {} if every trial{} ran to its time limit",
            duration_text(worst),
            if repeats > 1 { " repetition" } else { "" }
        ),
    };
    Ok(format!(
        "{} configurations × {} instances → {tasks} tasks{}{reps}; {bound}",
        plan.configs.len(),
        plan.instances.len(),
        shard
            .map(|(k, n)| format!(" (shard {k}/{n} of {})", plan.tasks.len()))
            .unwrap_or_default()
    ))
}

/// Seconds as people read a duration: `40 s`, `12 min`, `5.5 h`, `3.2 days`, `41 years`.
fn duration_text(s: f64) -> String {
    const MIN: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    match s {
        s if s < 100.0 => format!("{s:.0} s"),
        s if s < 100.0 * MIN => format!("{:.0} min", s / MIN),
        s if s < 48.0 * HOUR => format!("{:.1} h", s / HOUR),
        s if s < YEAR => format!("{:.1} days", s / DAY),
        s => format!("{:.0} years", s / YEAR),
    }
}

/// Parses `--shard k/N` (1-based k).
pub fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| anyhow!("--shard {s}: expected k/N, e.g. 1/4"))?;
    let number = |what: &str, t: &str| {
        whole(1, None::<usize>)(t.trim()).map_err(|e| anyhow!("--shard {s}: {what}: {e}"))
    };
    let (k, n) = (number("k", k)?, number("N", n)?);
    if k > n {
        bail!("--shard {s}: k = {k} is more than N = {n} (need 1 <= k <= N)");
    }
    Ok((k, n))
}
