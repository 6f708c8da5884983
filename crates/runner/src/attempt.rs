//! One puzzle through a configured method outside an experiment, as `sudoku-bench solve` and
//! the Python package's `solve` and `count` do it: only the method call is timed (the wall
//! clock, and the thread's CPU clock when asked), what it did after its answer is settled
//! outside that window, and the answer is judged by the same [`judge`] as a trial of `run`
//! (an outside program's claims checked too).

use sudoku_core::Rng;

use crate::clock::Clock;
use crate::error::Result;
use crate::judge::{judge_checked, Answer, Trial};
use crate::kind::{Job, TrialMethod};
use crate::results::ms;

/// A judged answer and its times.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// What the method returned.
    pub answer: Answer,
    /// How the trial ended, judged against the puzzle.
    pub trial: Trial,
    /// Wall time of the method call (ms).
    pub wall_ms: f64,
    /// CPU time of the call (ms): the thread's own (none for an outside program) and its
    /// child processes'; `None` unless asked for.
    pub cpu_ms: Option<f64>,
}

/// Runs `method` on `job` once and judges the answer. `cpu_time` reads the thread's CPU clock
/// around the call (two system calls, a tenth of a fast 9×9 solve, so only when asked);
/// `outside` says the method is an outside program, whose claims are checked and whose CPU
/// time is its own, not the harness thread's.
pub fn attempt(
    method: &mut dyn TrialMethod,
    job: &Job,
    rng: &mut Rng,
    clock: &dyn Clock,
    cpu_time: bool,
    outside: bool,
) -> Result<Attempt> {
    let c0 = cpu_time.then(|| clock.cpu());
    let w0 = clock.wall();
    let mut answer = method.attempt(job, rng)?;
    let wall_ms = ms(clock.wall().saturating_sub(w0));
    let own = c0.map(|c0| ms(clock.cpu().saturating_sub(c0)));
    // Always settled: what an outside program did after its answer is read here.
    method.settle(&mut answer);
    let cpu_ms = own.map(|own| if outside { 0.0 } else { own } + ms(answer.child_cpu()));
    // Verification in the same pass, outside the timed region.
    let trial = judge_checked(&answer, job.puzzle, job.budget);
    Ok(Attempt {
        answer,
        trial,
        wall_ms,
        cpu_ms,
    })
}
