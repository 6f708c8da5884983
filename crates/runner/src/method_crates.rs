//! The method crates built into the runner: the one list of them. The registry takes it
//! ([`crate::registry::in_process_methods`], which the conformance tests read too), so a new
//! method crate joins `list`, `run` and every test at once.

use sudoku_core::MethodInfo;

/// Every method that runs in this process, crate by crate, in the order `list` shows them.
pub fn in_process() -> Vec<MethodInfo> {
    [
        sudoku_prop::methods(),
        sudoku_baselines::methods(),
        sudoku_meta::methods(),
        sudoku_ilp::methods(),
        sudoku_logic::methods(),
        sudoku_sat::methods(),
        sudoku_hybrid::methods(),
    ]
    .concat()
}
