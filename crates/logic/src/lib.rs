//! # sudoku-logic
//!
//! Sudoku solved the way people and constraint programmers solve it, for every order `n` and
//! both variants: a rule solver (`logic`) that applies the easiest rule that makes progress and
//! explains each step, a difficulty rating built on it, and `gac`, a CP solver that keeps
//! generalised arc consistency on every AllDifferent unit. Seed paper 004 (Teles) supplies the
//! pigeonhole rule and its LP-relaxation theorem; paper 002 the CP model it compares.
//!
//! [`methods`] is the registry the benchmark runner reads.
#![deny(missing_docs)]

pub mod gac;

use sudoku_core::MethodInfo;

/// The methods of this crate, for the runner's registry.
pub fn methods() -> Vec<MethodInfo> {
    vec![gac::method_info()]
}
