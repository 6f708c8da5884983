//! How `sat` is configured ([`SatConfig`]): the rules run before encoding, the encoding and
//! CaDiCaL's preset. The solver ([`crate::Sat`]) and the session ([`crate::Session`]) both
//! read it.

use sudoku_core::choices;
use sudoku_logic::RuleSet;

use crate::encode::{Amo, Encoding};

sudoku_core::config! {
    /// The rules `sat` runs before encoding, how it encodes, and CaDiCaL's preset.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct SatConfig for crate::SAT {
        logic: Option<RuleSet> = "none"
            of choices![
                "none" => None,
                "singles" => Some(RuleSet::Singles),
                "pigeonhole" => Some(RuleSet::Pigeonhole),
                "two-unit" => Some(RuleSet::TwoUnit),
                "all" => Some(RuleSet::All),
            ],
            "rules of sudoku-logic run to a fixpoint before encoding (its rule sets: singles; + \
             naked and hidden subsets; + locked candidates; + fish and wings): the digits they \
             place are fixed and the candidates they eliminate have no variable; none: only the \
             encoding's own propagation";
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
        boxline: bool = off,
            "redundant clauses for the box-line intersections: a variable per (box, row or \
             column, digit) saying the digit is in their intersection, exactly one per box and \
             per line, so that unit propagation does locked candidates (pointing, claiming)";
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
