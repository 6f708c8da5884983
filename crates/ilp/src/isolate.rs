//! When a CBC solve runs in a child process that is killed at its deadline
//! ([`sudoku_isolate`]), and how the answer crosses the pipe.
//!
//! Why: CBC checks its time limit (`sec`) only between the phases of branch and cut, and
//! neither the root LP nor integer preprocessing nor the continuous `Cbc_solve` (the
//! `lp_first` LP and every `search=dfs` node) checks it at all; the C interface gives no way
//! to reach Clp's own limit for the continuous solve. On an empty 36×36 the first of those
//! phases alone runs for minutes. A child costs a fork, a pipe and its exit (docs/notes/time-limits.md), so
//! it is paid only where CBC is known to overrun (see [`worth_isolating`]). Every `coin_cbc`
//! call that takes `coin_cbc`'s process-wide lock goes through [`gate`], which is what makes
//! the fork safe.

use std::time::{Duration, Instant};

pub(crate) use sudoku_isolate::{gate, grace, Child, Isolated, Wire};

use crate::IlpError;

/// Models with at least this many columns always run in a child when there is a deadline:
/// CBC's unchecked phases on them last from seconds (a full 25×25) to minutes (an empty
/// 36×36).
pub(crate) const ISOLATE_ALWAYS: usize = 5_000;
/// Models with at least this many columns run in a child when less than [`SHORT_LIMIT`] is
/// left: their unchecked phases were measured at up to about a second (a generated 25×25 with
/// 1,871 columns, on the loaded 2-core machine), a tenth of 10 s. Smaller models (every 9×9,
/// most 16×16 puzzles once reduced) stay in this process: their phases take milliseconds,
/// while a child costs about 1 ms to fork and 5–10 ms more to fault in and tear down the
/// memory CBC uses (docs/notes/time-limits.md).
pub(crate) const ISOLATE_SHORT: usize = 1_000;
/// See [`ISOLATE_SHORT`].
pub(crate) const SHORT_LIMIT: Duration = Duration::from_secs(20);

/// Whether a solve of a model with `columns` columns and this deadline runs in a child.
pub(crate) fn worth_isolating(deadline: Option<Instant>, columns: usize) -> bool {
    let Some(at) = deadline else { return false };
    let short = at.saturating_duration_since(Instant::now()) < SHORT_LIMIT;
    cfg!(unix) && (columns >= ISOLATE_ALWAYS || (columns >= ISOLATE_SHORT && short))
}

impl Wire for IlpError {
    // Only `Abandoned` comes out of a solve; the others are raised before one starts.
    fn put(&self, out: &mut Vec<u8>) {
        let (status, secondary) = match self {
            IlpError::Abandoned { status, secondary } => (status.clone(), secondary.clone()),
            other => ("error".to_string(), other.to_string()),
        };
        status.put(out);
        secondary.put(out);
    }
    fn get(input: &mut &[u8]) -> Option<IlpError> {
        Some(IlpError::Abandoned {
            status: String::get(input)?,
            secondary: String::get(input)?,
        })
    }
}

/// Runs `work` in a forked child and returns what it sends back, or kills the child at
/// `kill_at` ([`sudoku_isolate::run`]); a child that fails is an abandoned solve.
pub(crate) fn run<T: Wire>(
    kill_at: Instant,
    work: impl FnOnce() -> T,
) -> Result<Child<T>, IlpError> {
    sudoku_isolate::run(kill_at, work).map_err(|e| IlpError::Abandoned {
        status: "child-failed".into(),
        secondary: e.0,
    })
}
