//! How `sat` is configured ([`SatConfig`]): the rules run before encoding, the encoding,
//! which SAT solver answers (CaDiCaL in process, or a DIMACS program) and CaDiCaL's preset
//! and options. The solver ([`crate::Sat`]) and the session ([`crate::Session`]) both read it.

use sudoku_core::{choices, ParamError, Params};
use sudoku_logic::RuleSet;

pub use crate::copy::CopyBy;
use crate::encode::{Amo, Encoding};

sudoku_core::config! {
    /// The rules `sat` runs before encoding, how it encodes, and which SAT solver answers
    /// with which options.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct SatConfig for crate::SAT, check SatConfig::check {
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
             unsatisfiable ones (with solver=kissat: Kissat's --sat or --unsat)";
        solver: Backend = "cadical"
            of choices![
                "cadical" => Backend::Cadical,
                "kissat" => Backend::Kissat,
            ],
            "the SAT solver: CaDiCaL in process, or the kissat program on the same CNF (found \
             as SUDOKU_KISSAT, on PATH, or in the Python package passagemath-kissat of the \
             project's venv); a new run per solution when counting";
        command: String = text "none",
            "a DIMACS SAT program run instead of CaDiCaL (its command line, split at spaces): \
             it reads the CNF on standard input and answers in the SAT competition's format \
             (s SATISFIABLE / v ... 0); killed at the time limit; its UNSATISFIABLE, as \
             kissat's, is checked by a complete method of ours before it is reported; none: \
             CaDiCaL or kissat";
        options: String = text "none",
            "CaDiCaL's own options after the preset, name=value separated by commas \
             (e.g. seed=3,phase=0), set through its C API; none: the preset's";
        copies: CopyBy = "relabel"
            of choices![
                "relabel" => CopyBy::Relabel,
                "reseed" => CopyBy::Reseed,
            ],
            "how the copies of threads= and copy= differ: the grid relabelled (digits, \
             bands, rows, stacks, columns, transposition; a diagonal puzzle only its digits and \
             transposition) and the answer mapped back, or CaDiCaL's variable order shuffled \
             from another seed";
        copy: u64 = 0 in 0..,
            "solve the copy with this number (made as copies= says) instead of the puzzle: \
             for studies of how much equivalent formulas differ; 0: the puzzle itself";
        threads: u32 = 1 in 1..=2,
            "a portfolio: 2 runs two searches on different copies of the puzzle on two \
             threads, the first answer wins (the node limit applies to each)";
    }
}

/// Which SAT solver `sat` runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// CaDiCaL in this process (incremental: counting keeps what it learned).
    #[default]
    Cadical,
    /// The kissat program on the CNF through DIMACS.
    Kissat,
}

impl SatConfig {
    /// Reads `options` and rejects combinations that mean nothing.
    fn check(&mut self, p: &Params) -> Result<(), ParamError> {
        let options = self
            .cadical_options()
            .map_err(|e| p.invalid("options", &e))?;
        let outside = self.command().is_some() || self.solver == Backend::Kissat;
        if self.command().is_some() && self.solver == Backend::Kissat {
            return Err(p.invalid("command", "no value beside solver=kissat"));
        }
        if outside && !options.is_empty() {
            return Err(p.invalid(
                "options",
                "no value with an outside program (they are CaDiCaL's)",
            ));
        }
        if outside {
            if self.threads > 1 {
                return Err(p.invalid("threads", "1 with an outside program (CaDiCaL only)"));
            }
            if self.copies == CopyBy::Reseed && self.copy > 0 {
                return Err(p.invalid(
                    "copies",
                    "relabel with an outside program (reseeding sets CaDiCaL's options)",
                ));
            }
        }
        if let Some(command) = self.command() {
            crate::outside::check_command(command).map_err(|e| p.invalid("command", &e))?;
        }
        if self.command().is_some() && self.preset != Preset::Default {
            return Err(p.invalid(
                "preset",
                "default only with command= (the program's options go in its command)",
            ));
        }
        Ok(())
    }

    /// The command line of `command=`, unless it is `none` (or empty).
    fn command(&self) -> Option<&str> {
        Some(self.command.trim()).filter(|c| !c.is_empty() && *c != "none")
    }

    /// `options` as (name, value) pairs, each checked against CaDiCaL's list and ranges.
    pub(crate) fn cadical_options(&self) -> Result<Vec<(String, i32)>, String> {
        let options = crate::cdcl::parse_options(&self.options)?;
        crate::cdcl::check_options(&options)?;
        Ok(options)
    }

    /// The DIMACS program that answers instead of CaDiCaL, if any.
    pub fn program(&self) -> Option<crate::outside::Program> {
        if let Some(command) = self.command() {
            Some(crate::outside::Program::Command(command.to_string()))
        } else if self.solver == Backend::Kissat {
            Some(crate::outside::Program::Kissat)
        } else {
            None
        }
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
