//! What several integration tests share: the methods of every method crate (the registry's
//! list of the methods that run in this process), so a new crate joins every test at once.

use sudoku_core::MethodInfo;

/// Every method of every method crate that runs in this process (the outside programs need
/// programs installed), in registry order.
pub fn methods() -> Vec<MethodInfo> {
    sudoku_runner::registry::in_process_methods()
}
