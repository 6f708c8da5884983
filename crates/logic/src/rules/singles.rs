//! Naked single (a cell with one candidate) and hidden single (a digit with one place in a
//! unit). Both are the pigeonhole rule with one cell: `D = {p}`, `M = C_p` for the naked
//! single; the complementary form for the hidden single.

use sudoku_core::{Deadline, DigitSet};

use super::Rule;
use crate::board::{Board, Contradiction};
use crate::step::{RuleKind, Step};

/// Naked single.
pub(crate) struct NakedSingle;

impl<const W: usize> Rule<W> for NakedSingle {
    // One pass over the cells: quick at every order, so it reads no clock.
    fn find(&mut self, b: &Board<W>, _: &mut Deadline) -> Result<Option<Step>, Contradiction> {
        for (c, cand) in b.cand.iter().enumerate() {
            if b.value[c] == 0 {
                if let Some(d) = cand.only() {
                    return Ok(Some(Step {
                        rule: RuleKind::NakedSingle,
                        units: Vec::new(),
                        cells: vec![c],
                        digits: vec![d as u16],
                        place: Some((c, d as u16)),
                        eliminate: Vec::new(),
                    }));
                }
            }
        }
        Ok(None)
    }
}

/// Hidden single; also reports a digit with no place left in a unit.
pub(crate) struct HiddenSingle;

impl<const W: usize> Rule<W> for HiddenSingle {
    // One pass over the units' cells: quick at every order, so it reads no clock.
    fn find(&mut self, b: &Board<W>, _: &mut Deadline) -> Result<Option<Step>, Contradiction> {
        let size = b.geo.size();
        for u in 0..b.geo.unit_count() {
            // Digits seen once and seen at least twice, by bitwise accumulation.
            let (mut once, mut twice) = (DigitSet::<W>::EMPTY, DigitSet::<W>::EMPTY);
            for &c in b.geo.unit(u) {
                let s = b.cand[c as usize];
                twice = twice.union(&once.intersection(&s));
                once = once.union(&s);
            }
            let missing = DigitSet::<W>::full(size).difference(&b.placed[u]);
            if !missing.difference(&once).is_empty() {
                return Err(Contradiction);
            }
            if let Some(d) = once.difference(&twice).first() {
                let c = b
                    .geo
                    .unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| b.cand[c].contains(d))
                    .ok_or(Contradiction)?;
                return Ok(Some(Step {
                    rule: RuleKind::HiddenSingle,
                    units: vec![u],
                    cells: vec![c],
                    digits: vec![d as u16],
                    place: Some((c, d as u16)),
                    eliminate: Vec::new(),
                }));
            }
        }
        Ok(None)
    }
}
