//! The runner's API as a crate outside it uses it: methods registered beside the built-in ones
//! and run from an experiment made in memory, the events a run says, typed errors, resume,
//! and a folder's outputs made again.

use std::cell::RefCell;
use std::path::Path;

use sudoku_core::{
    Budget, Capabilities, Grid, MethodInfo, Outcome, ParamError, Params, Puzzle, Rng, Solver,
    Stats, Status,
};
use sudoku_runner::results::{read_rows, Row, TrialStatus};
use sudoku_runner::{
    redraw, run, Event, Experiment, Quiet, Registry, RunError, RunOptions, RunSummary,
};

/// `prop` under another name: a method from outside the registry's crates.
struct Again(sudoku_prop::Prop);

impl Solver for Again {
    fn name(&self) -> &str {
        "again"
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        self.0.solve(puzzle, budget, rng)
    }
}

/// A method that answers every puzzle with a grid of ones: the verifier must catch it.
struct Liar;

impl Solver for Liar {
    fn name(&self) -> &str {
        "liar"
    }

    fn solve(&mut self, puzzle: &Puzzle, _: &Budget, _: &mut Rng) -> Outcome {
        let cells = vec![1; puzzle.order().cells()];
        Outcome {
            status: Status::Solved(Grid::from_cells(puzzle.order(), cells).expect("a grid")),
            stats: Stats::default(),
        }
    }
}

type Build = fn(&Params) -> Result<Box<dyn Solver + Send>, ParamError>;

fn info(name: &'static str, build: Build) -> MethodInfo {
    MethodInfo {
        name,
        summary: "a method of this test",
        params: &[],
        caps: Capabilities {
            complete: false,
            thread_safe: true,
            randomized: false,
        },
        build,
    }
}

fn build_again(p: &Params) -> Result<Box<dyn Solver + Send>, ParamError> {
    p.check_known("again", &[])?;
    Ok(Box::new(Again(sudoku_prop::Prop::default())))
}

fn build_liar(p: &Params) -> Result<Box<dyn Solver + Send>, ParamError> {
    p.check_known("liar", &[])?;
    Ok(Box::new(Liar))
}

/// The standard registry with `again` and `liar`.
fn registry() -> Registry {
    let mut r = Registry::standard();
    r.register(info("again", build_again)).unwrap();
    r.register(info("liar", build_liar)).unwrap();
    r
}

/// An experiment of `methods` on the four 9×9 puzzles of the JuMP notebook.
fn experiment(methods: &[&str]) -> Experiment {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/seeds/001_jump.txt");
    let methods: String = methods
        .iter()
        .map(|m| format!("[[method]]\nname = \"{m}\"\n"))
        .collect();
    Experiment::parse(&format!(
        "name = \"api\"\nseed = 3\ntrials = 2\n{methods}[[instances]]\nfile = \"{}\"\n",
        file.display()
    ))
    .unwrap()
}

fn options(out: &Path) -> RunOptions {
    RunOptions {
        out: Some(out.to_path_buf()),
        no_plots: true,
        command: Some(vec!["api-test".into()]),
        ..RunOptions::default()
    }
}

fn rows(summary: &RunSummary) -> Vec<Row> {
    read_rows(&summary.out.join("trials.csv")).unwrap()
}

#[test]
fn a_registered_method_runs_beside_a_built_in_one_and_says_what_it_does() {
    let dir = tempfile::tempdir().unwrap();
    let said = RefCell::new(Vec::new());
    let sink = |e: Event<'_>| {
        let line = match e {
            Event::Planning { experiment, .. } => format!("planning {experiment}"),
            Event::Planned(size) => format!("planned {} tasks", size.mine),
            Event::Started { tasks } => format!("started {tasks}"),
            Event::Trial(row) => format!("trial {} {}", row.method, row.status),
            Event::TrialsDone { skipped, ran } => format!("done {skipped} {ran}"),
            _ => return,
        };
        said.borrow_mut().push(line);
    };
    let summary = run(
        &experiment(&["again", "prop"]),
        &registry(),
        &options(&dir.path().join("a")),
        &sink,
    )
    .unwrap();
    assert!(summary.clean());
    assert_eq!(
        (summary.trials.ran, summary.trials.succeeded),
        (16, 16),
        "2 methods × 4 puzzles × 2 trials"
    );
    let rows = rows(&summary);
    let again: Vec<&Row> = rows.iter().filter(|r| r.method == "again").collect();
    assert_eq!(again.len(), 8);
    assert!(again
        .iter()
        .all(|r| r.status == TrialStatus::Solved && r.verified == Some(true)));
    let said = said.into_inner();
    assert_eq!(
        said[..3],
        ["planning api", "planned 16 tasks", "started 16"],
        "{said:?}"
    );
    assert_eq!(said.last().map(String::as_str), Some("done 0 16"));
    assert_eq!(
        said.iter().filter(|l| *l == "trial again solved").count(),
        8
    );
    // meta.json records the command the caller gave, and the experiment's text.
    let meta = std::fs::read_to_string(summary.out.join("meta.json")).unwrap();
    assert!(
        meta.contains("\"api-test\"") && meta.contains("(memory)"),
        "{meta}"
    );
}

#[test]
fn a_wrong_answer_is_a_row_the_verifier_failed_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(
        &experiment(&["liar"]),
        &registry(),
        &options(&dir.path().join("w")),
        &Quiet,
    )
    .unwrap();
    assert!(!summary.clean());
    assert_eq!((summary.trials.wrong, summary.trials.succeeded), (8, 0));
    assert!(rows(&summary)
        .iter()
        .all(|r| r.status == TrialStatus::Wrong && r.verified == Some(false)));
}

#[test]
fn errors_are_typed() {
    let mut r = registry();
    let taken = r.register(info("prop", build_again)).unwrap_err();
    assert!(matches!(&taken, RunError::Duplicate { name } if name == "prop"));
    // An unknown method is a parameter error at the place of the file that names it.
    let e = sudoku_runner::plan(&experiment(&["nope"]), &r, &RunOptions::default()).unwrap_err();
    match &e {
        RunError::At { place, source } => {
            assert_eq!(place, "method[0] (`nope`)");
            assert!(matches!(**source, RunError::Param(_)), "{source:?}");
        }
        other => panic!("{other:?}"),
    }
    // A folder another writer holds.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("busy");
    std::fs::create_dir_all(&out).unwrap();
    let _held = sudoku_runner::lock::lock_folder(&out, "run", &Quiet).unwrap();
    let e = run(&experiment(&["prop"]), &r, &options(&out), &Quiet).unwrap_err();
    assert!(matches!(e, RunError::Busy { .. }), "{e:?}");
    // A solver built by name, its parameters checked.
    assert!(r.solver("prop", &Params::new()).is_ok());
    let mut bad = Params::new();
    bad.push_pair("speed=3").unwrap();
    assert!(r.solver("prop", &bad).is_err());
}

#[test]
fn a_second_run_resumes_and_a_folder_is_redrawn_from_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let (exp, reg) = (experiment(&["prop"]), registry());
    let first = run(&exp, &reg, &options(&out), &Quiet).unwrap();
    assert_eq!(first.trials.ran, 8);
    // Without resume or fresh, the folder's results are not overwritten.
    let e = run(&exp, &reg, &options(&out), &Quiet).unwrap_err();
    assert!(matches!(e, RunError::Folder(_)), "{e:?}");
    let again = run(
        &exp,
        &reg,
        &RunOptions {
            resume: true,
            ..options(&out)
        },
        &Quiet,
    )
    .unwrap();
    assert_eq!((again.trials.skipped, again.trials.ran), (8, 0));
    let files = redraw(&out, "plot", &Quiet).unwrap();
    assert!(
        files.iter().any(|f| f.ends_with("report.html")),
        "{files:?}"
    );
    assert!(out.join("report.html").exists());
}

/// A sink that asks the run to stop once it has seen `after` trials end.
struct StopAfter {
    after: usize,
    seen: std::cell::Cell<usize>,
}

impl sudoku_runner::Sink for StopAfter {
    fn event(&self, event: Event<'_>) {
        if let Event::Trial(_) = event {
            self.seen.set(self.seen.get() + 1);
        }
    }

    fn cancelled(&self) -> bool {
        self.seen.get() >= self.after
    }
}

#[test]
fn a_sink_stops_a_run_between_trials_and_a_resume_runs_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let (exp, reg) = (experiment(&["prop", "again"]), registry());
    for jobs in [1, 2] {
        let stop = StopAfter {
            after: 3,
            seen: std::cell::Cell::new(0),
        };
        let opts = RunOptions {
            jobs,
            fresh: true,
            ..options(&out)
        };
        let e = run(&exp, &reg, &opts, &stop).unwrap_err();
        let RunError::Cancelled { done, tasks, .. } = e else {
            panic!("{e:?}")
        };
        assert_eq!((done, tasks), (3, 16));
        // Every trial that ended is a row; the rest run on resume.
        assert_eq!(read_rows::<Row>(&out.join("trials.csv")).unwrap().len(), 3);
        let rest = run(
            &exp,
            &reg,
            &RunOptions {
                jobs,
                resume: true,
                ..options(&out)
            },
            &Quiet,
        )
        .unwrap();
        assert_eq!((rest.trials.skipped, rest.trials.ran), (3, 13));
    }
    // A sink that stops before the first trial: nothing runs.
    let stop = StopAfter {
        after: 0,
        seen: std::cell::Cell::new(0),
    };
    let opts = RunOptions {
        fresh: true,
        ..options(&out)
    };
    let e = run(&exp, &reg, &opts, &stop).unwrap_err();
    assert!(matches!(e, RunError::Cancelled { done: 0, .. }), "{e:?}");
}
