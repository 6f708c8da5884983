//! Partial Latin squares as instances (`latin = "FILE"`): each square becomes a Sudoku by
//! Takano et al.'s reduction ([`sudoku_gen::LatinSquare::to_sudoku`]), and every answer for it,
//! already verified as a Sudoku solution by [`judge`](crate::judge::judge), is read back
//! to a Latin square that must complete the given one. Counts and infeasibility claims are
//! checked against the square's own completions, counted without any Sudoku.
//! (`latin` is the only runner room that knows of Latin squares; `plan` reads them through it
//! and `execute` judges through it; it knows neither.)

use sudoku_core::{format, CountEnd, Status};
use sudoku_gen::{parse_latin, sudoku_to_latin, LatinSquare};

use crate::error::Result;
use crate::judge::{Answer, Trial};
use crate::results::TrialStatus;

/// Search steps the independent count of completions may take (well under a second): a square
/// too hard for it is left unchecked, with a note, rather than stalling the run.
pub const RECOUNT_NODES: u64 = 10_000_000;

/// A square of a Latin-square file, named as its instance will be.
pub struct LatinEntry {
    /// `FILE:LINE latin side=N holes=H`.
    pub id: String,
    /// The square.
    pub square: LatinSquare,
    /// Its label from the file, if any.
    pub label: Option<String>,
}

/// The first `limit` squares of a Latin-square file, each named `FILE:LINE latin side=N
/// holes=H`; `plan` makes them instances.
pub fn read_latin(path: &std::path::Path, limit: usize) -> Result<Vec<LatinEntry>> {
    let name = path.display().to_string();
    let text = format::read_text(path)?;
    Ok(parse_latin(&text, &name)?
        .into_iter()
        .take(limit)
        .map(|e| LatinEntry {
            id: format!(
                "{name}:{} latin side={} holes={}",
                e.line,
                e.square.side(),
                e.square.holes()
            ),
            square: e.square,
            label: e.label,
        })
        .collect())
}

/// The trial `judged` (the Sudoku verdict on `answer`) checked against the Latin square the
/// puzzle came from: every grid must read back as a completion of `square` (so distinct
/// solutions are distinct completions: every other cell is a given), and a complete count or a
/// claim of infeasibility must equal the square's own number of completions. Any disagreement
/// makes the trial wrong.
pub fn judge_latin(judged: Trial, answer: &Answer, square: &LatinSquare) -> Trial {
    if !judged.status.is_success() {
        return judged;
    }
    let (grids, exact) = match answer {
        Answer::Solve(o) => match &o.status {
            Status::Solved(g) => (std::slice::from_ref(g), None),
            Status::Infeasible => (&[][..], Some(0)),
            _ => return judged,
        },
        Answer::Count(c) => (
            &c.solutions[..],
            (c.end == CountEnd::Complete).then_some(c.count),
        ),
        _ => return judged,
    };
    for g in grids {
        if let Err(e) = square.check_completion(&sudoku_to_latin(g)) {
            return wrong(
                judged,
                format!("a solution read back is no completion of the Latin square: {e}"),
            );
        }
    }
    let Some(found) = exact else {
        return judged;
    };
    // One more than claimed, so that a square with more completions shows it.
    let want = found.saturating_add(1);
    match square.count_completions(want, RECOUNT_NODES) {
        None => Trial {
            message: format!(
                "Latin completions not recounted (more than {RECOUNT_NODES} search steps)"
            ),
            ..judged
        },
        Some(k) if k != found => wrong(
            judged,
            format!(
                "the Sudoku has {found} solution{}, the Latin square {}{k} completion{}",
                plural(found),
                if k == want { "at least " } else { "" },
                plural(k),
            ),
        ),
        Some(_) => judged,
    }
}

fn plural(k: u64) -> &'static str {
    if k == 1 {
        ""
    } else {
        "s"
    }
}

fn wrong(judged: Trial, message: String) -> Trial {
    Trial {
        status: TrialStatus::Wrong,
        verified: Some(false),
        message,
        ..judged
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use sudoku_analysis::files;
    use sudoku_core::{CountOutcome, Outcome, Stats};
    use sudoku_gen::latin_to_sudoku;

    use super::*;
    use crate::clock::RealClock;
    use crate::execute::{execute_plan, ExecOptions};
    use crate::experiment::{self, Overrides};
    use crate::judge::judge;
    use crate::plan::make_plan;
    use crate::registry::Registry;
    use crate::results::{read_rows, Row};
    use crate::sink::Quiet;

    /// The committed squares.
    fn small() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/latin/small.txt")
    }

    /// The rows of a one-thread run of `kind` with `methods` on the squares of `file`.
    fn run(file: &Path, kind: &str, methods: &[&str], out: &Path) -> Result<Vec<Row>> {
        let methods: String = methods
            .iter()
            .map(|m| format!("[[method]]\nname = \"{m}\"\n"))
            .collect();
        let text = format!(
            "name = \"latin\"\nseed = 1\nkind = \"{kind}\"\ncount_limit = 2000\n[budget]\ntime_limit = 60.0\n{methods}[[instances]]\nlatin = \"{}\"\n",
            file.display()
        );
        let plan = make_plan(
            experiment::parse(&text)?,
            &Registry::standard(),
            &Overrides::default(),
        )?;
        let opts = ExecOptions {
            out: out.to_path_buf(),
            resume: None,
            shard: None,
            jobs: 1,
            commit: String::new(),
            clock: &RealClock::new(),
            sink: &Quiet,
        };
        execute_plan(&plan, &opts)?;
        Ok(read_rows(&out.join(files::TRIALS))?)
    }

    /// The counts the file's labels state (`…: 12 completions`).
    fn stated(label: &str) -> u64 {
        let words: Vec<&str> = label.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| w.starts_with("completion"))
            .unwrap_or_else(|| panic!("no count in {label:?}"));
        words[at - 1].parse().unwrap()
    }

    #[test]
    fn counts_of_the_reduced_sudoku_equal_the_latin_counts_on_the_committed_squares() {
        let text = std::fs::read_to_string(small()).unwrap();
        let squares = parse_latin(&text, "small.txt").unwrap();
        assert!(squares.len() >= 10);
        let dir = tempfile::tempdir().unwrap();
        let rows = run(&small(), "count", &["prop", "dlx"], dir.path()).unwrap();
        assert_eq!(rows.len(), 2 * squares.len());
        for (i, e) in squares.iter().enumerate() {
            let latin = e.square.count_completions(u64::MAX, u64::MAX).unwrap();
            assert_eq!(
                latin,
                stated(e.label.as_deref().unwrap()),
                "line {}",
                e.line
            );
            for r in rows.iter().filter(|r| r.task % squares.len() == i) {
                let id = format!(
                    ":{} latin side={} holes={}",
                    e.line,
                    e.square.side(),
                    e.square.holes()
                );
                assert!(r.instance.ends_with(&id), "{} {id}", r.instance);
                assert_eq!(r.order, e.square.side());
                assert_eq!(r.count, Some(latin), "{} on {}", r.method, r.instance);
                let status = match latin {
                    0 => TrialStatus::Infeasible,
                    1 => TrialStatus::Solved,
                    _ => TrialStatus::Multiple,
                };
                assert_eq!(
                    r.status, status,
                    "{} on {}: {}",
                    r.method, r.instance, r.message
                );
                assert_eq!(r.verified, (latin > 0).then_some(true));
                assert!(r.message.is_empty(), "{}", r.message);
            }
        }
    }

    #[test]
    fn a_square_without_completion_is_infeasible_and_solutions_are_completions() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sq.txt");
        std::fs::write(&file, "# none\n1../..1/.2.\n# one\n12./..1/...\n").unwrap();
        let rows = run(
            &file,
            "solve",
            &["prop", "dlx", "backtrack"],
            &dir.path().join("o"),
        )
        .unwrap();
        let statuses: Vec<TrialStatus> = rows.iter().map(|r| r.status).collect();
        use TrialStatus::{Infeasible, Solved};
        assert_eq!(
            statuses,
            [Infeasible, Solved, Infeasible, Solved, Infeasible, Solved]
        );
        assert!(rows.iter().all(|r| r.givens == 81 - 6), "{rows:?}");
    }

    #[test]
    fn a_malformed_square_stops_the_plan_naming_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        for (text, want) in [
            (
                "12./..1/...\n\n1.1......\n",
                ":3: symbol 1 is twice in row 1",
            ),
            (
                "12./..1/...\n1.4......\n",
                ":2: row 1, column 3: symbol 4 is out of range 1..=3",
            ),
            (
                "# c\n12./..1/..\n",
                ":2: row 3 has 2 cells; 3 rows make a square of side 3",
            ),
            ("........\n", ":1: 8 cells is not n²"),
        ] {
            let file = dir.path().join("bad.txt");
            std::fs::write(&file, text).unwrap();
            let e = run(&file, "count", &["prop"], &dir.path().join("o"))
                .unwrap_err()
                .to_string();
            let want = format!("{}{want}", file.display());
            assert!(e.starts_with(&want), "{e}\n{want}");
        }
    }

    /// Answers that disagree with the square are wrong even when the Sudoku verifier passes
    /// them: a count short of the completions, and an infeasibility claim on a feasible square.
    #[test]
    fn answers_that_disagree_with_the_square_are_wrong() {
        let square = LatinSquare::new(3, vec![0; 9]).unwrap();
        let puzzle = latin_to_sudoku(3, square.cells()).unwrap();
        let mut rng = sudoku_core::rng_from_seed(0);
        let budget = sudoku_core::Budget::unlimited();
        let mut prop = sudoku_prop::Prop::default();
        let mut full = sudoku_core::Solver::count(
            &mut prop,
            &puzzle,
            sudoku_core::Count::collecting(100),
            &budget,
            &mut rng,
        )
        .unwrap();
        assert_eq!(full.count, 12);
        let judged = |a: &Answer| judge_latin(judge(a, &puzzle), a, &square);
        assert_eq!(
            judged(&Answer::Count(full.clone())).status,
            TrialStatus::Multiple
        );
        full.solutions.truncate(11);
        full.count = 11;
        let t = judged(&Answer::Count(full.clone()));
        assert_eq!(t.status, TrialStatus::Wrong);
        assert_eq!(
            t.message,
            "the Sudoku has 11 solutions, the Latin square at least 12 completions"
        );
        let none = Answer::Count(CountOutcome {
            count: 0,
            end: CountEnd::Complete,
            solutions: vec![],
            stats: Stats::default(),
        });
        assert_eq!(judged(&none).status, TrialStatus::Wrong);
        let claim = Answer::Solve(Outcome {
            status: Status::Infeasible,
            stats: Stats::default(),
        });
        let t = judged(&claim);
        assert_eq!(
            (t.status, t.message.as_str()),
            (
                TrialStatus::Wrong,
                "the Sudoku has 0 solutions, the Latin square at least 1 completion"
            )
        );
    }
}
