//! Reading puzzle files for the commands: every entry keeps its source, line and label so that
//! messages and results can name it.

use std::path::Path;

use anyhow::Result;
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

/// A puzzle's place in messages: `file:line`, with its label when it has one.
pub fn label_of(name: &str, e: &Entry) -> String {
    match &e.label {
        Some(l) => format!("{name}:{} [{l}]", e.line),
        None => format!("{name}:{}", e.line),
    }
}
