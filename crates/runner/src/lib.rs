//! # sudoku-runner
//!
//! The experiment runner of sudoku-bench as a library, so that anything that runs an experiment
//! (the `sudoku-bench` command, the Python package, a solver author's own crate, a test) calls
//! the same code.
