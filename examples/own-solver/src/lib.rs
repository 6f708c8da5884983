//! A Sudoku method of your own, outside the sudoku-bench workspace: `mrv`, a depth-first
//! search that fills the empty cell with the fewest candidates first (minimum remaining
//! values), the candidates of a cell kept as one 64-bit word per unit. It implements
//! `sudoku_core::Solver` and describes itself as a `MethodInfo` ([`methods`]); the program of
//! this crate (`src/main.rs`) registers it beside the built-in methods and runs an experiment
//! file that names it. Every answer it gives is verified by the runner, like any method's.

use std::sync::Arc;

use sudoku_core::{
    Budget, Capabilities, Deadline, Geometry, Grid, Limit, MethodInfo, Order, Outcome, ParamError,
    Params, Puzzle, Rng, Solver, Stats, Status,
};

/// The name experiment files give the method.
pub const NAME: &str = "mrv";

/// The method's entry for the registry: its name, a line about it, its parameters (none),
/// what it can do, and how to build it.
pub fn methods() -> Vec<MethodInfo> {
    vec![MethodInfo {
        name: NAME,
        summary: "an example from outside the workspace: depth-first search, fewest candidates first (examples/own-solver)",
        params: &[],
        caps: Capabilities {
            // It proves infeasibility (the search is exhaustive) but does not count.
            complete: false,
            thread_safe: true,
            randomized: false,
        },
        build,
    }]
}

fn build(params: &Params) -> Result<Box<dyn Solver + Send>, ParamError> {
    params.check_known(NAME, &[])?;
    Ok(Box::new(Mrv))
}

/// The solver: it keeps nothing between puzzles.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mrv;

impl Solver for Mrv {
    fn name(&self) -> &str {
        NAME
    }

    /// A digit set is one 64-bit word: grids up to 64×64 (order 8).
    fn check_order(&self, order: Order) -> Result<(), ParamError> {
        if order.size() > 64 {
            return Err(ParamError::Invalid {
                key: "order".into(),
                value: order.to_string(),
                expected: "a grid of at most 64×64 (mrv keeps a digit set in one 64-bit word)"
                    .into(),
            });
        }
        Ok(())
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, _rng: &mut Rng) -> Outcome {
        let mut stats = Stats::default();
        let status = match Search::new(puzzle) {
            None if puzzle.order().size() > 64 => Status::Exhausted {
                limit: Limit::Nodes,
                best: None,
            },
            // Two equal digits in a unit: no solution.
            None => Status::Infeasible,
            Some(mut s) => {
                let mut deadline = Deadline::new(budget, 256);
                match s.fill(budget.nodes, &mut deadline, &mut stats) {
                    Ok(true) => Status::Solved(s.grid),
                    Ok(false) => Status::Infeasible,
                    Err(limit) => Status::Exhausted { limit, best: None },
                }
            }
        };
        Outcome { status, stats }
    }
}

/// The search's state: the grid, and per unit the digits it holds (bit d − 1 for digit d).
struct Search {
    grid: Grid,
    geo: Arc<Geometry>,
    used: Vec<u64>,
    all: u64,
}

impl Search {
    /// The state of `puzzle`'s givens; `None` when two givens clash in a unit (or the grid is
    /// too large for one word per digit set).
    fn new(puzzle: &Puzzle) -> Option<Search> {
        let size = puzzle.order().size();
        if size > 64 {
            return None;
        }
        let geo = puzzle.geometry();
        let grid = puzzle.givens().clone();
        let mut used = vec![0u64; geo.unit_count()];
        for c in 0..grid.cells().len() {
            let d = grid.get(c);
            if d == 0 {
                continue;
            }
            let bit = 1u64 << (d - 1);
            for &u in geo.cell_units(c) {
                if used[u as usize] & bit != 0 {
                    return None;
                }
                used[u as usize] |= bit;
            }
        }
        let all = if size == 64 {
            u64::MAX
        } else {
            (1 << size) - 1
        };
        Some(Search {
            grid,
            geo,
            used,
            all,
        })
    }

    /// The digits cell `c` may take.
    fn candidates(&self, c: usize) -> u64 {
        let taken = self
            .geo
            .cell_units(c)
            .iter()
            .fold(0, |m, &u| m | self.used[u as usize]);
        self.all & !taken
    }

    /// Puts digit `d` in cell `c`.
    fn place(&mut self, c: usize, d: u16) {
        self.grid.set(c, d);
        for &u in self.geo.cell_units(c) {
            self.used[u as usize] |= 1 << (d - 1);
        }
    }

    /// Takes digit `d` out of cell `c` again.
    fn take(&mut self, c: usize, d: u16) {
        self.grid.set(c, 0);
        for &u in self.geo.cell_units(c) {
            self.used[u as usize] &= !(1 << (d - 1));
        }
    }

    /// Fills the grid: `Ok(true)` solved, `Ok(false)` no solution, `Err` a limit ran out.
    fn fill(
        &mut self,
        nodes: Option<u64>,
        deadline: &mut Deadline,
        stats: &mut Stats,
    ) -> Result<bool, Limit> {
        // The empty cell with the fewest candidates.
        let mut best: Option<(usize, u64)> = None;
        for c in 0..self.grid.cells().len() {
            if self.grid.get(c) != 0 {
                continue;
            }
            let cand = self.candidates(c);
            if best.is_none_or(|(_, b)| cand.count_ones() < b.count_ones()) {
                best = Some((c, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, mut cand)) = best else {
            return Ok(true);
        };
        if cand.count_ones() > 1 {
            stats.guesses += 1;
        }
        while cand != 0 {
            if nodes.is_some_and(|n| stats.nodes >= n) {
                return Err(Limit::Nodes);
            }
            if deadline.expired() {
                return Err(Limit::Time);
            }
            stats.nodes += 1;
            let d = cand.trailing_zeros() as u16 + 1;
            cand &= cand - 1;
            self.place(cell, d);
            if self.fill(nodes, deadline, stats)? {
                return Ok(true);
            }
            self.take(cell, d);
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use sudoku_core::{format, rng_from_seed, verify_solution, Variant};

    use super::*;

    /// The first puzzle of `text`, a classic one.
    fn puzzle(text: &str) -> Puzzle {
        let first = format::parse_str(text, "t").unwrap().remove(0);
        Puzzle::new(first.grid, Variant::Classic)
    }

    #[test]
    fn solves_and_proves_infeasibility() {
        let p = puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let out = Mrv.solve(&p, &Budget::unlimited(), &mut rng_from_seed(1));
        let Status::Solved(g) = out.status else {
            panic!("{:?}", out.status)
        };
        assert!(verify_solution(&p, &g).is_ok());
        assert!(out.stats.nodes > 0);
        // Row 1 holds 1 to 8 and column 9 a 9 already: the corner has no digit left.
        let none = puzzle(&format!("12345678.........9{}", ".".repeat(63)));
        let out = Mrv.solve(&none, &Budget::unlimited(), &mut rng_from_seed(1));
        assert_eq!(out.status, Status::Infeasible);
        let clash = puzzle(&format!("11{}", ".".repeat(79)));
        let out = Mrv.solve(&clash, &Budget::unlimited(), &mut rng_from_seed(1));
        assert_eq!(out.status, Status::Infeasible);
    }

    #[test]
    fn a_node_limit_stops_the_search() {
        let p = Puzzle::empty(Order::new(3).unwrap(), Variant::Diagonal);
        let budget = Budget {
            nodes: Some(5),
            ..Budget::unlimited()
        };
        let out = Mrv.solve(&p, &budget, &mut rng_from_seed(1));
        assert_eq!(
            out.status,
            Status::Exhausted {
                limit: Limit::Nodes,
                best: None
            }
        );
    }
}
