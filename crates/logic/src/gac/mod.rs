//! `gac`: a constraint-programming solver that keeps generalised arc consistency on every
//! AllDifferent unit (rows, columns, blocks, and both diagonals for Sudoku-X), the CP model
//! Takano et al. compares.
//!
//! - Propagation: a cell reduced to one digit first removes it from its peers (cheap
//!   singleton propagation); then every unit whose domains changed is filtered by Régin's
//!   matching-based algorithm ([`AllDifferent`], module docs in `alldiff.rs`), and the two
//!   alternate to a common fixpoint. Per unit, that filter subsumes naked and hidden singles
//!   and naked and hidden subsets of every size (the pigeonhole rule of Teles). It cannot
//!   reason across two units, so at that fixpoint (with `intersect=on`, the default) the
//!   intersection rule runs over every pair of units sharing two or more cells: a digit one
//!   unit can place only inside the shared cells leaves the rest of the other (locked
//!   candidates for rows, columns and blocks, which `prop` also has; diagonal with block for
//!   Sudoku-X). Any change sends propagation back to the singles and the filter.
//! - Incremental: each unit keeps its maximum matching for the whole search; a filter call
//!   repairs only the matched edges the last changes removed (augmenting paths from the
//!   variables that lost their value). Domains go back by a trail on backtracking; the
//!   matchings need no undo at all (one valid under smaller domains is valid under the larger
//!   ones backtracking restores). A trail rather than a state copy per node, by the same
//!   reasoning as `prop` (not measured against a copying variant here): a 36×36 state is
//!   1,296 domains plus 108 matchings, of which a node changes a few.
//! - Search: depth-first with binary branching: the left branch places a digit in the cell
//!   `select` picks, the right branch (after the left one is refuted) removes it and
//!   propagates before a cell is picked again. `select` is dom/wdeg (the default: domain size
//!   over the summed weights of the cell's units, a unit's weight growing with each
//!   contradiction it raises) or MRV (fewest candidates), both placing the smallest digit,
//!   ties going to the cell whose domain changed last; or maxSD (counting-based search,
//!   Pesant, Quimper and Zanarini 2012), which picks the cell and the digit together: the
//!   placement of highest estimated solution density in any unit. Nodes count the root and
//!   every branch taken (left or right), guesses every left branch, so that a cell with two
//!   candidates costs what it costs `prop`.
//! - Restarts (`restart=N`, off by default): a search for one solution starts again from
//!   the root after N failures, each run 1.5 times longer than the last, so that a wrong early
//!   choice does not hold the whole search (the run lengths grow without bound: the search
//!   stays complete and still proves infeasibility). dom/wdeg carries its unit weights from
//!   run to run; maxSD multiplies each density by 1 + `noise` · U(0, 1), drawn from a
//!   `rand_chacha` generator seeded with the run's number, so runs differ while a puzzle's
//!   search stays the same from call to call (`gac` remains deterministic). Counting never
//!   restarts (it would meet solutions twice). `stats.restarts` counts them.
//! - `stats.extra`: `gac_filters` (filter calls that ran), `gac_removals` (digits the filter
//!   removed), `meet_removals` (digits the intersection rule removed), `augmentations`
//!   (augmenting paths: matching repairs), `failures` (propagations that ended in a
//!   contradiction).

mod alldiff;
mod engine;

pub use alldiff::{AllDifferent, Infeasible};

use sudoku_core::{
    check_givens, choices, for_width, Budget, Capabilities, Count, CountEnd, CountOutcome, Counted,
    Grid, MethodInfo, Order, Outcome, ParamError, Params, Puzzle, Rng, Solver, Stats, Status,
    Variant,
};

use engine::{Engine, SearchEnd};

/// The registry name.
const GAC: &str = "gac";

/// How the branching cell is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// Minimum remaining values: the fewest candidates.
    Mrv,
    /// dom/wdeg (Boussemart et al. 2004): the smallest ratio of candidates to the summed
    /// weights of the cell's units, a unit's weight being 1 + the contradictions it raised.
    #[default]
    DomWdeg,
    /// maxSD (Pesant, Quimper and Zanarini 2012): the cell and digit of highest solution
    /// density in any unit, the density estimated from the Bregman–Minc bound on the
    /// permanent of the unit's cell-digit matrix; the left branch places that digit.
    MaxSd,
}

/// An engine of the width some order needs, behind one interface.
trait Run {
    fn fits(&self, order: Order, variant: Variant) -> bool;
    fn run(
        &mut self,
        givens: &Grid,
        budget: &Budget,
        restart: bool,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd;
    fn stats(&self) -> Stats;
}

impl<const W: usize> Run for Engine<W> {
    fn fits(&self, order: Order, variant: Variant) -> bool {
        Engine::fits(self, order, variant)
    }
    fn run(
        &mut self,
        givens: &Grid,
        budget: &Budget,
        restart: bool,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> SearchEnd {
        Engine::run(self, givens, budget, restart, on_solution)
    }
    fn stats(&self) -> Stats {
        Engine::stats(self)
    }
}

/// The GAC AllDifferent CP solver (registered as `gac`). Deterministic and complete: solves,
/// proves infeasibility, counts. Keeps its tables for the last (order, variant) it saw.
///
/// ```
/// use sudoku_core::{format, rng_from_seed, verify_solution, Budget, Puzzle, Solver, Status,
///                   Variant};
/// use sudoku_logic::gac::{Gac, Select};
///
/// let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// let puzzle = Puzzle::new(format::parse_str(line, "x").unwrap().remove(0).grid, Variant::Classic);
/// let mut gac = Gac::new(Select::DomWdeg, true);
/// let out = gac.solve(&puzzle, &Budget::unlimited(), &mut rng_from_seed(1));
/// let Status::Solved(answer) = out.status else { panic!("a valid puzzle") };
/// assert!(verify_solution(&puzzle, &answer).is_ok());
/// ```
pub struct Gac {
    search: Search,
    engine: Option<Box<dyn Run + Send>>,
}

sudoku_core::config! {
    /// How `gac` searches: the branching rule, the intersection rule, restarts.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Search for GAC {
        select: Select = "dom-wdeg"
            of choices![
                "mrv" => Select::Mrv,
                "dom-wdeg" => Select::DomWdeg,
                "max-sd" => Select::MaxSd,
            ],
            "branching: the cell of fewest candidates, or of fewest candidates over the failure \
             weights of its units (both place the smallest digit first), or the cell and digit of \
             highest estimated solution density in a unit (maxSD)";
        intersect: bool = on,
            "at each GAC fixpoint, the intersection rule between units that share two or more \
             cells (locked candidates; diagonal and block for Sudoku-X)";
        restart: u64 = 0 in 0..=1000000000000,
            "0: never; else a search for one solution starts again after this many failures, each \
             run 1.5 times longer (complete; counting never restarts)";
        noise: f64 = 0.3 in 0.0..=10.0,
            "max-sd: each density is multiplied by 1 + noise × U(0, 1), from a generator seeded \
             with the run's number, so that restarted runs differ (0: ties to the first found)";
    }
}

impl Default for Gac {
    fn default() -> Self {
        Gac::with_search(Search::default())
    }
}

impl Gac {
    /// A solver branching by `select`, with or without the intersection rule, never
    /// restarting.
    pub fn new(select: Select, intersect: bool) -> Gac {
        Gac::with_search(Search {
            select,
            intersect,
            ..Search::default()
        })
    }

    /// A solver searching as `search` says.
    pub fn with_search(search: Search) -> Gac {
        Gac {
            search,
            engine: None,
        }
    }

    /// A solver configured from named parameters (see [`Search::PARAMS`]).
    pub fn from_params(params: &Params) -> Result<Gac, ParamError> {
        Ok(Gac::with_search(Search::from_params(params)?))
    }

    fn engine(&mut self, puzzle: &Puzzle) -> &mut (dyn Run + Send) {
        let (order, variant) = (puzzle.order(), puzzle.variant());
        let search = self.search;
        if self
            .engine
            .as_ref()
            .is_some_and(|e| !e.fits(order, variant))
        {
            self.engine = None;
        }
        self.engine
            .get_or_insert_with(
                || for_width!(order, W => Box::new(Engine::<W>::new(order, variant, search))),
            )
            .as_mut()
    }

    /// Finds up to `limit` solutions (keeping them if `collect`); a limit of 0 asks for
    /// nothing and is reached at once.
    fn enumerate(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        collect: bool,
        budget: &Budget,
    ) -> CountOutcome {
        let (mut count, mut solutions) = (0u64, Vec::new());
        let (end, stats) = match limit {
            0 => (SearchEnd::Stopped, Stats::default()),
            // Restarts only while one solution is asked for: counting would meet some twice.
            _ => self.search(puzzle, budget, limit == 1, &mut |g| {
                count += 1;
                if collect {
                    solutions.push(g);
                }
                count < limit
            }),
        };
        CountOutcome {
            count,
            end: match end {
                SearchEnd::Complete => CountEnd::Complete,
                SearchEnd::Stopped => CountEnd::LimitReached,
                SearchEnd::Exhausted(l) => CountEnd::Exhausted(l),
            },
            solutions,
            stats,
        }
    }

    /// Runs the search unless the givens repeat a digit in a unit (then: infeasible, no
    /// search, one node).
    fn search(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
        restart: bool,
        on_solution: &mut dyn FnMut(Grid) -> bool,
    ) -> (SearchEnd, Stats) {
        if check_givens(puzzle).is_err() {
            let stats = Stats {
                nodes: 1,
                ..Stats::default()
            };
            return (SearchEnd::Complete, stats);
        }
        let engine = self.engine(puzzle);
        let end = engine.run(puzzle.givens(), budget, restart, on_solution);
        (end, engine.stats())
    }
}

impl Solver for Gac {
    fn name(&self) -> &str {
        GAC
    }

    fn solve(&mut self, puzzle: &Puzzle, budget: &Budget, _rng: &mut Rng) -> Outcome {
        let mut c = self.enumerate(puzzle, 1, true, budget);
        Outcome {
            status: Status::of_search(c.solutions.pop(), c.end),
            stats: c.stats,
        }
    }

    fn count(&mut self, puzzle: &Puzzle, ask: Count, budget: &Budget, _rng: &mut Rng) -> Counted {
        let Count { limit, collect } = ask;
        Ok(self.enumerate(puzzle, limit, collect, budget))
    }
}

/// The registry entry of `gac`.
pub fn method_info() -> MethodInfo {
    MethodInfo {
        name: GAC,
        summary: "CP solver: singleton propagation and generalised arc consistency on every \
                  AllDifferent unit (Régin 1994, incremental matchings), an intersection rule \
                  between units, dom/wdeg, MRV or maxSD search, optional restarts (CP model \
                  of Takano et al.)",
        params: Search::PARAMS,
        caps: Capabilities {
            complete: true,
            thread_safe: true,
            randomized: false,
        },
        build: |params| Ok(Box::new(Gac::from_params(params)?)),
    }
}
