//! The parser: puzzle text in the line and grid-block formats, line by line, into [`Entry`]s
//! (labels from comments, errors with line and column, recovery after a broken puzzle); shared
//! by whole texts ([`parse_entries`]) and streams (`read.rs`), which feed it the same lines.

use super::error::{ParseError, ParseErrorKind};
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
/// The lines of `text`, each without its end: `\n`, `\r\n` and a lone `\r` (old Mac files)
/// each end a line, so no line holds a line end.
pub(super) fn split_lines(text: &str) -> impl Iterator<Item = &str> {
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

pub(super) struct Parser {
    pub(super) source: String,
    opts: ParseOptions,
    pub(super) out: Vec<Result<Entry, ParseError>>,
    label: Vec<String>,
    block: Option<Block>,
    /// After an error inside a block, skip its remaining rows up to the next blank line.
    skipping: bool,
}

impl Parser {
    pub(super) fn new(source: &str, opts: ParseOptions) -> Parser {
        Parser {
            source: source.to_string(),
            opts,
            out: Vec::new(),
            label: Vec::new(),
            block: None,
            skipping: false,
        }
    }

    pub(super) fn err(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
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

    pub(super) fn line(&mut self, no: usize, raw: &str) {
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

    pub(super) fn end_block(&mut self) {
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::write::{digit_chars, pretty, to_block, to_line};

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
}
