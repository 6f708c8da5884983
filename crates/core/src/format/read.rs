//! Reading puzzle files: whole ([`read_file`], [`read_text_within`], at most
//! [`MAX_TEXT_BYTES`]) or as a stream ([`EntryReader`], at most [`MAX_LINE_BYTES`] a line),
//! bytes checked as UTF-8 with the bad line named; apart from the parser, which sees only text.

use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::path::Path;

use super::error::{ParseErrorKind, ReadError};
use super::parse::{parse_str, split_lines, Entry, ParseOptions, Parser};

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
/// Puzzles read from a stream one at a time, as [`parse_entries`](super::parse_entries) reads
/// them from text, with at most [`MAX_LINE_BYTES`] per line and no bound on the whole: for
/// commands that report each puzzle as they go (`check`) over files of any size. A malformed
/// puzzle is an item of its own and reading goes on; an I/O error, a line too long or bytes
/// that are not UTF-8 end the stream.
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::error::bytes_text;
    use crate::format::parse_entries;

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
