//! Executing a plan: each task runs its configured method under the configuration's budget
//! (best of `repeat` runs), timed by the [`Clock`], with panics captured as rows and CBC's
//! calls never overlapping; each judged trial is one flushed row of `trials.csv`.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use sudoku_core::rng_from_seed;

use sudoku_analysis::files;
use sudoku_analysis::meta::RunSettings;

use crate::clock::Clock;
use crate::error::{chain_text, Result, RunError};
use crate::judge::{judge_checked, Answer, Trial};
use crate::kind::Job;
use crate::latin::judge_latin;
use crate::plan::{Config, Plan, Task};
use crate::results::{ms, Appender, Row, TraceRow, TrialStatus};
use crate::resume::{remaining, Todo};
use crate::shard::Shard;
use crate::sink::{Event, Sink};

/// How to execute a plan.
pub struct ExecOptions<'a> {
    /// Output folder.
    pub out: PathBuf,
    /// Resume: skip trials already in trials.csv, checking their rows against these settings
    /// (the run's, as its meta.json records them: computed once, by the caller).
    pub resume: Option<&'a RunSettings>,
    /// Run only this shard's tasks.
    pub shard: Option<Shard>,
    /// Worker threads.
    pub jobs: usize,
    /// Git commit string for the rows.
    pub commit: String,
    /// Clock.
    pub clock: &'a dyn Clock,
    /// Where each trial's end (and the start and end of the trials) is said.
    pub sink: &'a dyn Sink,
}

/// What an execution did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ExecReport {
    /// Tasks in this shard.
    pub planned: usize,
    /// Tasks skipped because trials.csv had them.
    pub skipped: usize,
    /// Tasks run now.
    pub ran: usize,
    /// Of those, definitive answers.
    pub succeeded: usize,
    /// Rows with status `wrong`.
    pub wrong: usize,
    /// Rows with status `error`.
    pub errors: usize,
}

impl ExecReport {
    /// Counts a trial run now by its row.
    pub(crate) fn count(&mut self, row: &Row) {
        self.ran += 1;
        if row.success() {
            self.succeeded += 1;
        }
        match row.status {
            TrialStatus::Wrong => self.wrong += 1,
            TrialStatus::Error => self.errors += 1,
            _ => {}
        }
    }
}

/// Runs the plan's tasks (those not yet done), appending one row per trial to
/// `<out>/trials.csv` (and convergence points to `<out>/traces.csv`).
pub fn execute_plan(plan: &Plan, opts: &ExecOptions) -> Result<ExecReport> {
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| RunError::io(format!("creating {}", opts.out.display()), e))?;
    let todo = remaining(plan, &opts.out, opts.resume, opts.shard)?;
    execute_todo(plan, todo, opts)
}

/// Runs the tasks of `todo` ([`remaining`] made it from the folder `opts.out`, which must
/// exist): what [`execute_plan`] does once it knows them. `run` finds them before it writes
/// meta.json, so that a folder it refuses is left as it was.
pub fn execute_todo(plan: &Plan, todo: Todo<'_>, opts: &ExecOptions) -> Result<ExecReport> {
    todo.prune_traces(&opts.out)?;
    let mut report = ExecReport {
        planned: todo.mine,
        skipped: todo.mine - todo.tasks.len(),
        ..ExecReport::default()
    };
    let traces_path = opts.out.join(files::TRACES);
    let mut trials = Appender::<Row>::open(&opts.out.join(files::TRIALS))?;
    let mut traces: Option<Appender<TraceRow>> = None;
    let sink = opts.sink;
    sink.event(Event::Started {
        tasks: todo.tasks.len(),
    });
    let mut record = |row: Row, trace: Vec<TraceRow>, report: &mut ExecReport| -> Result<()> {
        if !trace.is_empty() {
            let t = match &mut traces {
                Some(t) => t,
                None => traces.insert(Appender::open(&traces_path)?),
            };
            for p in &trace {
                t.push(p)?;
            }
        }
        trials.push(&row)?;
        report.count(&row);
        sink.event(Event::Trial(&row));
        if sink.cancelled() {
            return Err(RunError::Cancelled {
                dir: opts.out.clone(),
                done: report.ran,
                tasks: todo.tasks.len(),
            });
        }
        Ok(())
    };
    install_panic_capture();
    if sink.cancelled() {
        return Err(RunError::Cancelled {
            dir: opts.out.clone(),
            done: 0,
            tasks: todo.tasks.len(),
        });
    }
    if opts.jobs <= 1 || todo.tasks.len() <= 1 {
        for t in &todo.tasks {
            sink.event(Event::Running {
                config: &plan.configs[t.config].label(),
                order: plan.instances[t.instance].puzzle.order(),
            });
            let (row, trace) = run_task(plan, t, opts.clock, &opts.commit);
            record(row, trace, &mut report)?;
        }
    } else {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|s| -> Result<()> {
            // No more workers than tasks: `--jobs 100000` must not start 100000 threads.
            for _ in 0..opts.jobs.min(todo.tasks.len()) {
                let tx = tx.clone();
                let next = &next;
                let todo = &todo.tasks;
                let (clock, commit) = (opts.clock, opts.commit.as_str());
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(t) = todo.get(i) else { break };
                    if tx.send(run_task(plan, t, clock, commit)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for (row, trace) in rx {
                record(row, trace, &mut report)?;
            }
            Ok(())
        })?;
    }
    sink.event(Event::TrialsDone {
        skipped: report.skipped,
        ran: report.ran,
    });
    Ok(report)
}

/// Methods that are not thread-safe (CBC) take this lock around their call, outside the timed
/// region, so two never run at once and waiting is never counted as solving.
static EXCLUSIVE: Mutex<()> = Mutex::new(());

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Records a panic's message and place for the row, instead of printing over the progress bar.
pub(crate) fn install_panic_capture() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let msg = match info.payload().downcast_ref::<&str>() {
                Some(s) => s.to_string(),
                None => match info.payload().downcast_ref::<String>() {
                    Some(s) => s.clone(),
                    None => "panic with a non-text payload".to_string(),
                },
            };
            let place = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let captured = LAST_PANIC.with(|p| {
                let mut p = p.borrow_mut();
                let in_task = p.is_some();
                if in_task {
                    *p = Some(format!("panic: {msg}{place}"));
                }
                in_task
            });
            if !captured {
                default(info);
            }
        }));
    });
}

/// One repetition's judged answer and its times.
struct Run {
    answer: Answer,
    trial: Trial,
    wall_ms: f64,
    cpu_ms: f64,
}

/// Runs one task: `repeat` times from the same seed; the row keeps the fastest repetition, or
/// the first wrong one (any wrong answer makes the trial wrong).
fn run_task(plan: &Plan, t: &Task, clock: &dyn Clock, commit: &str) -> (Row, Vec<TraceRow>) {
    run_task_as(plan, &plan.configs[t.config], t, clock, commit)
}

/// [`run_task`] with the configuration `cfg` in place of the plan's own (a duet's old build
/// runs the plan's tasks with configurations of its own).
pub(crate) fn run_task_as(
    plan: &Plan,
    cfg: &Config,
    t: &Task,
    clock: &dyn Clock,
    commit: &str,
) -> (Row, Vec<TraceRow>) {
    let inst = &plan.instances[t.instance];
    let puzzle = &inst.puzzle;
    let mut row = Row {
        task: t.index,
        experiment: plan.exp.name.clone(),
        kind: plan.exp.kind.name().to_string(),
        method: cfg.method.clone(),
        params: cfg.params.shown(),
        variant: puzzle.variant().name().to_string(),
        order: puzzle.order().n(),
        instance_set: inst.set.clone(),
        instance: inst.id.clone(),
        givens: puzzle.givens().filled(),
        trial: t.trial,
        seed: t.seed,
        commit: commit.to_string(),
        repeats: cfg.repeat,
        threads: 1,
        ..Row::default()
    };
    let mut method = match cfg.take() {
        Ok(m) => m,
        Err(e) => {
            Trial::error(chain_text(&e)).fill(&mut row);
            return (row, Vec::new());
        }
    };
    let mut kept: Option<Run> = None;
    for _ in 0..cfg.repeat {
        let mut rng = rng_from_seed(t.seed);
        method.trial_seed(t.seed);
        let _guard = cfg
            .exclusive
            .then(|| EXCLUSIVE.lock().unwrap_or_else(|e| e.into_inner()));
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(String::new()));
        let rss = clock.peak_rss();
        // The CPU clock is a system call: read outside the wall clock's window on both sides.
        let c0 = clock.cpu();
        let w0 = clock.wall();
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            method.attempt(
                &Job {
                    puzzle,
                    carve: inst.carve.as_ref(),
                    budget: &cfg.budget,
                },
                &mut rng,
            )
        }));
        // TEST ONLY: the configuration made slower inside its own clock.
        let spun = cfg.slowdown.map(|p| {
            let call = clock.wall().saturating_sub(w0);
            let own = match &result {
                Ok(Ok(answer)) => crate::slowdown::own_time(answer, call),
                _ => call,
            };
            crate::slowdown::spin_for(p, own)
        });
        let w1 = clock.wall();
        let c1 = clock.cpu();
        let panic_msg = LAST_PANIC.with(|p| p.borrow_mut().take());
        row.wall_ms = ms(w1.saturating_sub(w0));
        row.cpu_ms = ms(c1.saturating_sub(c0));
        row.peak_rss_kb = row.peak_rss_kb.max(rss.and_then(|r| r.peak_kb()));
        let mut answer = match result {
            Ok(Ok(a)) => a,
            Ok(Err(e)) => {
                cfg.give_back(method);
                Trial::error(chain_text(&e)).fill(&mut row);
                return (row, Vec::new());
            }
            Err(_) => {
                // The method's state may be broken: it is dropped, and the next trial builds
                // a fresh one.
                Trial::error(
                    panic_msg
                        .filter(|m| !m.is_empty())
                        .unwrap_or_else(|| "panic".into()),
                )
                .fill(&mut row);
                return (row, Vec::new());
            }
        };
        // What the method reads after the call (a child's CPU time) is not its work.
        method.settle(&mut answer);
        if let (Some(p), Some(spun)) = (cfg.slowdown, spun) {
            crate::slowdown::mark_slowdown(&mut answer, p, spun);
        }
        // An outside program's "no solution" or complete count is checked by one of ours.
        let mut trial = judge_checked(&answer, puzzle, &cfg.budget);
        if let Some(square) = &inst.latin {
            trial = judge_latin(trial, &answer, square);
        }
        // An outside program's CPU time is its own and its descendants'; the harness's
        // thread (writing, waiting, reading) is not part of it.
        let own_cpu = if cfg.outside { 0.0 } else { row.cpu_ms };
        let run = Run {
            trial,
            cpu_ms: own_cpu + ms(answer.child_cpu()),
            answer,
            wall_ms: row.wall_ms,
        };
        let wrong = run.trial.status == TrialStatus::Wrong;
        if kept.as_ref().is_none_or(|k| run.wall_ms < k.wall_ms) || wrong {
            kept = Some(run);
        }
        if wrong {
            break;
        }
    }
    cfg.give_back(method);
    let Some(run) = kept else {
        return (row, Vec::new());
    };
    row.wall_ms = run.wall_ms;
    row.cpu_ms = run.cpu_ms;
    let stats = run.answer.stats();
    row.set_stats(&stats);
    run.trial.fill(&mut row);
    let trace = stats
        .trace
        .iter()
        .map(|p| TraceRow {
            task: t.index,
            method: row.method.clone(),
            params: row.params.clone(),
            order: row.order,
            instance: row.instance.clone(),
            trial: t.trial,
            iteration: p.iteration,
            elapsed_ms: ms(p.elapsed),
            best_cost: p.best_cost,
        })
        .collect();
    (row, trace)
}
