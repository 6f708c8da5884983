//! Running a solver call where it can be stopped: in a forked child process, killed when its
//! time is up, with the result sent back over a pipe.
//!
//! Why: external solvers do not always look at a clock. CBC checks its time limit only between
//! the phases of branch and cut (its root LP on an empty 36×36 runs for minutes), and CaDiCaL
//! polls its terminate callback too rarely while it loads and first simplifies a formula of
//! millions of clauses (a 64×64 grid). A child process can always be stopped; its cost (fork,
//! pipe, the child's exit) is a millisecond or more, so callers isolate only where they know the
//! solver overruns.
//!
//! Fork safety: the child runs only the caller's solver code and the allocator (glibc's malloc
//! is fork-safe). A library lock that the child might need (`coin_cbc`'s process-wide mutex) must
//! only ever be taken inside [`gate`]; the fork happens while holding the gate, so no other
//! thread can hold such a lock at the moment of the fork. The child leaves with `_exit`,
//! running no destructor and no `atexit` handler of the parent's (nor freeing the solver's
//! memory, which the kernel reclaims at once).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sudoku_core::{CountEnd, Limit};
use thiserror::Error;

static GATE: Mutex<()> = Mutex::new(());

/// Held around `fork`, and by callers around every call into a library that takes a lock of
/// its own which a child could need (creating, solving and deleting a CBC model).
pub fn gate() -> MutexGuard<'static, ()> {
    GATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long after the deadline the child is killed: the solver is handed the exact time left
/// and sometimes stops itself a little late, with its statistics; this grace (a fiftieth of the
/// time that was left when the child started, at most half a second) lets it, while the whole
/// call, with the child's teardown, stays well within a tenth of its limit.
pub fn grace(left: Duration) -> Duration {
    (left / 50).min(Duration::from_millis(500))
}

/// CPU time of the calling thread (zero where the platform has no such clock): what the runner
/// times a trial with, and what a method that starts a thread of its own measures there so
/// that the trial's CPU time counts it (`Stats::child_cpu`).
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
            return Duration::new(ts.tv_sec.max(0) as u64, ts.tv_nsec.max(0) as u32);
        }
        Duration::ZERO
    }
    #[cfg(not(unix))]
    {
        Duration::ZERO
    }
}

/// A child that did not answer properly.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{0}")]
pub struct ChildFailed(pub String);

/// How an isolated run ended.
pub enum Isolated<T> {
    /// The child finished and sent this back.
    Done(T),
    /// The child was still running at the deadline (plus grace) and was killed.
    Killed,
}

/// How an isolated run ended, and the child's CPU time (user plus system), which the
/// caller's thread clock does not see.
pub struct Child<T> {
    /// The answer, or that there was none in time.
    pub end: Isolated<T>,
    /// The child's CPU time.
    pub cpu: Duration,
}

/// A value that can cross the pipe.
pub trait Wire: Sized {
    /// Appends the value's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a value from the front of `input` and advances it; `None` if malformed.
    fn get(input: &mut &[u8]) -> Option<Self>;
}

/// Implements [`Wire`] for a struct whose fields are all [`Wire`], sent in the order listed
/// (every field, so that none is left behind by mistake):
/// `sudoku_isolate::wire_struct!(Run { found, end, stats });`
#[macro_export]
macro_rules! wire_struct {
    ($ty:ident { $($field:ident),+ $(,)? }) => {
        impl $crate::Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                $( $crate::Wire::put(&self.$field, out); )+
            }
            fn get(input: &mut &[u8]) -> Option<Self> {
                Some($ty {
                    $( $field: $crate::Wire::get(input)?, )+
                })
            }
        }
    };
}

impl Wire for u64 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(input: &mut &[u8]) -> Option<u64> {
        let (head, rest) = input.split_first_chunk::<8>()?;
        *input = rest;
        Some(u64::from_le_bytes(*head))
    }
}

impl Wire for f64 {
    fn put(&self, out: &mut Vec<u8>) {
        self.to_bits().put(out);
    }
    fn get(input: &mut &[u8]) -> Option<f64> {
        u64::get(input).map(f64::from_bits)
    }
}

impl Wire for bool {
    fn put(&self, out: &mut Vec<u8>) {
        u64::from(*self).put(out);
    }
    fn get(input: &mut &[u8]) -> Option<bool> {
        u64::get(input).map(|v| v != 0)
    }
}

impl Wire for Duration {
    fn put(&self, out: &mut Vec<u8>) {
        self.as_secs_f64().put(out);
    }
    fn get(input: &mut &[u8]) -> Option<Duration> {
        Duration::try_from_secs_f64(f64::get(input)?).ok()
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        (self.len() as u64).put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(input: &mut &[u8]) -> Option<String> {
        let len = usize::try_from(u64::get(input)?).ok()?;
        let (head, rest) = (input.get(..len)?, input.get(len..)?);
        *input = rest;
        String::from_utf8(head.to_vec()).ok()
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        (self.len() as u64).put(out);
        self.iter().for_each(|v| v.put(out));
    }
    fn get(input: &mut &[u8]) -> Option<Vec<T>> {
        let len = usize::try_from(u64::get(input)?).ok()?;
        // Every item takes at least 8 bytes: a corrupt length cannot allocate much.
        let mut v = Vec::with_capacity(len.min(input.len() / 8));
        for _ in 0..len {
            v.push(T::get(input)?);
        }
        Some(v)
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.is_some().put(out);
        if let Some(v) = self {
            v.put(out);
        }
    }
    fn get(input: &mut &[u8]) -> Option<Option<T>> {
        Some(if bool::get(input)? {
            Some(T::get(input)?)
        } else {
            None
        })
    }
}

impl<T: Wire, E: Wire> Wire for Result<T, E> {
    fn put(&self, out: &mut Vec<u8>) {
        self.is_ok().put(out);
        match self {
            Ok(v) => v.put(out),
            Err(e) => e.put(out),
        }
    }
    fn get(input: &mut &[u8]) -> Option<Result<T, E>> {
        Some(if bool::get(input)? {
            Ok(T::get(input)?)
        } else {
            Err(E::get(input)?)
        })
    }
}

impl Wire for sudoku_core::Grid {
    fn put(&self, out: &mut Vec<u8>) {
        (self.order().n() as u64).put(out);
        let cells: Vec<u64> = self.cells().iter().map(|&v| u64::from(v)).collect();
        cells.put(out);
    }
    fn get(input: &mut &[u8]) -> Option<sudoku_core::Grid> {
        let order = sudoku_core::Order::new(usize::try_from(u64::get(input)?).ok()?).ok()?;
        let cells = Vec::<u64>::get(input)?
            .into_iter()
            .map(u16::try_from)
            .collect::<Result<Vec<u16>, _>>()
            .ok()?;
        sudoku_core::Grid::from_cells(order, cells).ok()
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn get(input: &mut &[u8]) -> Option<(A, B)> {
        Some((A::get(input)?, B::get(input)?))
    }
}

impl Wire for Limit {
    fn put(&self, out: &mut Vec<u8>) {
        let code: u64 = match self {
            Limit::Time => 0,
            Limit::Nodes => 1,
            Limit::Iterations => 2,
        };
        code.put(out);
    }
    fn get(input: &mut &[u8]) -> Option<Limit> {
        match u64::get(input)? {
            0 => Some(Limit::Time),
            1 => Some(Limit::Nodes),
            2 => Some(Limit::Iterations),
            _ => None,
        }
    }
}

impl Wire for CountEnd {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            CountEnd::Complete => 0u64.put(out),
            CountEnd::LimitReached => 1u64.put(out),
            CountEnd::Exhausted(limit) => {
                2u64.put(out);
                limit.put(out);
            }
        }
    }
    fn get(input: &mut &[u8]) -> Option<CountEnd> {
        match u64::get(input)? {
            0 => Some(CountEnd::Complete),
            1 => Some(CountEnd::LimitReached),
            2 => Some(CountEnd::Exhausted(Limit::get(input)?)),
            _ => None,
        }
    }
}

/// `value` as JSON of its derived (serde) encoding, for [`wire_derived!`].
pub fn put_derived<T: serde::Serialize>(value: &T, out: &mut Vec<u8>) {
    // Serialising plain data to memory does not fail; if it ever did, the empty text is
    // refused by `get_derived` and the run ends as a malformed answer, never a wrong one.
    serde_json::to_string(value).unwrap_or_default().put(out);
}

/// A value [`put_derived`] sent, for [`wire_derived!`].
pub fn get_derived<T: serde::de::DeserializeOwned>(input: &mut &[u8]) -> Option<T> {
    serde_json::from_str(&String::get(input)?).ok()
}

/// Implements [`Wire`] for a type deriving serde's `Serialize` and `Deserialize`: it crosses as
/// JSON of its derived encoding, every field but those it marks `#[serde(skip)]` (what only the
/// parent measures), so a new field needs nothing here. (JSON has no NaN or infinity: such a
/// number in an `Option` arrives as none.) `sudoku_isolate::wire_derived!(RelaxReport);`
#[macro_export]
macro_rules! wire_derived {
    ($ty:ty) => {
        impl $crate::Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                $crate::put_derived(self, out);
            }
            fn get(input: &mut &[u8]) -> Option<Self> {
                $crate::get_derived(input)
            }
        }
    };
}

// The statistics a solver call gathers in a child.
wire_derived!(sudoku_core::Stats);
// What a relaxation reports, from a relaxation solved in a child.
wire_derived!(sudoku_core::RelaxReport);

/// Runs `work` in a forked child and returns what it sends back, or kills the child at
/// `kill_at`. Where `fork` is not available or fails, `work` runs here instead.
pub fn run<T: Wire>(kill_at: Instant, work: impl FnOnce() -> T) -> Result<Child<T>, ChildFailed> {
    #[cfg(unix)]
    {
        unix::run(kill_at, work)
    }
    #[cfg(not(unix))]
    {
        let _ = kill_at;
        Ok(Child {
            end: Isolated::Done(work()),
            cpu: Duration::ZERO,
        })
    }
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::raw::c_int;

    /// The child's end: run, send, leave without unwinding into the parent's code.
    fn child<T: Wire>(fd: c_int, work: impl FnOnce() -> T) -> ! {
        let code = match catch_unwind(AssertUnwindSafe(work)) {
            Ok(value) => {
                let mut bytes = Vec::new();
                value.put(&mut bytes);
                if write_all(fd, &bytes) {
                    0
                } else {
                    2
                }
            }
            Err(_) => 3,
        };
        // SAFETY: flushing C stdio (CBC's log, when asked for) and leaving without running
        // the parent's destructors or exit handlers; both are plain libc calls.
        unsafe {
            libc::fflush(std::ptr::null_mut());
            libc::_exit(code)
        }
    }

    fn write_all(fd: c_int, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            // SAFETY: writes from a live slice to our own pipe.
            let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return false;
            }
            bytes = &bytes[n as usize..];
        }
        true
    }

    /// Waits for `pid` and returns whether it exited with status 0, and its CPU time.
    fn reap(pid: libc::pid_t) -> (Option<c_int>, Duration) {
        let mut status: c_int = 0;
        // SAFETY: rusage is plain data, filled in by wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: waits for our own child, writing through valid pointers.
            let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            if r == pid {
                break;
            }
            if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return (None, Duration::ZERO);
            }
        }
        let tv = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
        let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
        (code, cpu)
    }

    pub(super) fn run<T: Wire>(
        kill_at: Instant,
        work: impl FnOnce() -> T,
    ) -> Result<Child<T>, ChildFailed> {
        let mut fds = [0 as c_int; 2];
        // SAFETY: pipe writes two descriptors into a valid array.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return Ok(Child {
                end: Isolated::Done(work()),
                cpu: Duration::ZERO,
            });
        }
        let [read_fd, write_fd] = fds;
        let pid = {
            let held = gate();
            // SAFETY: flushes C stdio so the child does not write the parent's buffered
            // output a second time; then forks with the gate held (see the module docs).
            unsafe {
                libc::fflush(std::ptr::null_mut());
                let pid = libc::fork();
                if pid == 0 {
                    drop(held);
                    libc::close(read_fd);
                    child(write_fd, work);
                }
                pid
            }
        };
        // SAFETY: closing our copy of the write end, so EOF arrives when the child exits.
        unsafe { libc::close(write_fd) };
        if pid < 0 {
            // SAFETY: closing the read end we own.
            unsafe { libc::close(read_fd) };
            return Ok(Child {
                end: Isolated::Done(work()),
                cpu: Duration::ZERO,
            });
        }
        let received = receive(read_fd, kill_at);
        // SAFETY: closing the read end we own.
        unsafe { libc::close(read_fd) };
        if received.is_none() {
            // SAFETY: our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        let (code, cpu) = reap(pid);
        let Some(bytes) = received else {
            return Ok(Child {
                end: Isolated::Killed,
                cpu,
            });
        };
        if code != Some(0) {
            return Err(ChildFailed(format!(
                "the child process ended with {code:?}"
            )));
        }
        let mut input = bytes.as_slice();
        match T::get(&mut input) {
            Some(value) if input.is_empty() => Ok(Child {
                end: Isolated::Done(value),
                cpu,
            }),
            _ => Err(ChildFailed(
                "the child process sent a malformed result".into(),
            )),
        }
    }

    /// Reads the pipe to its end, or gives up at `kill_at` (`None`).
    fn receive(fd: c_int, kill_at: Instant) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let left = kill_at.checked_duration_since(Instant::now())?;
            if left.is_zero() {
                return None;
            }
            // Round up, so the wait never ends just before the deadline and spins.
            let ms = left.as_micros().div_ceil(1000).min(c_int::MAX as u128) as c_int;
            let mut pfd = libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: polls one valid pollfd.
            let ready = unsafe { libc::poll(&mut pfd, 1, ms) };
            if ready <= 0 {
                continue;
            }
            // SAFETY: reads into a live buffer of the given length.
            let n = unsafe { libc::read(fd, chunk.as_mut_ptr().cast(), chunk.len()) };
            match n {
                0 => return Some(bytes),
                n if n > 0 => bytes.extend_from_slice(&chunk[..n as usize]),
                _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                _ => return Some(bytes),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Message = Result<Vec<Option<(String, u64)>>, String>;

    #[test]
    fn values_cross_the_wire() {
        let mut out = Vec::new();
        let value: Message = Ok(vec![Some(("a".into(), 7)), None]);
        value.put(&mut out);
        let mut input = out.as_slice();
        assert_eq!(Wire::get(&mut input), Some(value.clone()));
        assert!(input.is_empty());
        for end in [
            CountEnd::Complete,
            CountEnd::LimitReached,
            CountEnd::Exhausted(Limit::Iterations),
        ] {
            let mut out = Vec::new();
            end.put(&mut out);
            assert_eq!(CountEnd::get(&mut out.as_slice()), Some(end));
        }
        // A truncated or corrupt message is refused, never a panic.
        let mut out = Vec::new();
        value.put(&mut out);
        for cut in 0..out.len() {
            let mut input = &out[..cut];
            let back: Option<Message> = Wire::get(&mut input);
            assert!(back.is_none(), "a message cut at byte {cut} was accepted");
        }
    }

    /// Every statistic set away from its default, listed without `..` so that a new field
    /// must be added here too.
    fn every_stat() -> sudoku_core::Stats {
        sudoku_core::Stats {
            nodes: 3,
            guesses: 4,
            iterations: 5,
            restarts: 6,
            best_cost: Some(7),
            objective: Some(-1.0 / 3.0),
            build_time: Some(Duration::from_nanos(8_000_000_001)),
            time_to_best: Some(Duration::from_micros(9)),
            solve_time: Some(Duration::from_nanos(13_000_007)),
            extra: vec![("found_by".into(), "tabu;\"x\"=é".into())],
            trace: vec![sudoku_core::TracePoint {
                iteration: 10,
                elapsed: Duration::from_millis(11),
                best_cost: 12,
            }],
            child_cpu: Some(Duration::from_secs(1)),
            threads: 2,
            error: Some("e".into()),
            log: Some("stderr\ntail".into()),
            claims_unproven: true,
        }
    }

    #[test]
    fn stats_cross_the_wire_without_what_the_parent_measures() {
        let stats = every_stat();
        let mut out = Vec::new();
        stats.put(&mut out);
        let mut input = out.as_slice();
        let back = sudoku_core::Stats::get(&mut input).expect("a whole message reads");
        assert!(input.is_empty());
        assert_eq!(
            back,
            sudoku_core::Stats {
                child_cpu: None,
                ..stats
            }
        );
        for cut in 0..out.len() {
            let back = sudoku_core::Stats::get(&mut &out[..cut]);
            assert!(back.is_none(), "stats cut at byte {cut} were accepted");
        }
    }

    /// A relaxation's report crosses whole, its grid checked on the way in, all but the
    /// child's CPU time.
    #[test]
    fn a_relaxation_report_crosses_the_wire() {
        let order = sudoku_core::Order::new(2).unwrap();
        let cells: Vec<u16> = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let report = sudoku_core::RelaxReport {
            feasible: true,
            integral: true,
            variables: 64,
            fractional: 0,
            unique: Some(true),
            objective: Some(0.1 + 0.2),
            grid: Some(sudoku_core::Grid::from_cells(order, cells).unwrap()),
            iterations: 17,
            extra: vec![("k".into(), "v".into())],
            build_time: Some(Duration::from_nanos(1_234_567)),
            solve_time: Some(Duration::from_micros(89)),
            stopped: Some(Limit::Time),
            child_cpu: Some(Duration::from_millis(3)),
        };
        let mut out = Vec::new();
        report.put(&mut out);
        let back = sudoku_core::RelaxReport::get(&mut out.as_slice()).unwrap();
        assert_eq!(
            back,
            sudoku_core::RelaxReport {
                child_cpu: None,
                ..report
            }
        );
        // A grid whose digits do not fit its order is refused, not read.
        let text = String::from_utf8(out[8..].to_vec())
            .unwrap()
            .replace("[1,2,3,4", "[9,2,3,4");
        let mut bad = Vec::new();
        text.put(&mut bad);
        assert!(sudoku_core::RelaxReport::get(&mut bad.as_slice()).is_none());
    }

    /// The same through a real fork: a child's statistics reach the parent whole, with the
    /// child's CPU time beside them.
    #[test]
    fn every_stat_survives_the_fork() {
        let soon = Instant::now() + Duration::from_secs(30);
        let child = run(soon, every_stat).unwrap();
        let Isolated::Done(back) = child.end else {
            panic!("the child was killed")
        };
        let sent = every_stat();
        assert_eq!(
            back,
            sudoku_core::Stats {
                child_cpu: None,
                ..sent
            }
        );
    }

    #[test]
    fn a_child_answers_and_a_slow_one_is_killed() {
        let soon = Instant::now() + Duration::from_secs(30);
        let done = run(soon, || vec![1u64, 2, 3]).unwrap();
        assert!(matches!(done.end, Isolated::Done(v) if v == vec![1, 2, 3]));
        let spin = || -> u64 {
            loop {
                std::hint::spin_loop();
            }
        };
        let killed = run(Instant::now() + Duration::from_millis(100), spin).unwrap();
        assert!(matches!(killed.end, Isolated::Killed));
    }
}
