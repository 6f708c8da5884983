//! MMCOL on its own problem: Latin square completion of quasigroups with holes, made as the QWH
//! generators make them (a random square by Jacobson and Matthews's chain, holes uniformly at
//! random), at the orders and shares of holes of Jin and Hao's benchmarks; beside plain TabuCol
//! on the same kernel. The runner's Latin squares become Sudokus and stop at side 16, hence this
//! probe; docs/notes/mmcol-peaks.md says how it was used.
//!
//! cargo run --release -p sudoku-meta --example mmcol_latin -- SIDE HOLE_SHARE COUNT SECONDS SEED [tabucol] [key=value ...]
//!
//! One line per square: side, holes, the method, solved or not, seconds to the answer (or the
//! limit), the fewest clashing pairs, tabu steps, generations, open cells after the
//! kernelization, and MMCOL's statistics (`key=value;…`, as the runner's `extra` column).

use std::time::{Duration, Instant};

use sudoku_core::{rng_from_seed, Budget, Params};
use sudoku_meta::mmcol::latin::quasigroup_with_holes;
use sudoku_meta::{solve_latin, tabucol_latin, MmcolConfig};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        return Err("usage: SIDE HOLE_SHARE COUNT SECONDS SEED [tabucol] [key=value ...]".into());
    }
    let num = |i: usize| -> Result<f64, String> {
        args[i]
            .parse::<f64>()
            .map_err(|e| format!("argument {}: {e}", i + 1))
    };
    let (side, share, count, secs, seed) = (
        num(0)? as usize,
        num(1)?,
        num(2)? as usize,
        num(3)?,
        num(4)? as u64,
    );
    let tabucol = args.get(5).is_some_and(|a| a == "tabucol");
    let mut params = Params::new();
    for kv in args.iter().skip(if tabucol { 6 } else { 5 }) {
        params.push_pair(kv).map_err(|e| e.to_string())?;
    }
    let cfg = MmcolConfig::from_params(&params).map_err(|e| e.to_string())?;
    let holes = (share * (side * side) as f64).round() as usize;
    let budget = Budget::time(Duration::from_secs_f64(secs));
    println!(
        "side,holes,instance,method,solved,seconds,best_cost,steps,generations,open_cells,extra"
    );
    for i in 0..count {
        let mut rng = rng_from_seed(seed.wrapping_mul(1000).wrapping_add(i as u64));
        let (square, _) = quasigroup_with_holes(side, holes, &mut rng);
        let mut rng = rng_from_seed(seed.wrapping_mul(1000).wrapping_add(500 + i as u64));
        let t = Instant::now();
        let run = if tabucol {
            tabucol_latin(&square, &cfg, &budget, &mut rng)
        } else {
            solve_latin(&square, &cfg, &budget, &mut rng)
        }
        .map_err(|e| e.to_string())?;
        let took = t.elapsed().as_secs_f64();
        println!(
            "{side},{holes},{i},{},{},{took:.2},{},{},{},{},{}",
            if tabucol { "tabucol" } else { "mmcol" },
            run.completion.is_some(),
            run.best_cost,
            run.steps,
            run.generations,
            run.open_cells,
            run.stats
                .extra
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";")
        );
    }
    Ok(())
}
