//! What can go wrong building a CNF.

/// An encoding that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SatError {
    /// More variables than a DIMACS literal (a positive `i32`) can number.
    #[error("the encoding needs {0} variables, more than a SAT literal can number")]
    TooManyVariables(u64),
}
