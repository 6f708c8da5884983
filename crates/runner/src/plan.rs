//! The plan: an experiment file resolved against the registry. Every configuration is built
//! once here (so unknown methods, missing capabilities and bad parameters fail before anything
//! runs) and kept for the trials; instances are read or generated; tasks get their stable order
//! and derived seeds. The tasks are counted before they are made: a plan of none, or of more
//! than [`MAX_TASKS`], is an error naming what to change.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sudoku_analysis::escape::visible;
use sudoku_analysis::files;
use sudoku_analysis::meta::config_label;
use sudoku_core::format::{self, to_text};
use sudoku_core::limits::time_limit;
use sudoku_core::{derive_seed, rng_from_seed, Budget, Params, Puzzle, Variant};

use crate::error::{Result, RunError};
use crate::experiment::{
    expand_params, CarveSpec, ExperimentFile, GenerateSpec, InstanceSpec, Kind, Overrides,
};
use crate::judge::{judge, Answer};
use crate::kind::{capability, Capability, Job, KindSettings, TrialMethod};
use crate::latin;
use crate::registry::Registry;
use crate::results::TrialStatus;
use crate::shard::Shard;

/// The most tasks one plan may hold: a million, about 90 times the largest committed run
/// (11,382 rows). Each task is kept in memory during the run and each becomes a row of
/// trials.csv (a few hundred bytes), which `plot` then reads whole; a larger study is split
/// over several experiment files (or shards of runs of at most this size).
pub const MAX_TASKS: u64 = 1_000_000;

/// One method configuration: a method and one point of its parameter grid.
pub struct Config {
    /// Registered name.
    pub method: String,
    /// Parameter values.
    pub params: Params,
    /// Trials per instance.
    pub trials: u32,
    /// Limits of each trial (`[budget]`, overridden by the method's own, then the command line).
    pub budget: Budget,
    /// Best-of-R repetitions per trial.
    pub repeat: u32,
    /// Whether trials of it must not overlap (CBC).
    pub exclusive: bool,
    /// Only instances of these orders (`[[method]] orders`); `None`: all.
    pub orders: Option<Vec<sudoku_core::Order>>,
    /// Only instances of these variants (`[[method]] variants`); `None`: all.
    pub variants: Option<Vec<sudoku_core::Variant>>,
    /// Its answers come from another program (`external`, or a duet's old build): their
    /// claims of no solution are checked, and the harness's own CPU time is not theirs.
    pub outside: bool,
    /// TEST ONLY: each trial made this many per cent slower inside its clock
    /// ([`crate::slowdown::spin_for`]); `None` in every real run.
    pub slowdown: Option<f64>,
    capability: Capability,
    /// Built methods not in use: the one the plan built, and any a worker returned.
    idle: Mutex<Vec<Box<dyn TrialMethod>>>,
}

impl Config {
    /// `method` or `method a=1 b=2` (`method name=<label>` when named): names the
    /// configuration in seeds and messages.
    pub fn label(&self) -> String {
        config_label(&self.method, &self.params.shown())
    }

    /// A built method for one trial: an idle one, or a new one when every built one is busy
    /// (parallel workers).
    pub fn take(&self) -> Result<Box<dyn TrialMethod>> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match idle {
            Some(m) => Ok(m),
            None => (self.capability.build)(&self.params),
        }
    }

    /// The same configuration (method, parameters, trials, limits, orders) with its trials
    /// made by `capability` instead, which is built once here: a duet's old build.
    pub(crate) fn twin(&self, capability: Capability, outside: bool) -> Result<Config> {
        let built = (capability.build)(&self.params)?;
        Ok(Config {
            method: self.method.clone(),
            params: self.params.clone(),
            trials: self.trials,
            budget: self.budget,
            repeat: self.repeat,
            exclusive: !capability.thread_safe,
            orders: self.orders.clone(),
            variants: self.variants.clone(),
            outside,
            slowdown: None,
            capability,
            idle: Mutex::new(vec![built]),
        })
    }

    /// Returns a method after a trial that left it sound (not after a panic).
    pub fn give_back(&self, m: Box<dyn TrialMethod>) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(m);
    }

    /// Does it run instances of this order (`[[method]] orders`)?
    pub fn runs_order(&self, order: sudoku_core::Order) -> bool {
        self.orders.as_ref().is_none_or(|os| os.contains(&order))
    }

    /// Does it run this puzzle (`[[method]] orders` and `variants`)?
    pub fn runs(&self, puzzle: &Puzzle) -> bool {
        self.runs_order(puzzle.order())
            && self
                .variants
                .as_ref()
                .is_none_or(|vs| vs.contains(&puzzle.variant()))
    }
}

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
    /// Kind = generate: the carving each trial applies to its grid, if any.
    pub carve: Option<CarveSpec>,
    /// The partial Latin square the puzzle was reduced from (`latin = "FILE"`), which every
    /// answer must complete.
    pub latin: Option<sudoku_gen::LatinSquare>,
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

/// An experiment ready to run: everything resolved, checked and built.
pub struct Plan {
    /// The file as parsed.
    pub exp: ExperimentFile,
    /// Method configurations (method × parameter grid point).
    pub configs: Vec<Config>,
    /// Instances.
    pub instances: Vec<Instance>,
    /// Every task, in order.
    pub tasks: Vec<Task>,
    /// Notes for the user (skipped optional sources, …).
    pub notes: Vec<String>,
}

/// The configurations by label, and the sizes: a plan's built methods have nothing to show.
impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("experiment", &self.exp.name)
            .field(
                "configs",
                &self.configs.iter().map(Config::label).collect::<Vec<_>>(),
            )
            .field("instances", &self.instances.len())
            .field("tasks", &self.tasks.len())
            .field("notes", &self.notes)
            .finish()
    }
}

/// A plan's size, said before anything runs: how many tasks, and the longest they may take.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSize {
    /// Method configurations.
    pub configs: usize,
    /// Instances.
    pub instances: usize,
    /// Tasks of the plan.
    pub tasks: usize,
    /// The shard, when the run is one.
    pub shard: Option<Shard>,
    /// Tasks of the shard (of the plan without one).
    pub mine: usize,
    /// The most best-of-R repetitions a task runs.
    pub repeats: u32,
    /// The longest the tasks may take, in seconds, every repetition of every trial running to
    /// its time limit (of the configurations that have one).
    pub worst_seconds: f64,
    /// A configuration without a time limit, when there is one: then there is no bound.
    pub unlimited: Option<String>,
}

impl Plan {
    /// The plan's size (of `shard`'s tasks, when given). A shard that holds no task is an
    /// error.
    pub fn size(&self, shard: Option<Shard>) -> Result<PlanSize> {
        let mut mine = 0usize;
        let mut worst = 0.0f64;
        let mut unlimited = None;
        let mut repeats = 1;
        for t in self
            .tasks
            .iter()
            .filter(|t| shard.is_none_or(|s| s.holds(t.index)))
        {
            let cfg = &self.configs[t.config];
            mine += 1;
            repeats = repeats.max(cfg.repeat);
            match cfg.budget.time {
                Some(limit) => worst += limit.as_secs_f64() * f64::from(cfg.repeat),
                None => unlimited = unlimited.or(Some(cfg.label())),
            }
        }
        if let Some(s) = shard {
            if mine == 0 {
                return Err(RunError::Shard(format!(
                    "--shard {s}: the plan has {} tasks, so shard {} holds none (N may be at most {})",
                    self.tasks.len(),
                    s.k(),
                    self.tasks.len()
                )));
            }
        }
        Ok(PlanSize {
            configs: self.configs.len(),
            instances: self.instances.len(),
            tasks: self.tasks.len(),
            shard,
            mine,
            repeats,
            worst_seconds: worst,
            unlimited,
        })
    }
}

/// Resolves an experiment against the registry.
pub fn make_plan(exp: ExperimentFile, registry: &Registry, ov: &Overrides) -> Result<Plan> {
    let mut notes = Vec::new();
    let configs = make_configs(&exp, registry, ov)?;
    let max_instances = ov.quick.then_some(exp.quick.max_instances);
    let mut instances = Vec::new();
    let mut seen = Seen::default();
    for (i, spec) in exp.instances.iter().enumerate() {
        let before = instances.len();
        read_source(
            &exp,
            i,
            spec,
            registry,
            &mut instances,
            &mut notes,
            &mut seen,
        )?;
        // Before quick mode keeps a few: a quick run refuses what the full run would.
        seen.ids(i, &instances[before..])?;
        if let Some(l) = max_instances {
            // Quick mode keeps the first few of each source that some configuration runs:
            // a source that opens with puzzles of an order every `orders` list leaves out
            // would otherwise leave nothing to run.
            let mut seen: HashMap<String, usize> = HashMap::new();
            let kept: Vec<Instance> = instances
                .drain(before..)
                .filter(|inst| {
                    if !configs.iter().any(|c| c.runs(&inst.puzzle)) {
                        return false;
                    }
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
            return Err(RunError::Plan(format!("kind = \"generate\" takes empty grids (`orders = [...]`), but instance {} has givens", bad.id)));
        }
    }
    if instances.is_empty() {
        return Err(RunError::Plan(
            "no instance to run (every source was empty or skipped)".to_string(),
        ));
    }
    check_orders(&configs, &instances)?;
    // Every shape's shared tables built before any clock starts, not in its first trial.
    Puzzle::prepare_shapes(instances.iter().map(|i| &i.puzzle));
    // Made at its size: a million tasks are one block, not a list doubled twenty times.
    let mut tasks = Vec::with_capacity(count_tasks(&configs, &instances, &mut notes)?);
    for (ci, cfg) in configs.iter().enumerate() {
        let label = cfg.label();
        for (ii, inst) in instances.iter().enumerate() {
            if !cfg.runs(&inst.puzzle) {
                continue;
            }
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
    Ok(Plan {
        exp,
        configs,
        instances,
        tasks,
        notes,
    })
}

/// Counts the tasks of a plan before any is made: none is an error (the methods run on none of
/// the instances), and so is more than [`MAX_TASKS`]; a configuration that runs no instance
/// gets a note. Returns how many there are.
fn count_tasks(
    configs: &[Config],
    instances: &[Instance],
    notes: &mut Vec<String>,
) -> Result<usize> {
    let mut total: u64 = 0;
    for cfg in configs {
        let runs = instances.iter().filter(|i| cfg.runs(&i.puzzle)).count() as u64;
        if runs == 0 {
            notes.push(format!(
                "`{}` runs no instance: its `orders` or `variants` leave out every instance",
                visible(&cfg.label())
            ));
        }
        total = total.saturating_add(runs.saturating_mul(u64::from(cfg.trials)));
    }
    if total == 0 {
        let orders: std::collections::BTreeSet<String> = instances
            .iter()
            .map(|i| i.puzzle.order().to_string())
            .collect();
        return Err(RunError::Plan(format!(
            "no task to run: the instances are {} puzzles, and every [[method]]'s `orders` leaves those out",
            orders.into_iter().collect::<Vec<_>>().join(", ")
        )));
    }
    if total > MAX_TASKS {
        return Err(RunError::Plan(format!(
            "the plan has {total} tasks (instances × trials over {} configurations), more than {MAX_TASKS}, the most one run may hold: lower `trials` (or pass --trials), or split the methods or instances over several experiment files",
            configs.len()
        )));
    }
    Ok(total as usize)
}

/// Builds every configuration of the experiment's methods (each point of each parameter
/// grid), so that unknown methods, missing capabilities and bad parameters fail before any
/// trial; quick mode and `--time-limit` cap the time limits, and quick mode runs each trial
/// once (`repeat` 1).
pub fn make_configs(
    exp: &ExperimentFile,
    registry: &Registry,
    ov: &Overrides,
) -> Result<Vec<Config>> {
    let mut carves: Vec<CarveSpec> = exp.carve.iter().cloned().collect();
    for c in exp.instances.iter().filter_map(|s| s.carve.as_ref()) {
        if !carves.contains(c) {
            carves.push(c.clone());
        }
    }
    let settings = KindSettings {
        count_limit: exp.count_limit,
        carves,
    };
    let quick = ov.quick.then_some(&exp.quick);
    let time_override = ov
        .time_limit
        .map(|t| time_limit(t).map_err(|e| RunError::Plan(format!("--time-limit: {e}"))))
        .transpose()?;
    let mut configs = Vec::new();
    for (i, m) in exp.methods.iter().enumerate() {
        let what = format!("method[{i}] (`{}`)", m.name);
        let cap = capability(exp.kind, registry, &m.name, &settings)
            .map_err(|e| RunError::at(what.clone(), e))?;
        let mut limits = m.budget.over(&exp.budget);
        if let Some(q) = quick {
            limits.time_limit = Some(
                limits
                    .time_limit
                    .map_or(q.time_limit, |t| t.min(q.time_limit)),
            );
        }
        if let Some(t) = time_override {
            limits.time_limit = Some(t);
        }
        for params in expand_params(&m.params, &what)? {
            let built = (cap.build)(&params).map_err(|e| RunError::at(what.clone(), e))?;
            let trials = ov
                .trials
                .or(quick.map(|q| q.trials))
                .or(m.trials)
                .unwrap_or(exp.trials)
                .max(1);
            configs.push(Config {
                method: m.name.clone(),
                params,
                trials,
                budget: limits.budget(),
                repeat: if quick.is_some() {
                    1
                } else {
                    m.repeat.unwrap_or(exp.repeat).max(1)
                },
                exclusive: !cap.thread_safe,
                orders: m.orders.clone(),
                variants: m.variants.clone(),
                outside: m.name == sudoku_external::NAME,
                slowdown: None,
                capability: cap.clone(),
                idle: Mutex::new(vec![built]),
            });
        }
    }
    Ok(configs)
}

/// Checks every configuration against the orders of the instances it will run (a `prefer`
/// cell outside a 9×9 grid), so such a parameter fails before any trial.
fn check_orders(configs: &[Config], instances: &[Instance]) -> Result<()> {
    let orders: std::collections::BTreeSet<sudoku_core::Order> =
        instances.iter().map(|i| i.puzzle.order()).collect();
    for cfg in configs {
        let method = cfg.take()?;
        let checked = orders
            .iter()
            .filter(|&&o| cfg.runs_order(o))
            .try_for_each(|&o| {
                method.check_order(o).map_err(|e| {
                    RunError::Plan(format!(
                        "`{}`: {e} (the instances include {o} puzzles)",
                        cfg.label()
                    ))
                })
            });
        cfg.give_back(method);
        checked?;
    }
    Ok(())
}

/// The instances of the sources read so far, so that a plan holds each puzzle once: two rows
/// of one (configuration, variant, instance, trial) cannot be told apart (`trials.csv` refuses
/// the second, after every trial has run), and the same puzzle twice under two names (`six.txt`
/// and `./six.txt`) would count twice in every summary.
#[derive(Default)]
struct Seen {
    /// (variant, instance id) → the source that made it.
    ids: HashMap<(Variant, String), usize>,
    /// (the file, as the system resolves it; line; variant) → the source and the id.
    lines: HashMap<(PathBuf, usize, Variant), (usize, String)>,
}

impl Seen {
    /// Notes the puzzle at `line` of `path` (`real`: resolved), read by source `i`; one that
    /// an earlier source (or this one) read already is an error.
    fn line(
        &mut self,
        i: usize,
        (path, real): (&Path, &Path),
        line: usize,
        variant: Variant,
        id: &str,
    ) -> Result<()> {
        match self.lines.entry((real.to_path_buf(), line, variant)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let (j, other) = first.get();
                Err(RunError::Plan(format!(
                    "instances[{i}]: line {line} of {} is already an instance of instances[{j}] (`{}`): the same puzzle file twice (two `file`s, or a `file` and a `glob` that matches it); list each file once, or part one with `skip` and `limit`",
                    visible(&path.display().to_string()),
                    visible(other)
                )))
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert((i, id.to_string()));
                Ok(())
            }
        }
    }

    /// Notes the instances source `i` made; an id an earlier source made (or this one, for the
    /// same variant) is an error.
    fn ids(&mut self, i: usize, made: &[Instance]) -> Result<()> {
        for inst in made {
            let key = (inst.puzzle.variant(), inst.id.clone());
            if let Some(&j) = self.ids.get(&key) {
                return Err(RunError::Plan(format!(
                    "instances[{i}]: the instance `{}` ({}) is already one of instances[{j}]: an experiment holds each instance once, since its rows are told apart by it; list each source once",
                    visible(&inst.id),
                    inst.puzzle.variant().name()
                )));
            }
            self.ids.insert(key, i);
        }
        Ok(())
    }
}

fn read_source(
    exp: &ExperimentFile,
    i: usize,
    spec: &InstanceSpec,
    registry: &Registry,
    out: &mut Vec<Instance>,
    notes: &mut Vec<String>,
    seen: &mut Seen,
) -> Result<()> {
    let variant: Variant = spec.variant.unwrap_or(exp.variant);
    let mut files: Vec<PathBuf> = Vec::new();
    for (key, f) in [("file", &spec.file), ("latin", &spec.latin)] {
        let Some(f) = f else { continue };
        let p = PathBuf::from(f);
        if !p.exists() {
            if spec.optional {
                notes.push(format!("instances[{i}]: skipped optional {f} (not found)"));
                return Ok(());
            }
            return Err(RunError::Plan(format!("instances[{i}].{key}: {f} does not exist (relative paths start where the command runs)")));
        }
        files.push(p);
    }
    if let Some(g) = &spec.glob {
        let mut found: Vec<PathBuf> = glob::glob(g)
            .map_err(|e| RunError::Plan(format!("instances[{i}].glob: {e}")))?
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| RunError::Plan(format!("instances[{i}].glob: {e}")))?;
        found.sort();
        if found.is_empty() {
            if spec.optional {
                notes.push(format!(
                    "instances[{i}]: skipped optional glob {g} (no file matches)"
                ));
                return Ok(());
            }
            return Err(RunError::Plan(format!(
                "instances[{i}].glob: no file matches {g}"
            )));
        }
        files.extend(found);
    }
    for path in files {
        let name = path.display().to_string();
        let set = spec.set.clone().unwrap_or_else(|| {
            path.file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| name.clone())
        });
        if spec.latin.is_some() {
            let read = spec
                .limit
                .map_or(usize::MAX, |l| l.saturating_add(spec.skip));
            out.extend(
                latin::read_latin(&path, read)?
                    .into_iter()
                    .skip(spec.skip)
                    .map(|e| Instance {
                        id: e.id,
                        set: set.clone(),
                        puzzle: e.square.to_sudoku(),
                        label: e.label,
                        carve: None,
                        latin: Some(e.square),
                    }),
            );
            continue;
        }
        let text = format::read_text(&path)?;
        let entries = format::parse_str(&text, &name)?;
        let kept = entries.into_iter().skip(spec.skip);
        // The file as the system resolves it: `six.txt` and `./six.txt` are one file.
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        for e in kept.take(spec.limit.unwrap_or(usize::MAX)) {
            let id = format!("{name}:{}", e.line);
            seen.line(i, (&path, &real), e.line, variant, &id)?;
            out.push(Instance {
                id,
                set: set.clone(),
                puzzle: Puzzle::new(e.grid, variant),
                label: e.label,
                carve: None,
                latin: None,
            });
        }
    }
    let carve = spec.carve.clone().or_else(|| exp.carve.clone());
    for &order in spec.orders.iter().flatten() {
        // A carving names its instances, so sources that carve differently never share ids.
        let (id, set) = match (&spec.carve, &carve) {
            (Some(c), _) => (
                format!("empty-{order} carve={}", c.describe()),
                format!("{order} {}", c.describe()),
            ),
            _ => (format!("empty-{order}"), "empty".to_string()),
        };
        out.push(Instance {
            id,
            set: spec.set.clone().unwrap_or(set),
            puzzle: Puzzle::empty(order, variant),
            label: None,
            carve: carve.clone(),
            latin: None,
        });
    }
    if let Some(g) = &spec.generate {
        generate_instances(exp, i, g, spec.set.as_deref(), variant, registry, out)?;
    }
    Ok(())
}

/// Generated instances: each a grid from the generator, carved by the generator crate's puzzle
/// maker with the spec's checker, judged like a `kind = "generate"` trial.
fn generate_instances(
    exp: &ExperimentFile,
    i: usize,
    g: &GenerateSpec,
    set: Option<&str>,
    variant: Variant,
    registry: &Registry,
    out: &mut Vec<Instance>,
) -> Result<()> {
    let what = format!("instances[{i}].generate");
    let grids = expand_params(&g.params, &what)?;
    let [params] = grids.as_slice() else {
        return Err(RunError::Plan(format!(
            "{what}.params: lists are not allowed here (one generator configuration)"
        )));
    };
    let carve = CarveSpec {
        puzzle: g.puzzle,
        clues: g.clues,
        checker: g.checker.clone(),
        check_nodes: None,
    };
    let settings = KindSettings {
        carves: vec![carve.clone()],
        ..KindSettings::default()
    };
    let cap = capability(Kind::Generate, registry, &g.method, &settings)
        .map_err(|e| RunError::at(what.clone(), e))?;
    let mut method = (cap.build)(params).map_err(|e| RunError::at(what.clone(), e))?;
    let desc = format!(
        "{} {} {}{}",
        g.order,
        g.method,
        g.puzzle,
        g.clues.map(|c| format!(" clues={c}")).unwrap_or_default()
    );
    let set = set.map_or_else(|| desc.clone(), str::to_string);
    let budget = Budget::time(g.time_limit);
    let empty = Puzzle::empty(g.order, variant);
    for k in 0..g.count {
        let seed = derive_seed(exp.seed, "instances", &format!("{desc} {params}"), k as u64);
        let mut rng = rng_from_seed(seed);
        let answer = method
            .attempt(
                &Job {
                    puzzle: &empty,
                    carve: Some(&carve),
                    budget: &budget,
                },
                &mut rng,
            )
            .map_err(|e| RunError::at(what.clone(), e))?;
        let trial = judge(&answer, &empty);
        let carved = match answer {
            Answer::Generate {
                carved: Some(Ok(p)),
                ..
            } if trial.status == TrialStatus::Solved => p,
            _ => {
                return Err(RunError::Plan(format!(
                    "{what}: generator `{}`, instance {k}: {}",
                    g.method,
                    trial.describe()
                )))
            }
        };
        out.push(Instance {
            id: format!("gen:{set}#{k}"),
            set: set.clone(),
            puzzle: Puzzle::new(carved.givens, variant),
            label: Some(format!("generated: {desc}, seed {seed}")),
            carve: None,
            latin: None,
        });
    }
    Ok(())
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
        // Ids hold set names from the experiment file: a newline there would end the comment.
        text.push_str(&format!(
            "# {} ({})\n",
            visible(&inst.id),
            visible(inst.label.as_deref().unwrap_or(""))
        ));
        text.push_str(&to_text(inst.puzzle.givens()));
    }
    crate::results::write_atomic(&out.join(files::INSTANCES), &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_leaves_out_the_first_puzzles_before_limit() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../datasets/public/lewis-25x25/lewis_25x25_f040.txt");
        let text = format!(
            "name = \"skip\"\nseed = 1\n[[method]]\nname = \"prop\"\n[[instances]]\nfile = \"{}\"\nskip = 10\nlimit = 3\n",
            file.display()
        );
        let exp = crate::experiment::parse(&text).expect("a valid experiment");
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        read_source(
            &exp,
            0,
            &exp.instances[0],
            &Registry::standard(),
            &mut out,
            &mut notes,
            &mut Seen::default(),
        )
        .expect("the file reads");
        // Ids end with the line number: lines 11-13 are the file's puzzles 10-12 (from 0).
        let lines: Vec<&str> = out.iter().filter_map(|i| i.id.rsplit(':').next()).collect();
        assert_eq!(lines, ["11", "12", "13"]);
    }
}
