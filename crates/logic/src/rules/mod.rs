//! The rules, each one unit behind [`Rule`], and the ordered lists the solver tries.
//!
//! Every rule is sound: it removes only candidates that no solution uses (and so places only
//! digits every solution has), which is why the `logic` placements can be checked against a
//! puzzle's unique solution and why a rule that runs out of room proves infeasibility.

mod fish;
mod locked;
mod pigeonhole;
mod singles;
mod wings;

use sudoku_core::{Deadline, DigitSet};

use crate::board::{Board, Contradiction};
use crate::step::{RuleSet, Step};

pub(crate) use fish::Fish;
pub(crate) use locked::Locked;
pub(crate) use pigeonhole::Pigeonhole;
pub(crate) use singles::{HiddenSingle, NakedSingle};
pub(crate) use wings::{XyWing, XyzWing};

/// One rule: finds one application that makes progress, or none.
pub(crate) trait Rule<const W: usize>: Send {
    /// The first application in this rule's own order (smallest patterns first) that places
    /// a digit or removes a candidate; a contradiction when the position has no solution.
    /// A search that can run long on a large grid reads `deadline` as it goes and gives up
    /// (none found) once it has expired; the caller tells that from "stuck" by the deadline.
    fn find(
        &mut self,
        board: &Board<W>,
        deadline: &mut Deadline,
    ) -> Result<Option<Step>, Contradiction>;
}

/// The rules of `set`, easiest first. `subset_max` bounds the pigeonhole sets searched by
/// enumeration; `hall` adds the exact matching-based search for larger sets.
pub(crate) fn rule_list<const W: usize>(
    set: RuleSet,
    subset_max: usize,
    hall: bool,
    board: &Board<W>,
) -> Vec<Box<dyn Rule<W>>> {
    let mut rules: Vec<Box<dyn Rule<W>>> = vec![Box::new(NakedSingle), Box::new(HiddenSingle)];
    let pigeon = set >= RuleSet::Pigeonhole;
    let two = set >= RuleSet::TwoUnit;
    let all = set >= RuleSet::All;
    let ph = |lo: usize, hi: usize, hall: bool| -> Box<dyn Rule<W>> {
        Box::new(Pigeonhole::new(lo, hi.min(subset_max), hall))
    };
    if two {
        rules.push(Box::new(Locked::new(&board.geo)));
    }
    if pigeon && subset_max >= 2 {
        rules.push(ph(2, 2, false));
    }
    if all {
        rules.push(Box::new(Fish::new(&board.geo, 2)));
    }
    if pigeon && subset_max >= 3 {
        rules.push(ph(3, 3, false));
    }
    if all {
        rules.push(Box::new(Fish::new(&board.geo, 3)));
        rules.push(Box::new(XyWing));
        rules.push(Box::new(XyzWing));
    }
    if pigeon && subset_max >= 4 {
        rules.push(ph(4, 4, false));
    }
    if all {
        rules.push(Box::new(Fish::new(&board.geo, 4)));
    }
    if pigeon && (subset_max >= 5 || hall) {
        rules.push(ph(5, subset_max, hall));
    }
    rules
}

/// `s` items (from `start` on, beside `chosen`; items with fewer than `min_len` elements are
/// skipped) whose sets cover exactly `s` elements, such that another item meets those
/// elements; a contradiction when fewer elements than items. The search of the pigeonhole rule
/// (items: cells or digits) and of fish (items: lines). Gives up (none) once `deadline` has
/// expired: on a large grid the choices number in the millions.
pub(crate) fn choose<const W: usize>(
    sets: &[DigitSet<W>],
    s: usize,
    min_len: usize,
    start: usize,
    chosen: &mut Vec<usize>,
    union: DigitSet<W>,
    deadline: &mut Deadline,
) -> Result<Option<Vec<usize>>, Contradiction> {
    if deadline.expired() {
        return Ok(None);
    }
    if chosen.len() == s {
        if union.len() < s {
            return Err(Contradiction);
        }
        let progress = sets
            .iter()
            .enumerate()
            .any(|(i, x)| !chosen.contains(&i) && !x.intersection(&union).is_empty());
        return Ok(progress.then(|| chosen.clone()));
    }
    for i in start..sets.len() {
        let n = sets[i].len();
        if n < min_len.max(1) || n > s {
            continue;
        }
        let u = union.union(&sets[i]);
        if u.len() > s {
            continue;
        }
        chosen.push(i);
        let r = choose(sets, s, min_len, i + 1, chosen, u, deadline);
        chosen.pop();
        if let Some(found) = r? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}
