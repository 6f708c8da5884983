//! The `external` method against a fake solver (tests/fixtures/fake_solver.py) that answers
//! right, wrong, slowly, crashes, prints garbage or too little, one process per puzzle and in
//! batch; then the adapters of scripts/adapters/ on the seed puzzles (MiniZinc only where it
//! is installed; AllDiff-LS's against a stand-in for its binary; Lloyd & Amos's ACS program
//! where `ACS_ORIGINAL_BIN` names it).

use std::path::{Path, PathBuf};
use std::time::Duration;

use sudoku_core::{
    rng_from_seed, verify_solution, Budget, Count, CountEnd, CountOutcome, Grid, Limit, Outcome,
    Params, Puzzle, Solver, Status, Variant,
};
use sudoku_fixtures::{seed_pairs, seeds_dir};

fn fake() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_solver.py")
}

fn adapter(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts/adapters")
        .join(file)
}

fn build(command: String, params: &[(&str, &str)]) -> Box<dyn Solver + Send> {
    let mut p = Params::new();
    p.set("command", command);
    for (k, v) in params {
        p.set(*k, *v);
    }
    let info = &sudoku_external::methods()[0];
    (info.build)(&p).expect("the parameters are valid")
}

fn fake_solver(mode: &str, params: &[(&str, &str)]) -> Box<dyn Solver + Send> {
    fake_solver_with("", mode, params)
}

/// The fake with `env` (`NAME='value' …`) set for it.
fn fake_solver_with(env: &str, mode: &str, params: &[(&str, &str)]) -> Box<dyn Solver + Send> {
    let solutions = seeds_dir().join("001_jump.solutions.txt");
    build(
        format!(
            "{env} python3 '{}' {mode} '{}'",
            fake().display(),
            solutions.display()
        ),
        params,
    )
}

/// The 9×9 puzzles of the JuMP notebook with their solutions.
fn jump() -> Vec<(Puzzle, Grid)> {
    seed_pairs("001_jump", Variant::Classic).expect("the JuMP notebook")
}

/// How the runner will read an outcome (its judge: an error first, then the verifier).
#[derive(Debug, PartialEq)]
enum Seen {
    Solved,
    Wrong,
    Infeasible,
    Timeout,
    Error,
}

fn seen(out: &Outcome, puzzle: &Puzzle) -> Seen {
    if out.stats.error.is_some() {
        return Seen::Error;
    }
    match &out.status {
        Status::Solved(g) if verify_solution(puzzle, g).is_ok() => Seen::Solved,
        Status::Solved(_) => Seen::Wrong,
        Status::Infeasible => Seen::Infeasible,
        Status::Exhausted {
            limit: Limit::Time, ..
        } => Seen::Timeout,
        // An external solver never reports `stuck`; if one did, it would be an error here.
        Status::Exhausted { .. } | Status::Stuck { .. } => Seen::Error,
    }
}

/// Solves as the runner does: the call, then what is read after it (`settle`).
fn solve(s: &mut dyn Solver, puzzle: &Puzzle, seconds: u64) -> Outcome {
    let mut out = s.solve(
        puzzle,
        &Budget::time(Duration::from_secs(seconds)),
        &mut rng_from_seed(1),
    );
    s.settle(&mut out.stats);
    out
}

fn count(s: &mut dyn Solver, puzzle: &Puzzle) -> CountOutcome {
    let unlimited = Budget::unlimited();
    let mut out = s
        .count(
            puzzle,
            Count::collecting(2),
            &unlimited,
            &mut rng_from_seed(1),
        )
        .expect("external solvers count");
    s.settle(&mut out.stats);
    out
}

/// The figures of the row's `extra` column.
fn extra(out: &Outcome) -> Vec<(&str, &str)> {
    out.stats
        .extra
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The message the row gets: the error, or the standard-error tail.
fn message(out: &Outcome) -> String {
    out.stats
        .error
        .clone()
        .or_else(|| out.stats.log.clone())
        .unwrap_or_default()
}

#[test]
fn right_answers_are_solved_in_both_formats_and_both_modes() {
    for (format, batch) in [("line", "false"), ("grid", "false"), ("line", "true")] {
        let mut s = fake_solver("right", &[("format", format), ("batch", batch)]);
        for (puzzle, solution) in jump() {
            let out = solve(&mut *s, &puzzle, 60);
            assert_eq!(seen(&out, &puzzle), Seen::Solved, "{format} {batch}");
            assert_eq!(out.status, Status::Solved(solution));
            assert!(out.stats.error.is_none() && out.stats.child_cpu.is_some());
        }
    }
}

#[test]
fn a_child_cpu_time_is_measured_per_puzzle() {
    let (puzzle, _) = &jump()[0];
    let out = solve(&mut *fake_solver("right", &[]), puzzle, 60);
    // Starting Python alone costs CPU time; the runner's own thread would see none of it.
    assert!(out.stats.child_cpu.unwrap_or_default() > Duration::ZERO);
}

#[test]
fn figures_named_like_an_effort_column_fill_it() {
    let (puzzle, _) = &jump()[0];
    let out = solve(&mut *fake_solver("right", &[]), puzzle, 60);
    // `# stats nodes=3 iterations=x speed=fast`: a whole number fills its column, the rest
    // stays in extra only.
    assert_eq!((out.stats.nodes, out.stats.iterations), (3, 0));
    let has = |k: &str| out.stats.extra.iter().any(|(key, _)| key == k);
    assert!(has("nodes") && has("speed"), "{:?}", out.stats.extra);
}

#[test]
fn misbehaviour_becomes_the_right_status_with_the_stderr_tail() {
    let (puzzle, _) = &jump()[0];
    let cases: &[(&str, &str, Seen, &str)] = &[
        ("wrong", "line", Seen::Wrong, ""),
        // `sh -c` reports the signal of the command it ran as its own exit status.
        ("crash", "line", Seen::Error, "signal 11"),
        ("fail", "line", Seen::Error, "exited with status 2"),
        (
            "garbage",
            "line",
            Seen::Error,
            "malformed answer `hello world`",
        ),
        ("short", "line", Seen::Error, "malformed answer"),
        ("short", "grid", Seen::Error, "in the middle of an answer"),
        ("silent", "line", Seen::Error, "without answering"),
    ];
    for batch in ["false", "true"] {
        for (mode, format, status, says) in cases {
            let mut s = fake_solver(mode, &[("format", format), ("batch", batch)]);
            let out = solve(&mut *s, puzzle, 60);
            let msg = message(&out);
            assert_eq!(
                &seen(&out, puzzle),
                status,
                "{mode} {format} batch={batch}: {msg}"
            );
            assert!(msg.contains(says), "{mode} batch={batch}: {msg}");
            if *status == Seen::Error {
                assert!(
                    msg.contains(&format!("stderr: fake: {mode} on puzzle 0")),
                    "{mode} batch={batch}: {msg}"
                );
            }
        }
    }
}

/// Is `pid` gone (or a zombie waiting for its reaper)?
fn dead(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn a_slow_solver_is_killed_at_the_limit_with_its_children() {
    let (puzzle, _) = &jump()[0];
    for batch in ["false", "true"] {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("child.pid");
        let env = format!("FAKE_PIDFILE='{}'", pidfile.display());
        let mut s = fake_solver_with(&env, "slow", &[("batch", batch)]);
        // A loaded machine may take more than a second to start Python: the limit grows until
        // the fake has started its child before it.
        let mut child = None;
        for seconds in [1, 4, 16] {
            let out = solve(&mut *s, puzzle, seconds);
            assert_eq!(seen(&out, puzzle), Seen::Timeout, "batch={batch}");
            child = std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|t| t.trim().parse::<i32>().ok());
            if child.is_some() {
                assert!(message(&out).contains("fake: slow on puzzle 0"));
                break;
            }
        }
        let child = child.expect("the fake started its child within 16 s");
        // The kill is done when solve returns; the reaper of the orphan may take a moment.
        let gone = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(50));
            dead(child)
        });
        assert!(gone, "batch={batch}: the fake's child {child} survived");
    }
}

#[test]
fn a_batch_process_is_kept_and_restarted_after_a_failure() {
    let pairs = jump();
    let mut s = fake_solver("crash-second", &[("batch", "true")]);
    let mut seq = Vec::new();
    for (puzzle, _) in pairs.iter().take(4) {
        let out = solve(&mut *s, puzzle, 60);
        let process = out.stats.extra.iter().find(|(k, _)| k == "process");
        seq.push((seen(&out, puzzle), process.map(|(_, v)| v.clone())));
    }
    let started = || Some("started".to_string());
    assert_eq!(
        seq,
        vec![
            (Seen::Solved, started()),
            (Seen::Error, Some("kept".to_string())),
            (Seen::Solved, started()),
            (Seen::Error, Some("kept".to_string())),
        ]
    );
}

/// Each batch trial's message and the `process` figure of its `extra`.
fn batch_sequence(
    s: &mut dyn Solver,
    n: usize,
    between: impl Fn(usize),
) -> Vec<(Seen, String, String)> {
    jump()
        .iter()
        .take(n)
        .enumerate()
        .map(|(k, (puzzle, _))| {
            between(k);
            let out = solve(s, puzzle, 60);
            let process = out.stats.extra.iter().find(|(k, _)| k == "process");
            (
                seen(&out, puzzle),
                process.map(|(_, v)| v.clone()).unwrap_or_default(),
                message(&out),
            )
        })
        .collect()
}

#[test]
fn an_answer_printed_twice_is_reported_and_the_process_replaced() {
    // The fake writes both copies at once, so the copy is there when the answer is read: the
    // trial is an error naming it, and the next puzzle goes to a new process (which does the
    // same).
    let mut s = fake_solver("twice", &[("batch", "true")]);
    let seq = batch_sequence(&mut *s, 2, |_| {});
    for (k, (seen, process, text)) in seq.iter().enumerate() {
        let label = if k == 0 { "started" } else { "replaced" };
        assert_eq!((seen, process.as_str()), (&Seen::Error, label), "{seq:?}");
        assert!(text.contains("more output after the answer: `"), "{text}");
    }
}

/// Output after the answer that comes once the answer was settled, before the next puzzle:
/// the trial that finds it is an error that quotes it (its puzzle is not asked), and the next
/// puzzle goes to a new process.
#[test]
fn output_out_of_turn_after_the_answer_was_settled_is_an_error_of_the_next_trial() {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("printed");
    let env = format!("FAKE_MARKFILE='{}'", mark.display());
    let mut s = fake_solver_with(&env, "late", &[("batch", "true")]);
    let seq = batch_sequence(&mut *s, 3, |k| {
        if k == 1 {
            // The fake prints its stray line 0.2 s after its first answer, then marks it.
            let printed = (0..600).any(|_| {
                std::thread::sleep(Duration::from_millis(50));
                mark.exists()
            });
            assert!(printed, "the fake printed its stray line within 30 s");
        }
    });
    assert_eq!(
        (&seq[0].0, seq[0].1.as_str()),
        (&Seen::Solved, "started"),
        "{seq:?}"
    );
    let (seen1, process1, text1) = &seq[1];
    assert_eq!(
        (seen1, process1.as_str()),
        (&Seen::Error, "replaced"),
        "{seq:?}"
    );
    assert!(
        text1.contains("printed `late stray line` out of turn, after its previous answer"),
        "{text1}"
    );
    assert!(!text1.contains("stderr:"), "{text1}");
    assert_eq!(
        (&seq[2].0, seq[2].1.as_str()),
        (&Seen::Solved, "started"),
        "{seq:?}"
    );
}

/// A program that answers `unknown` long before its time limit: the status is the budget's,
/// and the message says that the program gave up, and when.
#[test]
fn a_program_that_gives_up_early_is_said_to_have_given_up() {
    let (puzzle, _) = &jump()[0];
    for batch in ["false", "true"] {
        let mut s = build(
            "while read -r line; do echo unknown; done".into(),
            &[("batch", batch)],
        );
        let out = solve(&mut *s, puzzle, 20);
        assert_eq!(seen(&out, puzzle), Seen::Timeout, "{out:?}");
        let log = out.stats.log.clone().unwrap_or_default();
        assert!(
            log.starts_with("gave up: the solver answered `unknown` after ")
                && log.ends_with(" ms, of a time limit of 20.00 s"),
            "batch={batch}: {log}"
        );
    }
}

#[test]
fn infeasible_claims_counts_and_bad_commands() {
    let (puzzle, solution) = &jump()[0];
    let mut s = fake_solver("right", &[]);
    // Givens the fake's solutions file cannot match.
    let mut givens = puzzle.givens().clone();
    let free = (0..givens.cells().len())
        .find(|&i| givens.get(i) == 0)
        .unwrap();
    givens.set(free, solution.get(free) % 9 + 1);
    let other = Puzzle::new(givens, Variant::Classic);
    assert_eq!(seen(&solve(&mut *s, &other, 60), &other), Seen::Infeasible);

    let c = count(&mut *s, puzzle);
    assert_eq!((c.count, c.end), (1, CountEnd::Complete));
    assert_eq!(c.solutions, vec![solution.clone()]);

    let mut missing = build("no-such-solver-on-this-machine".into(), &[]);
    let out = solve(&mut *missing, puzzle, 60);
    assert_eq!(seen(&out, puzzle), Seen::Error);
    assert!(message(&out).contains("exited with status 127"));
}

#[test]
fn parameters_are_checked() {
    let info = &sudoku_external::methods()[0];
    let mut p = Params::new();
    assert!((info.build)(&p).is_err(), "a command is required");
    p.set("command", "cat").set("name", "two words");
    assert!((info.build)(&p).is_err(), "a label has no spaces");
    p.set("name", "mine");
    assert!((info.build)(&p).is_ok());
    assert_eq!(p.shown(), "name=mine");
    p.set("format", "xml");
    assert!((info.build)(&p).is_err());
}

#[test]
fn the_cpsat_adapter_solves_proves_and_counts() {
    if !python_imports("ortools.sat.python.cp_model") {
        sudoku_fixtures::skip("the_cpsat_adapter_solves_proves_and_counts", "OR-Tools is not installed (python3 -m pip install -r scripts/adapters/requirements.txt), so the CP-SAT adapter is not tested");
        return;
    }
    check_adapter("cpsat.py", &[("name", "cpsat")]);
    // CP-SAT's own figures reach the row, and the worker count is honoured.
    let (puzzle, _) = &jump()[0];
    let mut s = build(
        format!("python3 '{}' --workers 2", adapter("cpsat.py").display()),
        &[],
    );
    let out = solve(&mut *s, puzzle, 120);
    assert_eq!(seen(&out, puzzle), Seen::Solved);
    let extra = extra(&out);
    assert!(extra.contains(&("workers", "2")), "{extra:?}");
    assert!(extra.iter().any(|&(k, _)| k == "conflicts"), "{extra:?}");
    // A bad option is the adapter's clear error, not a silent default.
    let mut bad = build(
        format!("python3 '{}' --workers 0", adapter("cpsat.py").display()),
        &[],
    );
    let out = solve(&mut *bad, puzzle, 60);
    assert_eq!(seen(&out, puzzle), Seen::Error);
    assert!(
        message(&out).contains("--workers must be at least 1"),
        "{}",
        message(&out)
    );
}

/// Every adapter solves, proves infeasible and counts like `prop` would.
#[test]
fn the_alldiff_ls_adapter_converts_both_ways_and_says_how_to_build_it() {
    // A stand-in for the Sudoku-LS binary (which no package registry carries): it checks the
    // command line and the input format the adapter writes, and prints what Sudoku-LS prints.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bin = dir.path().join("sudoku-ls");
    let stand_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_sudoku_ls.py");
    std::fs::write(
        &bin,
        format!("#!/bin/sh\nexec python3 '{}' \"$@\"\n", stand_in.display()),
    )
    .expect("the stand-in is written");
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let command = |binary: &Path| {
        format!(
            "python3 '{}' --binary '{}'",
            adapter("alldiff_ls.py").display(),
            binary.display()
        )
    };
    for (format, batch) in [("line", "true"), ("grid", "false")] {
        let mut s = build(command(&bin), &[("format", format), ("batch", batch)]);
        for (puzzle, solution) in jump() {
            let out = solve(&mut *s, &puzzle, 60);
            assert_eq!(out.status, Status::Solved(solution), "{format}: {out:?}");
        }
    }
    let (puzzle, _) = jump().remove(0);
    // A run that ends without a solution is `unknown`: no answer, and no error.
    let mut gives_up = build(
        format!("FAKE_SUDOKU_LS_GIVE_UP=1 {}", command(&bin)),
        &[("format", "grid")],
    );
    let out = solve(&mut *gives_up, &puzzle, 60);
    assert!(out.stats.error.is_none(), "{out:?}");
    assert!(matches!(out.status, Status::Exhausted { .. }), "{out:?}");
    // Without the binary: an error that says how to build it.
    let mut missing = build(command(&dir.path().join("none")), &[("format", "grid")]);
    let out = solve(&mut *missing, &puzzle, 60);
    let error = out.stats.error.expect("a missing binary is an error");
    assert!(
        error.contains("Sudoku-LS not found") && error.contains("g++"),
        "{error}"
    );
    // Sudoku-X is not Sudoku-LS's: a clear error.
    let mut s = build(command(&bin), &[("format", "grid")]);
    refuses_sudoku_x(&mut *s);
}

/// Lloyd & Amos's own ACS program (built by hand from its GitHub source) through its adapter,
/// where `ACS_ORIGINAL_BIN` names the binary: a 9×9 and a 25×25 puzzle solved, with the
/// figures of its output in `extra`. Without the binary the adapter's hint is checked and the
/// rest is skipped.
#[test]
fn the_acs_original_adapter_solves_with_the_authors_program_where_built() {
    let script = adapter("acs_original.py");
    let missing = std::process::Command::new("python3")
        .arg(&script)
        .args(["--binary", "/nonexistent/sudokusolver"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("python3 runs");
    let hint = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(3), "{hint}");
    assert!(
        hint.contains("git clone https://github.com/huwlloyd-mmu/sudoku_acs")
            && hint.contains("ACS_ORIGINAL_BIN"),
        "{hint}"
    );
    let binary = std::env::var("ACS_ORIGINAL_BIN").unwrap_or_default();
    if binary.is_empty() || !Path::new(&binary).is_file() {
        sudoku_fixtures::skip(
            "the_acs_original_adapter_solves_with_the_authors_program_where_built",
            &format!("ACS_ORIGINAL_BIN does not name the authors' ACS program ({hint})"),
        );
        return;
    }
    let mut s = build(
        format!("python3 '{}'", script.display()),
        &[("format", "grid"), ("name", "acs-original")],
    );
    for (puzzle, solution) in jump() {
        let out = solve(&mut *s, &puzzle, 60);
        assert_eq!(out.status, Status::Solved(solution), "{out:?}");
    }
    // A Lewis 25×25 puzzle at 45 % givens (instance 10), which the ants must finish: the
    // givens fix 300 of its 625 cells.
    let file = sudoku_fixtures::public_dir()
        .expect("datasets/public")
        .join("lewis-25x25/lewis_25x25_f045.txt");
    let entry = sudoku_core::format::read_file(&file)
        .expect("the Lewis 25x25 set")
        .swap_remove(10);
    let puzzle = Puzzle::new(entry.grid, Variant::Classic);
    let out = solve(&mut *s, &puzzle, 120);
    assert_eq!(seen(&out, &puzzle), Seen::Solved, "{out:?}");
    let extra = extra(&out);
    assert!(extra.contains(&("initial_fixed", "300")), "{extra:?}");
    assert!(extra.iter().any(|&(k, _)| k == "acs_time"), "{extra:?}");
}

fn check_adapter(file: &str, params: &[(&str, &str)]) {
    let command = format!("python3 '{}'", adapter(file).display());
    for (format, batch) in [("line", "true"), ("grid", "false")] {
        let mut ps = params.to_vec();
        ps.extend([("format", format), ("batch", batch)]);
        let mut s = build(command.clone(), &ps);
        for (stem, variant) in [
            ("001_jump", Variant::Classic),
            ("000_unicamp_ilp.diagonal", Variant::Diagonal),
        ] {
            for (puzzle, solution) in seed_pairs(stem, variant).unwrap() {
                let out = solve(&mut *s, &puzzle, 120);
                assert_eq!(seen(&out, &puzzle), Seen::Solved, "{file} {stem}: {out:?}");
                // The empty Sudoku-X grid has many solutions; the others have one.
                if puzzle.givens().filled() > 0 {
                    assert_eq!(out.status, Status::Solved(solution));
                }
            }
        }
        // Two 1s in the first row.
        let mut givens = Grid::empty(sudoku_core::Order::new(3).unwrap());
        givens.set(0, 1);
        givens.set(1, 1);
        let bad = Puzzle::new(givens, Variant::Classic);
        assert_eq!(seen(&solve(&mut *s, &bad, 120), &bad), Seen::Infeasible);
        for (puzzle, _) in seed_pairs("000_unicamp_ilp.multiple", Variant::Classic).unwrap() {
            let c = count(&mut *s, &puzzle);
            assert_eq!((c.count, c.end), (2, CountEnd::LimitReached), "{file}");
            assert!(c
                .solutions
                .iter()
                .all(|g| verify_solution(&puzzle, g).is_ok()));
        }
    }
}

#[test]
fn the_glpk_adapter_solves_and_proves() {
    if !python_imports("swiglpk") {
        sudoku_fixtures::skip("the_glpk_adapter_solves_and_proves", "swiglpk is not installed (python3 -m pip install -r scripts/adapters/requirements.txt), so the GLPK adapter is not tested");
        return;
    }
    let mut s = build(
        format!("python3 '{}'", adapter("glpk.py").display()),
        &[("batch", "true"), ("format", "grid")],
    );
    for (stem, variant) in [
        ("001_jump", Variant::Classic),
        ("000_unicamp_ilp.diagonal", Variant::Diagonal),
    ] {
        for (puzzle, solution) in seed_pairs(stem, variant).unwrap() {
            let out = solve(&mut *s, &puzzle, 120);
            assert_eq!(seen(&out, &puzzle), Seen::Solved, "{stem}: {out:?}");
            if puzzle.givens().filled() > 0 {
                assert_eq!(out.status, Status::Solved(solution));
            }
            assert!(out.stats.extra.iter().any(|(k, _)| k == "solve_time"));
        }
    }
    // Two 1s in the first row: GLPK's LP relaxation is already infeasible.
    let mut givens = Grid::empty(sudoku_core::Order::new(3).unwrap());
    givens.set(0, 1);
    givens.set(1, 1);
    let bad = Puzzle::new(givens, Variant::Classic);
    assert_eq!(seen(&solve(&mut *s, &bad, 120), &bad), Seen::Infeasible);
}

#[test]
fn the_python_adapter_solves_proves_and_counts() {
    check_adapter("python_solver.py", &[("name", "python")]);
}

#[test]
fn the_kissat_adapter_solves_proves_and_counts() {
    // The adapter finds kissat on PATH, through SUDOKU_KISSAT or in the passagemath-kissat
    // package; it says which is missing with status 3, which is how a machine without it is
    // told apart.
    let probe = std::process::Command::new("python3")
        .arg(adapter("kissat.py"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("python3 runs");
    if probe.status.code() == Some(3) {
        sudoku_fixtures::skip(
            "the_kissat_adapter_solves_proves_and_counts",
            &format!("kissat is not installed (python3 -m pip install -r scripts/adapters/requirements.txt), so the Kissat adapter is not tested: {}", String::from_utf8_lossy(&probe.stderr).trim()),
        );
        return;
    }
    check_adapter("kissat.py", &[("name", "kissat")]);
    let (puzzle, _) = &jump()[0];
    let mut s = build(format!("python3 '{}'", adapter("kissat.py").display()), &[]);
    let out = solve(&mut *s, puzzle, 120);
    assert_eq!(seen(&out, puzzle), Seen::Solved);
    let keys: Vec<&str> = out.stats.extra.iter().map(|(k, _)| k.as_str()).collect();
    for k in ["variables", "clauses", "conflicts"] {
        assert!(keys.contains(&k), "{keys:?}");
    }
}

#[test]
fn the_minizinc_adapter_solves_proves_and_counts() {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("minizinc").is_file()));
    if !found {
        sudoku_fixtures::skip("the_minizinc_adapter_solves_proves_and_counts", "MiniZinc is not installed (apt-get install minizinc flatzinc), so the MiniZinc adapter is not tested");
        return;
    }
    check_adapter("minizinc.py", &[("name", "minizinc-gecode")]);
    // Gecode's own figures reach the row.
    let (puzzle, _) = &jump()[0];
    let mut s = build(
        format!("python3 '{}'", adapter("minizinc.py").display()),
        &[],
    );
    let out = solve(&mut *s, puzzle, 120);
    let keys: Vec<&str> = out.stats.extra.iter().map(|(k, _)| k.as_str()).collect();
    assert!(
        keys.contains(&"nodes") && keys.contains(&"solveTime"),
        "{keys:?}"
    );
}

/// Norvig's own sudoku.py through scripts/adapters/norvig_original.py: where the user has his
/// file (NORVIG_SUDOKU_PY), it solves the 9×9 seed puzzles with his search counted in `extra`,
/// proves contradictory givens infeasible, and loads his Python 2 form too; without it, the
/// error says where to download it.
#[test]
fn the_norvig_adapter_runs_his_code_or_says_where_to_get_it() {
    let command = |module: &str| {
        format!(
            "python3 '{}' --module '{module}'",
            adapter("norvig_original.py").display()
        )
    };
    let (puzzle, solution) = jump().remove(0);
    let mut missing = build(command("/nonexistent/sudoku.py"), &[]);
    let error = solve(&mut *missing, &puzzle, 60)
        .stats
        .error
        .expect("a missing file is an error");
    assert!(
        error.contains("norvig.com/sudoku.py") && error.contains("NORVIG_SUDOKU_PY"),
        "{error}"
    );
    let Some(module) = std::env::var_os("NORVIG_SUDOKU_PY").filter(|p| Path::new(p).is_file())
    else {
        sudoku_fixtures::skip("the_norvig_adapter_runs_his_code_or_says_where_to_get_it", "NORVIG_SUDOKU_PY does not name Norvig's sudoku.py (download it from norvig.com/sudoku.py), so his solver is not run");
        return;
    };
    let module = module.to_string_lossy().into_owned();
    for (format, batch) in [("line", "true"), ("grid", "false")] {
        let mut s = build(command(&module), &[("format", format), ("batch", batch)]);
        for (puzzle, solution) in jump() {
            let out = solve(&mut *s, &puzzle, 120);
            assert_eq!(out.status, Status::Solved(solution), "{format}: {out:?}");
            let keys: Vec<&str> = out.stats.extra.iter().map(|(k, _)| k.as_str()).collect();
            for k in ["nodes", "guesses", "assigns"] {
                assert!(keys.contains(&k), "{keys:?}");
            }
        }
        let mut givens = Grid::empty(sudoku_core::Order::new(3).unwrap());
        givens.set(0, 1);
        givens.set(1, 1);
        let bad = Puzzle::new(givens, Variant::Classic);
        assert_eq!(seen(&solve(&mut *s, &bad, 120), &bad), Seen::Infeasible);
    }
    // His norvig.com file is Python 2: a helper Python 3 cannot compile is skipped, not fatal.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let py2 = dir.path().join("sudoku.py");
    let mut text = std::fs::read_to_string(&module).expect("his file reads");
    text.push_str("\ndef shown(values):\n    print 'python 2 only'\n");
    std::fs::write(&py2, text).expect("the copy is written");
    let mut s = build(command(&py2.to_string_lossy()), &[]);
    assert_eq!(
        solve(&mut *s, &puzzle, 120).status,
        Status::Solved(solution)
    );
    // Sudoku-X is not his.
    refuses_sudoku_x(&mut *s);
}

/// The C transcription of Lewis's simulated annealing through scripts/adapters/lewis_sa.py
/// (compiled with cc on first use): it solves the 9×9 seed puzzles in both formats with its
/// figures in `extra`, answers `unknown` (no error) at its cut-off, and refuses Sudoku-X.
#[test]
fn the_lewis_sa_transcription_solves_easy_puzzles() {
    let has_cc = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("cc").is_file()));
    if !has_cc {
        sudoku_fixtures::skip(
            "the_lewis_sa_transcription_solves_easy_puzzles",
            "no C compiler (cc), so Lewis's SA transcription is not built",
        );
        return;
    }
    let command = |extra: &str| format!("python3 '{}' {extra}", adapter("lewis_sa.py").display());
    for (format, batch) in [("line", "true"), ("grid", "false")] {
        let mut s = build(command(""), &[("format", format), ("batch", batch)]);
        for (puzzle, solution) in jump() {
            let out = solve(&mut *s, &puzzle, 120);
            assert_eq!(out.status, Status::Solved(solution), "{format}: {out:?}");
            let keys: Vec<&str> = out.stats.extra.iter().map(|(k, _)| k.as_str()).collect();
            for k in ["iterations", "chains", "reheats", "t0"] {
                assert!(keys.contains(&k), "{keys:?}");
            }
        }
    }
    // One move is far below what any of these puzzles needs: `unknown`, not an error.
    let (puzzle, _) = jump().remove(0);
    let mut cut = build(command("--max-iterations 1"), &[]);
    let out = solve(&mut *cut, &puzzle, 60);
    assert!(out.stats.error.is_none(), "{out:?}");
    assert_eq!(seen(&out, &puzzle), Seen::Timeout);
    refuses_sudoku_x(&mut *cut);
}

/// tdoku through scripts/adapters/tdoku.sh, where it is built (TDOKU_BIN, or target/peers/tdoku
/// from `TDOKU_SRC=… scripts/adapters/tdoku/build.sh`): it solves and counts the 9×9 seed
/// puzzles with its own clock in `solve_ms`, and refuses Sudoku-X. Elsewhere it says how to
/// build it.
#[test]
fn the_tdoku_adapter_solves_and_counts_with_its_own_clock_where_built() {
    let script = adapter("tdoku.sh");
    let built = std::env::var_os("TDOKU_BIN").is_some()
        || Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/peers/tdoku")
            .is_file();
    if !built {
        let mut s = build(format!("'{}'", script.display()), &[]);
        let error = solve(&mut *s, &jump()[0].0, 60)
            .stats
            .error
            .expect("an error");
        assert!(error.contains("tdoku not built"), "{error}");
        sudoku_fixtures::skip(
            "the_tdoku_adapter_solves_and_counts_with_its_own_clock_where_built",
            "tdoku is not built (scripts/adapters/tdoku/build.sh)",
        );
        return;
    }
    let mut s = build(format!("'{}'", script.display()), &[("batch", "true")]);
    for (puzzle, solution) in jump() {
        let out = solve(&mut *s, &puzzle, 60);
        assert_eq!(out.status, Status::Solved(solution), "{out:?}");
        assert!(out.stats.solve_time.is_some() && out.stats.child_cpu.is_some());
        assert!(extra(&out).iter().any(|(k, _)| *k == "guesses"));
    }
    let mut c = build(format!("'{}'", script.display()), &[("batch", "true")]);
    for (puzzle, _) in jump() {
        let out = count(&mut *c, &puzzle);
        assert_eq!((out.count, out.solutions.len()), (1, 1));
    }
    let several = &sudoku_fixtures::seed_puzzles("000_unicamp_ilp.multiple.txt", Variant::Classic)
        .unwrap()[0];
    let out = count(&mut *c, several);
    assert_eq!((out.count, out.solutions.len()), (2, 2));
    refuses_sudoku_x(&mut *s);
}

/// An adapter for classic Sudoku only answers a Sudoku-X puzzle with an error that says so.
fn refuses_sudoku_x(s: &mut dyn Solver) {
    let (x, _) = seed_pairs("000_unicamp_ilp.diagonal", Variant::Diagonal)
        .unwrap()
        .remove(0);
    let error = solve(s, &x, 60).stats.error.expect("an error");
    assert!(error.contains("classic"), "{error}");
}

/// Can python3 import `module` (an adapter's optional dependency)?
fn python_imports(module: &str) -> bool {
    std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The CPU time of each puzzle's answer, for a solver that burns 60 ms of CPU per puzzle
/// (fake_solver.py's BURN_SECONDS) where `mode` says.
fn burnt(mode: &str, batch: &str) -> Vec<Duration> {
    let mut s = fake_solver(mode, &[("batch", batch)]);
    jump()
        .iter()
        .take(3)
        .map(|(puzzle, _)| {
            let out = solve(&mut *s, puzzle, 60);
            assert_eq!(seen(&out, puzzle), Seen::Solved, "{mode} {batch}");
            out.stats.child_cpu.expect("a CPU time")
        })
        .collect()
}

#[test]
fn cpu_time_counts_the_program_and_its_children_once_per_puzzle() {
    let burn = Duration::from_millis(60);
    for batch in ["true", "false"] {
        // What answering costs without the burn (starting Python, for a new process).
        let base = burnt("right", batch).into_iter().min().unwrap_or_default();
        for mode in ["busy", "busy-child", "busy-helper"] {
            let cpu = burnt(mode, batch);
            for (k, c) in cpu.iter().enumerate() {
                // Reaped children count in ticks of 10 ms: a little under the burn is still it.
                assert!(
                    *c >= base + burn - Duration::from_millis(15),
                    "{mode} batch={batch} puzzle {k}: {cpu:?}, {base:?} without the burn"
                );
                // A kept process's later puzzles pay for themselves alone, never for an earlier
                // puzzle too: no more than the first, which also paid for starting Python,
                // give or take the 10 ms ticks of reaped children (a second burn is 60 ms).
                if batch == "true" && k > 0 {
                    assert!(
                        *c < cpu[0] + burn / 2,
                        "{mode} batch={batch} puzzle {k}: {cpu:?} counts more than its own burn"
                    );
                }
            }
        }
    }
}

#[test]
fn a_programs_own_clock_fills_solve_time_not_extra() {
    for batch in ["true", "false"] {
        let mut s = fake_solver("timed", &[("batch", batch)]);
        let (puzzle, _) = &jump()[0];
        let out = solve(&mut *s, puzzle, 60);
        assert_eq!(out.stats.solve_time, Some(Duration::from_micros(1250)));
        assert!(!extra(&out).iter().any(|(k, _)| *k == "solve_ms"));
    }
    // Without the figure there is no solver clock.
    let out = solve(&mut *fake_solver("right", &[]), &jump()[0].0, 60);
    assert_eq!(out.stats.solve_time, None);
}

/// A program still running when its answer is read (it watches its input for the next puzzle
/// without sleeping, as tdoku's adapter does) is charged the CPU time it used, puzzle by
/// puzzle: within 10 % of what it burned (2 ms a puzzle, less than one of the kernel's ticks,
/// and a tick or a context switch is all that advances another process's CPU clock while it
/// runs). The fake says its CPU time when each puzzle comes: what it burned for puzzle k is
/// the difference between puzzles k+1 and k, the watch after answer k included. Most of that
/// watch falls before the harness's reading of answer k (the harness's wake-up) or after it;
/// where the reading falls moves CPU time between the charges of neighbouring puzzles, so the
/// test asks it of 6 of 8 puzzles. The program and the harness run on two different cores
/// where there are two: on one they take turns, and each turn brings the account up to date.
#[test]
fn a_program_that_watches_its_input_after_answering_is_charged_its_cpu_time() {
    let cores = pin_to_first_core();
    let env = cores.map_or(String::new(), |c| format!("FAKE_CPU={c}"));
    let mut s = fake_solver_with(&env, "poll", &[("batch", "true")]);
    let pairs = jump();
    let mut own = Vec::new();
    let mut charged = Vec::new();
    for (puzzle, _) in pairs.iter().cycle().take(10) {
        let out = solve(&mut *s, puzzle, 60);
        assert_eq!(seen(&out, puzzle), Seen::Solved, "{out:?}");
        let ms: f64 = extra(&out)
            .iter()
            .find(|(k, _)| *k == "own_cpu_ms")
            .and_then(|(_, v)| v.parse().ok())
            .expect("the fake says its CPU time");
        own.push(ms);
        charged.push(out.stats.child_cpu.expect("a CPU time").as_secs_f64() * 1e3);
    }
    // Puzzle 0 also paid for starting Python; the last has no next puzzle to close it.
    let pairs: Vec<(f64, f64)> = (1..own.len() - 1)
        .map(|k| (charged[k], own[k + 1] - own[k]))
        .collect();
    let close = pairs
        .iter()
        .filter(|(c, b)| (c - b).abs() <= 0.1 * b)
        .count();
    assert!(close >= 6, "(charged, burned) ms: {pairs:?}");
}

/// Pins the calling thread to the first core it may use and gives another it may use (for the
/// program), where it may use two.
fn pin_to_first_core() -> Option<usize> {
    // SAFETY: sched_getaffinity and sched_setaffinity read and write one cpu_set_t of the
    // calling thread (pid 0) through valid pointers.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let mut allowed = (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set));
        let (mine, other) = (allowed.next()?, allowed.next()?);
        let mut only: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(mine, &mut only);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &only) != 0 {
            return None;
        }
        Some(other)
    }
}
