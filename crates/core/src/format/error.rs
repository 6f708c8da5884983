//! What can go wrong reading puzzle text ([`ParseErrorKind`], [`ParseError`]) or a file
//! ([`ReadError`]), and how a message shows text from a file ([`visible`]): the messages in one
//! place, apart from the parser and the readers that raise them.

use super::write::digit_chars;

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
/// `256 MiB`, `1 MiB`, `512 bytes`.
pub(super) fn bytes_text(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
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
