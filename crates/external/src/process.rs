//! A child process in its own process group, with its standard streams served by threads so
//! that every wait has a deadline: lines of its standard output and its exit arrive as
//! [`Event`]s, its standard error is kept as a short tail, and [`Proc::finish`] kills the whole
//! group and reaps the child with its CPU time.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Bytes of standard error kept for messages.
const TAIL_BYTES: usize = 2048;

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
    input: Option<mpsc::Sender<Vec<u8>>>,
    events: mpsc::Receiver<Event>,
    stderr: Arc<Tail>,
    reaped: Option<(Exit, Duration)>,
}

impl Proc {
    /// Starts `sh -c command` with `env` added, in a new process group.
    pub fn spawn(command: &str, env: &[(String, String)]) -> io::Result<Proc> {
        let mut child = Command::new("sh")
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
        let (mut stdin, stdout, mut stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => return Err(io::Error::other("the child's pipes are missing")),
            };
        // From here on the child is reaped with wait4 (for its CPU time), never by `child`.
        drop(child);

        let (input, queued) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            // A write blocks while the child does not read; the main thread's deadline still
            // holds, and the kill ends the write with an error.
            for bytes in queued {
                if stdin
                    .write_all(&bytes)
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });

        let (tx, events) = mpsc::channel();
        let out_tx = tx.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if out_tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = out_tx.send(Event::Eof);
        });

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

        std::thread::spawn(move || {
            if wait_exit(pid) {
                let _ = tx.send(Event::Exited);
            }
        });

        Ok(Proc {
            pid,
            input: Some(input),
            events,
            stderr: tail,
            reaped: None,
        })
    }

    /// Queues bytes for the child's standard input.
    pub fn send(&self, bytes: Vec<u8>) {
        if let Some(i) = &self.input {
            let _ = i.send(bytes);
        }
    }

    /// Closes standard input once what was queued is written.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The next event, waiting at most until `deadline` (`None`: no limit).
    pub fn next(&self, deadline: Option<Instant>) -> Result<Event, Wait> {
        match deadline {
            None => self.events.recv().map_err(|_| Wait::Closed),
            Some(d) => self
                .events
                .recv_timeout(d.saturating_duration_since(Instant::now()))
                .map_err(|e| match e {
                    mpsc::RecvTimeoutError::Timeout => Wait::TimedOut,
                    mpsc::RecvTimeoutError::Disconnected => Wait::Closed,
                }),
        }
    }

    /// True when nothing happened since the last event read: no stray output, no exit.
    pub fn quiet(&self) -> bool {
        matches!(self.events.try_recv(), Err(mpsc::TryRecvError::Empty))
    }

    /// Kills the process group (whatever the child left running) and reaps the child: how it
    /// ended and the CPU time it and the children it waited for used.
    pub fn finish(&mut self) -> (Exit, Duration) {
        if let Some(r) = self.reaped {
            return r;
        }
        self.input = None;
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
        self.reaped = Some(r);
        r
    }

    /// Lines still on their way after [`Proc::finish`] (every writer is dead then, so the end
    /// comes at once; `grace` bounds the wait should a process have left the group).
    pub fn drain(&self, grace: Duration) -> Vec<String> {
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

    /// CPU time used so far by the child's process group: every live member and the children
    /// they reaped (Linux, from `/proc`; `None` elsewhere). The shell that runs the command may
    /// not have waited for the solver yet, so the whole group counts, not the child alone.
    pub fn cpu_so_far(&self) -> Option<Duration> {
        let mut total = Duration::ZERO;
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            if let Some(t) = group_member_cpu(pid, self.pid) {
                total += t;
            }
        }
        Some(total)
    }

    /// Closes standard input, gives the child `grace` to exit on its own, then kills and
    /// reaps it.
    pub fn close(mut self, grace: Duration) {
        self.input = None;
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

/// The CPU time of process `pid` and of the children it reaped, when it belongs to process
/// group `group`. Ticks (1/100 s) are the kernel's only total; the per-thread run times in
/// `schedstat` (nanoseconds) give a finer figure for the live threads, used when larger.
fn group_member_cpu(pid: u32, group: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields are counted after the last `)`.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    // Fields 5 (pgrp) and 14..=17 (utime, stime, cutime, cstime) of the line, counted from 3.
    if fields.get(2)?.parse::<libc::pid_t>().ok()? != group {
        return None;
    }
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    // SAFETY: sysconf only reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let secs = |t: u64| Duration::from_secs_f64(t as f64 / hz);
    let own = secs(tick(11)? + tick(12)?);
    let reaped = secs(tick(13)? + tick(14)?);
    let mut threads = Duration::ZERO;
    for t in std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()?
        .flatten()
    {
        let path = t.path().join("schedstat");
        if let Some(ns) = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        {
            threads += Duration::from_nanos(ns);
        }
    }
    Some(own.max(threads) + reaped)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Blocks until `pid` has ended, leaving it unreaped (so its group id stays ours). False when
/// it cannot be waited for.
fn wait_exit(pid: libc::pid_t) -> bool {
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
        if r == 0 {
            return true;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return false;
        }
    }
}
