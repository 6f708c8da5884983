//! Bench only: median CPU µs per puzzle of `prop` (9×9 path) and the crates.io `sudoku`
//! crate over the same files, first solution and count ≤ 2. See README.md.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudoku::Sudoku;
use sudoku_core::{format, rng_from_seed, Budget, Puzzle, Solver, Status, Variant};
use sudoku_prop::Prop;

/// Solves per puzzle and round; their mean is one measurement.
const REPS: u32 = 10;
/// Rounds; the fastest counts.
const ROUNDS: usize = 5;

/// CPU time of this thread.
fn cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass by a valid, exclusive pointer.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Mean CPU µs of `REPS` runs of `f`.
fn time(mut f: impl FnMut()) -> f64 {
    let t0 = cpu();
    for _ in 0..REPS {
        f();
    }
    (cpu() - t0).as_secs_f64() * 1e6 / f64::from(REPS)
}

/// Per puzzle `i < n`, the fastest of `ROUNDS` timings of `ours(i)` and of `theirs(i)`, taken
/// back to back so that both see the same load on a shared machine.
fn paired(
    n: usize,
    mut ours: impl FnMut(usize),
    mut theirs: impl FnMut(usize),
) -> (Vec<f64>, Vec<f64>) {
    let (mut a, mut b) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
    for _ in 0..ROUNDS {
        for i in 0..n {
            a[i] = a[i].min(time(|| ours(i)));
            b[i] = b[i].min(time(|| theirs(i)));
        }
    }
    (a, b)
}

/// Per puzzle `i < n`, the fastest of `ROUNDS` single solves, each round one pass over the
/// set by one solver and then by the other: every solve follows a different puzzle, as in a
/// run over a file, so no predictor has learnt it (wall clock: one solve is too short for the
/// thread CPU clock's system call).
fn paired_cold(
    n: usize,
    mut ours: impl FnMut(usize),
    mut theirs: impl FnMut(usize),
) -> (Vec<f64>, Vec<f64>) {
    let (mut a, mut b) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
    for _ in 0..ROUNDS {
        for (times, f) in [
            (&mut a, &mut ours as &mut dyn FnMut(usize)),
            (&mut b, &mut theirs),
        ] {
            for (i, t) in times.iter_mut().enumerate() {
                let t0 = Instant::now();
                f(i);
                *t = t.min(t0.elapsed().as_secs_f64() * 1e6);
            }
        }
    }
    (a, b)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn main() {
    let mut files: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        let dir = sudoku_fixtures::public_dir().unwrap_or_default();
        files = [
            "magictour_top1465.txt",
            "norvig_top95.txt",
            "norvig_hardest.txt",
        ]
        .iter()
        .map(|f| dir.join(f))
        .collect();
    }
    println!(
        "| set | puzzles | mode | warm: prop µs | sudoku µs | prop / sudoku | cold: prop µs | sudoku µs | prop / sudoku | prop solved without guessing | prop guesses per puzzle |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for path in files {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let entries = match format::read_file(&path) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let puzzles: Vec<Puzzle> = entries
            .into_iter()
            .filter(|e| e.grid.order().size() == 9)
            .map(|e| Puzzle::new(e.grid, Variant::Classic))
            .collect();
        let theirs: Vec<Sudoku> = puzzles
            .iter()
            .map(|p| {
                let line = format::to_line(p.givens()).unwrap_or_default();
                Sudoku::from_str_line(&line).unwrap_or_else(|e| panic!("{name}: {e}"))
            })
            .collect();
        let mut prop = Prop::new(sudoku_prop::PropConfig {
            locked_candidates: std::env::var("LC").map_or(true, |v| v != "0"),
            ..Default::default()
        });
        let mut rng = rng_from_seed(0);
        let unlimited = Budget::unlimited();

        // Check both once, outside the timed region.
        let mut no_guess = 0;
        let mut guesses = 0;
        for (p, s) in puzzles.iter().zip(&theirs) {
            let out = prop.solve(p, &unlimited, &mut rng);
            no_guess += usize::from(out.stats.guesses == 0);
            guesses += out.stats.guesses;
            let ours = match out.status {
                Status::Solved(g) => format::to_line(&g).unwrap_or_default(),
                other => panic!("{name}: prop did not solve: {other:?}"),
            };
            let count = prop
                .count(p, 2, false, &unlimited, &mut rng)
                .map(|c| c.count);
            assert_eq!(
                count,
                Ok(s.solutions_count_up_to(2) as u64),
                "{name}: counts differ"
            );
            if count == Ok(1) {
                let their = s.some_solution().map(|g| g.to_str_line().to_string());
                assert_eq!(
                    their.as_deref(),
                    Some(ours.as_str()),
                    "{name}: answers differ"
                );
            }
        }

        // Each mode timed warm (one puzzle again and again) and cold (one pass over the set).
        let mut rows = Vec::new();
        for (mode, count) in [("first", false), ("count ≤ 2", true)] {
            let mut ours = |i: usize| {
                let p = &puzzles[i];
                if count {
                    black_box(prop.count(p, 2, false, &unlimited, &mut rng).ok());
                } else {
                    black_box(prop.solve(p, &unlimited, &mut rng));
                }
            };
            let mut other = |i: usize| {
                if count {
                    black_box(theirs[i].solutions_count_up_to(2));
                } else {
                    black_box(theirs[i].some_solution());
                }
            };
            let (a, b) = paired(puzzles.len(), &mut ours, &mut other);
            let warm = (median(a), median(b));
            let (a, b) = paired_cold(puzzles.len(), &mut ours, &mut other);
            rows.push((mode, warm, (median(a), median(b))));
        }
        let share = 100.0 * no_guess as f64 / puzzles.len().max(1) as f64;
        let guesses = guesses as f64 / puzzles.len().max(1) as f64;
        for (mode, (a, b), (c, d)) in rows {
            println!(
                "| {name} | {} | {mode} | {a:.1} | {b:.1} | **{:.2}** | {c:.1} | {d:.1} | **{:.2}** | {share:.1} % | {guesses:.1} |",
                puzzles.len(),
                a / b,
                c / d
            );
        }
    }
}
