//! One writer per results folder: `run`, `merge`, `plot` and `report` hold
//! `<folder>/.sudoku-bench.lock` while they write, so a second writer (another `run`, a
//! `run --resume` while the first still runs, a `merge` into it, a `plot` of it) stops with an
//! error naming the holder instead of mixing rows into one trials.csv or writing its files
//! twice at once. Commands that only read a folder ask [`writer`] and say when one is at work.
//!
//! The lock is an advisory `flock` on that file, which the kernel drops when its process ends
//! however it ends: after `kill -9` the next `run --resume` takes the folder over at once, and
//! says whose lock it found. The file holds the holder's pid, host, command line and start
//! time, for the message; it is removed when the holder ends normally. A lock file that was
//! removed and made anew while a process waited to lock it is checked for (same inode), so two
//! processes never both hold one folder.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Result, RunError};
use crate::provenance;
use crate::sink::{Event, Sink};

/// The lock file's name inside a results folder.
pub const LOCK_FILE: &str = ".sudoku-bench.lock";

/// How many times a writer asks again for a lock that is taken, [`BUSY_PAUSE`] apart, before
/// it names the holder: a reader testing the lock ([`writer`]) holds it for microseconds.
const BUSY_TRIES: u32 = 20;
/// See [`BUSY_TRIES`].
const BUSY_PAUSE: std::time::Duration = std::time::Duration::from_millis(10);

/// Who holds a folder, as its lock file says.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Holder {
    /// Process id.
    pub pid: u32,
    /// Host name.
    pub host: String,
    /// Command line.
    pub command: Vec<String>,
    /// When it took the lock (UTC).
    pub started: String,
}

impl Holder {
    /// This process.
    fn me() -> Holder {
        Holder {
            pid: std::process::id(),
            host: host_name(),
            command: provenance::command_line(),
            started: provenance::now_utc(),
        }
    }

    /// `sudoku-bench run x.toml` (pid 12, host h, since 2025-…), for messages.
    fn describe(&self) -> String {
        let command = if self.command.is_empty() {
            "a sudoku-bench command".to_string()
        } else {
            format!(
                "`{}`",
                sudoku_analysis::escape::visible(&self.command.join(" "))
            )
        };
        format!(
            "{command} (pid {} on host {}, since {})",
            self.pid,
            sudoku_analysis::escape::visible(&self.host),
            self.started
        )
    }
}

/// A held folder; dropping it releases the folder and removes the lock file.
#[derive(Debug)]
pub struct FolderLock {
    file: File,
    path: PathBuf,
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked: a process that opened the old file finds, once it gets
        // the lock, that the path names another file now, and starts again.
        std::fs::remove_file(&self.path).ok();
        // SAFETY: the descriptor is the open lock file's, alive until `file` drops.
        unsafe { libc::flock(self.file.as_raw_fd(), libc::LOCK_UN) };
    }
}

/// Takes the lock of results folder `dir` (which must exist) for `command` (`run`, `merge`),
/// or fails naming the process that holds it. A lock left by a process that has ended is taken
/// over, with a note to `sink`.
pub fn lock_folder(dir: &Path, command: &str, sink: &dyn Sink) -> Result<FolderLock> {
    let path = dir.join(LOCK_FILE);
    let mut tries = 0;
    loop {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| {
                RunError::io(
                    format!("locking {}: opening {}", dir.display(), path.display()),
                    e,
                )
            })?;
        // SAFETY: a valid open descriptor; LOCK_NB makes the call return at once.
        let got = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        let earlier = read_holder(&mut file);
        if !got && tries < BUSY_TRIES {
            // Perhaps a reader testing the lock ([`writer`]) for a moment: ask again.
            tries += 1;
            drop(file);
            std::thread::sleep(BUSY_PAUSE);
            continue;
        }
        if !got {
            let holder = earlier.map_or_else(
                || "another sudoku-bench process".to_string(),
                |h| h.describe(),
            );
            return Err(RunError::Busy {
                dir: dir.to_path_buf(),
                holder,
                command: command.to_string(),
            });
        }
        // The holder before us may have removed the file (and another process made a new one)
        // between our open and our lock: then this lock guards nothing.
        let same = match (file.metadata(), std::fs::metadata(&path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if !same {
            continue;
        }
        if let Some(h) = earlier.filter(|h| h.pid != 0) {
            sink.event(Event::Note(&format!(
                "{}: taking over the lock of {}, which is no longer running (killed, or the machine stopped)",
                dir.display(),
                h.describe()
            )));
        }
        let text = serde_json::to_string(&Holder::me())
            .map_err(|e| RunError::io("writing the lock", std::io::Error::other(e)))?;
        // Over the old text, then cut to length: never an empty file in between. The text only
        // names the holder in others' messages: a full disk that refuses it leaves the lock
        // held all the same (the others then name "another sudoku-bench process"), and the
        // command's own writes say what the disk refused.
        let _ = file
            .seek(SeekFrom::Start(0))
            .and_then(|_| file.write_all(text.as_bytes()))
            .and_then(|()| file.set_len(text.len() as u64))
            .and_then(|()| file.flush());
        return Ok(FolderLock { file, path });
    }
}

/// Who is writing the results folder `dir` now, if a process holds its lock: for the commands
/// that only read a folder (`compare`, `findings`, `fidelity`), which then say that its rows
/// are not all there yet. The lock is tested, not held: a shared lock taken and dropped at
/// once (a writer that asks in that instant asks again, [`lock_folder`]). A folder without a
/// lock file, or whose lock no process holds (a killed run's), has no writer.
pub fn writer(dir: &Path) -> Option<String> {
    let mut file = File::open(dir.join(LOCK_FILE)).ok()?;
    // SAFETY: a valid open descriptor; LOCK_NB makes the call return at once.
    let free = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) } == 0;
    if free {
        // SAFETY: as above; the shared lock just taken is dropped.
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
        return None;
    }
    Some(read_holder(&mut file).map_or_else(
        || "another sudoku-bench process".to_string(),
        |h| h.describe(),
    ))
}

/// The holder a lock file names, if it names one.
fn read_holder(file: &mut File) -> Option<Holder> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    // A lock file is a line of JSON; more is not ours.
    file.take(64 << 10).read_to_string(&mut text).ok()?;
    serde_json::from_str(&text).ok()
}

/// This machine's name (`unknown` when the system does not say).
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer and its length match; the name is NUL-terminated within it.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match (ok, std::str::from_utf8(&buf[..end])) {
        (true, Ok(name)) if !name.is_empty() => name.to_string(),
        _ => "unknown".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::Quiet;

    #[test]
    fn a_second_lock_names_the_first_holder_and_a_released_one_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock_folder(dir.path(), "run", &Quiet).unwrap();
        let e = lock_folder(dir.path(), "run", &Quiet)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("is in use: `")
                && e.contains(&format!("(pid {} on host ", std::process::id()))
                && e.contains("--out DIR"),
            "{e}"
        );
        drop(first);
        assert!(!dir.path().join(LOCK_FILE).exists());
        let again = lock_folder(dir.path(), "merge", &Quiet).unwrap();
        drop(again);
    }

    #[test]
    fn a_reader_sees_the_writer_without_stopping_it() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(writer(dir.path()), None);
        let held = lock_folder(dir.path(), "run", &Quiet).unwrap();
        let who = writer(dir.path()).unwrap();
        assert!(
            who.contains(&format!("(pid {} on host ", std::process::id())),
            "{who}"
        );
        drop(held);
        assert_eq!(writer(dir.path()), None);
        // A lock file no process holds (a killed run's) has no writer.
        std::fs::write(dir.path().join(LOCK_FILE), "{\"pid\": 999999}").unwrap();
        assert_eq!(writer(dir.path()), None);
        // A writer that asks while a reader tests the lock gets it.
        let probe = File::open(dir.path().join(LOCK_FILE)).unwrap();
        // SAFETY: a valid open descriptor; as `writer` does, held a little longer.
        assert_eq!(
            unsafe { libc::flock(probe.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) },
            0
        );
        let release = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(30));
            drop(probe);
        });
        let lock = lock_folder(dir.path(), "run", &Quiet).unwrap();
        release.join().unwrap();
        drop(lock);
    }

    #[test]
    fn a_lock_file_left_by_an_ended_process_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        // As a run killed with -9 leaves it: the file, with no process holding its lock.
        let left = Holder {
            pid: 999_999,
            host: "h".into(),
            command: vec!["sudoku-bench".into(), "run".into()],
            started: "2025-01-01T00:00:00Z".into(),
        };
        std::fs::write(
            dir.path().join(LOCK_FILE),
            serde_json::to_string(&left).unwrap(),
        )
        .unwrap();
        let lock = lock_folder(dir.path(), "run", &Quiet).unwrap();
        let text = std::fs::read_to_string(dir.path().join(LOCK_FILE)).unwrap();
        let now: Holder = serde_json::from_str(&text).unwrap();
        assert_eq!(now.pid, std::process::id());
        drop(lock);
    }
}
