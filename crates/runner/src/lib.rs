//! # sudoku-runner
//!
//! The experiment runner of sudoku-bench as a library, so that anything that runs an experiment
//! (the `sudoku-bench` command, the Python package, a solver author's own crate, a test) calls
//! the same code: the [`Registry`] of methods (list them, build a solver from a name and
//! parameters, add your own), an [`Experiment`] loaded from a file or made in memory, [`plan`]
//! and [`run`] with [`RunOptions`] (jobs, shard, resume, fresh, quick), a [`RunSummary`] with
//! the results folder back, and a results folder's outputs made again from its rows alone
//! ([`redraw`], [`merge`]). Errors are typed ([`RunError`]); nothing is printed: what a run has
//! to say (progress, notes, warnings) goes to the [`Sink`] the caller gives.
//!
//! ```
//! use sudoku_runner::{run, Experiment, Quiet, Registry, RunOptions};
//!
//! # fn main() -> Result<(), sudoku_runner::RunError> {
//! let registry = Registry::standard();
//! // Paths in an experiment start where the process runs (here, this crate's folder).
//! let exp = Experiment::parse(
//!     r#"
//!     name = "doc"
//!     seed = 1
//!     trials = 2
//!     [[method]]
//!     name = "prop"
//!     [[method]]
//!     name = "dlx"
//!     [[instances]]
//!     file = "../../datasets/seeds/002_takano.txt"
//!     "#,
//! )?;
//! let dir = tempfile::tempdir().expect("a temporary folder");
//! let opts = RunOptions {
//!     out: Some(dir.path().join("doc")),
//!     no_plots: true,
//!     ..RunOptions::default()
//! };
//! let summary = run(&exp, &registry, &opts, &Quiet)?;
//! assert_eq!(summary.trials.ran, 2 * 2 * 1);
//! assert!(summary.clean());
//! assert!(summary.out.join("trials.csv").exists());
//! # Ok(())
//! # }
//! ```
//!
//! A method of your own joins the built-in ones with [`Registry::register`] (the example crate
//! `examples/own-solver` of the repository does it from outside the workspace).
//!
//! Rooms: [`registry`] (every method, once; [`method_crates`] lists the crates), [`attempt`](mod@attempt)
//! (one puzzle through a configured method, as `solve` does it), [`run`] (an
//! experiment end to end), [`plan`] (experiment file → configurations, instances, tasks; each
//! configuration built once), [`execute`] (each task timed under its budget, panics captured,
//! CBC's lock), [`judge`] (an answer against its puzzle → a typed trial), [`kind`] (what each
//! kind of trial asks of a method), [`resume`] and [`shard`] (which tasks are left),
//! [`lock`] (one writer per results folder), [`results`] (rows written as they are made),
//! [`outputs`] and [`merge`] (a folder's derived files, shards joined), [`provenance`]
//! (meta.json's facts), [`clock`] and [`memory`] (what a trial is timed and measured by),
//! [`sink`] (where a run says what it does), [`latin`] and [`logic_lp`] (the Latin-square
//! instances and the `logic-lp` kind), [`error`].

// Experiment files are their own crate (fuzzed without the CBC build); one name for them here.
pub use sudoku_experiment as experiment;

pub mod attempt;
pub mod clock;
pub mod duet;
pub mod error;
pub mod execute;
pub mod judge;
pub mod kind;
pub mod latin;
pub mod lock;
pub mod logic_lp;
pub mod memory;
pub mod merge;
pub mod method_crates;
pub mod outputs;
pub mod plan;
pub mod provenance;
pub mod registry;
pub mod results;
pub mod resume;
pub mod run;
pub mod shard;
pub mod sink;
pub mod slowdown;

#[cfg(test)]
mod tests;

pub use attempt::{attempt, Attempt};
pub use error::{chain_text, RunError};
pub use execute::ExecReport;
pub use merge::{merge, Merged};
pub use outputs::redraw;
pub use plan::{Plan, PlanSize};
pub use registry::Registry;
pub use run::{default_out, plan, run, DuetSummary, Experiment, RunOptions, RunSummary};
pub use shard::Shard;
pub use sink::{Event, Quiet, Sink};
