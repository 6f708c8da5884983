//! The pigeonhole rule of Teles ("Regra da casa dos pombos", chapter 4, on the page
//! before Figura 25, i.e. p. 58-59 of the thesis: the extracted text has no page marks, and the
//! list of figures puts Figura 25 on p. 59). Its statement, translated:
//!
//! > Let `M ⊂ I` be a set of digits and `D` a set of cells, all in one unit `B_i`, such that
//! > (a) `|M| = |D|` and (b) `C_p ⊆ M` for every cell `p ∈ D`. Then the digits of `M` can be
//! > removed from `C_p` for every `p ∈ B_i \ D`.
//!
//! With `D` the cells of a naked subset it is the naked subset. Hidden subsets are the same rule
//! through the complement: if digits `H` fit only in cells `E` of a unit (`|H| = |E|`), take
//! `D` = the unit's other open cells and `M` = the unit's other missing digits; (b) holds
//! because no digit of `H` is left outside `E`, and the rule removes `M` from `E`, leaving only
//! `H` there. Filled cells never matter (their digit is already gone from the unit's other
//! cells), so the search works on the `m` open cells and `m` missing digits of a unit, and a
//! pattern of size `s` is the complement of one of size `m - s`: searching both forms up to
//! size `k` finds every pattern of a unit with `m ≤ 2k + 1` open cells. With `k = 4` (the
//! default of `subset-max`) that is every unit of a 9×9 grid.
//!
//! Search: naked and hidden forms are one search over "items" (cells with their candidate
//! digits, or digits with their places): choose `s` items whose sets have `s` elements in all
//! (a depth-first search in increasing index that prunes as soon as the union passes `s`), and
//! it makes progress when another item meets that union. Fewer elements than items is a
//! contradiction (Hall's condition fails).
//!
//! Larger units (order 4 and up) may hold patterns beyond `k` on both sides. `hall=on` finds
//! them exactly, as Theorem 3's proof suggests: a perfect matching of the unit's open cells to
//! its missing digits; a candidate `(p, k)` outside the matching belongs to no perfect matching
//! exactly when `p` is not reachable from `k`'s matched cell `q` along "cell → any candidate
//! digit → that digit's matched cell"; the cells `D` reachable from `q` and their matched
//! digits `M` then satisfy (a) and (b), so the rule applies with that `(D, M)`.

use sudoku_core::{Deadline, DigitSet};

use super::{choose, Rule};
use crate::board::{Board, Contradiction};
use crate::step::{RuleKind, Step};

/// The pigeonhole rule for patterns of `lo..=hi` cells (smallest first), plus the exact
/// matching search when `hall` is set.
pub(crate) struct Pigeonhole {
    lo: usize,
    hi: usize,
    hall: bool,
}

impl Pigeonhole {
    pub fn new(lo: usize, hi: usize, hall: bool) -> Pigeonhole {
        Pigeonhole { lo, hi, hall }
    }
}

/// One unit's open part.
struct Part<const W: usize> {
    unit: usize,
    /// Open cells.
    cells: Vec<usize>,
    /// Candidates of each open cell.
    cands: Vec<DigitSet<W>>,
    /// Missing digits.
    digits: Vec<u16>,
    /// Places (indices into `cells`, plus one) of each missing digit.
    places: Vec<DigitSet<W>>,
}

impl<const W: usize> Part<W> {
    fn of(b: &Board<W>, unit: usize) -> Part<W> {
        let cells: Vec<usize> = b
            .geo
            .unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.value[c] == 0)
            .collect();
        let cands: Vec<DigitSet<W>> = cells.iter().map(|&c| b.cand[c]).collect();
        let missing = DigitSet::<W>::full(b.geo.size()).difference(&b.placed[unit]);
        let digits: Vec<u16> = missing.iter().map(|d| d as u16).collect();
        let places = digits
            .iter()
            .map(|&d| {
                (0..cells.len())
                    .filter(|&i| cands[i].contains(d as usize))
                    .map(|i| i + 1)
                    .collect()
            })
            .collect();
        Part {
            unit,
            cells,
            cands,
            digits,
            places,
        }
    }

    /// The step for the naked form `(D, M)`: cells `d` (indices) with digits `m`.
    fn step(&self, d: &[usize], m: DigitSet<W>, size: usize, hidden: bool) -> Step {
        let mut eliminate = Vec::new();
        for (i, &c) in self.cells.iter().enumerate() {
            if !d.contains(&i) {
                for k in self.cands[i].intersection(&m).iter() {
                    eliminate.push((c, k as u16));
                }
            }
        }
        let (cells, digits): (Vec<usize>, Vec<u16>) = if hidden {
            (
                (0..self.cells.len())
                    .filter(|i| !d.contains(i))
                    .map(|i| self.cells[i])
                    .collect(),
                self.digits
                    .iter()
                    .copied()
                    .filter(|&k| !m.contains(k as usize))
                    .collect(),
            )
        } else {
            (
                d.iter().map(|&i| self.cells[i]).collect(),
                m.iter().map(|k| k as u16).collect(),
            )
        };
        Step {
            rule: RuleKind::Pigeonhole { size, hidden },
            units: vec![self.unit],
            cells,
            digits,
            place: None,
            eliminate,
        }
    }

    /// Naked form of size `s` first, then the hidden form; `None` when neither makes progress.
    fn enumerate(&self, s: usize, deadline: &mut Deadline) -> Result<Option<Step>, Contradiction> {
        let m = self.cells.len();
        if 2 * s <= m {
            let mut chosen = Vec::with_capacity(s);
            let empty = DigitSet::EMPTY;
            if let Some(d) = choose(&self.cands, s, 1, 0, &mut chosen, empty, deadline)? {
                let digits = union_of(&self.cands, &d);
                return Ok(Some(self.step(&d, digits, s, false)));
            }
        }
        if 2 * s < m {
            let mut chosen = Vec::with_capacity(s);
            let empty = DigitSet::EMPTY;
            if let Some(h) = choose(&self.places, s, 1, 0, &mut chosen, empty, deadline)? {
                // Digits `h` fit only in cells `e`: the paper's D is the other cells and M the
                // other digits.
                let e = union_of(&self.places, &h);
                let d: Vec<usize> = (0..m).filter(|&i| !e.contains(i + 1)).collect();
                let hd: Vec<usize> = h.iter().map(|&j| self.digits[j] as usize).collect();
                let mset: DigitSet<W> = self
                    .digits
                    .iter()
                    .map(|&k| k as usize)
                    .filter(|k| !hd.contains(k))
                    .collect();
                return Ok(Some(self.step(&d, mset, s, true)));
            }
        }
        Ok(None)
    }

    /// The exact search through a perfect matching (see the module documentation); the
    /// pattern with the smallest form among those that make progress. Gives up (none) once
    /// `deadline` has expired.
    fn hall(&self, deadline: &mut Deadline) -> Result<Option<Step>, Contradiction> {
        let m = self.cells.len();
        // The index of each missing digit, by a table: a search through `digits` for every
        // candidate made the reach below cubic in the unit's size.
        let mut index = vec![
            usize::MAX;
            self.digits
                .iter()
                .map(|&d| d as usize + 1)
                .max()
                .unwrap_or(0)
        ];
        for (j, &d) in self.digits.iter().enumerate() {
            index[d as usize] = j;
        }
        let index_of = |k: usize| index.get(k).copied().filter(|&j| j != usize::MAX);
        // mate_of_digit[j] = index of the cell matched to digit index j.
        let mut mate_of_digit: Vec<Option<usize>> = vec![None; m];
        for i in 0..m {
            if deadline.expired() {
                return Ok(None);
            }
            let mut seen = vec![false; m];
            if !augment(i, &self.cands, &index_of, &mut mate_of_digit, &mut seen) {
                return Err(Contradiction);
            }
        }
        let mut mate_of_cell = vec![0usize; m];
        for (j, mate) in mate_of_digit.iter().enumerate() {
            mate_of_cell[mate.ok_or(Contradiction)?] = j;
        }
        // reach[q]: cells reachable from q (q included), as positions i + 1.
        let mut reach: Vec<DigitSet<W>> = Vec::with_capacity(m);
        for q in 0..m {
            if deadline.expired() {
                return Ok(None);
            }
            reach.push({
                let mut set = DigitSet::<W>::single(q + 1);
                let mut stack = vec![q];
                while let Some(c) = stack.pop() {
                    for k in self.cands[c].iter() {
                        if let Some(j) = index_of(k) {
                            if let Some(next) = mate_of_digit[j] {
                                if !set.contains(next + 1) {
                                    set.insert(next + 1);
                                    stack.push(next);
                                }
                            }
                        }
                    }
                }
                set
            });
        }
        let mut best: Option<(usize, usize)> = None;
        for (p, cand) in self.cands.iter().enumerate() {
            for k in cand.iter() {
                let Some(j) = index_of(k) else { continue };
                let q = mate_of_digit[j].ok_or(Contradiction)?;
                if q == p || reach[q].contains(p + 1) {
                    continue;
                }
                let size = reach[q].len().min(m - reach[q].len());
                if best.is_none_or(|(_, s)| size < s) {
                    best = Some((q, size));
                }
            }
        }
        let Some((q, size)) = best else {
            return Ok(None);
        };
        let d: Vec<usize> = reach[q].iter().map(|i| i - 1).collect();
        let mset: DigitSet<W> = d
            .iter()
            .map(|&i| self.digits[mate_of_cell[i]] as usize)
            .collect();
        let hidden = d.len() > m - d.len();
        Ok(Some(self.step(&d, mset, size, hidden)))
    }
}

/// Kuhn's augmenting path from open cell `i`.
fn augment<const W: usize>(
    i: usize,
    cands: &[DigitSet<W>],
    index_of: &dyn Fn(usize) -> Option<usize>,
    mate_of_digit: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for k in cands[i].iter() {
        let Some(j) = index_of(k) else { continue };
        if seen[j] {
            continue;
        }
        seen[j] = true;
        let free = match mate_of_digit[j] {
            None => true,
            Some(other) => augment(other, cands, index_of, mate_of_digit, seen),
        };
        if free {
            mate_of_digit[j] = Some(i);
            return true;
        }
    }
    false
}

fn union_of<const W: usize>(sets: &[DigitSet<W>], chosen: &[usize]) -> DigitSet<W> {
    chosen
        .iter()
        .fold(DigitSet::EMPTY, |u, &i| u.union(&sets[i]))
}

impl<const W: usize> Rule<W> for Pigeonhole {
    fn find(
        &mut self,
        b: &Board<W>,
        deadline: &mut Deadline,
    ) -> Result<Option<Step>, Contradiction> {
        let units = b.geo.unit_count();
        let mut parts: Vec<Part<W>> = Vec::with_capacity(units);
        for u in 0..units {
            if deadline.expired() {
                return Ok(None);
            }
            parts.push(Part::of(b, u));
        }
        for s in self.lo..=self.hi {
            for p in &parts {
                if let Some(step) = p.enumerate(s, deadline)? {
                    return Ok(Some(step));
                }
            }
        }
        if self.hall {
            let k = self.hi.max(self.lo.saturating_sub(1));
            for p in &parts {
                if p.cells.len() > 2 * k + 1 {
                    if let Some(step) = p.hall(deadline)? {
                        return Ok(Some(step));
                    }
                }
            }
        }
        Ok(None)
    }
}
