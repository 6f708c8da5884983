//! Timing table for the ILP method (not a test): median build and solve times on the JuMP
//! seed's puzzles, Gecode's 16×16 set (if `../shared/datasets` is there), and generation of
//! empty grids.
//!
//! `cargo run --release -p sudoku-ilp --example bench_ilp -- [solve] [gen] [reps=5]
//!  [orders=4,5,6,7,8] [limit=60] [gen_reps=3]`
//!
//! Every answer is verified; a failure aborts the run.

#[path = "../tests/fixtures.rs"]
mod fixtures;

use std::path::Path;
use std::time::{Duration, Instant};

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Generator, Order, Outcome, Puzzle, Solver,
    Status, Variant,
};
use sudoku_ilp::{IlpConfig, IlpGenerator, IlpSolver, ModelKind, Objective, Prefill};

const DATASETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/datasets");

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

fn solve_seconds(o: &Outcome) -> Duration {
    o.stats
        .extra
        .iter()
        .find(|(k, _)| k == "solve_seconds")
        .and_then(|(_, v)| v.parse::<f64>().ok())
        .map_or(Duration::ZERO, Duration::from_secs_f64)
}

fn objectives() -> Vec<Objective> {
    vec![
        Objective::Zero,
        Objective::Constant,
        Objective::Weighted,
        Objective::Prefer {
            row: 1,
            col: 1,
            digit: 1,
            sign: -1,
        },
        Objective::Random,
    ]
}

/// One row: median build, solve and total (wall) time per puzzle over `reps` runs each, then
/// the median over puzzles, and the worst puzzle's median total.
fn bench_set(name: &str, puzzles: &[Puzzle], reps: usize) {
    for objective in objectives() {
        for model in [ModelKind::Full, ModelKind::Reduced] {
            for lp_first in [true, false] {
                if !lp_first && objective != Objective::Zero {
                    continue;
                }
                let config = IlpConfig {
                    objective,
                    model,
                    lp_first,
                    ..IlpConfig::default()
                };
                let (mut b, mut s, mut t, mut nodes) = (vec![], vec![], vec![], vec![]);
                let mut lp_integral = 0;
                for (i, p) in puzzles.iter().enumerate() {
                    let (mut pb, mut ps, mut pt) = (vec![], vec![], vec![]);
                    for r in 0..reps {
                        let mut solver = IlpSolver::new(config);
                        let start = Instant::now();
                        let out = solver.solve(
                            p,
                            &Budget::time(Duration::from_secs(120)),
                            &mut rng_from_seed((i * 1000 + r) as u64),
                        );
                        pt.push(ms(start.elapsed()));
                        let Status::Solved(g) = &out.status else {
                            panic!("{name} #{i}: {:?} {:?}", out.status, out.stats.extra);
                        };
                        verify_solution(p, g).expect("answers verify");
                        pb.push(ms(out.stats.build_time.unwrap_or_default()));
                        ps.push(ms(solve_seconds(&out)));
                        if r == 0 {
                            nodes.push(out.stats.nodes as f64);
                            if out
                                .stats
                                .extra
                                .iter()
                                .any(|(k, v)| k == "lp_integral" && v == "true")
                            {
                                lp_integral += 1;
                            }
                        }
                    }
                    b.push(median(pb));
                    s.push(median(ps));
                    t.push(median(pt));
                }
                let worst = t.iter().copied().fold(0.0, f64::max);
                println!(
                    "| {name} | {} | {model} | {lp_first} | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} | {}/{} |",
                    objective.name(),
                    median(b),
                    median(s),
                    median(t),
                    worst,
                    median(nodes),
                    lp_integral,
                    puzzles.len()
                );
            }
        }
    }
}

fn bench_solve(reps: usize) {
    println!("| set | objective | model | lp_first | build ms | solve ms | total ms | worst total ms | nodes | LP integral |");
    println!("|---|---|---|---|---:|---:|---:|---:|---:|---:|");
    let jump9: Vec<Puzzle> = fixtures::JUMP_9X9
        .iter()
        .map(|(p, _)| fixtures::puzzle(p, Variant::Classic))
        .collect();
    bench_set("JuMP 9x9 (4)", &jump9, reps);
    let jump25 = vec![fixtures::puzzle(fixtures::JUMP_25X25, Variant::Classic)];
    bench_set("JuMP 25x25", &jump25, reps);
    let path = Path::new(DATASETS).join("gecode_16x16.txt");
    match format::read_file(&path) {
        Ok(entries) => {
            let puzzles: Vec<Puzzle> = entries
                .into_iter()
                .map(|e| Puzzle::new(e.grid, Variant::Classic))
                .collect();
            let label = format!("gecode 16x16 ({})", puzzles.len());
            bench_set(&label, &puzzles, reps.min(3));
        }
        Err(e) => println!("(skipping gecode_16x16: {e})"),
    }
}

fn bench_generate(orders: &[usize], limit: Duration, reps: usize) {
    println!("| order | variant | prefill | objective | model | solved | median total s | max s | median nodes |");
    println!("|---|---|---|---|---|---:|---:|---:|---:|");
    for &n in orders {
        let order = Order::new(n).expect("order 2..=16");
        for variant in [Variant::Classic] {
            for prefill in [Prefill::None, Prefill::FirstRow, Prefill::DiagonalBlocks] {
                for objective in [Objective::Zero, Objective::Random] {
                    for model in [ModelKind::Full, ModelKind::Reduced] {
                        // From 25x25 on one run takes about a minute: keep the configurations
                        // that can finish (reduced model; pre-filled diagonal blocks or none).
                        if n >= 5
                            && (model == ModelKind::Full
                                || prefill == Prefill::FirstRow
                                || (prefill == Prefill::None && objective != Objective::Zero))
                        {
                            continue;
                        }
                        let config = IlpConfig {
                            objective,
                            model,
                            ..IlpConfig::default()
                        };
                        let (mut times, mut nodes, mut solved) = (vec![], vec![], 0);
                        for r in 0..reps {
                            let mut g = IlpGenerator::new(config, prefill, 20);
                            let start = Instant::now();
                            let out = g.generate(
                                order,
                                variant,
                                &Budget::time(limit),
                                &mut rng_from_seed(r as u64 + 1),
                            );
                            times.push(start.elapsed().as_secs_f64());
                            nodes.push(out.stats.nodes as f64);
                            if let Status::Solved(grid) = &out.status {
                                verify_solution(&Puzzle::empty(order, variant), grid)
                                    .expect("generated grids verify");
                                solved += 1;
                            }
                        }
                        let max = times.iter().copied().fold(0.0, f64::max);
                        println!(
                            "| {order} | {variant} | {prefill} | {} | {model} | {solved}/{reps} | {:.2} | {:.2} | {:.0} |",
                            objective.name(),
                            median(times),
                            max,
                            median(nodes)
                        );
                    }
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(&format!("{key}=")).map(str::to_string))
    };
    let reps: usize = get("reps").and_then(|v| v.parse().ok()).unwrap_or(5);
    let gen_reps: usize = get("gen_reps").and_then(|v| v.parse().ok()).unwrap_or(3);
    let limit = Duration::from_secs(get("limit").and_then(|v| v.parse().ok()).unwrap_or(60));
    let orders: Vec<usize> = get("orders")
        .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![4, 5, 6, 7, 8]);
    let all = !args.iter().any(|a| a == "solve" || a == "gen");
    if all || args.iter().any(|a| a == "solve") {
        bench_solve(reps);
    }
    if all || args.iter().any(|a| a == "gen") {
        bench_generate(&orders, limit, gen_reps);
    }
}
