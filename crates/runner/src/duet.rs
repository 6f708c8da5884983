//! A duet: two builds in one run, so that a comparison of the two meets one machine. With a
//! baseline program (an older `sudoku-bench` binary), every trial of the plan runs twice, once
//! by each build's `serve` (this build's binary and the old one, each a long-lived process per
//! configuration behind the `external` protocol), one right after the other on the same
//! instance (which goes first alternates from one instance and trial to the next), from the
//! same seed (`serve` is handed it as `# seed N` above the puzzle), every answer of both judged
//! by this build's verifier. A burst of load from other work then falls on both builds of the
//! few trials it lasts, not on one build's whole configuration as it does between two
//! separate runs.
//!
//! Both builds run through `serve`, this one too, because a call in process and the same call
//! in another process are not timed alike: the harness keeps its core while it waits for the
//! answer, so the other process works on the other core, with what other work left in its
//! caches (the same build's method measured 1-12 % slower through `serve` than in process,
//! and within 2 % through two `serve`s; docs/notes/duet.md). Both are ranked on the methods'
//! own clocks, `serve`'s clock around the method's call (less its model building, or the
//! method's own search time where it reports one), given back as `solve_ms`; the pipe is on
//! neither.
//!
//! The new build's rows go to the run's folder as in any run; the old build's to its
//! `baseline/` sub-folder, a results folder of its own with the same configuration names, so
//! that charts and findings never take the two builds for one method. `compare.md` and
//! `compare.html` in the run's folder compare the two as `compare baseline/ . --clock own`
//! does.
//!
//! Also here: the test-only slowdown ([`Slowdown`], [`spin_for`]) that makes one
//! configuration a known amount slower, so that a power check can be made with one binary.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::sync::Arc;

use sudoku_analysis::baseline::{self, RunComparison, Side as CompareSide};
use sudoku_analysis::clocks::on_own_clock;
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::RunOutputs;
use sudoku_core::{Count, Params, Rng, Solver};
use sudoku_external::{External, ExternalConfig};

use crate::error::{Result, RunError};
use crate::execute::{run_task_as, ExecOptions, ExecReport};
use crate::experiment::Kind;
use crate::judge::Answer;
use crate::kind::{Capability, Job, TrialMethod};
use crate::plan::{Config, Plan, Task};
use crate::results::{write_atomic, Appender, Row, TraceRow};
use crate::resume::remaining;
use crate::sink::Event;
// The test-only slowdown, kept where `execute` reads it too (no circle between the two).
pub use crate::slowdown::{mark_slowdown, own_time, percent, spin_for, SLOWDOWN_KEY};

/// The `extra` figure that says which build of a duet made a row (`new`, `baseline`).
pub const SIDE_KEY: &str = "duet";
/// The `extra` figure that says which build of a duet ran the trial first.
pub const FIRST_KEY: &str = "duet_first";
/// The sub-folder of a duet run's folder that holds the old build's rows.
pub const BASELINE_DIR: &str = "baseline";
/// The comparison a duet writes into its folder.
pub const COMPARE_MD: &str = "compare.md";
/// Its page.
pub const COMPARE_HTML: &str = "compare.html";

/// Which build of a duet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// The build that runs the experiment, in process.
    New,
    /// The old build, through its `serve`.
    Baseline,
}

impl Build {
    /// `new`, `baseline`: the name in rows and meta.json.
    pub fn name(self) -> &'static str {
        match self {
            Build::New => sudoku_analysis::meta::Duet::NEW,
            Build::Baseline => sudoku_analysis::meta::Duet::BASELINE,
        }
    }
}

/// TEST ONLY: one configuration made `percent` % slower inside its own clock, to check that a
/// comparison finds a known slowdown (`run --test-slowdown [baseline:]LABEL=PERCENT`).
#[derive(Clone, Debug, PartialEq)]
pub struct Slowdown {
    /// The build it slows: this one (in process), or a duet's old one (its `serve` is asked to).
    pub build: Build,
    /// The configuration, as results name it (`prop`, `sat preset=sat`).
    pub label: String,
    /// How much slower, in per cent.
    pub percent: f64,
}

impl FromStr for Slowdown {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Slowdown, String> {
        let (build, rest) = match s.strip_prefix("baseline:") {
            Some(r) => (Build::Baseline, r),
            None => (Build::New, s),
        };
        let Some((label, p)) = rest.rsplit_once('=') else {
            return Err(format!(
                "`{s}`: give [baseline:]LABEL=PERCENT, e.g. prop=25 or baseline:dlx=25"
            ));
        };
        let label = label.trim();
        if label.is_empty() {
            return Err(format!("`{s}`: the configuration's label is empty"));
        }
        Ok(Slowdown {
            build,
            label: label.to_string(),
            percent: percent(p).map_err(|e| format!("`{s}`: {e}"))?,
        })
    }
}

impl std::fmt::Display for Slowdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.build == Build::Baseline {
            f.write_str("baseline:")?;
        }
        write!(f, "{}={}", self.label, self.percent)
    }
}

/// Sets the slowdowns of this build on the plan's configurations; a label that names none of
/// them is an error naming those it could be.
pub(crate) fn apply_slowdowns(plan: &mut Plan, slowdowns: &[Slowdown]) -> Result<()> {
    for s in slowdowns {
        check_label(plan, s)?;
        if s.build == Build::New {
            for c in plan.configs.iter_mut().filter(|c| c.label() == s.label) {
                c.slowdown = Some(s.percent);
            }
        }
    }
    Ok(())
}

fn check_label(plan: &Plan, s: &Slowdown) -> Result<()> {
    if plan.configs.iter().any(|c| c.label() == s.label) {
        return Ok(());
    }
    let labels: Vec<String> = plan
        .configs
        .iter()
        .map(|c| format!("`{}`", c.label()))
        .collect();
    Err(RunError::Plan(format!(
        "--test-slowdown {s}: no configuration of the plan is named `{}` (they are {})",
        s.label,
        labels.join(", ")
    )))
}

/// A `sudoku-bench` binary whose `serve` runs one build's side of a duet: its program and
/// what it says of itself.
#[derive(Clone, Debug, PartialEq)]
pub struct ServeProgram {
    /// As given (`--baseline PATH`, or this build's own binary).
    pub given: PathBuf,
    /// Its absolute path, which the trials run.
    pub path: PathBuf,
    /// Its `--version` line (`sudoku-bench 0.1.0 (commit abc)`).
    pub version: String,
    /// The commit it names, for its rows' `commit` column (`unknown` when it names none).
    pub commit: String,
    /// Whether its `serve` takes `--test-slowdown` (builds before duets do not).
    pub takes_slowdown: bool,
}

impl ServeProgram {
    /// Checks that `path` is a `sudoku-bench` binary with `serve` (it answers `--version` and
    /// `serve --help`), before anything runs; `what` names it in errors (`--baseline`).
    pub fn check(path: &Path, what: &str) -> Result<ServeProgram> {
        let shown = format!("{what} {}", path.display());
        let abs = std::fs::canonicalize(path).map_err(|e| {
            RunError::Plan(format!(
                "{shown}: {e}: give the old build's binary (a checkout of the old commit, `cargo build --release`, then its target/release/sudoku-bench)"
            ))
        })?;
        if !abs.is_file() {
            return Err(RunError::Plan(format!(
                "{shown}: not a file: give the old build's sudoku-bench binary"
            )));
        }
        let ask = |args: &[&str]| -> Result<String> {
            let out = Command::new(&abs)
                .args(args)
                .output()
                .map_err(|e| RunError::Plan(format!("{shown}: cannot run it: {e}")))?;
            if !out.status.success() {
                return Err(RunError::Plan(format!(
                    "{shown}: `{}` failed ({}): {}",
                    args.join(" "),
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            }
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let version = ask(&["--version"])?;
        if !version.starts_with("sudoku-bench ") {
            return Err(RunError::Plan(format!(
                "{shown}: `--version` says `{version}`, not sudoku-bench's: give a build of sudoku-bench"
            )));
        }
        let help = ask(&["serve", "--help"]).map_err(|e| {
            RunError::Plan(format!(
                "{e} (a duet needs `serve`, which builds since it was added have)"
            ))
        })?;
        let commit = version
            .split_once("(commit ")
            .and_then(|(_, c)| c.strip_suffix(')'))
            .unwrap_or("unknown")
            .to_string();
        Ok(ServeProgram {
            given: path.to_path_buf(),
            path: abs,
            version,
            commit,
            takes_slowdown: help.contains("--test-slowdown"),
        })
    }
}

/// Where a duet's processes run: the harness's thread on one CPU, every `serve` process (of
/// both builds) on another, so that both builds always work on the same core beside the same
/// other work. Unpinned, each `serve` process stays where the kernel put it: one build's
/// `prop` sat for a whole instance set beside a busy neighbour, 1.7× the other's, in an A/A
/// duet (docs/notes/compare-duet.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The CPU of the thread that runs the trials.
    pub harness: usize,
    /// The CPU of every `serve` process.
    pub serve: usize,
}

impl Placement {
    /// The first two CPUs this thread may run on, when there are two and `taskset` (which
    /// places each `serve` process) runs; `None` otherwise (then nothing is pinned).
    pub fn find() -> Option<Placement> {
        let cpus = allowed_cpus()?;
        let (&harness, &serve) = (cpus.first()?, cpus.get(1)?);
        let taskset = Command::new("taskset")
            .arg("-V")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        taskset.then_some(Placement { harness, serve })
    }

    /// How meta.json and the comparison say it.
    pub fn describe(place: Option<Placement>) -> String {
        match place {
            Some(p) => format!(
                "the harness on CPU {}, every serve process of both builds on CPU {}",
                p.harness, p.serve
            ),
            None => "not pinned (fewer than two CPUs, or no taskset)".to_string(),
        }
    }
}

/// The CPUs the calling thread may run on.
#[cfg(target_os = "linux")]
fn allowed_cpus() -> Option<Vec<usize>> {
    // SAFETY: cpu_set_t is plain data, filled in by sched_getaffinity.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: one cpu_set_t of its own size, through a valid pointer; 0 is this thread.
    let ok = unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) } == 0;
    ok.then(|| {
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: the index is below CPU_SETSIZE.
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect()
    })
}

#[cfg(not(target_os = "linux"))]
fn allowed_cpus() -> Option<Vec<usize>> {
    None
}

/// The calling thread kept on one CPU until dropped, when its mask is given back.
struct Pinned {
    #[cfg(target_os = "linux")]
    before: libc::cpu_set_t,
}

impl Pinned {
    /// Pins the calling thread to `cpu`; `None` when it cannot be.
    #[cfg(target_os = "linux")]
    fn to(cpu: usize) -> Option<Pinned> {
        // SAFETY: as in `allowed_cpus`: plain data, valid pointers, 0 is this thread.
        unsafe {
            let mut before: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of_val(&before), &mut before) != 0 {
                return None;
            }
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            (libc::sched_setaffinity(0, std::mem::size_of_val(&one), &one) == 0)
                .then_some(Pinned { before })
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn to(_: usize) -> Option<Pinned> {
        None
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        // SAFETY: the mask read when pinning, given back to this thread.
        unsafe {
            libc::sched_setaffinity(0, std::mem::size_of_val(&self.before), &self.before);
        }
    }
}

/// A word for `/bin/sh`: in single quotes, each `'` closed, escaped and reopened.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The command that runs `cfg` in one build: `serve` with the same method and parameters (and,
/// TEST ONLY, a slowdown), on the CPU `cpu` when there is one (`taskset -c`).
fn serve_command(
    program: &ServeProgram,
    cfg: &Config,
    slow: Option<f64>,
    cpu: Option<usize>,
) -> String {
    let mut words = Vec::new();
    if let Some(c) = cpu {
        words.extend(["taskset".to_string(), "-c".to_string(), c.to_string()]);
    }
    words.extend([
        quoted(&program.path.to_string_lossy()),
        "serve".to_string(),
        "--method".to_string(),
        quoted(&cfg.method),
    ]);
    for (k, v) in cfg.params.iter() {
        words.push("--param".to_string());
        words.push(quoted(&format!("{k}={v}")));
    }
    if let Some(p) = slow {
        words.push("--test-slowdown".to_string());
        words.push(p.to_string());
    }
    words.join(" ")
}

/// One build's configurations in a duet, one for each of the plan's (same method, parameters,
/// trials, limits and orders), each answering through its own `serve` process of `program`
/// (on `place`'s CPU for them, when there is one), which `slowdowns` for `build` slow (TEST
/// ONLY). Refused: kinds other than solve and count
/// (what `serve` answers), node or iteration limits (which it is not given), and `external`
/// configurations (already another program).
pub(crate) fn served_configs(
    plan: &Plan,
    program: &ServeProgram,
    build: Build,
    slowdowns: &[Slowdown],
    place: Option<Placement>,
) -> Result<Vec<Config>> {
    let kind = plan.exp.kind;
    if !matches!(kind, Kind::Solve | Kind::Count) {
        return Err(RunError::Plan(format!(
            "--baseline: a duet runs kind = \"solve\" or \"count\" (what `serve` answers); this experiment is kind = \"{}\"",
            kind.name()
        )));
    }
    // Orders 2 to 5 fit the line format; larger ones go as grid blocks.
    let format = if plan.instances.iter().all(|i| i.puzzle.order().n() <= 5) {
        "line"
    } else {
        "grid"
    };
    let count_limit = plan.exp.count_limit.max(1);
    let mut out = Vec::new();
    for cfg in &plan.configs {
        let label = cfg.label();
        if cfg.outside {
            return Err(RunError::Plan(format!(
                "--baseline: `{label}` is already an outside program, which no build of sudoku-bench runs differently: leave it out of a duet"
            )));
        }
        if cfg.budget.nodes.is_some() || cfg.budget.iterations.is_some() {
            return Err(RunError::Plan(format!(
                "--baseline: `{label}` has a node or iteration limit, which `serve` is not given (only the time limit): a duet needs time limits alone"
            )));
        }
        let slow = slowdowns
            .iter()
            .filter(|s| s.build == build && s.label == label)
            .map(|s| s.percent)
            .next_back();
        if slow.is_some() && !program.takes_slowdown {
            return Err(RunError::Plan(format!(
                "--test-slowdown {}{label}=…: the {} build's `serve` has no --test-slowdown (it predates duets)",
                if build == Build::Baseline { "baseline:" } else { "" },
                if build == Build::Baseline { "old" } else { "new" }
            )));
        }
        let mut params = Params::new();
        params
            .set(
                "command",
                serve_command(program, cfg, slow, place.map(|p| p.serve)),
            )
            .set("format", format)
            .set("batch", "true");
        let task = match kind {
            Kind::Count => Some(count_limit),
            _ => None,
        };
        let capability = Capability {
            // One `serve` process per configuration object; trials of a duet run one at a
            // time in any case.
            thread_safe: true,
            build: Arc::new(move |_| {
                let config = ExternalConfig::from_params(&params)?;
                Ok(Box::new(ServedTrial {
                    program: External::new(config),
                    count: task,
                }) as Box<dyn TrialMethod>)
            }),
        };
        out.push(cfg.twin(capability, true)?);
    }
    Ok(out)
}

/// One configuration of one build: its `serve` behind the `external` protocol, handed each
/// trial's seed.
struct ServedTrial {
    program: External,
    /// Kind = count: the count limit; `None`: solve.
    count: Option<u64>,
}

impl TrialMethod for ServedTrial {
    fn trial_seed(&mut self, seed: u64) {
        self.program.preface(&format!("seed {seed}"));
    }

    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        Ok(match self.count {
            None => Answer::Solve(self.program.solve(job.puzzle, job.budget, rng)),
            Some(limit) => Answer::Count(self.program.count(
                job.puzzle,
                Count::collecting(limit),
                job.budget,
                rng,
            )?),
        })
    }

    fn settle(&mut self, answer: &mut Answer) {
        match answer {
            Answer::Solve(o) => self.program.settle(&mut o.stats),
            Answer::Count(c) => self.program.settle(&mut c.stats),
            _ => {}
        }
    }
}

/// What the duet's execution did on each side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DuetReport {
    /// The new build's trials.
    pub new: ExecReport,
    /// The old build's.
    pub baseline: ExecReport,
}

/// Which build runs a task first: they take turns from one instance and trial to the next.
fn first_of(t: &Task) -> Build {
    if (t.instance + t.trial as usize) % 2 == 0 {
        Build::New
    } else {
        Build::Baseline
    }
}

/// Runs the plan's tasks not yet done, each by both builds one right after the other (in the
/// order [`first_of`] gives), with `new`'s configurations (this build's) into `opts.out` and
/// `base`'s (the old build's) into `base_out`, every row flushed as it is made, the calling
/// thread on `place`'s harness CPU meanwhile. With `opts.resume`, a task done on one side
/// only runs on the other.
pub(crate) fn execute_duet(
    plan: &Plan,
    new: &[Config],
    base: &[Config],
    opts: &ExecOptions,
    base_out: &Path,
    base_commit: &str,
    place: Option<Placement>,
) -> Result<DuetReport> {
    // The harness apart from the `serve` processes, which `taskset` puts on their own CPU.
    let _pinned = place.and_then(|p| Pinned::to(p.harness));
    let todo_new = remaining(plan, &opts.out, opts.resume, None)?;
    let todo_base = remaining(plan, base_out, opts.resume, None)?;
    let left_new: HashSet<usize> = todo_new.tasks.iter().map(|t| t.index).collect();
    let left_base: HashSet<usize> = todo_base.tasks.iter().map(|t| t.index).collect();
    let mut order: Vec<&Task> = plan
        .tasks
        .iter()
        .filter(|t| left_new.contains(&t.index) || left_base.contains(&t.index))
        .collect();
    if plan.exp.interleave {
        order.sort_by_key(|t| (t.instance, t.trial));
    }
    let mut report = DuetReport {
        new: ExecReport {
            planned: todo_new.mine,
            skipped: todo_new.mine - left_new.len(),
            ..ExecReport::default()
        },
        baseline: ExecReport {
            planned: todo_base.mine,
            skipped: todo_base.mine - left_base.len(),
            ..ExecReport::default()
        },
    };
    let mut rows_new = Appender::<Row>::open(&opts.out.join(files::TRIALS))?;
    let mut rows_base = Appender::<Row>::open(&base_out.join(files::TRIALS))?;
    let mut traces: Option<Appender<TraceRow>> = None;
    let sink = opts.sink;
    sink.event(Event::Started {
        tasks: left_new.len() + left_base.len(),
    });
    crate::execute::install_panic_capture();
    for t in order {
        let first = first_of(t);
        let sides = match first {
            Build::New => [Build::New, Build::Baseline],
            Build::Baseline => [Build::Baseline, Build::New],
        };
        for build in sides {
            let (left, cfg) = match build {
                Build::New => (&left_new, &new[t.config]),
                Build::Baseline => (&left_base, &base[t.config]),
            };
            if !left.contains(&t.index) {
                continue;
            }
            sink.event(Event::Running {
                config: &format!("{} ({})", cfg.label(), build.name()),
                order: plan.instances[t.instance].puzzle.order(),
            });
            let commit = match build {
                Build::New => opts.commit.as_str(),
                Build::Baseline => base_commit,
            };
            let (mut row, trace) = run_task_as(plan, cfg, t, opts.clock, commit);
            mark_side(&mut row, build, first);
            let (appender, rep) = match build {
                Build::New => (&mut rows_new, &mut report.new),
                Build::Baseline => (&mut rows_base, &mut report.baseline),
            };
            if build == Build::New && !trace.is_empty() {
                let t = match &mut traces {
                    Some(t) => t,
                    None => traces.insert(Appender::open(&opts.out.join(files::TRACES))?),
                };
                for p in &trace {
                    t.push(p)?;
                }
            }
            appender.push(&row)?;
            rep.count(&row);
            sink.event(Event::Trial(&row));
        }
    }
    sink.event(Event::TrialsDone {
        skipped: report.new.skipped + report.baseline.skipped,
        ran: report.new.ran + report.baseline.ran,
    });
    Ok(report)
}

/// Adds to `extra` which build made the row and which ran the trial first.
fn mark_side(row: &mut Row, build: Build, first: Build) {
    let marks = format!("{SIDE_KEY}={};{FIRST_KEY}={}", build.name(), first.name());
    row.extra = if row.extra.is_empty() {
        marks
    } else {
        format!("{};{marks}", row.extra)
    };
}

/// The duet's comparison, the old build (A) against the new one (B) on their own clocks,
/// written as `compare.md` and `compare.html` into `out`; gives the comparison and the files.
pub(crate) fn write_comparison(
    out: &Path,
    base_out: &Path,
) -> Result<(RunComparison, Vec<PathBuf>)> {
    let read = |dir: &Path| -> Result<(Vec<Row>, Option<RunMeta>)> {
        let rows = RunOutputs::read_rows(dir)?;
        Ok((on_own_clock(rows).0, RunMeta::read(dir)?))
    };
    let (rows_a, meta_a) = read(base_out)?;
    let (rows_b, meta_b) = read(out)?;
    let name_a = format!("{} (the old build)", base_out.display());
    let name_b = format!("{} (this build)", out.display());
    let c = baseline::compare_runs(
        &CompareSide {
            name: &name_a,
            rows: &rows_a,
            meta: meta_a.as_ref(),
        },
        &CompareSide {
            name: &name_b,
            rows: &rows_b,
            meta: meta_b.as_ref(),
        },
        baseline::THRESHOLD,
    )
    .map_err(|e| RunError::Folder(format!("comparing the duet's two builds: {e}")))?;
    let mut c = c;
    let unseeded = rows_a
        .iter()
        .filter(|r| r.success() && !r.extra.split(';').any(|f| f.starts_with("seed=")))
        .count();
    if unseeded > 0 {
        c.notes.push(format!(
            "The old build's `serve` did not echo the trial's seed in {unseeded} answered trials: it predates duets, so it ran its randomized methods from seeds of its own, and its `solve_ms` is its whole call (model building included, which this build's own clock leaves out)."
        ));
    }
    let page = sudoku_report::Report {
        title: format!("Duet: {}", c.experiment),
        lead: "The old build (A) against this one (B), both in one run, trial beside trial: ratios are B over A, above 1 is slower.".into(),
        sections: vec![sudoku_report::Section::new(
            "compare",
            "B against A",
            baseline::html(&c),
        )],
    };
    let mut written = Vec::new();
    for (name, text) in [
        (COMPARE_MD, baseline::markdown(&c)),
        (COMPARE_HTML, page.to_html()),
    ] {
        let path = out.join(name);
        write_atomic(&path, &text)?;
        written.push(path);
    }
    Ok((c, written))
}

/// Before a resume: a folder that holds a duet's rows continues as a duet with the same old
/// build, and one that holds a plain run's rows does not become a duet (its rows were not
/// made beside an old build's).
pub(crate) fn check_duet_resume(out: &Path, program: Option<&ServeProgram>) -> Result<()> {
    let has_rows =
        |dir: &Path| std::fs::metadata(dir.join(files::TRIALS)).is_ok_and(|m| m.len() > 0);
    if !has_rows(out) && !has_rows(&out.join(BASELINE_DIR)) {
        return Ok(());
    }
    let before = RunMeta::read(out)?.and_then(|m| m.duet);
    let shown = out.display();
    match (before, program) {
        (None, None) => Ok(()),
        (Some(d), None) => Err(RunError::Folder(format!(
            "{shown} holds a duet run (this build beside {}): resume it with --baseline {}, or pass --fresh",
            d.baseline_version, d.baseline
        ))),
        (None, Some(_)) => Err(RunError::Folder(format!(
            "{shown} holds a run without a baseline: its trials were not run beside an old build, so a duet cannot continue it; pass --fresh, or --out DIR"
        ))),
        (Some(d), Some(p)) if d.baseline_version != p.version => Err(RunError::Folder(format!(
            "{shown} holds a duet beside `{}`, and --baseline {} is `{}`: resuming would mix two old builds' rows; give the same old build, or pass --fresh",
            d.baseline_version,
            p.given.display(),
            p.version
        ))),
        (Some(_), Some(_)) => Ok(()),
    }
}

/// The old build's meta.json: the run's, with its commit and side.
pub(crate) fn baseline_meta(meta: &RunMeta, program: &ServeProgram) -> RunMeta {
    let mut m = meta.clone();
    m.commit = program.commit.clone();
    m.dirty = None;
    m.rustc = String::new();
    m.cbc = None;
    if let Some(d) = m.duet.as_mut() {
        d.side = Build::Baseline.name().to_string();
    }
    m.test_slowdown.retain(|s| s.starts_with("baseline:"));
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn slowdowns_read_as_given_and_bad_ones_say_why() {
        assert_eq!(
            "prop=25".parse::<Slowdown>(),
            Ok(Slowdown {
                build: Build::New,
                label: "prop".into(),
                percent: 25.0
            })
        );
        let s: Slowdown = "baseline:sat preset=sat=10".parse().unwrap();
        assert_eq!(
            (s.build, s.label.as_str(), s.percent),
            (Build::Baseline, "sat preset=sat", 10.0)
        );
        assert_eq!(s.to_string(), "baseline:sat preset=sat=10");
        for bad in ["prop", "=25", "prop=0", "prop=-5", "prop=nan", "prop=2000"] {
            assert!(bad.parse::<Slowdown>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_slowdown_waits_its_share_and_is_recorded() {
        let call = Duration::from_millis(4);
        let spun = spin_for(50.0, call);
        assert!(spun >= Duration::from_millis(2), "{spun:?}");
        let mut answer = Answer::Solve(sudoku_core::Outcome {
            status: sudoku_core::Status::Infeasible,
            stats: sudoku_core::Stats {
                solve_time: Some(Duration::from_millis(3)),
                ..Default::default()
            },
        });
        mark_slowdown(&mut answer, 50.0, Duration::from_millis(2));
        let stats = answer.stats();
        assert_eq!(stats.solve_time, Some(Duration::from_millis(5)));
        assert!(stats.extra.contains(&(SLOWDOWN_KEY.into(), "50".into())));
    }

    #[test]
    fn words_are_quoted_and_the_builds_take_turns() {
        assert_eq!(quoted("it's"), r"'it'\''s'");
        let order = [(0, 0), (0, 1), (1, 0), (1, 1)];
        let firsts: Vec<Build> = order
            .iter()
            .map(|&(instance, trial)| {
                first_of(&Task {
                    index: 0,
                    config: 0,
                    instance,
                    trial,
                    seed: 0,
                })
            })
            .collect();
        assert_eq!(
            firsts,
            [Build::New, Build::Baseline, Build::Baseline, Build::New]
        );
    }

    #[test]
    fn a_row_says_its_side_and_who_went_first() {
        let mut row = Row {
            extra: "process=kept".into(),
            ..Row::default()
        };
        mark_side(&mut row, Build::Baseline, Build::New);
        assert_eq!(row.extra, "process=kept;duet=baseline;duet_first=new");
    }
}
