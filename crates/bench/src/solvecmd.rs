//! `solve`, `generate` and `list`: single runs of registered methods, outside experiments.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use clap::Args;
use sudoku_core::format::{to_line, to_text};
use sudoku_core::{
    check_givens, derive_seed, rng_from_seed, verify_solution, Budget, CountEnd, Order, Puzzle,
    Status,
};

use crate::io::{display_name, read_puzzles};
use crate::registry::Registry;
use crate::runner::params_from;
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
    let info = registry
        .method(&a.method)
        .map_err(|e| anyhow!("--method: {e}"))?;
    let params = params_from(&a.params)?;
    let mut solver = (info.build)(&params).map_err(|e| anyhow!("--param: {e}"))?;
    let relax = if a.relax {
        Some(registry.relax_fn()?)
    } else {
        None
    };
    let b = budget(a.time_limit, a.node_limit, a.iteration_limit)?;
    let name = display_name(&a.file);
    let entries = read_puzzles(&a.file)?;
    let label = if params.is_empty() {
        a.method.clone()
    } else {
        format!("{} {params}", a.method)
    };
    let mut out = std::io::stdout().lock();
    let (mut solved, mut infeasible, mut limited, mut wrong, mut multiple) = (0, 0, 0, 0, 0);
    let mut times = Vec::with_capacity(entries.len());
    for e in &entries {
        let puzzle = Puzzle::new(e.grid.clone(), a.variant.variant);
        let place = format!("{name}:{}", e.line);
        let mut rng = rng_from_seed(derive_seed(a.seed, &label, &place, 0));
        // Only the method call is timed; verification and printing are not.
        let took;
        let line = if let Some(relax) = relax {
            let start = Instant::now();
            let r = relax(&puzzle, &params, &b).with_context(|| place.clone())?;
            took = start.elapsed();
            if !r.feasible {
                infeasible += 1;
                "infeasible".to_string()
            } else {
                solved += 1;
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
        } else if let Some(limit) = a.count {
            let start = Instant::now();
            let c = solver
                .count(&puzzle, limit.max(1), true, &b, &mut rng)
                .map_err(|e| anyhow!("{e}"))?;
            took = start.elapsed();
            for g in &c.solutions {
                if let Err(v) = verify_solution(&puzzle, g) {
                    wrong += 1;
                    eprintln!("WRONG: {place}: a counted solution fails the verifier: {v}");
                }
            }
            match c.end {
                CountEnd::Complete => {
                    match c.count {
                        0 => infeasible += 1,
                        1 => solved += 1,
                        _ => multiple += 1,
                    }
                    c.count.to_string()
                }
                CountEnd::LimitReached => {
                    multiple += (c.count >= 2) as usize;
                    solved += (c.count < 2) as usize;
                    format!(">={}", c.count)
                }
                CountEnd::Exhausted(l) => {
                    limited += 1;
                    format!(
                        "{} (>={} found)",
                        if l == sudoku_core::Limit::Time {
                            "timeout"
                        } else {
                            "budget"
                        },
                        c.count
                    )
                }
            }
        } else {
            let start = Instant::now();
            let outcome = solver.solve(&puzzle, &b, &mut rng);
            took = start.elapsed();
            match outcome.status {
                Status::Solved(g) => match verify_solution(&puzzle, &g) {
                    Ok(()) => {
                        solved += 1;
                        to_text(&g).trim_end().to_string()
                    }
                    Err(v) => {
                        wrong += 1;
                        eprintln!("WRONG: {place}: {} returned an invalid grid: {v}", a.method);
                        format!("wrong: {v}")
                    }
                },
                Status::Infeasible => {
                    infeasible += 1;
                    match check_givens(&puzzle) {
                        Err(v) => format!("infeasible (contradictory givens: {v})"),
                        Ok(()) => "infeasible".to_string(),
                    }
                }
                Status::Exhausted { limit, .. } => {
                    limited += 1;
                    if limit == sudoku_core::Limit::Time {
                        "timeout".into()
                    } else {
                        format!("budget ({} limit)", limit.name())
                    }
                }
            }
        };
        times.push(took.as_secs_f64() * 1000.0);
        writeln!(out, "{line}").context("writing to standard output")?;
    }
    let total: f64 = times.iter().sum();
    eprintln!(
        "{name}: {} puzzles with {label}: {solved} solved, {infeasible} infeasible, {multiple} multiple, {limited} hit a limit, {wrong} wrong; method time: total {:.1} ms, median {:.4} ms per puzzle",
        entries.len(),
        total,
        median(&times).unwrap_or(0.0)
    );
    if wrong > 0 {
        return Err(Failure::Check);
    }
    Ok(())
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
    pub puzzle: Option<String>,
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
    let info = registry
        .generator(&a.method)
        .map_err(|e| anyhow!("--method: {e}"))?;
    let params = params_from(&a.params)?;
    let mut gen = (info.build)(&params).map_err(|e| anyhow!("--param: {e}"))?;
    let maker = match &a.puzzle {
        Some(_) => Some(registry.puzzle_maker()?),
        None => None,
    };
    let b = budget(a.time_limit, None, None)?;
    let variant = a.variant.variant;
    let label = if params.is_empty() {
        a.method.clone()
    } else {
        format!("{} {params}", a.method)
    };
    let mut out = std::io::stdout().lock();
    let mut times = Vec::new();
    let mut restarts = 0;
    for k in 0..a.count {
        let mut rng = rng_from_seed(derive_seed(
            a.seed,
            &label,
            &format!("generate {order} {variant}"),
            k as u64,
        ));
        let start = Instant::now();
        let outcome = gen.generate(order, variant, &b, &mut rng);
        let took = start.elapsed();
        restarts += outcome.stats.restarts;
        let grid = match outcome.status {
            Status::Solved(g) => g,
            Status::Exhausted { limit, .. } => {
                return Err(anyhow!(
                    "grid {k}: {} stopped at its {} limit before finishing",
                    a.method,
                    limit.name()
                )
                .into())
            }
            Status::Infeasible => {
                return Err(anyhow!("grid {k}: {} found no grid", a.method).into())
            }
        };
        if let Err(v) = verify_solution(&Puzzle::empty(order, variant), &grid) {
            eprintln!("WRONG: grid {k} from {} fails the verifier: {v}", a.method);
            return Err(Failure::Check);
        }
        let text = match (&a.puzzle, maker) {
            (Some(spec), Some(make)) => {
                let p = make(&grid, variant, spec, a.clues, &b, &mut rng)?;
                let puzzle = Puzzle::new(p.clone(), variant);
                if let Err(v) = verify_solution(&puzzle, &grid) {
                    eprintln!("WRONG: puzzle {k} is not solved by its own grid: {v}");
                    return Err(Failure::Check);
                }
                format!(
                    "# {} clues{}\n{}",
                    p.filled(),
                    to_line(&grid)
                        .map(|l| format!(", solution {l}"))
                        .unwrap_or_default(),
                    to_text(&p)
                )
            }
            _ => to_text(&grid),
        };
        times.push(took.as_secs_f64() * 1000.0);
        out.write_all(text.as_bytes())
            .context("writing to standard output")?;
    }
    eprintln!(
        "{} {} {}: {} generated, {restarts} restarts, median {:.3} ms each",
        label,
        order,
        variant,
        a.count,
        median(&times).unwrap_or(0.0)
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
        "LP relaxation: {}. Generated instances: {}.\n",
        if registry.relax.is_some() {
            "available"
        } else {
            "not in this build"
        },
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
