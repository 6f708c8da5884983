//! Runs `norvig` and `prop` (under each rule switch) over whole puzzle files and prints, per
//! file and method: median and mean µs per puzzle, mean nodes and guesses per puzzle, and the
//! share solved without guessing. Every answer is verified (outside the timed region).
//!
//! ```text
//! cargo run -p sudoku-prop --release --example bench_sets -- [DATASETS_DIR] [REPS]
//! ```
//! Each puzzle's time is the fastest of REPS runs (default 3), which filters out most of the
//! noise from other processes on a shared machine. Optional third and fourth arguments keep
//! only the methods and files whose names contain them (for profiling one case).

use std::path::PathBuf;
use std::time::Instant;

use sudoku_core::{
    format, rng_from_seed, verify_solution, Budget, Puzzle, Solver, Status, Variant,
};
use sudoku_prop::{Norvig, Prop, PropConfig};

const FILES: &[&str] = &[
    "norvig_top95.txt",
    "magictour_top1465.txt",
    "norvig_hardest.txt",
    "gecode_16x16.txt",
];

fn configs() -> Vec<(&'static str, Box<dyn Solver>)> {
    let prop = |locked_candidates, naked_pairs| -> Box<dyn Solver> {
        Box::new(Prop::new(PropConfig {
            locked_candidates,
            naked_pairs,
        }))
    };
    vec![
        ("norvig", Box::new(Norvig::new())),
        ("prop (default: lc)", prop(true, false)),
        ("prop singles only", prop(false, false)),
        ("prop + np", prop(false, true)),
        ("prop + lc + np", prop(true, true)),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/datasets"
        ))
    });
    let reps: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    println!("| file | method | puzzles | median µs | mean µs | mean nodes | mean guesses | solved without guessing |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let method_filter = args.get(3).cloned().unwrap_or_default();
    let file_filter = args.get(4).cloned().unwrap_or_default();
    for file in FILES.iter().filter(|f| f.contains(file_filter.as_str())) {
        let path = dir.join(file);
        let entries = match format::read_file(&path) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("skipping {file}: {e}");
                continue;
            }
        };
        let puzzles: Vec<Puzzle> = entries
            .into_iter()
            .map(|e| Puzzle::new(e.grid, Variant::Classic))
            .collect();
        for (name, mut solver) in configs()
            .into_iter()
            .filter(|(n, _)| n.contains(method_filter.as_str()))
        {
            let mut times = Vec::with_capacity(puzzles.len());
            let (mut nodes, mut guesses, mut no_guess) = (0u64, 0u64, 0usize);
            let mut rng = rng_from_seed(0);
            let budget = Budget::unlimited();
            for p in &puzzles {
                let mut best = f64::INFINITY;
                let mut last = None;
                for _ in 0..reps {
                    let t = Instant::now();
                    let out = solver.solve(p, &budget, &mut rng);
                    best = best.min(t.elapsed().as_secs_f64() * 1e6);
                    last = Some(out);
                }
                let Some(out) = last else { continue };
                match &out.status {
                    Status::Solved(g) => {
                        if let Err(e) = verify_solution(p, g) {
                            panic!("{name} gave a wrong answer on {file}: {e}");
                        }
                    }
                    other => panic!("{name} did not solve a puzzle of {file}: {other:?}"),
                }
                times.push(best);
                nodes += out.stats.nodes;
                guesses += out.stats.guesses;
                no_guess += usize::from(out.stats.guesses == 0);
            }
            let k = times.len().max(1) as f64;
            let mean = times.iter().sum::<f64>() / k;
            times.sort_by(f64::total_cmp);
            let median = if times.is_empty() {
                0.0
            } else if times.len() % 2 == 1 {
                times[times.len() / 2]
            } else {
                (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
            };
            println!(
                "| {file} | {name} | {} | {median:.1} | {mean:.1} | {:.1} | {:.1} | {:.1} % |",
                times.len(),
                nodes as f64 / k,
                guesses as f64 / k,
                100.0 * no_guess as f64 / k
            );
        }
    }
}
