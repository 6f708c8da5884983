//! What several integration tests share: the methods of every method crate (the registry's
//! list without the binary, which tests cannot link), so a new crate joins every test at once.

use sudoku_core::MethodInfo;

/// Every method of every method crate, in registry order.
pub fn methods() -> Vec<MethodInfo> {
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
