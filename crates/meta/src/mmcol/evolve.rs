//! `mmcol::evolve`: the memetic loop on a list-colouring graph, one thread or two sharing one
//! population. A population of `population` assignments, each a start improved by the iterated
//! tabu search; then generations: two parents at random, their child ([`cross`]), the child
//! improved by the iterated tabu search, and the pool's distance-quality update ([`Pool`]),
//! until a solution or the budget.
//!
//! The iterated tabu search (ITS): TabuCol from the assignment until `depth` steps in a row
//! bring no better cost; then, from the best assignment of this ITS, a perturbation (`strength`
//! of the vertices, at random, take another colour of their list) and TabuCol again; it ends
//! when `rounds` perturbations in a row brought nothing better, and returns its best.
//!
//! With two threads each has its own copy of the engine and its own random stream and they
//! share the pool (a lock around the parents' choice and the update, not around the searches),
//! so the run no longer follows from the seed alone.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::seq::index::sample;
use rand::Rng as _;
use rand::SeedableRng as _;
use sudoku_core::{Budget, Rng, TracePoint};

use super::crossover::cross;
use super::pool::{Entry, Pool};
use crate::tabu::TabuSearch;

/// The settings of a run, from [`MmcolConfig`](super::MmcolConfig).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) population: usize,
    pub(crate) depth: u64,
    pub(crate) rounds: u32,
    pub(crate) strength: f64,
    pub(crate) beta: f64,
    pub(crate) greedy: bool,
    pub(crate) threads: usize,
    pub(crate) trace: bool,
    /// The steps when the budget gives neither a time nor an iteration limit.
    pub(crate) default_steps: u64,
}

/// The result of a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Found {
    /// The lowest-cost assignment seen and its cost (0: a solution).
    pub(crate) best: Vec<u32>,
    pub(crate) cost: u64,
    /// Tabu steps over all threads.
    pub(crate) steps: u64,
    pub(crate) generations: u64,
    /// Offspring: entered the pool, left out as worst, twins of a member.
    pub(crate) entered: u64,
    pub(crate) rejected: u64,
    pub(crate) twins: u64,
    /// Vertices the crossovers left to the fill, over all of them.
    pub(crate) filled: u64,
    /// Children's cost before their ITS, summed (over `generations`).
    pub(crate) child_cost: u64,
    pub(crate) time_to_best: Option<Duration>,
    pub(crate) trace: Vec<TracePoint>,
    /// Did the time run out (else the iteration cap, or a solution)?
    pub(crate) timed_out: bool,
    /// The nearest two members at the end.
    pub(crate) closest: Option<u32>,
}

/// What the threads share.
struct Shared<'a> {
    settings: &'a Settings,
    started: Instant,
    deadline: Option<Instant>,
    cap: u64,
    stop: AtomicBool,
    timed_out: AtomicBool,
    steps: AtomicU64,
    pool: Mutex<Pool>,
    /// Starts promised to the pool while it fills (so two threads do not overfill it).
    promised: AtomicU64,
    record: Mutex<Found>,
    vertices: usize,
    size: usize,
}

impl Shared<'_> {
    /// Records an assignment that may beat the best; a solution stops every thread.
    fn offer(&self, x: &[u32], cost: u64, steps_now: u64) {
        let mut r = self.record.lock().expect("no thread panics holding it");
        if cost < r.cost || r.best.is_empty() {
            r.cost = cost;
            r.best.clear();
            r.best.extend_from_slice(x);
            let elapsed = self.started.elapsed();
            r.time_to_best = Some(elapsed);
            if self.settings.trace {
                r.trace.push(TracePoint {
                    iteration: steps_now,
                    elapsed,
                    best_cost: cost,
                });
            }
        }
        if cost == 0 {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// One thread's budget check, called after every tabu step: publishes its steps in batches,
/// reads the clock every 1024 steps.
struct Meter<'a, 'b> {
    shared: &'b Shared<'a>,
    published: u64,
    calls: u32,
}

impl Meter<'_, '_> {
    fn stop(&mut self, steps: u64) -> bool {
        let s = self.shared;
        let unpublished = steps - self.published;
        if unpublished >= 1024 {
            s.steps.fetch_add(unpublished, Ordering::Relaxed);
            self.published = steps;
        }
        if s.steps.load(Ordering::Relaxed) + (steps - self.published) >= s.cap {
            s.stop.store(true, Ordering::Relaxed);
            return true;
        }
        self.calls += 1;
        if self.calls >= 1024 {
            self.calls = 0;
            if s.deadline.is_some_and(|d| Instant::now() >= d) {
                s.timed_out.store(true, Ordering::Relaxed);
                s.stop.store(true, Ordering::Relaxed);
            }
        }
        s.stop.load(Ordering::Relaxed)
    }

    fn flush(&mut self, steps: u64) {
        self.shared
            .steps
            .fetch_add(steps - self.published, Ordering::Relaxed);
        self.published = steps;
    }
}

/// The iterated tabu search from `start`: its best assignment and cost.
fn its(
    search: &mut TabuSearch,
    start: &[u32],
    set: &Settings,
    rng: &mut Rng,
    meter: &mut Meter,
) -> (Vec<u32>, u64) {
    search.load(start);
    let mut stop = |steps: u64| meter.stop(steps);
    search.descend(set.depth, rng, &mut stop);
    let mut best = search.best_assignment().to_vec();
    let mut cost = search.best_cost();
    let nv = best.len();
    let shake = ((set.strength * nv as f64).ceil() as usize).min(nv);
    let mut idle = 0;
    while cost > 0 && idle < set.rounds && !meter.shared.stop.load(Ordering::Relaxed) && shake > 0 {
        let mut x = best.clone();
        for v in sample(rng, nv, shake) {
            let r = search.slot_range(v);
            if r.len() > 1 {
                let now = x[v] - r.start;
                let k = rng.random_range(0..r.len() as u32 - 1);
                x[v] = r.start + if k >= now { k + 1 } else { k };
            }
        }
        search.load(&x);
        let mut stop = |steps: u64| meter.stop(steps);
        search.descend(set.depth, rng, &mut stop);
        if search.best_cost() < cost {
            best.clear();
            best.extend_from_slice(search.best_assignment());
            cost = search.best_cost();
            idle = 0;
        } else {
            idle += 1;
        }
    }
    (best, cost)
}

/// One thread's share of the run.
fn work(shared: &Shared, mut search: TabuSearch, rng: &mut Rng) {
    let set = shared.settings;
    let mut meter = Meter {
        shared,
        published: search.steps(),
        calls: 0,
    };
    let mut local = Found::default();
    // The pool fills first; a start that equals a member is tried again, a few times.
    let mut misses = 0;
    while !shared.stop.load(Ordering::Relaxed) {
        let promised = shared.promised.fetch_add(1, Ordering::Relaxed);
        if promised >= set.population as u64 {
            break;
        }
        let start = search.new_start(set.greedy, rng);
        let (x, cost) = its(&mut search, &start, set, rng, &mut meter);
        shared.offer(&x, cost, shared.steps.load(Ordering::Relaxed));
        let added = shared.pool.lock().expect("no panics").add(x, cost);
        if !added {
            shared.promised.fetch_sub(1, Ordering::Relaxed);
            misses += 1;
            if misses >= 3 * set.population {
                break;
            }
        }
    }
    while !shared.stop.load(Ordering::Relaxed) {
        let parents = {
            let pool = shared.pool.lock().expect("no panics");
            (pool.len() >= 2).then(|| pool.parents(rng))
        };
        let Some((a, b)) = parents else {
            // Another thread is still filling the pool, or it cannot hold two: a new start.
            let start = search.new_start(set.greedy, rng);
            let (x, cost) = its(&mut search, &start, set, rng, &mut meter);
            shared.offer(&x, cost, shared.steps.load(Ordering::Relaxed));
            shared.pool.lock().expect("no panics").add(x, cost);
            continue;
        };
        let (child, made) = cross(&mut search, &a, &b, shared.size, rng);
        local.filled += made.filled as u64;
        local.child_cost += search.cost_of(&child);
        let (x, cost) = its(&mut search, &child, set, rng, &mut meter);
        local.generations += 1;
        shared.offer(&x, cost, shared.steps.load(Ordering::Relaxed));
        let entry =
            shared
                .pool
                .lock()
                .expect("no panics")
                .offer(x, cost, set.beta, shared.vertices, rng);
        match entry {
            Entry::Twin => local.twins += 1,
            Entry::Rejected => local.rejected += 1,
            Entry::Replaced(_) => local.entered += 1,
        }
    }
    meter.flush(search.steps());
    let mut r = shared.record.lock().expect("no panics");
    r.generations += local.generations;
    r.entered += local.entered;
    r.rejected += local.rejected;
    r.twins += local.twins;
    r.filled += local.filled;
    r.child_cost += local.child_cost;
}

/// Runs MMCOL's memetic search on `search`'s graph (`size` colours) within `budget`, whose
/// time counts from `started` (the call's start, setup included).
pub(crate) fn evolve(
    search: TabuSearch,
    size: usize,
    set: &Settings,
    budget: &Budget,
    started: Instant,
    rng: &mut Rng,
) -> Found {
    let cap = match (budget.iterations, budget.time) {
        (Some(i), _) => i,
        (None, Some(_)) => u64::MAX,
        (None, None) => set.default_steps,
    };
    let vertices = search.open_cells();
    let shared = Shared {
        settings: set,
        started,
        deadline: budget.deadline(started),
        cap,
        stop: AtomicBool::new(false),
        timed_out: AtomicBool::new(false),
        steps: AtomicU64::new(0),
        pool: Mutex::new(Pool::default()),
        promised: AtomicU64::new(0),
        record: Mutex::new(Found {
            cost: u64::MAX,
            ..Found::default()
        }),
        vertices,
        size,
    };
    // The engine's own greedy start is the first record, so that a run stopped at once still
    // has an assignment to report.
    let first = search.assignment().to_vec();
    let first_cost = search.cost();
    shared.offer(&first, first_cost, 0);
    if first_cost > 0 {
        if set.threads > 1 {
            let seeds: Vec<u64> = (1..set.threads).map(|_| rng.random()).collect();
            let helpers: Vec<(TabuSearch, Rng)> = seeds
                .iter()
                .map(|&s| (search.clone(), Rng::seed_from_u64(s)))
                .collect();
            let own = Rng::seed_from_u64(rng.random());
            std::thread::scope(|scope| {
                let handles: Vec<_> = helpers
                    .into_iter()
                    .map(|(s, mut r)| {
                        let shared = &shared;
                        scope.spawn(move || work(shared, s, &mut r))
                    })
                    .collect();
                let mut own = own;
                work(&shared, search, &mut own);
                for h in handles {
                    h.join().expect("a worker does not panic");
                }
            });
        } else {
            work(&shared, search, rng);
        }
    }
    let mut found = shared.record.into_inner().expect("no panics");
    found.steps = shared.steps.load(Ordering::Relaxed);
    found.timed_out = shared.timed_out.load(Ordering::Relaxed);
    found.closest = shared.pool.into_inner().expect("no panics").closest();
    found
}
