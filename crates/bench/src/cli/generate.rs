//! `generate`: full grids or carved puzzles, each judged like a `kind = "generate"` trial.

use anyhow::anyhow;
use clap::Args;
use sudoku_core::format::{to_line, to_text};
use sudoku_core::{derive_seed, rng_from_seed, Limit, Order, Outcome, Puzzle, Status};
use sudoku_gen::{CarveEnd, Carved};

use crate::cli::{budget_from, configured, whole, Failure, VariantArg};
use crate::io::Out;
use sudoku_analysis::stats::median;
use sudoku_runner::clock::{Clock, RealClock};
use sudoku_runner::experiment::{CarveSpec, Kind, Shape};
use sudoku_runner::judge::judge;
use sudoku_runner::judge::Answer;
use sudoku_runner::kind::{Job, KindSettings};
use sudoku_runner::results::{ms, TrialStatus};
use sudoku_runner::Registry;

#[derive(Args)]
pub struct GenerateArgs {
    /// Order n (the grid is n²×n²).
    #[arg(long, value_name = "N", value_parser = whole(Order::MIN, Some(Order::MAX)), allow_negative_numbers = true)]
    pub order: usize,
    /// Full-grid generator (see `sudoku-bench list`).
    #[arg(long, short, default_value = "prop-fill")]
    pub method: String,
    /// A generator parameter, `key=value` (repeatable).
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// How many grids or puzzles to make (at least 1).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = whole(1, None::<usize>), allow_negative_numbers = true)]
    pub count: usize,
    /// Seed of the random generator, from which the grids and the carving derive.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = whole(0, None::<u64>), allow_negative_numbers = true)]
    pub seed: u64,
    /// Make puzzles instead of full grids: unique, minimal; a rating level easy, medium, hard,
    /// expert, beyond-logic (see `rate`); clues-easy, clues-medium, clues-hard (Takano et al.'s
    /// clue counts); or keep=P.
    #[arg(long, value_name = "SHAPE")]
    pub puzzle: Option<Shape>,
    /// Make puzzles rated in MIN..MAX (scores of `rate`, 0 to 10).
    #[arg(long, value_name = "MIN..MAX", conflicts_with = "puzzle", value_parser = rating_shape)]
    pub rating: Option<Shape>,
    /// With --puzzle or --rating: the complete method that checks uniqueness while carving
    /// (default prop).
    #[arg(long, value_name = "METHOD")]
    pub checker: Option<String>,
    /// With --puzzle unique: stop at this many clues (at most the grid's cells). When no
    /// clue can be removed before that while keeping the solution unique, the puzzle keeps
    /// more clues and a warning on stderr says so.
    #[arg(long, value_name = "C", value_parser = whole(0, None::<usize>), allow_negative_numbers = true)]
    pub clues: Option<usize>,
    #[command(flatten)]
    pub variant: VariantArg,
    /// Time limit per grid, in seconds (positive, at most 1e9).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// With --puzzle: nodes (for `sat`: conflicts) each uniqueness check may spend; a check
    /// that does not conclude within them keeps its clue and carving goes on (the puzzle stays
    /// unique, and may not be minimal). Unlike a time limit, the same on every machine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub check_nodes: Option<u64>,
}

fn rating_shape(text: &str) -> Result<Shape, String> {
    sudoku_runner::experiment::parse_rating(text).map(|(min, max)| Shape::Rated(min, max))
}

/// Generates grids (or puzzles) and writes them in the line format (grid blocks beyond 35×35).
pub fn generate(a: &GenerateArgs, registry: &Registry) -> Result<(), Failure> {
    let order = Order::new(a.order).map_err(|e| anyhow!("--order: {e}"))?;
    if a.checker.is_some() && a.puzzle.is_none() && a.rating.is_none() {
        return Err(anyhow!(
            "--checker applies to --puzzle or --rating only (it checks uniqueness while carving puzzles)"
        )
        .into());
    }
    if a.check_nodes.is_some() && a.puzzle.is_none() && a.rating.is_none() {
        return Err(anyhow!(
            "--check-nodes applies to --puzzle or --rating only (it bounds each uniqueness check while carving)"
        )
        .into());
    }
    if let Some(c) = a.clues {
        if !matches!(a.puzzle, Some(Shape::Unique)) {
            return Err(anyhow!("--clues applies to --puzzle unique only").into());
        }
        if c == 0 {
            return Err(anyhow!(
                "--clues 0: no puzzle without clues has one solution, so carving could never stop there; leave --clues out to carve as far as uniqueness allows, or give at least 1"
            )
            .into());
        }
        if c > order.cells() {
            return Err(anyhow!(
                "--clues {c}: a {order} grid has only {} cells",
                order.cells()
            )
            .into());
        }
    }
    let carve = a.puzzle.or(a.rating).map(|puzzle| CarveSpec {
        puzzle,
        clues: a.clues,
        checker: a.checker.clone().unwrap_or_else(|| "prop".to_string()),
        check_nodes: a.check_nodes,
    });
    let settings = KindSettings {
        carves: carve.iter().cloned().collect(),
        ..KindSettings::default()
    };
    let (mut gen, label) = configured(Kind::Generate, registry, &a.method, &a.params, &settings)?;
    let b = budget_from(a.time_limit, None, None)?;
    let variant = a.variant.variant;
    let empty = Puzzle::empty(order, variant);
    let mut out = Out::new();
    let clock = RealClock::new();
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    let mut restarts = 0;
    for k in 0..a.count {
        let mut rng = rng_from_seed(derive_seed(
            a.seed,
            &label,
            &format!("generate {order} {variant}"),
            k as u64,
        ));
        let (w0, c0) = (clock.wall(), clock.cpu());
        let answer = gen.attempt(
            &Job {
                puzzle: &empty,
                carve: carve.as_ref(),
                budget: &b,
            },
            &mut rng,
        )?;
        walls.push(ms(clock.wall().saturating_sub(w0)));
        cpus.push(ms(clock.cpu().saturating_sub(c0)));
        restarts += answer.stats().restarts;
        let trial = judge(&answer, &empty);
        match trial.status {
            TrialStatus::Solved => {}
            TrialStatus::Wrong => {
                say!("WRONG: grid {k} from {}: {}", a.method, trial.message);
                return Err(Failure::Check);
            }
            _ => {
                // A generator that cannot make this variant at all says so: a parameter that
                // does not apply, not an outcome.
                let stats = answer.stats();
                if let Some((_, why)) = stats.extra.iter().find(|(k, _)| k == "unsupported") {
                    return Err(
                        anyhow!("--param: `{}` with --variant {variant}: {why}", a.method).into(),
                    );
                }
                say!(
                    "generate: grid {k}: {}: {}; {k} of {} made",
                    a.method,
                    trial.describe(),
                    a.count
                );
                return Err(Failure::Errors);
            }
        }
        let Answer::Generate {
            outcome:
                Outcome {
                    status: Status::Solved(grid),
                    ..
                },
            carved,
        } = &answer
        else {
            return Err(anyhow!("grid {k}: {} gave no grid", a.method).into());
        };
        if let Some(Ok(c)) = carved {
            if let Some(why) = short_of(c, a.clues) {
                say!("warning: grid {k}: {} clues{why}", c.clues);
            }
        }
        let text = match carved {
            Some(Ok(Carved { givens: p, .. })) => format!(
                "# {} clues{}\n{}",
                p.filled(),
                to_line(grid)
                    .map(|l| format!(", solution {l}"))
                    .unwrap_or_default(),
                to_text(p)
            ),
            _ => to_text(grid),
        };
        out.text(&text)?;
    }
    out.finish()?;
    say!(
        "{} {} {}: {} generated, {restarts} restarts, median {:.3} ms wall, {:.3} ms CPU each",
        label,
        order,
        variant,
        a.count,
        median(&walls).unwrap_or(0.0),
        median(&cpus).unwrap_or(0.0)
    );
    Ok(())
}

/// Why a carve stopped short of what was asked (the clue target, or a minimal puzzle), if it
/// did: no further clue could go, or the time limit ran out first (the puzzle is still unique).
fn short_of(carved: &Carved, asked: Option<usize>) -> Option<String> {
    match (carved.end, asked) {
        (CarveEnd::Budget(limit), _) => Some(format!(
            ": the {} ran out after {} uniqueness checks; the puzzle is unique but {}",
            match limit {
                Limit::Time => "time limit",
                _ => "budget",
            },
            carved.checks,
            match asked {
                Some(n) => format!("has more than the {n} clues asked"),
                None => "may not be minimal".to_string(),
            }
        )),
        (CarveEnd::Undecided(k), _) => Some(format!(
            ": {k} uniqueness checks ran out of --check-nodes and kept their clue; the puzzle is unique but may not be minimal"
        )),
        (CarveEnd::Minimal, Some(n)) if carved.clues > n => Some(format!(
            ", not {n}: no further clue could be removed with the solution staying unique"
        )),
        _ => None,
    }
}
