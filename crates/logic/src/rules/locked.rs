//! Locked candidates, the two-unit rules: where units `U` and `V` meet in two cells or more, a
//! digit whose places in `U` all lie in the meeting must go there, so it leaves the rest of
//! `V`. Pointing when `U` is a block, claiming when `U` is a line (or a diagonal). Any pair of
//! units of the variant counts, so Sudoku-X gets diagonal/block pairs too.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use sudoku_core::{Deadline, DigitSet, Geometry, Order, UnitKind, Variant};

use super::Rule;
use crate::board::{Board, Contradiction};
use crate::step::{RuleKind, Step};

/// (U, V, cells of U ∩ V, cells of U \ V, cells of V \ U).
type Pairs = Vec<(usize, usize, Vec<usize>, Vec<usize>, Vec<usize>)>;

/// Locked candidates over every ordered pair of units meeting in two cells or more.
pub(crate) struct Locked {
    pairs: Arc<Pairs>,
}

thread_local! {
    /// The pair tables already built, per (order, variant): building one costs more than
    /// rating an easy puzzle.
    static PAIRS: RefCell<HashMap<(Order, Variant), Arc<Pairs>>> = RefCell::new(HashMap::new());
}

impl Locked {
    pub fn new(geo: &Geometry) -> Locked {
        let key = (geo.order(), geo.variant());
        let pairs = PAIRS.with(|m| {
            Arc::clone(
                m.borrow_mut()
                    .entry(key)
                    .or_insert_with(|| Arc::new(Locked::pairs(geo))),
            )
        });
        Locked { pairs }
    }

    fn pairs(geo: &Geometry) -> Pairs {
        let units = geo.unit_count();
        let mut pairs = Vec::new();
        // The units V that meet U are found through the units of U's cells, not by testing
        // every pair: the pair test is (units × cells per unit)², about 4·10⁹ steps at 144×144,
        // seconds before the first rule could read a clock.
        let mut in_u = vec![false; geo.cells()];
        // Pointing pairs (U a block) first: they are the easier of the two.
        for pointing in [true, false] {
            for u in 0..units {
                let is_block = matches!(geo.unit_kind(u), UnitKind::Block(_));
                if is_block != pointing {
                    continue;
                }
                let a = geo.unit(u);
                // V → the cells of U it holds, in U's order; V in increasing order.
                let mut meets: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
                for &c in a {
                    for &v in geo.cell_units(c as usize) {
                        if v as usize != u {
                            meets.entry(v as usize).or_default().push(c as usize);
                        }
                    }
                }
                for &c in a {
                    in_u[c as usize] = true;
                }
                for (v, both) in meets {
                    if both.len() < 2 {
                        continue;
                    }
                    let only_u = a
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|c| !both.contains(c))
                        .collect();
                    let only_v = geo
                        .unit(v)
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| !in_u[c])
                        .collect();
                    pairs.push((u, v, both, only_u, only_v));
                }
                for &c in a {
                    in_u[c as usize] = false;
                }
            }
        }
        pairs
    }
}

impl<const W: usize> Rule<W> for Locked {
    fn find(
        &mut self,
        b: &Board<W>,
        deadline: &mut Deadline,
    ) -> Result<Option<Step>, Contradiction> {
        let or = |cells: &[usize]| {
            cells
                .iter()
                .fold(DigitSet::<W>::EMPTY, |s, &c| s.union(&b.cand[c]))
        };
        for (u, v, both, only_u, only_v) in self.pairs.iter() {
            if deadline.expired() {
                return Ok(None);
            }
            let locked = or(both).difference(&or(only_u));
            let hit = locked.intersection(&or(only_v));
            let Some(d) = hit.first() else { continue };
            let eliminate = only_v
                .iter()
                .filter(|&&c| b.cand[c].contains(d))
                .map(|&c| (c, d as u16))
                .collect();
            let rule = if matches!(b.geo.unit_kind(*u), UnitKind::Block(_)) {
                RuleKind::Pointing
            } else {
                RuleKind::Claiming
            };
            return Ok(Some(Step {
                rule,
                units: vec![*u, *v],
                cells: both
                    .iter()
                    .copied()
                    .filter(|&c| b.cand[c].contains(d))
                    .collect(),
                digits: vec![d as u16],
                place: None,
                eliminate,
            }));
        }
        Ok(None)
    }
}
