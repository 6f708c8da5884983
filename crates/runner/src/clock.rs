//! Timing behind a trait, so runner tests can use a mock clock and assert exact numbers.

use std::time::{Duration, Instant};

/// Wall and CPU time readings; only differences between two readings are used.
pub trait Clock: Sync {
    /// Wall-clock reading.
    fn wall(&self) -> Duration;
    /// CPU time consumed by the calling thread.
    fn cpu(&self) -> Duration;
    /// Starts measuring a trial's peak memory; none where readings would not be repeatable
    /// (a mock clock's tests compare rows exactly).
    fn peak_rss(&self) -> Option<crate::memory::PeakRss> {
        Some(crate::memory::PeakRss::start())
    }
}

/// The real clock: a monotonic wall clock and the thread's CPU clock.
pub struct RealClock {
    origin: Instant,
}

impl RealClock {
    /// A clock whose wall readings start now.
    pub fn new() -> RealClock {
        RealClock {
            origin: Instant::now(),
        }
    }
}

impl Default for RealClock {
    fn default() -> RealClock {
        RealClock::new()
    }
}

impl Clock for RealClock {
    fn wall(&self) -> Duration {
        self.origin.elapsed()
    }

    fn cpu(&self) -> Duration {
        thread_cpu_time()
    }
}

/// CPU time (user and system) of this process and of the child processes it has waited for
/// (zero where the platform does not say).
pub fn process_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut total = Duration::ZERO;
        for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
            // SAFETY: rusage is plain data, filled in by getrusage.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: getrusage writes one rusage through a valid pointer.
            if unsafe { libc::getrusage(who, &mut usage) } == 0 {
                for t in [usage.ru_utime, usage.ru_stime] {
                    total +=
                        Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000);
                }
            }
        }
        total
    }
    #[cfg(not(unix))]
    {
        Duration::ZERO
    }
}

pub use sudoku_isolate::thread_cpu_time;
