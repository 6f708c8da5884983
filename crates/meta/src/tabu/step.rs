//! `tabu::step`: one TabuCol step on a [`TabuSearch`] (pair or cell selection, aspiration,
//! the tabu tenure) and the update of the clash books a move makes; apart from the state
//! (`state.rs`) because this is the hot loop the method's speed is measured by. Its tests check
//! the books of both schemes after steps, segment restarts and weights.

use rand::Rng as _;
use sudoku_core::Rng;

use super::best::{Least, LocalBest, Tally};
use super::state::TabuSearch;
use super::Select;

/// Cleared well before `u32::MAX`, so that `clock + tenure` never wraps.
const CLOCK_LIMIT: u32 = u32::MAX / 2;
impl TabuSearch {
    /// A neighbour's slot `slot` gained (`up`) or lost a clash.
    #[inline]
    fn shift<const WEIGHTED: bool>(&mut self, u: u32, slot: u32, up: bool, w: u16) {
        if up {
            self.clash[slot as usize] += w;
            if WEIGHTED {
                self.count[slot as usize] += 1;
            }
        } else {
            self.clash[slot as usize] -= w;
            if WEIGHTED {
                self.count[slot as usize] -= 1;
            }
        }
        self.local[u as usize] = LocalBest::STALE;
        // Only a neighbour holding the digit can change between clashing and not.
        if self.colour[u as usize] == slot {
            if up {
                self.open_to[u as usize] = true;
            }
            self.update_conflicted(u as usize);
        }
    }

    /// One step: the best allowed move of a conflicting cell. Returns the new cost. Does
    /// nothing on a solution.
    #[inline]
    pub fn step(&mut self, rng: &mut Rng) -> u64 {
        if self.cost == 0 {
            return 0;
        }
        self.steps += 1;
        self.clock += 1;
        if self.clock >= CLOCK_LIMIT {
            self.until.iter_mut().for_each(|t| *t = 0);
            self.local.iter_mut().for_each(|b| *b = LocalBest::STALE);
            self.clock = 1;
        }
        // A tabu move is allowed only below this change of cost (aspiration: it reaches a
        // cost below the best so far).
        let aspire = self.best_cost as i64 - self.cost as i64;
        if self.select == Select::Cell {
            if self.pair_steps == 0 {
                return self.cell_step(aspire, rng);
            }
            self.pair_steps -= 1;
        }
        let clock = self.clock;
        // First over the moves that are not tabu, with the least tabu one aside: a tabu move
        // counts only when it beats `aspire` and is no worse than the best free one, which is
        // rare, so the scan that weighs aspiration runs only then (the same moves either way).
        let mut best = Tally::new();
        let mut least_tabu = i32::MAX;
        for (at, &v) in self.conflicted.iter().enumerate() {
            let b = &mut self.local[v as usize];
            if b.due(clock) {
                let at = self.slot_at[v as usize]..self.slot_at[v as usize + 1];
                *b = LocalBest::of(self.colour[v as usize], at, &self.clash, &self.until, clock);
            }
            least_tabu = least_tabu.min(b.tabu);
            best.offer(b.free as i64, b.free_ties as u64, at);
        }
        let least_tabu = least_tabu as i64;
        if least_tabu < aspire && least_tabu <= best.least {
            best = Tally::new();
            for (at, &v) in self.conflicted.iter().enumerate() {
                let (m, k) = self.local[v as usize].allowed(aspire);
                best.offer(m, k, at);
            }
        }
        let Tally { least, ties, first } = best;
        // One of the best moves at random (their order: the conflict list, then digits);
        // every move tabu: a random one. Open cells keep at least two candidates after
        // singles propagation (a cell with one would have been filled), so a conflicting
        // cell always has another digit; the guard only keeps a broken invariant from
        // panicking.
        let (v, s) = if ties == 0 {
            let v = self.conflicted[rng.random_range(0..self.conflicted.len())];
            let slots = self.slots(v as usize);
            if slots.len() < 2 {
                return self.cost;
            }
            let now = self.colour[v as usize] - slots.start;
            let k = rng.random_range(0..slots.len() as u32 - 1);
            (v, slots.start + if k >= now { k + 1 } else { k })
        } else {
            let r = rng.random_range(0..ties as usize) as u64;
            self.nth_best(first, r, least, aspire)
        };
        self.apply(v as usize, s, rng);
        self.save_best();
        self.cost
    }

    /// The `r`-th (from 0) allowed move whose change of cost is `least`, in the order of the
    /// conflict list and then of digits, starting at the list's `first` vertex that reaches
    /// it. Every conflicted vertex's [`LocalBest`] is fresh.
    fn nth_best(&self, first: usize, mut r: u64, least: i64, aspire: i64) -> (u32, u32) {
        for &v in &self.conflicted[first..] {
            let (m, k) = self.local[v as usize].allowed(aspire);
            if m != least {
                continue;
            }
            if r >= k {
                r -= k;
                continue;
            }
            let now = self.colour[v as usize];
            let here = self.clash[now as usize] as i64;
            for s in self.slots(v as usize) {
                let delta = self.clash[s as usize] as i64 - here;
                let tabu = self.until[s as usize] > self.clock;
                if s == now || delta != least || (tabu && delta >= aspire) {
                    continue;
                }
                if r == 0 {
                    return (v, s);
                }
                r -= 1;
            }
        }
        unreachable!("the ties counted are listed")
    }

    /// Cell selection: the conflicting vertex with the most clashes among those open to a
    /// move (any, when none is), then its best allowed digit.
    #[inline(never)]
    fn cell_step(&mut self, aspire: i64, rng: &mut Rng) -> u64 {
        // The most clashes: the least negated count.
        let (mut open, mut checked) = (Least::new(), Least::new());
        for &v in &self.conflicted {
            let k = -(self.clash[self.colour[v as usize] as usize] as i64);
            if self.open_to[v as usize] {
                open.offer(k, v, rng);
            } else {
                checked.offer(k, v, rng);
            }
        }
        let v = if open.ties > 0 {
            open.pick
        } else {
            checked.pick
        } as usize;
        let now = self.colour[v];
        let here = self.clash[now as usize] as i64;
        let clock = self.clock;
        let (mut free, mut tabu) = (Least::new(), Least::new());
        for s in self.slots(v) {
            if s == now {
                continue;
            }
            let delta = self.clash[s as usize] as i64 - here;
            if self.until[s as usize] > clock {
                tabu.offer(delta, s, rng);
            } else {
                free.offer(delta, s, rng);
            }
        }
        let (nf, nt) = (free.ties, tabu.ties);
        let (pf, pt) = (free.pick, tabu.pick);
        let (free, tabu) = (free.key, tabu.key);
        if free > 0 && tabu > 0 {
            // Every move makes it worse: the cell declines. It keeps its digit, which becomes
            // tabu, and waits for a neighbour to take its digit; a cell that declines twice
            // hands over to full pair steps for a while.
            if self.until[now as usize] <= clock {
                let tenure = self.tenure_now(rng);
                self.until[now as usize] = clock.saturating_add(tenure);
                self.local[v] = LocalBest::STALE;
                self.open_to[v] = false;
            } else {
                self.pair_steps = 100;
            }
            return self.cost;
        }
        let to = if (nt > 0 && tabu < free && tabu < aspire) || nf == 0 {
            pt
        } else {
            pf
        };
        self.apply(v, to, rng);
        self.open_to[v] = false;
        self.save_best();
        self.cost
    }

    /// The tenure of a digit a cell leaves now: U(0, tenure) + λ · (conflicting cells).
    fn tenure_now(&self, rng: &mut Rng) -> u32 {
        let random = if self.tenure > 0 {
            rng.random_range(0..self.tenure)
        } else {
            0
        };
        let tenure = random + (self.lambda * self.conflicted.len() as f64) as u64;
        tenure.min(CLOCK_LIMIT as u64) as u32
    }

    /// Moves vertex `v` to slot `to`.
    fn apply(&mut self, v: usize, to: u32, rng: &mut Rng) {
        let from = self.colour[v];
        let before = self.clashing(from);
        let after = self.clashing(to);
        self.cost = self.cost + after - before;
        self.colour[v] = to;
        let tenure = self.tenure_now(rng);
        self.until[from as usize] = self.clock.saturating_add(tenure);
        // Two copies of the walk, so that the unweighted one (the default) tests nothing.
        if self.weighted {
            self.each_same_digit(v, from, |s, u, slot, w| s.shift::<true>(u, slot, false, w));
            self.each_same_digit(v, to, |s, u, slot, w| s.shift::<true>(u, slot, true, w));
        } else {
            self.each_same_digit(v, from, |s, u, slot, _| s.shift::<false>(u, slot, false, 1));
            self.each_same_digit(v, to, |s, u, slot, _| s.shift::<false>(u, slot, true, 1));
        }
        self.local[v] = LocalBest::STALE;
        self.update_conflicted(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tabu::state::{Reach, LINK_BUDGET};
    use crate::tabu::TabuConfig;
    use sudoku_core::{rng_from_seed, Budget, Deadline, Grid, Puzzle};
    use sudoku_fixtures::carved_pattern;

    /// The best allowed moves by a scan of every slot of every conflicted vertex, as the
    /// plain TabuCol step makes them.
    fn brute_best(s: &TabuSearch, clock: u32) -> (i64, Vec<(u32, u32)>) {
        let aspire = s.best_cost as i64 - s.cost as i64;
        let (mut least, mut moves) = (i64::MAX, Vec::new());
        for &v in &s.conflicted {
            let now = s.colour[v as usize];
            let here = s.clash[now as usize] as i64;
            for slot in s.slots(v as usize) {
                let delta = s.clash[slot as usize] as i64 - here;
                if slot == now || (s.until[slot as usize] > clock && delta >= aspire) {
                    continue;
                }
                if delta < least {
                    (least, moves) = (delta, Vec::new());
                }
                if delta == least {
                    moves.push((v, slot));
                }
            }
        }
        (least, moves)
    }

    /// Recounts every incremental structure from the colours alone.
    fn check_bookkeeping(s: &TabuSearch) {
        let mut twice = 0;
        for v in 0..s.cell.len() {
            for slot in s.slots(v) {
                let holding: Vec<u16> = s
                    .same_digit(v, slot)
                    .into_iter()
                    .filter(|&(u, theirs, _)| s.colour[u as usize] == theirs)
                    .map(|(_, _, w)| w)
                    .collect();
                let weighed: u16 = holding.iter().sum();
                assert_eq!(s.clash[slot as usize], weighed, "clash of slot {slot}");
                assert_eq!(
                    s.clashing(slot),
                    holding.len() as u64,
                    "count of slot {slot}"
                );
            }
            let k = s.clashing(s.colour[v]);
            twice += k;
            assert_eq!(
                k > 0,
                s.place[v] != u32::MAX,
                "vertex {v} listed iff in conflict"
            );
        }
        assert_eq!(s.cost, twice / 2);
        for (at, &v) in s.conflicted.iter().enumerate() {
            assert_eq!(s.place[v as usize] as usize, at);
        }
        // A cached best that the next step will trust must be what a scan would find then.
        let next = s.clock + 1;
        for v in 0..s.cell.len() {
            let b = s.local[v];
            if b.due(next) {
                continue;
            }
            let fresh = LocalBest::of(s.colour[v], s.slots(v), &s.clash, &s.until, next);
            assert_eq!(
                (b.free, b.free_ties, b.tabu, b.tabu_ties),
                (fresh.free, fresh.free_ties, fresh.tabu, fresh.tabu_ties),
                "cached best moves of vertex {v} at step {}",
                s.steps
            );
        }
    }

    #[test]
    fn each_step_makes_one_of_the_best_allowed_moves_and_keeps_its_books() {
        // Both ways of reaching the neighbours: links, and the table (a link budget of 0).
        let cases = [(3, 0.3, 0.45), (4, 0.4, 0.6), (5, 0.45, 0.45)];
        for ((n, keep, lambda), budget) in
            cases.into_iter().flat_map(|c| [(c, LINK_BUDGET), (c, 0)])
        {
            let p = carved_pattern(n, keep, 5);
            let cfg = TabuConfig {
                lambda,
                ..TabuConfig::default()
            };
            let mut rng = rng_from_seed(n as u64);
            let mut unlimited = Deadline::new(&Budget::unlimited(), 1);
            let mut s = TabuSearch::with_link_budget(&p, &cfg, &mut rng, budget, &mut unlimited)
                .expect("carved puzzles are feasible")
                .expect("no deadline");
            assert_eq!(
                matches!(s.reach.as_deref(), Some(Reach::Table { .. })),
                budget == 0
            );
            check_bookkeeping(&s);
            for _ in 0..3000 {
                if s.cost == 0 {
                    break;
                }
                let (least, best) = brute_best(&s, s.clock + 1);
                let before = s.colour.clone();
                s.step(&mut rng);
                let moved: Vec<(u32, u32)> = (0..before.len())
                    .filter(|&v| before[v] != s.colour[v])
                    .map(|v| (v as u32, s.colour[v]))
                    .collect();
                assert_eq!(moved.len(), 1, "one cell moves per step");
                if !best.is_empty() {
                    assert!(
                        best.contains(&moved[0]),
                        "step {}: {:?} is not among the best moves {best:?} (change {least})",
                        s.steps,
                        moved[0]
                    );
                }
                check_bookkeeping(&s);
            }
        }
    }

    #[test]
    fn cell_steps_with_weights_and_restarts_keep_their_books() {
        for (n, keep) in [(3, 0.3), (4, 0.4), (5, 0.45)] {
            let p = carved_pattern(n, keep, 2);
            let cfg = TabuConfig {
                select: Select::Cell,
                pool: 10,
                weights: 1,
                ..TabuConfig::default()
            };
            let mut rng = rng_from_seed(n as u64);
            let mut s = TabuSearch::new(&p, &cfg, &mut rng).expect("carved puzzles are feasible");
            assert!(s.weighted);
            s.save_ties = true;
            check_bookkeeping(&s);
            for round in 0..6 {
                for _ in 0..400 {
                    if s.cost == 0 {
                        break;
                    }
                    let before = s.colour.clone();
                    s.step(&mut rng);
                    let moved = (0..before.len())
                        .filter(|&v| before[v] != s.colour[v])
                        .count();
                    assert!(moved <= 1, "at most one cell moves per step");
                    check_bookkeeping(&s);
                }
                if s.cost == 0 {
                    break;
                }
                // What the pool does between segments: weigh the best's clashing pairs (all of
                // them, weights = 1) and start again from it.
                let best = s.best.clone();
                let cost = s.best_cost;
                s.bump_weights(&best, 1, &mut rng);
                s.restart_from(&best);
                assert_eq!(s.cost, cost, "round {round}: a restart keeps the cost");
                assert_eq!(s.best_cost, cost);
                check_bookkeeping(&s);
                if cost > 0 {
                    assert!(
                        s.weight.iter().any(|&w| w > 1),
                        "clashing pairs gained weight"
                    );
                }
            }
            s.reset_weights();
            let best = s.best.clone();
            s.restart_from(&best);
            assert!(s.weight.iter().all(|&w| w == 1));
            check_bookkeeping(&s);
            // A fresh start (`restart`) from weighted books: unit weights, the new start as
            // the best, and books that hold for the steps after it.
            s.bump_weights(&best, 1, &mut rng);
            s.fresh_start(&mut rng);
            assert!(s.weight.iter().all(|&w| w == 1));
            assert_eq!(s.best_cost, s.cost);
            check_bookkeeping(&s);
            for _ in 0..200 {
                s.step(&mut rng);
            }
            check_bookkeeping(&s);
        }
    }

    #[test]
    fn a_nearly_empty_large_grid_is_reached_through_the_table() {
        // 100×100 without givens: links would take 10,000 cells × 100 digits × 297 peers.
        let order = sudoku_core::Order::new(10).expect("order 10 is supported");
        let p = Puzzle::new(Grid::empty(order), sudoku_core::Variant::Classic);
        let mut rng = rng_from_seed(1);
        let mut s = TabuSearch::new(&p, &TabuConfig::default(), &mut rng).expect("feasible");
        assert!(matches!(s.reach.as_deref(), Some(Reach::Table { .. })));
        // A hard-region 36×36 puzzle stays under the link budget.
        let q = carved_pattern(6, 0.5, 1);
        let t = TabuSearch::new(&q, &TabuConfig::default(), &mut rng).expect("feasible");
        assert!(matches!(t.reach.as_deref(), Some(Reach::Links { .. })));
        for _ in 0..100 {
            s.step(&mut rng);
        }
        check_bookkeeping(&s);
    }
}
