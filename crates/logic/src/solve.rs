//! The rule solver: apply the easiest rule that makes progress, record the step, repeat until
//! the grid is full or no enabled rule applies.

use sudoku_core::{choices, for_width, Deadline, Grid, Puzzle};

use crate::board::{Board, Contradiction};
use crate::rules::rule_list;
use crate::step::{RuleSet, Step};

sudoku_core::config! {
    /// Which rules the solver may use.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct LogicConfig {
        rules: RuleSet = "all"
            of choices![
                "singles" => RuleSet::Singles,
                "pigeonhole" => RuleSet::Pigeonhole,
                "two-unit" => RuleSet::TwoUnit,
                "all" => RuleSet::All,
            ],
            "rule set: singles; + the pigeonhole rule (every one-unit strategy); + locked \
             candidates (two units); + fish, XY-wing, XYZ-wing";
        subset_max: usize = 4 in 1..=128,
            "largest pigeonhole pattern searched by enumeration, in naked or hidden form; complete \
             for units with at most 2·subset_max+1 open cells (every 9×9 unit at 4)";
        hall: bool = on,
            "find pigeonhole patterns beyond subset_max exactly, through a perfect matching per \
             unit";
    }
}

/// How a rule-solving run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    /// Every cell filled.
    Solved(Grid),
    /// No enabled rule makes progress: the digits placed and the candidates left.
    Stuck {
        /// Placed digits, givens included.
        grid: Grid,
        /// Candidates of every cell (empty when filled).
        candidates: Vec<Vec<u16>>,
    },
    /// The rules proved there is no solution (at the step after the last one recorded).
    Contradiction,
    /// The time limit ran out.
    Timeout,
}

/// Every step of one run, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// How it ended.
    pub end: End,
    /// Open cells at the start.
    pub open_at_start: usize,
}

impl Trace {
    /// Open cells left at the end (0 when solved).
    pub fn open_at_end(&self) -> usize {
        match &self.end {
            End::Stuck { grid, .. } => grid.cells().len() - grid.filled(),
            End::Solved(_) => 0,
            End::Contradiction | End::Timeout => self.open_at_start,
        }
    }
}

/// Runs the rules on `puzzle` until it is solved or they are stuck.
pub fn trace(puzzle: &Puzzle, config: &LogicConfig, deadline: &mut Deadline) -> Trace {
    for_width!(puzzle.order(), W => run::<W>(puzzle, config, deadline))
}

fn run<const W: usize>(puzzle: &Puzzle, config: &LogicConfig, deadline: &mut Deadline) -> Trace {
    let open_at_start = puzzle.givens().cells().len() - puzzle.givens().filled();
    let mut steps = Vec::new();
    let Ok(mut board) = Board::<W>::load(puzzle) else {
        return Trace {
            steps,
            end: End::Contradiction,
            open_at_start,
        };
    };
    let mut rules = rule_list(config.rules, config.subset_max, config.hall, &board);
    let end = 'solve: loop {
        if board.open == 0 {
            break End::Solved(board.grid());
        }
        if deadline.expired() {
            break End::Timeout;
        }
        for rule in rules.iter_mut() {
            match rule.find(&board, deadline).and_then(|s| match s {
                Some(step) => apply(&mut board, &step).map(|()| Some(step)),
                None => Ok(None),
            }) {
                Err(Contradiction) => break 'solve End::Contradiction,
                Ok(Some(step)) => {
                    steps.push(step);
                    continue 'solve;
                }
                Ok(None) => {}
            }
        }
        // A rule that gave up on the clock found nothing either: that is no proof of stuck.
        if deadline.expired() {
            break End::Timeout;
        }
        break End::Stuck {
            grid: board.grid(),
            candidates: board.candidate_lists(),
        };
    };
    Trace {
        steps,
        end,
        open_at_start,
    }
}

fn apply<const W: usize>(board: &mut Board<W>, step: &Step) -> Result<(), Contradiction> {
    if let Some((c, d)) = step.place {
        board.place(c, d)?;
    }
    for &(c, d) in &step.eliminate {
        board.eliminate(c, d)?;
    }
    Ok(())
}

/// The first step the rules of `config` find in a position: the puzzle's givens, with the
/// candidates of each open cell cut down to `candidates[c]` (all of them when that list is
/// empty). For tests and for explaining a position given as candidates.
pub fn first_step(
    puzzle: &Puzzle,
    candidates: &[Vec<u16>],
    config: &LogicConfig,
) -> Result<Option<Step>, Contradiction> {
    for_width!(puzzle.order(), W => first::<W>(puzzle, candidates, config))
}

fn first<const W: usize>(
    puzzle: &Puzzle,
    candidates: &[Vec<u16>],
    config: &LogicConfig,
) -> Result<Option<Step>, Contradiction> {
    let mut board = Board::<W>::load(puzzle)?;
    for (c, list) in candidates.iter().enumerate().take(board.cand.len()) {
        if board.value[c] == 0 && !list.is_empty() {
            let keep: sudoku_core::DigitSet<W> = list.iter().map(|&d| d as usize).collect();
            for d in board.cand[c].difference(&keep).iter() {
                board.eliminate(c, d as u16)?;
            }
        }
    }
    let mut rules = rule_list(config.rules, config.subset_max, config.hall, &board);
    let mut unlimited = Deadline::new(&sudoku_core::Budget::unlimited(), 1);
    for rule in rules.iter_mut() {
        if let Some(step) = rule.find(&board, &mut unlimited)? {
            return Ok(Some(step));
        }
    }
    Ok(None)
}
