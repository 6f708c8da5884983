//! Bench only: CPU µs per puzzle of `prop` (9×9 path), the crates.io `sudoku` crate and, when
//! built with `TDOKU_SRC` (see build.rs), tdoku, over the same files, first solution and
//! count ≤ 2. See README.md.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudoku::Sudoku;
use sudoku_core::{format, rng_from_seed, Budget, Count, Puzzle, Solver, Status, Variant};
use sudoku_prop::Prop;

/// Solves per puzzle and round in the warm mode; their mean is one measurement.
const REPS: u32 = 10;
/// Rounds (passes); the fastest counts.
const ROUNDS: usize = 5;

/// tdoku's solver, compiled by build.rs from a user-provided clone of its source.
#[cfg(tdoku)]
mod tdoku {
    use std::os::raw::c_char;

    extern "C" {
        fn TdokuSolverDpllTriadSimd(
            input: *const c_char,
            limit: usize,
            configuration: u32,
            solution: *mut c_char,
            num_guesses: *mut usize,
        ) -> usize;
    }

    /// A puzzle as tdoku reads it: 81 characters, `.` for an empty cell, then a NUL (which
    /// tells it this is not a pencil-mark puzzle); padded so that no vector load can pass
    /// the end.
    pub type Line = [u8; 96];

    pub fn line(text: &str) -> Line {
        let mut l = [0u8; 96];
        for (i, b) in text.bytes().take(81).enumerate() {
            l[i] = if b.is_ascii_digit() && b != b'0' {
                b
            } else {
                b'.'
            };
        }
        l
    }

    /// Solutions up to `limit` (the solution is written only for a limit of 1), and guesses.
    pub fn solve(input: &Line, limit: usize, solution: &mut [u8; 96]) -> (usize, usize) {
        let mut guesses = 0usize;
        // SAFETY: tdoku reads the 81 cells and byte 81 of `input` (96 bytes) and writes at
        // most 81 bytes of `solution` (96 bytes); both pointers are valid for those.
        let n = unsafe {
            TdokuSolverDpllTriadSimd(
                input.as_ptr().cast(),
                limit,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        (n, guesses)
    }
}

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

/// One solver under test: solves (or counts) puzzle `i`.
type Run<'a> = &'a mut dyn FnMut(usize);

/// Warm: per puzzle `i < n`, the fastest of `ROUNDS` timings of each solver, the solvers one
/// after the other on the same puzzle so that all see the same load on a shared machine.
fn warm(n: usize, solvers: &mut [Run]) -> Vec<Vec<f64>> {
    let mut t = vec![vec![f64::INFINITY; n]; solvers.len()];
    for _ in 0..ROUNDS {
        for i in 0..n {
            for (ts, f) in t.iter_mut().zip(solvers.iter_mut()) {
                ts[i] = ts[i].min(time(|| f(i)));
            }
        }
    }
    t
}

/// Cold: per puzzle `i < n`, the fastest of `ROUNDS` single solves, each round one pass over
/// the set by each solver in turn: every solve follows a different puzzle, as in a run over a
/// file, so no predictor has learnt it (wall clock: one solve is too short for the thread CPU
/// clock's system call).
fn cold(n: usize, solvers: &mut [Run]) -> Vec<Vec<f64>> {
    let mut t = vec![vec![f64::INFINITY; n]; solvers.len()];
    for _ in 0..ROUNDS {
        for (s, f) in solvers.iter_mut().enumerate() {
            for (i, t) in t[s].iter_mut().enumerate() {
                let t0 = Instant::now();
                f(i);
                *t = t.min(t0.elapsed().as_secs_f64() * 1e6);
            }
        }
    }
    t
}

/// Pass: mean CPU µs per puzzle of one whole pass over the set, the fastest of `ROUNDS`
/// passes, the solvers' passes alternating (the means weigh the hardest puzzles as a run over
/// the file does).
fn pass(n: usize, solvers: &mut [Run]) -> Vec<f64> {
    let mut t = vec![f64::INFINITY; solvers.len()];
    for _ in 0..ROUNDS {
        for (s, f) in solvers.iter_mut().enumerate() {
            let t0 = cpu();
            for i in 0..n {
                f(i);
            }
            t[s] = t[s].min((cpu() - t0).as_secs_f64() * 1e6 / n.max(1) as f64);
        }
    }
    t
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Minimal 9×9 puzzles per second, one thread: `n` grids filled by `prop-fill` and carved
/// minimal by sudoku-gen's carver with `prop` as the uniqueness checker (seeded), against the
/// `sudoku` crate's minimal puzzles without symmetry (`generate_with_symmetry`, its own
/// unseeded generator), each verified unique by the other solver outside the timed region.
fn carve(n: usize) {
    use sudoku::Symmetry as TheirSymmetry;
    use sudoku_core::{Generator, Order};
    use sudoku_gen::{make_puzzle, PropFill, PuzzleSpec, Symmetry};

    let order = Order::new(3).unwrap_or_else(|e| panic!("{e}"));
    let unlimited = Budget::unlimited();
    let mut rng = rng_from_seed(1);
    let mut fill = PropFill::default();
    let mut prop = Prop::default();
    let mut ours = Vec::with_capacity(n);
    let (mut clues, mut checks) = (0, 0);
    let t0 = cpu();
    for _ in 0..n {
        let grid = match fill
            .generate(order, Variant::Classic, &unlimited, &mut rng)
            .status
        {
            Status::Solved(g) => g,
            other => panic!("prop-fill did not fill: {other:?}"),
        };
        let carved = make_puzzle(
            &grid,
            Variant::Classic,
            PuzzleSpec::Minimal,
            Symmetry::None,
            &mut prop,
            &unlimited,
            &mut rng,
        )
        .unwrap_or_else(|e| panic!("carving: {e}"));
        clues += carved.clues;
        checks += carved.checks;
        ours.push(carved.givens);
    }
    let t_ours = (cpu() - t0).as_secs_f64();
    let t0 = cpu();
    let theirs: Vec<Sudoku> = (0..n)
        .map(|_| Sudoku::generate_with_symmetry(TheirSymmetry::None))
        .collect();
    let t_theirs = (cpu() - t0).as_secs_f64();
    for g in &ours {
        let line = format::to_line(g).unwrap_or_default();
        let s = Sudoku::from_str_line(&line).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            s.solutions_count_up_to(2),
            1,
            "a carved puzzle is not unique"
        );
    }
    for s in &theirs {
        let grid = format::parse_str(&s.to_str_line().to_string(), "sudoku")
            .unwrap_or_else(|e| panic!("{e}"))
            .remove(0)
            .grid;
        let p = Puzzle::new(grid, Variant::Classic);
        let c = prop
            .count(&p, Count::upto(2), &unlimited, &mut rng)
            .map(|c| c.count);
        assert_eq!(c, Ok(1), "a `sudoku` puzzle is not unique");
    }
    println!("| generator | puzzles | puzzles/s | mean clues | checks per puzzle |");
    println!("|---|---:|---:|---:|---:|");
    println!(
        "| prop-fill + carve minimal (checker prop) | {n} | {:.0} | {:.1} | {:.1} |",
        n as f64 / t_ours,
        clues as f64 / n as f64,
        checks as f64 / n as f64
    );
    println!(
        "| `sudoku` generate_with_symmetry(None) | {n} | {:.0} | {:.1} | |",
        n as f64 / t_theirs,
        theirs
            .iter()
            .map(|s| s.to_bytes().iter().filter(|&&b| b != 0).count())
            .sum::<usize>() as f64
            / n as f64
    );
}

/// Which timings to take (`--pass-only` skips the per-puzzle warm and cold medians;
/// `--prop-only` times `prop` alone, for instruction counts of it under valgrind).
struct Modes {
    per_puzzle: bool,
    others: bool,
}

fn main() {
    let mut modes = Modes {
        per_puzzle: true,
        others: true,
    };
    let mut files: Vec<PathBuf> = Vec::new();
    let mut carve_n: Option<usize> = None;
    for arg in std::env::args_os().skip(1) {
        if arg == "--pass-only" {
            modes.per_puzzle = false;
        } else if arg == "--prop-only" {
            modes.others = false;
        } else if arg == "--carve" {
            carve_n = Some(0);
        } else if carve_n == Some(0) {
            carve_n = Some(arg.to_string_lossy().parse().unwrap_or_else(|e| {
                panic!("--carve takes a number of puzzles: {e}");
            }));
        } else {
            files.push(PathBuf::from(arg));
        }
    }
    if let Some(n) = carve_n {
        carve(n.max(1));
        return;
    }
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
    let mut names = vec!["prop", "sudoku"];
    if cfg!(tdoku) {
        names.push("tdoku");
    } else {
        eprintln!(
            "tdoku not built: set TDOKU_SRC to a clone of its public source and rebuild \
             (TDOKU_SRC=/path/to/tdoku cargo run --release -p speed-bench); see README.md"
        );
    }
    let ratios: Vec<String> = names[1..].iter().map(|n| format!("prop / {n}")).collect();
    let mut head = vec!["set".to_string(), "puzzles".into(), "mode".into()];
    let mut timings = vec!["pass"];
    if modes.per_puzzle {
        timings.extend(["warm", "cold"]);
    }
    for t in &timings {
        head.extend(names.iter().map(|n| format!("{t}: {n} µs")));
        head.extend(ratios.iter().map(|r| format!("**{r}**")));
    }
    head.extend(names.iter().map(|n| format!("{n} guesses per puzzle")));
    head.push("prop solved without guessing".into());
    println!("| {} |", head.join(" | "));
    println!("|---|---:|---|{}", "---:|".repeat(head.len() - 3));
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
        let lines: Vec<String> = puzzles
            .iter()
            .map(|p| format::to_line(p.givens()).unwrap_or_default())
            .collect();
        let theirs: Vec<Sudoku> = lines
            .iter()
            .map(|line| Sudoku::from_str_line(line).unwrap_or_else(|e| panic!("{name}: {e}")))
            .collect();
        #[cfg(tdoku)]
        let td: Vec<tdoku::Line> = lines.iter().map(|l| tdoku::line(l)).collect();
        let mut prop = Prop::new(sudoku_prop::PropConfig {
            locked_candidates: std::env::var("LC").map_or(true, |v| v != "0"),
            ..Default::default()
        });
        let mut rng = rng_from_seed(0);
        let unlimited = Budget::unlimited();

        // Check every solver once, outside the timed region: the counts agree and a unique
        // puzzle has the same answer from each, which sudoku-core's verifier accepts.
        let mut no_guess = 0;
        // Per solver, guesses in all for the first solution and for the count.
        let mut guesses = vec![[0usize; 2]; names.len()];
        for (i, (p, s)) in puzzles.iter().zip(&theirs).enumerate() {
            let out = prop.solve(p, &unlimited, &mut rng);
            no_guess += usize::from(out.stats.guesses == 0);
            guesses[0][0] += out.stats.guesses as usize;
            let ours = match out.status {
                Status::Solved(g) => {
                    if let Err(e) = sudoku_core::verify_solution(p, &g) {
                        panic!("{name}: line {}: prop's answer is wrong: {e}", i + 1);
                    }
                    format::to_line(&g).unwrap_or_default()
                }
                other => panic!("{name}: prop did not solve: {other:?}"),
            };
            let counted = prop.count(p, Count::upto(2), &unlimited, &mut rng);
            guesses[0][1] += counted.as_ref().map_or(0, |c| c.stats.guesses as usize);
            let count = counted.map(|c| c.count);
            assert_eq!(
                count,
                Ok(s.solutions_count_up_to(2) as u64),
                "{name}: line {}: counts differ",
                i + 1
            );
            if count == Ok(1) {
                let their = s.some_solution().map(|g| g.to_str_line().to_string());
                assert_eq!(
                    their.as_deref(),
                    Some(ours.as_str()),
                    "{name}: line {}: answers differ",
                    i + 1
                );
            }
            #[cfg(tdoku)]
            {
                let mut sol = [0u8; 96];
                let (n, g) = tdoku::solve(&td[i], 1, &mut sol);
                guesses[2][0] += g;
                let (n2, g2) = tdoku::solve(&td[i], 2, &mut [0u8; 96]);
                guesses[2][1] += g2;
                assert_eq!(
                    Ok(n2 as u64),
                    count,
                    "{name}: line {}: tdoku's count",
                    i + 1
                );
                if count == Ok(1) {
                    assert_eq!(n, 1, "{name}: line {}: tdoku found nothing", i + 1);
                    assert_eq!(
                        &sol[..81],
                        ours.as_bytes(),
                        "{name}: line {}: tdoku's answer differs",
                        i + 1
                    );
                }
            }
        }
        // The `sudoku` crate does not report guesses.
        guesses[1] = [usize::MAX; 2];

        for (mode, count) in [("first", false), ("count ≤ 2", true)] {
            let mut ours = |i: usize| {
                let p = &puzzles[i];
                if count {
                    black_box(prop.count(p, Count::upto(2), &unlimited, &mut rng).ok());
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
            #[cfg(tdoku)]
            let mut tdk = |i: usize| {
                let mut sol = [0u8; 96];
                black_box(tdoku::solve(&td[i], if count { 2 } else { 1 }, &mut sol));
            };
            let mut solvers: Vec<Run> = vec![&mut ours];
            if modes.others {
                solvers.push(&mut other);
                #[cfg(tdoku)]
                solvers.push(&mut tdk);
            }
            let n = puzzles.len();
            let mut cells = vec![name.clone(), n.to_string(), mode.to_string()];
            let mut row = |t: Vec<f64>| {
                cells.extend(t.iter().map(|x| format!("{x:.1}")));
                cells.extend(t[1..].iter().map(|x| format!("**{:.2}**", t[0] / x)));
                // Only `prop` timed: blank cells keep the columns.
                cells.extend((t.len()..names.len()).flat_map(|_| [String::new(), String::new()]));
            };
            row(pass(n, &mut solvers));
            if modes.per_puzzle {
                row(warm(n, &mut solvers).into_iter().map(median).collect());
                row(cold(n, &mut solvers).into_iter().map(median).collect());
            }
            for g in &guesses {
                let g = g[usize::from(count)];
                cells.push(if g == usize::MAX {
                    String::new()
                } else {
                    format!("{:.1}", g as f64 / n.max(1) as f64)
                });
            }
            cells.push(if count {
                String::new()
            } else {
                format!("{:.1} %", 100.0 * no_guess as f64 / n.max(1) as f64)
            });
            println!("| {} |", cells.join(" | "));
        }
    }
}
