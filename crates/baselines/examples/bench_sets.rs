//! Runs every baseline over whole puzzle files and prints a table of per-puzzle times and nodes.
//!
//! ```text
//! cargo run --release -p sudoku-baselines --example bench_sets -- [options]
//!   --cap-ms MS      time cap per puzzle for the slow methods (default 100)
//!   --cap-nodes N    node cap per puzzle for the slow methods (default none)
//!   --limit K        only the first K puzzles of each file
//!   --sets a,b       dataset files to run (default: the four below)
//!   --methods a,b    labels to run (default: all four, `backtrack-bits/row-major`, and
//!                    sudoku-prop's methods as `ref: prop`, `ref: norvig` for reference)
//!   --no-large       skip the 25×25 and 36×36 runs
//!   --fast-cap-s S   time cap per puzzle for the other methods (default 10)
//!   --repeat R       solve each puzzle R times and keep its fastest time (default 1); on a
//!                    loaded machine this filters out time lost to other processes
//! ```
//!
//! The slow methods are `backtrack` and `backtrack-bits select=row-major`: they get the cap and
//! their timeouts are counted. The others get `--fast-cap-s` (their timeouts are counted too). Every answer is verified
//! (outside the timed region). Reads ../shared/datasets beside the repository.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Order, Params, Puzzle, Solver, Status, Variant,
};

const DEFAULT_SETS: [&str; 4] = [
    "norvig_top95.txt",
    "magictour_top1465.txt",
    "norvig_hardest.txt",
    "gecode_16x16.txt",
];

struct Options {
    cap: Duration,
    cap_nodes: Option<u64>,
    limit: usize,
    sets: Vec<String>,
    methods: Option<Vec<String>>,
    large: bool,
    fast_cap: Duration,
    repeat: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        cap: Duration::from_millis(100),
        cap_nodes: None,
        limit: usize::MAX,
        sets: DEFAULT_SETS.iter().map(|s| s.to_string()).collect(),
        methods: None,
        large: true,
        fast_cap: Duration::from_secs(10),
        repeat: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--cap-ms" => {
                let v = value()?;
                o.cap = Duration::from_millis(v.parse().map_err(|_| format!("bad --cap-ms {v}"))?)
            }
            "--cap-nodes" => {
                let v = value()?;
                o.cap_nodes = Some(v.parse().map_err(|_| format!("bad --cap-nodes {v}"))?)
            }
            "--limit" => {
                let v = value()?;
                o.limit = v.parse().map_err(|_| format!("bad --limit {v}"))?
            }
            "--sets" => o.sets = value()?.split(',').map(str::to_string).collect(),
            "--methods" => o.methods = Some(value()?.split(',').map(str::to_string).collect()),
            "--no-large" => o.large = false,
            "--repeat" => {
                let v = value()?;
                o.repeat = v.parse().map_err(|_| format!("bad --repeat {v}"))?;
                o.repeat = o.repeat.max(1);
            }
            "--fast-cap-s" => {
                let v = value()?;
                o.fast_cap =
                    Duration::from_secs(v.parse().map_err(|_| format!("bad --fast-cap-s {v}"))?)
            }
            _ => return Err(format!("unknown option {a}")),
        }
    }
    Ok(o)
}

/// (label, slow?, solver)
type Entry = (String, bool, Box<dyn Solver + Send>);

fn solvers(filter: &Option<Vec<String>>) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for m in sudoku_baselines::methods() {
        let s = (m.build)(&Params::new()).expect("defaults are valid");
        out.push((m.name.to_string(), m.name == "backtrack", s));
        if m.name == "backtrack-bits" {
            let mut p = Params::new();
            p.set("select", "row-major");
            let s = (m.build)(&p).expect("valid");
            out.push(("backtrack-bits/row-major".to_string(), true, s));
        }
    }
    // The propagators of sudoku-prop, as the reference a good solver sets.
    for m in sudoku_prop::methods() {
        let s = (m.build)(&Params::new()).expect("defaults are valid");
        out.push((format!("ref: {}", m.name), false, s));
    }
    if let Some(names) = filter {
        out.retain(|(label, _, _)| names.iter().any(|n| n == label));
    }
    out
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

struct Row {
    set: String,
    method: String,
    puzzles: usize,
    solved: usize,
    timeouts: usize,
    median_us: f64,
    mean_us: f64,
    p90_us: f64,
    max_us: f64,
    median_nodes: f64,
    mean_nodes: f64,
    median_build_us: Option<f64>,
}

fn run_set(name: &str, puzzles: &[Puzzle], entries: &mut [Entry], opts: &Options) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut rng = rng_from_seed(1);
    for (label, slow, solver) in entries.iter_mut() {
        let budget = if *slow {
            Budget {
                time: Some(opts.cap),
                nodes: opts.cap_nodes,
                iterations: None,
            }
        } else {
            Budget::time(opts.fast_cap)
        };
        let (mut times, mut nodes, mut builds) = (Vec::new(), Vec::new(), Vec::new());
        let (mut solved, mut timeouts) = (0, 0);
        for (i, p) in puzzles.iter().enumerate() {
            let mut us = f64::INFINITY;
            let mut out = None;
            for _ in 0..opts.repeat {
                let t = Instant::now();
                let o = solver.solve(p, &budget, &mut rng);
                us = us.min(t.elapsed().as_secs_f64() * 1e6);
                let timed_out = matches!(o.status, Status::Exhausted { .. });
                out = Some(o);
                if timed_out {
                    break; // a capped run is not repeated
                }
            }
            let out = out.expect("at least one run");
            if let Some(b) = out.stats.build_time {
                builds.push(b.as_secs_f64() * 1e6);
            }
            match &out.status {
                Status::Solved(g) => {
                    if let Err(e) = verify_solution(p, g) {
                        panic!("{label} on {name} #{i}: wrong answer: {e}");
                    }
                    solved += 1;
                }
                Status::Exhausted { .. } => timeouts += 1,
                Status::Infeasible => panic!("{label} on {name} #{i}: claims infeasible"),
            }
            times.push(us);
            nodes.push(out.stats.nodes as f64);
        }
        let n = times.len().max(1) as f64;
        let mean_us = times.iter().sum::<f64>() / n;
        let mean_nodes = nodes.iter().sum::<f64>() / n;
        times.sort_by(f64::total_cmp);
        nodes.sort_by(f64::total_cmp);
        builds.sort_by(f64::total_cmp);
        rows.push(Row {
            set: name.to_string(),
            method: label.clone(),
            puzzles: puzzles.len(),
            solved,
            timeouts,
            median_us: quantile(&times, 0.5),
            mean_us,
            p90_us: quantile(&times, 0.9),
            max_us: quantile(&times, 1.0),
            median_nodes: quantile(&nodes, 0.5),
            mean_nodes,
            median_build_us: (!builds.is_empty()).then(|| quantile(&builds, 0.5)),
        });
        let r = rows.last().expect("just pushed");
        eprintln!(
            "  {:<26} {:>5}/{:<5} timeouts {:>4}  median {:>10.1} µs",
            r.method, r.solved, r.puzzles, r.timeouts, r.median_us
        );
    }
    rows
}

fn print_table(rows: &[Row]) {
    println!(
        "| set | method | solved/puzzles | timeouts | median µs | mean µs | p90 µs | max µs | median nodes | mean nodes | median build µs |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        println!(
            "| {} | {} | {}/{} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.0} | {:.0} | {} |",
            r.set,
            r.method,
            r.solved,
            r.puzzles,
            r.timeouts,
            r.median_us,
            r.mean_us,
            r.p90_us,
            r.max_us,
            r.median_nodes,
            r.mean_nodes,
            r.median_build_us
                .map_or("-".to_string(), |b| format!("{b:.1}"))
        );
    }
}

fn main() {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench_sets: {e}");
            std::process::exit(2);
        }
    };
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/datasets"
    ));
    let mut entries = solvers(&opts.methods);
    let mut rows = Vec::new();
    for set in &opts.sets {
        let path = dir.join(set);
        let grids = match format::read_file(&path) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("skipping {set}: {e}");
                continue;
            }
        };
        let puzzles: Vec<Puzzle> = grids
            .into_iter()
            .take(opts.limit)
            .map(|e| Puzzle::new(e.grid, Variant::Classic))
            .collect();
        eprintln!("{set}: {} puzzles", puzzles.len());
        rows.extend(run_set(set, &puzzles, &mut entries, &opts));
    }
    if opts.large {
        // The 25×25 puzzle of the JuMP seed notebook (seed 001).
        let jump = sudoku_core::fixtures::seed_puzzles("001_jump.25x25.txt", Variant::Classic)
            .expect("the seed puzzle loads")
            .remove(0);
        let large = [
            ("jump 25x25 (seed 001)", jump),
            (
                "empty 25x25",
                Puzzle::empty(Order::new(5).expect("order 5"), Variant::Classic),
            ),
            (
                "empty 25x25 diagonal",
                Puzzle::empty(Order::new(5).expect("order 5"), Variant::Diagonal),
            ),
            (
                "empty 36x36",
                Puzzle::empty(Order::new(6).expect("order 6"), Variant::Classic),
            ),
        ];
        for (name, p) in large {
            eprintln!("{name}");
            // Three runs of the one puzzle, so the median means something.
            let five: Vec<Puzzle> = std::iter::repeat_n(p, 3).collect();
            let mut fast: Vec<Entry> = solvers(&opts.methods)
                .into_iter()
                .filter(|(_, slow, _)| !slow)
                .collect();
            rows.extend(run_set(name, &five, &mut fast, &opts));
        }
    }
    print_table(&rows);
}
