//! Full-grid generation by solving the model of an empty grid (seed 003, which reports the
//! approach limited to 6²×6², about 200 s). Optional pre-filling fixes part of the grid at
//! random first, which both randomises the result and shrinks the model.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use rand::seq::SliceRandom;
use sudoku_core::{
    Budget, Generator, Geometry, Grid, Limit, Order, Outcome, Puzzle, Rng, Solver, Stats, Status,
    Variant,
};

use crate::solve::{IlpConfig, IlpSolver};
use crate::IlpError;

/// What to fix at random before calling CBC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Prefill {
    /// Nothing: CBC fills the empty grid.
    #[default]
    None,
    /// A random permutation in the first row. Relabelling the digits of any grid gives any
    /// first row, so this never makes the grid infeasible.
    FirstRow,
    /// Random permutations in the `n` blocks of the main diagonal, which share no row, column
    /// or block. For Sudoku-X the main diagonal runs through exactly these blocks, so it gets
    /// a random permutation first and each block is completed around it.
    DiagonalBlocks,
}

impl Prefill {
    /// The parameter value.
    pub fn name(self) -> &'static str {
        match self {
            Prefill::None => "none",
            Prefill::FirstRow => "first-row",
            Prefill::DiagonalBlocks => "diagonal-blocks",
        }
    }

    /// The pre-filled grid.
    pub fn fill(self, order: Order, variant: Variant, rng: &mut Rng) -> Grid {
        let geo = Geometry::get(order, variant);
        let (n, size) = (order.n(), order.size());
        let mut grid = Grid::empty(order);
        let mut digits: Vec<u16> = (1..=size as u16).collect();
        match self {
            Prefill::None => {}
            Prefill::FirstRow => {
                digits.shuffle(rng);
                for (c, &d) in digits.iter().enumerate() {
                    grid.set(geo.cell(0, c), d);
                }
            }
            Prefill::DiagonalBlocks => {
                // The main diagonal first (only constrained in Sudoku-X; harmless otherwise).
                let mut diagonal = digits.clone();
                diagonal.shuffle(rng);
                for b in 0..n {
                    let cells: Vec<usize> = geo
                        .unit(2 * size + b * n + b)
                        .iter()
                        .map(|&c| c as usize)
                        .collect();
                    let on_diag = |c: usize| geo.row(c) == geo.col(c);
                    let mut rest: Vec<u16> = digits.clone();
                    if variant == Variant::Diagonal {
                        for &c in cells.iter().filter(|&&c| on_diag(c)) {
                            let d = diagonal[geo.row(c)];
                            grid.set(c, d);
                            rest.retain(|&x| x != d);
                        }
                    }
                    rest.shuffle(rng);
                    let mut it = rest.into_iter();
                    for &c in &cells {
                        if grid.get(c) == 0 {
                            grid.set(c, it.next().unwrap_or(0));
                        }
                    }
                }
            }
        }
        grid
    }
}

impl fmt::Display for Prefill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Prefill {
    type Err = IlpError;
    fn from_str(s: &str) -> Result<Prefill, IlpError> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Ok(Prefill::None),
            "first-row" => Ok(Prefill::FirstRow),
            "diagonal-blocks" => Ok(Prefill::DiagonalBlocks),
            _ => Err(IlpError::UnknownName {
                what: "prefill",
                name: s.to_string(),
                expected: "none|first-row|diagonal-blocks",
            }),
        }
    }
}

/// The ILP full-grid generator (registry name `ilp`).
#[derive(Clone, Debug, Default)]
pub struct IlpGenerator {
    config: IlpConfig,
    prefill: Prefill,
    max_restarts: u64,
}

impl IlpGenerator {
    /// A generator solving with `config` after `prefill`. A pre-fill that turns out
    /// infeasible (possible only for Sudoku-X with diagonal blocks) is drawn again, up to
    /// `max_restarts` times.
    pub fn new(config: IlpConfig, prefill: Prefill, max_restarts: u64) -> IlpGenerator {
        IlpGenerator {
            config,
            prefill,
            max_restarts,
        }
    }
}

impl Generator for IlpGenerator {
    fn name(&self) -> &str {
        "ilp"
    }

    fn generate(
        &mut self,
        order: Order,
        variant: Variant,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Outcome {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let mut solver = IlpSolver::new(self.config);
        let mut restarts = 0;
        loop {
            let t = Instant::now();
            let puzzle = Puzzle::new(self.prefill.fill(order, variant, rng), variant);
            let prefill_time = t.elapsed();
            let left = Budget {
                time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                ..*budget
            };
            let mut out = solver.solve(&puzzle, &left, rng);
            out.stats.restarts = restarts;
            out.stats.build_time = out.stats.build_time.map(|b| b + prefill_time);
            out.stats
                .extra
                .push(("prefill".into(), self.prefill.name().into()));
            match out.status {
                Status::Infeasible if restarts < self.max_restarts => {
                    restarts += 1;
                    continue;
                }
                Status::Infeasible => {
                    // Every pre-fill drawn was infeasible: stop as out of attempts rather
                    // than claim the order has no grid.
                    return Outcome {
                        status: Status::Exhausted {
                            limit: Limit::Iterations,
                            best: None,
                        },
                        stats: Stats {
                            restarts,
                            ..out.stats
                        },
                    };
                }
                _ => return out,
            }
        }
    }
}
