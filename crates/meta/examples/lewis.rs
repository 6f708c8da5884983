//! Success rate and time per instance of `grasp` and `sa`, Lewis-style.
//!
//! Two modes:
//! - the Lewis 9×9 sets (`../shared/datasets/lewis/lewis_9x9_fNNN.txt`, NNN = percent of
//!   cells given): `--levels 0,5,...,100 --per-level 100 --cap 10`;
//! - generated instances of any order: a full grid (pattern grid plus random symmetries)
//!   keeping a random share `p` of its cells: `--gen 4 --p 0,0.2,0.4 --per-level 20`.
//!
//! - any puzzle file: `--file path` (repeatable), the first `--per-level` puzzles of each.
//!
//! Every Solved answer is verified by `sudoku_core::verify_solution`. Runs are sequential (one
//! core). Example:
//!
//! ```text
//! cargo run --release -p sudoku-meta --example lewis -- --method sa --param preprocess=singles \
//!     --levels 40,45 --per-level 10 --cap 2
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::{
    derive_seed, format, rng_from_seed, verify_solution, Budget, Grid, Order, Params, Puzzle, Rng,
    Status, Variant,
};

struct Args {
    method: String,
    params: Params,
    levels: Vec<u32>,
    per_level: usize,
    cap: f64,
    gen: Option<usize>,
    shares: Vec<f64>,
    seed: u64,
    variant: Variant,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        method: "sa".into(),
        params: Params::new(),
        levels: (0..=100).step_by(5).collect(),
        per_level: 100,
        cap: 10.0,
        gen: None,
        shares: vec![0.0, 0.2, 0.4, 0.45, 0.5, 0.6, 0.8],
        seed: 1,
        variant: Variant::Classic,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--method" => a.method = value()?,
            "--param" => a.params.push_pair(&value()?).map_err(|e| e.to_string())?,
            "--levels" => {
                a.levels = value()?
                    .split(',')
                    .map(|s| s.parse().map_err(|_| format!("bad level {s}")))
                    .collect::<Result<_, _>>()?
            }
            "--per-level" => a.per_level = value()?.parse().map_err(|_| "bad --per-level")?,
            "--cap" => a.cap = value()?.parse().map_err(|_| "bad --cap")?,
            "--gen" => a.gen = Some(value()?.parse().map_err(|_| "bad --gen")?),
            "--p" => {
                a.shares = value()?
                    .split(',')
                    .map(|s| s.parse().map_err(|_| format!("bad share {s}")))
                    .collect::<Result<_, _>>()?
            }
            "--seed" => a.seed = value()?.parse().map_err(|_| "bad --seed")?,
            "--file" => a.files.push(PathBuf::from(value()?)),
            "--variant" => a.variant = value()?.parse().map_err(|e| format!("{e}"))?,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(a)
}

/// A full grid of `order`: the pattern grid (row r shifted by n·(r mod n) + r / n), then row
/// swaps within bands, band swaps, column swaps within stacks, stack swaps and a digit
/// relabelling, all drawn from `rng`.
fn random_full_grid(order: Order, rng: &mut Rng) -> Grid {
    let (n, size) = (order.n(), order.size());
    let perm_within = |rng: &mut Rng| {
        let mut bands: Vec<usize> = (0..n).collect();
        bands.shuffle(rng);
        let mut out = Vec::with_capacity(size);
        for b in bands {
            let mut inner: Vec<usize> = (0..n).collect();
            inner.shuffle(rng);
            out.extend(inner.into_iter().map(|i| b * n + i));
        }
        out
    };
    let rows = perm_within(rng);
    let cols = perm_within(rng);
    let mut digits: Vec<u16> = (1..=size as u16).collect();
    digits.shuffle(rng);
    let mut g = Grid::empty(order);
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            let d = (n * (pr % n) + pr / n + pc) % size;
            g.set(r * size + c, digits[d]);
        }
    }
    g
}

fn carve(full: &Grid, share: f64, rng: &mut Rng) -> Grid {
    let mut g = full.clone();
    for i in 0..g.cells().len() {
        if rng.random::<f64>() >= share {
            g.set(i, 0);
        }
    }
    g
}

struct Row {
    label: String,
    solved: usize,
    total: usize,
    times: Vec<f64>,
    solved_times: Vec<f64>,
    best_costs: Vec<u64>,
    moves: u64,
    secs: f64,
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

fn run_set(args: &Args, label: String, puzzles: Vec<Puzzle>) -> Result<Row, String> {
    let info = sudoku_meta::methods()
        .into_iter()
        .find(|m| m.name == args.method)
        .ok_or(format!("no method {}", args.method))?;
    let mut solver = (info.build)(&args.params).map_err(|e| e.to_string())?;
    let budget = Budget::time(Duration::from_secs_f64(args.cap));
    let mut row = Row {
        label,
        solved: 0,
        total: puzzles.len(),
        times: Vec::new(),
        solved_times: Vec::new(),
        best_costs: Vec::new(),
        moves: 0,
        secs: 0.0,
    };
    let config = format!("{} {}", args.method, args.params);
    for (i, p) in puzzles.iter().enumerate() {
        let mut rng = rng_from_seed(derive_seed(args.seed, &config, &row.label, i as u64));
        let t = Instant::now();
        let out = solver.solve(p, &budget, &mut rng);
        let secs = t.elapsed().as_secs_f64();
        row.moves += out.stats.iterations;
        row.secs += secs;
        match &out.status {
            Status::Solved(g) => {
                verify_solution(p, g)
                    .map_err(|e| format!("{} #{i}: wrong answer: {e}", row.label))?;
                row.solved += 1;
                row.solved_times.push(secs);
                row.times.push(secs);
            }
            Status::Infeasible => return Err(format!("{} #{i}: claimed infeasible", row.label)),
            Status::Exhausted { .. } => {
                row.times.push(secs.max(args.cap));
                row.best_costs.push(out.stats.best_cost.unwrap_or(0));
            }
        }
    }
    Ok(row)
}

fn print_row(row: &mut Row) {
    let pct = 100.0 * row.solved as f64 / row.total.max(1) as f64;
    let med_all = median(&mut row.times).unwrap_or(0.0);
    let med_solved = median(&mut row.solved_times)
        .map(|m| format!("{m:.3}"))
        .unwrap_or_else(|| "-".into());
    let costs = if row.best_costs.is_empty() {
        String::new()
    } else {
        format!(" (failed best costs: {:?})", row.best_costs)
    };
    let rate = row.moves as f64 / row.secs.max(1e-9) / 1e6;
    println!(
        "| {} | {}/{} | {:.0} % | {:.3} | {} | {:.1} |{}",
        row.label, row.solved, row.total, pct, med_all, med_solved, rate, costs
    );
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "method {} params [{}] cap {} s, {} per level, seed {}",
        args.method, args.params, args.cap, args.per_level, args.seed
    );
    println!("| set | solved | rate | median s (fail = cap) | median s (solved) | Mmoves/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    let started = Instant::now();
    let result = if !args.files.is_empty() {
        (|| {
            for path in &args.files {
                let entries = format::read_file(path).map_err(|e| e.to_string())?;
                let puzzles = entries
                    .into_iter()
                    .take(args.per_level)
                    .map(|e| Puzzle::new(e.grid, args.variant))
                    .collect();
                let label = path.file_name().map(|f| f.to_string_lossy().into_owned());
                print_row(&mut run_set(&args, label.unwrap_or_default(), puzzles)?);
            }
            Ok::<(), String>(())
        })()
    } else if let Some(n) = args.gen {
        let order = match Order::new(n) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        (|| {
            for &share in &args.shares {
                let label = format!("{order} p={share}");
                let mut rng = rng_from_seed(derive_seed(args.seed, "instances", &label, 0));
                let puzzles = (0..args.per_level)
                    .map(|_| {
                        let full = random_full_grid(order, &mut rng);
                        Puzzle::new(carve(&full, share, &mut rng), Variant::Classic)
                    })
                    .collect();
                print_row(&mut run_set(&args, label, puzzles)?);
            }
            Ok::<(), String>(())
        })()
    } else {
        let dir = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/datasets/lewis"
        ));
        if !dir.is_dir() {
            println!("skipped: {} not found", dir.display());
            return ExitCode::SUCCESS;
        }
        (|| {
            for &level in &args.levels {
                let path = dir.join(format!("lewis_9x9_f{level:03}.txt"));
                let entries = format::read_file(&path).map_err(|e| e.to_string())?;
                let puzzles = entries
                    .into_iter()
                    .take(args.per_level)
                    .map(|e| Puzzle::new(e.grid, args.variant))
                    .collect();
                print_row(&mut run_set(&args, format!("f{level:03}"), puzzles)?);
            }
            Ok::<(), String>(())
        })()
    };
    println!("total wall time {:.1} s", started.elapsed().as_secs_f64());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
