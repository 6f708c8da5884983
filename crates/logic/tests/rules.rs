//! Every rule on a hand-built position where it is the easiest that applies, with its exact
//! eliminations; the paper's pigeonhole examples (Teles, Figuras 25-29) as far as the text
//! allows; contradictions.

use sudoku_core::{Grid, Order, Puzzle, Variant};
use sudoku_logic::{first_step, LogicConfig, RuleKind, RuleSet, Step};

/// An empty grid of order `n` with every candidate open.
struct Pos {
    size: usize,
    givens: Grid,
    cands: Vec<Vec<u16>>,
}

impl Pos {
    fn new(n: usize) -> Pos {
        let order = Order::new(n).unwrap();
        let size = order.size();
        Pos {
            size,
            givens: Grid::empty(order),
            cands: vec![(1..=size as u16).collect(); order.cells()],
        }
    }

    fn cell(&self, r: usize, c: usize) -> usize {
        (r - 1) * self.size + (c - 1)
    }

    /// Row r, column c (1-based) keeps exactly `digits`.
    fn set(&mut self, r: usize, c: usize, digits: &[u16]) -> &mut Self {
        let i = self.cell(r, c);
        self.cands[i] = digits.to_vec();
        self
    }

    /// Row r, column c loses `digits`.
    fn drop(&mut self, r: usize, c: usize, digits: &[u16]) -> &mut Self {
        let i = self.cell(r, c);
        self.cands[i].retain(|d| !digits.contains(d));
        self
    }

    fn give(&mut self, r: usize, c: usize, d: u16) -> &mut Self {
        let i = self.cell(r, c);
        self.givens.set(i, d);
        self
    }

    fn step(&self, rules: RuleSet) -> Step {
        self.step_with(LogicConfig {
            rules,
            ..LogicConfig::default()
        })
    }

    fn step_with(&self, config: LogicConfig) -> Step {
        let puzzle = Puzzle::new(self.givens.clone(), Variant::Classic);
        first_step(&puzzle, &self.cands, &config)
            .expect("no contradiction")
            .expect("a step")
    }

    /// (cell, digit) pairs from 1-based (row, column, digits).
    fn pairs(&self, list: &[(usize, usize, &[u16])]) -> Vec<(usize, u16)> {
        let mut v: Vec<(usize, u16)> = list
            .iter()
            .flat_map(|&(r, c, ds)| ds.iter().map(move |&d| ((r - 1) * self.size + c - 1, d)))
            .collect();
        v.sort_unstable();
        v
    }
}

fn ph(size: usize, hidden: bool) -> RuleKind {
    RuleKind::Pigeonhole { size, hidden }
}

fn sorted(mut v: Vec<(usize, u16)>) -> Vec<(usize, u16)> {
    v.sort_unstable();
    v
}

#[test]
fn empty_grid_has_no_step() {
    let p = Pos::new(3);
    let puzzle = Puzzle::new(p.givens.clone(), Variant::Classic);
    assert_eq!(
        first_step(&puzzle, &p.cands, &LogicConfig::default()),
        Ok(None)
    );
}

#[test]
fn naked_single() {
    let mut p = Pos::new(3);
    p.set(4, 6, &[5]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::NakedSingle);
    assert_eq!(s.place, Some((p.cell(4, 6), 5)));
    assert!(s.eliminate.is_empty());
}

#[test]
fn hidden_single() {
    let mut p = Pos::new(3);
    for c in 2..=9 {
        p.drop(1, c, &[5]);
    }
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::HiddenSingle);
    assert_eq!(s.place, Some((p.cell(1, 1), 5)));
}

#[test]
fn pigeonhole_naked_pair() {
    let mut p = Pos::new(3);
    p.set(1, 1, &[1, 2]).set(1, 5, &[1, 2]);
    let s = p.step(RuleSet::Pigeonhole);
    assert_eq!(s.rule, ph(2, false));
    assert_eq!(s.cells, vec![p.cell(1, 1), p.cell(1, 5)]);
    assert_eq!(s.digits, vec![1, 2]);
    let expect: Vec<(usize, usize, &[u16])> = [2, 3, 4, 6, 7, 8, 9]
        .iter()
        .map(|&c| (1, c, &[1u16, 2][..]))
        .collect();
    assert_eq!(sorted(s.eliminate), p.pairs(&expect));
}

#[test]
fn pigeonhole_hidden_pair_is_the_complementary_form() {
    let mut p = Pos::new(3);
    for c in [2, 3, 4, 6, 7, 8, 9] {
        p.drop(1, c, &[1, 2]);
    }
    let s = p.step(RuleSet::Pigeonhole);
    assert_eq!(s.rule, ph(2, true));
    assert_eq!(s.cells, vec![p.cell(1, 1), p.cell(1, 5)]);
    assert_eq!(s.digits, vec![1, 2]);
    let rest: &[u16] = &[3, 4, 5, 6, 7, 8, 9];
    assert_eq!(sorted(s.eliminate), p.pairs(&[(1, 1, rest), (1, 5, rest)]));
}

#[test]
fn pigeonhole_naked_triple_and_quad() {
    let mut p = Pos::new(3);
    p.set(1, 1, &[1, 2]).set(1, 4, &[2, 3]).set(1, 7, &[1, 3]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, ph(3, false));
    let expect: Vec<(usize, usize, &[u16])> = [2, 3, 5, 6, 8, 9]
        .iter()
        .map(|&c| (1, c, &[1u16, 2, 3][..]))
        .collect();
    assert_eq!(sorted(s.eliminate), p.pairs(&expect));

    let mut p = Pos::new(3);
    p.set(1, 1, &[1, 2])
        .set(1, 4, &[2, 3])
        .set(1, 7, &[3, 4])
        .set(1, 9, &[4, 1]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, ph(4, false));
    let expect: Vec<(usize, usize, &[u16])> = [2, 3, 5, 6, 8]
        .iter()
        .map(|&c| (1, c, &[1u16, 2, 3, 4][..]))
        .collect();
    assert_eq!(sorted(s.eliminate), p.pairs(&expect));
}

#[test]
fn pigeonhole_beyond_subset_max_through_the_matching() {
    // Order 4: five cells of row 1 share five digits in a cycle of pairs. With enumeration
    // limited to pairs, only the exact (Hall) search can see it.
    let mut p = Pos::new(4);
    p.set(1, 1, &[1, 2])
        .set(1, 2, &[2, 3])
        .set(1, 3, &[3, 4])
        .set(1, 4, &[4, 5])
        .set(1, 5, &[5, 1]);
    let config = LogicConfig {
        rules: RuleSet::Pigeonhole,
        subset_max: 2,
        hall: true,
    };
    let s = p.step_with(config);
    assert_eq!(s.rule, ph(5, false));
    let expect: Vec<(usize, usize, &[u16])> =
        (6..=16).map(|c| (1, c, &[1u16, 2, 3, 4, 5][..])).collect();
    let hall = sorted(s.eliminate);
    assert_eq!(hall, p.pairs(&expect));
    // Enumeration up to 5 finds the same pattern.
    let s = p.step_with(LogicConfig {
        subset_max: 5,
        hall: false,
        ..config
    });
    assert_eq!(sorted(s.eliminate), hall);
    // Without either, the rule does not see it.
    let puzzle = Puzzle::new(p.givens.clone(), Variant::Classic);
    let none = LogicConfig {
        hall: false,
        ..config
    };
    assert_eq!(first_step(&puzzle, &p.cands, &none), Ok(None));
}

#[test]
fn pointing() {
    let mut p = Pos::new(3);
    for r in 2..=3 {
        for c in 1..=3 {
            p.drop(r, c, &[5]);
        }
    }
    let s = p.step(RuleSet::TwoUnit);
    assert_eq!(s.rule, RuleKind::Pointing);
    let expect: Vec<(usize, usize, &[u16])> = (4..=9).map(|c| (1, c, &[5u16][..])).collect();
    assert_eq!(sorted(s.eliminate), p.pairs(&expect));
}

#[test]
fn claiming() {
    let mut p = Pos::new(3);
    for c in 4..=9 {
        p.drop(1, c, &[5]);
    }
    let s = p.step(RuleSet::TwoUnit);
    assert_eq!(s.rule, RuleKind::Claiming);
    let mut expect: Vec<(usize, usize, &[u16])> = Vec::new();
    for r in 2..=3 {
        for c in 1..=3 {
            expect.push((r, c, &[5]));
        }
    }
    assert_eq!(sorted(s.eliminate), p.pairs(&expect));
}

/// Digit 5 keeps, in each base row, only the given columns.
fn fish_rows(rows: &[(usize, &[usize])]) -> Pos {
    let mut p = Pos::new(3);
    for &(r, cols) in rows {
        for c in 1..=9 {
            if !cols.contains(&c) {
                p.drop(r, c, &[5]);
            }
        }
    }
    p
}

fn fish_elims(p: &Pos, rows: &[usize], cols: &[usize]) -> Vec<(usize, u16)> {
    let mut v = Vec::new();
    for r in 1..=9 {
        if !rows.contains(&r) {
            for &c in cols {
                v.push((p.cell(r, c), 5));
            }
        }
    }
    sorted(v)
}

#[test]
fn x_wing() {
    let p = fish_rows(&[(1, &[1, 5]), (5, &[1, 5])]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::Fish { size: 2 });
    assert_eq!(sorted(s.eliminate), fish_elims(&p, &[1, 5], &[1, 5]));
}

#[test]
fn swordfish() {
    let p = fish_rows(&[(1, &[1, 5]), (5, &[5, 9]), (9, &[1, 9])]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::Fish { size: 3 });
    assert_eq!(sorted(s.eliminate), fish_elims(&p, &[1, 5, 9], &[1, 5, 9]));
}

#[test]
fn jellyfish() {
    // A 4-cycle of columns 1-4-2-7-1 whose pairs cross blocks, with two base rows in the
    // first band covering its three blocks, so no block or line confines the digit.
    let p = fish_rows(&[(1, &[1, 4]), (2, &[2, 7]), (4, &[4, 2]), (7, &[7, 1])]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::Fish { size: 4 });
    assert_eq!(
        sorted(s.eliminate),
        fish_elims(&p, &[1, 2, 4, 7], &[1, 2, 4, 7])
    );
}

#[test]
fn xy_wing() {
    let mut p = Pos::new(3);
    p.set(1, 1, &[1, 2]).set(1, 5, &[1, 3]).set(5, 1, &[2, 3]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::XyWing);
    assert_eq!(s.cells[0], p.cell(1, 1));
    assert_eq!(sorted(s.eliminate), p.pairs(&[(5, 5, &[3])]));
}

#[test]
fn xyz_wing() {
    let mut p = Pos::new(3);
    p.set(1, 1, &[1, 2, 3])
        .set(2, 2, &[1, 3])
        .set(1, 5, &[2, 3]);
    let s = p.step(RuleSet::All);
    assert_eq!(s.rule, RuleKind::XyzWing);
    assert_eq!(s.cells[0], p.cell(1, 1));
    assert_eq!(sorted(s.eliminate), p.pairs(&[(1, 2, &[3]), (1, 3, &[3])]));
}

#[test]
fn two_unit_rules_need_two_unit_set() {
    let mut p = Pos::new(3);
    for c in 4..=9 {
        p.drop(1, c, &[5]);
    }
    let puzzle = Puzzle::new(p.givens.clone(), Variant::Classic);
    let config = LogicConfig {
        rules: RuleSet::Pigeonhole,
        ..LogicConfig::default()
    };
    assert_eq!(first_step(&puzzle, &p.cands, &config), Ok(None));
}

#[test]
fn contradictions() {
    // A naked pair and a third cell with the same two digits in one row.
    let mut p = Pos::new(3);
    p.set(1, 1, &[1, 2]).set(1, 2, &[1, 2]).set(1, 3, &[1, 2]);
    // The pair's step empties the third cell (applying it is the contradiction).
    let s = p.step(RuleSet::Pigeonhole);
    for want in p.pairs(&[(1, 3, &[1, 2])]) {
        assert!(s.eliminate.contains(&want));
    }
    // A digit with no place in a row.
    let mut p = Pos::new(3);
    for c in 1..=9 {
        p.drop(1, c, &[7]);
    }
    let puzzle = Puzzle::new(p.givens.clone(), Variant::Classic);
    assert!(first_step(&puzzle, &p.cands, &LogicConfig::default()).is_err());
}

/// Figura 25-26 (p. 59-60): in column 4 (the paper's block B13) squares 4 and 22 (r1c4, r3c4)
/// hold only {1, 8}, so 1 and 8 leave squares 49 and 58 (r6c4, r7c4), which keep {7, 9}. The
/// figures are garbled in the source (their rows disagree with each other), so only the
/// column the text describes is transcribed: its givens and its candidates.
#[test]
fn paper_figure_25_column_4() {
    let mut p = Pos::new(3);
    p.give(2, 4, 6)
        .give(4, 4, 5)
        .give(5, 4, 2)
        .give(8, 4, 4)
        .give(9, 4, 3);
    p.set(1, 4, &[1, 8])
        .set(3, 4, &[1, 8])
        .set(6, 4, &[1, 7, 8, 9])
        .set(7, 4, &[1, 7, 9]);
    let s = p.step(RuleSet::Pigeonhole);
    assert_eq!(s.rule, ph(2, false));
    assert_eq!(s.cells, vec![p.cell(1, 4), p.cell(3, 4)]);
    assert_eq!(s.digits, vec![1, 8]);
    assert_eq!(
        sorted(s.eliminate),
        p.pairs(&[(6, 4, &[1, 8]), (7, 4, &[1])])
    );
}

/// Figura 27-29 (p. 61-63): in column 1 (B10) squares 28, 55, 64, 73 (r4c1, r7c1, r8c1,
/// r9c1) hold only {2, 4, 5, 9}, so those digits leave squares 1, 10, 19, and square 10
/// (r2c1) is left with 8. The same column also holds the hidden pair {6, 7} (r1c1, r3c1),
/// which is smaller, so the solver takes it first; the paper's set of size 4 is the
/// complement of the hidden triple {6, 7, 8} in r1c1..r3c1. Either way the eliminations the
/// paper lists are made and r2c1 = 8 follows.
#[test]
fn paper_figure_27_column_1() {
    let mut p = Pos::new(3);
    p.give(5, 1, 1).give(6, 1, 3);
    p.set(1, 1, &[2, 4, 6, 7, 8])
        .set(2, 1, &[2, 4, 8])
        .set(3, 1, &[2, 4, 6, 7, 8])
        .set(4, 1, &[2, 9])
        .set(7, 1, &[2, 4, 5, 9])
        .set(8, 1, &[2, 5, 9])
        .set(9, 1, &[2, 4, 5, 9]);
    let config = LogicConfig {
        rules: RuleSet::Pigeonhole,
        ..LogicConfig::default()
    };
    let mut removed = Vec::new();
    let mut placed = None;
    for _ in 0..10 {
        let s = p.step_with(config);
        if let Some(pl) = s.place {
            placed = Some(pl);
            break;
        }
        for &(c, d) in &s.eliminate {
            removed.push((c, d));
            p.cands[c].retain(|&x| x != d);
        }
    }
    assert_eq!(placed, Some((p.cell(2, 1), 8)));
    // r2c1 is filled before its own 2 and 4 need removing.
    for want in p.pairs(&[(1, 1, &[2, 4]), (3, 1, &[2, 4])]) {
        assert!(removed.contains(&want), "{want:?} not removed");
    }
}
