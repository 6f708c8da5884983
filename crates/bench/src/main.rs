//! `sudoku-bench`: compare exact and metaheuristic Sudoku methods of any order.
//!
//! The command line and nothing else: [`cli`] (one file per command, the only place flags are
//! parsed and what each command prints), [`progress`] (what a run says on stderr: the
//! runner's sink) and [`io`] (puzzle files read for the commands, standard output written).
//! The work is `sudoku-runner`'s (the registry, experiments run, results folders written) and
//! the method, analysis and report crates'. Errors print once, as `error: …`; the exit code
//! follows one rule for every command, [`cli::Exit`]: 0 all answered, 1 a wrong answer or a
//! failed check, 2 bad input or usage, 3 trials that ended in `error`.

use std::process::ExitCode;

/// `eprintln!` that never panics: a line on standard error through [`io::say`], dropped when
/// standard error cannot be written (`2>/dev/full`).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::io::say(format_args!($($arg)*))
    };
}

mod cli;
mod io;
mod progress;

fn main() -> ExitCode {
    // Programs the `external` method starts may call this very binary (`"$SUDOKU_BENCH" serve`),
    // from a checkout or an installed copy alike.
    if let Ok(exe) = std::env::current_exe() {
        std::env::set_var("SUDOKU_BENCH", exe);
    }
    let registry = sudoku_runner::Registry::standard();
    let outcome = cli::Cli::read().and_then(|c| c.map_or(Ok(()), |c| c.dispatch(&registry)));
    cli::Failure::exit_code(outcome)
}
