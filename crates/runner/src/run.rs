//! An experiment run end to end ([`run`]): planned against a registry, its results folder
//! locked (and cleared with `fresh`, checked against its settings with `resume`, refused when
//! it holds results and neither is given: nothing is written before these checks), `meta.json`
//! written before the first trial and finished after the last, the trials executed (one row
//! each, flushed), and the summaries, statistics, findings, charts and report written.

use std::path::{Path, PathBuf};

use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;

use crate::clock::{Clock, RealClock};
use crate::duet::{self, Build, DuetReport, Placement, ServeProgram, Slowdown};
use crate::error::{Result, RunError};
use crate::execute::{execute_todo, ExecOptions, ExecReport};
use crate::experiment::{ExperimentFile, Overrides};
use crate::lock::lock_folder;
use crate::outputs::{clear_outputs, write_outputs};
use crate::plan::{make_plan, write_generated, Plan};
use crate::provenance;
use crate::registry::Registry;
use crate::results::write_atomic;
use crate::resume::{check_resume, remaining, settings_of};
use crate::shard::Shard;
use crate::sink::{Event, Sink};

/// An experiment: the file as parsed, with its text (meta.json records it) and where it came
/// from.
#[derive(Clone, Debug)]
pub struct Experiment {
    file: ExperimentFile,
    text: String,
    source: String,
}

impl Experiment {
    /// Reads and checks the experiment file at `path`.
    pub fn load(path: &Path) -> Result<Experiment> {
        let (file, text) = crate::experiment::load(path)?;
        Ok(Experiment {
            file,
            text,
            source: path.display().to_string(),
        })
    }

    /// An experiment from its TOML text, made in memory (named `(memory)` where a file would
    /// be). Relative paths in it start where the process runs.
    pub fn parse(text: &str) -> Result<Experiment> {
        Ok(Experiment {
            file: crate::experiment::parse(text)?,
            text: text.to_string(),
            source: "(memory)".to_string(),
        })
    }

    /// The experiment's name (`name = "..."`).
    pub fn name(&self) -> &str {
        &self.file.name
    }

    /// The file as parsed.
    pub fn file(&self) -> &ExperimentFile {
        &self.file
    }

    /// Its text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Where it was read from: its path, or `(memory)`.
    pub fn source(&self) -> &str {
        &self.source
    }
}

/// How to run an experiment; [`RunOptions::default`] runs it whole, once, on one thread, into
/// `results/<name>`, with every output drawn.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The results folder (default: `results/<name>`, or `results/<name>/shard-K-of-N`).
    pub out: Option<PathBuf>,
    /// Worker threads for thread-safe methods (0 and 1: one); CBC's solves never overlap.
    pub jobs: usize,
    /// Run only this shard's tasks.
    pub shard: Option<Shard>,
    /// Continue an interrupted run: skip the trials the folder's trials.csv holds, refused
    /// when the folder's meta.json records other settings.
    pub resume: bool,
    /// Remove every output an earlier run left in the folder first.
    pub fresh: bool,
    /// The file's `[quick]` settings (a smoke run), each trial run once.
    pub quick: bool,
    /// Trials per (configuration, instance), overriding the file.
    pub trials: Option<u32>,
    /// Time limit per trial in seconds, overriding the file.
    pub time_limit: Option<f64>,
    /// Skip what is drawn: the charts, cd.svg and report.html (`plot` draws them later).
    pub no_plots: bool,
    /// The command line meta.json records (default: this process's).
    pub command: Option<Vec<String>>,
    /// A duet: an old build's `sudoku-bench` binary that runs every trial too, through its
    /// `serve`, right before or after this build on the same instance ([`crate::duet`]).
    pub baseline: Option<PathBuf>,
    /// This build's `sudoku-bench` binary, whose `serve` runs this build's side of a duet (the
    /// command line gives its own path); a duet without it is refused.
    pub this_binary: Option<PathBuf>,
    /// TEST ONLY: configurations made slower on purpose ([`Slowdown`]); recorded in meta.json,
    /// in every row they touch, and said by findings and the report.
    pub test_slowdown: Vec<Slowdown>,
}

impl RunOptions {
    fn overrides(&self) -> Overrides {
        Overrides {
            trials: self.trials,
            time_limit: self.time_limit,
            quick: self.quick,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// The experiment's name.
    pub experiment: String,
    /// The results folder.
    pub out: PathBuf,
    /// The trials: planned (of the shard), skipped (already done), run now, and of those the
    /// definitive answers, the wrong ones and the errors.
    pub trials: ExecReport,
    /// Every file of the folder's results.
    pub files: Vec<PathBuf>,
    /// A duet: what the old build did, and the comparison of the two.
    pub duet: Option<DuetSummary>,
}

/// What a duet adds to a run's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct DuetSummary {
    /// The old build's trials (the run's [`RunSummary::trials`] are the new build's).
    pub baseline: ExecReport,
    /// The folder of its rows.
    pub baseline_out: PathBuf,
    /// The comparison's paragraph (shift, counts, noise, regressions).
    pub verdict: String,
    /// Lines flagged as regressions.
    pub regressions: usize,
    /// Lines flagged as improvements.
    pub improvements: usize,
}

impl RunSummary {
    /// Every trial run now (of both builds, in a duet) ended without a wrong answer or an
    /// error.
    pub fn clean(&self) -> bool {
        let clean = |r: &ExecReport| r.wrong == 0 && r.errors == 0;
        clean(&self.trials) && self.duet.as_ref().is_none_or(|d| clean(&d.baseline))
    }
}

/// The experiment planned against `registry` with the overrides of `opts` (trials, time
/// limit, quick): every configuration built, every instance read or generated, every task
/// seeded. Nothing is written.
pub fn plan(exp: &Experiment, registry: &Registry, opts: &RunOptions) -> Result<Plan> {
    make_plan(exp.file.clone(), registry, &opts.overrides())
}

/// Where a run of the experiment `name` writes by default: `results/<name>`, or
/// `results/<name>/shard-K-of-N` for a shard. The name must be a plain folder name.
pub fn default_out(name: &str, shard: Option<Shard>) -> Result<PathBuf> {
    let plain = Path::new(name).components().count() == 1
        && matches!(
            Path::new(name).components().next(),
            Some(std::path::Component::Normal(_))
        );
    if !plain || name.chars().any(char::is_control) {
        return Err(RunError::Plan(format!(
            "experiment name {name:?} is not a plain folder name, so it cannot name results/<name>: pass --out DIR"
        )));
    }
    let base = PathBuf::from("results").join(name);
    Ok(match shard {
        Some(s) => base.join(format!("shard-{}-of-{}", s.k(), s.n())),
        None => base,
    })
}

/// Runs `exp` with the methods of `registry` into its results folder, as `sudoku-bench run`
/// does, and says what happens to `sink`. The folder is locked for the run (a second writer
/// stops with [`RunError::Busy`]); rows are flushed as they are made, so an interrupted run
/// resumes with `resume`. Wrong answers and trials in `error` are rows, counted in the
/// summary, not errors.
pub fn run(
    exp: &Experiment,
    registry: &Registry,
    opts: &RunOptions,
    sink: &dyn Sink,
) -> Result<RunSummary> {
    run_with_clock(exp, registry, opts, sink, &RealClock::new())
}

/// [`run`] timed by `clock` (a test's mock clock gives exact rows).
pub fn run_with_clock(
    exp: &Experiment,
    registry: &Registry,
    opts: &RunOptions,
    sink: &dyn Sink,
    clock: &dyn Clock,
) -> Result<RunSummary> {
    let name = exp.name().to_string();
    let out = match &opts.out {
        Some(o) => o.clone(),
        None => default_out(&name, opts.shard)?,
    };
    sink.event(Event::Planning {
        experiment: &name,
        file: &exp.source,
        description: exp.file.description.as_deref(),
    });
    let mut plan = plan(exp, registry, opts)?;
    for n in &plan.notes {
        sink.event(Event::Note(n));
    }
    duet::apply_slowdowns(&mut plan, &opts.test_slowdown)?;
    let program = opts
        .baseline
        .as_deref()
        .map(|p| ServeProgram::check(p, "--baseline"))
        .transpose()?;
    let served = match &program {
        Some(p) => {
            if opts.jobs > 1 {
                return Err(RunError::Plan(format!("--baseline with --jobs {}: a duet runs one trial at a time, so that both builds of a trial meet the same load", opts.jobs)));
            }
            if let Some(s) = opts.shard {
                return Err(RunError::Plan(format!("--baseline with --shard {s}: a duet runs whole, in one folder (its comparison needs every line)")));
            }
            let this = this_build(opts.this_binary.as_deref())?;
            let place = Placement::find();
            let serve = |program, build| {
                duet::served_configs(&plan, program, build, &opts.test_slowdown, place)
            };
            Some((serve(&this, Build::New)?, serve(p, Build::Baseline)?, place))
        }
        None => {
            if let Some(s) = opts
                .test_slowdown
                .iter()
                .find(|s| s.build == Build::Baseline)
            {
                return Err(RunError::Plan(format!(
                    "--test-slowdown {s}: `baseline:` slows a duet's old build, and there is none (--baseline PATH)"
                )));
            }
            None
        }
    };
    for s in &opts.test_slowdown {
        sink.event(Event::Warning(&format!(
            "TEST ONLY: `{}` is made {} % slower on purpose ({} build): this run's times of it are not the method's",
            s.label,
            s.percent,
            s.build.name()
        )));
    }
    // Said before anything is written: how many tasks, and how long they may take.
    sink.event(Event::Planned(&plan.size(opts.shard)?));
    std::fs::create_dir_all(&out)
        .map_err(|e| RunError::io(format!("creating {}", out.display()), e))?;
    // Held until the run ends: a second run, or a resume, into the same folder stops here.
    let _lock = lock_folder(&out, "run", sink)?;
    let base_out = out.join(duet::BASELINE_DIR);
    if opts.fresh {
        // An earlier duet's old-build rows and comparison are outputs of this folder too.
        let mut removed = clear_outputs(&out, registry)?;
        removed.extend(clear_outputs(&base_out, registry)?);
        for name in [duet::COMPARE_MD, duet::COMPARE_HTML] {
            let f = out.join(name);
            if f.is_file() {
                std::fs::remove_file(&f)
                    .map_err(|e| RunError::io(format!("removing {}", f.display()), e))?;
                removed.push(f);
            }
        }
        for f in removed {
            sink.event(Event::Removed(&f));
        }
    }
    // Computed once (it digests every instance): meta.json records it, and a resume checks
    // the folder's meta.json and its rows against it.
    let settings = settings_of(&plan, opts.shard);
    if opts.resume {
        // Before meta.json is rewritten: it holds the settings of the rows already there.
        check_resume(&out, &settings, sink)?;
        duet::check_duet_resume(&out, program.as_ref())?;
        if program.is_some() {
            check_resume(&base_out, &settings, sink)?;
        }
    }
    // Everything that may refuse the folder (results there without --resume, rows that do
    // not match) is read before the first write: a refused run leaves it as it was.
    let todo = remaining(
        &plan,
        &out,
        Some(&settings).filter(|_| opts.resume),
        opts.shard,
    )?;
    let (commit, dirty) = provenance::build_commit();
    let mut meta = RunMeta {
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
        command: opts
            .command
            .clone()
            .unwrap_or_else(provenance::command_line),
        jobs: opts.jobs.max(1),
        shard: opts.shard.map(|s| s.to_string()),
        experiment_file: exp.source.clone(),
        experiment_text: exp.text.clone(),
        settings: Some(settings),
        duet: program.as_ref().map(|p| sudoku_analysis::meta::Duet {
            side: Build::New.name().to_string(),
            baseline: p.given.display().to_string(),
            baseline_version: p.version.clone(),
            placement: Placement::describe(served.as_ref().and_then(|s| s.2)),
        }),
        test_slowdown: opts.test_slowdown.iter().map(Slowdown::to_string).collect(),
    };
    // Written before the first trial, not once at the end: the rows of a run that is killed
    // stay tied to the settings they were made with (a resume with others is refused, and the
    // report says `not finished`). The end of the run only adds `finished`.
    write_meta(&out, &meta)?;
    if let Some(p) = &program {
        std::fs::create_dir_all(&base_out)
            .map_err(|e| RunError::io(format!("creating {}", base_out.display()), e))?;
        write_meta(&base_out, &duet::baseline_meta(&meta, p))?;
    }
    write_generated(&plan, &out)?;
    let exec = ExecOptions {
        out: out.clone(),
        resume: meta.settings.as_ref().filter(|_| opts.resume),
        shard: opts.shard,
        jobs: opts.jobs,
        commit: provenance::row_commit(),
        clock,
        sink,
    };
    let (trials, base_trials) = match (&program, &served) {
        (Some(p), Some((new, base, place))) => {
            let DuetReport { new, baseline } =
                duet::execute_duet(&plan, new, base, &exec, &base_out, &p.commit, *place)?;
            (new, Some(baseline))
        }
        _ => (execute_todo(&plan, todo, &exec)?, None),
    };
    meta.finished = Some(provenance::now_utc());
    write_meta(&out, &meta)?;
    if let Some(p) = &program {
        write_meta(&base_out, &duet::baseline_meta(&meta, p))?;
    }
    // The plan (every task and puzzle) is not needed for the outputs: its memory serves them;
    // the `serve` processes of a duet end with their configurations.
    drop(served);
    drop(plan);
    let mut files = write_outputs(&out, &name, !opts.no_plots, sink)?;
    let duet = match base_trials {
        Some(baseline) => {
            // The old build's folder gets its summaries and findings (`plot` draws its charts).
            files.extend(write_outputs(&base_out, &name, false, sink)?);
            let (c, written) = duet::write_comparison(&out, &base_out)?;
            files.extend(written);
            Some(DuetSummary {
                baseline,
                baseline_out: base_out,
                verdict: sudoku_analysis::baseline::summary(&c),
                regressions: c.count(sudoku_analysis::baseline::Change::Regression),
                improvements: c.count(sudoku_analysis::baseline::Change::Improvement),
            })
        }
        None => None,
    };
    Ok(RunSummary {
        experiment: name,
        out,
        trials,
        files,
        duet,
    })
}

/// This build's own binary for its side of a duet: it must say this build's version.
fn this_build(path: Option<&Path>) -> Result<ServeProgram> {
    let Some(path) = path else {
        return Err(RunError::Plan(
            "--baseline: a duet runs this build through its own `serve` too, and no binary of it was given (RunOptions::this_binary)".into(),
        ));
    };
    let p = ServeProgram::check(path, "this build's binary")?;
    let ours = format!("sudoku-bench {}", provenance::VERSION);
    if p.version != ours {
        return Err(RunError::Plan(format!(
            "this build's binary {} says `{}`, not `{ours}`: give the binary of the build that runs the duet",
            path.display(),
            p.version
        )));
    }
    Ok(p)
}

/// Writes `out/meta.json` whole (or leaves the one there).
fn write_meta(out: &Path, m: &RunMeta) -> Result<()> {
    let text = serde_json::to_string_pretty(m)
        .map_err(|e| RunError::io("writing meta.json", std::io::Error::other(e)))?;
    write_atomic(&out.join(files::META), &text)
}
