//! Sudoku as CNF. One variable `x(c, d)` says "cell `c` holds digit `d`"; the encodings differ in
//! which clauses they keep and which variables they drop (Lynce and Ouaknine's names):
//!
//! - [`Encoding::Minimal`]: every cell holds a digit, no unit holds a digit twice, and a unit
//!   clause per given. Enough for correctness; the solver derives the rest.
//! - [`Encoding::Extended`]: also at most one digit per cell and every digit somewhere in every
//!   unit (redundant clauses that make unit propagation stronger).
//! - [`Encoding::Optimised`]: the extended clauses, but only over the variables still open after
//!   the givens and unit propagation (naked and hidden singles, which is what unit propagation
//!   does on the extended encoding) have fixed what they can; fixed variables are dropped,
//!   so the solver starts on a much smaller formula.
//!
//! Clauses stream into a [`ClauseSink`] (the solver itself, or a [`Cnf`] kept in memory for
//! DIMACS output), so a 64×64 formula is never held twice.

use std::io::{self, Write};

use sudoku_core::{Geometry, Grid, Puzzle};

use crate::SatError;

/// Which clauses and variables the CNF has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Cell definedness and unit uniqueness, all variables, givens as unit clauses.
    Minimal,
    /// Minimal plus cell uniqueness and unit definedness.
    Extended,
    /// Extended over the variables that the givens and unit propagation leave open.
    Optimised,
}

impl Encoding {
    /// The name used in parameters and results.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Extended => "extended",
            Encoding::Optimised => "optimised",
        }
    }
}

/// How "at most one of these literals" is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amo {
    /// One binary clause per pair: k(k-1)/2 clauses, no new variables.
    Pairwise,
    /// Sinz's sequential counter: 3k-4 clauses and k-1 new variables; unit propagation
    /// still enforces it fully.
    Sequential,
    /// Pairwise up to [`AUTO_PAIRWISE_MAX`] literals, sequential above (pairwise at 64×64
    /// would be 33 million clauses and several GiB in the solver).
    Auto,
}

/// The largest group that [`Amo::Auto`] writes pairwise.
pub const AUTO_PAIRWISE_MAX: usize = 16;

/// Receives clauses as they are generated.
pub trait ClauseSink {
    /// Adds one clause (DIMACS literals, no terminating zero). An empty clause makes the
    /// formula unsatisfiable.
    fn add_clause(&mut self, lits: &[i32]);
}

/// A CNF kept in memory: literals of all clauses, each clause ended by 0 (as in DIMACS).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Every clause, each followed by a 0.
    pub lits: Vec<i32>,
    /// Number of clauses.
    pub clauses: usize,
}

impl ClauseSink for Cnf {
    fn add_clause(&mut self, lits: &[i32]) {
        self.lits.extend_from_slice(lits);
        self.lits.push(0);
        self.clauses += 1;
    }
}

impl Cnf {
    /// Writes the formula in DIMACS CNF with `vars` variables.
    pub fn write_dimacs(&self, vars: u32, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "p cnf {vars} {}", self.clauses)?;
        let mut line = String::new();
        for &l in &self.lits {
            line.push_str(&l.to_string());
            if l == 0 {
                line.push('\n');
                out.write_all(line.as_bytes())?;
                line.clear();
            } else {
                line.push(' ');
            }
        }
        Ok(())
    }
}

/// How the variables of a CNF map back to the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `N`, digits per cell.
    size: usize,
    /// Variable of (cell, digit - 1), row-major by cell; 0 where the variable was dropped.
    var: Vec<i32>,
    /// Digit known before solving (given, or fixed by propagation); 0 = open.
    pub fixed: Vec<u16>,
    /// Variables used, the auxiliary ones of the sequential counter included.
    pub vars: u32,
    /// Clauses emitted.
    pub clauses: u64,
    /// Propagation before solving found a contradiction (an empty clause was emitted).
    pub infeasible: bool,
}

impl Layout {
    /// The variable of `digit` (1-based) in `cell`, if the encoding has it.
    pub fn var(&self, cell: usize, digit: u16) -> Option<i32> {
        let d = usize::from(digit).checked_sub(1)?;
        match self.var.get(cell * self.size + d) {
            Some(&v) if v != 0 => Some(v),
            _ => None,
        }
    }

    /// Every (digit, variable) of `cell`.
    pub fn cell_vars(&self, cell: usize) -> impl Iterator<Item = (u16, i32)> + '_ {
        let row = &self.var[cell * self.size..(cell + 1) * self.size];
        row.iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(d, &v)| (d as u16 + 1, v))
    }

    /// The grid of a model (`value`: whether a variable is true): the fixed digits, and for
    /// each open cell the digit whose variable is true.
    pub fn decode(&self, order: sudoku_core::Order, value: impl Fn(i32) -> bool) -> Grid {
        let mut grid = Grid::empty(order);
        for (c, &f) in self.fixed.iter().enumerate() {
            let d = self
                .cell_vars(c)
                .find(|&(_, v)| value(v))
                .map_or(f, |(d, _)| d);
            grid.set(c, d);
        }
        grid
    }

    /// Cells whose digit the solver decides.
    pub fn open_cells(&self) -> usize {
        self.fixed.iter().filter(|&&d| d == 0).count()
    }
}

/// Emits the CNF of `puzzle` into `sink` and says how its variables map to cells.
pub fn encode(
    puzzle: &Puzzle,
    encoding: Encoding,
    amo: Amo,
    sink: &mut impl ClauseSink,
) -> Result<Layout, SatError> {
    encode_within(puzzle, None, encoding, amo, false, sink)
}

/// [`encode`], each open cell of `puzzle` limited to its list in `candidates` (indexed by
/// cell; an open cell with an empty list has no digit left, so the formula is infeasible):
/// what sound rules left, which keeps every solution. The optimised encoding drops the other
/// variables; the others keep them and add a unit clause against each. `boxline` adds the
/// box-line intersection clauses ([`emit_boxline`]).
pub(crate) fn encode_within(
    puzzle: &Puzzle,
    candidates: Option<&[Vec<u16>]>,
    encoding: Encoding,
    amo: Amo,
    boxline: bool,
    sink: &mut impl ClauseSink,
) -> Result<Layout, SatError> {
    let geom = puzzle.geometry();
    let n = geom.size();
    let cells = geom.cells();
    let total = (cells * n) as u64;
    // Keep room for the sequential counter's auxiliary variables (fewer than one per literal
    // per group, each literal being in at most 6 groups).
    if total.saturating_mul(7) > i32::MAX as u64 {
        return Err(SatError::TooManyVariables(total));
    }
    let givens = puzzle.givens().cells();
    let mut w = Writer {
        sink,
        amo,
        next: 0,
        clauses: 0,
        buf: Vec::new(),
    };
    let mut var = vec![0i32; cells * n];
    let (fixed, infeasible) = match encoding {
        Encoding::Minimal | Encoding::Extended => {
            for v in var.iter_mut() {
                *v = w.fresh();
            }
            let empty = |c: usize| candidates.is_some_and(|l| l[c].is_empty());
            let dead = (0..cells).any(|c| givens[c] == 0 && empty(c));
            (givens.to_vec(), dead)
        }
        Encoding::Optimised => {
            let mut cand = Candidates::new(&geom);
            let ok = cand.propagate(&geom, givens, candidates);
            if ok {
                for c in 0..cells {
                    if cand.fixed[c] == 0 {
                        for d in 0..n {
                            if cand.has(c, d) {
                                var[c * n + d] = w.fresh();
                            }
                        }
                    }
                }
            }
            (cand.fixed, !ok)
        }
    };
    let layout = Layout {
        size: n,
        var,
        fixed,
        vars: 0,
        clauses: 0,
        infeasible,
    };
    if infeasible {
        w.clause(&[]);
    } else {
        emit(&geom, &layout, encoding, candidates, &mut w);
        if boxline {
            emit_boxline(&geom, &layout, &mut w);
        }
    }
    Ok(Layout {
        vars: w.next as u32,
        clauses: w.clauses,
        ..layout
    })
}

/// The infeasible formula (one empty clause) for `puzzle`: when rules run before encoding
/// have already met a contradiction.
pub(crate) fn encode_infeasible(puzzle: &Puzzle, sink: &mut impl ClauseSink) -> Layout {
    sink.add_clause(&[]);
    let n = puzzle.geometry().size();
    Layout {
        size: n,
        var: vec![0; puzzle.geometry().cells() * n],
        fixed: puzzle.givens().cells().to_vec(),
        vars: 0,
        clauses: 1,
        infeasible: true,
    }
}

/// The clauses of `encoding` over the variables of `layout` (`candidates`: see
/// [`encode_within`]).
fn emit(
    geom: &Geometry,
    layout: &Layout,
    encoding: Encoding,
    candidates: Option<&[Vec<u16>]>,
    w: &mut Writer<'_, impl ClauseSink>,
) {
    let n = geom.size();
    let extended = encoding != Encoding::Minimal;
    let mut lits = Vec::with_capacity(n);
    for c in 0..geom.cells() {
        lits.clear();
        lits.extend(layout.cell_vars(c).map(|(_, v)| v));
        if lits.is_empty() {
            continue;
        }
        w.clause(&lits);
        if extended {
            w.at_most_one(&lits);
        }
    }
    for unit in geom.units() {
        for d in 1..=n as u16 {
            lits.clear();
            lits.extend(unit.iter().filter_map(|&c| layout.var(c as usize, d)));
            // Optimised: a digit placed in the unit has no variable left there.
            if lits.is_empty() {
                continue;
            }
            w.at_most_one(&lits);
            if extended {
                w.clause(&lits);
            }
        }
    }
    if encoding != Encoding::Optimised {
        for (c, &g) in layout.fixed.iter().enumerate() {
            if let Some(v) = layout.var(c, g) {
                w.clause(&[v]);
            }
        }
        for (c, keep) in candidates.into_iter().flatten().enumerate() {
            if layout.fixed[c] == 0 {
                for (d, v) in layout.cell_vars(c) {
                    if !keep.contains(&d) {
                        w.clause(&[-v]);
                    }
                }
            }
        }
    }
}

/// Redundant clauses over the box-line intersections. For each box, each row (or column)
/// through it and each digit, a literal `y` equivalent to "the digit is in their intersection"
/// (the cell's own variable when one cell of it is open to the digit; a new variable when
/// several are; none when no cell is). Exactly one `y` is true per box and digit among its
/// rows (and among its columns), and per line and digit among its boxes. Unit propagation
/// then does what locked candidates do: a box whose digit is left in one row takes it out of
/// that row's other boxes, and a row whose digit is left in one box takes it out of that box's
/// other rows. A unit where the digit is placed has no variable for it, so it gets no group.
fn emit_boxline(geom: &Geometry, layout: &Layout, w: &mut Writer<'_, impl ClauseSink>) {
    let n = geom.order().n();
    let size = geom.size();
    let mut lits = Vec::with_capacity(n);
    for d in 1..=size as u16 {
        for across in [true, false] {
            // y[b * n + k]: box b, its k-th row (across) or column.
            let mut y = vec![None; size * n];
            for b in 0..size {
                let (top, left) = (b / n * n, b % n * n);
                for k in 0..n {
                    lits.clear();
                    lits.extend((0..n).filter_map(|j| {
                        let (r, c) = if across {
                            (top + k, left + j)
                        } else {
                            (top + j, left + k)
                        };
                        layout.var(geom.cell(r, c), d)
                    }));
                    y[b * n + k] = match lits[..] {
                        [] => None,
                        [one] => Some(one),
                        _ => {
                            let v = w.fresh();
                            lits.push(-v);
                            w.clause(&lits);
                            lits.pop();
                            for &l in &lits {
                                w.clause(&[-l, v]);
                            }
                            Some(v)
                        }
                    };
                }
            }
            // Per box: its rows (or columns). Per line: the boxes it crosses, `band` being
            // its band (stack) and `k` its place in it.
            for b in 0..size {
                lits.clear();
                lits.extend((0..n).filter_map(|k| y[b * n + k]));
                w.exactly_one(&lits);
            }
            for band in 0..n {
                for k in 0..n {
                    lits.clear();
                    lits.extend((0..n).filter_map(|j| {
                        let b = if across { band * n + j } else { j * n + band };
                        y[b * n + k]
                    }));
                    w.exactly_one(&lits);
                }
            }
        }
    }
}

/// Numbers variables and writes clauses, at-most-one constraints included.
struct Writer<'a, S: ClauseSink> {
    sink: &'a mut S,
    amo: Amo,
    next: i32,
    clauses: u64,
    buf: Vec<i32>,
}

impl<S: ClauseSink> Writer<'_, S> {
    fn fresh(&mut self) -> i32 {
        self.next += 1;
        self.next
    }

    fn clause(&mut self, lits: &[i32]) {
        self.sink.add_clause(lits);
        self.clauses += 1;
    }

    /// At least one and at most one (nothing for an empty group).
    fn exactly_one(&mut self, lits: &[i32]) {
        if !lits.is_empty() {
            self.clause(lits);
            self.at_most_one(lits);
        }
    }

    fn at_most_one(&mut self, lits: &[i32]) {
        let pairwise = match self.amo {
            Amo::Pairwise => true,
            Amo::Sequential => false,
            Amo::Auto => lits.len() <= AUTO_PAIRWISE_MAX,
        };
        if lits.len() < 2 {
            return;
        }
        if pairwise {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause(&[-a, -b]);
                }
            }
            return;
        }
        // s_i: "one of lits[0..=i] is true".
        let k = lits.len();
        self.buf.clear();
        for _ in 0..k - 1 {
            let s = self.fresh();
            self.buf.push(s);
        }
        let s = std::mem::take(&mut self.buf);
        self.clause(&[-lits[0], s[0]]);
        for i in 1..k - 1 {
            self.clause(&[-lits[i], s[i]]);
            self.clause(&[-s[i - 1], s[i]]);
            self.clause(&[-lits[i], -s[i - 1]]);
        }
        self.clause(&[-lits[k - 1], -s[k - 2]]);
        self.buf = s;
    }
}

/// Candidate digits of every cell, reduced by naked and hidden singles to a fixpoint.
struct Candidates {
    n: usize,
    /// (cell, digit-1) still possible.
    cand: Vec<bool>,
    /// Candidates left per cell.
    cell_left: Vec<u32>,
    /// Places left per (unit, digit-1), the placed cell included.
    place_left: Vec<u32>,
    /// Digit placed per cell, 0 = open.
    fixed: Vec<u16>,
}

enum Task {
    Place(usize, usize),
    Cell(usize),
    UnitDigit(usize, usize),
}

impl Candidates {
    fn new(geom: &Geometry) -> Candidates {
        let n = geom.size();
        Candidates {
            n,
            cand: vec![true; geom.cells() * n],
            cell_left: vec![n as u32; geom.cells()],
            place_left: vec![n as u32; geom.unit_count() * n],
            fixed: vec![0; geom.cells()],
        }
    }

    fn has(&self, c: usize, d: usize) -> bool {
        self.cand[c * self.n + d]
    }

    /// Places the givens, limits the open cells to `candidates` (see [`encode_within`]) and
    /// propagates; false on a contradiction.
    fn propagate(
        &mut self,
        geom: &Geometry,
        givens: &[u16],
        candidates: Option<&[Vec<u16>]>,
    ) -> bool {
        let mut queue: Vec<Task> = givens
            .iter()
            .enumerate()
            .filter(|(_, &g)| g != 0)
            .map(|(c, &g)| Task::Place(c, usize::from(g) - 1))
            .collect();
        for (c, keep) in candidates.into_iter().flatten().enumerate() {
            if givens[c] == 0 {
                for d in 0..self.n {
                    if !keep.contains(&(d as u16 + 1)) {
                        self.eliminate(geom, c, d, &mut queue);
                    }
                }
            }
        }
        while let Some(task) = queue.pop() {
            let ok = match task {
                Task::Place(c, d) => self.place(geom, c, d, &mut queue),
                Task::Cell(c) => match self.cell_left[c] {
                    0 => false,
                    1 if self.fixed[c] == 0 => match (0..self.n).find(|&d| self.has(c, d)) {
                        Some(d) => self.place(geom, c, d, &mut queue),
                        None => false,
                    },
                    _ => true,
                },
                Task::UnitDigit(u, d) => match self.place_left[u * self.n + d] {
                    0 => false,
                    1 => {
                        let at = geom.unit(u).iter().map(|&c| c as usize);
                        match at.clone().find(|&c| self.has(c, d)) {
                            Some(c) if self.fixed[c] == 0 => self.place(geom, c, d, &mut queue),
                            Some(_) => true,
                            None => false,
                        }
                    }
                    _ => true,
                },
            };
            if !ok {
                return false;
            }
        }
        true
    }

    fn place(&mut self, geom: &Geometry, c: usize, d: usize, queue: &mut Vec<Task>) -> bool {
        if self.fixed[c] != 0 {
            return usize::from(self.fixed[c]) == d + 1;
        }
        if !self.has(c, d) {
            return false;
        }
        self.fixed[c] = d as u16 + 1;
        for e in 0..self.n {
            if e != d {
                self.eliminate(geom, c, e, queue);
            }
        }
        for &p in geom.peers(c) {
            self.eliminate(geom, p as usize, d, queue);
        }
        true
    }

    fn eliminate(&mut self, geom: &Geometry, c: usize, d: usize, queue: &mut Vec<Task>) {
        let i = c * self.n + d;
        if !self.cand[i] {
            return;
        }
        self.cand[i] = false;
        self.cell_left[c] -= 1;
        if self.cell_left[c] <= 1 {
            queue.push(Task::Cell(c));
        }
        for &u in geom.cell_units(c) {
            let j = u as usize * self.n + d;
            self.place_left[j] -= 1;
            if self.place_left[j] <= 1 {
                queue.push(Task::UnitDigit(u as usize, d));
            }
        }
    }
}
