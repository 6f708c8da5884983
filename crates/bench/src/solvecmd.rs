//! `solve`, `generate` and `list`: single runs of registered methods, outside experiments.

use std::io::Write;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use clap::Args;
use sudoku_core::format::{to_line, to_text};
use sudoku_core::{
    derive_seed, rng_from_seed, Budget, CountEnd, Order, Outcome, Params, Puzzle, Status,
};

use crate::clock::{Clock, RealClock};
use crate::experiment::{CarveSpec, Kind, Shape};
use crate::io::{display_name, read_puzzles};
use crate::registry::Registry;
use crate::results::{ms, TrialStatus};
use crate::runner::judge::{judge, Answer, Trial};
use crate::runner::kind::{capability, KindSettings};
use crate::stats::median;
use crate::{Failure, InputPath, VariantArg};

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
    /// Count solutions instead, up to LIMIT (default 1000); prints the count, or `>=LIMIT`.
    #[arg(long, value_name = "LIMIT", num_args = 0..=1, default_missing_value = "1000")]
    pub count: Option<u64>,
    /// Solve the LP relaxation instead (ILP): prints `integral` or the number of fractional
    /// variables.
    #[arg(long, conflicts_with = "count")]
    pub relax: bool,
    /// Time limit per puzzle, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Node limit per puzzle.
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Iteration limit per puzzle.
    #[arg(long)]
    pub iteration_limit: Option<u64>,
    /// Seed; each puzzle's generator is derived from it and the puzzle's place.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

fn budget(time: Option<f64>, nodes: Option<u64>, iterations: Option<u64>) -> Result<Budget> {
    let time = match time {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err(anyhow!(
                "--time-limit: {t} is not a positive number of seconds"
            ))
        }
        t => t.map(Duration::from_secs_f64),
    };
    Ok(Budget {
        time,
        nodes,
        iterations,
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
        count_limit: a.count.unwrap_or(1).max(1),
        carve: None,
    };
    let cap =
        capability(kind, registry, &a.method, &settings).map_err(|e| anyhow!("--method: {e:#}"))?;
    let params = params_from(&a.params)?;
    let mut method = (cap.build)(&params).map_err(|e| anyhow!("--param: {e:#}"))?;
    let b = budget(a.time_limit, a.node_limit, a.iteration_limit)?;
    let name = display_name(&a.file);
    let entries = read_puzzles(&a.file)?;
    let label = if params.is_empty() {
        a.method.clone()
    } else {
        format!("{} {params}", a.method)
    };
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
            .attempt(&puzzle, &b, &mut rng)
            .with_context(|| place.clone())?;
        walls.push(ms(clock.wall().saturating_sub(w0)));
        cpus.push(ms(clock.cpu().saturating_sub(c0)));
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

#[derive(Args)]
pub struct GenerateArgs {
    /// Order n (the grid is n²×n²).
    #[arg(long)]
    pub order: usize,
    /// Full-grid generator (see `sudoku-bench list`).
    #[arg(long, short, default_value = "prop-fill")]
    pub method: String,
    /// A generator parameter, `key=value` (repeatable).
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// How many.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Make puzzles instead of full grids: unique, minimal, easy, medium, hard, or keep=P.
    #[arg(long)]
    pub puzzle: Option<Shape>,
    /// With --puzzle: the complete method that checks uniqueness while carving.
    #[arg(long, default_value = "prop")]
    pub checker: String,
    /// With --puzzle unique: stop at this many clues.
    #[arg(long)]
    pub clues: Option<usize>,
    #[command(flatten)]
    pub variant: VariantArg,
    /// Time limit per grid, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
}

/// Generates grids (or puzzles) and writes them in the line format (grid blocks beyond 35×35).
pub fn generate(a: &GenerateArgs, registry: &Registry) -> Result<(), Failure> {
    let order = Order::new(a.order).map_err(|e| anyhow!("--order: {e}"))?;
    let settings = KindSettings {
        carve: a.puzzle.map(|puzzle| CarveSpec {
            puzzle,
            clues: a.clues,
            checker: a.checker.clone(),
        }),
        ..KindSettings::default()
    };
    let cap = capability(Kind::Generate, registry, &a.method, &settings)
        .map_err(|e| anyhow!("--method: {e:#}"))?;
    let params = params_from(&a.params)?;
    let mut gen = (cap.build)(&params).map_err(|e| anyhow!("--param: {e:#}"))?;
    let b = budget(a.time_limit, None, None)?;
    let variant = a.variant.variant;
    let empty = Puzzle::empty(order, variant);
    let label = if params.is_empty() {
        a.method.clone()
    } else {
        format!("{} {params}", a.method)
    };
    let mut out = std::io::stdout().lock();
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
        let answer = gen.attempt(&empty, &b, &mut rng)?;
        walls.push(ms(clock.wall().saturating_sub(w0)));
        cpus.push(ms(clock.cpu().saturating_sub(c0)));
        restarts += answer.stats().restarts;
        let trial = judge(&answer, &empty);
        match trial.status {
            TrialStatus::Solved => {}
            TrialStatus::Wrong => {
                eprintln!("WRONG: grid {k} from {}: {}", a.method, trial.message);
                return Err(Failure::Check);
            }
            _ => return Err(anyhow!("grid {k}: {}: {}", a.method, trial.describe()).into()),
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
        let text = match carved {
            Some(Ok(p)) => format!(
                "# {} clues{}\n{}",
                p.filled(),
                to_line(grid)
                    .map(|l| format!(", solution {l}"))
                    .unwrap_or_default(),
                to_text(p)
            ),
            _ => to_text(grid),
        };
        out.write_all(text.as_bytes())
            .context("writing to standard output")?;
    }
    eprintln!(
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

/// Prints every registered method and generator with its parameters.
pub fn list(registry: &Registry) -> Result<(), Failure> {
    let mut out = String::new();
    out.push_str("Solving methods (solve --method NAME; experiment [[method]] name = \"NAME\"):\n");
    if registry.methods.is_empty() {
        out.push_str("  (none in this build)\n");
    }
    for m in &registry.methods {
        let mut caps = vec![if m.caps.complete {
            "exact"
        } else {
            "incomplete"
        }];
        if !m.caps.thread_safe {
            caps.push("not thread-safe");
        }
        if m.caps.randomized {
            caps.push("randomized");
        }
        out.push_str(&format!(
            "\n  {} — {} [{}]\n",
            m.name,
            m.summary,
            caps.join(", ")
        ));
        for p in m.params {
            out.push_str(&format!(
                "      {}={} ({}) {}\n",
                p.name, p.default, p.range, p.help
            ));
        }
    }
    out.push_str("\nGenerators (generate --method NAME; kind = \"generate\"):\n");
    if registry.generators.is_empty() {
        out.push_str("  (none in this build)\n");
    }
    for g in &registry.generators {
        out.push_str(&format!("\n  {} — {}\n", g.name, g.summary));
        for p in g.params {
            out.push_str(&format!(
                "      {}={} ({}) {}\n",
                p.name, p.default, p.range, p.help
            ));
        }
    }
    out.push_str("\nExperiment kinds: solve, count, relax (ILP's LP relaxation), generate.\n");
    out.push_str(&format!(
        "Methods with a relaxation (kind = \"relax\", solve --relax): {}. Generated instances: {}.\n",
        registry.relaxer_names(),
        if registry.puzzle_maker.is_some() {
            "available"
        } else {
            "not in this build"
        }
    ));
    std::io::stdout()
        .write_all(out.as_bytes())
        .context("writing to standard output")?;
    Ok(())
}

/// The params of a `--param` list.
pub fn params_from(pairs: &[String]) -> Result<Params> {
    let mut p = Params::new();
    for pair in pairs {
        p.push_pair(pair).map_err(|e| anyhow!("--param: {e}"))?;
    }
    Ok(p)
}
