//! Text formats: reading, writing and pretty-printing puzzles.
//!
//! Two formats, freely mixed in one file:
//! - **line**: one puzzle per line, `N²` characters row-major; `.` or `0` is an empty cell,
//!   `1-9` then `A-Z` (either case) are 1..=35. The order is inferred from the length
//!   (16, 81, 256, 625), so this holds orders 2 to 5.
//! - **block**: `N` lines of `N` whitespace-separated integers (`0` or `.` empty), for any
//!   order; a blank line (or a comment) ends a block.
//!
//! A line whose first non-blank character is `#` is a comment; the comment lines just above a
//! puzzle become its label. A `#` that starts a word later on a line begins a trailing comment,
//! which adds to the label of a puzzle starting on that line. A line puzzle may be split by
//! blanks (`53..7.... 6..195... …`): a line is a grid-block row only when every word on it is a
//! number or `.`. Lines end with `\n`, `\r\n` or a lone `\r`. Every error names the source,
//! line and column.
//!
//! Reading is bounded: a file read whole ([`read_text`]) may hold at most [`MAX_TEXT_BYTES`],
//! and a line of a streamed file ([`EntryReader`]) at most [`MAX_LINE_BYTES`], so a device that
//! never ends (`/dev/zero`) is an error and not a hang.
//!
//! The files: `parse.rs` turns text into puzzles ([`parse_str`], [`parse_entries`]); `read.rs`
//! reads files and streams within those bounds ([`read_file`], [`EntryReader`]); `write.rs`
//! writes grids ([`to_line`], [`to_block`], [`pretty`]); `error.rs` says what went wrong
//! ([`ParseError`], [`ReadError`]) and how a message shows text ([`visible`]).

mod error;
mod parse;
mod read;
mod write;

pub use error::{visible, ParseError, ParseErrorKind, ReadError};
pub use parse::{parse_entries, parse_str, Entry, ParseOptions};
pub use read::{
    read_file, read_text, read_text_within, stream_file, EntryReader, MAX_LINE_BYTES,
    MAX_TEXT_BYTES,
};
pub use write::{digit_char, pretty, to_block, to_line, to_text, TooLargeForLine};
