//! Runner tests with a mock method and a mock clock, so rows, summaries and tables have exact
//! values (no timing flakiness), plus resume, shard/merge, panic and wrong-answer handling.

use std::cell::Cell;
use std::path::Path;
use std::time::Duration;

use sudoku_core::{
    Budget, Capabilities, Count, CountEnd, CountOutcome, Counted, Grid, Limit, MethodInfo, Outcome,
    ParamError, ParamSpec, Params, Puzzle, Rng, Solver, Stats, Status, TracePoint,
};

use crate::clock::Clock;
use crate::execute::{execute_plan, ExecOptions, ExecReport};
use crate::experiment::{self, Overrides};
use crate::plan::{make_configs, make_plan, Plan};
use crate::registry::Registry;
use crate::results::{read_rows, Row, TrialStatus};
use crate::shard::Shard;
use crate::sink::Quiet;

thread_local! {
    static NOW: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// Time advances only when the mock method says it worked.
struct MockClock;

impl Clock for MockClock {
    fn wall(&self) -> Duration {
        NOW.with(Cell::get)
    }
    fn cpu(&self) -> Duration {
        NOW.with(Cell::get) / 2
    }
    fn peak_rss(&self) -> Option<crate::memory::PeakRss> {
        None
    }
}

/// Takes `ms` (times 1 + givens mod 3) per call, then solves by plain backtracking, or
/// misbehaves as `mode` says: `panic`, `wrong`, `timeout`.
struct Mock {
    ms: u64,
    mode: String,
}

const MOCK_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "ms",
        default: "10",
        range: "0..",
        help: "mock time per call",
    },
    ParamSpec {
        name: "mode",
        default: "solve",
        range: "solve|panic|wrong|timeout",
        help: "behaviour",
    },
];

fn build_mock(p: &Params) -> Result<Box<dyn Solver + Send>, ParamError> {
    p.check_known("mock", MOCK_PARAMS)?;
    Ok(Box::new(Mock {
        ms: p.get("ms", 10, "an integer")?,
        mode: p
            .choice("mode", "solve", &["solve", "panic", "wrong", "timeout"])?
            .to_string(),
    }))
}

fn backtrack(p: &Puzzle, g: &mut Grid, found: &mut Vec<Grid>, limit: usize) {
    let geo = p.geometry();
    let Some(cell) = (0..g.cells().len()).find(|&c| g.get(c) == 0) else {
        found.push(g.clone());
        return;
    };
    for d in 1..=g.size() as u16 {
        if geo.peers(cell).iter().all(|&q| g.get(q as usize) != d) {
            g.set(cell, d);
            backtrack(p, g, found, limit);
            g.set(cell, 0);
            if found.len() >= limit {
                return;
            }
        }
    }
}

impl Mock {
    fn spend(&self, p: &Puzzle) {
        let d = Duration::from_millis(self.ms * (1 + p.givens().filled() as u64 % 3));
        NOW.with(|n| n.set(n.get() + d));
    }
}

impl Solver for Mock {
    fn name(&self) -> &str {
        "mock"
    }

    fn solve(&mut self, p: &Puzzle, _b: &Budget, rng: &mut Rng) -> Outcome {
        self.spend(p);
        let salt = rand::Rng::random_range(rng, 0..1000u64);
        let stats = Stats {
            nodes: 7,
            iterations: salt,
            trace: vec![
                TracePoint {
                    iteration: 1,
                    elapsed: Duration::from_millis(1),
                    best_cost: 4,
                },
                TracePoint {
                    iteration: 10,
                    elapsed: Duration::from_millis(2),
                    best_cost: 0,
                },
            ],
            ..Stats::default()
        };
        let status = match self.mode.as_str() {
            "panic" => panic!("mock method exploded"),
            "wrong" => {
                Status::Solved(Grid::from_cells(p.order(), vec![1; p.order().cells()]).unwrap())
            }
            "timeout" => Status::Exhausted {
                limit: Limit::Time,
                best: None,
            },
            _ => {
                let mut found = Vec::new();
                backtrack(p, &mut p.givens().clone(), &mut found, 1);
                match found.pop() {
                    Some(g) => Status::Solved(g),
                    None => Status::Infeasible,
                }
            }
        };
        Outcome { status, stats }
    }

    fn count(&mut self, p: &Puzzle, ask: Count, _b: &Budget, _r: &mut Rng) -> Counted {
        let Count { limit, .. } = ask;
        self.spend(p);
        let mut found = Vec::new();
        backtrack(p, &mut p.givens().clone(), &mut found, limit as usize);
        let end = if found.len() as u64 >= limit {
            CountEnd::LimitReached
        } else {
            CountEnd::Complete
        };
        Ok(CountOutcome {
            count: found.len() as u64,
            end,
            solutions: found,
            stats: Stats::default(),
        })
    }
}

fn registry() -> Registry {
    Registry {
        methods: vec![MethodInfo {
            name: "mock",
            summary: "test double",
            params: MOCK_PARAMS,
            caps: Capabilities {
                complete: true,
                thread_safe: true,
                randomized: true,
            },
            build: build_mock,
        }],
        ..Registry::default()
    }
}

const PUZZLES: &str = "# easy\n1.3.3.1.2.4.4.2.\n# two solutions\n12..34..........\n# contradictory\n11..............\n";

fn experiment(dir: &Path, extra: &str) -> experiment::ExperimentFile {
    let file = dir.join("p.txt");
    std::fs::write(&file, PUZZLES).unwrap();
    let text = format!(
        "name = \"t\"\nseed = 5\ntrials = 2\n{extra}\n[[method]]\nname = \"mock\"\nparams = {{ ms = [10, 20] }}\n[[instances]]\nfile = \"{}\"\nset = \"p\"\n",
        file.display()
    );
    experiment::parse(&text).unwrap()
}

/// Options of a quiet, fresh, one-thread run on the mock clock into `out`.
fn options(out: std::path::PathBuf) -> ExecOptions<'static> {
    ExecOptions {
        out,
        resume: None,
        shard: None,
        jobs: 1,
        commit: String::new(),
        clock: &MockClock,
        sink: &Quiet,
    }
}

/// The plan of the mock experiment (with `extra` keys) on the puzzles written into `dir`.
fn mock_plan(dir: &Path, extra: &str) -> Plan {
    make_plan(experiment(dir, extra), &registry(), &Overrides::default()).unwrap()
}

fn run_into(
    dir: &Path,
    out: &str,
    extra: &str,
    resume: bool,
    shard: Option<Shard>,
    jobs: usize,
) -> (ExecReport, Vec<Row>) {
    let plan = mock_plan(dir, extra);
    let out = dir.join(out);
    let settings = crate::resume::settings_of(&plan, None);
    let opts = ExecOptions {
        resume: resume.then_some(&settings),
        shard,
        jobs,
        commit: "abc".into(),
        ..options(out.clone())
    };
    let report = execute_plan(&plan, &opts).unwrap();
    (report, read_rows(&out.join("trials.csv")).unwrap())
}

#[test]
fn rows_have_exact_values() {
    let dir = tempfile::tempdir().unwrap();
    let (report, rows) = run_into(dir.path(), "a", "", false, None, 1);
    assert_eq!((report.planned, report.ran, report.succeeded), (12, 12, 12));
    assert_eq!(rows.len(), 12);
    let r = &rows[0];
    assert_eq!(
        (
            r.method.as_str(),
            r.params.as_str(),
            r.instance_set.as_str()
        ),
        ("mock", "ms=10", "p")
    );
    assert!(r.instance.ends_with("p.txt:2"), "{}", r.instance);
    // 8 givens: 10 ms × (1 + 8 mod 3) = 30 ms; CPU is half on the mock clock.
    assert_eq!((r.givens, r.wall_ms, r.cpu_ms), (8, 30.0, 15.0));
    assert_eq!(
        (r.status, r.verified, r.nodes, r.commit.as_str()),
        (TrialStatus::Solved, Some(true), 7, "abc")
    );
    // Two trials of one configuration and instance get different seeds; the same seed as
    // derive_seed gives.
    assert_ne!(rows[0].seed, rows[1].seed);
    assert_eq!(
        rows[0].seed,
        sudoku_core::derive_seed(5, "mock ms=10", &r.instance, 0)
    );
    // The contradictory puzzle is infeasible, and says why.
    let bad = rows.iter().find(|r| r.instance.ends_with(":6")).unwrap();
    assert_eq!(bad.status, TrialStatus::Infeasible);
    assert!(
        bad.message.contains("contradictory givens"),
        "{}",
        bad.message
    );
    let slow = rows.iter().find(|r| r.params == "ms=20").unwrap();
    assert_eq!(slow.wall_ms, 60.0);
    // Traces went to traces.csv, two points per trial.
    let traces: Vec<crate::results::TraceRow> =
        read_rows(&dir.path().join("a/traces.csv")).unwrap();
    assert_eq!(traces.len(), 24);
}

#[test]
fn count_kind_reports_multiple_and_infeasible() {
    let dir = tempfile::tempdir().unwrap();
    let (_, rows) = run_into(
        dir.path(),
        "c",
        "kind = \"count\"\ncount_limit = 5",
        false,
        None,
        1,
    );
    let status: Vec<(TrialStatus, Option<u64>)> = rows
        .iter()
        .filter(|r| r.params == "ms=10" && r.trial == 0)
        .map(|r| (r.status, r.count))
        .collect();
    // The first puzzle has 4 completions (its columns 2 and 4 are free); the second has more
    // than the limit; the third none.
    assert_eq!(
        status,
        [
            (TrialStatus::Multiple, Some(4)),
            (TrialStatus::Multiple, Some(5)),
            (TrialStatus::Infeasible, Some(0))
        ]
    );
}

#[test]
fn summary_and_tables_have_exact_values() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "s", "", false, None, 1);
    let out = dir.path().join("s");
    crate::outputs::write_outputs(&out, "t", false, &Quiet).unwrap();
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| solve")).collect();
    assert_eq!(
        rows,
        [
            // Per trial: 30, 20 and 30 ms (givens 8, 4, 2), twice each.
            "| solve | mock | ms=10 | classic | 4×4 | p | 6 | 100% | 30.0 | 20.0–30.0 | 26.7 | 20.0–30.0 |",
            "| solve | mock | ms=20 | classic | 4×4 | p | 6 | 100% | 60.0 | 40.0–60.0 | 53.3 | 40.0–60.0 |",
        ]
    );
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        csv.starts_with(
            "kind,method,params,variant,order,instance_set,count,successes,success_rate,"
        ),
        "{csv}"
    );
    assert!(out.join("summary.tex").exists());
}

#[test]
fn resume_after_a_kill_gives_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (_, full) = run_into(dir.path(), "full", "", false, None, 1);
    let (_, _) = run_into(dir.path(), "cut", "", false, None, 1);
    // What SIGKILL can leave: some complete rows and a torn one.
    let path = dir.path().join("cut/trials.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let keep: Vec<&str> = text.lines().take(6).collect();
    std::fs::write(&path, format!("{}\n2,t,solve,mo", keep.join("\n"))).unwrap();
    let (report, resumed) = run_into(dir.path(), "cut", "", true, None, 1);
    assert_eq!((report.skipped, report.ran), (5, 7));
    let mut resumed = resumed;
    resumed.sort_by_key(|r| r.task);
    assert_eq!(resumed, full);
    // Resuming a finished run does nothing and duplicates nothing.
    let (report, again) = run_into(dir.path(), "cut", "", true, None, 1);
    assert_eq!((report.ran, again.len()), (0, 12));
    let traces: Vec<crate::results::TraceRow> =
        read_rows(&dir.path().join("cut/traces.csv")).unwrap();
    assert_eq!(traces.len(), 24);
}

/// A resume checks the rows against the settings it is handed, which `run` computes once for
/// meta.json and the resume alike: here settings that no longer match the rows' repetitions
/// refuse them, though the plan itself would accept them.
#[test]
fn a_resume_checks_the_rows_against_the_settings_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "r", "", false, None, 1);
    let plan = mock_plan(dir.path(), "");
    let mut settings = crate::resume::settings_of(&plan, None);
    settings.configs[0].repeat = 3;
    let opts = ExecOptions {
        resume: Some(&settings),
        ..options(dir.path().join("r"))
    };
    let e = execute_plan(&plan, &opts).unwrap_err().to_string();
    assert!(
        e.contains("column `repeats`: 1, but `mock ms=10` repeats each trial 3 times in meta.json's settings"),
        "{e}"
    );
}

#[test]
fn a_second_run_without_resume_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "x", "", false, None, 1);
    let plan = mock_plan(dir.path(), "");
    let opts = options(dir.path().join("x"));
    let e = execute_plan(&plan, &opts).unwrap_err().to_string();
    assert!(e.contains("--resume") && e.contains("--fresh"), "{e}");
}

#[test]
fn shards_merged_equal_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let (_, full) = run_into(dir.path(), "all", "", false, None, 1);
    let mut dirs = Vec::new();
    for k in 1..=3 {
        let (r, rows) = run_into(dir.path(), &format!("s{k}"), "", false, Shard::new(k, 3), 1);
        assert_eq!(r.ran, 4);
        assert!(rows.iter().all(|row| row.task % 3 == k - 1));
        dirs.push(dir.path().join(format!("s{k}")));
    }
    let (merged, traces) = crate::merge::merge_dirs(&dirs).unwrap();
    assert_eq!(merged, full);
    assert_eq!(traces.len(), 24);
}

#[test]
fn parallel_jobs_give_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (_, one) = run_into(dir.path(), "j1", "", false, None, 1);
    let (_, mut two) = run_into(dir.path(), "j2", "", false, None, 2);
    two.sort_by_key(|r| r.task);
    assert_eq!(one, two);
}

#[test]
fn panics_and_wrong_answers_are_rows_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, PUZZLES).unwrap();
    let text = format!(
        "name = \"t\"\nseed = 1\n[[method]]\nname = \"mock\"\nparams = {{ mode = [\"panic\", \"wrong\", \"timeout\"] }}\n[[instances]]\nfile = \"{}\"\n",
        file.display()
    );
    let reg = registry();
    let plan = make_plan(
        experiment::parse(&text).unwrap(),
        &reg,
        &Overrides::default(),
    )
    .unwrap();
    let opts = options(dir.path().join("o"));
    let report = execute_plan(&plan, &opts).unwrap();
    assert_eq!((report.ran, report.errors, report.wrong), (9, 3, 3));
    let rows: Vec<Row> = read_rows(&dir.path().join("o/trials.csv")).unwrap();
    assert!(
        rows[0].message.contains("mock method exploded"),
        "{}",
        rows[0].message
    );
    assert_eq!(rows[0].status, TrialStatus::Error);
    assert_eq!(
        (rows[3].status, rows[3].verified),
        (TrialStatus::Wrong, Some(false))
    );
    assert_eq!(rows[3].message, "cell r1c3 is given as 3 but holds 1");
    assert_eq!(
        (rows[6].status, rows[6].limit.as_str()),
        (TrialStatus::Timeout, "time")
    );
}

#[test]
fn bad_experiments_name_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let reg = registry();
    let mut e = experiment(dir.path(), "");
    e.methods[0].name = "nope".into();
    let err = make_plan(e, &reg, &Overrides::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("method[0] (`nope`): unknown method `nope` (known: mock)"),
        "{err}"
    );
    let mut e = experiment(dir.path(), "");
    e.methods[0]
        .params
        .insert("speed".into(), toml::Value::Integer(3));
    let err = make_plan(e, &reg, &Overrides::default())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("no parameter `speed`"), "{err}");
    let mut e = experiment(dir.path(), "");
    e.methods[0]
        .params
        .insert("mode".into(), toml::Value::String("fly".into()));
    let err = make_plan(e, &reg, &Overrides::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("parameter `mode`: `fly` is not valid"),
        "{err}"
    );
    let mut e = experiment(dir.path(), "");
    e.instances[0].file = Some("missing.txt".into());
    let err = make_plan(e, &reg, &Overrides::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("instances[0].file: missing.txt does not exist"),
        "{err}"
    );
}

#[test]
fn quick_mode_trims_instances_trials_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let reg = registry();
    let e = experiment(
        dir.path(),
        "[budget]\ntime_limit = 30.0\n[quick]\nmax_instances = 2\ntime_limit = 1.5",
    );
    let plan = make_plan(
        e,
        &reg,
        &Overrides {
            quick: true,
            ..Overrides::default()
        },
    )
    .unwrap();
    assert_eq!(plan.instances.len(), 2);
    assert!(plan.configs.iter().all(|c| c.trials == 1));
    assert!(plan
        .configs
        .iter()
        .all(|c| c.budget.time == Some(Duration::from_secs_f64(1.5))));
}

#[test]
fn quick_mode_keeps_instances_of_the_orders_the_methods_run() {
    // A 4x4 puzzle first, then two 9x9 ones; the only method runs 9x9 only.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    let nine =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    std::fs::write(&file, format!("1.3.3.1.2.4.4.2.\n{nine}{nine}")).unwrap();
    let text = format!(
        "name = \"t\"\nseed = 5\n[quick]\nmax_instances = 1\n[[method]]\nname = \"mock\"\nparams = {{ ms = [10] }}\norders = [3]\n[[instances]]\nfile = \"{}\"\nset = \"mixed\"\n",
        file.display()
    );
    let quick = Overrides {
        quick: true,
        ..Overrides::default()
    };
    let plan = make_plan(experiment::parse(&text).unwrap(), &registry(), &quick).unwrap();
    assert_eq!(plan.instances.len(), 1);
    assert_eq!(plan.instances[0].puzzle.order().n(), 3);
    assert_eq!(plan.tasks.len(), 1);
}

#[test]
fn charts_render_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "p", "", false, None, 1);
    let files = crate::outputs::write_outputs(&dir.path().join("p"), "t", true, &Quiet).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "boxplot.svg",
        "boxplot.png",
        "convergence.svg",
        "convergence.png",
        "sweep_mock_ms.svg",
        "sweep_mock_ms.png",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} missing from {names:?}"
        );
    }
    let png = std::fs::read(dir.path().join("p/boxplot.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = std::fs::read_to_string(dir.path().join("p/boxplot.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("mock ms=10"));
}

fn plan_of(text: &str, reg: &Registry) -> crate::error::Result<Plan> {
    make_plan(experiment::parse(text)?, reg, &Overrides::default())
}

#[test]
fn a_kind_needs_the_capability_of_its_method() {
    let dir = tempfile::tempdir().unwrap();
    let e = experiment(dir.path(), "kind = \"relax\"");
    let err = make_plan(e, &registry(), &Overrides::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("method[0] (`mock`)") && err.contains("kind = \"relax\""),
        "{err}"
    );
    // The real registry: only `ilp` relaxes, and `sa` cannot count.
    let reg = Registry::standard();
    let text = "name = \"k\"\nseed = 1\nkind = \"relax\"\n[[method]]\nname = \"prop\"\n[[instances]]\norders = [2]\n";
    let err = plan_of(text, &reg).err().unwrap().to_string();
    assert!(
        err.contains("`prop` has none") && err.contains("ilp"),
        "{err}"
    );
    let text = text.replace("relax", "count").replace("prop", "sa");
    let err = plan_of(&text, &reg).err().unwrap().to_string();
    assert!(err.contains("`sa` cannot count"), "{err}");
}

#[test]
fn a_method_budget_overrides_the_experiment_budget_key_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, PUZZLES).unwrap();
    let text = format!(
        "name = \"b\"\nseed = 1\n[budget]\ntime_limit = 10.0\nnode_limit = 5\n[[method]]\nname = \"mock\"\nbudget = {{ time_limit = 3.0, iteration_limit = 7 }}\n[[method]]\nname = \"mock\"\nparams = {{ ms = 2 }}\n[[instances]]\nfile = \"{}\"\n",
        file.display()
    );
    let plan = plan_of(&text, &registry()).unwrap();
    let b: Vec<Budget> = plan.configs.iter().map(|c| c.budget).collect();
    assert_eq!(
        b,
        [
            Budget {
                time: Some(Duration::from_secs(3)),
                nodes: Some(5),
                iterations: Some(7)
            },
            Budget {
                time: Some(Duration::from_secs(10)),
                nodes: Some(5),
                iterations: None
            }
        ]
    );
}

#[test]
fn best_of_r_keeps_one_repetitions_time_and_the_same_seeded_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (_, once) = run_into(dir.path(), "r1", "", false, None, 1);
    let (_, thrice) = run_into(dir.path(), "r3", "repeat = 3", false, None, 1);
    assert_eq!(once.len(), thrice.len());
    for (a, b) in once.iter().zip(&thrice) {
        // The mock takes the same time every call: the fastest of three is one call's time,
        // and a fresh generator from the trial seed gives the same iterations.
        assert_eq!(
            (a.wall_ms, a.iterations, a.status, a.repeats),
            (b.wall_ms, b.iterations, b.status, 1)
        );
        assert_eq!(b.repeats, 3);
    }
}

#[test]
fn generate_with_carving_judges_grid_and_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"g\"\nseed = 4\nkind = \"generate\"\ntrials = 3\ncarve = { puzzle = \"minimal\", checker = \"dlx\" }\n[[method]]\nname = \"prop-fill\"\n[[instances]]\norders = [2, 3]\n";
    let reg = Registry::standard();
    let plan = plan_of(text, &reg).unwrap();
    let opts = options(dir.path().join("g"));
    let report = execute_plan(&plan, &opts).unwrap();
    assert_eq!((report.ran, report.succeeded), (6, 6));
    let rows: Vec<Row> = read_rows(&dir.path().join("g/trials.csv")).unwrap();
    for r in &rows {
        assert_eq!((r.status, r.verified), (TrialStatus::Solved, Some(true)));
        // A minimal puzzle keeps some clues, never all.
        let cells = r.order.pow(4);
        assert!(r.givens > 0 && r.givens < cells, "{} givens", r.givens);
    }
    // carve belongs to kind = "generate"; the checker must be a complete method.
    let err = plan_of(&text.replace("\"generate\"", "\"solve\""), &reg)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("key `carve`"), "{err}");
    let err = plan_of(&text.replace("\"dlx\"", "\"sa\""), &reg)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("checker") && err.contains("`sa`"), "{err}");
}

#[test]
fn generated_instances_take_a_checker_and_a_time_limit() {
    let text = "name = \"i\"\nseed = 4\n[[method]]\nname = \"prop\"\n[[instances]]\ngenerate = { order = 2, puzzle = \"unique\", count = 3, checker = \"dlx\", time_limit = 5.0 }\n";
    let reg = Registry::standard();
    let plan = plan_of(text, &reg).unwrap();
    assert_eq!(plan.instances.len(), 3);
    assert!(plan.instances.iter().all(|i| i.id.starts_with("gen:")));
    let err = plan_of(&text.replace("5.0", "-1.0"), &reg)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a positive number of seconds"), "{err}");
}

#[test]
fn each_instance_source_may_carve_its_own_way() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"c\"\nseed = 4\nkind = \"generate\"\ntrials = 2\n[[method]]\nname = \"prop-fill\"\n[[instances]]\norders = [2]\ncarve = { puzzle = \"minimal\", checker = \"dlx\" }\n[[instances]]\norders = [2]\ncarve = { puzzle = \"unique\", clues = 10, checker = \"prop\" }\n[[instances]]\norders = [2]\n";
    let reg = Registry::standard();
    let plan = plan_of(text, &reg).unwrap();
    let ids: Vec<&str> = plan.instances.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "empty-4x4 carve=minimal/dlx",
            "empty-4x4 carve=unique10/prop",
            "empty-4x4"
        ]
    );
    let report = execute_plan(&plan, &options(dir.path().join("c"))).unwrap();
    assert_eq!((report.ran, report.succeeded), (6, 6));
    let rows: Vec<Row> = read_rows(&dir.path().join("c/trials.csv")).unwrap();
    let sets: Vec<(&str, usize)> = rows
        .iter()
        .map(|r| (r.instance_set.as_str(), r.givens))
        .collect();
    for (set, givens) in &sets {
        match *set {
            // Carving a unique 4x4 stops at 10 clues at the latest; an uncarved grid's row
            // counts the empty grid's givens.
            "4x4 unique10/prop" => assert!(*givens <= 10, "{givens}"),
            "4x4 minimal/dlx" => assert!(*givens > 0 && *givens < 16, "{givens}"),
            "empty" => assert_eq!(*givens, 0),
            other => panic!("unexpected set {other}"),
        }
    }
    // A carve on a source that is not empty grids, or outside kind = "generate", is refused.
    let err = plan_of(&text.replace("\"generate\"", "\"solve\""), &reg)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("instances[0].carve"), "{err}");
}

#[test]
fn a_method_can_be_kept_to_some_orders_and_configurations_are_unique() {
    let text = "name = \"o\"\nseed = 4\nkind = \"generate\"\n[[method]]\nname = \"pattern\"\n[[method]]\nname = \"prop-fill\"\norders = [3]\n[[instances]]\norders = [2, 3]\n";
    let reg = Registry::standard();
    let plan = plan_of(text, &reg).unwrap();
    let ran: Vec<(&str, usize)> = plan
        .tasks
        .iter()
        .map(|t| {
            (
                plan.configs[t.config].method.as_str(),
                plan.instances[t.instance].puzzle.order().n(),
            )
        })
        .collect();
    assert_eq!(ran, [("pattern", 2), ("pattern", 3), ("prop-fill", 3)]);
    let dup = text.replace("name = \"prop-fill\"", "name = \"pattern\"");
    let err = plan_of(&dup, &reg).err().unwrap().to_string();
    assert!(err.contains("already configured"), "{err}");
}

#[test]
fn a_method_can_be_kept_to_some_variants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let seeds = root.join("datasets/seeds");
    let text = format!(
        "name = \"v\"\nseed = 4\n[[method]]\nname = \"prop\"\n[[method]]\nname = \"dlx\"\nvariants = [\"classic\"]\n[[instances]]\nfile = \"{}\"\n[[instances]]\nfile = \"{}\"\nvariant = \"diagonal\"\n",
        seeds.join("001_jump.txt").display(),
        seeds.join("000_unicamp_ilp.diagonal.txt").display(),
    );
    let reg = Registry::standard();
    let plan = plan_of(&text, &reg).unwrap();
    let mut ran: Vec<(&str, &str)> = plan
        .tasks
        .iter()
        .map(|t| {
            (
                plan.configs[t.config].method.as_str(),
                plan.instances[t.instance].puzzle.variant().name(),
            )
        })
        .collect();
    ran.dedup();
    assert_eq!(
        ran,
        [
            ("prop", "classic"),
            ("prop", "diagonal"),
            ("dlx", "classic")
        ]
    );
    let bad = text.replace("[\"classic\"]", "[\"hex\"]");
    let err = format!("{:#}", plan_of(&bad, &reg).err().unwrap());
    assert!(err.contains("unknown variant `hex`"), "{err}");
}

#[test]
fn every_shipped_experiment_builds_its_configurations() {
    // A method or parameter renamed in code must not leave a committed experiment that fails
    // only when a user runs it.
    let reg = Registry::standard();
    // The catalogue, the paper reproductions, the studies behind the notes and CI's smoke run.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in [
        "scripts/experiments",
        "scripts/experiments/repro",
        "scripts/studies",
        ".ci",
    ] {
        let dir = root.join(dir);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 50, "only {} experiment files", files.len());
    for path in &files {
        // docs/experiments.md lists the catalogue by these questions.
        if path.parent() == Some(&root.join("scripts/experiments")) {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(
                text.starts_with("# Question: "),
                "{}: no `# Question:` line",
                path.display()
            );
        }
    }
    for path in files {
        let (exp, _) = experiment::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let configs = make_configs(&exp, &reg, &Overrides::default())
            .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        assert!(!configs.is_empty(), "{}", path.display());
    }
}

/// Every file under `dir` and its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            for (name, bytes) in snapshot(&path) {
                files.insert(format!("{}/{name}", path.display()), bytes);
            }
        } else {
            files.insert(path.display().to_string(), std::fs::read(&path).unwrap());
        }
    }
    files
}

/// `run --quick`, then the full run into the same folder: refused (results there, neither
/// --resume nor --fresh) before a byte of the folder changes, so that the resume that follows
/// still finds the quick run's settings in meta.json and refuses to mix its rows (1 trial)
/// into the full run (2).
#[test]
fn a_refused_run_leaves_the_folder_as_it_was() {
    use crate::run::{run_with_clock, Experiment, RunOptions};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, PUZZLES).unwrap();
    let exp = Experiment::parse(&format!(
        "name = \"t\"\nseed = 5\ntrials = 2\n[[method]]\nname = \"mock\"\n[[instances]]\nfile = \"{}\"\n",
        file.display()
    ))
    .unwrap();
    let out = dir.path().join("o");
    let opts = |quick, resume| RunOptions {
        out: Some(out.clone()),
        quick,
        resume,
        no_plots: true,
        ..RunOptions::default()
    };
    let reg = registry();
    run_with_clock(&exp, &reg, &opts(true, false), &Quiet, &MockClock).unwrap();
    let quick = snapshot(&out);
    assert!(quick.keys().any(|f| f.ends_with("meta.json")));
    let e = run_with_clock(&exp, &reg, &opts(false, false), &Quiet, &MockClock)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("already holds results: pass --resume to continue that run, or --fresh"),
        "{e}"
    );
    assert!(
        snapshot(&out) == quick,
        "the refused run changed the folder"
    );
    let e = run_with_clock(&exp, &reg, &opts(false, true), &Quiet, &MockClock)
        .unwrap_err()
        .to_string();
    assert!(e.contains("(`mock` trials 1 → 2;"), "{e}");
    assert!(
        snapshot(&out) == quick,
        "the refused resume changed the folder"
    );
}

/// The same puzzle twice in one experiment is refused when the plan is made, before any trial
/// (it used to run every trial and fail only on writing the second row of one trial), however
/// the file is named twice; parts of one file that do not overlap are two sets of puzzles.
#[test]
fn a_puzzle_listed_twice_is_refused_while_planning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, PUZZLES).unwrap();
    let reg = registry();
    let head = "name = \"t\"\nseed = 1\n[[method]]\nname = \"mock\"\n";
    let plan = |sources: &str| plan_of(&format!("{head}{sources}"), &reg);
    let f = file.display().to_string();
    let twice = format!("[[instances]]\nfile = \"{f}\"\n[[instances]]\nfile = \"{f}\"\n");
    let e = plan(&twice).unwrap_err().to_string();
    assert_eq!(
        e,
        format!("instances[1]: line 2 of {f} is already an instance of instances[0] (`{f}:2`): the same puzzle file twice (two `file`s, or a `file` and a `glob` that matches it); list each file once, or part one with `skip` and `limit`")
    );
    let glob = format!(
        "[[instances]]\nfile = \"{f}\"\n[[instances]]\nglob = \"{}/*.txt\"\n",
        dir.path().display()
    );
    assert!(plan(&glob)
        .unwrap_err()
        .to_string()
        .contains("instances[1]: line 2 of "));
    // Another spelling of the same file.
    let other = format!("{}/./p.txt", dir.path().display());
    let spelled = format!("[[instances]]\nfile = \"{f}\"\n[[instances]]\nfile = \"{other}\"\n");
    let e = plan(&spelled).unwrap_err().to_string();
    assert!(e.contains(&format!("line 2 of {other} is already")), "{e}");
    // The same empty grid twice: no file, one id.
    let orders = "[[instances]]\norders = [2]\n[[instances]]\norders = [2]\n";
    let e = plan(orders).unwrap_err().to_string();
    assert_eq!(e, "instances[1]: the instance `empty-4x4` (classic) is already one of instances[0]: an experiment holds each instance once, since its rows are told apart by it; list each source once");
    // Two parts of one file, and one file in two variants, are different instances.
    let parts = format!(
        "[[instances]]\nfile = \"{f}\"\nlimit = 1\n[[instances]]\nfile = \"{f}\"\nskip = 1\n[[instances]]\nfile = \"{f}\"\nlimit = 1\nvariant = \"diagonal\"\n"
    );
    assert_eq!(plan(&parts).unwrap().instances.len(), 4);
}
