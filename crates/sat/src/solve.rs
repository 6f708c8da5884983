//! The `sat` method: encode, hand the clauses to CaDiCaL, read the model back, and for counting
//! block each solution found and ask again.

use std::time::{Duration, Instant};

use sudoku_core::{
    Budget, CountEnd, CountOutcome, Grid, Limit, Outcome, ParamError, Params, Puzzle, Rng, Solver,
    Stats, Status, Unsupported,
};

use sudoku_isolate::{Isolated, Wire};

use crate::encode::{encode, Amo, ClauseSink, Encoding, Layout};
use crate::{AMO, ENCODING, PRESET, SAT, SAT_PARAMS};

/// The CaDiCaL version the `cadical` crate builds.
const CADICAL_VERSION: &str = "1.9.5";

/// How `sat` encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SatConfig {
    /// Which clauses and variables.
    pub encoding: Encoding,
    /// How at-most-one constraints are written.
    pub amo: Amo,
    /// CaDiCaL's option preset.
    pub preset: Preset,
}

/// CaDiCaL's option presets (its `configure` names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// CaDiCaL's defaults.
    Default,
    /// Tuned for satisfiable formulas (more time in the stable mode, which keeps the
    /// assignment it is building).
    Sat,
    /// Tuned for unsatisfiable formulas.
    Unsat,
}

impl Preset {
    /// The name CaDiCaL knows it by.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Default => "default",
            Preset::Sat => "sat",
            Preset::Unsat => "unsat",
        }
    }
}

impl Default for SatConfig {
    fn default() -> Self {
        SatConfig {
            encoding: Encoding::Optimised,
            amo: Amo::Auto,
            preset: Preset::Default,
        }
    }
}

/// Sudoku by SAT (registered as `sat`). Deterministic and complete. A new CaDiCaL instance per
/// call, so calls are independent.
#[derive(Clone, Debug, Default)]
pub struct Sat {
    cfg: SatConfig,
}

impl Sat {
    /// A solver with this configuration.
    pub fn new(cfg: SatConfig) -> Sat {
        Sat { cfg }
    }

    /// A solver configured from named parameters (see [`SAT_PARAMS`]).
    pub fn from_params(params: &Params) -> Result<Sat, ParamError> {
        params.check_known(SAT, SAT_PARAMS)?;
        Ok(Sat::new(SatConfig {
            encoding: ENCODING.read(params)?,
            amo: AMO.read(params)?,
            preset: PRESET.read(params)?,
        }))
    }

    /// The configuration.
    pub fn config(&self) -> SatConfig {
        self.cfg
    }

    /// Finds up to `limit` solutions (at least one is asked for): here, or for a large grid
    /// under a time limit in a child process killed at the deadline.
    fn run(&self, puzzle: &Puzzle, limit: u64, budget: &Budget) -> Run {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let Some(at) = deadline.filter(|_| worth_isolating(puzzle)) else {
            return self.run_here(puzzle, limit, budget, start, deadline, false);
        };
        let kill_at = at + sudoku_isolate::grace(at.saturating_duration_since(start));
        let child = sudoku_isolate::run(kill_at, || {
            self.run_here(puzzle, limit, budget, start, deadline, true)
        });
        match child {
            Ok(child) => {
                let mut run = match child.end {
                    Isolated::Done(run) => run,
                    Isolated::Killed => Run::killed(self.cfg),
                };
                run.stats.child_cpu = Some(child.cpu);
                run
            }
            Err(e) => Run::failed(format!("sat: {e}"), start.elapsed()),
        }
    }

    /// [`Sat::run`] in this process (`in_child`: in the isolated child, which leaves without
    /// freeing CaDiCaL's memory).
    fn run_here(
        &self,
        puzzle: &Puzzle,
        limit: u64,
        budget: &Budget,
        start: Instant,
        deadline: Option<Instant>,
        in_child: bool,
    ) -> Run {
        let mut solver: cadical::Solver<Watch> =
            match cadical::Solver::with_config(self.cfg.preset.name()) {
                Ok(s) => s,
                Err(e) => return Run::failed(format!("sat: {e}"), start.elapsed()),
            };
        let mut sink = Feed {
            solver: &mut solver,
            deadline,
            added: 0,
            expired: false,
        };
        // Only an order too large for i32 literals fails, and order ≤ 16 never is.
        let layout = match encode(puzzle, self.cfg.encoding, self.cfg.amo, &mut sink) {
            Ok(l) => l,
            Err(e) => return Run::failed(e.to_string(), start.elapsed()),
        };
        let expired_while_building = sink.expired;
        let build = start.elapsed();
        let mut stats = Stats {
            build_time: Some(build),
            extra: vec![
                ("solver".into(), format!("cadical {CADICAL_VERSION}")),
                ("encoding".into(), self.cfg.encoding.name().into()),
                ("preset".into(), self.cfg.preset.name().into()),
                ("variables".into(), layout.vars.to_string()),
                ("clauses".into(), layout.clauses.to_string()),
                ("open_cells".into(), layout.open_cells().to_string()),
            ],
            ..Stats::default()
        };
        let mut found = Vec::new();
        if layout.infeasible {
            stats
                .extra
                .push(("infeasible_by".into(), "propagation".into()));
            return Run {
                found,
                end: CountEnd::Complete,
                stats,
            };
        }
        if expired_while_building {
            release(solver, in_child);
            return Run {
                found,
                end: CountEnd::Exhausted(Limit::Time),
                stats,
            };
        }
        solver.set_callbacks(Some(Watch {
            deadline,
            calls: 0,
            timed_out: false,
            learned: 0,
        }));
        let mut calls = 0u64;
        let end = loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break CountEnd::Exhausted(Limit::Time);
            }
            if let Some(max) = budget.nodes {
                let used = learned(&mut solver);
                if used >= max {
                    break CountEnd::Exhausted(Limit::Nodes);
                }
                // CaDiCaL's conflict limit is per `solve` call and an i32.
                let left = (max - used).min(i32::MAX as u64) as i32;
                // "conflicts" is one of the limits CaDiCaL knows, so this cannot fail.
                let _ = solver.set_limit("conflicts", left);
            }
            calls += 1;
            match solver.solve() {
                Some(true) => {
                    let grid = decode(&solver, &layout, puzzle);
                    let block: Vec<i32> = (0..layout.fixed.len())
                        .filter(|&c| layout.fixed[c] == 0)
                        .filter_map(|c| layout.var(c, grid.get(c)))
                        .map(|v| -v)
                        .collect();
                    found.push(grid);
                    if found.len() as u64 >= limit {
                        break CountEnd::LimitReached;
                    }
                    solver.add_clause(block);
                }
                Some(false) => break CountEnd::Complete,
                None => {
                    let timed_out = solver.get_callbacks().is_some_and(|w| w.timed_out);
                    break CountEnd::Exhausted(if timed_out { Limit::Time } else { Limit::Nodes });
                }
            }
        };
        let learned = learned(&mut solver);
        // CaDiCaL learns one clause per conflict, and its C API has no statistics: the learned
        // clauses it reports are the conflict count.
        stats.nodes = learned;
        stats.extra.push(("conflicts".into(), learned.to_string()));
        stats.extra.push(("solve_calls".into(), calls.to_string()));
        stats.extra.push((
            "solve_time_s".into(),
            format!("{:.6}", start.elapsed().saturating_sub(build).as_secs_f64()),
        ));
        release(solver, in_child);
        Run { found, end, stats }
    }
}

/// The parts of a [`Run`] that `sat` fills in, for the pipe from an isolated child.
impl Wire for Run {
    fn put(&self, out: &mut Vec<u8>) {
        self.found.put(out);
        self.end.put(out);
        self.stats.nodes.put(out);
        self.stats.build_time.put(out);
        self.stats.extra.put(out);
        self.stats.error.put(out);
    }
    fn get(input: &mut &[u8]) -> Option<Run> {
        Some(Run {
            found: Wire::get(input)?,
            end: Wire::get(input)?,
            stats: Stats {
                nodes: Wire::get(input)?,
                build_time: Wire::get(input)?,
                extra: Wire::get(input)?,
                error: Wire::get(input)?,
                ..Stats::default()
            },
        })
    }
}

/// Grids of this order or larger run in a child process when there is a time limit: CaDiCaL
/// polls its terminate callback too rarely while it loads and first simplifies their formulas
/// (a 64×64 puzzle with a 5 s limit returned after 6.2 s in this process). Below it, CaDiCaL
/// stops on time and a fork (a millisecond or more) would weigh on calls that take
/// milliseconds.
const ISOLATE_FROM_ORDER: usize = 6;

fn worth_isolating(puzzle: &Puzzle) -> bool {
    cfg!(unix) && puzzle.order().n() >= ISOLATE_FROM_ORDER
}

/// What [`Sat::run`] found.
struct Run {
    found: Vec<Grid>,
    end: CountEnd,
    stats: Stats,
}

impl Run {
    /// The child was killed at the deadline: what it had found and counted is lost with it.
    fn killed(cfg: SatConfig) -> Run {
        Run {
            found: Vec::new(),
            end: CountEnd::Exhausted(Limit::Time),
            stats: Stats {
                extra: vec![
                    ("solver".into(), format!("cadical {CADICAL_VERSION}")),
                    ("encoding".into(), cfg.encoding.name().into()),
                    ("stopped".into(), "killed-at-deadline".into()),
                ],
                ..Stats::default()
            },
        }
    }

    fn failed(why: String, build: Duration) -> Run {
        Run {
            found: Vec::new(),
            end: CountEnd::Exhausted(Limit::Nodes),
            stats: Stats {
                build_time: Some(build),
                error: Some(why),
                ..Stats::default()
            },
        }
    }
}

impl Solver for Sat {
    fn name(&self) -> &str {
        SAT
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, _rng: &mut Rng) -> Outcome {
        let Run {
            mut found,
            end,
            stats,
        } = self.run(puzzle, 1, budget);
        let status = match (found.pop(), end) {
            (Some(grid), _) => Status::Solved(grid),
            (None, CountEnd::Exhausted(limit)) => Status::Exhausted { limit, best: None },
            (None, _) => Status::Infeasible,
        };
        Outcome { status, stats }
    }

    fn count(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        collect: bool,
        budget: &Budget,
        _rng: &mut Rng,
    ) -> Result<CountOutcome, Unsupported> {
        if limit == 0 {
            return Ok(CountOutcome {
                count: 0,
                end: CountEnd::LimitReached,
                solutions: Vec::new(),
                stats: Stats::default(),
            });
        }
        let Run { found, end, stats } = self.run(puzzle, limit, budget);
        Ok(CountOutcome {
            count: found.len() as u64,
            end,
            solutions: if collect { found } else { Vec::new() },
            stats,
        })
    }
}

/// The grid of the solver's model: fixed digits, and for open cells the digit whose variable
/// is true.
fn decode(solver: &cadical::Solver<Watch>, layout: &Layout, puzzle: &Puzzle) -> Grid {
    let mut grid = Grid::empty(puzzle.order());
    for (c, &f) in layout.fixed.iter().enumerate() {
        let d = layout
            .cell_vars(c)
            .find(|&(_, v)| solver.value(v) == Some(true))
            .map_or(f, |(d, _)| d);
        grid.set(c, d);
    }
    grid
}

/// Frees CaDiCaL's memory on a thread of its own: at 64×64 that takes about a second, which
/// would otherwise count against the time limit after the answer is known. A child process
/// does not free it at all: its exit hands the memory back at once.
fn release(solver: cadical::Solver<Watch>, in_child: bool) {
    if in_child {
        std::mem::forget(solver);
        return;
    }
    // If no thread can be started, the closure, and the solver with it, is dropped here.
    let _ = std::thread::Builder::new()
        .name("sat-release".into())
        .spawn(move || drop(solver));
}

fn learned(solver: &mut cadical::Solver<Watch>) -> u64 {
    solver.get_callbacks().map_or(0, |w| w.learned)
}

/// Clauses go straight into the solver, until the deadline: a 64×64 minimal encoding takes
/// seconds to load, and the time limit counts from the start of the call.
struct Feed<'a> {
    solver: &'a mut cadical::Solver<Watch>,
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
        self.solver.add_clause(lits.iter().copied());
    }
}

/// CaDiCaL's callbacks: the deadline, and a count of learned clauses.
struct Watch {
    deadline: Option<Instant>,
    calls: u32,
    timed_out: bool,
    learned: u64,
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        let Some(at) = self.deadline else {
            return false;
        };
        // Called at every decision and restart: read the clock every 64 calls.
        self.calls = self.calls.wrapping_add(1);
        if !self.timed_out && self.calls % 64 == 0 {
            self.timed_out = Instant::now() >= at;
        }
        self.timed_out
    }

    fn max_length(&self) -> i32 {
        i32::MAX
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.learned += 1;
    }
}
