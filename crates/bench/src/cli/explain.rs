//! `explain` and `rate`: the rule solver of sudoku-logic on every puzzle of a file, step by
//! step or as a rating.

use std::time::Instant;

use clap::Args;
use serde_json::{json, Value};
use sudoku_core::{Geometry, Params, Puzzle};
use sudoku_logic::{
    cell_name, examine, End, Examined, Level, Logic, LogicConfig, Rating, RuleSet, Step, Trace,
    Unrateable,
};

use crate::cli::{budget_from, Failure, InputPath, VariantArg};
use crate::io::{display_name, label_of, read_puzzles, Out};
use sudoku_runner::clock::thread_cpu_time;

/// Which rules to use.
#[derive(Args, Clone, Debug)]
pub struct LogicArgs {
    /// Rule set: singles, pigeonhole, two-unit or all.
    #[arg(long, value_name = "SET", default_value = "all")]
    pub rules: RuleSet,
    /// Largest pigeonhole pattern searched by enumeration (naked or hidden form), in the range
    /// of the `logic` method's `subset_max` (see `sudoku-bench list`).
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = subset_max, allow_negative_numbers = true)]
    pub subset_max: usize,
    /// Do not look for larger pigeonhole patterns through a matching.
    #[arg(long)]
    pub no_hall: bool,
    #[command(flatten)]
    pub variant: VariantArg,
    /// One JSON object per puzzle, one per line.
    #[arg(long)]
    pub json: bool,
    /// Time limit per puzzle, in seconds (positive, at most 1e9): the rules on a large grid can
    /// take hours. A puzzle the limit stops is reported as a timeout, with no rating.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIME_LIMIT, allow_negative_numbers = true)]
    pub time_limit: f64,
}

/// The default `--time-limit` of `explain` and `rate`, in seconds: far beyond any 9×9 to
/// 25×25 puzzle (milliseconds), bounded for the grids beyond.
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;

impl LogicArgs {
    fn config(&self) -> LogicConfig {
        LogicConfig {
            rules: self.rules,
            subset_max: self.subset_max,
            hall: !self.no_hall,
        }
    }
}

/// `--subset-max`, checked by the `logic` method's own `subset_max` parameter, so the flag
/// takes exactly the values the method does (the search grows with the value).
fn subset_max(text: &str) -> Result<usize, String> {
    let mut p = Params::new();
    p.set("subset_max", text);
    Logic::from_params(&p).map_err(|e| e.to_string())?;
    text.parse().map_err(|e| format!("{e}"))
}

#[derive(Args)]
pub struct ExplainArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
    #[command(flatten)]
    pub logic: LogicArgs,
}

#[derive(Args)]
pub struct RateArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
    #[command(flatten)]
    pub logic: LogicArgs,
}

/// What a run of the rules on one puzzle says.
struct Run<'a> {
    /// The puzzle's place, control characters written out, for text.
    label: &'a str,
    /// The puzzle's place as it is, for JSON (which escapes it itself).
    raw: &'a str,
    puzzle: &'a Puzzle,
    trace: &'a Trace,
    /// Why it has no rating: no solution or several (`None`: one, or not known in time).
    why: Option<&'a Unrateable>,
    /// The time limit, when it stopped the rules.
    timeout: Option<f64>,
    /// The rules are stuck and the search for a second solution ran out of time: the rating
    /// is of the rules alone, on a grid that may have several solutions.
    undecided: bool,
}

/// How many puzzles a file had, and of them how many had no solution or several, and how many
/// ran out of time.
struct Tally {
    puzzles: usize,
    unrateable: usize,
    timeouts: usize,
}

/// Runs the rules on each puzzle of `file` within the time limit, handing each run to `each`
/// with why the puzzle has no rating when the rules, or a search where they are stuck, show
/// that it has no solution or several.
fn for_each_run(
    file: &InputPath,
    logic: &LogicArgs,
    mut each: impl FnMut(&Run) -> Result<(), Failure>,
) -> Result<Tally, Failure> {
    let name = display_name(file);
    let budget = budget_from(Some(logic.time_limit), None, None)?;
    let entries = read_puzzles(file)?;
    let config = logic.config();
    let mut tally = Tally {
        puzzles: entries.len(),
        unrateable: 0,
        timeouts: 0,
    };
    for e in &entries {
        let puzzle = Puzzle::new(e.grid.clone(), logic.variant.variant);
        let Examined {
            trace: run,
            why,
            undecided,
            timeout,
        } = examine(&puzzle, &config, &budget);
        let timeout = timeout.then_some(logic.time_limit);
        tally.unrateable += usize::from(why.is_some());
        tally.timeouts += usize::from(timeout.is_some());
        let raw = match &e.label {
            Some(l) => format!("{name}:{} [{l}]", e.line),
            None => format!("{name}:{}", e.line),
        };
        each(&Run {
            label: &label_of(&name, e),
            raw: &raw,
            puzzle: &puzzle,
            trace: &run,
            why: why.as_ref(),
            timeout,
            undecided,
        })?;
    }
    Ok(tally)
}

/// The end of a file of puzzles some of which have no solution or several: a failed check
/// (exit 1), each puzzle already named.
fn unsolvable_failure(unsolvable: usize) -> Result<(), Failure> {
    if unsolvable > 0 {
        return Err(Failure::Check);
    }
    Ok(())
}

fn end_name(end: &End) -> &'static str {
    match end {
        End::Solved(_) => "solved",
        End::Stuck { .. } => "stuck",
        End::Contradiction => "infeasible",
        End::Timeout => "timeout",
    }
}

fn rating_json(r: &Rating) -> Value {
    json!({
        "end": r.end,
        "hardest": r.hardest.map(|h| h.name()),
        "steps": r.steps,
        "score": r.score,
        "level": r.level.name(),
    })
}

fn step_json(geo: &Geometry, i: usize, s: &Step) -> Value {
    let cell = |c: usize| cell_name(geo, c);
    json!({
        "step": i + 1,
        "rule": s.rule.name(),
        "units": s.units.iter().map(|&u| geo.unit_kind(u).to_string()).collect::<Vec<_>>(),
        "cells": s.cells.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
        "digits": s.digits,
        "place": s.place.map(|(c, d)| json!({"cell": cell(c), "digit": d})),
        "eliminate": s.eliminate.iter().map(|&(c, d)| json!({"cell": cell(c), "digit": d})).collect::<Vec<_>>(),
        "text": s.describe(geo),
    })
}

/// `explain`: every step of each puzzle, then how the run ended.
pub fn explain(a: &ExplainArgs) -> Result<(), Failure> {
    let mut out = Out::new();
    let tally = for_each_run(&a.file, &a.logic, |r| {
        let (puzzle, run) = (r.puzzle, r.trace);
        let geo = puzzle.geometry();
        let rating = Rating::of(run);
        if a.logic.json {
            let several = matches!(r.why, Some(Unrateable::Several { .. }));
            let v = json!({
                "puzzle": r.raw,
                "order": puzzle.order().n(),
                "givens": puzzle.givens().filled(),
                "rules": a.logic.rules.name(),
                "steps": run.steps.iter().enumerate().map(|(i, s)| step_json(&geo, i, s)).collect::<Vec<_>>(),
                "end": end_name(&run.end),
                "open_at_end": run.open_at_end(),
                "no_solution": r.why.filter(|_| !several).map(|w| w.to_string()),
                "several_solutions": several,
                "rating": if r.why.is_some() || r.timeout.is_some() { Value::Null } else { rating_json(&rating) },
            });
            out.line(v)?;
            return Ok(());
        }
        out.line(format_args!(
            "{} ({}, {} givens, rules {})",
            r.label,
            puzzle.order(),
            puzzle.givens().filled(),
            a.logic.rules
        ))?;
        for (i, s) in run.steps.iter().enumerate() {
            out.line(format_args!("{:>5}. {}", i + 1, s.describe(&geo)))?;
        }
        let hardest = rating.hardest.map_or("none".into(), |h| h.name());
        let summary = match &run.end {
            End::Solved(g) => format!(
                "solved in {} steps; hardest {hardest}; score {:.1} ({})\n{}",
                run.steps.len(),
                rating.score,
                rating.level,
                sudoku_core::format::pretty(g)
            ),
            End::Stuck { grid, .. } => match r.why {
                Some(w) => format!(
                    "stuck after {} steps with {} cells open; {w}\n{}",
                    run.steps.len(),
                    run.open_at_end(),
                    sudoku_core::format::pretty(grid)
                ),
                None => format!(
                    "stuck after {} steps with {} cells open; score {:.1} ({}){}\n{}",
                    run.steps.len(),
                    run.open_at_end(),
                    rating.score,
                    rating.level,
                    if r.undecided {
                        "; whether it has one solution is not known (the search for a second one ran out of the time limit)"
                    } else {
                        ""
                    },
                    sudoku_core::format::pretty(grid)
                ),
            },
            End::Contradiction => match r.why {
                Some(w) => format!("infeasible: {w}"),
                None => format!(
                    "infeasible: the rules reach a contradiction after {} steps",
                    run.steps.len()
                ),
            },
            End::Timeout => format!(
                "timeout: the time limit of {} s ran out after {} steps (--time-limit)",
                a.logic.time_limit,
                run.steps.len()
            ),
        };
        out.line(summary)?;
        Ok(())
    })?;
    out.finish()?;
    unsolvable_failure(tally.unrateable)
}

/// `rate`: one line per puzzle (hardest rule, steps, score, level), a summary on stderr. A
/// puzzle with no solution or several, or whose rules ran out of time, gets no rating: stderr
/// says why.
pub fn rate(a: &RateArgs) -> Result<(), Failure> {
    let mut out = Out::new();
    let mut levels = [0usize; Level::ALL.len()];
    let (t0, c0) = (Instant::now(), thread_cpu_time());
    if !a.logic.json {
        out.line("puzzle\tend\thardest\tsteps\tscore\tlevel")?;
    }
    let tally = for_each_run(&a.file, &a.logic, |r| {
        if let Some(why) = r.why {
            // Said, not scored as beyond logic.
            say!("{}: no rating: {why}", r.label);
            return Ok(());
        }
        if let Some(limit) = r.timeout {
            say!(
                "{}: no rating: the time limit of {limit} s ran out after {} steps (--time-limit)",
                r.label,
                r.trace.steps.len()
            );
            return Ok(());
        }
        if r.undecided {
            say!(
                "{}: rated on the rules alone: whether it has one solution is not known (the search for a second one ran out of the time limit, --time-limit)",
                r.label
            );
        }
        let rating = Rating::of(r.trace);
        levels[rating.level as usize] += 1;
        let line = if a.logic.json {
            let mut v = rating_json(&rating);
            v["puzzle"] = json!(r.raw);
            v.to_string()
        } else {
            format!(
                "{}\t{}\t{}\t{}\t{:.1}\t{}",
                r.label,
                rating.end,
                rating.hardest.map_or("none".into(), |h| h.name()),
                rating.steps,
                rating.score,
                rating.level
            )
        };
        out.line(line)?;
        Ok(())
    })?;
    out.finish()?;
    let n = tally.puzzles;
    let secs = t0.elapsed().as_secs_f64();
    let cpu = thread_cpu_time().saturating_sub(c0).as_secs_f64();
    let counts: Vec<String> = Level::ALL
        .iter()
        .map(|l| format!("{} {l}", levels[*l as usize]))
        .collect();
    // Reading and parsing are included; CPU time is this thread's, so the rate holds on a
    // loaded machine too.
    let mut left_out = Vec::new();
    if tally.unrateable > 0 {
        left_out.push(format!("{} with no solution or several", tally.unrateable));
    }
    if tally.timeouts > 0 {
        left_out.push(format!("{} out of time", tally.timeouts));
    }
    let none = if left_out.is_empty() {
        String::new()
    } else {
        format!(" ({}, not rated)", left_out.join(", "))
    };
    say!(
        "{}: {} puzzles rated{none}: {}; {:.0} puzzles/s wall, {:.0} per CPU second",
        sudoku_core::format::visible(&display_name(&a.file)),
        n - tally.unrateable - tally.timeouts,
        counts.join(", "),
        n as f64 / secs.max(1e-9),
        n as f64 / cpu.max(1e-9)
    );
    unsolvable_failure(tally.unrateable)
}
