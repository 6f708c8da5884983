//! The one place where methods are registered. Every command (`list`, `solve`, `generate`,
//! `run`) looks methods up here, so a method crate is wired in once; a crate outside the
//! workspace adds its own methods to [`Registry::standard`] with [`Registry::register`]. What a
//! method can do (solve, count, relax, generate) is its capability: [`crate::kind`] asks the
//! registry for it.

use sudoku_core::{
    Budget, GeneratorInfo, Grid, MethodInfo, ParamError, Params, RelaxerInfo, Rng, Solver, Variant,
};
use sudoku_gen::{Carved, GenError, PuzzleSpec, Symmetry};

use crate::error::{Result, RunError};
use crate::experiment::{ClueLevel, Shape};

/// Turns a full grid into a puzzle, checking uniqueness with the given complete method.
pub type PuzzleMakerFn =
    fn(&Grid, Variant, PuzzleSpec, &mut dyn Solver, &Budget, &mut Rng) -> Result<Carved, GenError>;

/// Every registered method, generator and helper.
#[derive(Clone, Default)]
pub struct Registry {
    /// Solving methods.
    pub methods: Vec<MethodInfo>,
    /// Full-grid generators.
    pub generators: Vec<GeneratorInfo>,
    /// Relaxation capabilities, each belonging to a method of the same name.
    pub relaxers: Vec<RelaxerInfo>,
    /// The puzzle maker, when a generator crate is built in.
    pub puzzle_maker: Option<PuzzleMakerFn>,
    /// Version of the CBC library linked in, if any (recorded in meta.json).
    pub cbc_version: Option<&'static str>,
}

impl Registry {
    /// Everything this build of the workspace provides.
    pub fn standard() -> Registry {
        // The methods that run outside this process come last, after every built-in one.
        let mut methods = in_process_methods();
        methods.extend(sudoku_external::methods());
        let mut generators = sudoku_gen::generators();
        generators.extend(sudoku_ilp::generators());
        Registry {
            methods,
            generators,
            relaxers: sudoku_ilp::relaxers(),
            puzzle_maker: Some(make_puzzle),
            cbc_version: Some("2.10.12 (cbc-src 0.2.8, built from source)"),
        }
    }

    /// Adds `method` beside the others (after them in `list`): a solver from a crate outside
    /// the workspace then runs in experiments like a built-in one. A name that is already
    /// registered (a method's or a generator's) is refused: experiment files name methods.
    pub fn register(&mut self, method: MethodInfo) -> Result<()> {
        let taken = self.methods.iter().any(|m| m.name == method.name)
            || self.generators.iter().any(|g| g.name == method.name);
        if taken {
            return Err(RunError::Duplicate {
                name: method.name.to_string(),
            });
        }
        self.methods.push(method);
        Ok(())
    }

    /// A solver of the method called `name`, configured by `params` (its parameters are
    /// checked: unknown keys and values out of range are errors naming them).
    pub fn solver(&self, name: &str, params: &Params) -> Result<Box<dyn Solver + Send>> {
        Ok((self.method(name)?.build)(params)?)
    }

    /// The method called `name`.
    pub fn method(&self, name: &str) -> Result<&MethodInfo, ParamError> {
        self.methods
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| ParamError::UnknownMethod {
                name: name.to_string(),
                known: join(self.methods.iter().map(|m| m.name)),
            })
    }

    /// The generator called `name`.
    pub fn generator(&self, name: &str) -> Result<&GeneratorInfo, ParamError> {
        self.generators
            .iter()
            .find(|g| g.name == name)
            .ok_or_else(|| ParamError::UnknownMethod {
                name: name.to_string(),
                known: join(self.generators.iter().map(|g| g.name)),
            })
    }

    /// The relaxation of the method called `name`, if it has one.
    pub fn relaxer(&self, name: &str) -> Option<&RelaxerInfo> {
        self.relaxers.iter().find(|r| r.method == name)
    }

    /// The methods that have a relaxation, comma-separated.
    pub fn relaxer_names(&self) -> String {
        join(self.relaxers.iter().map(|r| r.method))
    }

    /// The methods whose relaxation checks its polytope (kind = logic-lp), comma-separated.
    pub fn polytope_names(&self) -> String {
        join(
            self.relaxers
                .iter()
                .filter(|r| r.polytope.is_some())
                .map(|r| r.method),
        )
    }

    /// The puzzle maker, or an error saying it is not built in.
    pub fn puzzle_maker(&self) -> Result<PuzzleMakerFn> {
        self.puzzle_maker.ok_or_else(|| {
            RunError::Plan(
                "carving puzzles needs the generator crate, which is not part of this build"
                    .to_string(),
            )
        })
    }
}

/// The generator crate's carving spec for an experiment file's puzzle `shape` (with the clue
/// target of `unique`): the experiment crate names the levels, the generator owns them.
pub fn puzzle_spec(shape: Shape, clues: Option<usize>) -> PuzzleSpec {
    match shape {
        Shape::Unique => PuzzleSpec::Unique { clues },
        Shape::Minimal => PuzzleSpec::Minimal,
        Shape::Level(l) => PuzzleSpec::Level(clue_level(l)),
        Shape::Rated(min, max) => PuzzleSpec::Rated { min, max },
        Shape::Keep(p) => PuzzleSpec::Keep(p),
    }
}

fn clue_level(level: ClueLevel) -> sudoku_gen::Level {
    match level {
        ClueLevel::Easy => sudoku_gen::Level::Easy,
        ClueLevel::Medium => sudoku_gen::Level::Medium,
        ClueLevel::Hard => sudoku_gen::Level::Hard,
    }
}

/// The generator crate's carving, without symmetry.
fn make_puzzle(
    grid: &Grid,
    variant: Variant,
    spec: PuzzleSpec,
    checker: &mut dyn Solver,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Carved, GenError> {
    let carved = match spec {
        PuzzleSpec::Rated { min, max } => {
            let mut rate = |p: &sudoku_core::Puzzle| sudoku_logic::rate(p).score;
            sudoku_gen::make_rated_puzzle(grid, variant, min, max, &mut rate, checker, budget, rng)?
        }
        _ => sudoku_gen::make_puzzle(grid, variant, spec, Symmetry::None, checker, budget, rng)?,
    };
    Ok(carved)
}

/// Every method of the workspace's method crates that runs in this process (the outside
/// programs of `external` need programs installed), crate by crate, in the order `list` shows
/// them: what the conformance tests check.
pub fn in_process_methods() -> Vec<MethodInfo> {
    crate::method_crates::in_process()
}

fn join<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::RATING_LEVELS;

    /// The experiment file's level names are the generator's and the rater's.
    #[test]
    fn the_experiment_levels_are_the_solver_crates_levels() {
        for l in ClueLevel::ALL {
            assert_eq!(clue_level(l).name(), l.name());
        }
        let rater: Vec<(&str, (f64, f64))> = sudoku_logic::Level::ALL
            .iter()
            .map(|l| (l.name(), l.range()))
            .collect();
        assert_eq!(rater, RATING_LEVELS);
    }
}
