//! `explain` and `rate`: the rule solver of sudoku-logic on every puzzle of a file, step by
//! step or as a rating.

use std::io::Write;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use serde_json::{json, Value};
use sudoku_core::{Budget, Deadline, Geometry, Params, Puzzle};
use sudoku_logic::{
    cell_name, trace, End, Level, Logic, LogicConfig, Rating, RuleSet, Step, Trace, Unrateable,
};

use crate::cli::{Failure, InputPath, VariantArg};
use crate::clock::thread_cpu_time;
use crate::io::{display_name, label_of, read_puzzles};

/// Which rules to use.
#[derive(Args, Clone, Debug)]
pub struct LogicArgs {
    /// Rule set: singles, pigeonhole, two-unit or all.
    #[arg(long, default_value = "all")]
    pub rules: RuleSet,
    /// Largest pigeonhole pattern searched by enumeration (naked or hidden form), in the range
    /// of the `logic` method's `subset_max` (see `sudoku-bench list`).
    #[arg(long, default_value_t = 4, value_parser = subset_max, allow_negative_numbers = true)]
    pub subset_max: usize,
    /// Do not look for larger pigeonhole patterns through a matching.
    #[arg(long)]
    pub no_hall: bool,
    #[command(flatten)]
    pub variant: VariantArg,
    /// One JSON object per puzzle, one per line.
    #[arg(long)]
    pub json: bool,
}

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

/// Runs the rules on each puzzle of `file`, handing each run to `each` with why the puzzle has
/// no solution when the rules show it has none. Returns how many puzzles it ran and how many
/// had no solution.
fn for_each_run(
    file: &InputPath,
    logic: &LogicArgs,
    mut each: impl FnMut(&str, &Puzzle, &Trace, Option<&Unrateable>) -> Result<(), Failure>,
) -> Result<(usize, usize), Failure> {
    let name = display_name(file);
    let entries = read_puzzles(file)?;
    let config = logic.config();
    let mut unsolvable = 0;
    for e in &entries {
        let puzzle = Puzzle::new(e.grid.clone(), logic.variant.variant);
        let mut deadline = Deadline::new(&Budget::unlimited(), 1024);
        let run = trace(&puzzle, &config, &mut deadline);
        let why = Unrateable::of_run(&puzzle, &run);
        unsolvable += usize::from(why.is_some());
        each(&label_of(&name, e), &puzzle, &run, why.as_ref())?;
    }
    Ok((entries.len(), unsolvable))
}

/// The end of a file of puzzles some of which have no solution: a failed check (exit 1), each
/// puzzle already named.
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
    let mut out = std::io::stdout().lock();
    let (_, unsolvable) = for_each_run(&a.file, &a.logic, |label, puzzle, run, why| {
        let geo = puzzle.geometry();
        let rating = Rating::of(run);
        if a.logic.json {
            let v = json!({
                "puzzle": label,
                "order": puzzle.order().n(),
                "givens": puzzle.givens().filled(),
                "rules": a.logic.rules.name(),
                "steps": run.steps.iter().enumerate().map(|(i, s)| step_json(&geo, i, s)).collect::<Vec<_>>(),
                "end": end_name(&run.end),
                "open_at_end": run.open_at_end(),
                "no_solution": why.map(|w| w.to_string()),
                "rating": if why.is_some() { Value::Null } else { rating_json(&rating) },
            });
            writeln!(out, "{v}").context("writing to standard output")?;
            return Ok(());
        }
        writeln!(
            out,
            "{label} ({}, {} givens, rules {})",
            puzzle.order(),
            puzzle.givens().filled(),
            a.logic.rules
        )
        .context("writing to standard output")?;
        for (i, s) in run.steps.iter().enumerate() {
            writeln!(out, "{:>5}. {}", i + 1, s.describe(&geo))
                .context("writing to standard output")?;
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
            End::Stuck { grid, .. } => format!(
                "stuck after {} steps with {} cells open; score {:.1} ({})\n{}",
                run.steps.len(),
                run.open_at_end(),
                rating.score,
                rating.level,
                sudoku_core::format::pretty(grid)
            ),
            End::Contradiction => match why {
                Some(w) => format!("infeasible: {w}"),
                None => format!(
                    "infeasible: the rules reach a contradiction after {} steps",
                    run.steps.len()
                ),
            },
            End::Timeout => "timeout".to_string(),
        };
        writeln!(out, "{summary}").context("writing to standard output")?;
        Ok(())
    })?;
    unsolvable_failure(unsolvable)
}

/// `rate`: one line per puzzle (hardest rule, steps, score, level), a summary on stderr.
pub fn rate(a: &RateArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let mut levels = [0usize; Level::ALL.len()];
    let (t0, c0) = (Instant::now(), thread_cpu_time());
    if !a.logic.json {
        writeln!(out, "puzzle\tend\thardest\tsteps\tscore\tlevel")
            .context("writing to standard output")?;
    }
    let (n, unsolvable) = for_each_run(&a.file, &a.logic, |label, _, run, why| {
        if let Some(why) = why {
            // A puzzle with no solution has no rating: said, not scored as beyond logic.
            eprintln!("{label}: no rating: {why}");
            return Ok(());
        }
        let r = Rating::of(run);
        levels[r.level as usize] += 1;
        let line = if a.logic.json {
            let mut v = rating_json(&r);
            v["puzzle"] = json!(label);
            v.to_string()
        } else {
            format!(
                "{label}\t{}\t{}\t{}\t{:.1}\t{}",
                r.end,
                r.hardest.map_or("none".into(), |h| h.name()),
                r.steps,
                r.score,
                r.level
            )
        };
        writeln!(out, "{line}").context("writing to standard output")?;
        Ok(())
    })?;
    let secs = t0.elapsed().as_secs_f64();
    let cpu = thread_cpu_time().saturating_sub(c0).as_secs_f64();
    let counts: Vec<String> = Level::ALL
        .iter()
        .map(|l| format!("{} {l}", levels[*l as usize]))
        .collect();
    // Reading and parsing are included; CPU time is this thread's, so the rate holds on a
    // loaded machine too.
    let none = if unsolvable > 0 {
        format!(" ({unsolvable} with no solution, not rated)")
    } else {
        String::new()
    };
    eprintln!(
        "{}: {} puzzles rated{none}: {}; {:.0} puzzles/s wall, {:.0} per CPU second",
        display_name(&a.file),
        n - unsolvable,
        counts.join(", "),
        n as f64 / secs.max(1e-9),
        n as f64 / cpu.max(1e-9)
    );
    unsolvable_failure(unsolvable)
}
