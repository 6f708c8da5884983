//! `solve`: solve, count or relax every puzzle of a file with one method, judged like a trial of `run`.

use std::collections::BTreeSet;
use std::io::Write;

use anyhow::{anyhow, Context};
use clap::Args;
use sudoku_core::format::to_text;
use sudoku_core::{derive_seed, rng_from_seed, Budget, CountEnd, Order, Puzzle, Status};

use crate::cli::{budget_from, configured, Failure, InputPath, VariantArg};
use crate::clock::{Clock, RealClock};
use crate::experiment::Kind;
use crate::io::{display_name, read_puzzles};
use crate::registry::Registry;
use crate::results::{ms, TrialStatus};
use crate::runner::judge::{judge, Answer, Trial};
use crate::runner::kind::{Job, KindSettings};
use sudoku_analysis::stats::median;

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
    #[arg(long, value_name = "LIMIT", num_args = 0..=1, default_missing_value = "1000")]
    pub count: Option<u64>,
    /// Solve the LP relaxation instead (ILP): prints `integral` or the number of fractional
    /// variables.
    #[arg(long, conflicts_with = "count")]
    pub relax: bool,
    /// Time limit per puzzle, in seconds (positive, at most 1e9).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Node limit per puzzle (at least 1). Methods that count no search nodes (grasp, sa)
    /// ignore it, with a warning.
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Iteration limit per puzzle (at least 1). Methods that count no iterations ignore it,
    /// with a warning.
    #[arg(long)]
    pub iteration_limit: Option<u64>,
    /// Seed; each puzzle's generator is derived from it and the puzzle's place.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
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
    if a.count == Some(0) {
        return Err(anyhow!("--count: 0 is not a limit (count up to at least 1 solution)").into());
    }
    let settings = KindSettings {
        count_limit: a.count.unwrap_or(1),
        carves: Vec::new(),
    };
    let (mut method, label) = configured(kind, registry, &a.method, &a.params, &settings)?;
    let b = budget_from(a.time_limit, a.node_limit, a.iteration_limit)?;
    warn_unchecked_limits(registry, &a.method, &b);
    let name = display_name(&a.file);
    let entries = read_puzzles(&a.file)?;
    let orders: BTreeSet<Order> = entries.iter().map(|e| e.grid.order()).collect();
    for order in orders {
        method
            .check_order(order)
            .map_err(|e| anyhow!("--param: {e} ({name} has {order} puzzles)"))?;
    }
    let mut out = std::io::stdout().lock();
    let clock = RealClock::new();
    let mut tally = [0usize; TrialStatus::ALL.len()];
    let (mut walls, mut cpus) = (Vec::with_capacity(entries.len()), Vec::new());
    for e in &entries {
        let puzzle = Puzzle::new(e.grid.clone(), a.variant.variant);
        let place = format!("{name}:{}", e.line);
        let mut rng = rng_from_seed(derive_seed(a.seed, &label, &place, 0));
        // Only the method call is timed; verification and printing are not.
        let (w0, c0) = (clock.wall(), clock.cpu());
        let answer = method
            .attempt(
                &Job {
                    puzzle: &puzzle,
                    carve: None,
                    budget: &b,
                },
                &mut rng,
            )
            .with_context(|| place.clone())?;
        walls.push(ms(clock.wall().saturating_sub(w0)));
        cpus.push(ms(clock.cpu().saturating_sub(c0)) + ms(answer.child_cpu()));
        let trial = judge(&answer, &puzzle);
        tally[trial.status as usize] += 1;
        if trial.status == TrialStatus::Wrong {
            eprintln!("WRONG: {place}: {label}: {}", trial.message);
        }
        writeln!(out, "{}", answer_line(&answer, &trial)).context("writing to standard output")?;
    }
    let counts: Vec<String> = TrialStatus::ALL
        .iter()
        .map(|s| format!("{} {s}", tally[*s as usize]))
        .collect();
    eprintln!(
        "{name}: {} puzzles with {label}: {}; method time: total {:.1} ms, median {:.4} ms wall, {:.4} ms CPU per puzzle",
        entries.len(),
        counts.join(", "),
        walls.iter().sum::<f64>(),
        median(&walls).unwrap_or(0.0),
        median(&cpus).unwrap_or(0.0)
    );
    if tally[TrialStatus::Wrong as usize] > 0 {
        return Err(Failure::Check);
    }
    Ok(())
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
        eprintln!("warning: `{method}` counts no {what}, so {flag} is ignored");
    }
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
        (_, TrialStatus::Infeasible) if !trial.message.is_empty() => {
            format!("infeasible ({})", trial.message)
        }
        _ => trial.describe(),
    }
}
