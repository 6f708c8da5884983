//! `serve`: a built-in method (or known answers) behind the `external` protocol, puzzle after
//! puzzle on standard input and output. Run through the `external` method, it measures what the
//! harness costs: the same method in process and through the pipe, or a solver that does no
//! work at all (`--replay`), on the same puzzles in one run. It is also how a duet (`run
//! --baseline`) runs the old build: a comment line `# seed N` just above a puzzle makes that
//! puzzle's generator the trial's (as the runner makes it in process), and `solve_ms` is the
//! method's own clock as a row in process has it, so the two builds are timed on the same work.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use clap::Args;
use sudoku_core::format::{self, to_block, to_line, EntryReader, ParseOptions};
use sudoku_core::{rng_from_seed, Budget, Grid, Puzzle, Status, Variant};

use crate::cli::{configured, Failure};
use sudoku_runner::experiment::Kind;
use sudoku_runner::judge::Answer;
use sudoku_runner::kind::{Job, KindSettings, TrialMethod};
use sudoku_runner::Registry;

#[derive(Args)]
pub struct ServeArgs {
    /// The method that answers (see `sudoku-bench list`); each answer comes after a
    /// `# stats solve_ms=…` line with the method's own clock (as a row made in process has
    /// it). A comment `# seed N` just above a puzzle makes that puzzle's generator the one a
    /// trial of seed N gets in process (how a duet, `run --baseline`, runs both builds).
    #[arg(long, short, conflicts_with = "replay")]
    pub method: Option<String>,
    /// A method parameter, `key=value` (repeatable).
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Answer from memory instead: every puzzle of the FILEs is solved (or counted) once at
    /// start, then each question is answered by looking it up, so that what a trial measures
    /// is the harness alone. A puzzle that is in none of them is answered `unknown`.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub replay: Vec<PathBuf>,
    /// TEST ONLY: make every answer PERCENT % slower inside its own clock (a busy wait after
    /// the method returns), to check that a comparison finds a known slowdown. Each answer's
    /// `# stats` line says `test_slowdown=PERCENT`, so every row made from it records it.
    #[arg(long, value_name = "PERCENT", conflicts_with = "replay", value_parser = percent)]
    pub test_slowdown: Option<f64>,
}

/// A slowdown in per cent: more than 0, at most 1000.
fn percent(s: &str) -> Result<f64, String> {
    sudoku_runner::duet::percent(s)
}

/// What the `external` method says in the environment of the program it starts.
struct Protocol {
    grid_format: bool,
    variant: Variant,
    count: Option<u64>,
    budget: Budget,
    seed: u64,
}

impl Protocol {
    fn from_env() -> anyhow::Result<Protocol> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let grid_format = match var("SUDOKU_FORMAT").as_deref() {
            None | Some("line") => false,
            Some("grid") => true,
            Some(other) => bail!("SUDOKU_FORMAT: `{other}` is not line or grid"),
        };
        let variant = match var("SUDOKU_VARIANT") {
            None => Variant::Classic,
            Some(v) => v.parse().map_err(|e| anyhow!("SUDOKU_VARIANT: {e}"))?,
        };
        let count = match var("SUDOKU_TASK").as_deref() {
            None | Some("solve") => None,
            Some("count") => Some(match var("SUDOKU_COUNT_LIMIT") {
                None => 2,
                Some(k) => k
                    .parse::<u64>()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| anyhow!("SUDOKU_COUNT_LIMIT: `{k}` is not a count"))?,
            }),
            Some(other) => bail!("SUDOKU_TASK: `{other}` is not solve or count"),
        };
        let time = var("SUDOKU_TIME_LIMIT")
            .map(|t| {
                t.parse::<f64>()
                    .ok()
                    .and_then(|s| sudoku_core::limits::time_limit(s).ok())
                    .ok_or_else(|| anyhow!("SUDOKU_TIME_LIMIT: `{t}` is not a time limit"))
            })
            .transpose()?;
        let seed = var("SUDOKU_SEED").and_then(|s| s.parse().ok()).unwrap_or(0);
        Ok(Protocol {
            grid_format,
            variant,
            count,
            budget: Budget {
                time,
                ..Budget::unlimited()
            },
            seed,
        })
    }

    /// A grid as the protocol writes it.
    fn show(&self, grid: &Grid) -> anyhow::Result<String> {
        Ok(if self.grid_format {
            to_block(grid)
        } else {
            to_line(grid)?
        })
    }

    /// The answer to one question: a `# stats` line with `figures` (none: no line), then
    /// the answer's lines.
    fn answer(&self, answer: &Answer, figures: &[(&str, String)]) -> anyhow::Result<String> {
        let mut text = String::new();
        if !figures.is_empty() {
            let line: Vec<String> = figures.iter().map(|(k, v)| format!("{k}={v}")).collect();
            text.push_str(&format!("# stats {}\n", line.join(" ")));
        }
        match answer {
            Answer::Solve(o) => match &o.status {
                Status::Solved(g) => text.push_str(&self.show(g)?),
                Status::Infeasible => text.push_str("infeasible"),
                _ => text.push_str("unknown"),
            },
            Answer::Count(c) => match c.end {
                sudoku_core::CountEnd::Exhausted(_) => text.push_str("unknown"),
                _ => {
                    text.push_str(&format!("count {}", c.solutions.len()));
                    for g in &c.solutions {
                        text.push('\n');
                        text.push_str(&self.show(g)?);
                    }
                }
            },
            _ => bail!("serve answers solve and count questions only"),
        }
        text.push('\n');
        Ok(text)
    }
}

/// Answers puzzles from standard input until it ends.
pub fn serve(a: &ServeArgs, registry: &Registry) -> Result<(), Failure> {
    let protocol = Protocol::from_env()?;
    let (kind, limit) = match protocol.count {
        Some(k) => (Kind::Count, k),
        None => (Kind::Solve, 1),
    };
    let settings = KindSettings {
        count_limit: limit,
        carves: Vec::new(),
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut reader = EntryReader::new(stdin.lock(), "standard input", ParseOptions::default());
    let mut write = |text: &str| -> anyhow::Result<()> {
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .context("writing to standard output")
    };
    match (&a.method, a.replay.is_empty()) {
        (_, false) => {
            let known = replayed(&a.replay, &protocol, registry, kind, &settings)?;
            drop(reader);
            replay(stdin.lock(), &known, protocol.grid_format, write)
        }
        (Some(method), true) => {
            let (mut m, _) = configured(kind, registry, method, &a.params, &settings)?;
            let mut rng = rng_from_seed(protocol.seed);
            serve_each(&mut reader, |grid, label| {
                let puzzle = Puzzle::new(grid, protocol.variant);
                // The trial's seed, when the harness gives one: this puzzle's generator is then
                // made from it, as the runner makes a trial's in process.
                let seed = label.and_then(seed_of);
                let mut own = seed.map(rng_from_seed);
                let rng = own.as_mut().unwrap_or(&mut rng);
                let (mut answer, call, spun) =
                    timed(m.as_mut(), &puzzle, &protocol.budget, rng, a.test_slowdown)?;
                // What the method completes after its clock (a forked child's times).
                m.settle(&mut answer);
                if let Some(p) = a.test_slowdown {
                    sudoku_runner::duet::mark_slowdown(&mut answer, p, spun);
                }
                write(&protocol.answer(&answer, &figures(&answer, call, seed))?)
            })
        }
        (None, true) => Err(anyhow!("give --method or --replay")),
    }
    .map_err(Failure::from)
}

/// `N` from a puzzle's comment lines (`seed N`, among others joined by `; `).
fn seed_of(label: &str) -> Option<u64> {
    label
        .split("; ")
        .find_map(|c| c.trim().strip_prefix("seed ")?.trim().parse().ok())
}

/// The `# stats` figures of one answer. `solve_ms` is the method's own clock as a row made in
/// process has it ([`sudoku_runner::duet::own_time`]): the search time it reports, else the
/// call less its model building; `build_ms` when it reports one; `seed` echoes the trial's
/// seed it was given; `test_slowdown` says the answer was slowed on purpose.
fn figures(answer: &Answer, call: Duration, seed: Option<u64>) -> Vec<(&'static str, String)> {
    let stats = answer.stats();
    let own = sudoku_runner::duet::own_time(answer, call);
    let ms = |d: Duration| format!("{:.6}", d.as_secs_f64() * 1000.0);
    let mut out = vec![
        ("solve_ms", ms(own)),
        ("nodes", stats.nodes.to_string()),
        ("guesses", stats.guesses.to_string()),
        ("iterations", stats.iterations.to_string()),
        ("restarts", stats.restarts.to_string()),
    ];
    if let Some(b) = stats.build_time {
        out.push(("build_ms", ms(b)));
    }
    if let Some(s) = seed {
        out.push(("seed", s.to_string()));
    }
    if let Some((_, p)) = stats
        .extra
        .iter()
        .find(|(k, _)| k == sudoku_runner::duet::SLOWDOWN_KEY)
    {
        out.push((sudoku_runner::duet::SLOWDOWN_KEY, p.clone()));
    }
    out
}

/// Answers each question from `known` by its text alone, as the harness wrote it (one line, or
/// a grid block up to its blank line): no parsing, so that a trial times the harness only. Its
/// own clock (`solve_ms`) is the look-up's.
fn replay(
    mut input: impl BufRead,
    known: &HashMap<String, String>,
    grid_format: bool,
    mut write: impl FnMut(&str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut line = String::new();
    let mut block = String::new();
    loop {
        line.clear();
        if input
            .read_line(&mut line)
            .context("reading standard input")?
            == 0
        {
            return Ok(());
        }
        let text = line.trim_end();
        let question = if grid_format {
            if !text.is_empty() {
                block.push_str(text);
                block.push('\n');
                continue;
            }
            if block.is_empty() {
                continue;
            }
            block.trim_end()
        } else {
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            text
        };
        // Its own clock covers the look-up, its whole work.
        let t0 = Instant::now();
        let answer = known.get(question).map_or("unknown\n", String::as_str);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        write(&format!("# stats solve_ms={ms:.6}\n{answer}"))?;
        block.clear();
    }
}

/// Calls `each` on every puzzle of the stream, with its comment lines; a puzzle that cannot
/// be read ends it.
fn serve_each<R: BufRead>(
    reader: &mut EntryReader<R>,
    mut each: impl FnMut(Grid, Option<&str>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for entry in reader {
        match entry {
            Ok(e) => each(e.grid, e.label.as_deref())?,
            // No puzzle before the end of input is how a session ends, not an error.
            Err(format::ReadError::Parse(e)) if e.kind == format::ParseErrorKind::Empty => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// One call of the method, timed by the monotonic clock around the call alone; with a test
/// slowdown of `slow` per cent, the busy wait after it inside the same clock. Gives the answer,
/// the time and the wait.
fn timed(
    method: &mut dyn TrialMethod,
    puzzle: &Puzzle,
    budget: &Budget,
    rng: &mut sudoku_core::Rng,
    slow: Option<f64>,
) -> anyhow::Result<(Answer, Duration, Duration)> {
    let job = Job {
        puzzle,
        carve: None,
        budget,
    };
    let t0 = Instant::now();
    let answer = method.attempt(&job, rng)?;
    let spun = slow.map_or(Duration::ZERO, |p| {
        let own = sudoku_runner::duet::own_time(&answer, t0.elapsed());
        sudoku_runner::duet::spin_for(p, own)
    });
    Ok((answer, t0.elapsed(), spun))
}

/// The answer text of every puzzle of `file`, keyed by the puzzle as the protocol writes it:
/// found with `prop` (counted to the limit when counting), with no time limit.
fn replayed(
    files: &[PathBuf],
    protocol: &Protocol,
    registry: &Registry,
    kind: Kind,
    settings: &KindSettings,
) -> anyhow::Result<HashMap<String, String>> {
    let (mut prop, _) = configured(kind, registry, "prop", &[], settings)?;
    let mut known = HashMap::new();
    let mut rng = rng_from_seed(0);
    let unlimited = Budget::unlimited();
    for e in files
        .iter()
        .map(|f| format::read_file(f))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
    {
        let key = protocol.show(&e.grid)?.trim_end().to_string();
        let puzzle = Puzzle::new(e.grid, protocol.variant);
        let (answer, _, _) = timed(prop.as_mut(), &puzzle, &unlimited, &mut rng, None)?;
        known.insert(key, protocol.answer(&answer, &[])?);
    }
    Ok(known)
}
