//! What each [`Kind`] of trial asks of a registered method: the capability it needs (solve,
//! count with a complete method, relax, generate and optionally carve), checked when the plan
//! is made, and the call a trial makes. Adding a kind is a variant of [`Kind`] and one arm of
//! [`capability`].

use std::sync::Arc;

use sudoku_core::{
    Budget, Count, Generator, Order, ParamError, Params, Puzzle, Relaxer, Rng, Solver, Status,
};
use sudoku_gen::PuzzleSpec;

use crate::error::{Result, RunError};
use crate::experiment::{CarveSpec, Kind};
use crate::judge::Answer;
use crate::logic_lp::LogicLp;
use crate::registry::{puzzle_spec, PuzzleMakerFn, Registry};

/// A configured method, ready to run trials of one kind.
pub trait TrialMethod: Send {
    /// Runs one trial.
    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer>;

    /// Checks the configuration against puzzles of `order` before any trial (see
    /// [`Solver::check_order`]); the default accepts every order.
    fn check_order(&self, order: Order) -> Result<(), ParamError> {
        let _ = order;
        Ok(())
    }

    /// Completes the answer's statistics after the clock has stopped ([`Solver::settle`]).
    fn settle(&mut self, answer: &mut Answer) {
        let _ = answer;
    }

    /// Told, before each attempt of a trial, the seed its generator was made from, for a
    /// method that runs elsewhere and must be handed it (a duet's old build); the default
    /// needs nothing but the generator.
    fn trial_seed(&mut self, seed: u64) {
        let _ = seed;
    }
}

/// What one trial is asked to do.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The puzzle (for kind = generate, the empty grid of the order and variant to fill).
    pub puzzle: &'a Puzzle,
    /// Kind = generate: the carving to apply to the grid, one of the plan's
    /// [`KindSettings::carves`].
    pub carve: Option<&'a CarveSpec>,
    /// The limits.
    pub budget: &'a Budget,
}

/// Builds configured [`TrialMethod`]s.
pub type Builder = Arc<dyn Fn(&Params) -> Result<Box<dyn TrialMethod>> + Send + Sync>;

/// A registered method's capability for one kind.
#[derive(Clone)]
pub struct Capability {
    /// May run beside other trials (CBC may not).
    pub thread_safe: bool,
    /// Builds a configured method; bad parameters are errors.
    pub build: Builder,
}

/// What a kind needs besides the method: the count limit, what to carve.
#[derive(Clone, Debug, Default)]
pub struct KindSettings {
    /// Kind = count: stop at this many solutions.
    pub count_limit: u64,
    /// Kind = generate: every carving the trials may ask for (checked when the plan is made).
    pub carves: Vec<CarveSpec>,
}

/// The capability `kind` needs of the method called `name`; an error names the method and the
/// kind when the method lacks it.
pub fn capability(
    kind: Kind,
    registry: &Registry,
    name: &str,
    settings: &KindSettings,
) -> Result<Capability> {
    Ok(match kind {
        Kind::Solve => {
            let m = registry.method(name)?;
            let build = m.build;
            Capability {
                thread_safe: m.caps.thread_safe,
                build: Arc::new(move |p| {
                    Ok(Box::new(SolveTrial(build(p)?)) as Box<dyn TrialMethod>)
                }),
            }
        }
        Kind::Count => {
            let m = registry.method(name)?;
            if !m.caps.complete {
                return Err(RunError::Plan(format!(
                    "kind = \"count\" needs a complete method; `{name}` cannot count"
                )));
            }
            let (build, limit) = (m.build, settings.count_limit.max(1));
            Capability {
                thread_safe: m.caps.thread_safe,
                build: Arc::new(move |p| {
                    Ok(Box::new(CountTrial(build(p)?, limit)) as Box<dyn TrialMethod>)
                }),
            }
        }
        Kind::Relax => {
            registry.method(name)?;
            let r = registry.relaxer(name).ok_or_else(|| {
                RunError::Plan(format!(
                    "kind = \"relax\" needs a method with a relaxation; `{name}` has none (methods that have one: {})",
                    registry.relaxer_names()
                ))
            })?;
            let build = r.build;
            Capability {
                thread_safe: r.thread_safe,
                build: Arc::new(move |p| {
                    Ok(Box::new(RelaxTrial(build(p)?)) as Box<dyn TrialMethod>)
                }),
            }
        }
        Kind::LogicLp => {
            registry.method(name)?;
            let (r, check) = registry
                .relaxer(name)
                .and_then(|r| Some((r, r.polytope?)))
                .ok_or_else(|| {
                    RunError::Plan(format!(
                        "kind = \"logic-lp\" needs a method whose relaxation checks its polytope; `{name}` has none (methods that have one: {})",
                        registry.polytope_names()
                    ))
                })?;
            Capability {
                thread_safe: r.thread_safe,
                build: Arc::new(move |p| {
                    if !p.is_empty() {
                        return Err(RunError::Plan(
                            "kind = \"logic-lp\" takes no parameters (it relaxes the reduced model)"
                                .to_string(),
                        ));
                    }
                    Ok(Box::new(LogicLpTrial(LogicLp::new(check))) as Box<dyn TrialMethod>)
                }),
            }
        }
        Kind::Generate => {
            let g = registry.generator(name)?;
            let build = g.build;
            let carvers = settings
                .carves
                .iter()
                .map(|c| Ok((c.clone(), carver(registry, c)?)))
                .collect::<Result<Vec<_>>>()?;
            Capability {
                thread_safe: g.thread_safe && carvers.iter().all(|(_, c)| c.0),
                build: Arc::new(move |p| {
                    let carvers = carvers
                        .iter()
                        .map(|(spec, (_, make))| Ok((spec.clone(), make()?)))
                        .collect::<Result<Vec<_>>>()?;
                    Ok(Box::new(GenerateTrial(build(p)?, carvers)) as Box<dyn TrialMethod>)
                }),
            }
        }
    })
}

type CarverBuild = Arc<dyn Fn() -> Result<Carver> + Send + Sync>;

/// Checks a carve spec against the registry: the maker is built in and the checker is a
/// complete method. Gives (thread-safe, builder).
fn carver(registry: &Registry, spec: &CarveSpec) -> Result<(bool, CarverBuild)> {
    let maker = registry.puzzle_maker()?;
    let checker = registry
        .method(&spec.checker)
        .map_err(|e| RunError::at("checker", e))?;
    if !checker.caps.complete {
        return Err(RunError::Plan(format!(
            "checker: `{}` is not a complete method, so it cannot check uniqueness",
            spec.checker
        )));
    }
    let (build, puzzle) = (checker.build, puzzle_spec(spec.puzzle, spec.clues));
    let check_nodes = spec.check_nodes;
    Ok((
        checker.caps.thread_safe,
        Arc::new(move || {
            Ok(Carver {
                maker,
                puzzle,
                checker: build(&Params::new())?,
                check_nodes,
            })
        }),
    ))
}

/// The method that carves a puzzle from a grid and its uniqueness checker.
pub struct Carver {
    maker: PuzzleMakerFn,
    puzzle: PuzzleSpec,
    checker: Box<dyn Solver + Send>,
    /// Nodes per uniqueness check (`carve.check_nodes`).
    check_nodes: Option<u64>,
}

struct SolveTrial(Box<dyn Solver + Send>);

impl TrialMethod for SolveTrial {
    fn check_order(&self, order: Order) -> Result<(), ParamError> {
        self.0.check_order(order)
    }

    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        Ok(Answer::Solve(self.0.solve(job.puzzle, job.budget, rng)))
    }

    fn settle(&mut self, answer: &mut Answer) {
        if let Answer::Solve(out) = answer {
            self.0.settle(&mut out.stats);
        }
    }
}

struct CountTrial(Box<dyn Solver + Send>, u64);

impl TrialMethod for CountTrial {
    fn check_order(&self, order: Order) -> Result<(), ParamError> {
        self.0.check_order(order)
    }

    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        Ok(Answer::Count(self.0.count(
            job.puzzle,
            Count::collecting(self.1),
            job.budget,
            rng,
        )?))
    }

    fn settle(&mut self, answer: &mut Answer) {
        if let Answer::Count(out) = answer {
            self.0.settle(&mut out.stats);
        }
    }
}

struct RelaxTrial(Box<dyn Relaxer + Send>);

impl TrialMethod for RelaxTrial {
    fn check_order(&self, order: Order) -> Result<(), ParamError> {
        self.0.check_order(order)
    }

    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        Ok(Answer::Relax(self.0.relax(job.puzzle, job.budget, rng)?))
    }
}

/// Kind `logic-lp` ([`LogicLp`]), with the method's polytope check.
struct LogicLpTrial(LogicLp);

impl TrialMethod for LogicLpTrial {
    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        let report = self.0.attempt(job.puzzle, job.budget, rng)?;
        Ok(Answer::LogicLp(report))
    }
}

/// Generates a full grid of the (empty) puzzle's order and variant, then carves a puzzle from
/// it when asked; both within the one budget.
pub struct GenerateTrial(Box<dyn Generator + Send>, Vec<(CarveSpec, Carver)>);

impl TrialMethod for GenerateTrial {
    fn attempt(&mut self, job: &Job, rng: &mut Rng) -> Result<Answer> {
        let (puzzle, budget) = (job.puzzle, job.budget);
        let carver = match job.carve {
            Some(spec) => Some(
                self.1
                    .iter_mut()
                    .find(|(s, _)| s == spec)
                    .map(|(_, c)| c)
                    .ok_or_else(|| {
                        RunError::Trial(format!(
                            "internal: carving {} was not planned",
                            spec.describe()
                        ))
                    })?,
            ),
            None => None,
        };
        let outcome = self
            .0
            .generate(puzzle.order(), puzzle.variant(), budget, rng);
        let carved = match (carver, &outcome.status) {
            (Some(c), Status::Solved(grid)) => Some(
                (c.maker)(
                    grid,
                    puzzle.variant(),
                    c.puzzle,
                    &mut *c.checker,
                    &Budget {
                        nodes: c.check_nodes.or(budget.nodes),
                        ..*budget
                    },
                    rng,
                )
                .map_err(|e| crate::error::chain_text(&e)),
            ),
            _ => None,
        };
        Ok(Answer::Generate { outcome, carved })
    }
}

#[cfg(test)]
mod tests {
    use sudoku_core::{format, rng_from_seed, Variant};

    use super::*;
    use crate::judge::judge;
    use crate::results::{KindColumns, LogicLpColumns, TrialStatus};

    /// Kind `logic-lp` asks the registry for a relaxation that checks its polytope: a method
    /// without one is refused by name, the one with one runs the analysis.
    #[test]
    fn logic_lp_runs_the_method_that_declares_a_polytope_check() {
        let registry = Registry::standard();
        let settings = KindSettings::default();
        let refused = capability(Kind::LogicLp, &registry, "prop", &settings)
            .err()
            .expect("prop has no relaxation");
        assert_eq!(
            refused.to_string(),
            "kind = \"logic-lp\" needs a method whose relaxation checks its polytope; `prop` has none (methods that have one: ilp)"
        );
        let ilp = capability(Kind::LogicLp, &registry, "ilp", &settings).unwrap();
        assert!(!ilp.thread_safe);
        let mut trial = (ilp.build)(&Params::new()).unwrap();
        let text =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let grid = format::parse_str(text, "t").unwrap().remove(0).grid;
        let puzzle = Puzzle::new(grid, Variant::Classic);
        let job = Job {
            puzzle: &puzzle,
            carve: None,
            budget: &Budget::time(std::time::Duration::from_secs(60)),
        };
        let answer = trial.attempt(&job, &mut rng_from_seed(1)).unwrap();
        let t = judge(&answer, &puzzle);
        assert_eq!(t.status, TrialStatus::Solved);
        assert_eq!(t.count, Some(1));
        // Pigeonhole-solvable, so (Theorem 4) the LP is integral and its only point.
        let columns = LogicLpColumns {
            rules_needed: "pigeonhole".into(),
            lp_integral: Some(true),
            lp_unique: Some(true),
        };
        let own = KindColumns::LogicLp(columns);
        // The row's kind columns are read back by the name the experiment file gives the kind.
        assert_eq!(own.kind(), Kind::LogicLp.name());
        assert_eq!(t.kind_columns, Some(own));
        let extra = answer.stats().extra;
        for checked in ["lp_equals_solution", "lp_random_unique"] {
            assert!(
                extra.contains(&(checked.into(), "true".into())),
                "{extra:?}"
            );
        }
    }
}
