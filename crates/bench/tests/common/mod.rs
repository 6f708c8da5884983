//! What several integration tests share: the methods of every method crate (the registry's
//! list without the binary, which tests cannot link), so a new crate joins every test at once.

use sudoku_core::MethodInfo;

#[path = "../../src/method_crates.rs"]
mod method_crates;

/// Every method of every method crate that runs in this process (the outside programs need
/// programs installed), in registry order.
pub fn methods() -> Vec<MethodInfo> {
    method_crates::in_process()
}
