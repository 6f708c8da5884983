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

impl Clock for RealClock {
    fn wall(&self) -> Duration {
        self.origin.elapsed()
    }

    fn cpu(&self) -> Duration {
        thread_cpu_time()
    }
}

/// CPU time of the current thread (zero where the platform has no such clock).
pub fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec through a valid pointer.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
        Duration::ZERO
    }
    #[cfg(not(unix))]
    {
        Duration::ZERO
    }
}
