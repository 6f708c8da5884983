//! Norvig's constraint propagation and search ("Solving Every Sudoku Puzzle", 2006), kept
//! faithful as the reference that Takano et al. improves on.
//!
//! State: one candidate set per cell. Assigning `d` to a cell eliminates every other digit
//! from it; eliminating a digit applies two rules: (1) a cell left with one candidate has it
//! eliminated from all its peers; (2) a unit of the cell left with one place for the digit
//! assigns it there. Search: depth first on the cell with the fewest candidates (found by a
//! scan), trying digits in increasing order, copying the whole state per branch.
//!
//! The one departure from the original: the mutual recursion of `assign`/`eliminate` runs on
//! an explicit work stack, so large orders cannot overflow the call stack. The rules and their
//! fixpoint (hence the search tree and node counts) are the same.

use sudoku_core::{Budget, DigitSet, Geometry, Grid, Limit, Order, Puzzle, Stats, Variant};

use crate::kernel::deadline_for;
use crate::search::{Engine, OnSolution, SearchEnd};

/// One pending step of propagation.
#[derive(Clone, Copy)]
enum Step {
    /// Remove digit from cell.
    Eliminate(u32, u16),
    /// Keep only digit in cell.
    Assign(u32, u16),
}

/// Geometry copied into flat tables once per (order, variant).
struct Tables {
    order: Order,
    variant: Variant,
    geo: std::sync::Arc<Geometry>,
}

/// Norvig's propagator, generic over the candidate-set width.
pub(crate) struct NorvigEngine<const W: usize> {
    t: Tables,
    work: Vec<Step>,
    pub(crate) stats: Stats,
}

/// A search frame: the state before branching, the cell, and the digits left to try.
struct Frame<const W: usize> {
    values: Vec<DigitSet<W>>,
    cell: usize,
    rest: DigitSet<W>,
}

impl<const W: usize> NorvigEngine<W> {
    pub(crate) fn new(order: Order, variant: Variant) -> Self {
        let geo = Geometry::get(order, variant);
        // Build the peer lists now, not inside the first timed search.
        let _ = geo.peers(0);
        NorvigEngine {
            t: Tables {
                order,
                variant,
                geo,
            },
            work: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// Runs the work stack to its fixpoint; false on a contradiction.
    fn propagate(&mut self, values: &mut [DigitSet<W>]) -> bool {
        let geo = &*self.t.geo;
        while let Some(step) = self.work.pop() {
            match step {
                Step::Assign(s, d) => {
                    // Eliminating every other digit; if `d` is gone already this empties
                    // the cell, which is the contradiction it should be.
                    for d2 in values[s as usize].iter() {
                        if d2 != d as usize {
                            self.work.push(Step::Eliminate(s, d2 as u16));
                        }
                    }
                    if !values[s as usize].contains(d as usize) {
                        return false;
                    }
                }
                Step::Eliminate(s, d) => {
                    let s = s as usize;
                    if !values[s].remove(d as usize) {
                        continue;
                    }
                    // Rule 1: no candidate is a contradiction; one candidate leaves the peers.
                    match values[s].len() {
                        0 => return false,
                        1 => {
                            let d2 = values[s].first().unwrap_or(0) as u16;
                            for &p in geo.peers(s) {
                                self.work.push(Step::Eliminate(p, d2));
                            }
                        }
                        _ => {}
                    }
                    // Rule 2: a unit with one place left for `d` puts it there.
                    for &u in geo.cell_units(s) {
                        let mut places = 0;
                        let mut at = 0;
                        for &c in geo.unit(u as usize) {
                            if values[c as usize].contains(d as usize) {
                                places += 1;
                                at = c;
                            }
                        }
                        match places {
                            0 => return false,
                            1 => self.work.push(Step::Assign(at, d)),
                            _ => {}
                        }
                    }
                }
            }
        }
        true
    }

    /// Assigns `d` to `s` and propagates.
    fn assign(&mut self, values: &mut [DigitSet<W>], s: usize, d: usize) -> bool {
        self.work.clear();
        self.work.push(Step::Assign(s as u32, d as u16));
        self.propagate(values)
    }
}

impl<const W: usize> Engine for NorvigEngine<W> {
    fn fits(&self, order: Order, variant: Variant) -> bool {
        self.t.order == order && self.t.variant == variant
    }

    fn stats(&mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }

    fn run(&mut self, puzzle: &Puzzle, budget: &Budget, on_solution: OnSolution) -> SearchEnd {
        self.stats = Stats::default();
        let order = self.t.order;
        let size = order.size();
        let mut deadline = deadline_for(budget, order);
        let mut values = vec![DigitSet::<W>::full(size); order.cells()];
        self.stats.nodes = 1;
        for (s, &d) in puzzle.givens().cells().iter().enumerate() {
            if d != 0 && !self.assign(&mut values, s, d as usize) {
                return SearchEnd::Complete;
            }
        }
        let mut frames: Vec<Frame<W>> = Vec::new();
        // `current` is the state to examine next, already propagated without contradiction.
        let mut current = Some(values);
        loop {
            if let Some(values) = current.take() {
                // The cell with the fewest candidates (more than one), by a scan.
                let mut best: Option<(usize, usize)> = None;
                for (s, v) in values.iter().enumerate() {
                    let k = v.len();
                    if k > 1 && best.is_none_or(|(bk, _)| k < bk) {
                        best = Some((k, s));
                    }
                }
                match best {
                    None => {
                        let cells = values
                            .iter()
                            .map(|v| v.first().unwrap_or(0) as u16)
                            .collect();
                        // Every cell holds one digit consistent with its peers: a solution.
                        if let Ok(g) = Grid::from_cells(order, cells) {
                            if !on_solution(g) {
                                return SearchEnd::Stopped;
                            }
                        }
                    }
                    Some((_, s)) => {
                        self.stats.guesses += 1;
                        let rest = values[s];
                        frames.push(Frame {
                            values,
                            cell: s,
                            rest,
                        });
                    }
                }
            }
            // Try the next digit of the innermost open branch.
            let Some(f) = frames.last_mut() else {
                return SearchEnd::Complete;
            };
            let Some(d) = f.rest.first() else {
                frames.pop();
                continue;
            };
            f.rest.remove(d);
            if let Some(limit) = budget.nodes {
                if self.stats.nodes >= limit {
                    return SearchEnd::Exhausted(Limit::Nodes);
                }
            }
            if deadline.expired() {
                return SearchEnd::Exhausted(Limit::Time);
            }
            self.stats.nodes += 1;
            let cell = f.cell;
            // Faithful to the original: a fresh copy of the whole state per branch.
            let mut child = f.values.clone();
            if f.rest.is_empty() {
                frames.pop();
            }
            if self.assign(&mut child, cell, d) {
                current = Some(child);
            }
        }
    }
}
