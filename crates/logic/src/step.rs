//! One deduction: which rule, where, and what it placed or eliminated. Steps are plain data
//! (cell indices, digits), independent of the candidate width, so `explain` and `rate` print
//! and score them without knowing how they were found.

use std::fmt;

use sudoku_core::Geometry;

/// The rules, in the order the solver tries them (easiest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleKind {
    /// A cell with one candidate left is filled.
    NakedSingle,
    /// A digit with one place left in a unit goes there.
    HiddenSingle,
    /// A digit confined, within a block, to its meeting with a line leaves the rest of the line.
    Pointing,
    /// A digit confined, within a line (or diagonal), to its meeting with a block leaves the
    /// rest of the block.
    Claiming,
    /// The pigeonhole rule with `size` cells and digits. `hidden`: found through the
    /// complementary form (the digits `M` only fit in the cells `D`; the paper's `(D, M)` is
    /// then the other open cells and the other missing digits).
    Pigeonhole {
        /// `|D| = |M|` of the form found (the smaller of the two forms).
        size: usize,
        /// Found in the complementary (hidden-subset) form.
        hidden: bool,
    },
    /// Fish of `size` lines: X-wing (2), swordfish (3), jellyfish (4).
    Fish {
        /// Number of base lines.
        size: usize,
    },
    /// XY-wing: a bivalue pivot and two bivalue pincers.
    XyWing,
    /// XYZ-wing: a trivalue pivot and two bivalue pincers.
    XyzWing,
}

impl RuleKind {
    /// A short name, for output and results (`pigeonhole-3`, `hidden-pigeonhole-2`,
    /// `x-wing`, ...).
    pub fn name(self) -> String {
        match self {
            RuleKind::NakedSingle => "naked-single".into(),
            RuleKind::HiddenSingle => "hidden-single".into(),
            RuleKind::Pointing => "pointing".into(),
            RuleKind::Claiming => "claiming".into(),
            RuleKind::Pigeonhole { size, hidden } => {
                format!("{}pigeonhole-{size}", if hidden { "hidden-" } else { "" })
            }
            RuleKind::Fish { size: 2 } => "x-wing".into(),
            RuleKind::Fish { size: 3 } => "swordfish".into(),
            RuleKind::Fish { size: 4 } => "jellyfish".into(),
            RuleKind::Fish { size } => format!("fish-{size}"),
            RuleKind::XyWing => "xy-wing".into(),
            RuleKind::XyzWing => "xyz-wing".into(),
        }
    }

    /// The difficulty of one application on the scale of the crate README: 1.0 (naked single)
    /// up to 5.9; a puzzle the rules cannot finish scores from 6.0 up.
    pub fn difficulty(self) -> f64 {
        match self {
            RuleKind::NakedSingle => 1.0,
            RuleKind::HiddenSingle => 1.2,
            RuleKind::Pointing => 1.7,
            RuleKind::Claiming => 1.9,
            RuleKind::Pigeonhole { size, hidden } => {
                let h = if hidden { 0.1 } else { 0.0 };
                match size {
                    0 | 1 => 1.0 + h,
                    2 => 3.0 + h,
                    3 => 3.6 + h,
                    4 => 5.0 + h,
                    s => (5.3 + 0.1 * (s - 4) as f64).min(5.9),
                }
            }
            RuleKind::Fish { size } => match size {
                0..=2 => 3.2,
                3 => 3.8,
                _ => 5.2,
            },
            RuleKind::XyWing => 4.2,
            RuleKind::XyzWing => 4.4,
        }
    }

    /// The smallest rule set (`rules=`) that contains this rule.
    pub fn rule_set(self) -> RuleSet {
        match self {
            RuleKind::NakedSingle | RuleKind::HiddenSingle => RuleSet::Singles,
            RuleKind::Pigeonhole { .. } => RuleSet::Pigeonhole,
            RuleKind::Pointing | RuleKind::Claiming => RuleSet::TwoUnit,
            _ => RuleSet::All,
        }
    }
}

impl fmt::Display for RuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The nested rule sets of `rules=`: each contains the ones before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// Naked and hidden singles.
    Singles,
    /// Singles and the pigeonhole rule (every one-unit strategy: naked and hidden subsets of
    /// every size; Teles, Theorem 3).
    Pigeonhole,
    /// Plus locked candidates (pointing, claiming): the strategies over two units.
    TwoUnit,
    /// Plus fish (X-wing, swordfish, jellyfish), XY-wing and XYZ-wing.
    #[default]
    All,
}

impl RuleSet {
    /// Every set, smallest first.
    pub const ALL: [RuleSet; 4] = [
        RuleSet::Singles,
        RuleSet::Pigeonhole,
        RuleSet::TwoUnit,
        RuleSet::All,
    ];

    /// The name of `rules=`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Singles => "singles",
            RuleSet::Pigeonhole => "pigeonhole",
            RuleSet::TwoUnit => "two-unit",
            RuleSet::All => "all",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One application of a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The rule.
    pub rule: RuleKind,
    /// The units it looked at (indices into the geometry's units).
    pub units: Vec<usize>,
    /// The cells of the pattern (the pigeonhole rule's `D` as found, a fish's corners, a
    /// wing's pivot then pincers), row-major indices.
    pub cells: Vec<usize>,
    /// The digits of the pattern (the pigeonhole rule's `M` as found, the fish digit, ...).
    pub digits: Vec<u16>,
    /// A cell filled, with its digit (singles).
    pub place: Option<(usize, u16)>,
    /// (cell, digit) candidates removed. A placement's removals from its peers are implied
    /// and not listed.
    pub eliminate: Vec<(usize, u16)>,
}

impl Step {
    /// The step as one line of text, 1-based as a person reads a grid:
    /// `pigeonhole-2 in column 4: r1c4 r3c4 hold {1,8}; removes r6c4 -1 -8, r7c4 -1 -8`.
    pub fn describe(&self, geo: &Geometry) -> String {
        let units: Vec<String> = self
            .units
            .iter()
            .map(|&u| geo.unit_kind(u).to_string())
            .collect();
        let mut s = self.rule.name();
        if !units.is_empty() {
            s.push_str(" in ");
            s.push_str(&units.join(", "));
        }
        s.push_str(": ");
        let cells = cell_list(geo, &self.cells);
        let digits = digit_list(&self.digits);
        match self.rule {
            RuleKind::NakedSingle | RuleKind::HiddenSingle => {}
            RuleKind::Pigeonhole { hidden: false, .. } => {
                s.push_str(&format!("{cells} hold only {{{digits}}}; "))
            }
            RuleKind::Pigeonhole { hidden: true, .. } => {
                s.push_str(&format!("{{{digits}}} fit only in {cells}; "))
            }
            RuleKind::Pointing | RuleKind::Claiming => {
                s.push_str(&format!("{digits} only in {cells}; "))
            }
            RuleKind::Fish { .. } => s.push_str(&format!("{digits} on {cells}; ")),
            RuleKind::XyWing | RuleKind::XyzWing => {
                s.push_str(&format!("pivot and pincers {cells} {{{digits}}}; "))
            }
        }
        if let Some((c, d)) = self.place {
            s.push_str(&format!("{} = {d}", cell_name(geo, c)));
        }
        if !self.eliminate.is_empty() {
            s.push_str("removes ");
            let mut groups: Vec<String> = Vec::new();
            let mut i = 0;
            while i < self.eliminate.len() {
                let c = self.eliminate[i].0;
                let mut g = cell_name(geo, c);
                while i < self.eliminate.len() && self.eliminate[i].0 == c {
                    g.push_str(&format!(" -{}", self.eliminate[i].1));
                    i += 1;
                }
                groups.push(g);
            }
            s.push_str(&groups.join(", "));
        }
        s
    }
}

/// `r3c5`, 1-based.
pub fn cell_name(geo: &Geometry, c: usize) -> String {
    format!("r{}c{}", geo.row(c) + 1, geo.col(c) + 1)
}

fn cell_list(geo: &Geometry, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| cell_name(geo, c))
        .collect::<Vec<_>>()
        .join(" ")
}

fn digit_list(digits: &[u16]) -> String {
    digits
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A `rules=` name that is not a rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set `{0}` (expected singles, pigeonhole, two-unit or all)")]
pub struct UnknownRuleSet(pub String);

impl std::str::FromStr for RuleSet {
    type Err = UnknownRuleSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRuleSet(s.to_string()))
    }
}
