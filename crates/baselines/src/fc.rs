//! `backtrack-fc`: backtracking with forward checking and minimum remaining values (the
//! textbook version Takano et al. takes from Skiena).

use sudoku_core::{DigitSet, Geometry, Puzzle};

use crate::control::{search_solver, Control, Search};

/// Backtracking with forward checking and the minimum-remaining-values heuristic.
///
/// Every empty cell keeps a candidate domain. Placing digit `d` removes `d` from the domains of
/// the empty cells sharing a unit with it (the removals go on a trail and are undone on
/// backtrack); the placement fails as soon as one of those domains becomes empty (forward
/// checking). The next cell is the empty cell with the smallest domain (MRV, first in
/// row-major order on ties, found by a scan). There is no further propagation: a cell left
/// with one candidate is not filled until MRV picks it.
///
/// A node is one digit placed; a guess is a cell chosen with more than one candidate.
#[derive(Debug, Default)]
pub struct ForwardChecking {
    _private: (),
}

impl ForwardChecking {
    /// A new solver.
    pub fn new() -> ForwardChecking {
        ForwardChecking::default()
    }
}

struct Frame<const W: usize> {
    cell: u32,
    left: DigitSet<W>,
    /// Trail length before this frame's current digit was placed.
    mark: usize,
    placed: bool,
}

struct State<'a, const W: usize> {
    geo: &'a Geometry,
    domain: Vec<DigitSet<W>>,
    grid: Vec<u16>,
    /// `free[depth..]` are the empty cells not yet filled.
    free: Vec<u32>,
    /// (cell, digit) removed from a domain, to put back on backtrack.
    trail: Vec<(u32, u16)>,
}

impl<const W: usize> State<'_, W> {
    /// Places `d` at `cell` and prunes the peers' domains; `false` on a wipeout (the removals
    /// made so far stay on the trail for the caller to undo).
    #[inline]
    fn place(&mut self, cell: usize, d: usize) -> bool {
        self.grid[cell] = d as u16;
        for &u in self.geo.cell_units(cell) {
            for &p in self.geo.unit(u as usize) {
                let p = p as usize;
                // A peer in two of the cell's units is seen twice; the second removal finds
                // nothing to remove.
                if self.grid[p] == 0 && self.domain[p].remove(d) {
                    self.trail.push((p as u32, d as u16));
                    if self.domain[p].is_empty() {
                        return false;
                    }
                }
            }
        }
        true
    }

    #[inline]
    fn undo(&mut self, cell: usize, mark: usize) {
        self.grid[cell] = 0;
        for (p, d) in self.trail.drain(mark..) {
            self.domain[p as usize].insert(d as usize);
        }
    }

    /// Moves the empty cell with the smallest domain to `free[depth]`.
    #[inline]
    fn pick(&mut self, depth: usize) -> DigitSet<W> {
        let mut best = depth;
        let mut best_len = usize::MAX;
        for j in depth..self.free.len() {
            let l = self.domain[self.free[j] as usize].len();
            if l < best_len {
                (best, best_len) = (j, l);
                if l <= 1 {
                    break;
                }
            }
        }
        self.free.swap(depth, best);
        self.domain[self.free[depth] as usize]
    }
}

fn run<const W: usize>(puzzle: &Puzzle, ctl: &mut Control) {
    let geo = puzzle.geometry();
    let givens = puzzle.givens().cells();
    let full = DigitSet::<W>::full(geo.size());
    let mut st = State::<W> {
        geo: &geo,
        domain: vec![full; givens.len()],
        grid: vec![0; givens.len()],
        free: (0..givens.len() as u32)
            .filter(|&c| givens[c as usize] == 0)
            .collect(),
        trail: Vec::new(),
    };
    // Place the givens through the same forward check: an empty cell left without candidates
    // proves the puzzle infeasible before any search.
    for (c, &d) in givens.iter().enumerate() {
        if d != 0 && !st.place(c, d as usize) {
            return;
        }
    }
    st.trail.clear();
    if st.free.is_empty() {
        ctl.solution(&st.grid);
        return;
    }
    let mut stack: Vec<Frame<W>> = Vec::with_capacity(st.free.len());
    let left = st.pick(0);
    if left.len() > 1 {
        ctl.guesses += 1;
    }
    stack.push(Frame {
        cell: st.free[0],
        left,
        mark: 0,
        placed: false,
    });
    while let Some(top) = stack.last_mut() {
        let cell = top.cell as usize;
        if top.placed {
            top.placed = false;
            let mark = top.mark;
            st.undo(cell, mark);
        }
        let Some(d) = top.left.first() else {
            stack.pop();
            continue;
        };
        top.left.remove(d);
        if !ctl.node() {
            return;
        }
        top.mark = st.trail.len();
        top.placed = true;
        if !st.place(cell, d) {
            continue;
        }
        let depth = stack.len();
        if depth == st.free.len() {
            if !ctl.solution(&st.grid) {
                return;
            }
            continue;
        }
        let left = st.pick(depth);
        if left.len() > 1 {
            ctl.guesses += 1;
        }
        stack.push(Frame {
            cell: st.free[depth],
            left,
            mark: 0,
            placed: false,
        });
    }
}

impl Search for ForwardChecking {
    fn search(&mut self, puzzle: &Puzzle, ctl: &mut Control) {
        sudoku_core::for_width!(puzzle.order(), W => run::<W>(puzzle, ctl))
    }
}

search_solver!(ForwardChecking, crate::FC);
