//! Benchmark of the generators, in short pieces (the machine is shared).
//!
//! ```text
//! cargo run --release -p sudoku-gen --example bench_gen -- grids <method> [k=v ...] \
//!     --orders 3,4,5 --runs 11 --cap 10 [--variant diagonal] [--each] [--first K]
//! cargo run --release -p sudoku-gen --example bench_gen -- puzzles --secs 3
//! ```
//!
//! `grids`: one Markdown row per order: runs, solved within the cap (seconds), median time of
//! the runs (a failed run counts as the cap, so a median at the cap means most failed),
//! median restarts and nodes; `--each` also prints every run (time, restarts, nodes, nodes/s)
//! to stderr; `--first K` starts at run K (more seeds without repeating earlier ones).
//! `puzzles`: unique (target 30 clues) and minimal 9×9 puzzles per second, grid generation
//! included, with both checkers.

use std::time::{Duration, Instant};

use sudoku_core::{
    derive_seed, rng_from_seed, verify_solution, Budget, Order, Params, Puzzle, Solver, Status,
    Variant,
};
use sudoku_gen::{generators, make_puzzle, FillCounter, PropFill, PuzzleSpec, Symmetry};
use sudoku_prop::Prop;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn grids(args: &[String]) -> Result<(), String> {
    let method = args.first().ok_or("grids: missing method")?.clone();
    let mut params = Params::new();
    let (mut orders, mut runs, mut cap, mut variant) = (vec![3], 11u64, 10.0f64, Variant::Classic);
    let mut each = false;
    let mut first = 0u64;
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--orders" => {
                orders = val()?
                    .split(',')
                    .map(|s| s.parse().map_err(|_| format!("bad order {s}")))
                    .collect::<Result<_, _>>()?
            }
            "--runs" => runs = val()?.parse().map_err(|_| "bad --runs")?,
            "--cap" => cap = val()?.parse().map_err(|_| "bad --cap")?,
            "--variant" => variant = val()?.parse().map_err(|e| format!("{e}"))?,
            "--each" => each = true,
            "--first" => first = val()?.parse().map_err(|_| "bad --first")?,
            kv => params.push_pair(kv).map_err(|e| e.to_string())?,
        }
    }
    let info = generators()
        .into_iter()
        .find(|g| g.name == method)
        .ok_or(format!("unknown generator {method}"))?;
    for n in orders {
        let order = Order::new(n).map_err(|e| e.to_string())?;
        let mut gen = (info.build)(&params).map_err(|e| e.to_string())?;
        let (mut times, mut restarts, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
        let mut solved = 0;
        for run in first..first + runs {
            let seed = derive_seed(1, &format!("{method} {params}"), &order.to_string(), run);
            let budget = Budget::time(Duration::from_secs_f64(cap));
            let t = Instant::now();
            let out = gen.generate(order, variant, &budget, &mut rng_from_seed(seed));
            let el = t.elapsed().as_secs_f64();
            if let Status::Solved(g) = &out.status {
                verify_solution(&Puzzle::empty(order, variant), g)
                    .map_err(|e| format!("{method} returned an invalid grid: {e}"))?;
                solved += 1;
                times.push(el);
            } else {
                times.push(el.max(cap));
            }
            if each {
                eprintln!(
                    "{method} {params} {n}²×{n}² run {run}: {} in {el:.3} s, {} restarts, {} nodes, {:.2}M nodes/s",
                    if matches!(out.status, Status::Solved(_)) { "solved" } else { "not solved" },
                    out.stats.restarts,
                    out.stats.nodes,
                    out.stats.nodes as f64 / el / 1e6,
                );
            }
            restarts.push(out.stats.restarts as f64);
            nodes.push(out.stats.nodes as f64);
        }
        println!(
            "| {method} | {params} | {variant} | {n}²×{n}² | {runs} | {solved} | {:.2} | {} | {} |",
            median(&mut times) * 1e3,
            median(&mut restarts),
            median(&mut nodes),
        );
    }
    Ok(())
}

fn puzzles(args: &[String]) -> Result<(), String> {
    let secs: f64 = match args {
        [flag, v, ..] if flag == "--secs" => v.parse().map_err(|_| "bad --secs")?,
        _ => 3.0,
    };
    let order = Order::new(3).map_err(|e| e.to_string())?;
    let v = Variant::Classic;
    for (label, spec) in [
        ("unique, 30 clues", PuzzleSpec::Unique { clues: Some(30) }),
        ("minimal", PuzzleSpec::Minimal),
    ] {
        let checkers: [(&str, Box<dyn Solver>); 2] = [
            ("sudoku-prop Prop", Box::new(Prop::default())),
            ("FillCounter", Box::new(FillCounter::new())),
        ];
        for (cname, mut checker) in checkers {
            let mut gen = PropFill::default();
            let mut rng = rng_from_seed(42);
            let (mut made, mut clues, mut checks) = (0u64, 0usize, 0u64);
            let t = Instant::now();
            while t.elapsed().as_secs_f64() < secs {
                let out = sudoku_core::Generator::generate(
                    &mut gen,
                    order,
                    v,
                    &Budget::unlimited(),
                    &mut rng,
                );
                let Status::Solved(grid) = out.status else {
                    return Err("prop-fill failed on 9x9".into());
                };
                let c = make_puzzle(
                    &grid,
                    v,
                    spec,
                    Symmetry::None,
                    checker.as_mut(),
                    &Budget::unlimited(),
                    &mut rng,
                )
                .map_err(|e| e.to_string())?;
                made += 1;
                clues += c.clues;
                checks += c.checks;
            }
            let el = t.elapsed().as_secs_f64();
            println!(
                "| {label} | {cname} | {made} | {:.0} | {:.1} | {:.1} |",
                made as f64 / el,
                clues as f64 / made as f64,
                checks as f64 / made as f64
            );
        }
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("grids") => {
            println!("| method | params | variant | order | runs | solved | median ms | median restarts | median nodes |");
            println!("|---|---|---|---|---|---|---|---|---|");
            grids(&args[1..])
        }
        Some("puzzles") => {
            println!("| puzzles | checker | made | per second | mean clues | mean checks |");
            println!("|---|---|---|---|---|---|");
            puzzles(&args[1..])
        }
        _ => Err("usage: bench_gen grids <method> [k=v ...] [--orders 3,4] [--runs 11] [--cap 10] [--variant classic|diagonal] [--each] [--first 0] | puzzles [--secs 3]".into()),
    };
    if let Err(e) = r {
        eprintln!("bench_gen: {e}");
        std::process::exit(2);
    }
}
