//! What goes to the solver and what comes back, line by line.
//!
//! A puzzle is written in the line format (one line) or as a grid block (`N` rows of `N`
//! numbers, then a blank line). An answer is, after blank lines and `#` comments (a comment
//! `# stats k=v k=v` before the answer gives figures for the row's `extra` column):
//! - a solution, in the same format;
//! - `infeasible`: the solver proved there is none;
//! - `unknown`: the solver gave up (its own limit);
//! - `count K` followed by the `K` solutions it found (counting).

use sudoku_core::format::{self, ParseOptions};
use sudoku_core::{Grid, Order};

use crate::ExternalError;

/// How puzzles and solutions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line of `N²` characters (orders 2..=5).
    Line,
    /// `N` rows of `N` whitespace-separated numbers, then a blank line (any order).
    Grid,
}

impl Format {
    /// Its name in parameters and in `SUDOKU_FORMAT`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Grid => "grid",
        }
    }

    /// The puzzle's text for the solver's standard input.
    pub fn write(self, givens: &Grid) -> Result<String, ExternalError> {
        match self {
            Format::Line => Ok(format::to_line(givens)? + "\n"),
            Format::Grid => Ok(format::to_block(givens) + "\n"),
        }
    }
}

/// One complete answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A solution.
    Solution(Grid),
    /// No solution.
    Infeasible,
    /// The solver gave up.
    Unknown,
    /// `count K` and the solutions listed after it.
    Count(u64, Vec<Grid>),
}

/// Reads one answer from lines as they come.
pub struct AnswerReader {
    order: Order,
    format: Format,
    /// The announced count and the solutions read so far, inside `count K`.
    count: Option<(u64, Vec<Grid>)>,
    /// Rows of a grid block being read.
    rows: Vec<String>,
    /// Figures from `# stats` lines.
    figures: Vec<(String, String)>,
}

impl AnswerReader {
    /// A reader for an answer to a puzzle of `order` in `format`.
    pub fn new(order: Order, format: Format) -> AnswerReader {
        AnswerReader {
            order,
            format,
            count: None,
            rows: Vec::new(),
            figures: Vec::new(),
        }
    }

    /// The figures of `# stats` lines read so far.
    pub fn take_figures(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.figures)
    }

    /// True when no part of an answer has been read.
    pub fn is_empty(&self) -> bool {
        self.count.is_none() && self.rows.is_empty()
    }

    /// Takes one line: `Some` when it completes the answer.
    pub fn feed(&mut self, line: &str) -> Result<Option<Reply>, ExternalError> {
        let text = line.trim();
        if let Some(comment) = text.strip_prefix('#') {
            if let Some(pairs) = comment.trim_start().strip_prefix("stats ") {
                self.figures.extend(
                    pairs
                        .split_whitespace()
                        .filter_map(|kv| kv.split_once('='))
                        .filter(|(k, _)| !k.is_empty())
                        .map(|(k, v)| (k.to_string(), v.replace(';', ","))),
                );
            }
            return Ok(None);
        }
        if text.is_empty() {
            return Ok(None);
        }
        if self.count.is_none() && self.rows.is_empty() {
            let lower = text.to_ascii_lowercase();
            match lower.as_str() {
                "infeasible" => return Ok(Some(Reply::Infeasible)),
                "unknown" => return Ok(Some(Reply::Unknown)),
                _ => {}
            }
            if let Some(k) = lower.strip_prefix("count") {
                let k: u64 = k
                    .trim()
                    .parse()
                    .map_err(|_| malformed(text, "`count` must be followed by a number"))?;
                if k == 0 {
                    return Ok(Some(Reply::Count(0, Vec::new())));
                }
                self.count = Some((k, Vec::new()));
                return Ok(None);
            }
        }
        let Some(grid) = self.solution_line(text)? else {
            return Ok(None);
        };
        match &mut self.count {
            None => Ok(Some(Reply::Solution(grid))),
            Some((k, found)) => {
                found.push(grid);
                if found.len() as u64 == *k {
                    let (k, found) = self.count.take().unwrap_or_default();
                    Ok(Some(Reply::Count(k, found)))
                } else {
                    Ok(None)
                }
            }
        }
    }

    /// A solution line, or one row of a grid block (`Some` at the block's last row).
    fn solution_line(&mut self, text: &str) -> Result<Option<Grid>, ExternalError> {
        let block = match self.format {
            Format::Line => text.to_string(),
            Format::Grid => {
                self.rows.push(text.to_string());
                if self.rows.len() < self.order.size() {
                    return Ok(None);
                }
                std::mem::take(&mut self.rows).join("\n")
            }
        };
        let opts = ParseOptions {
            order: Some(self.order),
        };
        let mut entries = format::parse_entries(&block, "answer", opts);
        match (entries.pop(), entries.is_empty()) {
            (Some(Ok(e)), true) => Ok(Some(e.grid)),
            (Some(Err(e)), true) => Err(malformed(text, &e.kind.to_string())),
            _ => Err(malformed(text, "expected one solution")),
        }
    }
}

fn malformed(text: &str, why: &str) -> ExternalError {
    const SHOWN: usize = 60;
    let shown: String = text.chars().take(SHOWN).collect();
    let more = if text.chars().count() > SHOWN {
        "…"
    } else {
        ""
    };
    ExternalError::Malformed(format!("`{shown}{more}`: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(n: usize) -> Order {
        Order::new(n).unwrap()
    }

    const SOLVED: &str = "1234341221434321";

    #[test]
    fn reads_each_kind_of_answer() {
        let mut r = AnswerReader::new(order(2), Format::Line);
        assert_eq!(r.feed("# thinking").unwrap(), None);
        assert_eq!(r.feed("# stats nodes=5 solveTime=0.01 junk").unwrap(), None);
        let figures = r.take_figures();
        assert_eq!(figures.len(), 2);
        assert_eq!(figures[0], ("nodes".to_string(), "5".to_string()));
        assert_eq!(r.feed("").unwrap(), None);
        let Some(Reply::Solution(g)) = r.feed(SOLVED).unwrap() else {
            panic!("no solution")
        };
        assert_eq!(g.get(0), 1);
        assert_eq!(r.feed("INFEASIBLE").unwrap(), Some(Reply::Infeasible));
        assert_eq!(r.feed("unknown").unwrap(), Some(Reply::Unknown));
        assert_eq!(r.feed("count 0").unwrap(), Some(Reply::Count(0, vec![])));
        assert_eq!(r.feed("count 2").unwrap(), None);
        assert_eq!(r.feed(SOLVED).unwrap(), None);
        assert!(matches!(r.feed(SOLVED).unwrap(), Some(Reply::Count(2, v)) if v.len() == 2));
        assert!(r.is_empty());
    }

    #[test]
    fn reads_grid_blocks_of_any_order() {
        let mut r = AnswerReader::new(order(2), Format::Grid);
        for row in ["1 2 3 4", "3 4 1 2", "2 1 4 3"] {
            assert_eq!(r.feed(row).unwrap(), None);
        }
        assert!(!r.is_empty());
        assert!(matches!(
            r.feed("4 3 2 1").unwrap(),
            Some(Reply::Solution(_))
        ));
        let text = Format::Grid.write(&Grid::empty(order(6))).unwrap();
        assert_eq!(text.lines().count(), 36 + 1);
        assert!(Format::Line.write(&Grid::empty(order(6))).is_err());
    }

    #[test]
    fn rejects_garbage_with_the_offending_text() {
        let mut r = AnswerReader::new(order(2), Format::Line);
        let e = r.feed("hello world").unwrap_err().to_string();
        assert!(e.contains("`hello world`"), "{e}");
        assert!(r.feed("count many").is_err());
        // A solution of the wrong size.
        assert!(r.feed(&"1".repeat(81)).is_err());
        let mut r = AnswerReader::new(order(2), Format::Grid);
        for row in ["1 2 3", "3 4 1 2", "2 1 4 3"] {
            assert_eq!(r.feed(row).unwrap(), None);
        }
        assert!(r.feed("4 3 2 1").is_err());
    }
}
