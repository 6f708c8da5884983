//! Peak resident memory of a trial (Linux): the process's high-water mark (VmHWM) is reset
//! before the trial and read after it; a child process the method ran (CBC isolated by the
//! ILP, an external solver) counts through the children's `ru_maxrss` when it rose during the
//! trial. VmHWM is per process, so with several worker threads a trial's figure is the peak of
//! everything running at the time: run with `--jobs 1` for per-trial figures.

/// Before a results folder's outputs are made (after every trial): glibc's allocator is told
/// to map every block of 128 KiB or more on its own (so that it goes back to the system when
/// freed) and to keep at most 128 KiB free at the top of its heap, and what it holds free now
/// is handed back. By default it raises both thresholds as large blocks are freed (to 32 and
/// 64 MiB): the analysis of a million trials frees lists of tens of megabytes one after
/// another, and the peak resident memory was the heap's peak plus 30 to 60 MB kept free,
/// varying from one run to the next. Not done before or during the trials, whose methods are
/// timed with the allocator as it is. Elsewhere than glibc, nothing.
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes tuning parameters of the allocator, and malloc_trim only
    // releases free heap pages.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 10);
        libc::malloc_trim(0);
    }
}

/// The readings taken before a trial.
pub struct PeakRss {
    children_kb: u64,
}

impl PeakRss {
    /// Resets the high-water mark and remembers the children's peak so far.
    pub fn start() -> PeakRss {
        // Hand memory freed by earlier trials back to the system first, so that the figure is
        // this trial's and not what the allocator kept from a bigger one.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: malloc_trim only releases free heap pages.
        unsafe {
            libc::malloc_trim(0);
        }
        // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0); where it
        // cannot be written, the figure is the peak since the process started.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        PeakRss {
            children_kb: children_max_kb(),
        }
    }

    /// The peak resident memory since [`PeakRss::start`], in KiB (none where unknown).
    pub fn peak_kb(&self) -> Option<u64> {
        let own = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| vm_hwm_kb(&s));
        let child = children_max_kb();
        let child = (child > self.children_kb).then_some(child);
        own.max(child)
    }
}

/// `VmHWM` of a /proc status text, in KiB.
fn vm_hwm_kb(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The largest `ru_maxrss` of the children waited for so far, in KiB.
fn children_max_kb() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: rusage is plain data, filled in by getrusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage writes one rusage through a valid pointer.
        if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } == 0 {
            return usage.ru_maxrss.max(0) as u64;
        }
        0
    }
    #[cfg(not(unix))]
    {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_high_water_mark() {
        assert_eq!(
            vm_hwm_kb("Name:\tx\nVmHWM:\t   13596 kB\nVmRSS:\t1 kB\n"),
            Some(13596)
        );
        assert_eq!(vm_hwm_kb("Name:\tx\n"), None);
        // A trial that allocates and touches 64 MiB shows at least that much.
        let peak = PeakRss::start();
        let v = vec![1u8; 64 << 20];
        std::hint::black_box(&v);
        if let Some(kb) = peak.peak_kb() {
            assert!(kb >= 64 << 10, "{kb} KiB");
        }
    }
}
