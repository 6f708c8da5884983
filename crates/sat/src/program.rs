//! A DIMACS SAT program as `sat`'s solver (`solver=kissat`, `command=...`): it gets exactly
//! the CNF CaDiCaL would get (same rules, encoding and options, built by
//! [`crate::session::build`]) on its standard input, answers in the SAT competition's format
//! (`s SATISFIABLE` and `v ... 0` lines, or `s UNSATISFIABLE`), and its model is decoded by the
//! same [`Layout::decode`]. A program is not incremental: counting adds a blocking clause and
//! runs it again. The time limit kills it.
//!
//! Its clock: Kissat reports its process (CPU) time and, in its profile, the time it spent
//! parsing; their difference (10 ms resolution, as Kissat prints them) is the solve time.
//! Another program's solve time is its CPU time from the kernel (wait4), start-up and parsing
//! included. CaDiCaL's is the CPU time of its calls, so all three are CPU clocks.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sudoku_core::{Budget, CountEnd, CountOutcome, Grid, Limit, OtherSolution, Puzzle, Stats};

use crate::carve::outcome;
use crate::config::{Preset, SatConfig};
use crate::encode::{ClauseSink, Cnf, Layout};
use crate::outside::{Program, Resolved};
use crate::session::build;

/// How one run of the program ended.
enum Verdict {
    /// Satisfiable, with the model: `model[v]` is variable `v`'s value.
    Sat(Vec<bool>),
    Unsat,
    Stopped(Limit),
}

/// One run: its verdict and what it reported.
struct Ran {
    verdict: Verdict,
    /// The program's own solve time (Kissat's figures), else its CPU time (else its wall time).
    solve_time: Duration,
    conflicts: Option<u64>,
    /// Its CPU time (user and system, from the kernel).
    cpu: Duration,
}

/// Runs the program once on `cnf` (with `vars` variables).
fn run_once(
    prog: &Resolved,
    preset: Preset,
    cnf: &Cnf,
    vars: u32,
    deadline: Option<Instant>,
    conflicts: Option<u64>,
) -> Result<Ran, String> {
    let mut text = Vec::with_capacity(cnf.lits.len() * 6 + 32);
    cnf.write_dimacs(vars, &mut text)
        .map_err(|e| e.to_string())?;
    let mut cmd = Command::new(&prog.argv[0]);
    cmd.args(&prog.argv[1..]);
    if prog.kissat {
        match preset {
            Preset::Default => {}
            Preset::Sat => {
                cmd.arg("--sat");
            }
            Preset::Unsat => {
                cmd.arg("--unsat");
            }
        }
        if let Some(c) = conflicts {
            cmd.arg(format!("--conflicts={c}"));
        }
    } else if conflicts.is_some() {
        return Err(format!(
            "a node (conflict) limit cannot be given to `{}`; only a time limit",
            prog.name
        ));
    }
    let start = Instant::now();
    if deadline.is_some_and(|d| start >= d) {
        return Ok(Ran {
            verdict: Verdict::Stopped(Limit::Time),
            solve_time: Duration::ZERO,
            conflicts: None,
            cpu: Duration::ZERO,
        });
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: cannot start: {e}", prog.argv[0]))?;
    let mut stdin = child.stdin.take().expect("piped");
    // The formula goes in on one thread while the answer is read on another: a program may
    // write before it has read all its input, and neither pipe may fill up unread.
    std::thread::spawn(move || {
        // A program that exits early (an error) closes its input: its status says why.
        let _ = stdin.write_all(&text);
    });
    let mut stderr = child.stderr.take().expect("piped");
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let mut stdout = child.stdout.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut s = String::new();
        let r = stdout.read_to_string(&mut s).map(|_| s);
        let _ = tx.send(r);
    });
    let out = match deadline {
        Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
        None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
    };
    let out = match out {
        Ok(r) => r.map_err(|e| format!("{}: reading its output: {e}", prog.name))?,
        Err(_) => {
            // The deadline: kill it (its reader threads end with its pipes).
            let _ = child.kill();
            let (_, cpu) = reap(child).map_err(|e| format!("{}: {e}", prog.name))?;
            return Ok(Ran {
                verdict: Verdict::Stopped(Limit::Time),
                solve_time: start.elapsed(),
                conflicts: None,
                cpu,
            });
        }
    };
    let (status, cpu) = reap(child).map_err(|e| format!("{}: {e}", prog.name))?;
    let wall = start.elapsed();
    let report = parse_output(&out, vars).map_err(|e| format!("{}: {e}", prog.name))?;
    let verdict = match report.status {
        Some(v) => v,
        None if prog.kissat && conflicts.is_some() && status.code() == Some(0) => {
            Verdict::Stopped(Limit::Nodes)
        }
        None => {
            let err = errors.join().unwrap_or_default();
            let err = err.lines().last().unwrap_or("").trim().to_string();
            return Err(format!(
                "{}: no answer (`s SATISFIABLE` or `s UNSATISFIABLE`), {status}{}",
                prog.name,
                if err.is_empty() {
                    String::new()
                } else {
                    format!(": {err}")
                }
            ));
        }
    };
    let solve_time = match (report.process_time, report.parse_time) {
        (Some(total), Some(parse)) if prog.kissat => total.saturating_sub(parse),
        // Another program: its CPU time, start-up and parsing included (none on a platform
        // without wait4: its wall time).
        _ if cpu > Duration::ZERO => cpu,
        _ => wall,
    };
    Ok(Ran {
        verdict,
        solve_time,
        conflicts: report.conflicts,
        cpu,
    })
}

/// Waits for the program to end: its exit status and the CPU time it used (user and system).
#[cfg(unix)]
fn reap(child: std::process::Child) -> std::io::Result<(std::process::ExitStatus, Duration)> {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waits for our own child, writing through valid pointers. `child` is not
        // waited for by std afterwards (dropping a `Child` does not wait).
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Ok((
        std::process::ExitStatus::from_raw(status),
        time(usage.ru_utime) + time(usage.ru_stime),
    ))
}

/// Waits for the program to end (no CPU time on this platform).
#[cfg(not(unix))]
fn reap(mut child: std::process::Child) -> std::io::Result<(std::process::ExitStatus, Duration)> {
    Ok((child.wait()?, Duration::ZERO))
}

/// What a program printed.
struct Report {
    status: Option<Verdict>,
    conflicts: Option<u64>,
    process_time: Option<Duration>,
    parse_time: Option<Duration>,
}

/// Reads the SAT competition's output (and Kissat's `c` lines for its figures).
fn parse_output(out: &str, vars: u32) -> Result<Report, String> {
    let mut report = Report {
        status: None,
        conflicts: None,
        process_time: None,
        parse_time: None,
    };
    let mut sat = None;
    let mut model = vec![false; vars as usize + 1];
    let mut model_lines = 0;
    let seconds = |s: &str| s.parse::<f64>().ok().map(Duration::from_secs_f64);
    for line in out.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["s", "SATISFIABLE"] => sat = Some(true),
            ["s", "UNSATISFIABLE"] => sat = Some(false),
            ["v", lits @ ..] => {
                model_lines += 1;
                for w in lits {
                    let lit: i64 = w
                        .parse()
                        .map_err(|_| format!("`{w}` in a `v` line is not a literal"))?;
                    if lit.unsigned_abs() > u64::from(vars) {
                        return Err(format!(
                            "literal {lit} in its model: the formula has {vars} variables"
                        ));
                    }
                    if lit > 0 {
                        model[lit as usize] = true;
                    }
                }
            }
            ["c", "conflicts:", n, ..] => report.conflicts = n.parse().ok(),
            ["c", "process-time:", .., t, "seconds"] => report.process_time = seconds(t),
            ["c", t, _, "%", "parse"] => report.parse_time = seconds(t),
            _ => {}
        }
    }
    report.status = match sat {
        Some(true) if model_lines == 0 => {
            return Err("`s SATISFIABLE` without a model (`v` lines)".into())
        }
        Some(true) => Some(Verdict::Sat(model)),
        Some(false) => Some(Verdict::Unsat),
        None => None,
    };
    Ok(report)
}

/// What [`solve`] found: solutions in order, how the search ended, and the statistics.
pub(crate) struct Found {
    pub found: Vec<Grid>,
    pub end: CountEnd,
    pub stats: Stats,
}

/// The formula of `puzzle`, with `sat`'s statistics about it.
fn formula(
    puzzle: &Puzzle,
    cfg: &SatConfig,
    prog: &Resolved,
    deadline: Option<Instant>,
) -> Result<(Cnf, Layout, Stats), String> {
    let start = Instant::now();
    let mut cnf = Cnf::default();
    let built = build(puzzle, cfg, deadline, &mut cnf).map_err(|e| e.to_string())?;
    let layout = built.layout;
    let mut stats = Stats {
        build_time: Some(start.elapsed()),
        extra: vec![
            ("solver".into(), prog.name.clone()),
            ("encoding".into(), cfg.encoding.name().into()),
            ("preset".into(), cfg.preset.name().into()),
            ("variables".into(), layout.vars.to_string()),
            ("clauses".into(), layout.clauses.to_string()),
            ("open_cells".into(), layout.open_cells().to_string()),
            (
                "solve_clock".into(),
                if prog.kissat { "kissat" } else { "cpu" }.into(),
            ),
        ],
        ..Stats::default()
    };
    if let (Some(rules), Some(t)) = (cfg.logic, built.logic_time) {
        stats.extra.push(("logic".into(), rules.name().into()));
        stats
            .extra
            .push(("logic_s".into(), format!("{:.6}", t.as_secs_f64())));
    }
    if layout.infeasible {
        stats
            .extra
            .push(("infeasible_by".into(), built.infeasible_by.into()));
    }
    Ok((cnf, layout, stats))
}

/// A failed call: no answer, the reason in the statistics.
fn failed(why: String, start: Instant) -> Found {
    Found {
        found: Vec::new(),
        end: CountEnd::Exhausted(Limit::Nodes),
        stats: Stats {
            build_time: Some(start.elapsed()),
            error: Some(format!("sat: {why}")),
            ..Stats::default()
        },
    }
}

/// Finds up to `limit` solutions with the program (each found one blocked for the next run).
pub(crate) fn solve(
    program: &Program,
    puzzle: &Puzzle,
    cfg: &SatConfig,
    limit: u64,
    budget: &Budget,
) -> Found {
    let start = Instant::now();
    let deadline = budget.deadline(start);
    let prog = match program.resolve() {
        Ok(p) => p,
        Err(e) => return failed(e, start),
    };
    let (mut cnf, layout, mut stats) = match formula(puzzle, cfg, &prog, deadline) {
        Ok(f) => f,
        Err(e) => return failed(e, start),
    };
    let mut found = Vec::new();
    if layout.infeasible {
        return Found {
            found,
            end: CountEnd::Complete,
            stats,
        };
    }
    let (mut solve_time, mut conflicts, mut calls) = (Duration::ZERO, 0u64, 0u64);
    let mut cpu = Duration::ZERO;
    let end = loop {
        let left = budget.nodes.map(|max| max.saturating_sub(conflicts));
        if left == Some(0) {
            break CountEnd::Exhausted(Limit::Nodes);
        }
        calls += 1;
        let ran = match run_once(&prog, cfg.preset, &cnf, layout.vars, deadline, left) {
            Ok(r) => r,
            Err(e) => {
                let mut out = failed(e, start);
                out.stats.build_time = stats.build_time;
                return out;
            }
        };
        solve_time += ran.solve_time;
        cpu += ran.cpu;
        conflicts += ran.conflicts.unwrap_or(0);
        match ran.verdict {
            Verdict::Sat(model) => {
                let grid = layout.decode(puzzle.order(), |v| model[v as usize]);
                cnf.add_clause(&block(&layout, &grid));
                found.push(grid);
                if found.len() as u64 >= limit {
                    break CountEnd::LimitReached;
                }
            }
            Verdict::Unsat => break CountEnd::Complete,
            Verdict::Stopped(l) => break CountEnd::Exhausted(l),
        }
    };
    stats.nodes = conflicts;
    stats.solve_time = Some(solve_time);
    stats.child_cpu = Some(cpu);
    // The program's `s UNSATISFIABLE` (no solution, or none beyond those found) carries no
    // proof: the runner's judge checks it with a complete method of its own.
    stats.claims_unproven = true;
    stats
        .extra
        .push(("conflicts".into(), conflicts.to_string()));
    stats.extra.push(("solve_calls".into(), calls.to_string()));
    Found { found, end, stats }
}

/// The clause that excludes `grid`: some open cell differs from it.
pub(crate) fn block(layout: &Layout, grid: &Grid) -> Vec<i32> {
    (0..layout.fixed.len())
        .filter(|&c| layout.fixed[c] == 0)
        .filter_map(|c| layout.var(c, grid.get(c)))
        .map(|v| -v)
        .collect()
}

/// Carving's one-search check ([`crate::carve`]) with the program: the puzzle's CNF plus
/// "some removed cell is not its known digit", run once.
pub(crate) fn count_other(
    program: &Program,
    ask: OtherSolution<'_>,
    cfg: &SatConfig,
    budget: &Budget,
) -> CountOutcome {
    let start = Instant::now();
    let deadline = budget.deadline(start);
    let prepared = program
        .resolve()
        .and_then(|prog| formula(ask.puzzle, cfg, &prog, deadline).map(|f| (prog, f)));
    let (prog, (mut cnf, layout, mut stats)) = match prepared {
        Ok(p) => p,
        Err(e) => {
            let out = failed(e, start);
            return outcome(0, out.end, out.stats);
        }
    };
    let differs = crate::carve::differs(ask, &layout);
    if layout.infeasible || differs.is_empty() {
        return outcome(1, CountEnd::Complete, stats);
    }
    cnf.add_clause(&differs);
    match run_once(&prog, cfg.preset, &cnf, layout.vars, deadline, budget.nodes) {
        Ok(ran) => {
            stats.solve_time = Some(ran.solve_time);
            stats.child_cpu = Some(ran.cpu);
            stats.nodes = ran.conflicts.unwrap_or(0);
            stats.claims_unproven = true;
            match ran.verdict {
                Verdict::Unsat => outcome(1, CountEnd::Complete, stats),
                Verdict::Sat(_) => outcome(2, CountEnd::LimitReached, stats),
                Verdict::Stopped(l) => outcome(1, CountEnd::Exhausted(l), stats),
            }
        }
        Err(e) => {
            stats.error = Some(format!("sat: {e}"));
            outcome(0, CountEnd::Exhausted(Limit::Nodes), stats)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn competition_output_is_read() {
        let out = "c comment\ns SATISFIABLE\nv -1 2\nv 3 0\nc conflicts: 12 1.0 per second\n\
                   c           0.01   24.07 %  parse\n\
                   c process-time:                     0.25 seconds\n";
        let r = parse_output(out, 3).unwrap();
        let Some(Verdict::Sat(model)) = r.status else {
            panic!("expected a model")
        };
        assert_eq!(model, [false, false, true, true]);
        assert_eq!(r.conflicts, Some(12));
        assert_eq!(r.process_time, Some(Duration::from_millis(250)));
        assert_eq!(r.parse_time, Some(Duration::from_millis(10)));
        assert!(matches!(
            parse_output("s UNSATISFIABLE\n", 3).unwrap().status,
            Some(Verdict::Unsat)
        ));
        assert!(parse_output("s UNKNOWN\n", 3).unwrap().status.is_none());
        assert!(parse_output("s SATISFIABLE\n", 3).is_err());
        assert!(parse_output("s SATISFIABLE\nv 4 0\n", 3).is_err());
    }

    #[test]
    fn a_program_that_is_not_there_is_an_error() {
        let prog = Program::Command("/nonexistent/sat-solver".into())
            .resolve()
            .unwrap();
        let err = run_once(&prog, Preset::Default, &Cnf::default(), 0, None, None)
            .err()
            .unwrap();
        assert!(err.contains("cannot start"), "{err}");
    }
}
