//! `sudoku-bench`: compare exact and metaheuristic Sudoku methods of any order.
//!
//! Rooms: [`cli`] (one file per command, the only place flags are parsed), [`experiment`]
//! (experiment files, typed once), [`runner`] (plan, execute, judge, resume), [`registry`]
//! (every method, once), [`results`] (writing rows during a run) and [`outputs`] (a results folder's
//! summaries and charts, made by `sudoku-analysis` from its rows alone), [`provenance`] (meta.json). Errors print once, as `error: …`; the exit
//! code follows one rule for every command, [`cli::Exit`]: 0 all answered, 1 a wrong answer or a
//! failed check, 2 bad input or usage, 3 trials that ended in `error`.

use std::process::ExitCode;

// Experiment files are their own crate (fuzzed without the CBC build); one name for them here.
use sudoku_experiment as experiment;

mod cli;
mod clock;
mod io;
mod memory;
mod method_crates;
mod outputs;
mod progress;
mod provenance;
mod registry;
mod results;
mod runner;

#[cfg(test)]
mod tests;

/// `--version`: the package version and the commit the binary was built from (`archive` when
/// built outside a git checkout of this workspace, `+dirty` when its sources differed from the
/// commit; the build script decides both).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("SUDOKU_BENCH_BUILD"),
    ")"
);

fn main() -> ExitCode {
    // Programs the `external` method starts may call this very binary (`"$SUDOKU_BENCH" serve`),
    // from a checkout or an installed copy alike.
    if let Ok(exe) = std::env::current_exe() {
        std::env::set_var("SUDOKU_BENCH", exe);
    }
    let registry = registry::Registry::standard();
    let outcome = cli::Cli::read().and_then(|c| c.map_or(Ok(()), |c| c.dispatch(&registry)));
    cli::Failure::exit_code(outcome)
}
