//! How `sat` is configured ([`SatConfig`]): the encoding and CaDiCaL's preset. The solver
//! ([`crate::Sat`]) and the session ([`crate::Session`]) both read it.

use sudoku_core::choices;

use crate::encode::{Amo, Encoding};

sudoku_core::config! {
    /// How `sat` encodes, and CaDiCaL's preset.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct SatConfig for crate::SAT {
        encoding: Encoding = "optimised"
            of choices![
                "optimised" => Encoding::Optimised,
                "extended" => Encoding::Extended,
                "minimal" => Encoding::Minimal,
            ],
            "CNF encoding: extended clauses over the variables left open by the givens and unit \
             propagation; all variables with redundant clauses; or all variables, minimal clauses";
        amo: Amo = "auto"
            of choices![
                "auto" => Amo::Auto,
                "pairwise" => Amo::Pairwise,
                "sequential" => Amo::Sequential,
            ],
            "at-most-one constraints: pairwise up to 16 literals and a sequential counter above, \
             always pairwise, or always the sequential counter";
        preset: Preset = "default"
            of choices![
                "default" => Preset::Default,
                "sat" => Preset::Sat,
                "unsat" => Preset::Unsat,
            ],
            "CaDiCaL's option preset: its defaults, tuned for satisfiable formulas, or tuned for \
             unsatisfiable ones";
    }
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
