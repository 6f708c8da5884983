//! The command line: one file per command, each parsing its flags into typed values and running
//! a short pipeline (options → inputs → methods from the registry → outputs). Flags are parsed
//! here and nowhere else.

use anyhow::{anyhow, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_core::limits::time_limit;
use sudoku_core::{Budget, Params, Variant};

use sudoku_runner::experiment::Kind;
use sudoku_runner::kind::{capability, KindSettings, TrialMethod};
use sudoku_runner::Registry;

pub mod catalogue;
pub mod check;
pub mod compare;
pub mod convert;
pub mod docs;
pub mod excerpt;
pub mod explain;
pub mod fidelity;
pub mod findings;
pub mod generate;
pub mod list;
pub mod merge;
pub mod plot;
pub mod report;
pub mod repro;
pub mod run;
pub mod serve;
pub mod show;
pub mod solve;

#[derive(Parser)]
#[command(
    name = "sudoku-bench",
    version = sudoku_runner::provenance::VERSION,
    about = "Compare exact and metaheuristic Sudoku methods of any order: solve, generate, run experiments, plot.",
    long_about = "Compare exact and metaheuristic Sudoku methods of any order.\n\nWith no subcommand, runs (or resumes) the default experiment of the checkout in the current folder, scripts/experiments/default.toml, writing results/default/ there, and prints where its CSV, tables and charts are; outside a checkout it is an error (give a command).",
    after_help = exit_codes_help()
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check puzzles for contradictory givens, and solutions against their puzzles.
    ///
    /// The givens of each puzzle must be consistent (no digit twice in a unit, no cell without
    /// a candidate, no digit without a place in a unit), and each solution valid for its
    /// puzzle. One line per puzzle as the files are read (any size); exit 1 if any fails. `-`
    /// reads standard input, for one of the two files.
    Check(check::CheckArgs),
    /// Pretty-print puzzles with block separators.
    Show(show::ShowArgs),
    /// Convert puzzles between the line and grid-block formats, or to DIMACS CNF.
    ///
    /// `--to line` and `--to block` convert between the two text formats
    /// (docs/getting-started.md); `--to dimacs` writes each puzzle's CNF exactly as `sat` with
    /// the `--param` parameters builds it (one file per puzzle: X-1.cnf, X-2.cnf, ...), for
    /// running any SAT solver on the same formula.
    Convert(convert::ConvertArgs),
    /// Solve, count or relax every puzzle of a file with one method.
    ///
    /// One line per puzzle, in file order (also with `--jobs N` threads): the solution, the
    /// count, the relaxation's verdict, or the trial status as in trials.csv (`infeasible`,
    /// `timeout`, `failed (nodes limit)`, `wrong: …`). On stderr: the count of each status, the
    /// method's total and median wall time per puzzle and the process's CPU time; with
    /// `--cpu-time` each puzzle's CPU time too.
    Solve(solve::SolveArgs),
    /// Generate full grids or puzzles.
    ///
    /// Full grids, or puzzles carved from them (`--puzzle`, `--rating`; the shapes are those of
    /// experiment files, docs/experiment-files.md), every output verified. `--checker` names
    /// the complete method that checks uniqueness while carving (`sat` is the one that scales
    /// from 25×25 on, docs/datasets.md).
    Generate(generate::GenerateArgs),
    /// List methods, generators, their parameters, and the papers `repro` reproduces.
    ///
    /// Every method and generator with its parameters (defaults and ranges) and capabilities,
    /// and the papers; `--markdown` writes docs/methods.md.
    List(list::ListArgs),
    /// Print every step of the rule solver on each puzzle (`--json` for machines).
    ///
    /// Each step: its rule, unit, cells, and the digits placed or eliminated, then how the
    /// puzzle ended, on standard output: for a puzzle with no solution or with several, that
    /// line says why (`infeasible: contradictory givens: …`, `several solutions: …`; with
    /// `--json`, the fields `no_solution` and `several_solutions`), and the exit code is 1 (as
    /// for `rate`).
    Explain(explain::ExplainArgs),
    /// Rate each puzzle: hardest rule needed, steps, score and level.
    ///
    /// Per puzzle: how it ends, the hardest rule used, steps, score and level (`easy` …
    /// `beyond-logic`); on stderr the count per level. A puzzle with no solution, or with
    /// several, gets no rating: stderr says why (`contradictory givens: row 1 has digit 5 twice
    /// …`, `several solutions: the rules are stuck after 0 steps and a search from there finds
    /// two`), and the exit code is 1. Where the rules are stuck, a search (`prop`, counting to
    /// two) tells a proper puzzle from one with several solutions or none; when it runs out of
    /// time the rating is of the rules alone, and stderr says so. `--time-limit` bounds the
    /// rules and that search together; a puzzle it stops is reported as a timeout, with no
    /// rating (exit 0).
    Rate(explain::RateArgs),
    /// Run an experiment file: trials.csv, summaries, tables and charts.
    ///
    /// Runs an experiment (docs/experiment-files.md) into its results folder: trials,
    /// summaries, tables, statistics, charts and report.html (docs/report.md lists the files).
    /// `--fresh` first removes every output an earlier run left there; other files stay.
    /// `--jobs J` runs J trials at once (methods that are not thread-safe, such as `ilp`, still
    /// run one at a time); for timing comparisons keep one trial per core. Before anything
    /// runs it prints the tasks and the longest they may take.
    Run(run::RunArgs),
    /// Redraw summaries and charts of a results folder from its CSV.
    ///
    /// The summaries, statistics, findings, charts and report.html, made again from trials.csv
    /// alone (plus traces.csv and the time limits recorded in meta.json), so a folder copied
    /// from another machine or merged from a cluster is reported the same way.
    Plot(plot::PlotArgs),
    /// Write a results folder's self-contained report.html (tables, charts) from its CSV.
    ///
    /// The same as `plot`, then prints the path of DIR/report.html.
    Report(report::ReportArgs),
    /// Merge results folders (shards) and re-summarise.
    ///
    /// Joins the shard folders of one run (docs/clusters.md) and writes every output of the
    /// merged run. A trial found in two folders, or folders of two experiments, are errors; a
    /// shard of the set missing from the folders is a warning, and the merged meta.json names
    /// no shard.
    Merge(merge::MergeArgs),
    /// Compare two results folders of one experiment (B against the baseline A): ratios with
    /// intervals, a paired test, regressions beyond a threshold.
    ///
    /// Per configuration and instance group: the ratios of medians and of PAR-2 with bootstrap
    /// intervals (from 6 paired instances, or trials), a Wilcoxon test, and a flag: a
    /// regression when the median ratio's interval clears the larger of 1 + THRESHOLD and the
    /// two runs' own noise, or when B solves fewer. Markdown on stdout, or compare.md and
    /// compare.html in `--out` (docs/report.md, "Comparing two runs").
    Compare(compare::CompareArgs),
    /// A results folder's verdicts as one short Markdown table (per grid and share of givens the
    /// first and second methods and what decided), printed or written into a document's findings
    /// block.
    ///
    /// Per grid and share of givens: the first and second configurations, their solved counts
    /// and scores, the speed-up with its 95 % interval, what decided (solves more, faster, a
    /// tie, untested) and the test. README.md's tables are `findings results/which-method
    /// --into README.md` and `findings results/proper-puzzles --peers --into README.md --block
    /// proper`.
    Findings(findings::FindingsArgs),
    /// Each re-implemented method beside its original (same puzzles, limits and runs): success
    /// counts with Fisher's exact test, medians and their ratio, a verdict; printed or written
    /// into a document's block.
    ///
    /// The table of docs/reproducing.md ("Faithful re-implementations") is made so.
    Fidelity(fidelity::FidelityArgs),
    /// Reproduce a paper (unicamp-ilp, jump, takano, raggi, teles, lewis, all): its experiments,
    /// then the paper's values beside ours (comparison.md).
    ///
    /// The comparison is written to results/repro-NAME/comparison.md (docs/reproducing.md).
    Repro(repro::ReproArgs),
    /// Answer puzzles on standard input with a built-in method (or from known answers), as an
    /// `external` program does: measures what the harness costs (docs/adding-a-method.md).
    ///
    /// The batch protocol of `external`, with `# stats solve_ms=` before each answer: `-m` puts
    /// one of our methods behind the pipe, `--replay` answers from memory, so a trial measures
    /// the harness alone. `"$SUDOKU_BENCH"` in an experiment's command names this binary.
    Serve(serve::ServeArgs),
    /// Print the reference pages made from the code (docs/cli.md, the generated blocks of
    /// docs/report.md) and the tables the documentation quotes from committed runs; rewrite or
    /// check every generated block.
    Docs(docs::DocsArgs),
}

impl Cli {
    /// The command line, parsed. `--help` and `--version` print here (`None`: nothing left to
    /// run), and a failure to write them is an error like any command's; a usage error exits
    /// 2 with clap's message.
    pub fn read() -> Result<Option<Cli>, Failure> {
        use clap::error::ErrorKind;
        match Cli::try_parse() {
            Ok(cli) => Ok(Some(cli)),
            Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
                if crate::io::stdout_closed() {
                    return Err(crate::io::closed_error().into());
                }
                e.print().context("writing to standard output")?;
                std::io::Write::flush(&mut std::io::stdout())
                    .context("writing to standard output")?;
                Ok(None)
            }
            Err(e) => e.exit(),
        }
    }

    /// Whether the command writes to standard output: all do, but those that write a file
    /// instead of printing (`convert -o`, `findings --into`, `fidelity --into`, `docs report
    /// --into`).
    fn prints(&self) -> bool {
        match &self.command {
            Some(Command::Convert(a)) => a.output.is_none(),
            Some(Command::Findings(a)) => a.into.is_none(),
            Some(Command::Fidelity(a)) => a.into.is_none(),
            Some(Command::Docs(a)) => !matches!(a.page, docs::Page::Report { into: Some(_) }),
            _ => true,
        }
    }

    /// Runs the command (with none: the default experiment, resumed). One that prints stops
    /// before anything runs when standard output is closed: its answers would be lost.
    pub fn dispatch(self, registry: &Registry) -> Result<(), Failure> {
        if self.prints() && crate::io::stdout_closed() {
            return Err(crate::io::closed_error().into());
        }
        match self.command {
            Some(Command::Check(a)) => check::check(&a),
            Some(Command::Show(a)) => show::show(&a),
            Some(Command::Convert(a)) => convert::convert(&a),
            Some(Command::Solve(a)) => solve::solve(&a, registry),
            Some(Command::Generate(a)) => generate::generate(&a, registry),
            Some(Command::List(a)) => list::list(&a, registry),
            Some(Command::Explain(a)) => explain::explain(&a),
            Some(Command::Rate(a)) => explain::rate(&a),
            Some(Command::Run(a)) => run::run(&a, registry),
            Some(Command::Plot(a)) => plot::plot(&a),
            Some(Command::Report(a)) => report::report(&a),
            Some(Command::Merge(a)) => merge::merge(&a),
            Some(Command::Compare(a)) => compare::compare(&a),
            Some(Command::Findings(a)) => findings::findings(&a),
            Some(Command::Fidelity(a)) => fidelity::fidelity(&a),
            Some(Command::Repro(a)) => repro::repro(&a, registry),
            Some(Command::Serve(a)) => serve::serve(&a, registry),
            Some(Command::Docs(a)) => docs::docs(&a),
            None => run::default_experiment()
                .map_err(Failure::from)
                .and_then(|experiment| {
                    // The main job resumes what an earlier run of it left, so running it twice
                    // just re-summarises.
                    let a = run::RunArgs {
                        experiment,
                        resume: true,
                        jobs: 1,
                        ..Default::default()
                    };
                    run::run(&a, registry)
                }),
        }
    }
}

/// Options shared by commands that read puzzles.
#[derive(Args, Clone, Debug)]
pub struct VariantArg {
    /// Which units the puzzles have: classic, or diagonal (Sudoku-X).
    #[arg(long, default_value = "classic")]
    pub variant: Variant,
}

/// The exit codes: one rule for every command, shown by `--help` and in docs/cli.md (both
/// from [`Exit::meaning`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything ran and every answer was verified.
    Done = 0,
    /// A wrong answer, or a failed check.
    Failed = 1,
    /// Bad input or usage (also clap's own errors).
    Input = 2,
    /// Some trials ended in `error`.
    Errors = 3,
}

impl Exit {
    /// Every code, in order.
    pub const ALL: [Exit; 4] = [Exit::Done, Exit::Failed, Exit::Input, Exit::Errors];

    /// What the code means: in one line of `--help`, and in full for docs/cli.md.
    pub fn meaning(self) -> (&'static str, &'static str) {
        match self {
            Exit::Done => (
                "everything ran and every answer was verified (a timeout or a limit is an outcome)",
                "everything ran and every answer was verified; a timeout or a limit that ran out \
                 is an outcome a benchmark measures, not a failure",
            ),
            Exit::Failed => (
                "a wrong answer, or a failed check (a puzzle with no solution, an invalid solution)",
                "a method returned a wrong answer (the row says `wrong`, with a warning), or a \
                 check failed: a puzzle with no solution (`check`, `rate`, `explain`) or with \
                 several (`rate`, `explain`), a solution that does not solve its puzzle",
            ),
            Exit::Input => (
                "bad input or usage: the message names the file, line and column, or the flag or key",
                "bad input or usage: the message names the file, line and column, or the flag or \
                 key to fix; nothing (more) is run. Also: standard output cannot be written \
                 (`> /dev/full`, a full disk, a closed pipe, closed with `>&-`), said as `error: \
                 writing to standard output: …`; a results folder another process is writing",
            ),
            Exit::Errors => (
                "some trials ended in `error` (the method could not run), or `generate` made no grid",
                "some trials ended in `error`: the method could not run or answer (`solve`, \
                 `run`, `repro`; the `message` column says why), or `generate` could not make a \
                 grid it was asked for",
            ),
        }
    }
}

/// How one code is chosen when several apply.
pub const EXIT_RULE: &str = "When several apply, the first of 2, 1, 3 is the code.";

/// The exit-code rule, as `--help` prints it.
pub fn exit_codes_help() -> String {
    let mut text = String::from("Exit codes (every command):\n");
    for code in Exit::ALL {
        text.push_str(&format!("  {}  {}\n", code as u8, code.meaning().0));
    }
    text + EXIT_RULE
}

/// A failure that decides the exit code ([`Exit`]).
#[derive(Debug)]
pub enum Failure {
    /// Bad input or usage: exit 2.
    Input(anyhow::Error),
    /// A check failed or an answer was wrong: exit 1 (details already printed).
    Check,
    /// Malformed input whose errors were already printed: exit 2.
    Malformed,
    /// Some trials ended in `error`: exit 3 (details already printed).
    Errors,
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::Input(e.into())
    }
}

impl Failure {
    /// Its exit code.
    pub fn exit(&self) -> Exit {
        match self {
            Failure::Input(_) | Failure::Malformed => Exit::Input,
            Failure::Check => Exit::Failed,
            Failure::Errors => Exit::Errors,
        }
    }

    /// The failure of a run with `wrong` wrong answers and `errors` trials in `error`, if any.
    pub fn of_trials(wrong: usize, errors: usize) -> Result<(), Failure> {
        match (wrong, errors) {
            (0, 0) => Ok(()),
            (0, _) => Err(Failure::Errors),
            _ => Err(Failure::Check),
        }
    }

    /// Of two outcomes, the one whose code comes first in the rule (2, 1, 3, then 0).
    pub fn worst(a: Result<(), Failure>, b: Result<(), Failure>) -> Result<(), Failure> {
        let rank = |r: &Result<(), Failure>| match r.as_ref().map_err(Failure::exit) {
            Ok(()) => 0,
            Err(Exit::Errors) => 1,
            Err(Exit::Failed) => 2,
            Err(_) => 3,
        };
        if rank(&b) > rank(&a) {
            b
        } else {
            a
        }
    }

    /// The exit code of a command's result; an input error is printed once, as `error: …`.
    pub fn exit_code(result: Result<(), Failure>) -> ExitCode {
        match result {
            Ok(()) => ExitCode::from(Exit::Done as u8),
            Err(f) => {
                if let Failure::Input(e) = &f {
                    let text = chain_text(e);
                    let text = if quotes_toml(e) {
                        message_text(&text)
                    } else {
                        sudoku_core::format::visible(&text)
                    };
                    crate::io::say(format_args!("error: {text}"));
                }
                ExitCode::from(f.exit() as u8)
            }
        }
    }
}

/// A value parser for a whole-number flag of at least `lo` (and at most `hi`, or the type's
/// largest value) that names what is wrong with a value: negative, too large, too small, or
/// not a whole number (clap would otherwise take `-1` for a flag and suggest `-- -1`, or call
/// a number too large "not a number"). Use it with `allow_negative_numbers = true`.
pub fn whole<T>(lo: T, hi: Option<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync,
{
    move |text: &str| {
        let range = match hi {
            Some(hi) => format!("give a whole number from {lo} to {hi}"),
            None => format!("give a whole number of at least {lo}"),
        };
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<T>() {
            Ok(v) if v < lo => Err(format!("{text} is less than {lo}: {range}")),
            Ok(v) if hi.is_some_and(|hi| v > hi) => Err(format!("{text} is too large: {range}")),
            Ok(v) => Ok(v),
            Err(_) if text.strip_prefix('-').is_some_and(digits) => {
                Err(format!("{text} is negative: {range}"))
            }
            Err(_) if digits(text.strip_prefix('+').unwrap_or(text)) => {
                Err(format!("{text} is too large: {range}"))
            }
            Err(_) => Err(format!("`{text}` is not a whole number: {range}")),
        }
    }
}

/// Whether an error quotes an experiment file's lines (toml's message: the line, a caret
/// under the place, then what is wrong), whose line breaks are its own.
fn quotes_toml(e: &anyhow::Error) -> bool {
    use sudoku_runner::experiment::ExperimentError;
    e.chain().any(|c| {
        c.downcast_ref::<ExperimentError>().is_some()
            || matches!(
                c.downcast_ref::<sudoku_runner::RunError>(),
                Some(sudoku_runner::RunError::Experiment(_))
            )
    })
}

/// A message of several lines as it is printed: in each line control characters written out
/// (`\u{1b}`, `\0`), so a name quoted in it cannot colour or move the terminal. Messages of
/// one line are written out whole ([`sudoku_core::format::visible`]: a line break in a folder's
/// name shows as `\n`).
pub fn message_text(text: &str) -> String {
    text.split('\n')
        .map(sudoku_core::format::visible)
        .collect::<Vec<_>>()
        .join("\n")
}

/// An error and its causes joined by `: `, each said once: many errors already put their
/// source in their own message (`path: why`), and `{:#}` would then print `why` twice.
pub fn chain_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if text.is_empty() {
            text = c;
        } else if !text.ends_with(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

/// A path argument; `-` is standard input.
pub type InputPath = PathBuf;

/// The limits of `--time-limit`, `--node-limit` and `--iteration-limit`. Seconds go through
/// [`sudoku_core::limits::time_limit`] (finite, positive, at most 10⁹ s); node and iteration
/// limits are at least 1 when parsed ([`whole`]): 0 would stop every method before it starts.
pub fn budget_from(
    time: Option<f64>,
    nodes: Option<u64>,
    iterations: Option<u64>,
) -> Result<Budget> {
    let time = time
        .map(|t| time_limit(t).map_err(|e| anyhow!("--time-limit: {e}")))
        .transpose()?;
    Ok(Budget {
        time,
        nodes,
        iterations,
    })
}

/// The params of a `--param` list; a key given twice is an error (the last would otherwise
/// win without a word).
pub fn params_from(pairs: &[String]) -> Result<Params> {
    let mut p = Params::new();
    for pair in pairs {
        let key = pair.split_once('=').map_or("", |(k, _)| k.trim());
        if let Some(first) = p.raw(key).map(str::to_string) {
            p.push_pair(pair).map_err(|e| anyhow!("--param: {e}"))?;
            return Err(anyhow!(
                "--param: parameter `{key}` is given twice (`{first}`, then `{}`): give each parameter once",
                p.raw(key).unwrap_or("")
            ));
        }
        p.push_pair(pair).map_err(|e| anyhow!("--param: {e}"))?;
    }
    Ok(p)
}

/// The method `name` configured by `--param` pairs for `kind`, and its label (`name k=v …`,
/// which seeds derive from).
pub fn configured(
    kind: Kind,
    registry: &Registry,
    name: &str,
    pairs: &[String],
    settings: &KindSettings,
) -> Result<(Box<dyn TrialMethod>, String)> {
    let cap = capability(kind, registry, name, settings).map_err(|e| anyhow!("--method: {e:#}"))?;
    let params = params_from(pairs)?;
    let method = (cap.build)(&params).map_err(|e| anyhow!("--param: {e:#}"))?;
    let label = if params.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", params.shown())
    };
    Ok((method, label))
}

#[cfg(test)]
mod chain_tests {
    use super::chain_text;

    /// An error that quotes its source in its own message, as many library errors do.
    #[derive(Debug)]
    struct Quoting {
        source: std::io::Error,
    }

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "f.txt: {}", self.source)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = anyhow::Error::new(Quoting { source: io() });
        assert_eq!(format!("{e:#}"), "f.txt: gone: gone");
        assert_eq!(chain_text(&e), "f.txt: gone");
        let e = anyhow::Error::new(io()).context("reading f.txt");
        assert_eq!(chain_text(&e), "reading f.txt: gone");
    }
}

#[cfg(test)]
mod exit_tests {
    use super::{whole, Exit, Failure};

    #[test]
    fn the_first_of_2_1_3_is_the_code() {
        let code = |r: Result<(), Failure>| r.err().map_or(Exit::Done, |f| f.exit());
        assert_eq!(code(Failure::of_trials(0, 0)), Exit::Done);
        assert_eq!(code(Failure::of_trials(0, 4)), Exit::Errors);
        assert_eq!(code(Failure::of_trials(1, 4)), Exit::Failed);
        let worst = |a, b| code(Failure::worst(a, b));
        assert_eq!(
            worst(Err(Failure::Errors), Err(Failure::Check)),
            Exit::Failed
        );
        assert_eq!(
            worst(Err(Failure::Check), Err(Failure::Errors)),
            Exit::Failed
        );
        assert_eq!(worst(Ok(()), Err(Failure::Errors)), Exit::Errors);
        assert_eq!(
            worst(Err(Failure::Malformed), Err(Failure::Check)),
            Exit::Input
        );
        assert_eq!(
            [Exit::Done, Exit::Failed, Exit::Input, Exit::Errors].map(|e| e as u8),
            [0, 1, 2, 3]
        );
    }

    #[test]
    fn whole_numbers_say_what_is_wrong() {
        let p = whole(1u32, Some(10));
        assert_eq!(p("7"), Ok(7));
        assert_eq!(
            p("0").unwrap_err(),
            "0 is less than 1: give a whole number from 1 to 10"
        );
        assert_eq!(
            p("11").unwrap_err(),
            "11 is too large: give a whole number from 1 to 10"
        );
        assert_eq!(
            p("-1").unwrap_err(),
            "-1 is negative: give a whole number from 1 to 10"
        );
        let q = whole(0u64, None);
        assert_eq!(
            q("18446744073709551616").unwrap_err(),
            "18446744073709551616 is too large: give a whole number of at least 0"
        );
        assert_eq!(
            q("1.5").unwrap_err(),
            "`1.5` is not a whole number: give a whole number of at least 0"
        );
    }
}
