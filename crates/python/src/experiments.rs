//! Experiments and results folders: `run` through the runner's [`sudoku_runner::run`] (the same
//! folder and files as `sudoku-bench run`), its events handed to a Python callable and Ctrl-C
//! answered between trials through the sink; a folder's trial rows read and checked by
//! `sudoku-analysis` and handed over column by column with their types; the verdicts
//! (`findings`), the comparison of two runs (`compare`) and the charts (`plot`) made by the
//! crates that make them for the command line.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use sudoku_analysis::baseline::{self, Side};
use sudoku_analysis::files;
use sudoku_analysis::findings::Finding;
use sudoku_analysis::meta::{config_label, RunMeta};
use sudoku_analysis::{Row, RunOutputs, TrialStatus};
use sudoku_runner::outputs::{check_meta_experiment, read_run};
use sudoku_runner::{Event, Experiment, RunError, RunOptions, Shard, Sink};

use crate::errors::{guard, input, input_from, run_error};
use crate::registry;

/// How often a run asks Python whether Ctrl-C was pressed (between trials).
const SIGNAL_EVERY: Duration = Duration::from_millis(20);

/// The runner's sink for Python: each event a dict handed to `progress` (when given), and
/// Ctrl-C (or an exception raised by `progress`) turned into a stop between trials, its error
/// kept to be raised when the run returns.
struct PySink {
    progress: Option<Py<PyAny>>,
    error: Mutex<Option<PyErr>>,
    asked: Mutex<Instant>,
}

impl PySink {
    fn new(progress: Option<Py<PyAny>>) -> PySink {
        PySink {
            progress,
            error: Mutex::new(None),
            asked: Mutex::new(Instant::now()),
        }
    }

    fn keep(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
    }

    /// The error that stopped the run, if Python raised one.
    fn take(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// An event as a dict: `event` names it, the other keys are its fields.
fn event_dict<'py>(py: Python<'py>, event: &Event<'_>) -> PyResult<Option<Bound<'py, PyDict>>> {
    let d = PyDict::new(py);
    match *event {
        Event::Planning {
            experiment,
            file,
            description,
        } => {
            d.set_item("event", "planning")?;
            d.set_item("experiment", experiment)?;
            d.set_item("file", file)?;
            d.set_item("description", description)?;
        }
        Event::Note(text) => {
            d.set_item("event", "note")?;
            d.set_item("text", text)?;
        }
        Event::Warning(text) => {
            d.set_item("event", "warning")?;
            d.set_item("text", text)?;
        }
        Event::Planned(size) => {
            d.set_item("event", "planned")?;
            d.set_item("configs", size.configs)?;
            d.set_item("instances", size.instances)?;
            d.set_item("tasks", size.mine)?;
            d.set_item("repeats", size.repeats)?;
            d.set_item("worst_seconds", size.worst_seconds)?;
            d.set_item("unlimited", size.unlimited.as_deref())?;
        }
        Event::Removed(path) => {
            d.set_item("event", "removed")?;
            d.set_item("path", path.display().to_string())?;
        }
        Event::Started { tasks } => {
            d.set_item("event", "started")?;
            d.set_item("tasks", tasks)?;
        }
        Event::Running { config, order } => {
            d.set_item("event", "running")?;
            d.set_item("config", config)?;
            d.set_item("order", order.n())?;
        }
        Event::Trial(row) => {
            d.set_item("event", "trial")?;
            d.set_item("config", config_label(&row.method, &row.params))?;
            d.set_item("instance", &row.instance)?;
            d.set_item("trial", row.trial)?;
            d.set_item("status", row.status.name())?;
            d.set_item("success", row.success())?;
            d.set_item("wall_ms", row.wall_ms)?;
            d.set_item("message", &row.message)?;
        }
        Event::TrialsDone { skipped, ran } => {
            d.set_item("event", "trials_done")?;
            d.set_item("skipped", skipped)?;
            d.set_item("ran", ran)?;
        }
        Event::ChartSkipped { chart, reason } => {
            d.set_item("event", "chart_skipped")?;
            d.set_item("chart", chart)?;
            d.set_item("reason", reason)?;
        }
        _ => return Ok(None),
    }
    Ok(Some(d))
}

impl Sink for PySink {
    fn event(&self, event: Event<'_>) {
        let Some(progress) = &self.progress else {
            return;
        };
        Python::attach(|py| {
            let called = event_dict(py, &event)
                .and_then(|d| d.map(|d| progress.call1(py, (d,))).transpose());
            if let Err(e) = called {
                self.keep(e);
            }
        });
    }

    fn cancelled(&self) -> bool {
        if self.error.lock().map(|e| e.is_some()).unwrap_or(true) {
            return true;
        }
        let mut asked = self.asked.lock().unwrap_or_else(|p| p.into_inner());
        if asked.elapsed() < SIGNAL_EVERY {
            return false;
        }
        *asked = Instant::now();
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(e) => {
                self.keep(e);
                true
            }
        }
    }
}

/// The error a runner call ended with: Python's own (Ctrl-C, an exception in `progress`)
/// when the sink stopped it, else the runner's as the package's class.
fn runner_failure(sink: &PySink, e: &RunError) -> PyErr {
    match sink.take() {
        Some(py_err) => py_err,
        None => run_error(e),
    }
}

/// What a run did.
#[pyclass(module = "sudoku_bench", frozen, get_all)]
pub struct RunSummary {
    /// The experiment's name.
    experiment: String,
    /// The results folder.
    out: PathBuf,
    /// Trials of the plan (of the shard).
    planned: usize,
    /// Trials already in the folder (a resume).
    skipped: usize,
    /// Trials run now.
    ran: usize,
    /// Of those, definitive answers.
    succeeded: usize,
    /// Of those, wrong answers.
    wrong: usize,
    /// Of those, trials that ended in `error`.
    errors: usize,
    /// Every file of the folder's results.
    files: Vec<PathBuf>,
}

#[pymethods]
impl RunSummary {
    /// No wrong answer and no trial in `error`.
    #[getter]
    fn clean(&self) -> bool {
        self.wrong == 0 && self.errors == 0
    }

    fn __repr__(&self) -> String {
        format!(
            "RunSummary(experiment={:?}, out={:?}, ran={}, succeeded={}, wrong={}, errors={})",
            self.experiment,
            self.out.display().to_string(),
            self.ran,
            self.succeeded,
            self.wrong,
            self.errors
        )
    }
}

/// An experiment from a file, or from TOML text made from a dict (its JSON, read here).
fn experiment(source: &str, from_json: bool) -> PyResult<Experiment> {
    if !from_json {
        return Experiment::load(Path::new(source)).map_err(|e| run_error(&e));
    }
    let value: serde_json::Value =
        serde_json::from_str(source).map_err(|e| input(format!("experiment: {e}")))?;
    let text = toml::to_string(&value).map_err(|e| {
        input(format!(
            "experiment: the dict cannot be written as TOML ({e}): values are text, numbers, booleans, lists and dicts, never None"
        ))
    })?;
    Experiment::parse(&text).map_err(|e| run_error(&e))
}

/// Runs an experiment as `sudoku-bench run` does (the wrapper `sudoku_bench.run` documents it).
#[pyfunction]
#[pyo3(signature = (source, from_json, out=None, quick=false, jobs=1, resume=false, fresh=false, trials=None, time_limit=None, no_plots=false, shard=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    source: &str,
    from_json: bool,
    out: Option<PathBuf>,
    quick: bool,
    jobs: usize,
    resume: bool,
    fresh: bool,
    trials: Option<u32>,
    time_limit: Option<f64>,
    no_plots: bool,
    shard: Option<&str>,
    progress: Option<Py<PyAny>>,
) -> PyResult<RunSummary> {
    if resume && fresh {
        return Err(input(
            "resume and fresh: give one (resume continues the folder's run, fresh discards it)",
        ));
    }
    if jobs == 0 || trials == Some(0) {
        return Err(input("jobs and trials: give at least 1"));
    }
    let exp = experiment(source, from_json)?;
    let opts = RunOptions {
        out,
        jobs,
        shard: shard
            .map(str::parse::<Shard>)
            .transpose()
            .map_err(|e| run_error(&e))?,
        resume,
        fresh,
        quick,
        trials,
        time_limit,
        no_plots,
        command: None,
        // A duet (an old build run beside this one) is the command line's `run --baseline`.
        ..RunOptions::default()
    };
    let sink = PySink::new(progress);
    let summary = guard("run", || {
        py.detach(|| sudoku_runner::run(&exp, registry(), &opts, &sink))
            .map_err(|e| runner_failure(&sink, &e))
    })?;
    // `progress` raised after the last trial (while the outputs were written): said now.
    if let Some(e) = sink.take() {
        return Err(e);
    }
    let t = summary.trials;
    Ok(RunSummary {
        experiment: summary.experiment,
        out: summary.out,
        planned: t.planned,
        skipped: t.skipped,
        ran: t.ran,
        succeeded: t.succeeded,
        wrong: t.wrong,
        errors: t.errors,
        files: summary.files,
    })
}

/// How a column of `trials.csv` is typed in the DataFrame (the wrapper `load` maps these to
/// pandas dtypes).
#[derive(Clone, Copy)]
enum Col {
    /// Whole numbers that fit int64.
    Int,
    /// Whole numbers of the full u64 range (seeds).
    Uint,
    /// Whole numbers, or missing.
    UintOpt,
    /// Times and values always there.
    Float,
    /// Times and values that may be missing (NaN).
    FloatOpt,
    /// True, false or missing.
    BoolOpt,
    /// Text; an empty cell stays the empty string (a configuration without parameters).
    Text,
    /// Text; an empty cell is missing.
    TextOpt,
    /// A trial status, one of [`TrialStatus::ALL`].
    Status,
}

impl Col {
    fn name(self) -> &'static str {
        match self {
            Col::Int => "int",
            Col::Uint => "uint",
            Col::UintOpt => "uint?",
            Col::Float => "float",
            Col::FloatOpt => "float?",
            Col::BoolOpt => "bool?",
            Col::Text => "text",
            Col::TextOpt => "text?",
            Col::Status => "status",
        }
    }
}

/// A cell of one row.
enum Cell {
    Int(i128),
    Float(Option<f64>),
    Bool(Option<bool>),
    Text(String),
    Opt(Option<u64>),
}

/// The columns of `trials.csv`, in the file's order, with their types and how each is read
/// from a row, then `config`; the package's tests check the names against the file's header,
/// so a column added to the schema without a line here fails them.
#[allow(clippy::type_complexity)]
const COLUMNS: &[(&str, Col, fn(&Row) -> Cell)] = &[
    ("task", Col::Int, |r| Cell::Int(r.task as i128)),
    ("experiment", Col::Text, |r| {
        Cell::Text(r.experiment.clone())
    }),
    ("kind", Col::Text, |r| Cell::Text(r.kind.clone())),
    ("method", Col::Text, |r| Cell::Text(r.method.clone())),
    ("params", Col::Text, |r| Cell::Text(r.params.clone())),
    ("variant", Col::Text, |r| Cell::Text(r.variant.clone())),
    ("order", Col::Int, |r| Cell::Int(r.order as i128)),
    ("instance_set", Col::Text, |r| {
        Cell::Text(r.instance_set.clone())
    }),
    ("instance", Col::Text, |r| Cell::Text(r.instance.clone())),
    ("givens", Col::Int, |r| Cell::Int(r.givens as i128)),
    ("trial", Col::Int, |r| Cell::Int(i128::from(r.trial))),
    ("seed", Col::Uint, |r| Cell::Int(i128::from(r.seed))),
    ("status", Col::Status, |r| {
        Cell::Text(r.status.name().into())
    }),
    ("verified", Col::BoolOpt, |r| Cell::Bool(r.verified)),
    ("wall_ms", Col::Float, |r| Cell::Float(Some(r.wall_ms))),
    ("cpu_ms", Col::Float, |r| Cell::Float(Some(r.cpu_ms))),
    ("build_ms", Col::FloatOpt, |r| Cell::Float(r.build_ms)),
    ("nodes", Col::Uint, |r| Cell::Int(i128::from(r.nodes))),
    ("guesses", Col::Uint, |r| Cell::Int(i128::from(r.guesses))),
    ("iterations", Col::Uint, |r| {
        Cell::Int(i128::from(r.iterations))
    }),
    ("restarts", Col::Uint, |r| Cell::Int(i128::from(r.restarts))),
    ("best_cost", Col::UintOpt, |r| Cell::Opt(r.best_cost)),
    ("objective", Col::FloatOpt, |r| Cell::Float(r.objective)),
    ("time_to_best_ms", Col::FloatOpt, |r| {
        Cell::Float(r.time_to_best_ms)
    }),
    ("count", Col::UintOpt, |r| Cell::Opt(r.count)),
    ("limit", Col::TextOpt, |r| Cell::Text(r.limit.clone())),
    ("extra", Col::TextOpt, |r| Cell::Text(r.extra.clone())),
    ("message", Col::TextOpt, |r| Cell::Text(r.message.clone())),
    ("commit", Col::TextOpt, |r| Cell::Text(r.commit.clone())),
    ("repeats", Col::Int, |r| Cell::Int(i128::from(r.repeats))),
    ("rules_needed", Col::TextOpt, |r| {
        Cell::Text(lp(r).map(|c| c.rules_needed.clone()).unwrap_or_default())
    }),
    ("lp_integral", Col::BoolOpt, |r| {
        Cell::Bool(lp(r).and_then(|c| c.lp_integral))
    }),
    ("lp_unique", Col::BoolOpt, |r| {
        Cell::Bool(lp(r).and_then(|c| c.lp_unique))
    }),
    ("peak_rss_kb", Col::UintOpt, |r| Cell::Opt(r.peak_rss_kb)),
    ("threads", Col::Int, |r| Cell::Int(i128::from(r.threads))),
    ("solve_ms", Col::FloatOpt, |r| Cell::Float(r.solve_ms)),
    // Not a column of the file: the configuration as every table and verdict names it.
    ("config", Col::Text, |r| {
        Cell::Text(config_label(&r.method, &r.params))
    }),
];

/// A row's `logic-lp` columns, when it has them.
fn lp(r: &Row) -> Option<&sudoku_analysis::LogicLpColumns> {
    r.kind_columns.as_ref().and_then(|c| c.logic_lp())
}

/// A results folder's rows, checked as `plot` and `compare` check them.
fn rows_of(dir: &Path, command: &str) -> PyResult<Vec<Row>> {
    let trials = dir.join(files::TRIALS);
    if !trials.exists() {
        return Err(input(format!(
            "{} not found: `{command}` needs a results folder written by `run`",
            trials.display()
        )));
    }
    check_meta_experiment(dir).map_err(|e| run_error(&e))?;
    RunOutputs::read_rows(dir).map_err(|e| input_from(&e))
}

/// A results folder's trials column by column (the wrapper `sudoku_bench.load` makes the
/// DataFrame): `(name, type, values)` in the file's order, the
/// statuses in summary order, and meta.json as text (or `None`).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn columns<'py>(
    py: Python<'py>,
    folder: PathBuf,
) -> PyResult<(
    Vec<(&'static str, &'static str, Bound<'py, PyList>)>,
    Vec<&'static str>,
    Option<String>,
)> {
    let rows = guard("load", || rows_of(&folder, "load"))?;
    let meta = RunMeta::read(&folder)
        .map_err(|e| input_from(&e))?
        .map(|m| serde_json::to_string(&m))
        .transpose()
        .map_err(|e| input(format!("{}: {e}", folder.display())))?;
    let mut out = Vec::with_capacity(COLUMNS.len());
    for &(name, col, read) in COLUMNS {
        let list = PyList::empty(py);
        for r in &rows {
            match (read(r), col) {
                (Cell::Int(v), _) => list.append(v)?,
                (Cell::Float(v), _) => list.append(v)?,
                (Cell::Bool(v), _) => list.append(v)?,
                (Cell::Opt(v), _) => list.append(v)?,
                (Cell::Text(t), Col::TextOpt) if t.is_empty() => list.append(py.None())?,
                (Cell::Text(t), _) => list.append(t)?,
            }
        }
        out.push((name, col.name(), list));
    }
    let statuses = TrialStatus::ALL.iter().map(|s| s.name()).collect();
    Ok((out, statuses, meta))
}

/// A finding as a record.
fn finding_record<'py>(py: Python<'py>, f: &Finding) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", &f.kind)?;
    d.set_item("variant", &f.variant)?;
    d.set_item("order", f.order)?;
    d.set_item("grid", f.grid())?;
    d.set_item("instance_set", &f.instance_set)?;
    d.set_item("instances", f.instances)?;
    d.set_item("givens_min_pct", f.givens_pct.0)?;
    d.set_item("givens_max_pct", f.givens_pct.1)?;
    for (side, e) in [("first", f.winner()), ("second", f.runner_up())] {
        d.set_item(side, e.map(|e| e.config.clone()))?;
        d.set_item(format!("{side}_solved"), e.map(|e| e.solved))?;
        d.set_item(format!("{side}_trials"), e.map(|e| e.trials))?;
        d.set_item(format!("{side}_score_ms"), e.and_then(|e| e.score_ms))?;
        d.set_item(format!("{side}_median_ms"), e.and_then(|e| e.median_ms))?;
    }
    d.set_item("speedup", f.speedup())?;
    d.set_item("speedup_low", f.speedup_ci.map(|c| c.0))?;
    d.set_item("speedup_high", f.speedup_ci.map(|c| c.1))?;
    d.set_item("decided", f.decided.word())?;
    let (pairs, p) = match &f.verdict {
        Some(sudoku_analysis::findings::Verdict::Significant { n, p_holm })
        | Some(sudoku_analysis::findings::Verdict::NotSignificant { n, p_holm }) => {
            (Some(*n), Some(*p_holm))
        }
        Some(sudoku_analysis::findings::Verdict::TooFew { n })
        | Some(sudoku_analysis::findings::Verdict::Untestable { n }) => (Some(*n), None),
        None => (None, None),
    };
    d.set_item("pairs", pairs)?;
    d.set_item("p_holm", p)?;
    d.set_item("sentence", f.sentence())?;
    Ok(d)
}

/// A results folder's verdicts, one record (dict) per group of instances, as findings.md and
/// `sudoku-bench findings` state them: the group (kind, variant, order, grid, instance set,
/// instances, givens), the first and second configurations with their solved trials and
/// scores, the speed-up with its interval, what decided (`faster`, `tie`, `solves more`, …),
/// the paired test (pairs, Holm-corrected p) and the sentence.
#[pyfunction]
fn findings(py: Python<'_>, folder: PathBuf) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let run = guard("findings", || {
        read_run(&folder, "findings").map_err(|e| run_error(&e))
    })?;
    run.findings.iter().map(|f| finding_record(py, f)).collect()
}

/// Run B against the baseline A, as `sudoku-bench compare A B`: one record (dict) per
/// configuration and group, with the solved trials, medians and PAR-2 of both, the ratios B
/// over A with their intervals, the paired test's p and the change (`regression` when the
/// median ratio's interval lies above 1 + threshold, `improvement`, `unchanged`, `too few to
/// judge`).
#[pyfunction]
#[pyo3(signature = (a, b, threshold=baseline::THRESHOLD))]
fn compare(
    py: Python<'_>,
    a: PathBuf,
    b: PathBuf,
    threshold: f64,
) -> PyResult<Vec<Bound<'_, PyDict>>> {
    if !(threshold.is_finite() && (0.0..10.0).contains(&threshold)) {
        return Err(input(format!(
            "threshold {threshold}: give a share from 0 to 10 (0.1 is 10 %)"
        )));
    }
    let c = guard("compare", || {
        let rows_a = rows_of(&a, "compare")?;
        let rows_b = rows_of(&b, "compare")?;
        let meta_a = RunMeta::read(&a).map_err(|e| input_from(&e))?;
        let meta_b = RunMeta::read(&b).map_err(|e| input_from(&e))?;
        let (name_a, name_b) = (a.display().to_string(), b.display().to_string());
        baseline::compare_runs(
            &Side {
                name: &name_a,
                rows: &rows_a,
                meta: meta_a.as_ref(),
            },
            &Side {
                name: &name_b,
                rows: &rows_b,
                meta: meta_b.as_ref(),
            },
            threshold,
        )
        .map_err(|e| input_from(&e))
    })?;
    c.lines
        .iter()
        .map(|l| {
            let d = PyDict::new(py);
            let (kind, variant, order, set) = &l.group;
            d.set_item("kind", kind)?;
            d.set_item("variant", variant)?;
            d.set_item("order", order)?;
            d.set_item("instance_set", set)?;
            d.set_item("config", &l.config)?;
            d.set_item("shared", l.shared)?;
            d.set_item(
                "unit",
                match l.unit {
                    baseline::Unit::Instances => "instances",
                    baseline::Unit::Trials => "trials",
                },
            )?;
            d.set_item("n", l.n)?;
            d.set_item("solved_a", l.solved_a.0)?;
            d.set_item("trials_a", l.solved_a.1)?;
            d.set_item("solved_b", l.solved_b.0)?;
            d.set_item("trials_b", l.solved_b.1)?;
            d.set_item("median_a_ms", l.median_a)?;
            d.set_item("median_b_ms", l.median_b)?;
            d.set_item("par2_a_ms", l.par2_a)?;
            d.set_item("par2_b_ms", l.par2_b)?;
            for (name, r) in [
                ("median_ratio", &l.median_ratio),
                ("par2_ratio", &l.par2_ratio),
            ] {
                d.set_item(name, r.as_ref().map(|r| r.value))?;
                d.set_item(
                    format!("{name}_low"),
                    r.as_ref().and_then(|r| r.ci).map(|c| c.0),
                )?;
                d.set_item(
                    format!("{name}_high"),
                    r.as_ref().and_then(|r| r.ci).map(|c| c.1),
                )?;
            }
            d.set_item("p", l.test.as_ref().map(|t| t.p))?;
            d.set_item("change", l.change.name())?;
            Ok(d)
        })
        .collect()
}

/// Draws a results folder's summaries and charts again from its rows, as `sudoku-bench plot`;
/// returns the files written (the wrapper `sudoku_bench.plot` documents `progress`).
#[pyfunction]
#[pyo3(signature = (folder, progress=None))]
fn plot(py: Python<'_>, folder: PathBuf, progress: Option<Py<PyAny>>) -> PyResult<Vec<PathBuf>> {
    let sink = PySink::new(progress);
    guard("plot", || {
        py.detach(|| sudoku_runner::redraw(&folder, "plot", &sink))
            .map_err(|e| runner_failure(&sink, &e))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RunSummary>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    m.add_function(wrap_pyfunction!(findings, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(plot, m)?)
}
