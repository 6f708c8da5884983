//! TEST ONLY: the slowdown that makes one configuration a known amount slower inside its own
//! clock, so that a power check of `compare` can be made with one binary (`run
//! --test-slowdown`, a duet's either side, `serve --test-slowdown`). Apart from [`crate::duet`]
//! because the trial loop ([`crate::execute`]) applies it too.

use std::time::{Duration, Instant};

use crate::judge::Answer;

/// The `extra` figure that records a test slowdown, in per cent, in every row it touched.
pub const SLOWDOWN_KEY: &str = "test_slowdown";
/// A test slowdown in per cent, as the command line gives it: more than 0, at most 1000.
pub fn percent(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p <= 1000.0 => Ok(p),
        _ => Err(format!(
            "`{s}` is not a slowdown in per cent (more than 0, at most 1000)"
        )),
    }
}

/// A call's time on the method's own clock, as a row has it
/// (`sudoku_analysis::clocks::own_ms`): the search time it reports, else the call less its
/// model building.
pub fn own_time(answer: &Answer, call: Duration) -> Duration {
    // Read in place: inside a clock, a copy of the statistics would be part of the time.
    let (solve, build) = match answer {
        Answer::Solve(o) | Answer::Generate { outcome: o, .. } => {
            (o.stats.solve_time, o.stats.build_time)
        }
        Answer::Count(c) => (c.stats.solve_time, c.stats.build_time),
        Answer::Relax(r) => (None, r.build_time),
        Answer::LogicLp(_) => (None, None),
    };
    solve.unwrap_or_else(|| call.saturating_sub(build.unwrap_or_default()))
}

/// TEST ONLY: busy-waits `percent` % of `own` (a call's time on the method's own clock,
/// [`own_time`]) and gives the time it waited. The wait burns the CPU as a slower method
/// would, and is inside whatever clock is around the call.
pub fn spin_for(percent: f64, own: Duration) -> Duration {
    let wait = own.mul_f64(percent / 100.0);
    let start = Instant::now();
    while start.elapsed() < wait {
        std::hint::spin_loop();
    }
    start.elapsed()
}

/// Records a test slowdown in the answer: the `extra` figure [`SLOWDOWN_KEY`] (so every row
/// made from it says so), and the wait `spun` added to the method's own search time when it
/// reports one (the wait is part of the slower "search").
pub fn mark_slowdown(answer: &mut Answer, percent: f64, spun: Duration) {
    let stats = match answer {
        Answer::Solve(o) | Answer::Generate { outcome: o, .. } => &mut o.stats,
        Answer::Count(c) => &mut c.stats,
        Answer::Relax(_) | Answer::LogicLp(_) => return,
    };
    if let Some(t) = stats.solve_time.as_mut() {
        *t += spun;
    }
    stats
        .extra
        .push((SLOWDOWN_KEY.to_string(), format!("{percent}")));
}
