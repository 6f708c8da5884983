//! Timing table for the ILP method (not a test): median build and solve times on the JuMP
//! seed's puzzles, Gecode's 16×16 set (if `../shared/datasets` is there), and generation of
//! empty grids.
//!
//! `cargo run --release -p sudoku-ilp --example bench_ilp -- [solve] [gen] [reps=5]
//!  [sets=jump9,jump25,gecode16] [orders=4,5,6,7,8] [limit=60] [gen_reps=3]
//!  [cases=all|whole|bands]`
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
use sudoku_ilp::{
    Decompose, IlpConfig, IlpGenerator, IlpSolver, Lookahead, ModelKind, Objective, Prefill, Search,
};

const DATASETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/datasets");

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The median; with an even count, the mean of the two middle values (as the runner's
/// statistics compute it).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
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
            for (search, lp_first) in [
                (Search::Cbc, true),
                (Search::Cbc, false),
                (Search::Dfs, true),
            ] {
                if !lp_first && objective != Objective::Zero {
                    continue;
                }
                let config = IlpConfig {
                    objective,
                    model,
                    lp_first,
                    search,
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
                    "| {name} | {} | {model} | {search} | {lp_first} | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} | {}/{} |",
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

fn bench_solve(reps: usize, sets: &[String]) {
    let want = |s: &str| sets.is_empty() || sets.iter().any(|x| x == s);
    println!("| set | objective | model | search | lp_first | build ms | solve ms | total ms | worst total ms | nodes | LP integral |");
    println!("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|");
    let jump9: Vec<Puzzle> = fixtures::jump_9x9().into_iter().map(|(p, _)| p).collect();
    if want("jump9") {
        bench_set("JuMP 9x9 (4)", &jump9, reps);
    }
    let jump25 = vec![fixtures::jump_25x25().0];
    if want("jump25") {
        bench_set("JuMP 25x25", &jump25, reps);
    }
    if !want("gecode16") {
        return;
    }
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

/// One generation configuration: what to vary between table rows.
#[derive(Clone, Copy)]
struct GenCase {
    prefill: Prefill,
    objective: Objective,
    model: ModelKind,
    decompose: Decompose,
    lookahead: Lookahead,
}

/// The configurations worth running at order `n`: every whole-grid one on 16x16; from 25x25
/// on (a minute or more per whole-grid run) only those that can finish; `cases` picks whole
/// grids, bands or both.
fn gen_cases(n: usize, cases: &str) -> Vec<GenCase> {
    let mut v = Vec::new();
    let whole = cases == "all" || cases == "whole";
    let bands = cases == "all" || cases == "bands";
    for prefill in [Prefill::None, Prefill::FirstRow, Prefill::DiagonalBlocks] {
        for objective in [Objective::Zero, Objective::Random] {
            for model in [ModelKind::Full, ModelKind::Reduced] {
                let big_skip = n >= 5
                    && (model == ModelKind::Full
                        || prefill == Prefill::FirstRow
                        || (prefill == Prefill::None && objective != Objective::Zero));
                if whole && !big_skip {
                    v.push(GenCase {
                        prefill,
                        objective,
                        model,
                        decompose: Decompose::None,
                        lookahead: Lookahead::Columns,
                    });
                }
            }
        }
    }
    if bands {
        for lookahead in [Lookahead::Columns, Lookahead::Full] {
            // The full lookahead's first 36x36 band alone takes minutes.
            if lookahead == Lookahead::Full && n >= 6 {
                continue;
            }
            for objective in [Objective::Zero, Objective::Random] {
                v.push(GenCase {
                    prefill: Prefill::DiagonalBlocks,
                    objective,
                    model: ModelKind::Reduced,
                    decompose: Decompose::Bands,
                    lookahead,
                });
            }
        }
    }
    v
}

fn bench_generate(orders: &[usize], limit: Duration, reps: usize, cases: &str) {
    println!("| order | prefill | objective | model | decompose | lookahead | solved | median total s | max s | median nodes | median restarts |");
    println!("|---|---|---|---|---|---|---:|---:|---:|---:|---:|");
    let variant = Variant::Classic;
    for &n in orders {
        let order = Order::new(n).expect("order 2..=16");
        for case in gen_cases(n, cases) {
            let config = IlpConfig {
                objective: case.objective,
                model: case.model,
                ..IlpConfig::default()
            };
            let (mut times, mut nodes, mut restarts, mut solved) = (vec![], vec![], vec![], 0);
            for r in 0..reps {
                let mut g = IlpGenerator::new(config, case.prefill, 20)
                    .with_decompose(case.decompose, case.lookahead);
                let start = Instant::now();
                let out = g.generate(
                    order,
                    variant,
                    &Budget::time(limit),
                    &mut rng_from_seed(r as u64 + 1),
                );
                times.push(start.elapsed().as_secs_f64());
                nodes.push(out.stats.nodes as f64);
                restarts.push(out.stats.restarts as f64);
                if let Status::Solved(grid) = &out.status {
                    verify_solution(&Puzzle::empty(order, variant), grid)
                        .expect("generated grids verify");
                    solved += 1;
                }
            }
            let max = times.iter().copied().fold(0.0, f64::max);
            let lookahead = if case.decompose == Decompose::Bands {
                case.lookahead.name()
            } else {
                ""
            };
            println!(
                "| {order} | {} | {} | {} | {} | {lookahead} | {solved}/{reps} | {:.2} | {:.2} | {:.0} | {:.0} |",
                case.prefill,
                case.objective.name(),
                case.model,
                case.decompose,
                median(times),
                max,
                median(nodes),
                median(restarts)
            );
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
        let sets: Vec<String> = get("sets")
            .map(|v| v.split(',').map(str::to_string).collect())
            .unwrap_or_default();
        bench_solve(reps, &sets);
    }
    if all || args.iter().any(|a| a == "gen") {
        let cases = get("cases").unwrap_or_else(|| "all".to_string());
        bench_generate(&orders, limit, gen_reps, &cases);
    }
}
