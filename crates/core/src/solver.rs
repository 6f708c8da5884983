//! The contract between methods and the runner: [`Solver`], [`Generator`], [`Budget`] and
//! [`Outcome`].

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{Grid, Order, ParamError, Puzzle, Rng, Variant};

/// How much a method may spend. `None` is no limit. Methods check the limits they can check
/// (a node count for searches, iterations for local search, wall time for all) and stop
/// cleanly with [`Status::Exhausted`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Wall-clock limit, measured from the start of the call.
    pub time: Option<Duration>,
    /// Search-node limit (exact searches).
    pub nodes: Option<u64>,
    /// Iteration limit (local search: moves evaluated; generators: attempts).
    pub iterations: Option<u64>,
}

impl Budget {
    /// No limit at all.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// Only a time limit.
    pub fn time(limit: Duration) -> Budget {
        Budget {
            time: Some(limit),
            ..Budget::default()
        }
    }

    /// The instant at which the time limit runs out, for a call that started at `start`; none
    /// when the limit is so far away that the clock cannot represent it (then it never runs out).
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.and_then(|t| start.checked_add(t))
    }
}

/// A cheap clock for hot loops: reads the time only every `stride` calls.
#[derive(Clone, Debug)]
pub struct Deadline {
    at: Option<Instant>,
    stride: u32,
    count: u32,
    expired: bool,
}

impl Deadline {
    /// A deadline `budget.time` from now, checked every `stride` calls of [`Deadline::expired`].
    pub fn new(budget: &Budget, stride: u32) -> Deadline {
        Deadline {
            at: budget.deadline(Instant::now()),
            stride: stride.max(1),
            count: 0,
            expired: false,
        }
    }

    /// Has the time run out? Once true, stays true.
    #[inline]
    pub fn expired(&mut self) -> bool {
        if self.expired {
            return true;
        }
        let Some(at) = self.at else { return false };
        self.count += 1;
        if self.count >= self.stride {
            self.count = 0;
            self.expired = Instant::now() >= at;
        }
        self.expired
    }
}

/// Which limit stopped a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Limit {
    /// The time limit.
    Time,
    /// The node limit.
    Nodes,
    /// The iteration limit.
    Iterations,
}

impl Limit {
    /// The name used in results.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Time => "time",
            Limit::Nodes => "nodes",
            Limit::Iterations => "iterations",
        }
    }
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// A solution (for a [`Generator`]: the grid it produced). Not yet verified: the caller
    /// runs [`crate::verify_solution`].
    Solved(Grid),
    /// The method proved there is no solution.
    Infeasible,
    /// A limit ran out first; `best` is the best complete assignment found, if the method
    /// keeps one (the metaheuristics do; its cost is in [`Stats::best_cost`]).
    Exhausted {
        /// The limit that ran out.
        limit: Limit,
        /// Best effort, possibly violating constraints.
        best: Option<Grid>,
    },
    /// An incomplete rule solver (sudoku-logic's `logic`) has no enabled rule left that makes
    /// progress: the puzzle is not solvable by those rules. Nothing is claimed about its
    /// solutions; what the rules deduced is kept.
    Stuck {
        /// The digits placed so far, givens included (0 = still open).
        grid: Grid,
        /// The candidates left in every cell, row-major (empty for a filled cell).
        candidates: Vec<Vec<u16>>,
    },
}

/// One point of a convergence trace.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TracePoint {
    /// Iterations done when this best cost was reached.
    pub iteration: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// The best cost so far.
    pub best_cost: u64,
}

/// What a call did. Fields a method does not track stay at their defaults.
///
/// A statistic is a field here and one line in `sudoku-analysis`'s row schema (its column).
/// Every field crosses from a forked child with the rest (`sudoku-isolate` sends the derived
/// encoding; its test of every field names each one) unless it is marked `#[serde(skip)]`, as
/// only `child_cpu` is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Search nodes (assignments tried, or branch-and-bound nodes).
    pub nodes: u64,
    /// Branching decisions with more than one choice.
    pub guesses: u64,
    /// Local-search iterations, or simplex iterations for the ILP.
    pub iterations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Best cost reached (0 for a solution) by methods that minimise a cost.
    pub best_cost: Option<u64>,
    /// Objective value (ILP).
    pub objective: Option<f64>,
    /// Time spent building a model before solving (ILP), not included in the solve.
    pub build_time: Option<Duration>,
    /// Time at which the best cost was first reached.
    pub time_to_best: Option<Duration>,
    /// The solver's own clock: the time of its search alone, without start-up, reading the
    /// puzzle or building a model (an external program's reported `solve_ms`; `sat`'s time
    /// inside its SAT solver). A solver that reports only CPU time gives that (Kissat), and
    /// `sat` gives its CPU time too, so that the two SAT solvers share a clock. Two methods are
    /// compared on it only when both report it.
    pub solve_time: Option<Duration>,
    /// Method-specific statistics, as name/value pairs (e.g. CBC's status).
    pub extra: Vec<(String, String)>,
    /// Convergence trace: best cost over iterations, when asked for.
    pub trace: Vec<TracePoint>,
    /// CPU time spent outside the calling thread: processes the method ran (an external
    /// solver, a forked child) and threads it started beside the calling one, which the
    /// runner's clock of its own thread does not see; the runner adds it to the trial's CPU
    /// time. Measured by the parent (`sudoku-isolate`'s `Child::cpu`, or the method joining its
    /// threads), so it does not cross.
    #[serde(skip)]
    pub child_cpu: Option<Duration>,
    /// Threads the call ran on at once (0 or 1: the calling thread alone), so that results
    /// mark a multi-threaded configuration and its wall time is read beside its CPU time.
    pub threads: u32,
    /// Why the method could not answer (an external solver crashed or printed something that
    /// is not an answer): the trial is an `error` with this message, whatever the status says.
    pub error: Option<String>,
    /// What the method printed that may explain a trial that did not succeed (an external
    /// solver's standard-error tail); the runner appends it to such a row's message.
    pub log: Option<String>,
    /// The answer's "no solution", or its count said to be complete, comes from a program
    /// outside this process, which shows no proof (`external`, `sat solver=kissat` or
    /// `command=`): the runner's judge checks it with a complete method of its own before it
    /// is reported, and a false one makes the trial `wrong`. Grids need no such mark: the
    /// verifier checks each.
    pub claims_unproven: bool,
}

/// The result of [`Solver::solve`] or [`Generator::generate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// What it did.
    pub stats: Stats,
}

impl Status {
    /// The verdict of a complete search asked for one solution: the solution it found;
    /// otherwise `Exhausted` when a budget ran out first (no grid), else `Infeasible` (it
    /// searched everything).
    pub fn of_search(found: Option<Grid>, end: CountEnd) -> Status {
        match (found, end) {
            (Some(grid), _) => Status::Solved(grid),
            (None, CountEnd::Exhausted(limit)) => Status::Exhausted { limit, best: None },
            (None, _) => Status::Infeasible,
        }
    }
}

/// How a count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountEnd {
    /// The search finished: the count is exact.
    Complete,
    /// The count reached the requested limit: there are at least that many.
    LimitReached,
    /// A budget limit ran out: the count is a lower bound.
    Exhausted(Limit),
}

/// The result of [`Solver::count`].
#[derive(Clone, Debug, PartialEq)]
pub struct CountOutcome {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// Whether `count` is exact, a limit, or a lower bound.
    pub end: CountEnd,
    /// The solutions found, when collection was asked for.
    pub solutions: Vec<Grid>,
    /// What it did.
    pub stats: Stats,
}

/// What [`Solver::count`] is asked: how many solutions to look for, and whether to keep them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The count stops at this many solutions (0 asks for none: the answer is 0 at once).
    pub limit: u64,
    /// Whether the solutions found are returned.
    pub collect: bool,
}

impl Count {
    /// Up to `limit` solutions, counted only.
    pub fn upto(limit: u64) -> Count {
        Count {
            limit,
            collect: false,
        }
    }

    /// Up to `limit` solutions, returned.
    pub fn collecting(limit: u64) -> Count {
        Count {
            limit,
            collect: true,
        }
    }
}

/// What [`Solver::count`] and [`Solver::count_other`] return.
pub type Counted = Result<CountOutcome, Unsupported>;

/// The carver's question to [`Solver::count_other`]: `puzzle`'s only solution was `solution`
/// until the clues at `removed` were taken out; is there another one now?
#[derive(Clone, Copy, Debug)]
pub struct OtherSolution<'a> {
    /// The puzzle with the clues removed.
    pub puzzle: &'a Puzzle,
    /// Its known solution.
    pub solution: &'a Grid,
    /// The cells whose clues were just removed.
    pub removed: &'a [usize],
}

impl CountOutcome {
    /// The answer to a count asked for no solutions: 0, at the limit, with nothing done.
    pub fn nothing_asked() -> CountOutcome {
        CountOutcome {
            count: 0,
            end: CountEnd::LimitReached,
            solutions: Vec::new(),
            stats: Stats::default(),
        }
    }
}

/// A method that does not do what was asked (e.g. counting with an incomplete method).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("method `{method}` cannot {what}")]
pub struct Unsupported {
    /// The method's name.
    pub method: String,
    /// What it cannot do.
    pub what: &'static str,
}

/// A solving method. Implementations own their scratch space and may reuse it across calls.
pub trait Solver {
    /// The method's registered name (e.g. `prop`).
    fn name(&self) -> &str;

    /// Solves `puzzle` within `budget`. All randomness comes from `rng`, so a seed
    /// reproduces the call. Contradictory givens end as [`Status::Infeasible`] (complete
    /// methods) or [`Status::Exhausted`] (incomplete ones), never as a panic.
    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome;

    /// Checks the configuration against puzzles of `order` before any is solved, so that a
    /// parameter that cannot apply (a cell or digit outside the grid) is a parameter error
    /// and not an outcome of every trial. The default accepts every order.
    fn check_order(&self, order: Order) -> Result<(), ParamError> {
        let _ = order;
        Ok(())
    }

    /// The threads a call may use at most, as configured (the default: one).
    fn threads(&self) -> usize {
        1
    }

    /// Completes the statistics of the last [`Solver::solve`] or [`Solver::count`] with what
    /// is read after the call rather than during it, so that the reading is not timed as the
    /// method's work (an external program's CPU time). Callers that time calls call it after
    /// stopping their clock; the default has nothing to add.
    fn settle(&mut self, stats: &mut Stats) {
        let _ = stats;
    }

    /// Counts solutions up to `ask.limit` (keeping them when `ask.collect` is true). Only
    /// complete methods can; the default says so.
    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, rng: &mut Rng) -> Counted {
        let _ = (puzzle, ask, budget, rng);
        Err(Unsupported {
            method: self.name().to_string(),
            what: "count solutions",
        })
    }

    /// Whether `ask.puzzle` has a solution besides `ask.solution`: the question a carver asks
    /// for every clue it tries to remove (see [`OtherSolution`]). Answers like [`Solver::count`] with
    /// limit 2 (1: still unique, 2: another solution exists). The default counts; a method
    /// that can keep what it learns between calls (`sat`) answers from that instead.
    fn count_other(&mut self, ask: OtherSolution<'_>, budget: &Budget, rng: &mut Rng) -> Counted {
        self.count(ask.puzzle, Count::upto(2), budget, rng)
    }
}

/// A full-grid generator.
pub trait Generator {
    /// The generator's registered name (e.g. `prop-fill`).
    fn name(&self) -> &str;

    /// Produces a full grid of `order` satisfying `variant` within `budget`, as
    /// [`Status::Solved`]; restarts go in [`Stats::restarts`].
    fn generate(
        &mut self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Outcome;
}
