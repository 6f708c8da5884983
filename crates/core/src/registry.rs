//! The registry entries that methods export: each method crate exports a list of
//! [`MethodInfo`] (and generators a list of [`GeneratorInfo`]); the runner concatenates them
//! into its one registry, so `list`, `solve`, `generate` and `run` all see the same methods with
//! the same documented parameters. Apart from [`crate::params`] so that the parameters know
//! nothing of the solvers built from them.

use std::fmt;

use crate::{Generator, ParamError, ParamSpec, Params, Solver};

/// How a solver can be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Proves infeasibility and can count (exact methods).
    pub complete: bool,
    /// May run on several threads at once (CBC may not).
    pub thread_safe: bool,
    /// Uses its random generator (so trials differ).
    pub randomized: bool,
}

/// A registered solving method.
#[derive(Clone, Copy)]
pub struct MethodInfo {
    /// Name on the command line and in results.
    pub name: &'static str,
    /// One line on what it is, with its source.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// What it can do.
    pub caps: Capabilities,
    /// Builds a configured solver; unknown keys and bad values are errors.
    pub build: fn(&Params) -> Result<Box<dyn Solver + Send>, ParamError>,
}

impl fmt::Debug for MethodInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MethodInfo")
            .field("name", &self.name)
            .finish()
    }
}

/// A registered full-grid generator.
#[derive(Clone, Copy)]
pub struct GeneratorInfo {
    /// Name on the command line and in results.
    pub name: &'static str,
    /// One line on what it is, with its source.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// May run on several threads at once.
    pub thread_safe: bool,
    /// Builds a configured generator; unknown keys and bad values are errors.
    pub build: fn(&Params) -> Result<Box<dyn Generator + Send>, ParamError>,
}

impl fmt::Debug for GeneratorInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GeneratorInfo")
            .field("name", &self.name)
            .finish()
    }
}
