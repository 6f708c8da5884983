//! Reading puzzle files for the commands: every entry keeps its source, line and label so that
//! messages and results can name it; and writing to standard output ([`Out`]), which every
//! command does through one helper so that a failed write is an error, never a panic.

use std::fmt::Display;
use std::io::Write;
use std::path::Path;

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

/// What a failed write to standard output is called in the error.
const STDOUT: &str = "writing to standard output";

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
        writeln!(self.0, "{text}").context(STDOUT)
    }

    /// Writes `text` as it is.
    pub fn text(&mut self, text: &str) -> Result<()> {
        self.0.write_all(text.as_bytes()).context(STDOUT)
    }

    /// Flushes what is left: the last write's failure is reported too.
    pub fn finish(mut self) -> Result<()> {
        self.0.flush().context(STDOUT)
    }
}
