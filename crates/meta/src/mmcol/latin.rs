//! `mmcol::latin`: Latin square completion, the problem MMCOL was made for: partial Latin
//! squares of any side up to 128 (the runner's Latin squares become Sudokus and stop at side
//! 16), the paper's kernelization of their list-colouring graph, and quasigroups with holes
//! made as the generators of the benchmarks make them (a random complete square, then holes
//! punched at random), so that MMCOL can be checked on its own problem before its Sudoku
//! adaptation is judged.

use rand::seq::SliceRandom as _;
use rand::Rng as _;
use sudoku_core::Rng;

use crate::propagate::Contradiction;
use crate::tabu::ListGraph;

/// The largest side: candidates are kept as 128-bit sets.
pub const MAX_SIDE: usize = 128;

/// A partial Latin square that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LatinError {
    /// The side is outside 1..=[`MAX_SIDE`].
    #[error("side {0} is outside 1..={MAX_SIDE}")]
    Side(usize),
    /// The cells are not side² many.
    #[error("{found} cells for side {side} (want {})", side * side)]
    Length {
        /// The side.
        side: usize,
        /// The cells given.
        found: usize,
    },
    /// A symbol above the side.
    #[error("symbol {value} at r{row}c{col} is above the side {side}")]
    Symbol {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// The symbol.
        value: u8,
        /// The side.
        side: usize,
    },
    /// A symbol twice in a row or a column.
    #[error("symbol {value} twice in {unit} {index}")]
    Repeat {
        /// The symbol.
        value: u8,
        /// `row` or `column`.
        unit: &'static str,
        /// Which, from 1.
        index: usize,
    },
    /// A completion leaves a cell empty.
    #[error("r{row}c{col} is empty")]
    Hole {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
    },
    /// A completion changes a given.
    #[error("r{row}c{col} holds {found}, the given is {given}")]
    Changed {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// The given symbol.
        given: u8,
        /// The completion's.
        found: u8,
    },
}

/// A partial Latin square: side `n`, `n × n` row-major symbols `1..=n` (`0` empty), no symbol
/// twice in a row or a column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialLatin {
    side: usize,
    cells: Vec<u8>,
}

impl PartialLatin {
    /// Checks and keeps a partial square.
    pub fn new(side: usize, cells: Vec<u8>) -> Result<PartialLatin, LatinError> {
        if side == 0 || side > MAX_SIDE {
            return Err(LatinError::Side(side));
        }
        if cells.len() != side * side {
            return Err(LatinError::Length {
                side,
                found: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > side) {
            return Err(LatinError::Symbol {
                row: i / side + 1,
                col: i % side + 1,
                value: cells[i],
                side,
            });
        }
        for (unit, col) in [("row", false), ("column", true)] {
            for i in 0..side {
                let mut seen = 0u128;
                for k in 0..side {
                    let v = cells[if col { k * side + i } else { i * side + k }];
                    if v == 0 {
                        continue;
                    }
                    let bit = 1u128 << (v - 1);
                    if seen & bit != 0 {
                        return Err(LatinError::Repeat {
                            value: v,
                            unit,
                            index: i + 1,
                        });
                    }
                    seen |= bit;
                }
            }
        }
        Ok(PartialLatin { side, cells })
    }

    /// The side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The cells, row-major, `0` empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The empty cells.
    pub fn holes(&self) -> usize {
        self.cells.iter().filter(|&&v| v == 0).count()
    }

    /// Is `full` a completion: every cell filled, each symbol once per row and column, the
    /// givens kept?
    pub fn check_completion(&self, full: &[u8]) -> Result<(), LatinError> {
        let done = PartialLatin::new(self.side, full.to_vec())?;
        for (i, (&given, &found)) in self.cells.iter().zip(&done.cells).enumerate() {
            let (row, col) = (i / self.side + 1, i % self.side + 1);
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
}

/// The square after the kernelization, and the list-colouring graph of what it leaves open.
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    /// The givens plus every cell the rules fixed.
    pub(crate) cells: Vec<u8>,
    /// Cells fixed by each rule: one candidate left; a symbol with one place in a row or column.
    pub(crate) single: usize,
    pub(crate) unique: usize,
    pub(crate) graph: ListGraph,
}

/// The kernelization of Jin and Hao: two rules applied until neither does. A cell with one
/// candidate left takes it; a symbol with one place left in a row or a column takes it. Each
/// fixed cell leaves the graph and takes its symbol from the lists of its row and column. A
/// cell with no candidate, or a symbol with no place in a row or column, proves that the
/// square has no completion.
pub(crate) fn kernelize(square: &PartialLatin) -> Result<Kernel, Contradiction> {
    let n = square.side;
    let all = if n == 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    };
    let mut cells = square.cells.clone();
    let (mut row, mut col) = (vec![0u128; n], vec![0u128; n]);
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            row[i / n] |= 1 << (v - 1);
            col[i % n] |= 1 << (v - 1);
        }
    }
    let (mut single, mut unique) = (0, 0);
    let place = |cells: &mut Vec<u8>, row: &mut Vec<u128>, col: &mut Vec<u128>, i, d| {
        cells[i] = d as u8 + 1;
        row[i / n] |= 1u128 << d;
        col[i % n] |= 1u128 << d;
    };
    loop {
        let mut changed = false;
        for i in 0..n * n {
            if cells[i] != 0 {
                continue;
            }
            let cand = all & !(row[i / n] | col[i % n]);
            if cand == 0 {
                return Err(Contradiction::EmptyCell { cell: i, size: n });
            }
            if cand.count_ones() == 1 {
                place(&mut cells, &mut row, &mut col, i, cand.trailing_zeros());
                single += 1;
                changed = true;
            }
        }
        // Units 0..n are the rows, n..2n the columns.
        for unit in 0..2 * n {
            let at = |k: usize| {
                if unit < n {
                    unit * n + k
                } else {
                    k * n + (unit - n)
                }
            };
            let used = if unit < n { row[unit] } else { col[unit - n] };
            let mut missing = all & !used;
            while missing != 0 {
                let d = missing.trailing_zeros();
                missing &= missing - 1;
                let bit = 1u128 << d;
                let (mut first, mut more) = (None, false);
                for i in (0..n).map(at) {
                    if cells[i] == 0 && (row[i / n] | col[i % n]) & bit == 0 {
                        if first.is_some() {
                            more = true;
                            break;
                        }
                        first = Some(i);
                    }
                }
                let Some(first) = first else {
                    return Err(Contradiction::NoPlace {
                        unit,
                        digit: d as usize + 1,
                    });
                };
                if !more {
                    place(&mut cells, &mut row, &mut col, first, d);
                    unique += 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut vertex = vec![u32::MAX; n * n];
    let cell: Vec<u32> = (0..(n * n) as u32)
        .filter(|&i| cells[i as usize] == 0)
        .collect();
    for (v, &c) in cell.iter().enumerate() {
        vertex[c as usize] = v as u32;
    }
    let (mut slot_at, mut digit) = (vec![0u32], Vec::new());
    let (mut adj_at, mut adj) = (vec![0u32], Vec::new());
    for &c in &cell {
        let (r, k) = (c as usize / n, c as usize % n);
        let mut cand = all & !(row[r] | col[k]);
        while cand != 0 {
            digit.push(cand.trailing_zeros() as u8);
            cand &= cand - 1;
        }
        slot_at.push(digit.len() as u32);
        for j in (0..n).filter(|&j| j != k) {
            let u = vertex[r * n + j];
            if u != u32::MAX {
                adj.push(u);
            }
        }
        for j in (0..n).filter(|&j| j != r) {
            let u = vertex[j * n + k];
            if u != u32::MAX {
                adj.push(u);
            }
        }
        adj_at.push(adj.len() as u32);
    }
    Ok(Kernel {
        cells,
        single,
        unique,
        graph: ListGraph {
            size: n,
            cell,
            slot_at,
            digit,
            adj_at,
            adj,
        },
    })
}

/// A uniformly random Latin square of side `n` (symbols `1..=n`, row-major), by the Markov
/// chain of Jacobson and Matthews (1996) run `moves` steps from the cyclic square; about `n³`
/// steps mix it (the QWH generators of Gomes et al. and Achlioptas et al. draw their squares
/// this way).
pub fn random_latin(n: usize, moves: u64, rng: &mut Rng) -> Vec<u8> {
    assert!(
        (1..=MAX_SIDE).contains(&n),
        "side {n} outside 1..={MAX_SIDE}"
    );
    // The incidence cube: m[(r·n + c)·n + s] is 1 when cell (r, c) holds s; an improper square
    // has exactly one entry -1, at `bad`.
    let mut m = vec![0i8; n * n * n];
    let at = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
    for r in 0..n {
        for c in 0..n {
            m[at(r, c, (r + c) % n)] = 1;
        }
    }
    if n == 1 {
        // The one square of side 1; the chain needs an empty triple to move.
        return vec![1];
    }
    let mut bad: Option<(usize, usize, usize)> = None;
    // The one (or, at an improper triple, one of the two) positive entry on a line.
    let pick = |m: &[i8], line: &dyn Fn(usize) -> usize, rng: &mut Rng| -> usize {
        let ones: Vec<usize> = (0..n).filter(|&k| m[line(k)] == 1).collect();
        ones[rng.random_range(0..ones.len())]
    };
    for _ in 0..moves {
        let (r, c, s) = match bad {
            Some(t) => t,
            None => loop {
                let (r, c, s) = (
                    rng.random_range(0..n),
                    rng.random_range(0..n),
                    rng.random_range(0..n),
                );
                if m[at(r, c, s)] == 0 {
                    break (r, c, s);
                }
            },
        };
        let s2 = pick(&m, &|k| at(r, c, k), rng);
        let r2 = pick(&m, &|k| at(k, c, s), rng);
        let c2 = pick(&m, &|k| at(r, k, s), rng);
        for (i, d) in [
            (at(r, c, s), 1),
            (at(r, c2, s2), 1),
            (at(r2, c, s2), 1),
            (at(r2, c2, s), 1),
            (at(r, c, s2), -1),
            (at(r, c2, s), -1),
            (at(r2, c, s), -1),
            (at(r2, c2, s2), -1),
        ] {
            m[i] += d;
        }
        bad = (m[at(r2, c2, s2)] < 0).then_some((r2, c2, s2));
    }
    // Finish on a proper square: an improper one is a step or a few from one.
    while let Some((r, c, s)) = bad {
        let s2 = pick(&m, &|k| at(r, c, k), rng);
        let r2 = pick(&m, &|k| at(k, c, s), rng);
        let c2 = pick(&m, &|k| at(r, k, s), rng);
        for (i, d) in [
            (at(r, c, s), 1),
            (at(r, c2, s2), 1),
            (at(r2, c, s2), 1),
            (at(r2, c2, s), 1),
            (at(r, c, s2), -1),
            (at(r, c2, s), -1),
            (at(r2, c, s), -1),
            (at(r2, c2, s2), -1),
        ] {
            m[i] += d;
        }
        bad = (m[at(r2, c2, s2)] < 0).then_some((r2, c2, s2));
    }
    (0..n * n)
        .map(|i| {
            let s = (0..n)
                .find(|&s| m[i * n + s] == 1)
                .expect("a proper square");
            s as u8 + 1
        })
        .collect()
}

/// A quasigroup with holes: a random Latin square of side `n` ([`random_latin`], `n³` moves)
/// with `holes` cells, chosen uniformly at random, emptied (the random model of the QWH
/// generators). It has at least one completion, the square it came from, which is returned
/// beside it.
pub fn quasigroup_with_holes(n: usize, holes: usize, rng: &mut Rng) -> (PartialLatin, Vec<u8>) {
    let full = random_latin(n, (n * n * n) as u64, rng);
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cells = full.clone();
    for &i in order.iter().take(holes.min(n * n)) {
        cells[i] = 0;
    }
    let square = PartialLatin::new(n, cells).expect("holes in a Latin square");
    (square, full)
}
