//! # sudoku-external
//!
//! The `external` method: any program that reads puzzles on standard input and writes answers
//! on standard output becomes a solver of the benchmark, judged and timed like every other
//! method. This is how MiniZinc, a user's own solver, or another tool of the field gets into
//! the same table as ours (`scripts/adapters/` holds ready adapters).
//!
//! Parameters: `command` (run by `/bin/sh -c` from the directory the runner runs in, whatever
//! `PATH` holds), `format`
//! (`line` or `grid`, see [`Format`]), `batch` (one process per puzzle, or one long-lived
//! process answering puzzle after puzzle), `name` (the label results show instead of the
//! parameters).
//!
//! The protocol, per puzzle: the puzzle is written to the child's standard input; the child
//! answers with a solution in the same format, `infeasible`, `unknown` (it gave up), or
//! `count K` followed by its `K` solutions when counting; blank lines and `#` comments are
//! skipped. A comment `# stats k=v k=v` before the answer gives figures for the row's `extra`
//! column; those named `nodes`, `guesses`, `iterations` or `restarts` with a whole number fill
//! that column too, and `solve_ms` (the program's own clock for its search, in ms) and
//! `build_ms` (its model building, in ms) fill [`Stats::solve_time`] and
//! [`Stats::build_time`] (the `solve_ms` and `build_ms` columns) instead. Without `batch`, standard input is closed after the puzzle and the child must exit
//! with status 0; with `batch`, it must answer each puzzle before it gets the next. The child
//! also finds in its environment `SUDOKU_FORMAT`, `SUDOKU_VARIANT` (`classic`, `diagonal`),
//! `SUDOKU_TASK` (`solve`, `count`), `SUDOKU_COUNT_LIMIT`, `SUDOKU_TIME_LIMIT` (seconds, when
//! there is one), `SUDOKU_BATCH` (`0`, `1`) and, one process per puzzle, `SUDOKU_SEED`.
//!
//! The child runs in its own process group. At the time limit the whole group is killed
//! (status `timeout`); a crash, a non-zero exit, output that is not an answer, or an end before
//! the answer make the trial an `error` whose message ends with the tail of the child's
//! standard error. The CPU time of the child and its descendants is reported in
//! [`Stats::child_cpu`]. In batch mode the process is kept across trials and started again
//! after any failure; the trial that starts it pays for its start-up.
//!
//! What a call times: in batch mode, one non-blocking read for output out of turn, writing the
//! puzzle to the pipe and reading the answer, from the calling thread with one `poll` per wait
//! (a pipe round trip, a few microseconds); one process per puzzle, starting it, the puzzle and
//! its run to its exit. The rest is done by [`Solver::settle`], which the runner calls once its
//! clock has stopped: reaping a process of one puzzle, the check for more output after a batch
//! answer, the standard-error tail, and the CPU time, read process by process down the child's
//! tree (`/proc/PID/stat` and the process's CPU clock; never a scan of every process). The
//! kernel brings another process's CPU clock up to date only when it leaves its core or at a
//! tick, so members of the group still running then (a program that watches its input after
//! answering) are stopped for the reading (`SIGSTOP`, then `SIGCONT`, each thread held for it to
//! a core other than the harness's, lest it wait for the harness's core). A process that leaves
//! the tree (re-parented to init when its parent exits without waiting for it) is killed with
//! the group but not counted. A program that answers `unknown` gave up: the status is the
//! budget's, and the row's message says so, with when.
#![deny(missing_docs)]

mod process;
mod protocol;

use std::time::{Duration, Instant};

use rand::RngCore;
use sudoku_core::format::TooLargeForLine;
use sudoku_core::{
    choices, Budget, Capabilities, Count, CountEnd, CountOutcome, Counted, Limit, MethodInfo,
    Outcome, ParamError, Params, Puzzle, Rng, Solver, Stats, Status, TextParam, NAME_KEY,
};

use crate::process::{Between, Event, Proc, Wait};
pub use crate::protocol::{AnswerReader, Format, Reply};

/// The method's registered name.
pub const NAME: &str = "external";

/// Time given to a child to finish its output after it was killed or exited.
const GRACE: Duration = Duration::from_millis(500);

const LABEL: TextParam = TextParam::new(
    NAME_KEY,
    "",
    "the label results show for this configuration instead of its parameters (no spaces)",
);

/// The methods of this crate, for the runner's registry.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: NAME,
        summary: "any program as a solver: puzzles on its standard input, answers on its standard output (scripts/adapters/)",
        params: ExternalConfig::PARAMS,
        // Whether it proves infeasibility is the program's business: it may say `unknown`.
        caps: Capabilities {
            complete: true,
            thread_safe: true,
            randomized: false,
        },
        build: |p| Ok(Box::new(External::new(ExternalConfig::from_params(p)?))),
    }]
}

/// Why an external solver gave no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The command could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The shell that runs the command (`/bin/sh`) is missing.
    #[error("cannot start `{command}`: the shell that runs it, /bin/sh, is missing")]
    NoShell {
        /// The command line.
        command: String,
    },
    /// The puzzle does not fit the line format.
    #[error("{0} (set format = \"grid\")")]
    TooLarge(#[from] TooLargeForLine),
    /// Output that is not an answer.
    #[error("malformed answer {0}")]
    Malformed(String),
    /// The child ended (or closed its output) without an answer.
    #[error("the solver {0} without answering")]
    NoAnswer(String),
    /// The child ended in the middle of an answer (a grid block or a count cut short).
    #[error("the solver {0} in the middle of an answer")]
    Incomplete(String),
    /// The child answered but did not exit cleanly (one process per puzzle).
    #[error("the solver {0}")]
    Failed(String),
    /// More than one answer (one process per puzzle), or output after the answer that came
    /// before its CPU time was read (batch).
    #[error("more output after the answer: {0}")]
    Extra(String),
    /// A batch process printed this after its last answer was read and before the next puzzle
    /// (the trial that finds it is this error, and its puzzle is not asked).
    #[error(
        "the solver printed {0} out of turn, after its previous answer: it is replaced, and this puzzle was not put to it"
    )]
    OutOfTurn(String),
    /// An answer of the wrong kind (a count for a solve, a solution for a count).
    #[error("the solver answered {got} where {asked} was asked")]
    Mismatch {
        /// What it answered.
        got: &'static str,
        /// What was asked.
        asked: &'static str,
    },
}

sudoku_core::config! {
    /// A configured external solver.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ExternalConfig for NAME, check ExternalConfig::check {
        command: String = text "", "the solver's command line, run by `/bin/sh -c` (required)";
        format: Format = "line" of choices!["line" => Format::Line, "grid" => Format::Grid],
            "how puzzles and solutions are written: one line (orders 2..=5) or N rows of N numbers";
        batch: bool = false,
            "one long-lived process answering puzzle after puzzle (false: one process per puzzle)";
        _ = LABEL;
        /// The label (`name`), if any.
        pub name: Option<String>;
    }
}

impl ExternalConfig {
    /// A command is required; a label, when given, is one word.
    fn check(&mut self, p: &Params) -> Result<(), ParamError> {
        if self.command.is_empty() {
            return Err(p.invalid("command", "a command line"));
        }
        if p.raw(NAME_KEY).is_some() {
            let label = LABEL.read(p);
            if label.is_empty() || label.contains(char::is_whitespace) {
                return Err(p.invalid(NAME_KEY, "a label without spaces"));
            }
            self.name = Some(label);
        }
        Ok(())
    }
}

/// What one call asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    Solve,
    Count(u64),
}

/// What a batch process was started for: another session needs another process.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Session {
    task: Task,
    variant: &'static str,
    time: Option<Duration>,
}

/// How one question to the child ended.
enum Asked {
    Reply(Reply),
    TimedOut,
    Failed(ExternalError),
}

/// The `external` method.
pub struct External {
    config: ExternalConfig,
    /// The batch process, what it was started for, and its CPU time when it was last read
    /// (it uses none while it waits for the next puzzle; `None` when an answer went unsettled,
    /// so that the next reading cannot be told apart from earlier puzzles').
    running: Option<(Session, Proc, Option<Duration>)>,
    /// The batch process answered and its CPU time has not been read since: [`Solver::settle`]
    /// reads it, after the caller's clock has stopped.
    unsettled: bool,
    /// The process of the last puzzle (one process per puzzle) that answered and exited, not
    /// yet reaped: [`Solver::settle`] kills what it left in its group, reaps it for its CPU
    /// time and reads the end of its output, after the caller's clock has stopped.
    answered: Option<Proc>,
    /// `settle` stopped the batch process for output after its answer: the next trial's
    /// process is a replacement.
    breached: bool,
    /// A comment line written before the next puzzle only ([`External::preface`]).
    preface: String,
}

impl External {
    /// An external solver (no process runs until the first puzzle).
    pub fn new(config: ExternalConfig) -> External {
        External {
            config,
            running: None,
            unsettled: false,
            answered: None,
            breached: false,
            preface: String::new(),
        }
    }

    /// A comment line, `# COMMENT`, written just before the next puzzle and not again: how a
    /// caller that knows its program passes it more than the puzzle (a duet passes the old
    /// build's `serve` each trial's seed so, `# seed N`). Line breaks in `comment` become
    /// spaces, so that it stays one comment line, which programs skip.
    pub fn preface(&mut self, comment: &str) {
        self.preface = format!("# {}\n", comment.replace(['\n', '\r'], " "));
    }

    fn env(&self, s: &Session, seed: Option<u64>) -> Vec<(String, String)> {
        let mut env = vec![
            ("SUDOKU_FORMAT", self.config.format.name().to_string()),
            ("SUDOKU_VARIANT", s.variant.to_string()),
            ("SUDOKU_BATCH", u8::from(self.config.batch).to_string()),
        ];
        match s.task {
            Task::Solve => env.push(("SUDOKU_TASK", "solve".into())),
            Task::Count(k) => {
                env.push(("SUDOKU_TASK", "count".into()));
                env.push(("SUDOKU_COUNT_LIMIT", k.to_string()));
            }
        }
        if let Some(t) = s.time {
            env.push(("SUDOKU_TIME_LIMIT", format!("{}", t.as_secs_f64())));
        }
        if let Some(seed) = seed {
            env.push(("SUDOKU_SEED", seed.to_string()));
        }
        env.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    fn spawn(&self, s: &Session, seed: Option<u64>) -> Result<Proc, ExternalError> {
        let command = self.config.command.clone();
        Proc::spawn(&command, &self.env(s, seed)).map_err(|source| {
            // The command's own programs are looked up by the shell, which says so on its
            // standard error (status 127): not found here means the shell itself.
            if source.kind() == std::io::ErrorKind::NotFound {
                ExternalError::NoShell { command }
            } else {
                ExternalError::Spawn { command, source }
            }
        })
    }

    /// Puts one puzzle to the solver; gives its answer and the stats of the call (the
    /// child's CPU time, its standard-error tail, the figures it reported).
    fn ask(
        &mut self,
        puzzle: &Puzzle,
        task: Task,
        budget: &Budget,
        rng: &mut Rng,
    ) -> (Asked, Stats) {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let session = Session {
            task,
            variant: puzzle.variant().name(),
            time: budget.time,
        };
        let text = match self.config.format.write(puzzle.givens()) {
            Ok(t) => std::mem::take(&mut self.preface) + &t,
            Err(e) => return (Asked::Failed(e), Stats::default()),
        };
        // The last puzzle's process, when the caller did not settle it: reaped unread.
        self.answered = None;
        let mut reader = AnswerReader::new(puzzle.order(), self.config.format);
        let (asked, cpu, tail, process) = if self.config.batch {
            self.ask_batch(session, text, &mut reader, deadline)
        } else {
            let (asked, cpu, tail) =
                self.ask_once(&session, text, &mut reader, deadline, rng.next_u64());
            (asked, cpu, tail, "started")
        };
        let mut extra = reader.take_figures();
        // The program's own clocks have columns of their own, not a place in `extra`.
        let solve_time = take_ms(&mut extra, SOLVE_MS);
        let build_time = take_ms(&mut extra, BUILD_MS);
        if self.config.batch {
            extra.push(("process".to_string(), process.to_string()));
        }
        let count = |key: &str| {
            extra
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, v)| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let mut log = None;
        if matches!(asked, Asked::Reply(Reply::Unknown)) {
            // Its status says a limit ran out; this says whose, and when.
            log = Some(gave_up(start.elapsed(), budget.time));
        }
        add_log(&mut log, &tail);
        let stats = Stats {
            child_cpu: cpu,
            solve_time,
            build_time,
            log,
            // Figures named like the effort columns fill them, so a program's search is
            // compared with ours column by column (fidelity tables).
            nodes: count("nodes"),
            guesses: count("guesses"),
            iterations: count("iterations"),
            restarts: count("restarts"),
            extra,
            // Its "no solution" and its complete counts are checked by the runner's judge.
            claims_unproven: true,
            ..Stats::default()
        };
        (asked, stats)
    }

    /// One process for this puzzle: it gets the puzzle and end of input, and must answer and
    /// exit with status 0. The caller's clock holds starting it, the puzzle's way there and
    /// its run to its exit; when it answered, the rest (killing what it left in its group,
    /// reaping it for its CPU time, output that comes later) waits for [`Solver::settle`].
    fn ask_once(
        &mut self,
        session: &Session,
        text: String,
        reader: &mut AnswerReader,
        deadline: Option<Instant>,
        seed: u64,
    ) -> (Asked, Option<Duration>, String) {
        let mut proc = match self.spawn(session, Some(seed)) {
            Ok(p) => p,
            Err(e) => return (Asked::Failed(e), None, String::new()),
        };
        proc.send(text.into_bytes());
        proc.close_input();
        let mut lines = Vec::new();
        let mut timed_out = false;
        loop {
            match proc.next(deadline) {
                Ok(Event::Line(l)) => lines.push(l),
                Ok(Event::Eof) => {}
                Ok(Event::Exited) | Err(Wait::Closed) => break,
                Err(Wait::TimedOut) => {
                    timed_out = true;
                    break;
                }
            }
        }
        let asked = if timed_out {
            Asked::TimedOut
        } else {
            let exit = proc.exit_status();
            if exit.success() {
                read_all(reader, &lines, &exit.to_string())
            } else {
                Asked::Failed(ExternalError::Failed(exit.to_string()))
            }
        };
        if matches!(asked, Asked::Reply(_)) {
            self.answered = Some(proc);
            return (asked, None, String::new());
        }
        // Members killed at the limit are not reaped by the shell: read their time first.
        let before = timed_out.then(|| proc.cpu_so_far()).flatten();
        let (_, cpu) = proc.finish();
        let cpu = cpu.max(before.unwrap_or_default());
        let tail = proc.stderr_tail(GRACE);
        (asked, Some(cpu), tail)
    }

    /// The batch process (started when there is none, or it was started for another session)
    /// gets the puzzle and must answer it; after any failure it is stopped, for the next trial
    /// to start afresh. The caller's clock holds one non-blocking read for output out of turn,
    /// the puzzle's way there and the answer's way back (and starting the process, for the
    /// trial that starts it); the CPU time and the standard-error tail wait for
    /// [`Solver::settle`].
    fn ask_batch(
        &mut self,
        session: Session,
        text: String,
        reader: &mut AnswerReader,
        deadline: Option<Instant>,
    ) -> (Asked, Option<Duration>, String, &'static str) {
        let unsettled = std::mem::take(&mut self.unsettled);
        let between = match &mut self.running {
            Some((s, p, cpu0)) if *s == session => {
                if unsettled {
                    // The caller did not settle the last answer (it wants no CPU times):
                    // reading now would cost this puzzle's time, so the baseline is dropped.
                    *cpu0 = None;
                    p.clear_stderr();
                }
                p.between()
            }
            _ => Between::Ended,
        };
        if let Between::Printed(text) = between {
            // It answered a puzzle whose row is written: this trial reports it.
            if let Some((_, old, _)) = self.running.take() {
                old.close(Duration::ZERO);
            }
            let e = ExternalError::OutOfTurn(format!("`{text}`"));
            return (Asked::Failed(e), None, String::new(), "replaced");
        }
        let process = match between {
            Between::Quiet => "kept",
            _ => {
                if let Some((_, old, _)) = self.running.take() {
                    old.close(Duration::ZERO);
                }
                let label = if std::mem::take(&mut self.breached) {
                    "replaced"
                } else {
                    "started"
                };
                match self.spawn(&session, None) {
                    Ok(p) => self.running = Some((session, p, Some(Duration::ZERO))),
                    Err(e) => return (Asked::Failed(e), None, String::new(), label),
                }
                label
            }
        };
        let Some((_, proc, cpu0)) = self.running.as_mut() else {
            return (
                Asked::Failed(ExternalError::NoAnswer("was not running".into())),
                None,
                String::new(),
                process,
            );
        };
        proc.send(text.into_bytes());
        let outcome = loop {
            match proc.next(deadline) {
                Ok(Event::Line(l)) => match reader.feed(&l) {
                    Ok(Some(reply)) => break Ok(reply),
                    Ok(None) => {}
                    Err(e) => break Err(Some(Asked::Failed(e))),
                },
                Ok(Event::Eof) | Ok(Event::Exited) | Err(Wait::Closed) => break Err(None),
                Err(Wait::TimedOut) => break Err(Some(Asked::TimedOut)),
            }
        };
        match outcome {
            Ok(reply) => {
                // The CPU time, the standard-error tail and a check for more output are read
                // by `settle`, once the caller's clock has stopped.
                self.unsettled = true;
                (Asked::Reply(reply), None, String::new(), process)
            }
            Err(asked) => {
                // Killed members were not reaped by the shell: read their time before the kill.
                let before = cpu0.and_then(|_| proc.cpu_so_far()).unwrap_or_default();
                let (exit, total) = proc.finish();
                let tail = proc.stderr_tail(GRACE);
                let cpu = cpu0.map(|c0| before.max(total).saturating_sub(c0));
                // `None`: it ended by itself.
                let asked =
                    asked.unwrap_or_else(|| Asked::Failed(ended(reader, &exit.to_string())));
                self.running = None;
                (asked, cpu, tail, process)
            }
        }
    }

    /// What `settle` reads of the process of one puzzle that answered: it kills what the
    /// process left in its group and reaps it (its CPU time, and its children's that it waited
    /// for); output after that (from a process that left the group) is a breach.
    fn settle_once(mut proc: Proc, stats: &mut Stats) {
        let (_, cpu) = proc.finish();
        stats.child_cpu = Some(cpu);
        if let Some(more) = proc.drain(GRACE).iter().find_map(|l| content(l)) {
            stats.error = Some(ExternalError::Extra(format!("`{more}`")).to_string());
        }
        add_log(&mut stats.log, &proc.stderr_tail(GRACE));
    }
}

/// The text of an output line that is neither blank nor a comment, cut for messages.
fn content(line: &str) -> Option<String> {
    let t = line.trim();
    (!t.is_empty() && !t.starts_with('#')).then(|| t.chars().take(60).collect())
}

/// Adds a standard-error tail to a row's log.
fn add_log(log: &mut Option<String>, tail: &str) {
    if tail.is_empty() {
        return;
    }
    let tail = format!("stderr: {tail}");
    *log = Some(match log.take() {
        Some(l) => format!("{l}; {tail}"),
        None => tail,
    });
}

/// What a row says of a program that answered `unknown`: that it gave up itself, and when.
fn gave_up(after: Duration, limit: Option<Duration>) -> String {
    let limit = match limit {
        Some(l) => format!("of a time limit of {}", shown(l)),
        None => "without a time limit".to_string(),
    };
    format!(
        "gave up: the solver answered `unknown` after {}, {limit}",
        shown(after)
    )
}

/// A duration for messages: milliseconds below a second, else seconds.
fn shown(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{:.1} ms", d.as_secs_f64() * 1e3)
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

/// The one answer in all the output of a process that has exited.
fn read_all(reader: &mut AnswerReader, lines: &[String], exit: &str) -> Asked {
    let mut reply = None;
    for l in lines {
        if reply.is_some() {
            match content(l) {
                Some(more) => return Asked::Failed(ExternalError::Extra(format!("`{more}`"))),
                None => continue,
            }
        }
        match reader.feed(l) {
            Ok(r) => reply = r,
            Err(e) => return Asked::Failed(e),
        }
    }
    match reply {
        Some(r) => Asked::Reply(r),
        None => Asked::Failed(ended(reader, exit)),
    }
}

/// The error of a child that ended before its answer was whole.
fn ended(reader: &AnswerReader, exit: &str) -> ExternalError {
    if reader.is_empty() {
        ExternalError::NoAnswer(exit.to_string())
    } else {
        ExternalError::Incomplete(exit.to_string())
    }
}

/// The stats of a call that failed: the error, with the standard-error tail after it.
fn failed(mut stats: Stats, e: ExternalError) -> Stats {
    let msg = match stats.log.take() {
        Some(log) => format!("{e}; {log}"),
        None => e.to_string(),
    };
    stats.error = Some(msg);
    stats
}

const GAVE_UP: Status = Status::Exhausted {
    limit: Limit::Time,
    best: None,
};

/// Takes the figure `key` (a time in ms) out of `figures`, when it is a time.
fn take_ms(figures: &mut Vec<(String, String)>, key: &str) -> Option<Duration> {
    let i = figures.iter().position(|(k, _)| k == key)?;
    let ms: f64 = figures[i].1.parse().ok()?;
    let time = Duration::try_from_secs_f64(ms / 1000.0).ok()?;
    figures.remove(i);
    Some(time)
}

/// The `# stats` figure a program gives its own solve time in, in milliseconds.
pub const SOLVE_MS: &str = "solve_ms";

/// The `# stats` figure a program gives the time it took to build its model in (ms): the
/// `build_ms` column, part of the harness's clock and not of its own.
pub const BUILD_MS: &str = "build_ms";

impl Solver for External {
    fn name(&self) -> &str {
        NAME
    }

    fn settle(&mut self, stats: &mut Stats) {
        if let Some(proc) = self.answered.take() {
            External::settle_once(proc, stats);
            return;
        }
        if !std::mem::take(&mut self.unsettled) {
            return;
        }
        let Some((_, proc, cpu0)) = self.running.as_mut() else {
            return;
        };
        // One answer per puzzle: more after it (a second answer, say) is a breach of the
        // protocol, reported here; the process is replaced before the next puzzle.
        let stray = proc.stray();
        let now = proc.cpu_so_far();
        stats.child_cpu = now.zip(*cpu0).map(|(now, c0)| now.saturating_sub(c0));
        *cpu0 = now;
        add_log(&mut stats.log, &proc.stderr_tail(Duration::ZERO));
        proc.clear_stderr();
        if let Some(more) = stray {
            stats.error = Some(ExternalError::Extra(format!("`{more}`")).to_string());
            if let Some((_, old, _)) = self.running.take() {
                old.close(Duration::ZERO);
            }
            self.breached = true;
        }
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let (asked, stats) = self.ask(puzzle, Task::Solve, budget, rng);
        let (status, stats) = match asked {
            Asked::Reply(Reply::Solution(g)) => (Status::Solved(g), stats),
            Asked::Reply(Reply::Infeasible) => (Status::Infeasible, stats),
            Asked::Reply(Reply::Unknown) | Asked::TimedOut => (GAVE_UP, stats),
            Asked::Reply(Reply::Count(..)) => (
                GAVE_UP,
                failed(
                    stats,
                    ExternalError::Mismatch {
                        got: "a count",
                        asked: "a solution",
                    },
                ),
            ),
            Asked::Failed(e) => (GAVE_UP, failed(stats, e)),
        };
        Outcome { status, stats }
    }

    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, rng: &mut Rng) -> Counted {
        let Count { limit, .. } = ask;
        let (asked, stats) = self.ask(puzzle, Task::Count(limit), budget, rng);
        let gave_up = CountEnd::Exhausted(Limit::Time);
        let (count, end, solutions, stats) = match asked {
            Asked::Reply(Reply::Count(k, sols)) => {
                let end = if k >= limit {
                    CountEnd::LimitReached
                } else {
                    CountEnd::Complete
                };
                (k, end, sols, stats)
            }
            Asked::Reply(Reply::Infeasible) => (0, CountEnd::Complete, Vec::new(), stats),
            Asked::Reply(Reply::Unknown) | Asked::TimedOut => (0, gave_up, Vec::new(), stats),
            Asked::Reply(Reply::Solution(_)) => (
                0,
                gave_up,
                Vec::new(),
                failed(
                    stats,
                    ExternalError::Mismatch {
                        got: "a solution",
                        asked: "a count (`count K` and K solutions)",
                    },
                ),
            ),
            Asked::Failed(e) => (0, gave_up, Vec::new(), failed(stats, e)),
        };
        Ok(CountOutcome {
            count,
            end,
            solutions,
            stats,
        })
    }
}

impl Drop for External {
    fn drop(&mut self) {
        // A batch process gets end of input and a moment to exit on its own.
        if let Some((_, p, _)) = self.running.take() {
            p.close(GRACE);
        }
    }
}
