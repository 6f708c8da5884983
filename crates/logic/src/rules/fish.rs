//! Fish: for one digit, `s` rows whose places for it lie in `s` columns in all (X-wing for
//! `s = 2`, swordfish 3, jellyfish 4); the digit fills those columns from those rows, so it
//! leaves the columns' other cells. Then the same with rows and columns swapped.

use sudoku_core::{Deadline, DigitSet, Geometry, UnitKind};

use super::{choose, Rule};
use crate::board::{Board, Contradiction};
use crate::step::{RuleKind, Step};

/// Fish of one size.
pub(crate) struct Fish {
    size: usize,
    /// Unit index of each row and each column.
    rows: Vec<usize>,
    cols: Vec<usize>,
}

impl Fish {
    pub fn new(geo: &Geometry, size: usize) -> Fish {
        let n = geo.size();
        let (mut rows, mut cols) = (vec![0; n], vec![0; n]);
        for u in 0..geo.unit_count() {
            match geo.unit_kind(u) {
                UnitKind::Row(r) => rows[r] = u,
                UnitKind::Column(c) => cols[c] = u,
                _ => {}
            }
        }
        Fish { size, rows, cols }
    }
}

impl<const W: usize> Rule<W> for Fish {
    fn find(
        &mut self,
        b: &Board<W>,
        deadline: &mut Deadline,
    ) -> Result<Option<Step>, Contradiction> {
        let n = b.geo.size();
        for d in 1..=n {
            for by_rows in [true, false] {
                if deadline.expired() {
                    return Ok(None);
                }
                let (base, cover) = if by_rows {
                    (&self.rows, &self.cols)
                } else {
                    (&self.cols, &self.rows)
                };
                // Places of d in each base line, as cover-line positions plus one.
                let places: Vec<DigitSet<W>> = base
                    .iter()
                    .map(|&u| {
                        b.geo
                            .unit(u)
                            .iter()
                            .enumerate()
                            .filter(|(_, &c)| b.cand[c as usize].contains(d))
                            .map(|(i, _)| i + 1)
                            .collect()
                    })
                    .collect();
                // A line with one place is a hidden single, with none a filled digit.
                let mut chosen = Vec::with_capacity(self.size);
                let found = choose(
                    &places,
                    self.size,
                    2,
                    0,
                    &mut chosen,
                    DigitSet::EMPTY,
                    deadline,
                )?;
                if let Some(lines) = found {
                    let covered = lines
                        .iter()
                        .fold(DigitSet::<W>::EMPTY, |s, &i| s.union(&places[i]));
                    let mut eliminate = Vec::new();
                    let mut cells = Vec::new();
                    for (i, _) in places.iter().enumerate() {
                        for p in covered.iter() {
                            let c = b.geo.unit(base[i])[p - 1] as usize;
                            if !b.cand[c].contains(d) {
                                continue;
                            }
                            if lines.contains(&i) {
                                cells.push(c);
                            } else {
                                eliminate.push((c, d as u16));
                            }
                        }
                    }
                    eliminate.sort_unstable();
                    let mut units: Vec<usize> = lines.iter().map(|&i| base[i]).collect();
                    units.extend(covered.iter().map(|p| cover[p - 1]));
                    return Ok(Some(Step {
                        rule: RuleKind::Fish { size: self.size },
                        units,
                        cells,
                        digits: vec![d as u16],
                        place: None,
                        eliminate,
                    }));
                }
            }
        }
        Ok(None)
    }
}
