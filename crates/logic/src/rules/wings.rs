//! XY-wing and XYZ-wing.
//!
//! - XY-wing: a pivot with candidates `{a, b}` sees two pincers `{a, c}` and `{b, c}`. Whichever
//!   digit the pivot takes, one pincer is `c`, so `c` leaves every cell that sees both pincers.
//! - XYZ-wing: a pivot `{a, b, c}` sees pincers `{a, c}` and `{b, c}`; one of the three is `c`,
//!   so `c` leaves every cell that sees all three.

use sudoku_core::{Deadline, DigitSet};

use super::Rule;
use crate::board::{Board, Contradiction};
use crate::step::{RuleKind, Step};

/// XY-wing.
pub(crate) struct XyWing;

/// XYZ-wing.
pub(crate) struct XyzWing;

/// Wings whose pivot has `pivot_len` candidates: pivot, two pincers, the digit `c`.
/// Gives up (none) once `deadline` has expired.
fn wing<const W: usize>(b: &Board<W>, pivot_len: usize, deadline: &mut Deadline) -> Option<Step> {
    let cells = b.geo.cells();
    for p in 0..cells {
        if deadline.expired() {
            return None;
        }
        let pc = b.cand[p];
        if b.value[p] != 0 || pc.len() != pivot_len {
            continue;
        }
        let pincers: Vec<usize> = b
            .geo
            .peers(p)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.cand[c].len() == 2)
            .filter(|&c| {
                let common = b.cand[c].intersection(&pc).len();
                if pivot_len == 2 {
                    common == 1
                } else {
                    common == 2
                }
            })
            .collect();
        for (i, &x) in pincers.iter().enumerate() {
            for &y in &pincers[i + 1..] {
                let (xc, yc) = (b.cand[x], b.cand[y]);
                if xc == yc {
                    continue;
                }
                let z = xc.intersection(&yc);
                let Some(c) = z.only() else { continue };
                let ok = if pivot_len == 2 {
                    // c is in neither the pivot, and the pincers use both pivot digits.
                    !pc.contains(c) && xc.union(&yc).union(&pc).len() == 3
                } else {
                    pc.contains(c) && xc.union(&yc) == pc
                };
                if !ok {
                    continue;
                }
                let eliminate: Vec<(usize, u16)> = b
                    .geo
                    .peers(x)
                    .iter()
                    .map(|&e| e as usize)
                    .filter(|&e| e != y && e != p && b.cand[e].contains(c) && b.sees(e, y))
                    .filter(|&e| pivot_len == 2 || b.sees(e, p))
                    .map(|e| (e, c as u16))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                let digits: DigitSet<W> = pc.union(&xc).union(&yc);
                return Some(Step {
                    rule: if pivot_len == 2 {
                        RuleKind::XyWing
                    } else {
                        RuleKind::XyzWing
                    },
                    units: Vec::new(),
                    cells: vec![p, x, y],
                    digits: digits.iter().map(|d| d as u16).collect(),
                    place: None,
                    eliminate,
                });
            }
        }
    }
    None
}

impl<const W: usize> Rule<W> for XyWing {
    fn find(
        &mut self,
        b: &Board<W>,
        deadline: &mut Deadline,
    ) -> Result<Option<Step>, Contradiction> {
        Ok(wing(b, 2, deadline))
    }
}

impl<const W: usize> Rule<W> for XyzWing {
    fn find(
        &mut self,
        b: &Board<W>,
        deadline: &mut Deadline,
    ) -> Result<Option<Step>, Contradiction> {
        Ok(wing(b, 3, deadline))
    }
}
