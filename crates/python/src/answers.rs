//! `solve`, `solve_many` and `count`: each puzzle through a method of the registry, configured
//! by the same names and parameters as `sudoku-bench solve`, timed, settled and judged by the
//! runner's [`attempt`] (the command's own step), with the seed the command derives for the
//! puzzle's place. The answer carries the columns a trial row would have.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use sudoku_core::limits::time_limit;
use sudoku_core::{
    derive_seed, rng_from_seed, Budget, CountEnd, Geometry, Params, Puzzle, Status, Variant,
};
use sudoku_runner::clock::RealClock;
use sudoku_runner::experiment::Kind;
use sudoku_runner::judge::Answer as Said;
use sudoku_runner::kind::{capability, Job, KindSettings, TrialMethod};
use sudoku_runner::results::Row;
use sudoku_runner::{attempt, Attempt};

use crate::errors::{guard, input, method as method_error, panic_text};
use crate::input::{array, items, one, Item};
use crate::registry;

/// How often a long call looks for Ctrl-C (taking the GIL for it).
const SIGNAL_EVERY: Duration = Duration::from_millis(20);

/// Puzzles a worker thread takes at a time (`jobs` > 1): few hand-overs, a prompt stop.
const CHUNK: usize = 64;

/// The parameters given as a dict (`{"encoding": "extended"}`) or as `sudoku-bench list`
/// writes them (`"key=value key=value"`); a key given twice is an error.
pub fn params_of(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Params> {
    let mut p = Params::new();
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(p);
    };
    let pairs: Vec<(String, String)> = if let Ok(s) = obj.cast::<PyString>() {
        let mut v = Vec::new();
        for pair in s.to_str()?.split_whitespace() {
            let mut one = Params::new();
            one.push_pair(pair)
                .map_err(|e| input(format!("params: {e}")))?;
            v.extend(one.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        }
        v
    } else if let Ok(d) = obj.cast::<PyDict>() {
        d.iter()
            .map(|(k, v)| Ok((k.str()?.to_string(), value_text(&v)?)))
            .collect::<PyResult<_>>()?
    } else {
        return Err(input(format!(
            "params: give a dict ({{\"key\": value}}) or \"key=value key=value\"; got a {}",
            obj.get_type().name()?
        )));
    };
    for (k, v) in pairs {
        if let Some(first) = p.raw(&k) {
            return Err(input(format!(
                "params: parameter `{k}` is given twice (`{first}`, then `{v}`): give each parameter once"
            )));
        }
        p.set(k, v);
    }
    Ok(p)
}

/// A parameter's value as the command line would write it (`true`, not Python's `True`).
fn value_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = v.extract::<bool>() {
        return Ok(b.to_string());
    }
    Ok(v.str()?.to_string())
}

/// The variant by name (`classic`, `diagonal`).
pub fn variant_of(name: &str) -> PyResult<Variant> {
    name.parse()
        .map_err(|e: sudoku_core::UnknownVariant| input(format!("variant: {e}")))
}

/// The limits, checked as the command line checks its flags.
pub fn budget_of(
    time: Option<f64>,
    nodes: Option<u64>,
    iterations: Option<u64>,
) -> PyResult<Budget> {
    let time = time
        .map(|t| time_limit(t).map_err(|e| input(format!("time_limit: {e}"))))
        .transpose()?;
    for (name, v) in [("node_limit", nodes), ("iteration_limit", iterations)] {
        if v == Some(0) {
            return Err(input(format!(
                "{name}: 0 would stop every method before it starts: give at least 1"
            )));
        }
    }
    Ok(Budget {
        time,
        nodes,
        iterations,
    })
}

/// `name` configured by `params` for `kind`, and its label (`name k=v …`, which seeds derive
/// from, as the command line's).
pub fn configured(
    kind: Kind,
    name: &str,
    params: &Params,
    settings: &KindSettings,
) -> PyResult<(Box<dyn TrialMethod>, String, bool)> {
    let cap = capability(kind, registry(), name, settings)
        .map_err(|e| input(format!("method: {}", sudoku_runner::chain_text(&e))))?;
    let method = (cap.build)(params)
        .map_err(|e| input(format!("params: {}", sudoku_runner::chain_text(&e))))?;
    Ok((method, label_of(name, params), cap.thread_safe))
}

/// A configuration's label: `name`, then its parameters (`sat encoding=extended`).
fn label_of(name: &str, params: &Params) -> String {
    if params.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", params.shown())
    }
}

/// A configured method.
type Method = Box<dyn TrialMethod>;

/// Everything each puzzle's attempt shares.
struct Setup {
    kind: Kind,
    name: String,
    params: Params,
    settings: KindSettings,
    label: String,
    /// The configuration, for the kept method.
    key: String,
    budget: Budget,
    variant: Variant,
    seed: u64,
    cpu_time: bool,
    outside: bool,
}

/// One puzzle's attempt.
struct Done {
    place: String,
    seed: u64,
    attempt: Attempt,
}

/// The puzzle's attempt: seeded from its place as `solve` seeds it, panics caught.
fn attempt_one(
    s: &Setup,
    method: &mut dyn TrialMethod,
    item: &Item,
    clock: &RealClock,
) -> Result<Done, String> {
    let puzzle = Puzzle::new(item.grid.clone(), s.variant);
    let seed = derive_seed(s.seed, &s.label, &item.place, 0);
    let mut rng = rng_from_seed(seed);
    let job = Job {
        puzzle: &puzzle,
        carve: None,
        budget: &s.budget,
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        attempt(method, &job, &mut rng, clock, s.cpu_time, s.outside)
    }));
    match run {
        Ok(Ok(attempt)) => Ok(Done {
            place: item.place.clone(),
            seed,
            attempt,
        }),
        Ok(Err(e)) => Err(format!(
            "{}: {}: {}",
            item.place,
            s.label,
            sudoku_runner::chain_text(&e)
        )),
        Err(payload) => Err(format!(
            "{}: {}: panic: {}",
            item.place,
            s.label,
            panic_text(&*payload)
        )),
    }
}

/// Is Ctrl-C pressed? Takes the GIL to ask Python (its handler raises `KeyboardInterrupt`).
fn interrupted() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Every item's attempt, in order, on `jobs` threads (one method instance each), with the GIL
/// released and Ctrl-C looked for every [`SIGNAL_EVERY`]. On one thread the method comes back
/// with the answers, to be kept for the next call.
fn attempt_all(
    py: Python<'_>,
    s: &Setup,
    mut method: Box<dyn TrialMethod>,
    items: &[Item],
    jobs: usize,
) -> PyResult<(Vec<Done>, Option<Method>)> {
    for order in items
        .iter()
        .map(|i| i.grid.order())
        .collect::<BTreeSet<_>>()
    {
        method
            .check_order(order)
            .map_err(|e| input(format!("params: {e} (the puzzles include {order} grids)")))?;
        // The shared tables of the shape built before the first clock starts.
        Geometry::get(order, s.variant).prepare();
    }
    let threads = jobs.min(items.len().div_ceil(CHUNK)).max(1);
    if threads == 1 {
        return py.detach(|| {
            let clock = RealClock::new();
            let mut out = Vec::with_capacity(items.len());
            let mut asked = Instant::now();
            for item in items {
                out.push(attempt_one(s, method.as_mut(), item, &clock).map_err(method_error)?);
                if items.len() > 1 && asked.elapsed() >= SIGNAL_EVERY {
                    interrupted()?;
                    asked = Instant::now();
                }
            }
            Ok((out, Some(method)))
        });
    }
    let mut methods = vec![method];
    for _ in 1..threads {
        methods.push(configured(s.kind, &s.name, &s.params, &s.settings)?.0);
    }
    Ok((py.detach(|| parallel(s, methods, items))?, None))
}

/// [`attempt_all`] on one thread per method: chunks taken in turn, results put back in order.
fn parallel(s: &Setup, methods: Vec<Box<dyn TrialMethod>>, items: &[Item]) -> PyResult<Vec<Done>> {
    let chunks: Vec<&[Item]> = items.chunks(CHUNK).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for mut method in methods {
            let (tx, next, stop, chunks) = (tx.clone(), &next, &stop, &chunks);
            scope.spawn(move || {
                let clock = RealClock::new();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(chunk) = chunks.get(i) else { break };
                    let mut done = Vec::with_capacity(chunk.len());
                    let mut failed = None;
                    for item in *chunk {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        match attempt_one(s, method.as_mut(), item, &clock) {
                            Ok(d) => done.push(d),
                            Err(e) => {
                                failed = Some(e);
                                break;
                            }
                        }
                    }
                    let r = failed.map_or(Ok(done), Err);
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut slots: Vec<Option<Vec<Done>>> = (0..chunks.len()).map(|_| None).collect();
        let outcome = loop {
            match rx.recv_timeout(SIGNAL_EVERY) {
                Ok((i, Ok(done))) => slots[i] = Some(done),
                Ok((_, Err(e))) => break Err(method_error(e)),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = interrupted() {
                        break Err(e);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
        };
        // Workers stop at their next puzzle; the scope waits for them.
        stop.store(true, Ordering::Relaxed);
        outcome?;
        Ok(slots.into_iter().flatten().flatten().collect())
    })
}

/// What `solve` or `count` answered for one puzzle: how it ended (the `status` of a trial row,
/// judged by the verifier), the solution as a NumPy array when there is one, the count, and the
/// statistics a row of `trials.csv` would have.
#[pyclass(module = "sudoku_bench", frozen, get_all)]
pub struct Answer {
    /// The puzzle's place: `<input>:LINE`, `FILE:LINE`, `<array>`, `<array>[i]`.
    puzzle: String,
    /// The configuration: the method and its parameters (`sat encoding=extended`).
    method: String,
    /// solved, infeasible, multiple, timeout, failed, stuck, unverified, wrong or error.
    status: String,
    /// The answer passed the verifier (`None`: nothing to check, as for a timeout).
    verified: Option<bool>,
    /// The verified solution (an n²×n² array), or `None`.
    grid: Option<Py<PyArray2<i64>>>,
    /// `count`: the solutions found (`None` for `solve`).
    count: Option<u64>,
    /// `count`: whether the count is exact (`False`: it stopped at the limit or a budget, and
    /// there are at least `count`); `None` for `solve`.
    exact: Option<bool>,
    /// Why it is wrong, infeasible, or failed; `None` when there is nothing to say.
    message: Option<String>,
    /// The limit that ran out (`time`, `nodes`, `iterations`), or `None`.
    limit: Option<String>,
    /// Wall time of the method call (ms).
    wall_ms: f64,
    /// CPU time of the call (ms), with `cpu_time=True`; else `None`.
    cpu_ms: Option<f64>,
    /// The solver's own clock for its search (ms), when it reports one.
    solve_ms: Option<f64>,
    /// Model build time (ms), when the method reports one (ILP).
    build_ms: Option<f64>,
    /// Search nodes.
    nodes: u64,
    /// Branching decisions.
    guesses: u64,
    /// Iterations.
    iterations: u64,
    /// Restarts.
    restarts: u64,
    /// Best cost reached (local search), or `None`.
    best_cost: Option<u64>,
    /// Objective value (ILP), or `None`.
    objective: Option<f64>,
    /// Time to the best cost (ms), or `None`.
    time_to_best_ms: Option<f64>,
    /// Threads the call ran on.
    threads: u32,
    /// The seed of the puzzle's random stream (derived from the seed given, the
    /// configuration and the puzzle's place, as `sudoku-bench solve` derives it).
    seed: u64,
    extra_pairs: Vec<(String, String)>,
}

#[pymethods]
impl Answer {
    /// Method-specific statistics (the `extra` column), as a dict of text.
    #[getter]
    fn extra<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.extra_pairs {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// `True` when the status is `solved` (a verified solution).
    #[getter]
    fn solved(&self) -> bool {
        self.status == "solved"
    }

    fn __repr__(&self) -> String {
        let count = match (self.count, self.exact) {
            (Some(c), Some(true)) => format!(", count={c}"),
            (Some(c), _) => format!(", count>={c}"),
            _ => String::new(),
        };
        format!(
            "Answer(puzzle={:?}, method={:?}, status={:?}{count}, wall_ms={:.4})",
            self.puzzle, self.method, self.status, self.wall_ms
        )
    }
}

/// The Python answer of one attempt: the row's columns filled as `run` fills them.
fn answer(py: Python<'_>, d: Done) -> PyResult<Answer> {
    let Done {
        place,
        seed,
        attempt: a,
    } = d;
    let stats = a.answer.stats();
    let mut row = Row::default();
    row.set_stats(&stats);
    a.trial.fill(&mut row);
    let grid = match (&a.answer, a.trial.verified) {
        (Said::Solve(o), Some(true)) => match &o.status {
            Status::Solved(g) => Some(array(py, g)?.unbind()),
            _ => None,
        },
        _ => None,
    };
    let exact = match &a.answer {
        Said::Count(c) => Some(c.end == CountEnd::Complete),
        _ => None,
    };
    let count = match &a.answer {
        Said::Count(c) => Some(c.count),
        _ => None,
    };
    let text = |s: String| (!s.is_empty()).then_some(s);
    Ok(Answer {
        puzzle: place,
        method: String::new(),
        status: row.status.name().to_string(),
        verified: row.verified,
        grid,
        count,
        exact,
        message: text(row.message),
        limit: text(row.limit),
        wall_ms: a.wall_ms,
        cpu_ms: a.cpu_ms,
        solve_ms: row.solve_ms,
        build_ms: row.build_ms,
        nodes: row.nodes,
        guesses: row.guesses,
        iterations: row.iterations,
        restarts: row.restarts,
        best_cost: row.best_cost,
        objective: row.objective,
        time_to_best_ms: row.time_to_best_ms,
        threads: row.threads,
        seed,
        extra_pairs: stats.extra,
    })
}

/// The method instance of the last call, with its configuration (kind, name, parameters,
/// count limit): the next call of the same configuration uses it again, as `sudoku-bench solve`
/// uses one instance for every puzzle of a file, instead of building it anew (a fifth of a
/// fast 9×9 call). A call on several threads, or that fails, keeps none.
static KEPT: Mutex<Option<(String, Box<dyn TrialMethod>)>> = Mutex::new(None);

/// The kept method, when it is of configuration `key`.
fn kept(key: &str) -> Option<Box<dyn TrialMethod>> {
    let mut slot = KEPT.lock().unwrap_or_else(|p| p.into_inner());
    match slot.take() {
        Some((k, m)) if k == key => Some(m),
        other => {
            *slot = other;
            None
        }
    }
}

/// Keeps `method` of configuration `key` for the next call.
fn keep(key: String, method: Box<dyn TrialMethod>) {
    *KEPT.lock().unwrap_or_else(|p| p.into_inner()) = Some((key, method));
}

/// The options every call of this module takes, read once.
#[allow(clippy::too_many_arguments)]
fn setup(
    kind: Kind,
    method: &str,
    params: Option<&Bound<'_, PyAny>>,
    count_limit: u64,
    variant: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    iteration_limit: Option<u64>,
    seed: u64,
    cpu_time: bool,
) -> PyResult<(Setup, Box<dyn TrialMethod>, bool)> {
    let params = params_of(params)?;
    let settings = KindSettings {
        count_limit,
        carves: Vec::new(),
    };
    let key = format!(
        "{}\t{method}\t{}\t{count_limit}",
        kind.name(),
        params.shown()
    );
    let (built, label, thread_safe) = match kept(&key) {
        Some(m) => {
            let cap = capability(kind, registry(), method, &settings)
                .map_err(|e| input(format!("method: {}", sudoku_runner::chain_text(&e))))?;
            (m, label_of(method, &params), cap.thread_safe)
        }
        None => configured(kind, method, &params, &settings)?,
    };
    let outside = method == sudoku_external::NAME;
    // As the command line: an outside program may never answer, so it has a default limit.
    let time_limit = time_limit.or(outside.then_some(EXTERNAL_TIME_LIMIT));
    let s = Setup {
        kind,
        name: method.to_string(),
        params,
        settings,
        label,
        key,
        budget: budget_of(time_limit, node_limit, iteration_limit)?,
        variant: variant_of(variant)?,
        seed,
        cpu_time,
        outside,
    };
    Ok((s, built, thread_safe))
}

/// The default time limit of `method="external"`, in seconds, as `sudoku-bench solve`'s.
const EXTERNAL_TIME_LIMIT: f64 = 60.0;

/// Answers for `items`, labelled with the configuration.
fn answers(
    py: Python<'_>,
    s: &Setup,
    built: Box<dyn TrialMethod>,
    items: &[Item],
    jobs: usize,
) -> PyResult<Vec<Answer>> {
    let (done, back) = guard(&s.label, || attempt_all(py, s, built, items, jobs))?;
    if let Some(m) = back {
        keep(s.key.clone(), m);
    }
    done.into_iter()
        .map(|d| {
            let mut a = answer(py, d)?;
            a.method.clone_from(&s.label);
            Ok(a)
        })
        .collect()
}

/// Solves one puzzle, as `sudoku-bench solve` solves each puzzle of a file.
///
/// `puzzle`: text (line or grid-block format) holding one puzzle, a path to a file of one,
/// rows of digits (0 or None empty), a flat list of n⁴ cells, or a 2-D integer array.
/// `method` and `params` (a dict, or "key=value key=value"): as `sudoku-bench list` shows
/// them. `variant`: "classic" or "diagonal". `time_limit` (seconds), `node_limit`,
/// `iteration_limit`: the method's budget (none by default; `external` has 60 s). `seed`: the
/// puzzle's random stream derives from it, the configuration and the puzzle's place.
/// `cpu_time`: also read the thread's CPU clock around the call.
///
/// Returns an `Answer`: its `status` (solved, infeasible, timeout, …), the verified solution
/// as `grid`, and the statistics a trial row has. Raises `InputError` for bad input or an
/// unknown method or parameter, `MethodError` when the method cannot run.
#[pyfunction]
#[pyo3(signature = (puzzle, method="prop", params=None, *, variant="classic", time_limit=None, node_limit=None, iteration_limit=None, seed=0, cpu_time=false))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    method: &str,
    params: Option<&Bound<'_, PyAny>>,
    variant: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    iteration_limit: Option<u64>,
    seed: u64,
    cpu_time: bool,
) -> PyResult<Answer> {
    let item = one(puzzle, "solve_many")?;
    let (s, built, _) = setup(
        Kind::Solve,
        method,
        params,
        1,
        variant,
        time_limit,
        node_limit,
        iteration_limit,
        seed,
        cpu_time,
    )?;
    let mut all = answers(py, &s, built, std::slice::from_ref(&item), 1)?;
    Ok(all.remove(0))
}

/// Solves every puzzle given, in order, as `sudoku-bench solve FILE --jobs N`.
///
/// `puzzles`: text or a file of any number of puzzles, a list of single puzzles (any form
/// `solve` takes), or a 3-D integer array. The other arguments are `solve`'s; `jobs` solves on
/// that many threads, one method instance each (methods that may not run beside themselves,
/// such as `ilp`, use one). The GIL is released while the methods work, and Ctrl-C stops the
/// call between two puzzles (raising `KeyboardInterrupt`). Returns a list of `Answer`, in the
/// puzzles' order.
#[pyfunction]
#[pyo3(signature = (puzzles, method="prop", params=None, *, variant="classic", time_limit=None, node_limit=None, iteration_limit=None, seed=0, cpu_time=false, jobs=1))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    method: &str,
    params: Option<&Bound<'_, PyAny>>,
    variant: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    iteration_limit: Option<u64>,
    seed: u64,
    cpu_time: bool,
    jobs: usize,
) -> PyResult<Vec<Answer>> {
    if jobs == 0 {
        return Err(input("jobs: give at least 1"));
    }
    let items = items(puzzles)?;
    let (s, built, thread_safe) = setup(
        Kind::Solve,
        method,
        params,
        1,
        variant,
        time_limit,
        node_limit,
        iteration_limit,
        seed,
        cpu_time,
    )?;
    // Methods that may not run beside themselves (CBC) use one thread, as on the command line.
    let jobs = if thread_safe { jobs } else { 1 };
    answers(py, &s, built, &items, jobs)
}

/// Counts the solutions of one puzzle up to `limit`, as `sudoku-bench solve --count LIMIT`.
///
/// `method` must be complete (it proves a count: prop, dlx, sat, …). Returns an `Answer` whose
/// `count` is the solutions found and `exact` says whether that is all of them (`False`: it
/// stopped at `limit` or a budget, and there are at least `count`); its `status` is solved
/// (one), multiple, infeasible (none), or the limit that ran out.
#[pyfunction]
#[pyo3(signature = (puzzle, method="prop", params=None, *, limit=1000, variant="classic", time_limit=None, node_limit=None, seed=0))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    method: &str,
    params: Option<&Bound<'_, PyAny>>,
    limit: u64,
    variant: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    seed: u64,
) -> PyResult<Answer> {
    if limit == 0 {
        return Err(input("limit: give at least 1"));
    }
    let item = one(puzzle, "count on each puzzle")?;
    let (s, built, _) = setup(
        Kind::Count,
        method,
        params,
        limit,
        variant,
        time_limit,
        node_limit,
        None,
        seed,
        false,
    )?;
    let mut all = answers(py, &s, built, std::slice::from_ref(&item), 1)?;
    Ok(all.remove(0))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Answer>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    Ok(())
}
