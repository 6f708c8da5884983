//! # sudoku-hybrid
//!
//! `hybrid`: a complete method for Sudoku of any order that takes turns between a CDCL SAT
//! solver and a local search, for the hard region (40–60 % givens) of 36×36 to 64×64 grids,
//! where each alone stalls on different puzzles.
//!
//! - The exact half is a [`sudoku_sat::Session`]: the puzzle's CNF loaded once into CaDiCaL,
//!   searched in slices of a conflict budget, keeping what it learned between slices. It finds
//!   solutions and proves infeasibility.
//! - The other half is a [`sudoku_meta::TabuSearch`]: TabuCol on the list-colouring view of the
//!   puzzle (each open cell takes one of its candidates; the cost counts peers with the same
//!   digit). It cannot prove anything, but on these grids it often reaches a solution long
//!   before CDCL does (docs/notes/hybrid-two-cores.md has the measurements).
//!
//! The turns are counted, not timed, so a run is a function of the seed: round `k` gives tabu
//! `steps_per_cell · (open cells) · 2^k` steps, continuing the same search each time, and
//! then CDCL `conflicts · 2^k` conflicts (the CNF is loaded at CDCL's first turn, so a puzzle tabu
//! solves at once never pays for it). Whichever half finds a solution ends the call; CDCL
//! proving the formula unsatisfiable ends it as `Infeasible`. Doubling keeps the share of each
//! half fixed, so the hybrid is never more than a constant factor slower than the better half
//! on a puzzle.
//!
//! Budgets: `Budget::nodes` caps CDCL conflicts and `Budget::iterations` tabu steps (the first
//! to run out ends the call); `Budget::time` ends it at the deadline, and from 36×36 on the
//! whole call runs in a child process killed at the deadline, as `sat` does. Counting is
//! `sat`'s (the local search cannot count).
//!
//! `threads=2` (the default when the machine has two cores or more) adds a second tabu
//! search, the helper, on a second thread for the whole call: one tenure does not suit every
//! order (docs/notes/tabu-tenure-and-step.md), and two cores cover two. By default the helper is the one
//! measured best for the puzzle's order ([`HybridConfig::helper_search`]): none below 25×25,
//! `tabu`'s pooled scheme ([`sudoku_meta::PooledSearch`], `select=cell pool=50 weights=5`) with
//! λ = 0.5 and 1,000,000-step segments at 49×49, plain TabuCol with λ = 0.6 at the others.
//! The expert parameters `helper_lambda`, `helper_scheme` and `segment` override that choice;
//! `scheme=pooled` makes the turns' search the pooled scheme too (`scheme=auto`: from 49×49
//! on), and `restart` sets when the pooled searches start afresh. `threads=1` is the turns
//! alone.
#![deny(missing_docs)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::Rng as _;

use sudoku_core::{
    choices, rng_from_seed, Budget, Capabilities, Count, CountEnd, Counted, Grid, Limit,
    MethodInfo, Outcome, Param, ParamError, ParamSpec, Params, Puzzle, Rng, Solver, Stats, Status,
};
use sudoku_isolate::{thread_cpu_time, Isolated};
use sudoku_meta::{Contradiction, PooledSearch, Select, TabuConfig, TabuSearch};
use sudoku_sat::{Answer, Encoding, Preset, Sat, SatConfig, Session, CADICAL_VERSION};

/// The registry name, also returned by [`Solver::name`].
const NAME: &str = "hybrid";

sudoku_core::config! {
    /// The configuration of [`Hybrid`].
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct HybridConfig for NAME, check HybridConfig::check {
        preset: Preset = "sat"
            of choices![
                "sat" => Preset::Sat,
                "default" => Preset::Default,
                "unsat" => Preset::Unsat,
            ],
            "CaDiCaL's option preset for the CDCL half (as `sat`'s; `sat` measured best at 36×36 \
             and up)";
        conflicts: u64 = 200 in 1..=1000000000,
            "CDCL conflicts in the first round (after tabu's turn); each round doubles it";
        steps_per_cell: u64 = 150 in 1..=1000000000,
            "tabu steps in the first round (it starts the round) per cell open after singles; each \
             round doubles it";
        /// The turns' tabu tenure per conflicting cell (`tabu`'s parameter).
        lambda: f64 = use TabuConfig::PARAM.lambda;
        /// The random part of the turns' tabu tenure (`tabu`'s parameter).
        tenure: u64 = use TabuConfig::PARAM.tenure;
        /// Threads (`None`: two when the machine has two cores or more, else one; see
        /// [`HybridConfig::threads`]).
        threads: Option<usize> = auto in 1..=2,
            "1: the turns alone. 2: also a second tabu search (the helper) on a second thread for \
             the whole call, the one measured best for the order (docs/notes/hybrid-two-cores.md, \
             large-orders-targets-per-order): none below 25x25, pooled with λ 0.5 and 1000000-step \
             segments at 49x49, plain TabuCol with λ 0.6 at the others; the first answer ends both, \
             so a seed no longer fixes the run. auto: 2 when the machine has two cores or more, \
             else 1";
        /// The helper's tenure factor λ (`None`: by order).
        helper_lambda: Option<f64> = auto in 0.0..=100.0,
            "expert, two threads: the helper's tabu tenure λ, and a helper at every order; auto: \
             by order (0.5 at 49x49, 0.6 at the others, none below 25x25)";
        /// Whether the helper runs `tabu`'s pooled scheme (`None`: by order).
        helper_pooled as "helper_scheme": Option<bool> = "auto"
            of choices!["auto" => None, "plain" => Some(false), "pooled" => Some(true)],
            "expert, two threads: the helper's tabu search, plain (TabuCol, one search) or pooled \
             (`tabu select=cell pool=50 weights=5`, AllDiff-LS's scheme: the best measured at \
             49x49 and 50 % givens, slower at 36x36); auto: pooled at 49x49, plain at the others";
        scheme: Turns = "plain"
            of choices!["plain" => Turns::Plain, "pooled" => Turns::Pooled, "auto" => Turns::Auto],
            "the tabu search of the turns: plain (TabuCol, one search continued across turns), \
             pooled (as `helper_scheme`'s, continued across turns), or auto (pooled from 49x49 on, \
             plain below). With a pooled helper, two pooled searches with their own seeds run side \
             by side (beside the default helper at 49x49: quicker at the median than plain turns, \
             as often over 30 s)";
        /// The segment length of the pooled searches, in steps (`None`: 1,000,000 for the
        /// pooled helper at 49×49, else `tabu`'s default).
        segment: Option<u64> = auto in 1..=1000000000000,
            "expert: steps of a segment of the pooled searches (as `tabu`'s `segment`); auto: \
             1000000 for the helper at 49x49 (measured better there with 50 % givens), else \
             `tabu`'s default";
        /// When the pooled searches start afresh (`tabu`'s parameter).
        restart: u64 = use TabuConfig::PARAM.restart;
        _ = HELPER;
    }
}

/// The order from which the default helper runs.
const HELPER_FROM: usize = 5;
/// The order at which the default helper is the pooled scheme.
const POOLED_HELPER_AT: usize = 7;
/// The default pooled helper's segment length.
const POOLED_HELPER_SEGMENT: u64 = 1_000_000;
/// The default pooled helper's tenure factor.
const POOLED_HELPER_LAMBDA: f64 = 0.5;
/// The default plain helper's tenure factor.
const PLAIN_HELPER_LAMBDA: f64 = 0.6;

/// The old spelling of `threads` and `helper_lambda` (`helper`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum OldHelper {
    /// `helper=λ`; λ = 0: no helper.
    Tenure(f64),
    /// `helper=auto`.
    Auto,
}

const HELPER: Param<Option<OldHelper>> = Param::new(
    ParamSpec {
        name: "helper",
        default: "none",
        range: "none|0.0..=100.0|auto",
        help: "the old spelling, so that earlier experiment files run as they did: 0 is \
               threads=1; λ is threads=2 helper_lambda=λ, with helper_scheme=plain and \
               `tabu`'s segment unless given; auto is threads=2; none: not given. Not beside \
               threads or helper_lambda",
    },
    None,
    "none, a number in 0.0..=100.0, or auto",
    |s| {
        if s.eq_ignore_ascii_case("none") {
            return Some(None);
        }
        if s.eq_ignore_ascii_case("auto") {
            return Some(Some(OldHelper::Auto));
        }
        let v: f64 = s.parse().ok()?;
        (0.0..=100.0)
            .contains(&v)
            .then_some(Some(OldHelper::Tenure(v)))
    },
);

/// The tabu search of the turns (`scheme`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// TabuCol, one search continued across turns.
    Plain,
    /// `tabu`'s pooled scheme, as the pooled helper's, continued across turns.
    Pooled,
    /// Pooled from 49×49 on, where one pooled search beats plain TabuCol, and plain below
    /// (docs/notes/tabu-pooled-scheme.md). Beside the default pooled helper at 49×49 it was quicker at
    /// the median than plain turns, but missed 30 s as often (docs/notes/hybrid-two-cores.md).
    Auto,
}

/// The smallest order at which `scheme=auto` makes the turns' search pooled.
const AUTO_POOLED_FROM: usize = 7;

impl Turns {
    /// Whether the turns' search on a puzzle of order `n` is the pooled scheme.
    pub fn pooled(self, n: usize) -> bool {
        match self {
            Turns::Plain => false,
            Turns::Pooled => true,
            Turns::Auto => n >= AUTO_POOLED_FROM,
        }
    }
}

impl HybridConfig {
    /// The CDCL half: the optimised encoding and this preset.
    pub fn sat(&self) -> SatConfig {
        SatConfig {
            encoding: Encoding::Optimised,
            preset: self.preset,
            ..SatConfig::default()
        }
    }

    /// The turns' tabu search, plain: this tenure.
    pub fn tabu(&self) -> TabuConfig {
        TabuConfig {
            lambda: self.lambda,
            tenure: self.tenure,
            ..TabuConfig::default()
        }
    }

    /// The threads a call uses at most: `threads`, or when it is `auto` two if the machine
    /// has two cores or more (below 25×25 the default helper does not run, so one is used).
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(machine_threads)
    }

    /// The segment length of the turns' pooled search.
    fn turns_segment(&self) -> u64 {
        self.segment.unwrap_or(TabuConfig::default().segment)
    }

    /// Reads the old spelling `helper` into `threads` and `helper_lambda` (with the scheme and
    /// segment that `helper=λ` meant). Refused: `helper` beside its new keys, and the helper's
    /// keys with `threads=1`, which has no helper.
    fn check(&mut self, p: &Params) -> Result<(), ParamError> {
        let given = |key: &&str| p.raw(key).is_some();
        if let Some(old) = HELPER.read(p)? {
            if let Some(key) = ["threads", "helper_lambda"].iter().find(|k| given(k)) {
                return Err(p.invalid(
                    "helper",
                    &format!("no value beside `{key}` (`helper` is their old spelling)"),
                ));
            }
            match old {
                OldHelper::Tenure(lambda) if lambda <= 0.0 => self.threads = Some(1),
                OldHelper::Tenure(lambda) => {
                    self.threads = Some(2);
                    self.helper_lambda = Some(lambda);
                    self.helper_pooled.get_or_insert(false);
                    self.segment.get_or_insert(TabuConfig::default().segment);
                }
                OldHelper::Auto => self.threads = Some(2),
            }
        } else if self.threads == Some(1) {
            if let Some(key) = ["helper_lambda", "helper_scheme"].iter().find(|k| given(k)) {
                return Err(p.invalid(
                    key,
                    "no value with threads=1 (it sets the second thread's search)",
                ));
            }
        }
        Ok(())
    }

    /// The helper's search on a puzzle of order `n`, or `None` when there is none: with two
    /// threads, the one measured best for the order (none below 25×25; pooled, λ = 0.5 and
    /// 1,000,000-step segments at 49×49; plain TabuCol, λ = 0.6, at the other orders, measured
    /// at 25×25, 36×36 and 64×64 and above 64×64 unmeasured), each part replaced by
    /// `helper_lambda`, `helper_scheme` and `segment` when they are given (a given
    /// `helper_lambda` runs a helper at every order).
    pub fn helper_search(&self, n: usize) -> Option<TabuConfig> {
        if self.threads() < 2 {
            return None;
        }
        let lambda = match self.helper_lambda {
            Some(lambda) => lambda,
            None if n < HELPER_FROM => return None,
            None if n == POOLED_HELPER_AT => POOLED_HELPER_LAMBDA,
            None => PLAIN_HELPER_LAMBDA,
        };
        if self.helper_pooled.unwrap_or(n == POOLED_HELPER_AT) {
            let segment = match (self.segment, n == POOLED_HELPER_AT) {
                (None, true) => POOLED_HELPER_SEGMENT,
                _ => self.turns_segment(),
            };
            Some(pooled(self, lambda, segment))
        } else {
            Some(TabuConfig {
                lambda,
                ..self.tabu()
            })
        }
    }
}

/// Two threads when the machine has two cores or more, else one (asked once).
fn machine_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(2)))
}

/// CDCL and tabu search in turns (registered as `hybrid`). Complete.
#[derive(Clone, Debug, Default)]
pub struct Hybrid {
    cfg: HybridConfig,
}

impl Hybrid {
    /// A solver with this configuration.
    pub fn new(cfg: HybridConfig) -> Hybrid {
        Hybrid { cfg }
    }

    /// The configuration.
    pub fn config(&self) -> HybridConfig {
        self.cfg
    }

    /// Solves here, or for a large grid under a time limit in a child killed at the deadline.
    fn run(&self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Run {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let Some(at) = deadline.filter(|_| Session::needs_isolation(puzzle)) else {
            return self.run_here(puzzle, budget, rng, start, deadline, false);
        };
        let kill_at = at + sudoku_isolate::grace(at.saturating_duration_since(start));
        // The child works on a copy of the generator; the parent's is left where it was,
        // which is what a seeded rerun of the trial starts from too.
        let mut child_rng = rng.clone();
        match sudoku_isolate::run(kill_at, || {
            self.run_here(puzzle, budget, &mut child_rng, start, deadline, true)
        }) {
            Ok(child) => {
                let mut run = match child.end {
                    Isolated::Done(run) => run,
                    Isolated::Killed => Run::stopped(
                        Limit::Time,
                        vec![("stopped".into(), "killed-at-deadline".into())],
                    ),
                };
                run.stats.child_cpu = Some(child.cpu);
                run
            }
            Err(e) => {
                let mut run = Run::stopped(Limit::Nodes, Vec::new());
                run.stats.error = Some(format!("hybrid: {e}"));
                run
            }
        }
    }

    fn run_here(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        start: Instant,
        deadline: Option<Instant>,
        in_child: bool,
    ) -> Run {
        let turns_pooled = self.cfg.scheme.pooled(puzzle.order().n());
        let own = if turns_pooled {
            pooled(&self.cfg, self.cfg.lambda, self.cfg.turns_segment())
        } else {
            self.cfg.tabu()
        };
        let mut tabu = match Local::new(puzzle, &own, rng) {
            Ok(t) => t,
            Err(why) => {
                return Run {
                    found: None,
                    end: CountEnd::Complete,
                    stats: Stats {
                        extra: vec![
                            ("infeasible_by".into(), "propagation".into()),
                            ("infeasible".into(), why.to_string()),
                        ],
                        ..Stats::default()
                    },
                }
            }
        };
        let built = start.elapsed();
        let mut stats = Stats {
            extra: vec![
                ("solver".into(), format!("cadical {CADICAL_VERSION}")),
                ("preset".into(), self.cfg.preset.name().into()),
                ("open_cells".into(), tabu.open_cells().to_string()),
                (
                    "turns".into(),
                    if turns_pooled { "pooled" } else { "plain" }.into(),
                ),
            ],
            ..Stats::default()
        };
        // Set by the helper when it has a solution (it stops this thread's turns), and by this
        // thread when it is done (it stops the helper).
        let stop = Arc::new(AtomicBool::new(false));
        let helper = self.cfg.helper_search(puzzle.order().n()).map(|cfg| {
            // What ran, since the default helper is chosen by order.
            let scheme = if cfg.pool > 0 { "pooled" } else { "plain" };
            stats
                .extra
                .push(("helper".into(), format!("{scheme} {}", cfg.lambda)));
            // Drawn from a copy, so that this thread's turns are the same as without a helper:
            // the helper can only end a call sooner.
            let seed = rng.clone().random();
            spawn_helper(puzzle.clone(), cfg, seed, Arc::clone(&stop))
        });
        // The CNF is loaded at CDCL's first turn: a puzzle tabu solves in its first turn
        // (most below 49×49 at 40 % givens) never pays for it.
        let mut session: Option<Session> = None;
        let mut found = None;
        // Which half answered (a solution, or the proof that there is none).
        let mut answered_by = "";
        let mut end = CountEnd::Complete;
        let mut rounds = 0u64;
        let mut tabu_time = Duration::ZERO;
        // Proportional to the puzzle's size, so that a small puzzle tabu does not solve at
        // once reaches CDCL's first turn within milliseconds.
        let first_turn = self
            .cfg
            .steps_per_cell
            .saturating_mul(tabu.open_cells().max(1) as u64);
        'rounds: for k in 0u32.. {
            rounds += 1;
            let scale = 1u64 << k.min(40);
            let turn = Instant::now();
            let mut steps = first_turn.saturating_mul(scale);
            if let Some(max) = budget.iterations {
                steps = steps.min(max.saturating_sub(tabu.steps()));
            }
            for i in 0..steps {
                if tabu.step(rng) == 0 {
                    break;
                }
                if i % 1024 == 1023
                    && (deadline.is_some_and(|d| Instant::now() >= d)
                        || stop.load(Ordering::Relaxed))
                {
                    end = CountEnd::Exhausted(Limit::Time);
                    tabu_time += turn.elapsed();
                    break 'rounds;
                }
            }
            tabu_time += turn.elapsed();
            if tabu.best_cost() == 0 {
                found = Some(tabu.best_grid());
                answered_by = "tabu";
                break 'rounds;
            }
            if budget.iterations.is_some_and(|max| tabu.steps() >= max) {
                end = CountEnd::Exhausted(Limit::Iterations);
                break 'rounds;
            }
            let cdcl = match &mut session {
                Some(s) => s,
                None => match Session::new(puzzle, self.cfg.sat(), deadline) {
                    Ok(mut s) => {
                        if helper.is_some() {
                            s.stop_on(Arc::clone(&stop));
                        }
                        let layout = s.layout();
                        stats
                            .extra
                            .push(("variables".into(), layout.vars.to_string()));
                        stats
                            .extra
                            .push(("clauses".into(), layout.clauses.to_string()));
                        stats.build_time = Some(built + s.build_time());
                        session.insert(s)
                    }
                    Err(e) => {
                        stats.error = Some(e.to_string());
                        end = CountEnd::Exhausted(Limit::Nodes);
                        break 'rounds;
                    }
                },
            };
            let mut slice = self.cfg.conflicts.saturating_mul(scale);
            if let Some(max) = budget.nodes {
                slice = slice.min(max.saturating_sub(cdcl.conflicts()));
            }
            match cdcl.solve(Some(slice), deadline) {
                Answer::Found(grid) => {
                    found = Some(grid);
                    answered_by = "sat";
                    break 'rounds;
                }
                Answer::Unsat => {
                    answered_by = if cdcl.layout().infeasible {
                        "propagation"
                    } else {
                        "sat"
                    };
                    break 'rounds;
                }
                Answer::Stopped(Limit::Time) => {
                    end = CountEnd::Exhausted(Limit::Time);
                    break 'rounds;
                }
                Answer::Stopped(_) => {
                    if budget.nodes.is_some_and(|max| cdcl.conflicts() >= max) {
                        end = CountEnd::Exhausted(Limit::Nodes);
                        break 'rounds;
                    }
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        if let Some(handle) = helper {
            stats.threads = 2;
            // A panic in the helper is a bug; it is reported as this call's error.
            match handle.join() {
                Ok(h) => {
                    if found.is_none() && answered_by.is_empty() && h.found.is_some() {
                        found = h.found;
                        answered_by = "helper";
                        end = CountEnd::Complete;
                    }
                    stats
                        .extra
                        .push(("helper_steps".into(), h.steps.to_string()));
                    stats.restarts += h.restarts;
                    // In a forked child the parent replaces this by the child's whole CPU
                    // time, which includes the helper's.
                    stats.child_cpu = Some(stats.child_cpu.unwrap_or_default() + h.cpu);
                }
                Err(_) => stats.error = Some("hybrid: the helper thread panicked".into()),
            }
        }
        let conflicts = session.as_mut().map_or(0, |s| s.conflicts());
        stats.nodes = conflicts;
        stats.iterations = tabu.steps();
        // Fresh starts of both pooled searches (`restart`).
        stats.restarts += tabu.restarts();
        stats.best_cost = Some(if found.is_some() { 0 } else { tabu.best_cost() });
        if !answered_by.is_empty() {
            let key = if found.is_some() {
                "found_by"
            } else {
                "infeasible_by"
            };
            stats.extra.push((key.into(), answered_by.into()));
        }
        stats
            .extra
            .push(("conflicts".into(), conflicts.to_string()));
        stats
            .extra
            .push(("tabu_steps".into(), tabu.steps().to_string()));
        stats.extra.push(("rounds".into(), rounds.to_string()));
        stats.extra.push((
            "tabu_time_s".into(),
            format!("{:.6}", tabu_time.as_secs_f64()),
        ));
        if stats.build_time.is_none() {
            stats.build_time = Some(built);
        }
        if let Some(s) = session {
            s.release(in_child);
        }
        Run { found, end, stats }
    }
}

/// The pooled scheme (`tabu select=cell pool=50 weights=5`) on `cfg`'s tenure and fresh
/// starts, with λ `lambda` and segments of `segment` steps.
fn pooled(cfg: &HybridConfig, lambda: f64, segment: u64) -> TabuConfig {
    TabuConfig {
        lambda,
        select: Select::Cell,
        pool: 50,
        weights: 5,
        segment,
        restart: cfg.restart,
        ..cfg.tabu()
    }
}

/// A local search of either scheme, stepped the same way.
enum Local {
    Plain(TabuSearch),
    Pooled(PooledSearch),
}

impl Local {
    /// The pooled scheme when `cfg.pool` > 0, else plain TabuCol.
    fn new(puzzle: &Puzzle, cfg: &TabuConfig, rng: &mut Rng) -> Result<Local, Contradiction> {
        Ok(if cfg.pool > 0 {
            Local::Pooled(PooledSearch::new(puzzle, cfg, rng)?)
        } else {
            Local::Plain(TabuSearch::new(puzzle, cfg, rng)?)
        })
    }

    /// One step; returns 0 once solved.
    #[inline]
    fn step(&mut self, rng: &mut Rng) -> u64 {
        match self {
            Local::Plain(t) => t.step(rng),
            Local::Pooled(t) => t.step(rng),
        }
    }

    fn steps(&self) -> u64 {
        match self {
            Local::Plain(t) => t.steps(),
            Local::Pooled(t) => t.steps(),
        }
    }

    /// The lowest cost seen (0: solved).
    fn best_cost(&self) -> u64 {
        match self {
            Local::Plain(t) => t.best_cost(),
            Local::Pooled(t) => t.best_cost(),
        }
    }

    /// An assignment of the lowest cost seen (a solution once that is 0).
    fn best_grid(&self) -> Grid {
        match self {
            Local::Plain(t) => t.best_grid(),
            Local::Pooled(t) => t.best_grid(),
        }
    }

    fn open_cells(&self) -> usize {
        match self {
            Local::Plain(t) => t.open_cells(),
            Local::Pooled(t) => t.open_cells(),
        }
    }

    /// Fresh starts so far (only the pooled scheme makes them).
    fn restarts(&self) -> u64 {
        match self {
            Local::Plain(_) => 0,
            Local::Pooled(t) => t.restarts(),
        }
    }
}

/// What the helper's tabu search ended with.
struct HelperEnd {
    found: Option<Grid>,
    steps: u64,
    restarts: u64,
    /// The helper thread's CPU time, which the runner's clock of the calling thread misses.
    cpu: Duration,
}

/// Runs a second tabu search on a thread of its own until it solves the puzzle (then it sets
/// `stop`) or `stop` is set.
fn spawn_helper(
    puzzle: Puzzle,
    cfg: TabuConfig,
    seed: u64,
    stop: Arc<AtomicBool>,
) -> JoinHandle<HelperEnd> {
    std::thread::spawn(move || {
        let cpu0 = thread_cpu_time();
        let cpu = || thread_cpu_time().saturating_sub(cpu0);
        let mut rng = rng_from_seed(seed);
        // The calling thread already propagated the same puzzle without contradiction.
        let Ok(mut tabu) = Local::new(&puzzle, &cfg, &mut rng) else {
            return HelperEnd {
                found: None,
                steps: 0,
                restarts: 0,
                cpu: cpu(),
            };
        };
        let mut steps = 0;
        while !stop.load(Ordering::Relaxed) {
            for _ in 0..1024 {
                if tabu.step(&mut rng) == 0 {
                    stop.store(true, Ordering::Relaxed);
                    return HelperEnd {
                        found: Some(tabu.best_grid()),
                        steps: tabu.steps(),
                        restarts: tabu.restarts(),
                        cpu: cpu(),
                    };
                }
            }
            steps = tabu.steps();
        }
        HelperEnd {
            found: None,
            steps,
            restarts: tabu.restarts(),
            cpu: cpu(),
        }
    })
}

/// What one call found: a solution, or none and why it stopped (`Complete`: infeasible).
struct Run {
    found: Option<Grid>,
    end: CountEnd,
    stats: Stats,
}

impl Run {
    fn stopped(limit: Limit, extra: Vec<(String, String)>) -> Run {
        Run {
            found: None,
            end: CountEnd::Exhausted(limit),
            stats: Stats {
                extra,
                ..Stats::default()
            },
        }
    }
}

// `Run` crosses the pipe from an isolated child.
sudoku_isolate::wire_struct!(Run { found, end, stats });

impl Solver for Hybrid {
    fn name(&self) -> &str {
        NAME
    }

    fn threads(&self) -> usize {
        self.cfg.threads()
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, rng: &mut Rng) -> Outcome {
        let Run { found, end, stats } = self.run(puzzle, budget, rng);
        Outcome {
            status: Status::of_search(found, end),
            stats,
        }
    }

    /// Counting needs the exact half only: it is `sat`'s count, with this method's preset.
    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, rng: &mut Rng) -> Counted {
        Sat::new(self.cfg.sat()).count(puzzle, ask, budget, rng)
    }
}

/// The registry entry of this crate: `hybrid`.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: NAME,
        summary: "CaDiCaL (CDCL SAT) and tabu search on list colouring in doubling turns: \
                  complete, for the hard region of 36×36 to 64×64",
        params: HybridConfig::PARAMS,
        caps: Capabilities {
            complete: true,
            thread_safe: true,
            randomized: true,
        },
        build: |p| Ok(Box::new(Hybrid::new(HybridConfig::from_params(p)?))),
    }]
}
