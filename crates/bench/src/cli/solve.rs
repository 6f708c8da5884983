//! `solve`: solve, count or relax every puzzle of a file with one method, judged like a trial of `run`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{anyhow, Context};
use clap::Args;
use sudoku_core::format::to_text;
use sudoku_core::{derive_seed, rng_from_seed, Budget, CountEnd, Order, Puzzle, Status};

use crate::cli::{budget_from, configured, whole, Failure, InputPath, VariantArg};
use crate::io::{display_name, read_puzzles, Out};
use sudoku_analysis::stats::median;
use sudoku_runner::clock::RealClock;
use sudoku_runner::experiment::Kind;
use sudoku_runner::judge::{Answer, Trial};
use sudoku_runner::kind::{capability, Job, KindSettings, TrialMethod};
use sudoku_runner::results::{ms, TrialStatus};
use sudoku_runner::{attempt, Attempt, Registry};

#[derive(Args)]
pub struct SolveArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
    /// Method (see `sudoku-bench list`).
    #[arg(long, short)]
    pub method: String,
    /// A method parameter, `key=value` (repeatable).
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    #[command(flatten)]
    pub variant: VariantArg,
    /// Count solutions instead, up to LIMIT (default 1000, at least 1); prints the count, or
    /// `>=LIMIT`.
    #[arg(long, value_name = "LIMIT", num_args = 0..=1, default_missing_value = "1000",
          value_parser = whole(1, None::<u64>), allow_negative_numbers = true)]
    pub count: Option<u64>,
    /// Solve the LP relaxation instead (ILP): prints `integral` or the number of fractional
    /// variables.
    #[arg(long, conflicts_with = "count")]
    pub relax: bool,
    /// Time limit per puzzle, in seconds (positive, at most 1e9). None by default, except for
    /// `-m external`: 60 s (an outside program may never answer), which a larger value lifts.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Node limit per puzzle (at least 1). Methods that count no search nodes (grasp, sa)
    /// ignore it, with a warning.
    #[arg(long, value_name = "N", value_parser = whole(1, None::<u64>), allow_negative_numbers = true)]
    pub node_limit: Option<u64>,
    /// Iteration limit per puzzle (at least 1). Methods that count no iterations ignore it,
    /// with a warning.
    #[arg(long, value_name = "N", value_parser = whole(1, None::<u64>), allow_negative_numbers = true)]
    pub iteration_limit: Option<u64>,
    /// Seed; each puzzle's generator is derived from it and the puzzle's place.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = whole(0, None::<u64>), allow_negative_numbers = true)]
    pub seed: u64,
    /// Solve on this many threads (at least 1), one method instance each; the output keeps
    /// the file's order. Methods that may not run beside themselves (CBC) use one.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = whole(1, None::<u64>), allow_negative_numbers = true)]
    pub jobs: u64,
    /// Also time each puzzle by the thread's CPU clock (with the CPU time of any child
    /// process). Off by default: the CPU clock costs two system calls per puzzle, a tenth of
    /// a fast 9×9 solve; the wall clock does not.
    #[arg(long)]
    pub cpu_time: bool,
}

/// The default `--time-limit` of `solve -m external`, in seconds: an outside program that
/// never answers would hold the command for ever.
pub const EXTERNAL_TIME_LIMIT: f64 = 60.0;

/// Puzzles per unit of work: big enough to make hand-over rare, small enough to stream.
const CHUNK: usize = 256;

/// What every worker shares.
struct Shared<'a> {
    name: &'a str,
    label: &'a str,
    seed: u64,
    budget: &'a Budget,
    cpu_time: bool,
    /// The method is `external`: its CPU time is its process's alone.
    outside: bool,
}

/// One chunk's results: its output lines, each puzzle's trial status, wall ms and (with
/// `--cpu-time`) CPU ms, and the wrong answers' reports.
#[derive(Default)]
struct ChunkOut {
    text: String,
    done: Vec<(TrialStatus, f64, Option<f64>)>,
    wrong: Vec<String>,
}

/// Solves one chunk with one method instance; only the method call is timed.
fn run_chunk(
    method: &mut dyn TrialMethod,
    items: &[(Puzzle, usize)],
    sh: &Shared,
) -> anyhow::Result<ChunkOut> {
    let clock = RealClock::new();
    let mut out = ChunkOut {
        done: Vec::with_capacity(items.len()),
        ..ChunkOut::default()
    };
    let mut place = String::new();
    for (puzzle, line) in items {
        place.clear();
        write!(place, "{}:{line}", sh.name).ok();
        let mut rng = rng_from_seed(derive_seed(sh.seed, sh.label, &place, 0));
        let job = Job {
            puzzle,
            carve: None,
            budget: sh.budget,
        };
        let Attempt {
            answer,
            trial,
            wall_ms: wall,
            cpu_ms: cpu,
        } = attempt(method, &job, &mut rng, &clock, sh.cpu_time, sh.outside)
            .with_context(|| place.clone())?;
        if trial.status == TrialStatus::Wrong {
            out.wrong
                .push(format!("WRONG: {place}: {}: {}", sh.label, trial.message));
        }
        out.done.push((trial.status, wall, cpu));
        push_answer(&mut out.text, &answer, &trial);
        out.text.push('\n');
    }
    Ok(out)
}

/// Runs every chunk on `methods.len()` threads and hands the results to `sink` in file order.
fn run_parallel(
    methods: Vec<Box<dyn TrialMethod>>,
    items: &[(Puzzle, usize)],
    sh: &Shared,
    sink: &mut dyn FnMut(ChunkOut) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let chunks: Vec<&[(Puzzle, usize)]> = items.chunks(CHUNK).collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for mut method in methods {
            let (tx, next, chunks) = (tx.clone(), &next, &chunks);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(chunk) = chunks.get(i) else { break };
                let r = run_chunk(method.as_mut(), chunk, sh);
                let failed = r.is_err();
                // The receiver is gone only after an error: stop then too.
                if tx.send((i, r)).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        let (mut pending, mut want) = (BTreeMap::new(), 0);
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                sink(r?)?;
                want += 1;
            }
        }
        Ok(())
    })
}

/// Solves (or counts, or relaxes) every puzzle of a file: one output line per puzzle on stdout,
/// a summary on stderr.
pub fn solve(a: &SolveArgs, registry: &Registry) -> Result<(), Failure> {
    let kind = if a.relax {
        Kind::Relax
    } else if a.count.is_some() {
        Kind::Count
    } else {
        Kind::Solve
    };
    let settings = KindSettings {
        count_limit: a.count.unwrap_or(1),
        carves: Vec::new(),
    };
    let (mut method, label) = configured(kind, registry, &a.method, &a.params, &settings)?;
    let outside = a.method == sudoku_external::NAME;
    let time_limit = a.time_limit.or(outside.then_some(EXTERNAL_TIME_LIMIT));
    let b = budget_from(time_limit, a.node_limit, a.iteration_limit)?;
    warn_unchecked_limits(registry, &a.method, &b);
    let name = display_name(&a.file);
    let entries = read_puzzles(&a.file)?;
    let orders: BTreeSet<Order> = entries.iter().map(|e| e.grid.order()).collect();
    for order in orders {
        method
            .check_order(order)
            .map_err(|e| anyhow!("--param: {e} ({name} has {order} puzzles)"))?;
    }
    let jobs = if capability(kind, registry, &a.method, &settings)?.thread_safe {
        usize::try_from(a.jobs).unwrap_or(usize::MAX)
    } else {
        1
    };
    let variant = a.variant.variant;
    let items: Vec<(Puzzle, usize)> = entries
        .into_iter()
        .map(|e| (Puzzle::new(e.grid, variant), e.line))
        .collect();
    // The shared tables of each shape built before the first puzzle's clock starts.
    Puzzle::prepare_shapes(items.iter().map(|(p, _)| p));
    let sh = Shared {
        name: &name,
        label: &label,
        seed: a.seed,
        budget: &b,
        cpu_time: a.cpu_time,
        outside,
    };
    let mut out = Out::new();
    let mut tally = [0usize; TrialStatus::ALL.len()];
    let (mut walls, mut cpus) = (Vec::with_capacity(items.len()), Vec::new());
    let mut sink = |c: ChunkOut| -> anyhow::Result<()> {
        for w in &c.wrong {
            say!("{w}");
        }
        for &(status, wall, cpu) in &c.done {
            tally[status as usize] += 1;
            walls.push(wall);
            cpus.extend(cpu);
        }
        out.text(&c.text)
    };
    let threads = jobs.min(items.len().div_ceil(CHUNK)).max(1);
    if threads == 1 {
        for chunk in items.chunks(CHUNK) {
            sink(run_chunk(method.as_mut(), chunk, &sh)?)?;
        }
    } else {
        let mut methods = vec![method];
        for _ in 1..threads {
            methods.push(configured(kind, registry, &a.method, &a.params, &settings)?.0);
        }
        run_parallel(methods, &items, &sh, &mut sink)?;
    }
    out.finish()?;
    let counts: Vec<String> = TrialStatus::ALL
        .iter()
        .map(|s| format!("{} {s}", tally[*s as usize]))
        .collect();
    let cpu = if a.cpu_time {
        format!(
            ", {:.1} ms CPU; median {:.4} ms wall, {:.4} ms CPU per puzzle",
            cpus.iter().sum::<f64>(),
            median(&walls).unwrap_or(0.0),
            median(&cpus).unwrap_or(0.0)
        )
    } else {
        format!(
            "; median {:.4} ms wall per puzzle",
            median(&walls).unwrap_or(0.0)
        )
    };
    say!(
        "{name}: {} puzzles with {label}: {}; method time: total {:.1} ms wall{cpu}; process CPU time {:.1} ms",
        items.len(),
        counts.join(", "),
        walls.iter().sum::<f64>(),
        ms(sudoku_runner::clock::process_cpu_time())
    );
    Failure::of_trials(
        tally[TrialStatus::Wrong as usize],
        tally[TrialStatus::Error as usize],
    )
}

/// Says on stderr when a limit was given that the method never checks: exact searches count
/// nodes, local searches (grasp, sa) iterations.
fn warn_unchecked_limits(registry: &Registry, method: &str, b: &Budget) {
    let Ok(info) = registry.method(method) else {
        return;
    };
    let unchecked = if info.caps.complete {
        b.iterations.map(|_| ("--iteration-limit", "iterations"))
    } else {
        b.nodes.map(|_| ("--node-limit", "search nodes"))
    };
    if let Some((flag, what)) = unchecked {
        say!("warning: `{method}` counts no {what}, so {flag} is ignored");
    }
}

/// Appends `solve`'s output line for one puzzle to `out`; a solution that fits one line is
/// written in place, with no string of its own (the common case of a large file).
fn push_answer(out: &mut String, answer: &Answer, trial: &Trial) {
    if let (Answer::Solve(o), TrialStatus::Solved) = (answer, trial.status) {
        if let Status::Solved(g) = &o.status {
            if g.size() <= 35 {
                out.extend(
                    g.cells()
                        .iter()
                        .map(|&d| sudoku_core::format::digit_char(d)),
                );
                return;
            }
        }
    }
    out.push_str(&answer_line(answer, trial));
}

/// `solve`'s output line for one puzzle: the solution, the count, the relaxation's verdict, or
/// the trial's status with its reason.
fn answer_line(answer: &Answer, trial: &Trial) -> String {
    match (answer, trial.status) {
        (_, TrialStatus::Wrong) => trial.describe(),
        (Answer::Solve(o), TrialStatus::Solved) => match &o.status {
            Status::Solved(g) => to_text(g).trim_end().to_string(),
            _ => trial.describe(),
        },
        // A complete count below the limit that no check confirmed is not printed as fact.
        (Answer::Count(_), TrialStatus::Unverified) => trial.describe(),
        (Answer::Count(c), _) => match c.end {
            CountEnd::Complete => c.count.to_string(),
            CountEnd::LimitReached => format!(">={}", c.count),
            CountEnd::Exhausted(_) => format!("{} (>={} found)", trial.describe(), c.count),
        },
        (Answer::Relax(r), TrialStatus::Solved) => {
            let u = match r.unique {
                Some(true) => " unique",
                Some(false) => " not-unique",
                None => "",
            };
            if r.integral {
                format!("integral{u}")
            } else {
                format!("fractional {}{u}", r.fractional)
            }
        }
        // What an outside program said of an infeasible claim or a limit (that it gave up).
        (_, TrialStatus::Infeasible | TrialStatus::Timeout | TrialStatus::Failed)
            if !trial.message.is_empty() =>
        {
            format!("{} ({})", trial.describe(), trial.message)
        }
        _ => trial.describe(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{CountOutcome, Stats};

    /// A complete count that no check confirmed is printed as the claim it is, not as a count.
    #[test]
    fn an_unconfirmed_count_is_not_printed_as_fact() {
        let answer = Answer::Count(CountOutcome {
            count: 2,
            end: CountEnd::Complete,
            solutions: Vec::new(),
            stats: Stats::default(),
        });
        let trial = Trial {
            status: TrialStatus::Unverified,
            message: "claimed exactly 2 solutions; sat could not confirm it within 1 s".into(),
            count: Some(2),
            ..Trial::default()
        };
        assert_eq!(
            answer_line(&answer, &trial),
            "unverified: claimed exactly 2 solutions; sat could not confirm it within 1 s"
        );
        let confirmed = Trial {
            status: TrialStatus::Multiple,
            ..trial
        };
        assert_eq!(answer_line(&answer, &confirmed), "2");
    }
}
