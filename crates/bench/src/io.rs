//! Reading puzzle files for the commands: every entry keeps its source, line and label so that
//! messages and results can name it; writing to standard output ([`Out`]), which every
//! command does through one helper so that a failed write is an error, never a panic, and a
//! closed standard output ([`stdout_closed`]) is said, not written into /dev/null; and writing
//! to standard error ([`say`]), which never panics either. Paths from the command line are
//! shown with their control characters written out ([`shown`]).

use std::fmt::Display;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use sudoku_core::format::{self, Entry, EntryReader, ParseOptions};

/// Reads every puzzle of a file (`-` is standard input); the first malformed puzzle is an
/// error naming file, line and column.
pub fn read_puzzles(path: &Path) -> Result<Vec<Entry>> {
    let text = format::read_text(path)?;
    Ok(format::parse_str(&text, &display_name(path))?)
}

/// A file's puzzles as a stream, going on past malformed ones, for commands that report each
/// puzzle as they go: a file of any size, at most 1 MiB per line.
pub fn stream_entries(path: &Path) -> Result<EntryReader<Box<dyn std::io::BufRead>>> {
    Ok(format::stream_file(path, ParseOptions::default())?)
}

/// The name used for a path in messages and results.
pub fn display_name(path: &Path) -> String {
    path.display().to_string()
}

/// A puzzle's place in messages: `file:line`, with its label when it has one. The label
/// comes from the file: its control characters are written out (`\u{1b}`, `\0`), so a
/// label cannot colour or move the terminal, and a NUL shows.
pub fn label_of(name: &str, e: &Entry) -> String {
    let name = format::visible(name);
    match &e.label {
        Some(l) => format!("{name}:{} [{}]", e.line, format::visible(l)),
        None => format!("{name}:{}", e.line),
    }
}

/// A path as messages and listings show it: its control characters written out (`\n`,
/// `\u{1b}`), so a folder named with an escape sequence cannot colour or move the terminal, and
/// one with a newline stays on its line.
pub fn shown(path: &Path) -> String {
    format::visible(&path.display().to_string())
}

/// Writes `text` and a line end to standard error. A failure (`2>/dev/full`, a closed pipe) is
/// dropped: there is nowhere left to say it, and the exit code still tells how the command
/// ended (`eprintln!` would panic instead).
pub fn say(text: impl Display) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// What a failed write to standard output is called in the error.
const STDOUT: &str = "writing to standard output";

/// Whether standard output was closed when the process started (`>&-`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Notes whether descriptor 1 is open, before `main`: Rust's runtime opens /dev/null on a
/// closed standard descriptor before it calls `main` (so that a file opened later cannot take
/// its number), after which every answer written there would vanish and the command exit 0.
/// A function of the `.init_array` section runs before that runtime does.
#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdout() {
    // SAFETY: F_GETFD only reads the flags of a descriptor; -1 means it is not open.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

/// Whether standard output was closed when the command started (`>&-`): a command that
/// writes there then stops at once with [`closed_error`] (exit 2), as it does when a write
/// fails.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// The error of a command whose standard output is closed.
pub fn closed_error() -> anyhow::Error {
    anyhow::anyhow!(
        "{STDOUT}: it is closed (`>&-`), so every answer would be lost; send it to a file, or to /dev/null to drop it"
    )
}

/// Standard output for a command. A write that fails (a full disk, `> /dev/full`, a closed
/// pipe) is an error naming standard output, so the command exits 2 with a message: not the
/// panic of `println!`, nor lines lost without a word. Each command ends with
/// [`Out::finish`], which flushes what is still buffered and reports that write too.
pub struct Out(std::io::StdoutLock<'static>);

impl Out {
    /// Standard output, locked for this command.
    pub fn new() -> Out {
        Out(std::io::stdout().lock())
    }

    /// Writes `text` and a line end.
    pub fn line(&mut self, text: impl Display) -> Result<()> {
        self.open()?;
        writeln!(self.0, "{text}").context(STDOUT)
    }

    /// Writes `text` as it is.
    pub fn text(&mut self, text: &str) -> Result<()> {
        self.open()?;
        self.0.write_all(text.as_bytes()).context(STDOUT)
    }

    /// Flushes what is left: the last write's failure is reported too.
    pub fn finish(mut self) -> Result<()> {
        self.open()?;
        self.0.flush().context(STDOUT)
    }

    /// Standard output as a writer, for text made as it is written (a formula); the caller
    /// names failures with [`Out::failed`], and ends with [`Out::finish`].
    pub fn writer(&mut self) -> Result<&mut impl Write> {
        self.open()?;
        Ok(&mut self.0)
    }

    /// A failed write to standard output, as the error says it.
    pub fn failed(e: std::io::Error) -> anyhow::Error {
        anyhow::Error::new(e).context(STDOUT)
    }

    /// An error when standard output was closed at the start ([`stdout_closed`]).
    fn open(&self) -> Result<()> {
        if stdout_closed() {
            return Err(closed_error());
        }
        Ok(())
    }
}
