//! The one trial contract: what a method answered, judged against its puzzle by
//! `sudoku-core`'s verifier, becomes a typed [`Trial`]. `run`, `solve` and `generate` all judge
//! through [`judge`], so a status means the same thing everywhere.

use std::collections::HashSet;

use std::time::Duration;

use sudoku_core::format::to_text;
use sudoku_core::{
    check_givens, rng_from_seed, verify_solution, Budget, Count, CountEnd, CountOutcome, Grid,
    Limit, Outcome, Puzzle, RelaxReport, Solver, Stats, Status,
};

use sudoku_gen::Carved;

use crate::logic_lp::LogicLpReport;
use crate::results::{KindColumns, Row, TrialStatus};

/// What a method returned for one puzzle, before judging.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A solve.
    Solve(Outcome),
    /// A generated grid, and the puzzle carved from it when carving was asked (or why carving
    /// failed).
    Generate {
        /// The generator's outcome.
        outcome: Outcome,
        /// The carved puzzle (its givens, and why carving stopped).
        carved: Option<Result<Carved, String>>,
    },
    /// A count of solutions.
    Count(CountOutcome),
    /// An LP relaxation.
    Relax(RelaxReport),
    /// Kind `logic-lp`: rule sets and the LP relaxation on one puzzle.
    LogicLp(LogicLpReport),
}

impl Answer {
    /// CPU time of processes the method ran (external solvers), beside its own thread's.
    pub fn child_cpu(&self) -> std::time::Duration {
        let stats = match self {
            Answer::Solve(o) | Answer::Generate { outcome: o, .. } => &o.stats,
            Answer::Count(c) => &c.stats,
            Answer::Relax(r) => return r.child_cpu.unwrap_or_default(),
            Answer::LogicLp(_) => return std::time::Duration::ZERO,
        };
        stats.child_cpu.unwrap_or_default()
    }

    /// Whether its "no solution" or complete count comes from an outside program, unproven
    /// ([`Stats::claims_unproven`]): [`judge_checked`] checks such a claim.
    pub fn claims_unproven(&self) -> bool {
        match self {
            Answer::Solve(o) | Answer::Generate { outcome: o, .. } => o.stats.claims_unproven,
            Answer::Count(c) => c.stats.claims_unproven,
            Answer::Relax(_) | Answer::LogicLp(_) => false,
        }
    }

    /// What the method did, for the statistic columns.
    pub fn stats(&self) -> Stats {
        match self {
            Answer::Solve(o) | Answer::Generate { outcome: o, .. } => o.stats.clone(),
            Answer::Count(c) => c.stats.clone(),
            Answer::Relax(r) => {
                let mut extra = vec![
                    ("integral".to_string(), r.integral.to_string()),
                    ("fractional".to_string(), r.fractional.to_string()),
                ];
                if let Some(u) = r.unique {
                    extra.push(("unique".into(), u.to_string()));
                }
                extra.extend(r.extra.iter().cloned());
                Stats {
                    build_time: r.build_time,
                    extra,
                    ..Stats::default()
                }
            }
            Answer::LogicLp(r) => Stats {
                iterations: r.lp_iterations,
                extra: r.extra(),
                ..Stats::default()
            },
        }
    }
}

/// A judged trial: how it ended and why.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trial {
    /// How it ended.
    pub status: TrialStatus,
    /// Whether an answer was checked, and passed (`None`: nothing to check).
    pub verified: Option<bool>,
    /// Why it is wrong, why the puzzle is infeasible, or what failed.
    pub message: String,
    /// The limit that ran out, if one did.
    pub limit: Option<Limit>,
    /// Solutions counted (counts only).
    pub count: Option<u64>,
    /// Clues of the carved puzzle (generate with carving).
    pub givens: Option<usize>,
    /// The columns of the trial's kind alone, when it has any.
    pub kind_columns: Option<KindColumns>,
}

impl Trial {
    /// A trial that could not run.
    pub fn error(message: impl Into<String>) -> Trial {
        Trial {
            status: TrialStatus::Error,
            message: message.into(),
            ..Trial::default()
        }
    }

    fn wrong(message: impl Into<String>) -> Trial {
        Trial {
            status: TrialStatus::Wrong,
            verified: Some(false),
            message: message.into(),
            ..Trial::default()
        }
    }

    fn stopped(limit: Limit) -> Trial {
        Trial {
            status: TrialStatus::from_limit(limit),
            limit: Some(limit),
            ..Trial::default()
        }
    }

    /// The status with its reason, for messages: `wrong: …`, `failed (nodes limit)`.
    pub fn describe(&self) -> String {
        match (self.limit, self.message.is_empty()) {
            (Some(Limit::Time), _) => self.status.to_string(),
            (Some(l), _) => format!("{} ({} limit)", self.status, l.name()),
            (None, true) => self.status.to_string(),
            (None, false) => format!("{}: {}", self.status, self.message),
        }
    }

    /// Writes the trial's columns into a row.
    pub fn fill(&self, row: &mut Row) {
        row.status = self.status;
        row.verified = self.verified;
        row.message.clone_from(&self.message);
        row.limit = self.limit.map(|l| l.name().to_string()).unwrap_or_default();
        row.count = self.count;
        if let Some(g) = self.givens {
            row.givens = g;
        }
        if let Some(c) = &self.kind_columns {
            row.kind_columns = Some(c.clone());
        }
    }
}

/// Judges a method's answer for `puzzle`: every grid passes the verifier or the trial is
/// `wrong`; a claim of infeasibility is reported with the contradiction when the givens have one.
pub fn judge(answer: &Answer, puzzle: &Puzzle) -> Trial {
    let stats = match answer {
        Answer::Solve(o) | Answer::Generate { outcome: o, .. } => Some(&o.stats),
        Answer::Count(c) => Some(&c.stats),
        Answer::Relax(_) | Answer::LogicLp(_) => None,
    };
    // A method that says it could not answer (an external solver that crashed) is an error;
    // what it printed goes with any trial that did not succeed.
    if let Some(e) = stats.and_then(|s| s.error.as_ref()) {
        return Trial::error(e.clone());
    }
    let mut t = judge_answer(answer, puzzle);
    if let Some(log) = stats.and_then(|s| s.log.as_ref()) {
        if !t.status.is_success() {
            t.message = if t.message.is_empty() {
                log.clone()
            } else {
                format!("{}; {log}", t.message)
            };
        }
    }
    t
}

fn judge_answer(answer: &Answer, puzzle: &Puzzle) -> Trial {
    match answer {
        Answer::Solve(outcome) => judge_outcome(outcome, puzzle),
        Answer::Generate { outcome, carved } => {
            let grid_trial = judge_outcome(outcome, puzzle);
            match (&outcome.status, carved) {
                (Status::Solved(grid), Some(carved))
                    if grid_trial.status == TrialStatus::Solved =>
                {
                    judge_carved(grid, carved, puzzle)
                }
                _ => grid_trial,
            }
        }
        Answer::Count(c) => judge_count(c, puzzle),
        Answer::LogicLp(LogicLpReport {
            stopped: Some(limit),
            ..
        }) => Trial::stopped(*limit),
        Answer::LogicLp(r) => Trial {
            status: match r.solutions {
                0 => TrialStatus::Infeasible,
                1 => TrialStatus::Solved,
                _ => TrialStatus::Multiple,
            },
            count: Some(r.solutions),
            kind_columns: Some(KindColumns::LogicLp(r.columns())),
            ..Trial::default()
        },
        Answer::Relax(RelaxReport {
            stopped: Some(limit),
            ..
        }) => Trial::stopped(*limit),
        Answer::Relax(r) => Trial {
            status: if r.feasible {
                TrialStatus::Solved
            } else {
                TrialStatus::Infeasible
            },
            ..Trial::default()
        },
    }
}

fn judge_outcome(outcome: &Outcome, puzzle: &Puzzle) -> Trial {
    match &outcome.status {
        Status::Solved(grid) => judge_grid(puzzle, grid),
        Status::Infeasible => Trial {
            status: TrialStatus::Infeasible,
            // Contradictory givens really are infeasible; otherwise it is the method's claim
            // (complete methods prove it).
            message: check_givens(puzzle)
                .err()
                .map(|v| format!("contradictory givens: {v}"))
                .unwrap_or_default(),
            ..Trial::default()
        },
        Status::Exhausted { limit, .. } => Trial::stopped(*limit),
        Status::Stuck { grid, .. } => judge_stuck(puzzle, grid),
    }
}

/// A rule solver that stopped short: what it placed must keep the givens and repeat no digit
/// in a unit (a wrong deduction usually shows as one); nothing else can be checked.
fn judge_stuck(puzzle: &Puzzle, grid: &Grid) -> Trial {
    let givens = puzzle.givens();
    let kept = grid.order() == givens.order()
        && (0..givens.cells().len()).all(|c| givens.get(c) == 0 || givens.get(c) == grid.get(c));
    if !kept {
        return Trial::wrong("the stuck grid changes a given");
    }
    match check_givens(&Puzzle::new(grid.clone(), puzzle.variant())) {
        Ok(()) => Trial {
            status: TrialStatus::Stuck,
            message: format!("{} of {} cells filled", grid.filled(), grid.cells().len()),
            ..Trial::default()
        },
        Err(v) => Trial::wrong(format!("the stuck grid contradicts itself: {v}")),
    }
}

/// A verified grid and the puzzle carved from it: its givens must agree with the grid.
fn judge_carved(grid: &Grid, carved: &Result<Carved, String>, empty: &Puzzle) -> Trial {
    match carved {
        Ok(Carved { givens, .. }) => {
            let t = judge_grid(&Puzzle::new(givens.clone(), empty.variant()), grid);
            if t.status == TrialStatus::Solved {
                Trial {
                    givens: Some(givens.filled()),
                    ..t
                }
            } else {
                Trial::wrong(format!(
                    "the carved puzzle disagrees with its grid: {}",
                    t.message
                ))
            }
        }
        Err(e) => Trial::error(format!("carving failed: {e}")),
    }
}

/// A full grid claimed to solve `puzzle`.
pub fn judge_grid(puzzle: &Puzzle, grid: &Grid) -> Trial {
    match verify_solution(puzzle, grid) {
        Ok(()) => Trial {
            status: TrialStatus::Solved,
            verified: Some(true),
            ..Trial::default()
        },
        Err(v) => Trial::wrong(v.to_string()),
    }
}

fn judge_count(c: &CountOutcome, puzzle: &Puzzle) -> Trial {
    let mut seen = HashSet::new();
    for g in &c.solutions {
        if let Err(v) = verify_solution(puzzle, g) {
            return Trial {
                count: Some(c.count),
                ..Trial::wrong(format!("a counted solution is wrong: {v}"))
            };
        }
        if !seen.insert(g.cells()) {
            return Trial {
                count: Some(c.count),
                ..Trial::wrong("the same solution was counted twice")
            };
        }
    }
    // Two solutions found prove "several" even when a limit then ran out.
    let mut t = match (c.end, c.count) {
        (_, n) if n >= 2 => Trial {
            status: TrialStatus::Multiple,
            ..Trial::default()
        },
        (CountEnd::Complete, 0) => Trial {
            status: TrialStatus::Infeasible,
            ..Trial::default()
        },
        (CountEnd::Complete, _) | (CountEnd::LimitReached, _) => Trial {
            status: TrialStatus::Solved,
            ..Trial::default()
        },
        (CountEnd::Exhausted(limit), _) => Trial::stopped(limit),
    };
    t.count = Some(c.count);
    if !c.solutions.is_empty() {
        t.verified = Some(true);
    }
    t
}

/// [`judge`], then [`check_claim`] when the answer's claims come from an outside program
/// ([`Answer::claims_unproven`]): what `run` and `solve` do with every answer, whichever
/// method made it (`external`, `sat solver=kissat`, `sat command=`, or one registered from
/// outside the workspace that marks its answers). `budget` bounds the check as it bounded the
/// trial.
pub fn judge_checked(answer: &Answer, puzzle: &Puzzle, budget: &Budget) -> Trial {
    let trial = judge(answer, puzzle);
    if answer.claims_unproven() {
        check_claim(trial, answer, puzzle, budget)
    } else {
        trial
    }
}

/// How long the check of a claim may take when the trial had no time limit.
const CLAIM_CHECK_TIME: Duration = Duration::from_secs(60);

/// Checks what an outside program claims but cannot show: that `puzzle` has no solution, or
/// none beyond the ones it counted (a complete count below the limit, of 0, 1 or several). An
/// independent complete search (`prop` up to 16×16, `sat` beyond) looks for one solution more
/// within the trial's time limit (a minute when it had none): finding one makes the trial
/// `wrong`, a proof keeps the claim (verified), and a budget that runs out makes it
/// `unverified`, which is not a success.
pub fn check_claim(trial: Trial, answer: &Answer, puzzle: &Puzzle, budget: &Budget) -> Trial {
    let claimed = match (answer, trial.status) {
        (Answer::Solve(_), TrialStatus::Infeasible) => 0,
        (
            Answer::Count(c),
            TrialStatus::Infeasible | TrialStatus::Solved | TrialStatus::Multiple,
        ) if c.end == CountEnd::Complete => c.count,
        _ => return trial,
    };
    // Givens that contradict each other are the verifier's own proof.
    if claimed == 0 && check_givens(puzzle).is_err() {
        return Trial {
            verified: Some(true),
            ..trial
        };
    }
    let (name, mut checker): (&str, Box<dyn Solver>) = if puzzle.order().n() <= 4 {
        ("prop", Box::new(sudoku_prop::Prop::default()))
    } else {
        ("sat", Box::new(sudoku_sat::Sat::default()))
    };
    let limit = Budget::time(budget.time.unwrap_or(CLAIM_CHECK_TIME));
    let what = match claimed {
        0 => "no solution".to_string(),
        1 => "exactly one solution".to_string(),
        k => format!("exactly {k} solutions"),
    };
    // The solution to show when there should be none; beyond, a count (a claim of thousands
    // need not keep thousands of grids).
    let ask = if claimed == 0 {
        Count::collecting(1)
    } else {
        Count::upto(claimed.saturating_add(1))
    };
    let found = checker.count(puzzle, ask, &limit, &mut rng_from_seed(0));
    match found {
        Ok(c) if c.count > claimed => {
            let shown = c
                .solutions
                .iter()
                .find(|g| verify_solution(puzzle, g).is_ok())
                .map(|g| format!(": {}", to_text(g).trim_end()))
                .unwrap_or_default();
            let more = match c.count {
                1 => "a solution".to_string(),
                k => format!("{k} solutions"),
            };
            Trial {
                count: trial.count,
                ..Trial::wrong(format!("claimed {what}, but {name} found {more}{shown}"))
            }
        }
        Ok(c) if c.end == CountEnd::Complete => Trial {
            verified: Some(true),
            ..trial
        },
        _ => Trial {
            status: TrialStatus::Unverified,
            verified: None,
            message: format!(
                "claimed {what}; {name} could not confirm it within {} s",
                limit.time.unwrap_or_default().as_secs_f64()
            ),
            ..trial
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{CountOutcome, Variant};
    use sudoku_fixtures::{line_puzzle, seed_puzzles};

    /// What `judge` makes of an outside program's claim of infeasibility, then the check.
    fn infeasible_claim(puzzle: &Puzzle, budget: &Budget) -> Trial {
        let answer = Answer::Solve(Outcome {
            status: Status::Infeasible,
            stats: Stats::default(),
        });
        check_claim(judge(&answer, puzzle), &answer, puzzle, budget)
    }

    fn count_claim(puzzle: &Puzzle, count: u64, solutions: Vec<Grid>) -> Trial {
        let answer = Answer::Count(CountOutcome {
            count,
            end: CountEnd::Complete,
            solutions,
            stats: Stats::default(),
        });
        check_claim(
            judge(&answer, puzzle),
            &answer,
            puzzle,
            &Budget::unlimited(),
        )
    }

    #[test]
    fn a_false_claim_of_no_solution_is_wrong_and_a_true_one_verified() {
        let solvable = &seed_puzzles("001_jump.txt", Variant::Classic).unwrap()[0];
        let t = infeasible_claim(solvable, &Budget::unlimited());
        assert_eq!((t.status, t.verified), (TrialStatus::Wrong, Some(false)));
        assert!(t
            .message
            .starts_with("claimed no solution, but prop found a solution: "));
        // Row 1 holds 1-8 and column 9 already has its 9: no digit is left for the corner,
        // though no two givens clash (a search, not the verifier's check, proves it).
        let mut text = String::from("12345678.........9");
        text.push_str(&".".repeat(63));
        let t = infeasible_claim(&line_puzzle(&text), &Budget::unlimited());
        assert_eq!(
            (t.status, t.verified),
            (TrialStatus::Infeasible, Some(true))
        );
        let clash = line_puzzle(&format!("11{}", ".".repeat(79)));
        let t = infeasible_claim(&clash, &Budget::unlimited());
        assert_eq!(
            (t.status, t.verified),
            (TrialStatus::Infeasible, Some(true))
        );
    }

    #[test]
    fn a_count_that_misses_solutions_is_wrong() {
        let several = &seed_puzzles("000_unicamp_ilp.multiple.txt", Variant::Classic).unwrap()[0];
        let t = count_claim(several, 0, Vec::new());
        assert_eq!(t.status, TrialStatus::Wrong, "{}", t.message);
        assert!(t
            .message
            .starts_with("claimed no solution, but prop found a solution"));
        let (solved, _) = sudoku_prop::Prop::default()
            .count(
                several,
                Count::collecting(1),
                &Budget::unlimited(),
                &mut rng_from_seed(0),
            )
            .map(|c| (c.solutions, c.count))
            .unwrap();
        let t = count_claim(several, 1, solved);
        assert_eq!(t.status, TrialStatus::Wrong, "{}", t.message);
        assert!(t
            .message
            .contains("claimed exactly one solution, but prop found 2 solutions"));
    }

    /// The empty 4×4 grid has 288 solutions: a complete count of 2, each of the two a true
    /// solution, is a false claim of completeness.
    #[test]
    fn a_complete_count_of_several_below_the_limit_is_checked() {
        let empty = Puzzle::empty(sudoku_core::Order::new(2).unwrap(), Variant::Classic);
        let two: Vec<Grid> = ["1234341221434321", "1243431221343421"]
            .iter()
            .map(|t| line_puzzle(t).givens().clone())
            .collect();
        let t = count_claim(&empty, 2, two.clone());
        assert_eq!((t.status, t.count), (TrialStatus::Wrong, Some(2)));
        assert_eq!(
            t.message,
            "claimed exactly 2 solutions, but prop found 3 solutions"
        );
        // Not complete (the limit was reached): two verified solutions prove "several".
        let answer = Answer::Count(CountOutcome {
            count: 2,
            end: CountEnd::LimitReached,
            solutions: two,
            stats: Stats::default(),
        });
        let t = check_claim(
            judge(&answer, &empty),
            &answer,
            &empty,
            &Budget::unlimited(),
        );
        assert_eq!((t.status, t.verified), (TrialStatus::Multiple, Some(true)));
    }

    /// The check follows the answer's mark, not the method's name: the same "no solution"
    /// stands unchecked from one of our complete methods and is found false from an outside
    /// program.
    #[test]
    fn judge_checked_checks_the_answers_marked_unproven() {
        let solvable = &seed_puzzles("001_jump.txt", Variant::Classic).unwrap()[0];
        let claim = |claims_unproven| {
            let answer = Answer::Solve(Outcome {
                status: Status::Infeasible,
                stats: Stats {
                    claims_unproven,
                    ..Stats::default()
                },
            });
            judge_checked(&answer, solvable, &Budget::unlimited())
        };
        assert_eq!(claim(false).status, TrialStatus::Infeasible);
        let t = claim(true);
        assert_eq!(t.status, TrialStatus::Wrong);
        assert!(!t.message.ends_with('\n'), "{:?}", t.message);
    }

    #[test]
    fn a_claim_the_checker_cannot_settle_in_time_is_unverified() {
        let big = &seed_puzzles("001_jump.25x25.txt", Variant::Classic).unwrap()[0];
        let t = infeasible_claim(big, &Budget::time(Duration::from_nanos(1)));
        assert_eq!((t.status, t.verified), (TrialStatus::Unverified, None));
        assert!(!t.status.is_success());
        assert!(
            t.message.contains("sat could not confirm it"),
            "{}",
            t.message
        );
    }
}
