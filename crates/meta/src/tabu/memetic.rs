//! `tabu::memetic`: what `mmcol` (`crate::mmcol`) needs of a [`TabuSearch`] beside its step:
//! reading and loading whole assignments, a tabu descent of a given depth, a fresh start, and
//! the clashes of a colour against a partial assignment (the crossover's fill). Apart from the
//! state so that the books stay private to the tabu module.

use rand::Rng as _;
use sudoku_core::{Grid, Rng};

use super::state::TabuSearch;

impl TabuSearch {
    /// The colours of vertex `v`, as slots (indices into [`TabuSearch::slot_digit`]).
    pub(crate) fn slot_range(&self, v: usize) -> std::ops::Range<u32> {
        self.slots(v)
    }

    /// The digit (0-based) of slot `s`.
    pub(crate) fn slot_digit(&self, s: u32) -> u8 {
        self.digit[s as usize]
    }

    /// The current assignment: the slot of each vertex.
    pub(crate) fn assignment(&self) -> &[u32] {
        &self.colour
    }

    /// The best assignment since the last [`TabuSearch::load`].
    pub(crate) fn best_assignment(&self) -> &[u32] {
        &self.best
    }

    /// Makes `colours` the current and best assignment, with an empty tabu list.
    pub(crate) fn load(&mut self, colours: &[u32]) {
        self.restart_from(colours);
    }

    /// The clashing pairs of an assignment.
    pub(crate) fn cost_of(&mut self, colours: &[u32]) -> u64 {
        let mut twice = 0u64;
        for v in 0..self.cell.len() {
            let mine = colours[v];
            self.each_same_digit(v, mine, |_, u, slot, _| {
                if colours[u as usize] == slot {
                    twice += 1;
                }
            });
        }
        twice / 2
    }

    /// TabuCol from the current assignment until the cost is 0, or `depth` steps in a row
    /// bring no cost below the best of this descent, or `stop` (asked after every step with the
    /// steps made so far in all) says so. Returns the steps it made.
    pub(crate) fn descend(
        &mut self,
        depth: u64,
        rng: &mut Rng,
        stop: &mut impl FnMut(u64) -> bool,
    ) -> u64 {
        let start = self.steps;
        let (mut low, mut since) = (self.best_cost, self.steps);
        while self.cost > 0 {
            self.step(rng);
            if self.best_cost < low {
                (low, since) = (self.best_cost, self.steps);
            } else if self.steps - since >= depth {
                break;
            }
            if stop(self.steps) {
                break;
            }
        }
        self.steps - start
    }

    /// A new start, as the search's own greedy start makes one (fewest candidates first, each
    /// cell the digit that clashes least with those placed), or each vertex a random colour of
    /// its list. It becomes the current and best assignment.
    pub(crate) fn new_start(&mut self, greedy: bool, rng: &mut Rng) -> Vec<u32> {
        if greedy {
            self.clash.iter_mut().for_each(|c| *c = 0);
            self.count.iter_mut().for_each(|c| *c = 0);
            self.best_cost = u64::MAX;
            self.greedy_start(rng);
            let start = self.colour.clone();
            self.restart_from(&start);
            start
        } else {
            let start: Vec<u32> = (0..self.cell.len())
                .map(|v| {
                    let r = self.slots(v);
                    rng.random_range(r)
                })
                .collect();
            self.restart_from(&start);
            start
        }
    }

    /// How many of `v`'s neighbours already placed (`placed`) hold the digit of `v`'s slot `s`
    /// in `colours`.
    pub(crate) fn clashes_with(
        &mut self,
        v: usize,
        s: u32,
        colours: &[u32],
        placed: &[bool],
    ) -> u32 {
        let mut k = 0;
        self.each_same_digit(v, s, |_, u, slot, _| {
            if placed[u as usize] && colours[u as usize] == slot {
                k += 1;
            }
        });
        k
    }

    /// What turns an assignment back into a grid or a square, without the search's books.
    pub(crate) fn reader(&self) -> Reader {
        Reader {
            fixed: self.fixed_grid().cloned(),
            cell: self.cell.clone(),
            digit: self.digit.clone(),
        }
    }
}

/// The vertices' cells and the slots' digits of a search ([`TabuSearch::reader`]).
#[derive(Clone, Debug)]
pub(crate) struct Reader {
    fixed: Option<Grid>,
    cell: Vec<u32>,
    digit: Vec<u8>,
}

impl Reader {
    /// `colours` as a grid; `None` for a search not built from a puzzle.
    pub(crate) fn grid(&self, colours: &[u32]) -> Option<Grid> {
        let mut grid = self.fixed.clone()?;
        for (&c, &s) in self.cell.iter().zip(colours) {
            grid.set(c as usize, self.digit[s as usize] as u16 + 1);
        }
        Some(grid)
    }

    /// Each vertex's cell (row-major) and the symbol (from 1) `colours` gives it.
    pub(crate) fn cells<'a>(
        &'a self,
        colours: &'a [u32],
    ) -> impl Iterator<Item = (usize, u8)> + 'a {
        self.cell
            .iter()
            .zip(colours)
            .map(|(&c, &s)| (c as usize, self.digit[s as usize] + 1))
    }
}
