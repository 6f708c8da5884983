//! A child process in its own process group, served from the calling thread: the puzzle is
//! written and the answer read by plain system calls on the child's pipes, with one `poll` per
//! wait, so that a question to a long-lived child costs a pipe round trip and nothing else.
//! Lines of its standard output and its exit arrive as [`Event`]s, every wait has a deadline,
//! its standard error is kept as a short tail (by a thread, which costs nothing unless the
//! child writes there), and [`Proc::finish`] kills the whole group and reaps the child with its
//! CPU time. [`Proc::cpu_so_far`] reads the CPU time of the child and its descendants, one
//! process at a time (never a scan of every process of the machine).

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The shell that runs the command.
pub const SHELL: &str = "/bin/sh";

/// Bytes of standard error kept for messages.
const TAIL_BYTES: usize = 2048;

/// How long a reading of CPU times waits for the running members it stopped to leave their
/// cores (a member that does not, in uninterruptible sleep or on a crowded core, is read as
/// it is).
const STOP_WAIT: Duration = Duration::from_millis(20);

/// Bytes read from standard output per call.
const CHUNK: usize = 64 * 1024;

/// How long a reader waiting for an answer reads without sleeping before it sleeps in `ppoll`.
/// Longer than the pipe round trip and a fast 9×9 solve, short beside anything slower; the
/// harness's own CPU time is not the program's (`cpu_ms` counts the program's alone).
const SPIN: Duration = Duration::from_micros(100);

/// What the child did.
#[derive(Debug)]
pub enum Event {
    /// One line of standard output, without its line ending.
    Line(String),
    /// Standard output closed.
    Eof,
    /// The child ended (not yet reaped: its process group is still ours to kill).
    Exited,
}

/// Why no event came.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// The deadline passed.
    TimedOut,
    /// Every event has been delivered.
    Closed,
}

/// How the child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

impl Exit {
    /// Exit code 0.
    pub fn success(self) -> bool {
        self == Exit::Code(0)
    }
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // How `sh` reports a command that a signal ended.
            Exit::Code(c @ 129..=192) => {
                write!(
                    f,
                    "exited with status {c} (signal {} in the shell)",
                    c - 128
                )
            }
            Exit::Code(c) => write!(f, "exited with status {c}"),
            Exit::Signal(s) => write!(f, "was killed by signal {s}"),
        }
    }
}

/// The end of standard error, shared with the thread that reads it.
#[derive(Default)]
struct Tail {
    state: Mutex<(VecDeque<u8>, bool)>,
    done: Condvar,
}

/// A running child.
pub struct Proc {
    pid: libc::pid_t,
    /// Readable once the child has ended: a pidfd, or the read end of a pipe that a waiting
    /// thread writes to where pidfds are missing.
    exit_fd: OwnedFd,
    /// Standard input (non-blocking), until it is closed.
    stdin: Option<ChildStdin>,
    /// Bytes queued for standard input and not yet written.
    pending: VecDeque<u8>,
    /// Close standard input once `pending` is written.
    close_when_written: bool,
    /// Standard output (non-blocking), until its end.
    stdout: Option<ChildStdout>,
    /// Output read and not yet delivered as lines.
    buffer: Vec<u8>,
    /// Where reads land before they join `buffer` (allocated once).
    chunk: Box<[u8]>,
    /// Where the search for the next line ending resumes in `buffer`.
    scanned: usize,
    exited: bool,
    exit_delivered: bool,
    eof_delivered: bool,
    stderr: Arc<Tail>,
    reaped: Option<(Exit, Duration)>,
}

impl Proc {
    /// Starts `/bin/sh -c command` with `env` added, in a new process group.
    pub fn spawn(command: &str, env: &[(String, String)]) -> io::Result<Proc> {
        // The shell by its path, as system(3) finds it: whatever PATH holds, it is there.
        let mut child = Command::new(SHELL)
            .arg("-c")
            .arg(command)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group, so a timeout kills whatever it started too.
            .process_group(0)
            .spawn()?;
        let pid = child.id() as libc::pid_t;
        let (stdin, stdout, mut stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => return Err(io::Error::other("the child's pipes are missing")),
            };
        // From here on the child is reaped with wait4 (for its CPU time), never by `child`.
        drop(child);
        set_nonblocking(stdin.as_fd().as_raw_fd())?;
        set_nonblocking(stdout.as_fd().as_raw_fd())?;

        let tail = Arc::new(Tail::default());
        let err_tail = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 1024];
            loop {
                match stderr.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => {
                        let mut s = lock(&err_tail.state);
                        s.0.extend(&chunk[..k]);
                        let excess = s.0.len().saturating_sub(TAIL_BYTES);
                        s.0.drain(..excess);
                    }
                }
            }
            lock(&err_tail.state).1 = true;
            err_tail.done.notify_all();
        });

        Ok(Proc {
            pid,
            exit_fd: exit_notifier(pid)?,
            stdin: Some(stdin),
            pending: VecDeque::new(),
            close_when_written: false,
            stdout: Some(stdout),
            buffer: Vec::new(),
            chunk: vec![0; CHUNK].into_boxed_slice(),
            scanned: 0,
            exited: false,
            exit_delivered: false,
            eof_delivered: false,
            stderr: tail,
            reaped: None,
        })
    }

    /// Queues bytes for the child's standard input and writes what the pipe takes now (all
    /// of a puzzle, unless the child has stopped reading); the rest goes while waiting.
    pub fn send(&mut self, bytes: Vec<u8>) {
        if self.stdin.is_some() {
            self.pending.extend(bytes);
            self.write_pending();
        }
    }

    /// Closes standard input once what was queued is written.
    pub fn close_input(&mut self) {
        self.close_when_written = true;
        self.write_pending();
    }

    /// Writes queued input until the pipe is full; closes it when asked and all is written,
    /// or when the child no longer reads it.
    fn write_pending(&mut self) {
        let Some(stdin) = self.stdin.as_mut() else {
            self.pending.clear();
            return;
        };
        while !self.pending.is_empty() {
            let (front, _) = self.pending.as_slices();
            match stdin.write(front) {
                Ok(k) => {
                    self.pending.drain(..k);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    // The child closed its input (or died): nothing more can reach it.
                    self.pending.clear();
                    self.stdin = None;
                    return;
                }
            }
        }
        if self.close_when_written {
            self.stdin = None;
        }
    }

    /// The next event, waiting at most until `deadline` (`None`: no limit).
    pub fn next(&mut self, deadline: Option<Instant>) -> Result<Event, Wait> {
        loop {
            if let Some(line) = self.take_line() {
                return Ok(Event::Line(line));
            }
            if self.stdout.is_none() && !self.eof_delivered {
                // A last line without its line ending is still a line.
                if !self.buffer.is_empty() {
                    let rest = std::mem::take(&mut self.buffer);
                    self.scanned = 0;
                    return Ok(Event::Line(line_of(&rest)));
                }
                self.eof_delivered = true;
                return Ok(Event::Eof);
            }
            if self.exited && !self.exit_delivered {
                // What the child wrote before it ended comes before its end.
                if self.read_available() {
                    continue;
                }
                self.exit_delivered = true;
                return Ok(Event::Exited);
            }
            if self.eof_delivered && self.exit_delivered {
                return Err(Wait::Closed);
            }
            if self.spin() {
                continue;
            }
            self.poll(deadline)?;
        }
    }

    /// Reads without sleeping for a short while (`SPIN`): an answer that comes within it is
    /// taken without the wake-up a sleeping reader pays, about ten microseconds a puzzle on a
    /// fast 9×9 solver (docs/notes/equal-terms.md). True when something was read.
    fn spin(&mut self) -> bool {
        if self.stdout.is_none() || !self.pending.is_empty() {
            return false;
        }
        let until = Instant::now() + SPIN;
        while Instant::now() < until {
            if self.read_available() {
                return true;
            }
            std::hint::spin_loop();
        }
        false
    }

    /// What the child did since the last event read, by one non-blocking read of its output
    /// (no wait, no other system call): printed something that is not a blank line or a
    /// comment (its first line, or the start of it; blank lines and comments are dropped),
    /// ended (its output closed, or its end was seen before), or nothing.
    pub fn between(&mut self) -> Between {
        if self.stdout.is_some() && !self.exited {
            self.read_available();
        }
        match self.pending_text() {
            Some(text) => Between::Printed(text),
            None if self.stdout.is_none() || self.exited => Between::Ended,
            None => Between::Quiet,
        }
    }

    /// What the child wrote since the last event read that is not a blank line or a comment
    /// (its first line, or the start of it), without waiting; blank lines and comments are
    /// dropped. The text stays for the next read.
    pub fn stray(&mut self) -> Option<String> {
        if self.stdout.is_some() && !self.exited {
            let _ = self.poll(Some(Instant::now()));
        }
        self.pending_text()
    }

    /// The first line of output read and not delivered that is not a blank line or a comment
    /// (blank lines and comments before it are dropped); the text stays for the next read.
    fn pending_text(&mut self) -> Option<String> {
        loop {
            let end = self
                .buffer
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(self.buffer.len());
            if end == 0 && self.buffer.is_empty() {
                return None;
            }
            let line = line_of(&self.buffer[..end]);
            let text = line.trim();
            let whole = end < self.buffer.len();
            if whole && (text.is_empty() || text.starts_with('#')) {
                self.buffer.drain(..=end);
                self.scanned = 0;
                continue;
            }
            if text.is_empty() {
                return None;
            }
            return Some(text.chars().take(60).collect());
        }
    }

    /// Waits once for something to happen before `deadline` and takes it in: output read
    /// into the buffer, queued input written, the child's end noted.
    fn poll(&mut self, deadline: Option<Instant>) -> Result<(), Wait> {
        let mut fds = Vec::with_capacity(3);
        let out = self.stdout.as_ref().map(|o| o.as_fd().as_raw_fd());
        if let Some(fd) = out {
            fds.push(pollfd(fd, libc::POLLIN));
        }
        let input = match &self.stdin {
            Some(i) if !self.pending.is_empty() => Some(i.as_fd().as_raw_fd()),
            _ => None,
        };
        if let Some(fd) = input {
            fds.push(pollfd(fd, libc::POLLOUT));
        }
        if !self.exited {
            fds.push(pollfd(self.exit_fd.as_raw_fd(), libc::POLLIN));
        }
        let timeout = deadline.map(|d| {
            let left = d.saturating_duration_since(Instant::now());
            libc::timespec {
                tv_sec: left.as_secs() as libc::time_t,
                tv_nsec: left.subsec_nanos() as libc::c_long,
            }
        });
        let tp = timeout
            .as_ref()
            .map_or(std::ptr::null(), |t| t as *const libc::timespec);
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures; `tp` is null or
        // points to a timespec that outlives the call.
        let r = unsafe {
            libc::ppoll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                tp,
                std::ptr::null(),
            )
        };
        if r < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                return Ok(());
            }
            // Should not happen with valid descriptors: take it as the end of everything.
            self.stdout = None;
            self.exited = true;
            return Ok(());
        }
        if r == 0 {
            return Err(Wait::TimedOut);
        }
        for p in &fds {
            if p.revents == 0 {
                continue;
            }
            if Some(p.fd) == out {
                self.read_available();
            } else if Some(p.fd) == input {
                self.write_pending();
            } else {
                self.exited = true;
            }
        }
        Ok(())
    }

    /// Reads what standard output holds now; true when it read something (or its end).
    fn read_available(&mut self) -> bool {
        let Some(out) = self.stdout.as_mut() else {
            return false;
        };
        let mut any = false;
        loop {
            match out.read(&mut self.chunk) {
                Ok(0) => {
                    self.stdout = None;
                    return true;
                }
                Ok(k) => {
                    self.buffer.extend_from_slice(&self.chunk[..k]);
                    any = true;
                    if k < self.chunk.len() {
                        return true;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return any,
                Err(_) => {
                    self.stdout = None;
                    return true;
                }
            }
        }
    }

    /// The first whole line of the buffer, if there is one.
    fn take_line(&mut self) -> Option<String> {
        let end = self.buffer[self.scanned..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| self.scanned + i);
        match end {
            None => {
                self.scanned = self.buffer.len();
                None
            }
            Some(end) => {
                let line = line_of(&self.buffer[..end]);
                self.buffer.drain(..=end);
                self.scanned = 0;
                Some(line)
            }
        }
    }

    /// How the child ended, once [`Event::Exited`] was delivered (it is not reaped: its group
    /// is still ours to kill).
    pub fn exit_status(&self) -> Exit {
        if let Some((exit, _)) = self.reaped {
            return exit;
        }
        // SAFETY: waitid writes one siginfo_t through a valid pointer; WNOWAIT leaves the
        // child unreaped.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            loop {
                let r = libc::waitid(
                    libc::P_PID,
                    self.pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOWAIT,
                );
                if r == 0 {
                    break;
                }
                if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                    // Not for an unreaped child of ours; whatever it was, not a success.
                    return Exit::Code(-1);
                }
            }
            match info.si_code {
                libc::CLD_KILLED | libc::CLD_DUMPED => Exit::Signal(info.si_status()),
                _ => Exit::Code(info.si_status()),
            }
        }
    }

    /// Kills the process group (whatever the child left running) and reaps the child: how it
    /// ended and the CPU time it and the children it waited for used.
    pub fn finish(&mut self) -> (Exit, Duration) {
        if let Some(r) = self.reaped {
            return r;
        }
        self.stdin = None;
        self.pending.clear();
        // SAFETY: plain syscalls on our own child's group and pid. The child is not reaped yet,
        // so neither id can have been reused.
        let r = unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
            let mut status: libc::c_int = 0;
            let mut usage: libc::rusage = std::mem::zeroed();
            loop {
                let w = libc::wait4(self.pid, &mut status, 0, &mut usage);
                if w == -1 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                break;
            }
            let exit = if libc::WIFSIGNALED(status) {
                Exit::Signal(libc::WTERMSIG(status))
            } else {
                Exit::Code(libc::WEXITSTATUS(status))
            };
            (exit, timeval(usage.ru_utime) + timeval(usage.ru_stime))
        };
        self.exited = true;
        self.reaped = Some(r);
        r
    }

    /// Lines still on their way after [`Proc::finish`] (every writer is dead then, so the end
    /// comes at once; `grace` bounds the wait should a process have left the group).
    pub fn drain(&mut self, grace: Duration) -> Vec<String> {
        let until = Instant::now() + grace;
        let mut lines = Vec::new();
        while let Ok(e) = self.next(Some(until)) {
            match e {
                Event::Line(l) => lines.push(l),
                Event::Eof => break,
                Event::Exited => {}
            }
        }
        lines
    }

    /// Forgets what standard error held so far.
    pub fn clear_stderr(&self) {
        lock(&self.stderr.state).0.clear();
    }

    /// The end of standard error on one line, waiting up to `grace` for the stream to close
    /// (after [`Proc::finish`]) so that the last words are in it.
    pub fn stderr_tail(&self, grace: Duration) -> String {
        let mut s = lock(&self.stderr.state);
        let until = Instant::now() + grace;
        while !s.1 && !grace.is_zero() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            s = match self.stderr.done.wait_timeout(s, left) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
        let bytes: Vec<u8> = s.0.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        lines.join(" / ")
    }

    /// CPU time used so far by the child and its descendants (Linux; `None` elsewhere, or
    /// once the child is reaped): each live process's own time, with nanosecond precision,
    /// and the time of the children it has reaped. The tree is walked from the child through
    /// `/proc/PID/task/TID/children`, one process at a time; a process that left the tree (a
    /// daemon re-parented to init) is still killed with the group but not counted.
    ///
    /// The kernel brings another process's CPU clock up to date only when the process leaves
    /// its core or at a scheduler tick (every 1 to 10 ms), so the clock of a member still
    /// running on another core (a program that watches its input after answering) lags by up
    /// to a tick: the members of the group that are running are stopped for the reading
    /// (`SIGSTOP`, then `SIGCONT`), which brings their clocks up to date. Members that are
    /// asleep are read as they are.
    pub fn cpu_so_far(&self) -> Option<Duration> {
        if self.reaped.is_some() {
            return None;
        }
        let running = self.running_threads();
        let paused = !running.is_empty() && self.signal_group(libc::SIGSTOP);
        if paused {
            let until = Instant::now() + STOP_WAIT;
            while !self.running_threads().is_empty() && Instant::now() < until {
                std::thread::yield_now();
            }
        }
        let mut total = Duration::ZERO;
        self.walk(|pid, member| {
            total += member.own(pid) + member.reaped;
        });
        if paused {
            // Woken by this thread, a thread would be placed beside it (on a busy machine, on
            // its core, where it would then wait for it): each goes back to the core it ran
            // on, and then may go anywhere it could before.
            // SAFETY: sched_getcpu takes no argument.
            let here = usize::try_from(unsafe { libc::sched_getcpu() }).ok();
            let pinned: Vec<_> = running
                .iter()
                .filter_map(|&(tid, cpu)| pin(tid, cpu, here))
                .collect();
            self.signal_group(libc::SIGCONT);
            for (tid, allowed) in pinned {
                set_affinity(tid, &allowed);
            }
        }
        Some(total)
    }

    /// The threads of the members of the child's process group that are running or ready to,
    /// with the core each last ran on.
    fn running_threads(&self) -> Vec<(libc::pid_t, usize)> {
        let mut running = Vec::new();
        self.walk(|pid, member| {
            if member.pgrp == self.pid {
                member.running(pid, &mut running);
            }
        });
        running
    }

    /// Sends `signal` to the child's process group; false when it could not.
    fn signal_group(&self, signal: libc::c_int) -> bool {
        // SAFETY: a plain syscall on our own child's group, which exists while the child is
        // not reaped (the caller checked).
        unsafe { libc::kill(-self.pid, signal) == 0 }
    }

    /// Calls `visit` on each process of the child's tree, one process at a time.
    fn walk(&self, mut visit: impl FnMut(libc::pid_t, &Member)) {
        let mut todo = vec![self.pid];
        // A bound on the walk, should the tree change under it in a loop.
        let mut left = 4096;
        while let Some(pid) = todo.pop() {
            left -= 1;
            if left == 0 {
                break;
            }
            let Some(member) = member(pid) else {
                continue;
            };
            visit(pid, &member);
            children(pid, member.threads, &mut todo);
        }
    }

    /// Closes standard input, gives the child `grace` to exit on its own, then kills and
    /// reaps it.
    pub fn close(mut self, grace: Duration) {
        self.close_input();
        let until = Instant::now() + grace;
        while let Ok(e) = self.next(Some(until)) {
            if matches!(e, Event::Exited) {
                break;
            }
        }
        self.finish();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.finish();
    }
}

/// What a reading needs of one process, from `/proc/PID/stat`.
struct Member {
    /// Its own CPU time in the kernel's ticks (where its CPU clock cannot be read).
    ticks: Duration,
    /// Its reaped children's CPU time.
    reaped: Duration,
    threads: usize,
    /// Its process group.
    pgrp: libc::pid_t,
    /// Its (main thread's) state: `R` when running or ready to run.
    state: char,
    /// The core its main thread last ran on.
    cpu: Option<usize>,
}

impl Member {
    /// Its own CPU time (live and ended threads): from its CPU clock (nanoseconds), else from
    /// the kernel's ticks.
    fn own(&self, pid: libc::pid_t) -> Duration {
        process_clock(pid).unwrap_or(self.ticks)
    }

    /// Adds its threads that are running or ready to run to `out`, with the core each last
    /// ran on.
    fn running(&self, pid: libc::pid_t, out: &mut Vec<(libc::pid_t, usize)>) {
        if self.threads <= 1 {
            if self.state == 'R' {
                out.extend(self.cpu.map(|c| (pid, c)));
            }
            return;
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return;
        };
        for t in tasks.flatten() {
            let Ok(tid) = t.file_name().to_string_lossy().parse::<libc::pid_t>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(t.path().join("stat")) else {
                continue;
            };
            let fields = stat_fields(&stat);
            let running = fields.first().and_then(|f| f.chars().next()) == Some('R');
            if let Some(cpu) = fields.get(CPU_FIELD).and_then(|f| f.parse().ok()) {
                if running {
                    out.push((tid, cpu));
                }
            }
        }
    }
}

/// The field of a `/proc/.../stat` line (counted after the command name, from the state)
/// that says which core the thread last ran on (field 39 of the line).
const CPU_FIELD: usize = 36;

/// Restricts thread `tid` to one core: `cpu`, where it ran, unless that is `here` (the
/// calling thread's), then another it may run on. Gives its former set of cores, for
/// [`set_affinity`] to give back.
fn pin(
    tid: libc::pid_t,
    cpu: usize,
    here: Option<usize>,
) -> Option<(libc::pid_t, libc::cpu_set_t)> {
    // SAFETY: sched_getaffinity and sched_setaffinity read and write one cpu_set_t through
    // valid pointers, for a thread of our own child's group.
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(tid, size, &mut allowed) != 0 {
            return None;
        }
        let may = |c: usize| c < libc::CPU_SETSIZE as usize && libc::CPU_ISSET(c, &allowed);
        let cpu = [cpu]
            .into_iter()
            .chain(0..libc::CPU_SETSIZE as usize)
            .find(|&c| may(c) && Some(c) != here)?;
        let mut only: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut only);
        (libc::sched_setaffinity(tid, size, &only) == 0).then_some((tid, allowed))
    }
}

/// Gives thread `tid` back the cores it may run on.
fn set_affinity(tid: libc::pid_t, allowed: &libc::cpu_set_t) {
    // SAFETY: sched_setaffinity reads one cpu_set_t through a valid pointer.
    unsafe {
        libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), allowed);
    }
}

/// The fields of a `/proc/.../stat` line after the command name, from the state on (the
/// command name may hold spaces and parentheses: fields are counted after the last `)`).
fn stat_fields(stat: &str) -> Vec<&str> {
    stat.rfind(')')
        .map(|i| stat[i + 1..].split_whitespace().collect())
        .unwrap_or_default()
}

/// Process `pid` as a reading sees it; its reaped children's CPU time from the ticks (1/100 s,
/// the kernel's only total).
fn member(pid: libc::pid_t) -> Option<Member> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields = stat_fields(&stat);
    // Fields 3 (state), 5 (pgrp), 14..=17 (utime, stime, cutime, cstime) and 20
    // (num_threads) of the line, counted from 3.
    let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    // SAFETY: sysconf only reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let ticks = |t: u64| Duration::from_secs_f64(t as f64 / hz);
    Some(Member {
        ticks: ticks(field(11)? + field(12)?),
        reaped: ticks(field(13)? + field(14)?),
        threads: field(17).unwrap_or(1) as usize,
        pgrp: fields.get(2)?.parse().ok()?,
        state: fields.first()?.chars().next()?,
        cpu: fields.get(CPU_FIELD).and_then(|f| f.parse().ok()),
    })
}

/// The CPU clock of process `pid` (every thread, live or ended), where the kernel gives it.
fn process_clock(pid: libc::pid_t) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both calls write one value through a valid pointer.
    unsafe {
        if libc::clock_getcpuclockid(pid, &mut clock) != 0
            || libc::clock_gettime(clock, &mut t) != 0
        {
            return None;
        }
    }
    Some(Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.max(0) as u32,
    ))
}

/// Pushes the children of process `pid` (of each of its `threads`) onto `out`.
fn children(pid: libc::pid_t, threads: usize, out: &mut Vec<libc::pid_t>) {
    let mut read = |path: String| {
        if let Ok(text) = std::fs::read_to_string(path) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<libc::pid_t>().ok()),
            );
        }
    };
    if threads <= 1 {
        read(format!("/proc/{pid}/task/{pid}/children"));
        return;
    }
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            read(format!("{}/children", t.path().display()));
        }
    }
}

/// A descriptor that becomes readable when process `pid` ends: its pidfd (Linux 5.3 and
/// later), else a pipe that a thread waiting for the end closes.
fn exit_notifier(pid: libc::pid_t) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd >= 0 {
        // SAFETY: the descriptor was just opened and is owned by nothing else.
        return Ok(unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) });
    }
    let mut ends = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into a valid array.
    if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    std::thread::spawn(move || {
        wait_exit(pid);
        // Closing the write end makes the read end readable (end of file).
        drop(write);
    });
    Ok(read)
}

fn pollfd(fd: libc::c_int, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

fn set_nonblocking(fd: libc::c_int) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own, reading then setting its status flags.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A line's text: lossy UTF-8, without a carriage return before the line ending.
fn line_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .trim_end_matches(['\n', '\r'])
        .to_string()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Blocks until `pid` has ended, leaving it unreaped (so its group id stays ours).
fn wait_exit(pid: libc::pid_t) {
    loop {
        // SAFETY: waitid writes one siginfo_t through a valid pointer.
        let r = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// What the batch process did between the last answer read and the next puzzle.
pub(crate) enum Between {
    /// Nothing: it is kept.
    Quiet,
    /// It ended or closed its output: another is started.
    Ended,
    /// It printed this (out of turn).
    Printed(String),
}
