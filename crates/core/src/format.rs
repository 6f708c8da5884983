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
//! puzzle become its label. Every error names the source, line and column.

use std::fmt;
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
    #[error("`{0}` is not a number (grid blocks hold integers, 0 or `.` for empty)")]
    BadNumber(String),
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
#[error("{source_name}:{line}:{column}: {kind}")]
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
    /// The text is not valid.
    #[error(transparent)]
    Parse(#[from] ParseError),
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

/// Reads a file's text (`-` is standard input), naming the path in the error.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let io = |source| ReadError::Io {
        path: path.display().to_string(),
        source,
    };
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(io)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(io)
    }
}

/// Parses every puzzle of `text`, going on past errors: one result per puzzle (or per broken
/// puzzle), in order, so a checker can report each one. An input with no puzzle at all gives a
/// single [`ParseErrorKind::Empty`].
pub fn parse_entries(
    text: &str,
    source_name: &str,
    opts: ParseOptions,
) -> Vec<Result<Entry, ParseError>> {
    let mut p = Parser {
        source: source_name,
        opts,
        out: Vec::new(),
        label: Vec::new(),
        block: None,
        skipping: false,
    };
    for (idx, raw) in text.lines().enumerate() {
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

struct Parser<'a> {
    source: &'a str,
    opts: ParseOptions,
    out: Vec<Result<Entry, ParseError>>,
    label: Vec<String>,
    block: Option<Block>,
    /// After an error inside a block, skip its remaining rows up to the next blank line.
    skipping: bool,
}

impl Parser<'_> {
    fn err(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source_name: self.source.to_string(),
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
            let r = self.line_puzzle(no, col, trimmed, label);
            self.out.push(r);
            return;
        }
        // Column (1-based, in characters) of each whitespace-separated token.
        let mut tokens = Vec::new();
        let mut start = None;
        for (col, ch) in raw.chars().enumerate() {
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some(col),
                (true, Some(s)) => {
                    tokens.push((s + 1, raw.chars().skip(s).take(col - s).collect::<String>()));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            tokens.push((s + 1, raw.chars().skip(s).collect::<String>()));
        }
        if self.block.is_some() || tokens.len() > 1 {
            self.block_row(no, &tokens);
        } else {
            let (col, tok) = &tokens[0];
            let label = self.take_label();
            let r = self.line_puzzle(no, *col, tok, label);
            self.out.push(r);
        }
    }

    fn line_puzzle(
        &self,
        no: usize,
        col0: usize,
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
                    _ => return Err(self.err(no, col0 + i, ParseErrorKind::UnknownChar(ch))),
                };
                cells.push(v);
            }
        }
        let order = match self.opts.order {
            Some(o) if o.cells() != cells.len() => {
                return Err(self.err(
                    no,
                    col0,
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
                    return Err(self.err(no, col0, ParseErrorKind::NotAnOrder { len: cells.len() }))
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
            self.err(no, col0 + i, ParseErrorKind::NotADigit { ch, size: max })
        })?;
        Ok(Entry {
            grid,
            line: no,
            label,
        })
    }

    fn block_row(&mut self, no: usize, tokens: &[(usize, String)]) {
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
        for (col, tok) in tokens {
            let v = if tok == "." {
                0
            } else {
                match tok.parse::<usize>() {
                    Ok(v) => v,
                    Err(_) => return self.fail(no, *col, ParseErrorKind::BadNumber(tok.clone())),
                }
            };
            if v > side {
                return self.fail(
                    no,
                    *col,
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

/// The digit characters of a grid of side `size` in the line format, as people read them:
/// `1-4`, `1-9`, `1-9, A-G`.
fn digit_chars(size: usize) -> String {
    match size {
        0..=9 => format!("1-{size}"),
        10 => "1-9, A".to_string(),
        _ => format!("1-9, A-{}", digit_char(size.min(35) as u16)),
    }
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
}
