//! Running a CBC solve where it can be stopped: in a forked child process, killed when its
//! time is up, with the result sent back over a pipe.
//!
//! Why: CBC checks its time limit (`sec`) only between the phases of branch and cut, and
//! neither the root LP nor integer preprocessing nor the continuous `Cbc_solve` (the
//! `lp_first` LP and every `search=dfs` node) checks it at all; the C interface gives no way
//! to reach Clp's own limit for the continuous solve. On an empty 36×36 the first of those
//! phases alone runs for minutes. A child process can always be stopped; the measured cost
//! (fork, pipe, the child's exit) is in the crate README, and it is paid only where CBC is
//! known to overrun (see [`worth_isolating`]).
//!
//! Fork safety: the child runs only this crate's code, CBC and the allocator (glibc's malloc
//! is fork-safe). The one lock it needs, `coin_cbc`'s process-wide mutex, is only ever taken
//! inside [`gate`], and the fork happens while holding the gate, so no other thread can hold
//! that mutex at the moment of the fork. The child leaves with `_exit`, running no
//! destructor and no `atexit` handler of the parent's.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::IlpError;

static GATE: Mutex<()> = Mutex::new(());

/// Held around every `coin_cbc` call that takes `coin_cbc`'s own lock (creating, solving and
/// deleting a model) and around `fork`.
pub(crate) fn gate() -> MutexGuard<'static, ()> {
    GATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Models with at least this many columns always run in a child when there is a deadline:
/// CBC's unchecked phases on them last from seconds (a full 25×25) to minutes (an empty
/// 36×36).
pub(crate) const ISOLATE_ALWAYS: usize = 5_000;
/// Models with at least this many columns run in a child when less than [`SHORT_LIMIT`] is
/// left: their unchecked phases were measured at up to about a second (a generated 25×25 with
/// 1,871 columns, on the loaded 2-core machine), a tenth of 10 s. Smaller models (every 9×9,
/// most 16×16 puzzles once reduced) stay in this process: their phases take milliseconds,
/// while a child costs about 1 ms to fork and 5–10 ms more to fault in and tear down the
/// memory CBC uses (crate README, "Time limits").
pub(crate) const ISOLATE_SHORT: usize = 1_000;
/// See [`ISOLATE_SHORT`].
pub(crate) const SHORT_LIMIT: Duration = Duration::from_secs(20);

/// Whether a solve of a model with `columns` columns and this deadline runs in a child.
pub(crate) fn worth_isolating(deadline: Option<Instant>, columns: usize) -> bool {
    let Some(at) = deadline else { return false };
    let short = at.saturating_duration_since(Instant::now()) < SHORT_LIMIT;
    cfg!(unix) && (columns >= ISOLATE_ALWAYS || (columns >= ISOLATE_SHORT && short))
}

/// How long after the deadline the child is killed: CBC is handed the exact time left and
/// sometimes stops itself a little late, with its statistics; this grace (a fiftieth of the
/// time that was left when the child started, at most half a second) lets it, while the
/// whole call, with the child's teardown, stays well within a tenth of its limit.
pub(crate) fn grace(left: Duration) -> Duration {
    (left / 50).min(Duration::from_millis(500))
}

/// How an isolated run ended.
pub(crate) enum Isolated<T> {
    /// The child finished and sent this back.
    Done(T),
    /// The child was still running at the deadline (plus grace) and was killed.
    Killed,
}

/// How an isolated run ended, and the child's CPU time (user plus system), which the
/// caller's thread clock does not see.
pub(crate) struct Child<T> {
    pub end: Isolated<T>,
    pub cpu: Duration,
}

/// A value that can cross the pipe.
pub(crate) trait Wire: Sized {
    fn put(&self, out: &mut Vec<u8>);
    fn get(input: &mut &[u8]) -> Option<Self>;
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

fn child_failed(why: String) -> IlpError {
    IlpError::Abandoned {
        status: "child-failed".into(),
        secondary: why,
    }
}

/// Runs `work` in a forked child and returns what it sends back, or kills the child at
/// `kill_at`. Where `fork` is not available or fails, `work` runs here instead.
pub(crate) fn run<T: Wire>(
    kill_at: Instant,
    work: impl FnOnce() -> T,
) -> Result<Child<T>, IlpError> {
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
    ) -> Result<Child<T>, IlpError> {
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
            return Err(child_failed(format!("the CBC child ended with {code:?}")));
        }
        let mut input = bytes.as_slice();
        match T::get(&mut input) {
            Some(value) if input.is_empty() => Ok(Child {
                end: Isolated::Done(value),
                cpu,
            }),
            _ => Err(child_failed("the CBC child sent a malformed result".into())),
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

    #[test]
    fn values_cross_the_wire() {
        let mut out = Vec::new();
        let value: Result<Vec<Option<String>>, IlpError> = Ok(vec![Some("a".into()), None]);
        value.put(&mut out);
        let mut input = out.as_slice();
        assert_eq!(Wire::get(&mut input), Some(value));
        assert!(input.is_empty());
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
