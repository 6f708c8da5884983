//! Running an experiment: instances → tasks (stable order, derived seeds) → each task timed and
//! verified → one flushed CSV row per trial → summaries, tables, charts.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use sudoku_core::format::{self, to_text};
use sudoku_core::{
    derive_seed, rng_from_seed, Budget, Generator, Order, Params, Puzzle, Solver, Variant,
};

use crate::clock::Clock;
use crate::experiment::{expand_params, Config, ExperimentFile, InstanceSpec, Kind, Overrides};
use crate::judge::{judge, Answer, Trial};
use crate::progress::Progress;
use crate::registry::Registry;
use crate::results::{done_keys, ms, task_key, Appender, Row, TraceRow, TrialStatus};

/// One puzzle of the experiment.
#[derive(Clone, Debug)]
pub struct Instance {
    /// `file:line`, `empty-9x9`, or `gen:<set>#<i>`.
    pub id: String,
    /// The set it belongs to (file name or generated-set description).
    pub set: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its label from the file, if any.
    pub label: Option<String>,
}

/// One trial to run.
#[derive(Clone, Debug)]
pub struct Task {
    /// Position in the stable order.
    pub index: usize,
    /// Index into the configurations.
    pub config: usize,
    /// Index into the instances.
    pub instance: usize,
    /// Trial number.
    pub trial: u32,
    /// Derived seed.
    pub seed: u64,
}

/// An experiment ready to run: everything resolved and checked.
pub struct Plan {
    /// The file as parsed.
    pub exp: ExperimentFile,
    /// Method configurations (method × parameter grid point).
    pub configs: Vec<Config>,
    /// Instances.
    pub instances: Vec<Instance>,
    /// Every task, in order.
    pub tasks: Vec<Task>,
    /// Per-trial budget.
    pub budget: Budget,
    /// Count limit (kind = count).
    pub count_limit: u64,
    /// Notes for the user (skipped optional sources, …).
    pub notes: Vec<String>,
}

/// Resolves an experiment against the registry: builds every configuration once (so unknown
/// methods and bad parameters fail before anything runs), reads or generates the instances,
/// and lists the tasks.
pub fn plan(exp: ExperimentFile, registry: &Registry, ov: &Overrides) -> Result<Plan> {
    let mut notes = Vec::new();
    let quick = ov.quick.then(|| exp.quick.clone());
    let mut configs = Vec::new();
    for (i, m) in exp.methods.iter().enumerate() {
        let what = format!("method[{i}] (`{}`)", m.name);
        for params in expand_params(&m.params, &what)? {
            match exp.kind {
                Kind::Generate => {
                    let info = registry
                        .generator(&m.name)
                        .map_err(|e| anyhow!("{what}: {e}"))?;
                    (info.build)(&params).map_err(|e| anyhow!("{what}: {e}"))?;
                }
                Kind::Relax => {
                    registry.relax_fn().map_err(|e| anyhow!("{what}: {e}"))?;
                    let info = registry
                        .method(&m.name)
                        .map_err(|e| anyhow!("{what}: {e}"))?;
                    (info.build)(&params).map_err(|e| anyhow!("{what}: {e}"))?;
                }
                Kind::Solve | Kind::Count => {
                    let info = registry
                        .method(&m.name)
                        .map_err(|e| anyhow!("{what}: {e}"))?;
                    if exp.kind == Kind::Count && !info.caps.complete {
                        bail!(
                            "{what}: kind = \"count\" needs a complete method; `{}` cannot count",
                            m.name
                        );
                    }
                    (info.build)(&params).map_err(|e| anyhow!("{what}: {e}"))?;
                }
            }
            let trials = ov
                .trials
                .or(quick.as_ref().map(|q| q.trials))
                .or(m.trials)
                .unwrap_or(exp.trials)
                .max(1);
            configs.push(Config {
                method: m.name.clone(),
                params,
                trials,
            });
        }
    }
    let default_variant: Variant = exp
        .variant
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| anyhow!("key `variant`: {e}"))?
        .unwrap_or_default();
    let mut instances = Vec::new();
    for (i, spec) in exp.instances.iter().enumerate() {
        let before = instances.len();
        read_source(
            &exp,
            i,
            spec,
            default_variant,
            registry,
            &mut instances,
            &mut notes,
        )?;
        let limit = quick.as_ref().map(|q| q.max_instances);
        if let Some(l) = limit {
            // Quick mode keeps the first few of each source.
            let mut seen: HashMap<String, usize> = HashMap::new();
            let kept: Vec<Instance> = instances
                .drain(before..)
                .filter(|inst| {
                    let c = seen.entry(inst.set.clone()).or_default();
                    *c += 1;
                    *c <= l
                })
                .collect();
            instances.extend(kept);
        }
    }
    if exp.kind == Kind::Generate {
        if let Some(bad) = instances.iter().find(|i| i.puzzle.givens().filled() > 0) {
            bail!("kind = \"generate\" takes empty grids (`orders = [...]`), but instance {} has givens", bad.id);
        }
    }
    if instances.is_empty() {
        bail!("no instance to run (every source was empty or skipped)");
    }
    let mut time = exp.budget.time_limit;
    if let Some(q) = &quick {
        time = Some(time.map_or(q.time_limit, |t| t.min(q.time_limit)));
    }
    if let Some(t) = ov.time_limit {
        if !(t > 0.0 && t.is_finite()) {
            bail!("--time-limit: {t} is not a positive number of seconds");
        }
        time = Some(t);
    }
    let budget = Budget {
        time: time.map(Duration::from_secs_f64),
        nodes: exp.budget.node_limit,
        iterations: exp.budget.iteration_limit,
    };
    let mut tasks = Vec::new();
    for (ci, cfg) in configs.iter().enumerate() {
        let label = cfg.label();
        for (ii, inst) in instances.iter().enumerate() {
            for trial in 0..cfg.trials {
                tasks.push(Task {
                    index: tasks.len(),
                    config: ci,
                    instance: ii,
                    trial,
                    seed: derive_seed(exp.seed, &label, &inst.id, trial as u64),
                });
            }
        }
    }
    let count_limit = exp.count_limit.unwrap_or(2).max(1);
    Ok(Plan {
        exp,
        configs,
        instances,
        tasks,
        budget,
        count_limit,
        notes,
    })
}

fn read_source(
    exp: &ExperimentFile,
    i: usize,
    spec: &InstanceSpec,
    default_variant: Variant,
    registry: &Registry,
    out: &mut Vec<Instance>,
    notes: &mut Vec<String>,
) -> Result<()> {
    let variant: Variant = match &spec.variant {
        Some(v) => v
            .parse()
            .map_err(|e| anyhow!("instances[{i}].variant: {e}"))?,
        None => default_variant,
    };
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(f) = &spec.file {
        let p = PathBuf::from(f);
        if !p.exists() {
            if spec.optional {
                notes.push(format!("instances[{i}]: skipped optional {f} (not found)"));
                return Ok(());
            }
            bail!("instances[{i}].file: {f} does not exist (relative paths start where the command runs)");
        }
        files.push(p);
    }
    if let Some(g) = &spec.glob {
        let mut found: Vec<PathBuf> = glob::glob(g)
            .map_err(|e| anyhow!("instances[{i}].glob: {e}"))?
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| anyhow!("instances[{i}].glob: {e}"))?;
        found.sort();
        if found.is_empty() {
            if spec.optional {
                notes.push(format!(
                    "instances[{i}]: skipped optional glob {g} (no file matches)"
                ));
                return Ok(());
            }
            bail!("instances[{i}].glob: no file matches {g}");
        }
        files.extend(found);
    }
    for path in files {
        let name = path.display().to_string();
        let text = format::read_text(&path)?;
        let entries = format::parse_str(&text, &name)?;
        let set = spec.set.clone().unwrap_or_else(|| {
            path.file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| name.clone())
        });
        for e in entries.into_iter().take(spec.limit.unwrap_or(usize::MAX)) {
            out.push(Instance {
                id: format!("{name}:{}", e.line),
                set: set.clone(),
                puzzle: Puzzle::new(e.grid, variant),
                label: e.label,
            });
        }
    }
    if let Some(orders) = &spec.orders {
        for &n in orders {
            let order = Order::new(n).map_err(|e| anyhow!("instances[{i}].orders: {e}"))?;
            out.push(Instance {
                id: format!("empty-{order}"),
                set: spec.set.clone().unwrap_or_else(|| "empty".to_string()),
                puzzle: Puzzle::empty(order, variant),
                label: None,
            });
        }
    }
    if let Some(g) = &spec.generate {
        let order =
            Order::new(g.order).map_err(|e| anyhow!("instances[{i}].generate.order: {e}"))?;
        let what = format!("instances[{i}].generate");
        let info = registry
            .generator(&g.method)
            .map_err(|e| anyhow!("{what}.method: {e}"))?;
        let grids = expand_params(&g.params, &what)?;
        let [params] = grids.as_slice() else {
            bail!("{what}.params: lists are not allowed here (one generator configuration)");
        };
        let mut gen = (info.build)(params).map_err(|e| anyhow!("{what}: {e}"))?;
        let maker = registry
            .puzzle_maker()
            .map_err(|e| anyhow!("{what}: {e}"))?;
        let desc = format!(
            "{order} {} {}{}",
            g.method,
            g.puzzle,
            g.clues.map(|c| format!(" clues={c}")).unwrap_or_default()
        );
        let set = spec.set.clone().unwrap_or_else(|| desc.clone());
        let budget = Budget::time(Duration::from_secs(120));
        for k in 0..g.count {
            let seed = derive_seed(exp.seed, "instances", &format!("{desc} {params}"), k as u64);
            let mut rng = rng_from_seed(seed);
            let full = crate::judge::generated_grid(
                gen.generate(order, variant, &budget, &mut rng),
                &Puzzle::empty(order, variant),
            )
            .map_err(|t| {
                anyhow!(
                    "{what}: generator `{}`, instance {k}: {}",
                    g.method,
                    t.describe()
                )
            })?;
            let givens = maker(&full, variant, &g.puzzle, g.clues, &budget, &mut rng)
                .map_err(|e| anyhow!("{what}: {e}"))?;
            out.push(Instance {
                id: format!("gen:{set}#{k}"),
                set: set.clone(),
                puzzle: Puzzle::new(givens, variant),
                label: Some(format!("generated: {desc}, seed {seed}")),
            });
        }
    }
    Ok(())
}

/// How to run.
pub struct RunOptions<'a> {
    /// Output folder.
    pub out: PathBuf,
    /// Skip trials already in trials.csv.
    pub resume: bool,
    /// Run only tasks with `index % shard.1 == shard.0 - 1`.
    pub shard: Option<(usize, usize)>,
    /// Worker threads.
    pub jobs: usize,
    /// Git commit string for the rows.
    pub commit: String,
    /// Clock.
    pub clock: &'a dyn Clock,
    /// Show progress bars (when stdout is a terminal).
    pub progress: bool,
}

/// What a run did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RunReport {
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

/// Runs the plan's tasks (those not yet done), appending one row per trial to
/// `<out>/trials.csv` (and convergence points to `<out>/traces.csv`).
pub fn execute(plan: &Plan, registry: &Registry, opts: &RunOptions) -> Result<RunReport> {
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("creating {}", opts.out.display()))?;
    let trials_path = opts.out.join("trials.csv");
    let (done, rows) = if opts.resume {
        done_keys(&trials_path)?
    } else {
        if trials_path.exists() && std::fs::metadata(&trials_path)?.len() > 0 {
            bail!(
                "{} already holds results: pass --resume to continue that run, or --fresh to start over",
                trials_path.display()
            );
        }
        (HashSet::new(), Vec::new())
    };
    // A trace line whose trial row never got written belongs to a trial that will run again.
    let traces_path = opts.out.join("traces.csv");
    if traces_path.exists() {
        let traces: Vec<TraceRow> = crate::results::read_rows(&traces_path)?;
        let tasks: HashSet<usize> = rows.iter().map(|r| r.task).collect();
        let kept: Vec<TraceRow> = traces
            .into_iter()
            .filter(|t| tasks.contains(&t.task))
            .collect();
        crate::results::write_rows(&traces_path, &kept)?;
    }
    let mine: Vec<&Task> = plan
        .tasks
        .iter()
        .filter(|t| opts.shard.is_none_or(|(k, n)| t.index % n == k - 1))
        .collect();
    let todo: Vec<&Task> = mine
        .iter()
        .copied()
        .filter(|t| !done.contains(&key_of(plan, t)))
        .collect();
    let mut report = RunReport {
        planned: mine.len(),
        skipped: mine.len() - todo.len(),
        ..RunReport::default()
    };
    let mut trials = Appender::<Row>::open(&trials_path)?;
    let mut traces: Option<Appender<TraceRow>> = None;
    let progress = Progress::new(todo.len() as u64, opts.progress);
    let mut record = |row: Row, trace: Vec<TraceRow>, report: &mut RunReport| -> Result<()> {
        if !trace.is_empty() {
            if traces.is_none() {
                traces = Some(Appender::open(&traces_path)?);
            }
            let t = traces.as_mut().expect("opened above");
            for p in &trace {
                t.push(p)?;
            }
        }
        trials.push(&row)?;
        report.ran += 1;
        if row.success() {
            report.succeeded += 1;
        }
        match row.status {
            TrialStatus::Wrong => {
                report.wrong += 1;
                progress.println(&format!(
                    "WARNING: {} {} returned a WRONG answer on {} (trial {}): {}",
                    row.method, row.params, row.instance, row.trial, row.message
                ));
            }
            TrialStatus::Error => {
                report.errors += 1;
                progress.println(&format!(
                    "error: {} {} failed on {} (trial {}): {}",
                    row.method, row.params, row.instance, row.trial, row.message
                ));
            }
            _ => {}
        }
        progress.advance(&row);
        Ok(())
    };
    install_panic_capture();
    if opts.jobs <= 1 || todo.len() <= 1 {
        let mut cache = Cache::default();
        for t in &todo {
            progress.current(
                &plan.configs[t.config].label(),
                plan.instances[t.instance].puzzle.order(),
            );
            let (row, trace) = run_task(plan, registry, t, &mut cache, opts);
            record(row, trace, &mut report)?;
        }
    } else {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|s| -> Result<()> {
            for _ in 0..opts.jobs {
                let tx = tx.clone();
                let next = &next;
                let todo = &todo;
                s.spawn(move || {
                    let mut cache = Cache::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = todo.get(i) else { break };
                        let out = run_task(plan, registry, t, &mut cache, opts);
                        if tx.send(out).is_err() {
                            break;
                        }
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
    progress.finish();
    Ok(report)
}

fn key_of(plan: &Plan, t: &Task) -> String {
    let cfg = &plan.configs[t.config];
    let inst = &plan.instances[t.instance];
    task_key(
        &cfg.method,
        &cfg.params.to_string(),
        inst.puzzle.variant().name(),
        &inst.id,
        t.trial,
    )
}

enum Built {
    Solver(Box<dyn Solver + Send>),
    Generator(Box<dyn Generator + Send>),
}

/// Each worker's configured methods, built once and reused across trials.
#[derive(Default)]
struct Cache {
    built: HashMap<usize, Built>,
}

/// Methods that are not thread-safe (CBC) take this lock around their call, outside the timed
/// region, so two never run at once and waiting is never counted as solving.
static EXCLUSIVE: Mutex<()> = Mutex::new(());

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Records a panic's message and place for the row, instead of printing over the progress bar.
fn install_panic_capture() {
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

fn run_task(
    plan: &Plan,
    registry: &Registry,
    t: &Task,
    cache: &mut Cache,
    opts: &RunOptions,
) -> (Row, Vec<TraceRow>) {
    let cfg = &plan.configs[t.config];
    let inst = &plan.instances[t.instance];
    let puzzle = &inst.puzzle;
    let mut row = Row {
        task: t.index,
        experiment: plan.exp.name.clone(),
        kind: plan.exp.kind.name().to_string(),
        method: cfg.method.clone(),
        params: cfg.params.to_string(),
        variant: puzzle.variant().name().to_string(),
        order: puzzle.order().n(),
        instance_set: inst.set.clone(),
        instance: inst.id.clone(),
        givens: puzzle.givens().filled(),
        trial: t.trial,
        seed: t.seed,
        commit: opts.commit.clone(),
        ..Row::default()
    };
    let mut rng = rng_from_seed(t.seed);
    let exclusive = match plan.exp.kind {
        Kind::Generate => !registry.generator(&cfg.method).is_ok_and(|g| g.thread_safe),
        Kind::Relax => true,
        Kind::Solve | Kind::Count => !registry
            .method(&cfg.method)
            .is_ok_and(|m| m.caps.thread_safe),
    };
    if !cache.built.contains_key(&t.config) && plan.exp.kind != Kind::Relax {
        let built = match plan.exp.kind {
            Kind::Generate => {
                (registry.generator(&cfg.method).expect("checked").build)(&cfg.params)
                    .map(Built::Generator)
            }
            _ => (registry.method(&cfg.method).expect("checked").build)(&cfg.params)
                .map(Built::Solver),
        };
        match built {
            Ok(b) => {
                cache.built.insert(t.config, b);
            }
            Err(e) => {
                Trial::error(e.to_string()).fill(&mut row);
                return (row, Vec::new());
            }
        }
    }
    let _guard = exclusive.then(|| EXCLUSIVE.lock().unwrap_or_else(|e| e.into_inner()));
    let clock = opts.clock;
    LAST_PANIC.with(|p| *p.borrow_mut() = Some(String::new()));
    let (w0, c0) = (clock.wall(), clock.cpu());
    let result = panic::catch_unwind(AssertUnwindSafe(|| -> Result<Answer> {
        match plan.exp.kind {
            Kind::Solve => match cache.built.get_mut(&t.config) {
                Some(Built::Solver(s)) => {
                    Ok(Answer::Solve(s.solve(puzzle, &plan.budget, &mut rng)))
                }
                _ => Err(anyhow!("internal: no solver built")),
            },
            Kind::Count => match cache.built.get_mut(&t.config) {
                Some(Built::Solver(s)) => Ok(Answer::Count(
                    s.count(puzzle, plan.count_limit, true, &plan.budget, &mut rng)
                        .map_err(|e| anyhow!("{e}"))?,
                )),
                _ => Err(anyhow!("internal: no solver built")),
            },
            Kind::Generate => match cache.built.get_mut(&t.config) {
                Some(Built::Generator(g)) => Ok(Answer::Solve(g.generate(
                    puzzle.order(),
                    puzzle.variant(),
                    &plan.budget,
                    &mut rng,
                ))),
                _ => Err(anyhow!("internal: no generator built")),
            },
            Kind::Relax => Ok(Answer::Relax(registry.relax_fn()?(
                puzzle,
                &cfg.params,
                &plan.budget,
            )?)),
        }
    }));
    let (w1, c1) = (clock.wall(), clock.cpu());
    let panic_msg = LAST_PANIC.with(|p| p.borrow_mut().take());
    row.wall_ms = ms(w1.saturating_sub(w0));
    row.cpu_ms = ms(c1.saturating_sub(c0));
    let answer = match result {
        Ok(Ok(a)) => a,
        Ok(Err(e)) => {
            Trial::error(format!("{e:#}")).fill(&mut row);
            return (row, Vec::new());
        }
        Err(_) => {
            // The method's state may be broken: build it afresh for the next trial.
            cache.built.remove(&t.config);
            Trial::error(
                panic_msg
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| "panic".into()),
            )
            .fill(&mut row);
            return (row, Vec::new());
        }
    };
    let stats = answer.stats();
    row.set_stats(&stats);
    judge(&answer, puzzle).fill(&mut row);
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

/// Writes the instances of a plan that were generated, so a run's puzzles can be inspected and
/// re-used.
pub fn write_generated(plan: &Plan, out: &Path) -> Result<()> {
    let generated: Vec<&Instance> = plan
        .instances
        .iter()
        .filter(|i| i.id.starts_with("gen:"))
        .collect();
    if generated.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    for inst in generated {
        text.push_str(&format!(
            "# {} ({})\n",
            inst.id,
            inst.label.as_deref().unwrap_or("")
        ));
        text.push_str(&to_text(inst.puzzle.givens()));
    }
    crate::results::write_atomic(&out.join("instances.txt"), &text)
}

/// Parses `k/N` (1-based k).
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

/// Re-used by `solve`: the params of a `--param` list.
pub fn params_from(pairs: &[String]) -> Result<Params> {
    let mut p = Params::new();
    for pair in pairs {
        p.push_pair(pair).map_err(|e| anyhow!("--param: {e}"))?;
    }
    Ok(p)
}
