//! The one place where methods are registered. Every command (`list`, `solve`, `generate`,
//! `run`) looks methods up here, so a method crate is wired in once.

use anyhow::{anyhow, Result};
use sudoku_core::{
    Budget, GeneratorInfo, Grid, MethodInfo, ParamError, Params, Puzzle, Rng, Variant,
};

/// What an LP relaxation reports (ILP crate).
#[derive(Clone, Debug, PartialEq)]
pub struct RelaxReport {
    /// Is the LP feasible at all? (When not, the puzzle has no solution.)
    pub feasible: bool,
    /// Is the LP optimum integral?
    pub integral: bool,
    /// Number of fractional variables at the optimum.
    pub fractional: usize,
    /// Is the integral point the LP's only feasible point (seed 004, Theorem 4)?
    pub unique: Option<bool>,
    /// Method-specific details (name, value).
    pub extra: Vec<(String, String)>,
    /// Time spent building the model.
    pub build_time: Option<std::time::Duration>,
}

/// Solves the LP relaxation of a puzzle.
pub type RelaxFn = fn(&Puzzle, &Params, &Budget) -> Result<RelaxReport>;

/// Turns a full grid into a puzzle following a spec (`unique`, `minimal`, `keep=0.45`, …).
pub type PuzzleMakerFn = fn(&Grid, Variant, &str, Option<usize>, &Budget, &mut Rng) -> Result<Grid>;

/// Every registered method, generator and helper.
#[derive(Clone, Default)]
pub struct Registry {
    /// Solving methods.
    pub methods: Vec<MethodInfo>,
    /// Full-grid generators.
    pub generators: Vec<GeneratorInfo>,
    /// The LP relaxation, when an ILP crate is built in.
    pub relax: Option<RelaxFn>,
    /// The puzzle maker, when a generator crate is built in.
    pub puzzle_maker: Option<PuzzleMakerFn>,
    /// Version of the CBC library linked in, if any (recorded in meta.json).
    pub cbc_version: Option<&'static str>,
}

impl Registry {
    /// Everything this build of the workspace provides.
    pub fn standard() -> Registry {
        let mut methods = Vec::new();
        methods.extend(sudoku_prop::methods());
        methods.extend(sudoku_baselines::methods());
        methods.extend(sudoku_meta::methods());
        methods.extend(sudoku_ilp::methods());
        let mut generators = sudoku_gen::generators();
        generators.extend(sudoku_ilp::generators());
        Registry {
            methods,
            generators,
            relax: Some(ilp_relax),
            puzzle_maker: Some(make_puzzle),
            cbc_version: Some("2.10.12 (cbc-src 0.2.8, built from source)"),
        }
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

    /// The relaxation function, or an error saying it is not built in.
    pub fn relax_fn(&self) -> Result<RelaxFn> {
        self.relax.ok_or_else(|| {
            anyhow!("LP relaxation needs the ILP crate, which is not part of this build")
        })
    }

    /// The puzzle maker, or an error saying it is not built in.
    pub fn puzzle_maker(&self) -> Result<PuzzleMakerFn> {
        self.puzzle_maker.ok_or_else(|| {
            anyhow!("generated instances need the generator crate, which is not part of this build")
        })
    }
}

/// The ILP crate's LP relaxation, configured by the `ilp` method's `objective` and `model`.
fn ilp_relax(puzzle: &Puzzle, params: &Params, _budget: &Budget) -> Result<RelaxReport> {
    let cfg = sudoku_ilp::config_from_params(params)?;
    let relax_cfg = sudoku_ilp::RelaxConfig {
        model: cfg.model,
        objective: cfg.objective,
        ..sudoku_ilp::RelaxConfig::default()
    };
    // The relaxation is deterministic except for the `random` objective's weights.
    let mut rng = sudoku_core::rng_from_seed(0);
    let r = sudoku_ilp::relax(puzzle, &relax_cfg, &mut rng)?;
    Ok(RelaxReport {
        feasible: r.feasible,
        integral: r.integral,
        fractional: r.fractional,
        unique: r.unique,
        extra: vec![
            ("variables".into(), r.variables.to_string()),
            ("lp_iterations".into(), r.iterations.to_string()),
            (
                "solve_ms".into(),
                format!("{:.3}", r.solve_time.as_secs_f64() * 1000.0),
            ),
        ],
        build_time: Some(r.build_time),
    })
}

/// Carves a puzzle from a full grid: `unique`, `minimal`, `easy`, `medium`, `hard`, `keep=P`;
/// uniqueness is checked with the `prop` counter.
fn make_puzzle(
    grid: &Grid,
    variant: Variant,
    spec: &str,
    clues: Option<usize>,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Grid> {
    use sudoku_gen::{Level, PuzzleSpec, Symmetry};
    let spec = match spec.trim().to_ascii_lowercase().as_str() {
        "unique" => PuzzleSpec::Unique { clues },
        "minimal" => PuzzleSpec::Minimal,
        "easy" => PuzzleSpec::Level(Level::Easy),
        "medium" => PuzzleSpec::Level(Level::Medium),
        "hard" => PuzzleSpec::Level(Level::Hard),
        s => match s.strip_prefix("keep=").map(str::parse::<f64>) {
            Some(Ok(p)) if (0.0..=1.0).contains(&p) => PuzzleSpec::Keep(p),
            _ => anyhow::bail!("puzzle spec `{s}`: expected unique, minimal, easy, medium, hard or keep=P with P in 0..=1"),
        },
    };
    let mut checker = sudoku_prop::Prop::default();
    let carved = sudoku_gen::make_puzzle(
        grid,
        variant,
        spec,
        Symmetry::None,
        &mut checker,
        budget,
        rng,
    )?;
    Ok(carved.givens)
}

fn join<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}
