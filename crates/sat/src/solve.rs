//! The `sat` method: encode, hand the clauses to CaDiCaL, read the model back, and for counting
//! block each solution found and ask again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use sudoku_core::{
    Budget, Count, CountEnd, CountOutcome, Counted, Grid, Limit, OtherSolution, Outcome,
    ParamError, Params, Puzzle, Rng, Solver, Stats, Status,
};

use sudoku_isolate::Isolated;

use crate::config::SatConfig;
use crate::copy::{CopyBy, Symmetry};
use crate::session::{Answer, Session, CADICAL_VERSION};
use crate::SAT;

/// Sudoku by SAT (registered as `sat`). Deterministic and complete. A new CaDiCaL instance (or
/// run of the DIMACS program) per call, so calls are independent.
#[derive(Clone, Debug, Default)]
pub struct Sat {
    cfg: SatConfig,
}

impl Sat {
    /// A solver with this configuration.
    pub fn new(cfg: SatConfig) -> Sat {
        Sat { cfg }
    }

    /// A solver configured from named parameters (see [`SatConfig::PARAMS`]).
    pub fn from_params(params: &Params) -> Result<Sat, ParamError> {
        Ok(Sat::new(SatConfig::from_params(params)?))
    }

    /// The configuration.
    pub fn config(&self) -> &SatConfig {
        &self.cfg
    }

    /// Finds up to `limit` solutions (at least one is asked for): here, or for a large grid
    /// under a time limit in a child process killed at the deadline.
    fn run(&self, puzzle: &Puzzle, limit: u64, budget: &Budget) -> Run {
        if let Some(program) = self.cfg.program() {
            // The program runs in a process of its own, killed at the deadline; `copy=` gives
            // it the same relabelled copy CaDiCaL would get.
            let (input, sym, _) = self.copy(puzzle, self.cfg.copy);
            let out = crate::program::solve(&program, &input, &self.cfg, limit, budget);
            let found = match sym {
                Some(s) => out.found.iter().map(|g| s.back(g)).collect(),
                None => out.found,
            };
            return Run {
                found,
                end: out.end,
                stats: out.stats,
            };
        }
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let call = Call {
            puzzle,
            limit,
            budget,
            start,
            deadline,
            in_child: false,
        };
        let Some(at) = deadline.filter(|_| Session::needs_isolation(puzzle)) else {
            return self.run_here(call);
        };
        let kill_at = at + sudoku_isolate::grace(at.saturating_duration_since(start));
        let child = sudoku_isolate::run(kill_at, || {
            self.run_here(Call {
                in_child: true,
                ..call
            })
        });
        match child {
            Ok(child) => {
                let mut run = match child.end {
                    Isolated::Done(run) => run,
                    Isolated::Killed => Run::killed(&self.cfg),
                };
                run.stats.child_cpu = Some(child.cpu);
                run
            }
            Err(e) => Run::failed(format!("sat: {e}"), start.elapsed()),
        }
    }

    /// [`Sat::run`] in this process (`in_child`: in the isolated child, which leaves without
    /// freeing CaDiCaL's memory): one search, or with `threads=2` two searches on different
    /// copies of the puzzle, the first to finish giving the answer.
    fn run_here(&self, call: Call<'_>) -> Run {
        let threads = u64::from(self.cfg.threads.max(1));
        if threads == 1 {
            return self.search(call, 0, None);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let mut runs: Vec<(u64, Run)> = std::thread::scope(|scope| {
            for t in 0..threads {
                let (tx, stop) = (tx.clone(), Arc::clone(&stop));
                scope.spawn(move || {
                    let mut run = self.search(call, t, Some(stop));
                    // The runner's clock sees only the calling thread, which waits here.
                    run.stats.child_cpu = Some(sudoku_isolate::thread_cpu_time());
                    let _ = tx.send((t, run));
                });
            }
            drop(tx);
            let mut runs = Vec::new();
            for (t, run) in rx.iter() {
                // The first to end has the answer (or ran out of time, as the other will).
                stop.store(true, Ordering::Relaxed);
                runs.push((t, run));
            }
            runs
        });
        let conflicts: u64 = runs.iter().map(|(_, r)| r.stats.nodes).sum();
        let cpu: Duration = runs.iter().filter_map(|(_, r)| r.stats.child_cpu).sum();
        let (winner, mut run) = runs.remove(0);
        run.stats.child_cpu = Some(cpu);
        run.stats.threads = threads as u32;
        run.stats.extra.push(("winner".into(), winner.to_string()));
        run.stats
            .extra
            .push(("conflicts_all_threads".into(), conflicts.to_string()));
        run
    }

    /// The puzzle, or its copy `index` (see [`crate::copy`]): the puzzle to encode, the
    /// symmetry that takes its answers back, and the configuration to solve it with.
    fn copy(&self, puzzle: &Puzzle, index: u64) -> (Puzzle, Option<Symmetry>, SatConfig) {
        if index == 0 {
            return (puzzle.clone(), None, self.cfg.clone());
        }
        match self.cfg.copies {
            CopyBy::Relabel => {
                let order = puzzle.order();
                let sym = Symmetry::random(order.size(), order.n(), puzzle.variant(), index);
                (sym.apply(puzzle), Some(sym), self.cfg.clone())
            }
            CopyBy::Reseed => {
                let mut cfg = self.cfg.clone();
                let seed = index % 2_000_000_000;
                let given = match cfg.options.trim() {
                    "" | "none" => String::new(),
                    o => format!("{o},"),
                };
                cfg.options = format!("{given}seed={seed},shuffle=1,shufflerandom=1");
                (puzzle.clone(), None, cfg)
            }
        }
    }

    /// One search (thread `thread` of a portfolio; `stop` ends it when another has answered):
    /// on the puzzle, or on its copy `copy` + 2^20 × `thread` (thread 0 of `copy=0` searches
    /// the puzzle itself), the answers taken back to the puzzle.
    fn search(&self, call: Call<'_>, thread: u64, stop: Option<Arc<AtomicBool>>) -> Run {
        let Call {
            puzzle,
            limit,
            budget,
            start,
            deadline,
            in_child,
        } = call;
        let (input, sym, cfg) = self.copy(puzzle, (thread << 20) + self.cfg.copy);
        let mut session = match Session::new(&input, cfg, deadline) {
            Ok(s) => s,
            Err(e) => return Run::failed(e.to_string(), start.elapsed()),
        };
        if let Some(flag) = stop {
            session.stop_on(flag);
        }
        let layout = session.layout();
        let mut stats = Stats {
            build_time: Some(session.build_time()),
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
        if let (Some(rules), Some(t)) = (self.cfg.logic, session.logic_time()) {
            stats.extra.push(("logic".into(), rules.name().into()));
            stats
                .extra
                .push(("logic_s".into(), format!("{:.6}", t.as_secs_f64())));
        }
        let mut found = Vec::new();
        if layout.infeasible {
            stats
                .extra
                .push(("infeasible_by".into(), session.infeasible_by().into()));
            return Run {
                found,
                end: CountEnd::Complete,
                stats,
            };
        }
        let end = loop {
            let left = budget
                .nodes
                .map(|max| max.saturating_sub(session.conflicts()));
            match session.solve(left, deadline) {
                Answer::Found(grid) => {
                    session.block(&grid);
                    found.push(match &sym {
                        Some(s) => s.back(&grid),
                        None => grid,
                    });
                    if found.len() as u64 >= limit {
                        break CountEnd::LimitReached;
                    }
                }
                Answer::Unsat => break CountEnd::Complete,
                Answer::Stopped(limit) => break CountEnd::Exhausted(limit),
            }
        };
        let conflicts = session.conflicts();
        stats.nodes = conflicts;
        stats
            .extra
            .push(("conflicts".into(), conflicts.to_string()));
        stats
            .extra
            .push(("solve_calls".into(), session.calls().to_string()));
        stats.solve_time = Some(session.solve_time());
        session.release(in_child);
        Run { found, end, stats }
    }
}

/// What one call of [`Sat::run`] asks, as its searches receive it.
#[derive(Clone, Copy)]
struct Call<'a> {
    puzzle: &'a Puzzle,
    limit: u64,
    budget: &'a Budget,
    start: Instant,
    deadline: Option<Instant>,
    /// In the isolated child, which leaves without freeing CaDiCaL's memory.
    in_child: bool,
}

// `Run` crosses the pipe from an isolated child.
sudoku_isolate::wire_struct!(Run { found, end, stats });

/// What [`Sat::run`] found.
struct Run {
    found: Vec<Grid>,
    end: CountEnd,
    stats: Stats,
}

impl Run {
    /// The child was killed at the deadline: what it had found and counted is lost with it.
    fn killed(cfg: &SatConfig) -> Run {
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
        Outcome {
            status: Status::of_search(found.pop(), end),
            stats,
        }
    }

    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, _rng: &mut Rng) -> Counted {
        let Count { limit, collect } = ask;
        if limit == 0 {
            return Ok(CountOutcome::nothing_asked());
        }
        let Run { found, end, stats } = self.run(puzzle, limit, budget);
        Ok(CountOutcome {
            count: found.len() as u64,
            end,
            solutions: if collect { found } else { Vec::new() },
            stats,
        })
    }

    /// One search for a solution that differs on a removed cell, not a count to 2
    /// (`crate::carve`).
    fn count_other(&mut self, ask: OtherSolution<'_>, budget: &Budget, _: &mut Rng) -> Counted {
        if let Some(program) = self.cfg.program() {
            return Ok(crate::program::count_other(
                &program, ask, &self.cfg, budget,
            ));
        }
        Ok(crate::carve::count_other(ask, self.cfg.clone(), budget))
    }
}
