//! The reduction of Takano et al. (§3, after Yato and Seta): a partial Latin square of side `n`
//! becomes a Sudoku instance of order `n` (an `n² × n²` grid) that has exactly as many
//! solutions, so hard Latin-square completion instances become hard Sudoku instances.
//!
//! Digits 0-based here. The background grid is `S(r, c) = ((r mod n)·n + ⌊r/n⌋ + c) mod N`.
//! In the first band, the cells of the columns `p·n` hold `((r + p) mod n)·n`: an `n × n`
//! Latin square over the multiples of `n`. Those `n²` cells are the Latin square's: cell
//! `(r, p·n)` holds `L(r, p)·n` when `L(r, p)` is given and is empty otherwise; every other
//! cell is a given. Each empty cell's row, column and block miss exactly the multiples of `n`
//! that its Latin row and column miss, so completions correspond one to one.

use sudoku_core::{Grid, Order, Puzzle, Variant};

use crate::GenError;

/// The Sudoku puzzle (classic) of order `n` equivalent to the partial Latin square `latin`:
/// `n × n` row-major symbols `1..=n`, `0` for an empty cell.
pub fn latin_to_sudoku(n: usize, latin: &[u16]) -> Result<Puzzle, GenError> {
    let order = Order::new(n).map_err(GenError::Order)?;
    if latin.len() != n * n {
        return Err(GenError::LatinShape {
            side: n,
            found: latin.len(),
        });
    }
    if let Some((cell, &v)) = latin.iter().enumerate().find(|(_, &v)| v as usize > n) {
        return Err(GenError::LatinSymbol { cell, value: v, n });
    }
    let size = order.size();
    let mut cells = Vec::with_capacity(order.cells());
    for r in 0..size {
        for c in 0..size {
            let v = if r < n && c % n == 0 {
                match latin[r * n + c / n] {
                    0 => 0,
                    l => (l as usize - 1) * n + 1,
                }
            } else {
                ((r % n) * n + r / n + c) % size + 1
            };
            cells.push(v as u16);
        }
    }
    let givens = Grid::from_cells(order, cells).expect("digits in 1..=N");
    Ok(Puzzle::new(givens, Variant::Classic))
}

/// The Latin square (row-major, symbols `1..=n`) read back from a Sudoku solution of a
/// puzzle made by [`latin_to_sudoku`].
pub fn sudoku_to_latin(solution: &Grid) -> Vec<u16> {
    let n = solution.order().n();
    let mut out = Vec::with_capacity(n * n);
    for r in 0..n {
        for p in 0..n {
            let d = solution.at(r, p * n);
            out.push(((d.max(1) as usize - 1) / n) as u16 + 1);
        }
    }
    out
}

/// What is wrong with a partial Latin square (or with a square claimed to complete one).
/// Rows and columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LatinError {
    /// A side the reduction cannot take: a Sudoku order runs from 2 to 16.
    #[error("side {0}: the reduction takes sides {min} to {max} (Sudoku orders)", min = Order::MIN, max = Order::MAX)]
    Side(usize),
    /// One run of symbols whose length is not a square number.
    #[error("{0} cells is not n² for a side n (write n² symbols, or n rows of n separated by `/` or blanks)")]
    NotSquare(usize),
    /// Rows of unequal length: `rows` rows need `rows` cells each.
    #[error(
        "row {row} has {len} cells; {rows} rows make a square of side {rows}, so {rows} cells each"
    )]
    Ragged {
        /// The row.
        row: usize,
        /// Its cells.
        len: usize,
        /// Rows given.
        rows: usize,
    },
    /// The wrong number of cells (a square given as numbers).
    #[error("a Latin square of side {side} has {} cells, {found} given", side * side)]
    Length {
        /// The side.
        side: usize,
        /// Cells given.
        found: usize,
    },
    /// A character that is no symbol.
    #[error(
        "row {row}, column {col}: {ch:?} is not a symbol (`.` or `0` empty, `1-9` then `A-Z`)"
    )]
    Char {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// The character.
        ch: char,
    },
    /// A symbol above the side.
    #[error("row {row}, column {col}: symbol {value} is out of range 1..={side}")]
    Symbol {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// The symbol.
        value: u16,
        /// The side.
        side: usize,
    },
    /// A symbol twice in a row or a column.
    #[error("symbol {value} is twice in {unit} {index} (at {first} and {second} along it)")]
    Repeat {
        /// The symbol.
        value: u16,
        /// `row` or `column`.
        unit: &'static str,
        /// Which row or column.
        index: usize,
        /// Its first place along the unit.
        first: usize,
        /// Its second place.
        second: usize,
    },
    /// A completion with an empty cell.
    #[error("row {row}, column {col} is empty")]
    Hole {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// A completion that changes a given symbol.
    #[error("row {row}, column {col} holds {found}, but the partial square gives {given}")]
    Changed {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// The given symbol.
        given: u16,
        /// The completion's.
        found: u16,
    },
}

/// A partial Latin square: side `n`, `n × n` row-major symbols `1..=n` (`0` empty), no symbol
/// twice in a row or a column, `n` a Sudoku order (so the reduction applies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatinSquare {
    n: usize,
    cells: Vec<u16>,
}

impl LatinSquare {
    /// Checks and keeps a partial square: side, length, symbols, no repeat.
    pub fn new(n: usize, cells: Vec<u16>) -> Result<LatinSquare, LatinError> {
        Order::new(n).map_err(|_| LatinError::Side(n))?;
        if cells.len() != n * n {
            return Err(LatinError::Length {
                side: n,
                found: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > n) {
            return Err(LatinError::Symbol {
                row: i / n + 1,
                col: i % n + 1,
                value: cells[i],
                side: n,
            });
        }
        let square = LatinSquare { n, cells };
        square.no_repeat()?;
        Ok(square)
    }

    /// The side `n`.
    pub fn side(&self) -> usize {
        self.n
    }

    /// The cells, row-major, `0` empty.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The empty cells.
    pub fn holes(&self) -> usize {
        self.cells.iter().filter(|&&v| v == 0).count()
    }

    /// The equivalent Sudoku puzzle ([`latin_to_sudoku`]).
    pub fn to_sudoku(&self) -> Puzzle {
        latin_to_sudoku(self.n, &self.cells)
            .expect("a LatinSquare has a Sudoku order and symbols 0..=n")
    }

    /// Is `full` a completion of this square: every cell filled, every row and column holding
    /// each symbol once, every given kept?
    pub fn check_completion(&self, full: &[u16]) -> Result<(), LatinError> {
        let completion = LatinSquare::new(self.n, full.to_vec())?;
        let n = self.n;
        for (i, (&given, &found)) in self.cells.iter().zip(&completion.cells).enumerate() {
            let (row, col) = (i / n + 1, i % n + 1);
            if found == 0 {
                return Err(LatinError::Hole { row, col });
            }
            if given != 0 && given != found {
                return Err(LatinError::Changed {
                    row,
                    col,
                    given,
                    found,
                });
            }
        }
        Ok(())
    }

    /// The first symbol twice in a row or a column.
    fn no_repeat(&self) -> Result<(), LatinError> {
        let n = self.n;
        for (unit, at) in [
            (
                "row",
                (|i, k, n| i * n + k) as fn(usize, usize, usize) -> usize,
            ),
            ("column", |i, k, n| k * n + i),
        ] {
            for i in 0..n {
                let mut seen = vec![0usize; n + 1];
                for k in 0..n {
                    let v = self.cells[at(i, k, n)];
                    if v == 0 {
                        continue;
                    }
                    if seen[v as usize] > 0 {
                        return Err(LatinError::Repeat {
                            value: v,
                            unit,
                            index: i + 1,
                            first: seen[v as usize],
                            second: k + 1,
                        });
                    }
                    seen[v as usize] = k + 1;
                }
            }
        }
        Ok(())
    }

    /// The completions of this square, counted by a plain search on the square itself (no
    /// Sudoku involved, so it checks the reduction independently): at most `limit`; `None`
    /// when `node_limit` cells were tried first.
    pub fn count_completions(&self, limit: u64, node_limit: u64) -> Option<u64> {
        let n = self.n;
        let mut rows = vec![0u32; n];
        let mut cols = vec![0u32; n];
        for (i, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                rows[i / n] |= 1 << v;
                cols[i % n] |= 1 << v;
            }
        }
        let mut search = Completions {
            n,
            cells: self.cells.clone(),
            rows,
            cols,
            found: 0,
            limit,
            nodes: 0,
            node_limit,
        };
        search.run().then_some(search.found)
    }
}

/// The state of [`LatinSquare::count_completions`]: bit `v` of `rows[r]` (`cols[c]`) is set when
/// symbol `v` is in row `r` (column `c`).
struct Completions {
    n: usize,
    cells: Vec<u16>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    found: u64,
    limit: u64,
    nodes: u64,
    node_limit: u64,
}

impl Completions {
    /// Counts from the current cells; false when the node limit ran out.
    fn run(&mut self) -> bool {
        if self.found >= self.limit {
            return true;
        }
        let n = self.n;
        let all = ((1u32 << (n + 1)) - 1) & !1;
        // The empty cell with the fewest free symbols.
        let mut best: Option<(usize, u32)> = None;
        for (i, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                continue;
            }
            let free = all & !(self.rows[i / n] | self.cols[i % n]);
            if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((i, free));
            }
        }
        let Some((i, free)) = best else {
            self.found += 1;
            return true;
        };
        let (r, c) = (i / n, i % n);
        for v in 1..=n as u16 {
            if free & (1 << v) == 0 {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.node_limit {
                return false;
            }
            self.cells[i] = v;
            self.rows[r] |= 1 << v;
            self.cols[c] |= 1 << v;
            let finished = self.run();
            self.cells[i] = 0;
            self.rows[r] &= !(1 << v);
            self.cols[c] &= !(1 << v);
            if !finished {
                return false;
            }
            if self.found >= self.limit {
                break;
            }
        }
        true
    }
}

/// One partial Latin square read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatinEntry {
    /// The square.
    pub square: LatinSquare,
    /// 1-based line.
    pub line: usize,
    /// The comment lines just above it, joined with `; ` (without the `#`).
    pub label: Option<String>,
}

/// A Latin-square file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LatinFileError {
    /// A line that is not a partial Latin square.
    #[error("{source_name}:{line}: {error}")]
    Line {
        /// The file.
        source_name: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        error: LatinError,
    },
    /// No square at all.
    #[error("{0}: no Latin square found (the file is empty or only comments)")]
    Empty(String),
}

/// Reads partial Latin squares, one a line: `n²` symbols row-major, or `n` rows of `n` symbols
/// separated by `/` or blanks (`12./.1./...`); `.` or `0` is an empty cell, `1-9` then `A-Z`
/// (either case) are 1..=35. A line starting with `#` is a comment, and the comments just
/// above a square are its label; a `#` later on a line starts a trailing comment. Errors name
/// `source`, the line and what is wrong.
pub fn parse_latin(text: &str, source: &str) -> Result<Vec<LatinEntry>, LatinFileError> {
    let mut out = Vec::new();
    let mut label: Vec<&str> = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(comment) = line.strip_prefix('#') {
            label.push(comment.trim());
            continue;
        }
        let body = line.split('#').next().unwrap_or_default().trim();
        if body.is_empty() {
            label.clear();
            continue;
        }
        let square = parse_square(body).map_err(|error| LatinFileError::Line {
            source_name: source.to_string(),
            line: k + 1,
            error,
        })?;
        out.push(LatinEntry {
            square,
            line: k + 1,
            label: (!label.is_empty()).then(|| label.join("; ")),
        });
        label.clear();
    }
    if out.is_empty() {
        return Err(LatinFileError::Empty(source.to_string()));
    }
    Ok(out)
}

/// One square from its text (no comment).
fn parse_square(body: &str) -> Result<LatinSquare, LatinError> {
    let rows: Vec<&str> = body
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|r| !r.is_empty())
        .collect();
    let n = match rows.as_slice() {
        [one] => {
            let len = one.chars().count();
            let n = (1..=len).find(|n| n * n >= len).unwrap_or(0);
            if n * n != len {
                return Err(LatinError::NotSquare(len));
            }
            n
        }
        many => many.len(),
    };
    Order::new(n).map_err(|_| LatinError::Side(n))?;
    let mut cells = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if rows.len() > 1 && len != n {
            return Err(LatinError::Ragged {
                row: r + 1,
                len,
                rows: n,
            });
        }
        for ch in row.chars() {
            let at = cells.len();
            let value = match ch {
                '.' | '0' => 0,
                c => c.to_digit(36).filter(|&d| d > 0).ok_or(LatinError::Char {
                    row: at / n + 1,
                    col: at % n + 1,
                    ch,
                })? as u16,
            };
            cells.push(value);
        }
    }
    LatinSquare::new(n, cells)
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::Rng as _;
    use sudoku_core::{rng_from_seed, verify_solution, Budget, Count, CountEnd, Solver};
    use sudoku_prop::Prop;

    use super::*;

    fn square(text: &str) -> LatinSquare {
        parse_square(text).unwrap()
    }

    fn error(text: &str) -> String {
        parse_latin(text, "sq.txt").unwrap_err().to_string()
    }

    #[test]
    fn squares_read_in_either_layout_with_labels() {
        let e = parse_latin(
            "# a\n.........\n\n12./..1/... # t\n 12.. ..1. .... .... \n",
            "f",
        )
        .unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].line, e[0].label.as_deref()), (2, Some("a")));
        assert_eq!(e[0].square.side(), 3);
        assert_eq!(e[0].square.holes(), 9);
        assert_eq!((e[1].line, e[1].label.as_deref()), (4, None));
        assert_eq!(e[1].square.cells(), [1, 2, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(e[2].square.side(), 4);
        assert_eq!(e[2].square.holes(), 13);
        // Letters are symbols past 9, either case.
        let s = square(&format!("9A{}a9{}", ".".repeat(10), ".".repeat(130)));
        assert_eq!(s.side(), 12);
        assert_eq!(&s.cells()[..2], [9, 10]);
    }

    #[test]
    fn bad_squares_name_the_file_line_and_fault() {
        for (text, want) in [
            ("........", "sq.txt:1: 8 cells is not n² for a side n"),
            (
                "# c\n\n12../....",
                "sq.txt:3: row 1 has 4 cells; 2 rows make a square of side 2",
            ),
            (
                ".........\n1.4......",
                "sq.txt:2: row 1, column 3: symbol 4 is out of range 1..=3",
            ),
            (
                "1.?......",
                "sq.txt:1: row 1, column 3: '?' is not a symbol",
            ),
            (
                "1.x......",
                "sq.txt:1: row 1, column 3: symbol 33 is out of range 1..=3",
            ),
            (
                "1.1......",
                "sq.txt:1: symbol 1 is twice in row 1 (at 1 and 3 along it)",
            ),
            (
                ".........\n.2./.../.2.",
                "sq.txt:2: symbol 2 is twice in column 2 (at 1 and 3 along it)",
            ),
            ("1", "sq.txt:1: side 1: the reduction takes sides 2 to 16"),
            ("# only a comment\n", "sq.txt: no Latin square found"),
        ] {
            let e = error(text);
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        assert_eq!(
            LatinSquare::new(3, vec![0; 8]),
            Err(LatinError::Length { side: 3, found: 8 })
        );
    }

    #[test]
    fn completions_are_checked_cell_by_cell() {
        let s = square("12./..1/...");
        assert_eq!(s.check_completion(&[1, 2, 3, 2, 3, 1, 3, 1, 2]), Ok(()));
        // Keeps the givens? (A valid Latin square, but not this one's completion.)
        assert_eq!(
            s.check_completion(&[2, 1, 3, 1, 3, 2, 3, 2, 1]),
            Err(LatinError::Changed {
                row: 1,
                col: 1,
                given: 1,
                found: 2
            })
        );
        assert_eq!(
            s.check_completion(&[1, 2, 3, 2, 3, 1, 3, 1, 0]),
            Err(LatinError::Hole { row: 3, col: 3 })
        );
        assert!(matches!(
            s.check_completion(&[1, 2, 3, 2, 3, 1, 3, 2, 1]),
            Err(LatinError::Repeat { unit: "column", .. })
        ));
        assert!(s.check_completion(&[1, 2, 3]).is_err());
    }

    #[test]
    fn the_counter_finds_the_known_numbers_of_latin_squares() {
        // Latin squares of side 2, 3, 4 and 5 (OEIS A002860: 2, 12, 576, 161280).
        for (n, count) in [(2, 2), (3, 12), (4, 576), (5, 161_280)] {
            let empty = LatinSquare::new(n, vec![0; n * n]).unwrap();
            assert_eq!(
                empty.count_completions(u64::MAX, u64::MAX),
                Some(count),
                "side {n}"
            );
        }
        let empty = LatinSquare::new(5, vec![0; 25]).unwrap();
        assert_eq!(empty.count_completions(1000, u64::MAX), Some(1000));
        assert_eq!(empty.count_completions(u64::MAX, 100), None);
        assert_eq!(
            square("12./..1/...").count_completions(10, u64::MAX),
            Some(1)
        );
        assert_eq!(
            square("1../..1/.2.").count_completions(10, u64::MAX),
            Some(0)
        );
    }

    /// Random partial squares (holes punched in a shuffled cyclic square): the reduced Sudoku
    /// has as many solutions as the square has completions, and each reads back as one.
    #[test]
    fn the_reduction_keeps_counts_and_reads_back_completions() {
        let mut rng = rng_from_seed(2);
        let budget = Budget::unlimited();
        for k in 0..40 {
            let n = 3 + k % 3;
            let mut perm: Vec<u16> = (1..=n as u16).collect();
            perm.shuffle(&mut rng);
            let mut cells: Vec<u16> = (0..n * n).map(|i| perm[(i / n + i % n) % n]).collect();
            let full = cells.clone();
            let keep = rng.random_range(0.0..0.6);
            for c in cells.iter_mut() {
                if rng.random_bool(1.0 - keep) {
                    *c = 0;
                }
            }
            // A given changed makes some squares infeasible.
            if k % 4 == 3 {
                if let Some(i) = cells.iter().position(|&v| v != 0) {
                    cells[i] = cells[i] % n as u16 + 1;
                }
            }
            let Ok(s) = LatinSquare::new(n, cells) else {
                continue;
            };
            let want = s.count_completions(2001, u64::MAX).unwrap();
            let p = s.to_sudoku();
            let out = Prop::default()
                .count(&p, Count::collecting(2001), &budget, &mut rng_from_seed(0))
                .unwrap();
            assert_eq!(out.count, want, "square {:?}", s.cells());
            if want <= 2000 {
                assert_eq!(out.end, CountEnd::Complete);
            }
            for g in &out.solutions {
                verify_solution(&p, g).unwrap();
                s.check_completion(&sudoku_to_latin(g)).unwrap();
            }
            if k % 4 != 3 {
                assert!(want >= 1, "{:?} comes from {full:?}", s.cells());
            }
        }
    }
}
