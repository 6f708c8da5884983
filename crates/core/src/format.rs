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

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;

use crate::{Grid, GridError, Order};

/// One puzzle read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The cells (0 = empty).
    pub grid: Grid,
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The comment lines just above the puzzle, joined with `; ` (without the `#`).
    pub label: Option<String>,
}

/// What is wrong with a piece of text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The input holds no puzzle at all.
    #[error("no puzzle found (the input is empty or only comments)")]
    Empty,
    /// A line puzzle whose length is not `n⁴` for an order the line format can hold.
    #[error("a puzzle line has {len} cells, which is not n⁴ for an order 2..=5 (16, 81, 256 or 625 cells)")]
    NotAnOrder {
        /// Cells found.
        len: usize,
    },
    /// A puzzle of a different size than the one required.
    #[error("a puzzle has {found} cells, {expected} expected")]
    WrongLength {
        /// Cells found.
        found: usize,
        /// Cells expected.
        expected: usize,
    },
    /// A digit larger than `N`.
    #[error("digit {digit} is out of range 1..={max}")]
    DigitOutOfRange {
        /// The digit read.
        digit: usize,
        /// `N`.
        max: usize,
    },
    /// A digit character (`1-9`, `A-Z`) beyond the grid's `N` in a puzzle line.
    #[error("{ch:?} is not a digit of a {size}×{size} grid ({})", digit_chars(*size))]
    NotADigit {
        /// The character read.
        ch: char,
        /// `N`, the grid's side.
        size: usize,
    },
    /// A character that is neither a digit, a letter, `.` nor `0`.
    #[error("unknown character {0:?} (expected `.`, `0`, `1-9` or `A-Z`)")]
    UnknownChar(char),
    /// A grid-block entry that is not a non-negative integer.
    #[error("`{}` is not a number (grid blocks hold integers, 0 or `.` for empty)", visible(.0))]
    BadNumber(String),
    /// A grid-block entry that is a number, but negative or too large to be a digit.
    #[error(
        "`{}` is out of range (grid blocks hold 0 or `.` for empty, and digits 1..={max})",
        visible(.text)
    )]
    NumberOutOfRange {
        /// The entry as written.
        text: String,
        /// `N`, the largest digit.
        max: usize,
    },
    /// A grid-block entry written with a plus sign, which no writer produces.
    #[error("`{}` has a sign: write grid-block entries as plain numbers", visible(.0))]
    PlusSign(String),
    /// The first row of a grid block has a number of entries that is no grid's side.
    #[error("a grid block row has {side} entries, which is not n² for an order 2..=16")]
    BlockSide {
        /// Entries in the first row.
        side: usize,
    },
    /// A grid-block row with a different number of entries than the first.
    #[error("this grid block row has {found} entries, the block's first row has {expected}")]
    RaggedRow {
        /// Entries found.
        found: usize,
        /// Entries expected.
        expected: usize,
    },
    /// A grid block that ends before its `N` rows.
    #[error("the grid block starting here has {found} rows, {expected} expected")]
    ShortBlock {
        /// Rows found.
        found: usize,
        /// Rows expected.
        expected: usize,
    },
}

/// A parse failure at a place in a named source.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{column}: {kind}", visible(.source_name))]
pub struct ParseError {
    /// The file name, or `-` / `<input>` for text that came from elsewhere.
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// Reading a file failed: it could not be read, or its text is not valid.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file holds more than a file of its kind may.
    #[error("{path}: larger than {}, the most {what} may hold ({why})", bytes_text(*limit))]
    TooLarge {
        /// The path as given.
        path: String,
        /// The bound, in bytes.
        limit: u64,
        /// The kind of file: `a puzzle file`, `a results file`.
        what: &'static str,
        /// Why the bound, and what to do.
        why: &'static str,
    },
    /// A line longer than any puzzle line or grid-block row.
    #[error("{path}: line {line} is longer than {} (no puzzle line or grid-block row comes near that: is it a puzzle file?)", bytes_text(*limit as u64))]
    LineTooLong {
        /// The path as given.
        path: String,
        /// The 1-based line.
        line: usize,
        /// The bound, in bytes.
        limit: usize,
    },
    /// Bytes that are not UTF-8 text.
    #[error("{path}: line {line} is not valid UTF-8 text")]
    NotUtf8 {
        /// The path as given.
        path: String,
        /// The 1-based line of the first bad byte.
        line: usize,
    },
    /// The text is not valid.
    #[error(transparent)]
    Parse(#[from] ParseError),
}

/// The most bytes a file read whole ([`read_text`]) may hold: 256 MiB, about three million
/// 9×9 puzzles in the line format. Every collection shipped or cited here is far below it (the
/// largest, top1465, is 120 KiB), and a file this size and its parsed puzzles still fit in the
/// memory of a laptop; a device that never ends (`/dev/zero`) stops here in about a second.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// The most bytes one line of a streamed file ([`EntryReader`]) may hold: 1 MiB. The longest
/// puzzle line has 625 cells and the longest grid-block row (order 16: 256 entries of up to 3
/// digits) about 1 KiB, so only a file that is not puzzle text comes near it.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why [`MAX_TEXT_BYTES`] bounds a puzzle file, for its error.
const PUZZLE_FILE_WHY: &str =
    "about 3 million 9×9 puzzles; split it, or stream it through `check`, which reads any size";

/// `256 MiB`, `1 MiB`, `512 bytes`.
fn bytes_text(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// A grid that a format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {0} grid has digits above 35 and cannot be written in the line format; use grid blocks")]
pub struct TooLargeForLine(pub Order);

/// Options for reading.
#[derive(Clone, Copy, Debug, Default)]
pub struct ParseOptions {
    /// Require every puzzle to be of this order (a different one is [`ParseErrorKind::WrongLength`]).
    pub order: Option<Order>,
}

/// Parses every puzzle of `text`; the first problem is an error.
pub fn parse_str(text: &str, source_name: &str) -> Result<Vec<Entry>, ParseError> {
    parse_entries(text, source_name, ParseOptions::default())
        .into_iter()
        .collect()
}

/// Reads and parses a file (`-` reads standard input).
pub fn read_file(path: &Path) -> Result<Vec<Entry>, ReadError> {
    let text = read_text(path)?;
    Ok(parse_str(&text, &path.display().to_string())?)
}

/// Reads a puzzle file's text (`-` is standard input), at most [`MAX_TEXT_BYTES`], naming the
/// path in the error.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    read_text_within(path, MAX_TEXT_BYTES, "a puzzle file", PUZZLE_FILE_WHY)
}

/// Reads a file's text (`-` is standard input) of at most `limit` bytes; a larger one is
/// [`ReadError::TooLarge`], saying it is `what` and `why` the bound. Bytes that are not UTF-8
/// are an error naming their line.
pub fn read_text_within(
    path: &Path,
    limit: u64,
    what: &'static str,
    why: &'static str,
) -> Result<String, ReadError> {
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    // One byte past the bound tells a file of exactly `limit` bytes from a larger one.
    let read = if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(limit.saturating_add(1)).read_to_end(&mut bytes))
    };
    read.map_err(|source| ReadError::Io {
        path: name.clone(),
        source,
    })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: name,
            limit,
            what,
            why,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        ReadError::NotUtf8 {
            path: name,
            line: line_of_byte(good),
        }
    })
}

/// The 1-based line that the byte after `before` is on (`\n`, `\r\n` or `\r` end a line).
fn line_of_byte(before: &[u8]) -> usize {
    let crs = before
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && before.get(i + 1) != Some(&b'\n'))
        .count();
    before.iter().filter(|&&b| b == b'\n').count() + crs + 1
}

/// The lines of `text`, each without its end: `\n`, `\r\n` and a lone `\r` (old Mac files)
/// each end a line, so no line holds a line end.
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(i) = rest.find(['\n', '\r']) else {
            return Some(std::mem::take(&mut rest));
        };
        let line = &rest[..i];
        let end = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + end..];
        Some(line)
    })
}

/// Puzzles read from a stream one at a time, as [`parse_entries`] reads them from text, with at
/// most [`MAX_LINE_BYTES`] per line and no bound on the whole: for commands that report each
/// puzzle as they go (`check`) over files of any size. A malformed puzzle is an item of its
/// own and reading goes on; an I/O error, a line too long or bytes that are not UTF-8 end the
/// stream.
pub struct EntryReader<R> {
    reader: R,
    parser: Parser,
    /// The next line's number.
    line: usize,
    buf: Vec<u8>,
    ready: VecDeque<Result<Entry, ReadError>>,
    /// Puzzles (and broken puzzles) handed out so far.
    seen: usize,
    done: bool,
}

impl<R: BufRead> EntryReader<R> {
    /// Reads `reader`, naming it `source_name` in errors.
    pub fn new(reader: R, source_name: &str, opts: ParseOptions) -> EntryReader<R> {
        EntryReader {
            reader,
            parser: Parser::new(source_name, opts),
            line: 1,
            buf: Vec::new(),
            ready: VecDeque::new(),
            seen: 0,
            done: false,
        }
    }

    /// Reads up to the next `\n` and parses the lines in it; at the end of input, ends the
    /// last block (and says so when there was no puzzle at all).
    fn fill(&mut self) {
        self.buf.clear();
        let path = || self.parser.source.clone();
        let limit = MAX_LINE_BYTES as u64 + 1;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf);
        let end = match read {
            Err(source) => {
                self.done = true;
                self.ready.push_back(Err(ReadError::Io {
                    path: path(),
                    source,
                }));
                return;
            }
            Ok(n) => n == 0,
        };
        if self.buf.len() > MAX_LINE_BYTES {
            self.done = true;
            let line = self.line + line_of_byte(&self.buf[..MAX_LINE_BYTES]) - 1;
            self.ready.push_back(Err(ReadError::LineTooLong {
                path: path(),
                line,
                limit: MAX_LINE_BYTES,
            }));
            return;
        }
        match std::str::from_utf8(&self.buf) {
            Ok(text) => {
                for raw in split_lines(text) {
                    self.parser.line(self.line, raw);
                    self.line += 1;
                }
            }
            Err(e) => {
                self.done = true;
                let line = self.line + line_of_byte(&self.buf[..e.valid_up_to()]) - 1;
                self.ready
                    .push_back(Err(ReadError::NotUtf8 { path: path(), line }));
                return;
            }
        }
        if end {
            self.done = true;
            self.parser.end_block();
            if self.seen + self.parser.out.len() == 0 {
                let e = self.parser.err(1, 1, ParseErrorKind::Empty);
                self.parser.out.push(Err(e));
            }
        }
        self.seen += self.parser.out.len();
        self.ready.extend(
            self.parser
                .out
                .drain(..)
                .map(|r| r.map_err(ReadError::from)),
        );
    }
}

impl<R: BufRead> Iterator for EntryReader<R> {
    type Item = Result<Entry, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            self.fill();
        }
    }
}

/// A file's puzzles as a stream (`-` is standard input): see [`EntryReader`].
pub fn stream_file(
    path: &Path,
    opts: ParseOptions,
) -> Result<EntryReader<Box<dyn BufRead>>, ReadError> {
    let name = path.display().to_string();
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path).map_err(|source| ReadError::Io {
            path: name.clone(),
            source,
        })?;
        Box::new(std::io::BufReader::new(file))
    };
    Ok(EntryReader::new(reader, &name, opts))
}

/// Parses every puzzle of `text`, going on past errors: one result per puzzle (or per broken
/// puzzle), in order, so a checker can report each one. An input with no puzzle at all gives a
/// single [`ParseErrorKind::Empty`].
pub fn parse_entries(
    text: &str,
    source_name: &str,
    opts: ParseOptions,
) -> Vec<Result<Entry, ParseError>> {
    let mut p = Parser::new(source_name, opts);
    for (idx, raw) in split_lines(text).enumerate() {
        p.line(idx + 1, raw);
    }
    p.end_block();
    if p.out.is_empty() {
        p.out.push(Err(p.err(1, 1, ParseErrorKind::Empty)));
    }
    p.out
}

/// The cell value of each byte of the line format (`.` and `0` empty, `1-9`, then letters
/// from 10 either case); `u16::MAX` for any other byte.
const DIGIT_OF_BYTE: [u16; 256] = {
    let mut t = [u16::MAX; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'.' | b'0' => 0,
            b'1'..=b'9' => (c - b'0') as u16,
            b'a'..=b'z' => (c - b'a') as u16 + 10,
            b'A'..=b'Z' => (c - b'A') as u16 + 10,
            _ => u16::MAX,
        };
        b += 1;
    }
    t
};

struct Block {
    start: usize,
    side: usize,
    label: Option<String>,
    cells: Vec<u16>,
    rows: usize,
}

struct Parser {
    source: String,
    opts: ParseOptions,
    out: Vec<Result<Entry, ParseError>>,
    label: Vec<String>,
    block: Option<Block>,
    /// After an error inside a block, skip its remaining rows up to the next blank line.
    skipping: bool,
}

impl Parser {
    fn new(source: &str, opts: ParseOptions) -> Parser {
        Parser {
            source: source.to_string(),
            opts,
            out: Vec::new(),
            label: Vec::new(),
            block: None,
            skipping: false,
        }
    }

    fn err(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source_name: self.source.clone(),
            line,
            column,
            kind,
        }
    }

    fn take_label(&mut self) -> Option<String> {
        if self.label.is_empty() {
            None
        } else {
            Some(std::mem::take(&mut self.label).join("; "))
        }
    }

    fn line(&mut self, no: usize, raw: &str) {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            self.end_block();
            self.skipping = false;
            if trimmed.is_empty() {
                self.label.clear();
            } else {
                self.label.push(trimmed[1..].trim().to_string());
            }
            return;
        }
        if self.skipping {
            return;
        }
        // The common case, one puzzle per line in ASCII: no tokens to collect.
        if self.block.is_none()
            && raw.is_ascii()
            && !trimmed.bytes().any(|b| b.is_ascii_whitespace())
        {
            let col = raw.len() - raw.trim_start().len() + 1;
            let label = self.take_label();
            let r = self.line_puzzle(no, |i| col + i, trimmed, label);
            self.out.push(r);
            return;
        }
        // Each whitespace-separated word: its column (1-based, in characters), its byte offset
        // and its text.
        let mut words: Vec<(usize, usize, &str)> = Vec::new();
        let mut start = None;
        for (col, (at, ch)) in raw.char_indices().enumerate() {
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some((col, at)),
                (true, Some((c, s))) => {
                    words.push((c + 1, s, &raw[s..at]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((c, s)) = start {
            words.push((c + 1, s, &raw[s..]));
        }
        // A word starting with `#` begins a trailing comment: a label for a puzzle starting here.
        if let Some(k) = words.iter().position(|w| w.2.starts_with('#')) {
            let comment = raw[words[k].1 + 1..].trim().to_string();
            words.truncate(k);
            if self.block.is_none() {
                self.label.push(comment);
            }
        }
        let tokens: Vec<(usize, &str)> = words.iter().map(|&(c, _, w)| (c, w)).collect();
        // A grid-block row holds numbers (and `.`); a longer word of anything else is part of a
        // line puzzle written in groups (`53..7.... 6..195... …`).
        let grouped_line = tokens
            .iter()
            .any(|(_, w)| w.chars().nth(1).is_some() && !signed_number(w));
        if self.block.is_some() || (tokens.len() > 1 && !grouped_line) {
            self.block_row(no, &tokens);
        } else {
            let mut cells = String::new();
            let mut cols = Vec::new();
            for (col, w) in &tokens {
                cells.push_str(w);
                cols.extend((0..w.chars().count()).map(|i| col + i));
            }
            let label = self.take_label();
            let r = self.line_puzzle(no, |i| cols.get(i).copied().unwrap_or(1), &cells, label);
            // Words that are mostly numbers, read together as no line puzzle, are a grid-block
            // row with an entry that is not a number (`0x3 1 2 4`): say which entry, not that
            // a puzzle line has 6 cells.
            let numbers = tokens
                .iter()
                .filter(|(_, w)| *w == "." || signed_number(w))
                .count();
            if r.is_err() && tokens.len() > 1 && 2 * numbers >= tokens.len() {
                if let Some(&(col, w)) = tokens.iter().find(|(_, w)| *w != "." && !signed_number(w))
                {
                    return self.fail(no, col, ParseErrorKind::BadNumber(w.to_string()));
                }
            }
            self.out.push(r);
        }
    }

    /// The line puzzle `tok`; `col_of(i)` is the column of its `i`-th character.
    fn line_puzzle(
        &self,
        no: usize,
        col_of: impl Fn(usize) -> usize,
        tok: &str,
        label: Option<String>,
    ) -> Result<Entry, ParseError> {
        // Nearly every file: ASCII digits and dots, looked up byte by byte in one pass.
        let bytes = tok.as_bytes();
        let mut cells = vec![0u16; bytes.len()];
        let mut bad = false;
        for (c, &b) in cells.iter_mut().zip(bytes) {
            let v = DIGIT_OF_BYTE[usize::from(b)];
            bad |= v == u16::MAX;
            *c = v;
        }
        // Anything else (other characters, or an error to name) goes by characters.
        if bad {
            cells.clear();
            for (i, ch) in tok.chars().enumerate() {
                let v = match ch {
                    '.' | '0' => 0,
                    '1'..='9' => ch as u16 - '0' as u16,
                    'a'..='z' => ch as u16 - 'a' as u16 + 10,
                    'A'..='Z' => ch as u16 - 'A' as u16 + 10,
                    _ => return Err(self.err(no, col_of(i), ParseErrorKind::UnknownChar(ch))),
                };
                cells.push(v);
            }
        }
        let order = match self.opts.order {
            Some(o) if o.cells() != cells.len() => {
                return Err(self.err(
                    no,
                    col_of(0),
                    ParseErrorKind::WrongLength {
                        found: cells.len(),
                        expected: o.cells(),
                    },
                ))
            }
            Some(o) => o,
            None => match Order::from_cells(cells.len()) {
                Ok(o) if o.n() <= 5 => o,
                _ => {
                    return Err(self.err(
                        no,
                        col_of(0),
                        ParseErrorKind::NotAnOrder { len: cells.len() },
                    ))
                }
            },
        };
        let max = order.size();
        // The grid checks the range; its error names the cell, and we name the character as
        // written (a letter is no "digit 33" to a reader).
        let grid = Grid::from_cells(order, cells).map_err(|e| {
            let i = match e {
                GridError::DigitOutOfRange { cell, .. } => cell,
                GridError::WrongLength { .. } => 0,
            };
            let ch = tok.chars().nth(i).unwrap_or('?');
            self.err(no, col_of(i), ParseErrorKind::NotADigit { ch, size: max })
        })?;
        Ok(Entry {
            grid,
            line: no,
            label,
        })
    }

    fn block_row(&mut self, no: usize, tokens: &[(usize, &str)]) {
        if self.block.is_none() {
            let side = tokens.len();
            let order = match Order::from_size(side) {
                Ok(o) => o,
                Err(_) => return self.fail(no, tokens[0].0, ParseErrorKind::BlockSide { side }),
            };
            if let Some(want) = self.opts.order {
                if want != order {
                    let kind = ParseErrorKind::WrongLength {
                        found: order.cells(),
                        expected: want.cells(),
                    };
                    return self.fail(no, tokens[0].0, kind);
                }
            }
            let label = self.take_label();
            self.block = Some(Block {
                start: no,
                side,
                label,
                cells: Vec::with_capacity(order.cells()),
                rows: 0,
            });
        }
        let side = self.block.as_ref().map_or(0, |b| b.side);
        if tokens.len() != side {
            let kind = ParseErrorKind::RaggedRow {
                found: tokens.len(),
                expected: side,
            };
            return self.fail(no, tokens[0].0, kind);
        }
        let mut row = Vec::with_capacity(side);
        for &(col, tok) in tokens {
            let v = if tok == "." {
                0
            } else {
                match block_number(tok, side) {
                    Ok(v) => v,
                    Err(kind) => return self.fail(no, col, kind),
                }
            };
            if v > side {
                return self.fail(
                    no,
                    col,
                    ParseErrorKind::DigitOutOfRange {
                        digit: v,
                        max: side,
                    },
                );
            }
            row.push(v as u16);
        }
        let done = {
            let b = self.block.as_mut().expect("block started above");
            b.cells.extend(row);
            b.rows += 1;
            b.rows == b.side
        };
        if done {
            self.end_block();
        }
    }

    /// Records an error inside a block and skips the rest of it.
    fn fail(&mut self, no: usize, col: usize, kind: ParseErrorKind) {
        self.block = None;
        self.label.clear();
        self.skipping = true;
        let e = self.err(no, col, kind);
        self.out.push(Err(e));
    }

    fn end_block(&mut self) {
        if let Some(b) = self.block.take() {
            if b.rows < b.side {
                let e = self.err(
                    b.start,
                    1,
                    ParseErrorKind::ShortBlock {
                        found: b.rows,
                        expected: b.side,
                    },
                );
                self.out.push(Err(e));
            } else {
                let order = Order::from_size(b.side).expect("side checked when the block started");
                let grid = Grid::from_cells(order, b.cells).expect("rows and range checked");
                self.out.push(Ok(Entry {
                    grid,
                    line: b.start,
                    label: b.label,
                }));
            }
        }
    }
}

/// Is `w` an integer, with or without a sign?
fn signed_number(w: &str) -> bool {
    let digits = w.strip_prefix(['+', '-']).unwrap_or(w);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A grid-block entry other than `.` read as a number: plain digits only (Rust's parser would
/// take `+3`); a negative number, or one too large for any integer, is out of range for a
/// grid of side `side`.
fn block_number(tok: &str, side: usize) -> Result<usize, ParseErrorKind> {
    let out_of_range = || ParseErrorKind::NumberOutOfRange {
        text: tok.to_string(),
        max: side,
    };
    if !signed_number(tok) {
        return Err(ParseErrorKind::BadNumber(tok.to_string()));
    }
    match tok.as_bytes()[0] {
        b'+' => Err(ParseErrorKind::PlusSign(tok.to_string())),
        b'-' => Err(out_of_range()),
        _ => tok.parse().map_err(|_| out_of_range()),
    }
}

/// The digit characters of a grid of side `size` in the line format, as people read them:
/// `1-4`, `1-9`, `1-9, A-G`.
fn digit_chars(size: usize) -> String {
    match size {
        0..=9 => format!("1-{size}"),
        10 => "1-9, A".to_string(),
        _ => format!("1-9, A-{}", digit_char(size.min(35) as u16)),
    }
}

/// `s` as messages show text from files and flags: every control character written out, so
/// text cannot move or colour a terminal and nothing in it is invisible: `\0` for a NUL, `\n`,
/// `\r`, `\t`, and `\u{1b}` for the others.
pub fn visible(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\0' => o.push_str("\\0"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if c.is_control() => o.extend(c.escape_unicode()),
            c => o.push(c),
        }
    }
    o
}

/// The character of digit `d` in the line format (`.` for empty).
pub fn digit_char(d: u16) -> char {
    match d {
        0 => '.',
        1..=9 => (b'0' + d as u8) as char,
        10..=35 => (b'A' + (d - 10) as u8) as char,
        _ => '?',
    }
}

/// The grid in the line format (`.` for empty, `A-Z` for 10..=35).
pub fn to_line(grid: &Grid) -> Result<String, TooLargeForLine> {
    if grid.size() > 35 {
        return Err(TooLargeForLine(grid.order()));
    }
    Ok(grid.cells().iter().map(|&d| digit_char(d)).collect())
}

/// The grid as a block of `N` lines of right-aligned integers (`0` for empty), with a final
/// newline.
pub fn to_block(grid: &Grid) -> String {
    let n = grid.size();
    let w = n.to_string().len();
    let mut s = String::with_capacity(grid.cells().len() * (w + 1));
    for row in grid.cells().chunks(n) {
        let line: Vec<String> = row.iter().map(|d| format!("{d:>w$}")).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

/// The grid in the format the workspace writes by default: a line (with a newline) when it
/// fits, a grid block followed by a blank line otherwise.
pub fn to_text(grid: &Grid) -> String {
    match to_line(grid) {
        Ok(mut l) => {
            l.push('\n');
            l
        }
        Err(_) => {
            let mut b = to_block(grid);
            b.push('\n');
            b
        }
    }
}

/// A human-readable grid with block separators, in the style of the JuMP seed's printer:
/// right-aligned numbers (letters not used), `|` between blocks, `-+-` lines between bands,
/// `.` for empty cells.
pub fn pretty(grid: &Grid) -> String {
    let order = grid.order();
    let (n, size) = (order.n(), order.size());
    let w = size.to_string().len();
    let seg = n * w + (n - 1);
    let rule = vec!["-".repeat(seg); n].join("-+-");
    let mut out = String::new();
    for r in 0..size {
        if r > 0 && r % n == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        let parts: Vec<String> = (0..n)
            .map(|b| {
                (0..n)
                    .map(|i| match grid.at(r, b * n + i) {
                        0 => format!("{:>w$}", "."),
                        d => format!("{d:>w$}"),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        out.push_str(&parts.join(" | "));
        out.push('\n');
    }
    out
}

impl fmt::Display for Grid {
    /// The pretty form; use [`to_line`] or [`to_block`] for machine-readable text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&pretty(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Entry, ParseError> {
        parse_entries(text, "t.txt", ParseOptions::default()).remove(0)
    }

    #[test]
    fn line_and_label() {
        let e = one("# Figure 1\n1.3.1.3.1.3.1.3.\n").unwrap();
        assert_eq!(e.label.as_deref(), Some("Figure 1"));
        assert_eq!(e.line, 2);
        assert_eq!(e.grid.order().n(), 2);
        assert_eq!(e.grid.get(0), 1);
        assert_eq!(e.grid.filled(), 8);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = one("\n\n....?...........\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.txt:3:5: unknown character '?' (expected `.`, `0`, `1-9` or `A-Z`)"
        );
        let e = one("1234567\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert_eq!(e.kind, ParseErrorKind::NotAnOrder { len: 7 });
        let e = one("...5............\n").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::NotADigit { ch: '5', size: 4 });
        assert_eq!(e.column, 4);
        assert_eq!(e.kind.to_string(), "'5' is not a digit of a 4×4 grid (1-4)");
        let nine = format!("{}Z{}\n", ".".repeat(40), ".".repeat(40));
        let e = one(&nine).unwrap_err();
        assert_eq!((e.line, e.column), (1, 41));
        assert_eq!(e.kind.to_string(), "'Z' is not a digit of a 9×9 grid (1-9)");
        assert_eq!(digit_chars(16), "1-9, A-G");
        assert_eq!(digit_chars(25), "1-9, A-P");
        assert_eq!(one("# only\n").unwrap_err().kind, ParseErrorKind::Empty);
        let e = one("1 2 3 4\n1 2 3\n").unwrap_err();
        assert_eq!(
            e.kind,
            ParseErrorKind::RaggedRow {
                found: 3,
                expected: 4
            }
        );
        assert_eq!(e.line, 2);
        let e = one("1 2 3 4\n0 0 0 0\n\n").unwrap_err();
        assert_eq!(
            e.kind,
            ParseErrorKind::ShortBlock {
                found: 2,
                expected: 4
            }
        );
        let e = one("1 2 3\n").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BlockSide { side: 3 });
        let e = one("1 2 3 x\n").unwrap_err();
        assert_eq!(
            (e.column, e.kind),
            (7, ParseErrorKind::BadNumber("x".into()))
        );
    }

    #[test]
    fn expected_order_is_enforced() {
        let opts = ParseOptions {
            order: Order::new(3).ok(),
        };
        let r = parse_entries(&".".repeat(16), "s", opts)
            .remove(0)
            .unwrap_err();
        assert_eq!(
            r.kind,
            ParseErrorKind::WrongLength {
                found: 16,
                expected: 81
            }
        );
    }

    #[test]
    fn recovers_after_a_broken_puzzle() {
        let text = "1 2 3 4\n1 2\n3 4 1 2\n\n................\n";
        let r = parse_entries(text, "s", ParseOptions::default());
        assert_eq!(r.len(), 2);
        assert!(r[0].is_err());
        assert!(r[1].is_ok());
    }

    #[test]
    fn blocks_and_pretty() {
        let text = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        let e = one(text).unwrap();
        assert_eq!(to_block(&e.grid), text);
        assert_eq!(to_line(&e.grid).unwrap(), "1234341221434321");
        assert_eq!(
            pretty(&e.grid),
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"
        );
    }

    #[test]
    fn any_line_end_trailing_comments_and_grouped_lines() {
        let two = "1.3.1.3.1.3.1.3.\r1234341221434321\r";
        let r = parse_str(two, "cr").unwrap();
        assert_eq!((r.len(), r[1].line), (2, 2));
        let r = parse_str("1 2 3 4\r\n3 4 1 2\r2 1 4 3\n4 3 2 1\r\n", "mixed").unwrap();
        assert_eq!(r[0].grid.filled(), 16);
        let e = one("# above\n1234341221434321  # solved\n").unwrap();
        assert_eq!(e.label.as_deref(), Some("above; solved"));
        let e = one("1 2 3 4 # row one\n3 4 1 2 #\n2 1 4 3\n4 3 2 1\n").unwrap();
        assert_eq!(e.label.as_deref(), Some("row one"));
        // A line puzzle in groups, split by tabs or spaces, names columns as written.
        let e = one("\t1.3.\t1.3. 1.3.  1.3.\n").unwrap();
        assert_eq!(e.grid.filled(), 8);
        let e = one("1.3. 1.?. 1.3. 1.3.\n").unwrap_err();
        assert_eq!((e.column, e.kind), (8, ParseErrorKind::UnknownChar('?')));
        // Single characters are still a grid-block row.
        let e = one("1 2 3 x\n").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BadNumber("x".into()));
    }

    #[test]
    fn signed_and_huge_block_entries_are_named_for_what_they_are() {
        let kind = |entry: &str| {
            one(&format!("{entry} 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"))
                .unwrap_err()
                .kind
        };
        let e = kind("-3");
        assert_eq!(
            e.to_string(),
            "`-3` is out of range (grid blocks hold 0 or `.` for empty, and digits 1..=4)"
        );
        assert_eq!(
            kind("+3").to_string(),
            "`+3` has a sign: write grid-block entries as plain numbers"
        );
        assert_eq!(
            kind("99999999999999999999999"),
            ParseErrorKind::NumberOutOfRange {
                text: "99999999999999999999999".into(),
                max: 4
            }
        );
        assert_eq!(
            kind("5"),
            ParseErrorKind::DigitOutOfRange { digit: 5, max: 4 }
        );
    }

    #[test]
    fn a_stream_reads_as_the_text_does_with_its_bounds() {
        let text = "# a\n1.3.1.3.1.3.1.3.\r\n1 2 3 4\n3 4 1 2\n\n1234\n................\r";
        let stream: Vec<String> = EntryReader::new(text.as_bytes(), "s", ParseOptions::default())
            .map(|r| format!("{r:?}"))
            .collect();
        let whole: Vec<String> = parse_entries(text, "s", ParseOptions::default())
            .into_iter()
            .map(|r| format!("{:?}", r.map_err(ReadError::from)))
            .collect();
        assert_eq!(stream, whole);
        let empty: Vec<_> = EntryReader::new(&b"# only\n"[..], "e", ParseOptions::default())
            .map(|r| r.unwrap_err().to_string())
            .collect();
        assert_eq!(
            empty,
            ["e:1:1: no puzzle found (the input is empty or only comments)"]
        );
        // A line with no end in sight (what /dev/zero gives) stops at the bound.
        let zeros = std::io::repeat(0).take(10 * MAX_LINE_BYTES as u64);
        let mut r = EntryReader::new(std::io::BufReader::new(zeros), "z", ParseOptions::default());
        let e = r.next().unwrap().unwrap_err().to_string();
        assert!(e.starts_with("z: line 1 is longer than 1 MiB"), "{e}");
        assert!(r.next().is_none());
        let bad = b"1234341221434321\n\xe9\n";
        let e: Vec<String> = EntryReader::new(&bad[..], "b", ParseOptions::default())
            .map(|r| format!("{}", r.map(|e| e.line).unwrap_or_else(|e| panic!("{e}"))))
            .take(1)
            .collect();
        assert_eq!(e, ["1"]);
        let last = EntryReader::new(&bad[..], "b", ParseOptions::default())
            .last()
            .unwrap()
            .unwrap_err();
        assert_eq!(last.to_string(), "b: line 2 is not valid UTF-8 text");
    }

    #[test]
    fn a_file_read_whole_is_bounded() {
        let path = std::env::temp_dir().join(format!("format-bound-{}.txt", std::process::id()));
        std::fs::write(&path, "1234341221434321\n").unwrap();
        let e = read_text_within(&path, 16, "a puzzle file", "why").unwrap_err();
        assert!(
            e.to_string()
                .ends_with(": larger than 16 bytes, the most a puzzle file may hold (why)"),
            "{e}"
        );
        assert_eq!(read_text_within(&path, 17, "", "").unwrap().len(), 17);
        std::fs::write(&path, b"1234\r\n\xff").unwrap();
        let e = read_text(&path).unwrap_err().to_string();
        assert!(e.ends_with(": line 2 is not valid UTF-8 text"), "{e}");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(bytes_text(MAX_TEXT_BYTES), "256 MiB");
    }
}
