//! The crate's error type.

/// What can go wrong before or around a CBC call. Infeasibility and time limits are not
/// errors: they are outcomes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IlpError {
    /// A name (objective, model, prefill, CBC option) that is not one of the accepted ones.
    #[error("unknown {what} `{name}` (expected {expected})")]
    UnknownName {
        /// What was being named.
        what: &'static str,
        /// The name given.
        name: String,
        /// The accepted names.
        expected: &'static str,
    },
    /// The `prefer` objective names a cell outside the grid (1-based).
    #[error("parameter `cell`: r{row}c{col} is outside a {size}x{size} grid (rows and columns are 1-based)")]
    CellOutOfRange {
        /// Row given.
        row: usize,
        /// Column given.
        col: usize,
        /// Side of the grid.
        size: usize,
    },
    /// The `prefer` objective names a digit the grid does not have.
    #[error("parameter `digit`: {digit} is outside 1..={size}")]
    DigitOutOfRange {
        /// Digit given.
        digit: u16,
        /// Largest digit.
        size: usize,
    },
    /// CBC gave up on numerical grounds (`abandoned`), which these 0/1 models should never do.
    #[error("CBC abandoned the solve (status {status}, secondary {secondary})")]
    Abandoned {
        /// CBC's primary status.
        status: String,
        /// CBC's secondary status.
        secondary: String,
    },
}
