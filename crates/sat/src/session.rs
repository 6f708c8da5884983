//! One CaDiCaL instance loaded with one puzzle's CNF, solved in as many slices as the caller
//! wants: each call resumes with everything learned so far. `sat` asks it once per solution;
//! `hybrid` (crate `sudoku-hybrid`) gives it conflict budgets between slices of local search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_core::{Grid, Limit, Puzzle};

use crate::cdcl::{Cadical, Hooks};
use crate::config::SatConfig;
use crate::encode::{encode_infeasible, encode_within, ClauseSink, Cnf, Layout};
use crate::error::SatError;
use crate::reduce::{reduce, Reduced};

/// The CaDiCaL version the `cadical` crate builds.
pub const CADICAL_VERSION: &str = "1.9.5";

/// See [`Session::needs_isolation`].
const ISOLATE_FROM_ORDER: usize = 6;

/// How one [`Session::solve`] call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution (decoded; not yet blocked).
    Found(Grid),
    /// No (further) solution: the formula, with the blocking clauses added, is unsatisfiable.
    Unsat,
    /// The call's conflict budget or the deadline ran out first.
    Stopped(Limit),
}

/// A puzzle's CNF inside a CaDiCaL instance.
pub struct Session {
    solver: Cadical<Watch>,
    layout: Layout,
    order: sudoku_core::Order,
    build: Duration,
    logic_time: Option<Duration>,
    infeasible_by: &'static str,
    loaded: bool,
    calls: u64,
    solve_time: Duration,
}

/// A puzzle's formula as `sat` builds it, and what building it found.
pub(crate) struct Built {
    /// How variables map to cells.
    pub layout: Layout,
    /// Time the rules of `logic=` took, when run.
    pub logic_time: Option<Duration>,
    /// What proved the puzzle infeasible, if anything did (see [`Session::infeasible_by`]).
    pub infeasible_by: &'static str,
}

/// Writes the CNF that `cfg` makes of `puzzle` into `sink`: the rules of `cfg.logic` first
/// (their placements and eliminations shrink the formula), then the encoding. Every back end
/// gets its formula from here, so CaDiCaL and a DIMACS program solve the same CNF.
pub(crate) fn build(
    puzzle: &Puzzle,
    cfg: &SatConfig,
    deadline: Option<Instant>,
    sink: &mut impl ClauseSink,
) -> Result<Built, SatError> {
    let (reduced, logic_time) = match cfg.logic {
        Some(rules) => {
            let (r, t) = reduce(puzzle, rules, deadline);
            (r, Some(t))
        }
        None => (Reduced::Unchanged, None),
    };
    let (input, candidates) = match &reduced {
        Reduced::Open { puzzle, candidates } => (puzzle, Some(&candidates[..])),
        _ => (puzzle, None),
    };
    let (layout, infeasible_by) = if matches!(reduced, Reduced::Contradiction) {
        (encode_infeasible(puzzle, sink), "logic")
    } else {
        let (encoding, amo, boxline) = (cfg.encoding, cfg.amo, cfg.boxline);
        let layout = encode_within(input, candidates, encoding, amo, boxline, sink)?;
        (layout, "propagation")
    };
    Ok(Built {
        layout,
        logic_time,
        infeasible_by,
    })
}

/// The CNF that `sat` with `cfg` hands its SAT solver for `puzzle` (the rules of `logic=`,
/// the encoding and its options), in memory, with the map from its variables to the grid:
/// what `convert --to dimacs` writes and what a DIMACS program reads.
pub fn formula(puzzle: &Puzzle, cfg: &SatConfig) -> Result<(Cnf, Layout), SatError> {
    let mut cnf = Cnf::default();
    let built = build(puzzle, cfg, None, &mut cnf)?;
    Ok((cnf, built.layout))
}

impl Session {
    /// Encodes `puzzle` straight into a new CaDiCaL instance, after the rules of `cfg.logic`
    /// if any. Loading stops early when `deadline` passes (see [`Session::loaded`]): a 64×64
    /// formula takes seconds to load.
    pub fn new(
        puzzle: &Puzzle,
        cfg: SatConfig,
        deadline: Option<Instant>,
    ) -> Result<Session, SessionError> {
        let start = Instant::now();
        let options = cfg.cadical_options().map_err(SessionError::Solver)?;
        let watch = Watch {
            deadline: None,
            stop: None,
            calls: 0,
            timed_out: false,
            learned: 0,
        };
        let mut solver = Cadical::new(cfg.preset.name(), &options, watch)
            .map_err(|e| SessionError::Solver(e.to_string()))?;
        let mut sink = Feed {
            solver: &mut solver,
            deadline,
            added: 0,
            expired: false,
        };
        let built = build(puzzle, &cfg, deadline, &mut sink)?;
        let loaded = !sink.expired;
        Ok(Session {
            solver,
            layout: built.layout,
            order: puzzle.order(),
            build: start.elapsed(),
            logic_time: built.logic_time,
            infeasible_by: built.infeasible_by,
            loaded,
            calls: 0,
            solve_time: Duration::ZERO,
        })
    }

    /// Time the rules of `logic=` took before encoding (part of [`Session::build_time`]);
    /// none when they were not run.
    pub fn logic_time(&self) -> Option<Duration> {
        self.logic_time
    }

    /// What proved the puzzle infeasible before solving, when [`Layout::infeasible`]:
    /// `logic` (the rules of `logic=`) or `propagation` (the encoding's).
    pub fn infeasible_by(&self) -> &'static str {
        self.infeasible_by
    }

    /// Whether a call with a time limit on `puzzle` must run in a child process killed at the
    /// deadline (`sudoku-isolate`): from 36×36 on, CaDiCaL polls its terminate callback too
    /// rarely while it loads and first simplifies the formula (a 64×64 puzzle with a 5 s
    /// limit returned after 6.2 s in the calling process). Below that CaDiCaL stops on time,
    /// and a fork (a millisecond or more) would weigh on calls that take milliseconds.
    pub fn needs_isolation(puzzle: &Puzzle) -> bool {
        cfg!(unix) && puzzle.order().n() >= ISOLATE_FROM_ORDER
    }

    /// How variables map to cells, and the size of the CNF.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Time spent encoding and loading.
    pub fn build_time(&self) -> Duration {
        self.build
    }

    /// Whether every clause went in (false: the deadline passed while loading, and the
    /// session cannot answer).
    pub fn loaded(&self) -> bool {
        self.loaded
    }

    /// Conflicts so far, over all calls. CaDiCaL learns one clause per conflict and its C API
    /// has no statistics, so this counts the learned clauses it reports.
    pub fn conflicts(&mut self) -> u64 {
        self.solver.hooks().learned
    }

    /// A flag that, once set (by another thread), ends the current and every later
    /// [`Session::solve`] as if its deadline had passed: how a search running beside this one
    /// stops it when it has the answer.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.solver.hooks().stop = Some(flag);
    }

    /// Calls of CaDiCaL's `solve` so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Searches for a solution for at most `conflicts` more conflicts (none: no limit) and
    /// until `deadline`. Propagation at encoding time may already have proved the puzzle
    /// infeasible; then this answers [`Answer::Unsat`] without searching.
    pub fn solve(&mut self, conflicts: Option<u64>, deadline: Option<Instant>) -> Answer {
        if self.layout.infeasible {
            return Answer::Unsat;
        }
        if !self.loaded || deadline.is_some_and(|d| Instant::now() >= d) {
            return Answer::Stopped(Limit::Time);
        }
        let w = self.solver.hooks();
        w.deadline = deadline;
        w.timed_out = false;
        if let Some(max) = conflicts {
            if max == 0 {
                return Answer::Stopped(Limit::Nodes);
            }
            // CaDiCaL's conflict limit is per `solve` call and an i32; "conflicts" is one of
            // the limits it knows, so this cannot fail.
            let _ = self
                .solver
                .limit("conflicts", max.min(i32::MAX as u64) as i32);
        }
        self.calls += 1;
        // CPU time of this thread, as Kissat's own figure is its process's CPU time: on a
        // shared machine the wall clock would count other programs' turns too.
        let cpu = sudoku_isolate::thread_cpu_time();
        let result = self.solver.solve();
        self.solve_time += sudoku_isolate::thread_cpu_time().saturating_sub(cpu);
        match result {
            Some(true) => Answer::Found(self.decode()),
            Some(false) => Answer::Unsat,
            None => {
                let timed_out = self.solver.hooks().timed_out;
                Answer::Stopped(if timed_out { Limit::Time } else { Limit::Nodes })
            }
        }
    }

    /// CPU time spent inside CaDiCaL's `solve`, over all calls (the thread's CPU clock): the
    /// solver's own clock, without encoding or loading ([`Session::build_time`]).
    pub fn solve_time(&self) -> Duration {
        self.solve_time
    }

    /// Excludes `grid` from later answers (a blocking clause over its open cells).
    pub fn block(&mut self, grid: &Grid) {
        let layout = &self.layout;
        let clause: Vec<i32> = (0..layout.fixed.len())
            .filter(|&c| layout.fixed[c] == 0)
            .filter_map(|c| layout.var(c, grid.get(c)))
            .map(|v| -v)
            .collect();
        self.solver.add_clause(&clause);
    }

    /// Adds a clause for every later call.
    pub fn add_clause(&mut self, clause: &[i32]) {
        self.solver.add_clause(clause);
    }

    /// The grid of the solver's model.
    fn decode(&self) -> Grid {
        self.layout.decode(self.order, |v| self.solver.value(v))
    }

    /// Frees CaDiCaL's memory on a thread of its own: at 64×64 that takes about a second,
    /// which would otherwise count against the time limit after the answer is known. In an
    /// isolated child (`in_child`) it is not freed at all: the child's exit hands the memory
    /// back at once.
    pub fn release(self, in_child: bool) {
        if in_child {
            std::mem::forget(self.solver);
            return;
        }
        let solver = self.solver;
        // If no thread can be started, the closure, and the solver with it, is dropped here.
        let _ = std::thread::Builder::new()
            .name("sat-release".into())
            .spawn(move || drop(solver));
    }
}

/// Why a [`Session`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The CNF cannot be built.
    #[error(transparent)]
    Encoding(#[from] SatError),
    /// CaDiCaL refused its configuration.
    #[error("sat: {0}")]
    Solver(String),
}

/// Clauses go straight into the solver, until the deadline.
struct Feed<'a> {
    solver: &'a mut Cadical<Watch>,
    deadline: Option<Instant>,
    added: u64,
    expired: bool,
}

impl ClauseSink for Feed<'_> {
    fn add_clause(&mut self, lits: &[i32]) {
        if self.expired {
            return;
        }
        self.added += 1;
        if self.added % 4096 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.expired = true;
            return;
        }
        self.solver.add_clause(lits);
    }
}

/// CaDiCaL's callbacks: the deadline of the current call, and a count of learned clauses.
struct Watch {
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    calls: u32,
    timed_out: bool,
    learned: u64,
}

impl Hooks for Watch {
    fn terminate(&mut self) -> bool {
        if self.deadline.is_none() && self.stop.is_none() {
            return false;
        }
        // Called at every decision and restart: read the clock and the flag every 64 calls.
        self.calls = self.calls.wrapping_add(1);
        if !self.timed_out && self.calls % 64 == 0 {
            self.timed_out = self.deadline.is_some_and(|at| Instant::now() >= at)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed));
        }
        self.timed_out
    }

    fn learned(&mut self) {
        self.learned += 1;
    }
}
