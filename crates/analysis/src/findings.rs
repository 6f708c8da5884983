//! The verdict first: per instance group (kind, variant, order and instance set), a leaderboard
//! of the method configurations and one sentence that names the winner, by how much it wins,
//! and whether the statistics support it. `findings.md` and the top of `report.html` are
//! written from these [`Finding`]s, which are data, so other documents (a README's table of the
//! best method per order and share of givens) can be made from them too.
//!
//! **Ranking.** Configurations are ranked by the share of trials they solved (a verified
//! answer), higher first, compared exactly as fractions; then by their **score**, the shifted
//! geometric mean (shift [`crate::tables::SGM_SHIFT_MS`] ms) of the PAR-2 scores of all their
//! trials (wall time when solved, else twice the configuration's time limit); then by name. The
//! solved share comes first because an answer matters more than its speed (as in the SAT
//! competition's ranking).
//!
//! **What decided.** First place goes to the configuration that solves more; between equal
//! solved shares, to the lower score. Each verdict says which it was ([`Decided`]): *solves
//! more*; *faster*, when the paired test below separates the two; *tied*, when it does not (the
//! order by score is then no evidence of a difference); *untested*, with too few instances.
//!
//! **Speed-up** of a configuration over the next one down the board: the next one's score over
//! its own. A geometric mean weighs every trial's time by its ratio, so one slow instance does
//! not decide it (as it would the mean, and PAR-2 is a mean); the shift keeps sub-millisecond
//! noise from making huge ratios; counting unsolved trials at their PAR-2 penalty keeps a method
//! from looking fast by failing the hard instances. When every trial is solved, the score is the
//! shifted geometric mean of the wall times, the performance table's SGM. The winner's speed-up
//! over the runner-up has a 95 % confidence interval by the percentile bootstrap over the
//! instances both ran, resampled in pairs ([`crate::baseline::paired_interval`], as `compare`
//! does), from [`MIN_PAIRS`] paired instances on.
//!
//! **Test.** The winner is tested against every other configuration of the group with the
//! Wilcoxon signed-rank test on the instances both ran, each instance's value the mean PAR-2
//! score of its trials (an unsolved trial counting twice the group's largest time limit, as in
//! [`crate::compare`]); the p-values are corrected with Holm's method over those tests (the
//! family of the claim "the winner is the best"), and the sentence reports the test against the
//! runner-up at α = [`ALPHA`]. Fewer than [`MIN_PAIRS`] paired instances: the sentence says there
//! are too few to test.

use std::collections::{BTreeMap, BTreeSet};

use crate::baseline::{paired_interval, Interval, RESAMPLES};
use crate::compare::{holm_pairs, instance_values, paired, PairTest, Values, ALPHA, MIN_PAIRS};
use crate::escape;
use crate::meta::config_label;
use crate::number::{num, p_value};
use crate::stats::median;
use crate::tables::{
    par2_score, set_key, shifted_geometric_mean, Caps, Cell, Line, SetKey, Table, SGM_SHIFT_MS,
};
use crate::Trial;

/// One line of a leaderboard: a method configuration on a group's instances.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The configuration, as [`config_label`] names it.
    pub config: String,
    /// Trials.
    pub trials: usize,
    /// Trials with a verified answer.
    pub solved: usize,
    /// PAR-2: the mean PAR-2 score of its trials; `None` when an unsolved trial has no known
    /// time limit.
    pub par2_ms: Option<f64>,
    /// The ranking score: the shifted geometric mean of the PAR-2 scores of its trials; `None`
    /// as for `par2_ms`.
    pub score_ms: Option<f64>,
    /// Median wall time of the solved trials.
    pub median_ms: Option<f64>,
    /// Median CPU time of the solved trials (every thread of the call).
    pub cpu_median_ms: Option<f64>,
    /// The most threads a trial of it ran on.
    pub threads: u32,
    /// Its score over the next configuration's: how much faster it is than the one ranked
    /// below it (`None` for the last, or without scores).
    pub speedup: Option<f64>,
}

impl Entry {
    /// Solved as `solved/trials`.
    pub fn solved_text(&self) -> String {
        format!("{}/{}", self.solved, self.trials)
    }
}

/// What the statistics say about the winner against the runner-up.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The Wilcoxon test rejects equality at α after Holm's correction, in the winner's favour.
    Significant {
        /// Paired instances.
        n: usize,
        /// Holm-corrected p.
        p_holm: f64,
    },
    /// It does not (or it favours the runner-up).
    NotSignificant {
        /// Paired instances.
        n: usize,
        /// Holm-corrected p.
        p_holm: f64,
    },
    /// Fewer than [`MIN_PAIRS`] paired instances.
    TooFew {
        /// Paired instances.
        n: usize,
    },
    /// A value was not a finite number.
    Untestable {
        /// Paired instances.
        n: usize,
    },
}

impl Verdict {
    /// The verdict of `t`, a test of the winner (its `a`) against another.
    fn of(t: &PairTest) -> Verdict {
        let n = t.n;
        match (&t.test, t.p_holm) {
            (Some(test), Some(p_holm)) => {
                // d = b − a, so R+ > R− favours a, the winner.
                let favours_winner = test.r_plus > test.r_minus;
                if p_holm < ALPHA && favours_winner {
                    Verdict::Significant { n, p_holm }
                } else {
                    Verdict::NotSignificant { n, p_holm }
                }
            }
            _ if n < MIN_PAIRS => Verdict::TooFew { n },
            _ => Verdict::Untestable { n },
        }
    }

    /// Whether the statistics support the winner.
    pub fn supported(&self) -> bool {
        matches!(self, Verdict::Significant { .. })
    }

    /// In a few words: `Wilcoxon, Holm-corrected p < 0.001`, `too few instances to test (3
    /// paired, 6 needed)`.
    pub fn text(&self) -> String {
        match self {
            Verdict::Significant { p_holm, .. } | Verdict::NotSignificant { p_holm, .. } => {
                format!("Wilcoxon, Holm-corrected p {}", p_text(*p_holm))
            }
            Verdict::TooFew { n } => {
                format!("too few instances to test: {n} paired, {MIN_PAIRS} needed")
            }
            Verdict::Untestable { .. } => "not tested: a time is not a finite number".into(),
        }
    }
}

/// What put one configuration ahead of another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// No other configuration ran the instances.
    Alone,
    /// It solved a larger share of its trials.
    SolvesMore,
    /// The same share solved, a lower score, and the paired test separates them.
    Faster,
    /// The same share solved; the paired test does not separate them, so the order by score
    /// is no evidence of a difference.
    Tied,
    /// The same share solved; too few paired instances (or a time that is not a number) to
    /// test: ranked by score alone.
    Untested,
    /// The same share solved, and no score to rank by (no time limit is known for an unsolved
    /// trial).
    Unscored,
}

impl Decided {
    /// From the two configurations, the first ranked above the second, and the test of the
    /// first against the second.
    fn of(first: &Entry, second: &Entry, verdict: &Verdict) -> Decided {
        if first.solved * second.trials > second.solved * first.trials {
            Decided::SolvesMore
        } else if first.score_ms.is_none() || second.score_ms.is_none() {
            Decided::Unscored
        } else {
            match verdict {
                Verdict::Significant { .. } => Decided::Faster,
                Verdict::NotSignificant { .. } => Decided::Tied,
                Verdict::TooFew { .. } | Verdict::Untestable { .. } => Decided::Untested,
            }
        }
    }

    /// The word in the tables: `solves more`, `faster`, `tie`, `untested`.
    pub fn word(self) -> &'static str {
        match self {
            Decided::Alone => "alone",
            Decided::SolvesMore => "solves more",
            Decided::Faster => "faster",
            Decided::Tied => "tie",
            Decided::Untested => "untested",
            Decided::Unscored => "unscored",
        }
    }
}

/// One configuration against another of the same group (the first ranked above the second):
/// what decided, the test, and the second's score over the first's with its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    /// What put the first ahead.
    pub decided: Decided,
    /// The Wilcoxon test of the first against the second.
    pub verdict: Verdict,
    /// The second's score over the first's (above 1: the first is faster by score).
    pub ratio: Option<f64>,
    /// Its 95 % percentile-bootstrap interval over the paired instances; `None` below
    /// [`MIN_PAIRS`].
    pub ci: Option<Interval>,
}

/// `1.8× (1.5–2.2)`, in a table whose header names the interval; `1.8×` without one.
pub fn times_ci(x: f64, ci: Option<Interval>) -> String {
    match ci {
        Some((lo, hi)) => format!("{} ({}–{})", times(x), ratio_num(lo), ratio_num(hi)),
        None => times(x),
    }
}

/// An interval in a sentence: `, 95 % CI 1.5–2.2` after `open` = `", "`, or ` (95 % CI
/// 1.5–2.2)` after `open` = `" ("`; nothing without one.
fn ci_text(ci: Option<Interval>, open: &str) -> String {
    let Some((lo, hi)) = ci else {
        return String::new();
    };
    let close = if open.ends_with('(') { ")" } else { "" };
    format!("{open}95 % CI {}–{}{close}", ratio_num(lo), ratio_num(hi))
}

/// A ratio's bound: two decimals below 1, one to 10, none from 10.
fn ratio_num(x: f64) -> String {
    if x < 0.995 {
        format!("{x:.2}")
    } else if x < 9.95 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// `< 0.001`, or `= 0.012`.
fn p_text(p: f64) -> String {
    let t = p_value(p);
    if t.starts_with('<') {
        t
    } else {
        format!("= {t}")
    }
}

/// A piece of a verdict's sentence.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Plain text (it may hold an instance set's name from a file).
    Text(String),
    /// A configuration's name, set as code.
    Code(String),
}

/// A Markdown code span holding `s` literally: fenced by more backticks than any run inside
/// it, padded with a space when it starts or ends with one.
fn code_span(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// The leaderboard and verdict of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// solve, count, relax or generate.
    pub kind: String,
    /// Variant.
    pub variant: String,
    /// Order n.
    pub order: usize,
    /// Instance set.
    pub instance_set: String,
    /// Distinct instances.
    pub instances: usize,
    /// The share of cells given, lowest and highest over the instances (%).
    pub givens_pct: (f64, f64),
    /// Every configuration, best first.
    pub board: Vec<Entry>,
    /// The winner against the runner-up; `None` with one configuration.
    pub verdict: Option<Verdict>,
    /// What decided first place.
    pub decided: Decided,
    /// The 95 % interval of the winner's speed-up over the runner-up (bootstrap over the
    /// paired instances); `None` below [`MIN_PAIRS`] of them.
    pub speedup_ci: Option<Interval>,
    /// Per configuration and instance, the value the tests compare.
    values: Values,
    /// Per configuration and instance, the PAR-2 scores of its trials (the score's terms).
    scores: BTreeMap<String, BTreeMap<(String, String), Vec<f64>>>,
}

impl Finding {
    /// The best configuration.
    pub fn winner(&self) -> Option<&Entry> {
        self.board.first()
    }

    /// The second best.
    pub fn runner_up(&self) -> Option<&Entry> {
        self.board.get(1)
    }

    /// How much faster the winner is than the runner-up (ratio of their scores).
    pub fn speedup(&self) -> Option<f64> {
        self.winner().and_then(|w| w.speedup)
    }

    /// `25×25`, with the variant when not classic.
    pub fn grid(&self) -> String {
        let n = self.order * self.order;
        if self.variant == "classic" || self.variant.is_empty() {
            format!("{n}×{n}")
        } else {
            format!("{n}×{n} {}", self.variant)
        }
    }

    /// The share of givens: `45 %`, or `21–35 %` when it varies.
    pub fn givens(&self) -> String {
        let (lo, hi) = (self.givens_pct.0.round(), self.givens_pct.1.round());
        if lo == hi {
            format!("{lo} %")
        } else {
            format!("{lo}–{hi} %")
        }
    }

    /// The group as a heading: `solve · classic · 25×25 · set`.
    pub fn title(&self) -> String {
        let n = self.order * self.order;
        format!(
            "{} · {} · {n}×{n} · {}",
            self.kind, self.variant, self.instance_set
        )
    }

    /// `first` against `second` (two entries of the board, `first` ranked above): what
    /// decided, the test of the two alone (no correction: one question), and the score ratio
    /// with its interval.
    pub fn duel(&self, first: &Entry, second: &Entry) -> Duel {
        let mut t = [paired(&first.config, &second.config, &self.values)];
        holm_pairs(&mut t);
        let verdict = Verdict::of(&t[0]);
        Duel {
            decided: Decided::of(first, second, &verdict),
            verdict,
            ratio: score_ratio(first, second),
            ci: self.score_interval(&first.config, &second.config),
        }
    }

    /// The 95 % percentile-bootstrap interval of `second`'s score over `first`'s, over the
    /// instances both ran resampled in pairs, each resample's score the shifted geometric mean
    /// of the trials of its instances; `None` below [`MIN_PAIRS`] paired instances or without
    /// scores.
    fn score_interval(&self, first: &str, second: &str) -> Option<Interval> {
        let (a, b) = (self.scores.get(first)?, self.scores.get(second)?);
        // Per paired instance, each side's sum of ln(t + shift) and its number of trials.
        let logs = |v: &[f64]| {
            (
                v.iter().map(|x| (x + SGM_SHIFT_MS).ln()).sum::<f64>(),
                v.len(),
            )
        };
        let (la, lb): (Vec<LogSum>, Vec<LogSum>) = a
            .iter()
            .filter_map(|(inst, x)| b.get(inst).map(|y| (logs(x), logs(y))))
            .unzip();
        if la.len() < MIN_PAIRS {
            return None;
        }
        let sgm = |l: &[LogSum], idx: &[usize]| {
            let (sum, n) = idx
                .iter()
                .fold((0.0, 0), |acc, &i| (acc.0 + l[i].0, acc.1 + l[i].1));
            (n > 0).then(|| (sum / n as f64).exp() - SGM_SHIFT_MS)
        };
        paired_interval(la.len(), |idx| {
            let (x, y) = (sgm(&la, idx)?, sgm(&lb, idx)?);
            (x > 0.0).then(|| y / x)
        })
    }

    /// The verdict in one sentence, in pieces: configuration names apart from the rest, so
    /// each format can set them as code ([`Finding::sentence_markdown`],
    /// [`Finding::sentence_html`]). It says what decided first place ([`Decided`]), the
    /// speed-up by score with its interval, and the test.
    pub fn sentence_parts(&self) -> Vec<Part> {
        let mut out = Vec::new();
        let Some(w) = self.winner() else {
            return out;
        };
        let text = |out: &mut Vec<Part>, t: &str| out.push(Part::Text(t.to_string()));
        let name = |out: &mut Vec<Part>, e: &Entry| {
            out.push(Part::Code(e.config.clone()));
            if e.threads > 1 {
                out.push(Part::Text(format!(" on {} threads", e.threads)));
            }
        };
        let at = format!(
            "at {}, {} givens ({} instance{} of {})",
            self.grid(),
            self.givens(),
            self.instances,
            if self.instances == 1 { "" } else { "s" },
            self.instance_set
        );
        let (Some(r), Some(v)) = (self.runner_up(), &self.verdict) else {
            name(&mut out, w);
            text(
                &mut out,
                &format!(
                    " solves {} {at}; no other configuration ran these instances.",
                    w.solved_text()
                ),
            );
            return out;
        };
        let test = v.text();
        let (ws, rs) = (w.solved_text(), r.solved_text());
        let both = if ws == rs {
            format!("both solve {ws}")
        } else if w.solved * r.trials != r.solved * w.trials {
            format!("they solve {ws} and {rs}")
        } else if w.solved == w.trials {
            format!("both solve every trial ({ws} and {rs})")
        } else {
            format!("both solve the same share ({ws} and {rs})")
        };
        // "by score `a` is 1.3× faster (95 % CI …)", from the ratio r/w and its interval.
        let by_score = |out: &mut Vec<Part>| {
            let Some(x) = self.speedup() else { return };
            let ci = self.speedup_ci;
            if (1.0 / 1.05..1.05).contains(&x) {
                text(
                    out,
                    &format!(
                        "by score they are about as fast ({}{})",
                        times(x),
                        ci_text(ci, ", ")
                    ),
                );
            } else if x >= 1.0 {
                name(out, w);
                text(
                    out,
                    &format!(" is {} faster by score{}", times(x), ci_text(ci, " (")),
                );
            } else {
                name(out, r);
                let inv = ci.map(|(lo, hi)| (1.0 / hi, 1.0 / lo));
                text(
                    out,
                    &format!(
                        " is {} faster by score{}",
                        times(1.0 / x),
                        ci_text(inv, " (")
                    ),
                );
            }
        };
        match self.decided {
            Decided::SolvesMore => {
                name(&mut out, w);
                text(
                    &mut out,
                    &format!(
                        " ranks first {at} for solving more: {} against ",
                        w.solved_text()
                    ),
                );
                name(&mut out, r);
                text(&mut out, &format!("'s {}; ", r.solved_text()));
                by_score(&mut out);
                let tail = match v {
                    Verdict::Significant { .. } => {
                        format!("; the paired test on PAR-2 scores separates them ({test}).")
                    }
                    Verdict::NotSignificant { .. } => format!(
                        "; the paired test on PAR-2 scores does not separate them ({test})."
                    ),
                    _ => format!(" ({test})."),
                };
                text(&mut out, &tail);
            }
            Decided::Faster => {
                name(&mut out, w);
                text(&mut out, " is faster than ");
                name(&mut out, r);
                text(
                    &mut out,
                    &format!(
                        " {at}: {both}, and it is {} faster by score{}; the paired test separates them ({test}).",
                        self.speedup().map_or("–".into(), times),
                        ci_text(self.speedup_ci, " (")
                    ),
                );
            }
            Decided::Tied => {
                name(&mut out, w);
                text(&mut out, " and ");
                name(&mut out, r);
                text(
                    &mut out,
                    &format!(
                        " tie {at}: {both}, and the paired test does not separate them ({test}); "
                    ),
                );
                by_score(&mut out);
                text(&mut out, ".");
            }
            Decided::Untested => {
                name(&mut out, w);
                text(&mut out, " ranks before ");
                name(&mut out, r);
                text(&mut out, &format!(" {at}: {both}, and "));
                by_score(&mut out);
                text(&mut out, &format!("; {test}."));
            }
            Decided::Unscored | Decided::Alone => {
                name(&mut out, w);
                text(
                    &mut out,
                    &format!(" solves {} {at}, ahead of ", w.solved_text()),
                );
                name(&mut out, r);
                text(
                    &mut out,
                    &format!(
                        " ({}; no time limit is known to score unsolved trials).",
                        r.solved_text()
                    ),
                );
            }
        }
        out
    }

    /// The sentence as plain text.
    pub fn sentence(&self) -> String {
        self.sentence_parts()
            .into_iter()
            .map(|p| match p {
                Part::Text(t) | Part::Code(t) => t,
            })
            .collect()
    }

    /// The sentence as Markdown: names as code spans, the rest escaped.
    pub fn sentence_markdown(&self) -> String {
        self.sentence_parts()
            .into_iter()
            .map(|p| match p {
                Part::Text(t) => escape::markdown(&t),
                Part::Code(c) => code_span(&escape::visible(&c)),
            })
            .collect()
    }

    /// The sentence as HTML: names in `<code>`, everything escaped.
    pub fn sentence_html(&self) -> String {
        self.sentence_parts()
            .into_iter()
            .map(|p| match p {
                Part::Text(t) => escape::html(&t),
                Part::Code(c) => format!("<code>{}</code>", escape::html(&c)),
            })
            .collect()
    }

    /// The leaderboard as a table.
    pub fn table(&self) -> Table {
        let lines = self
            .board
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let opt = |v: Option<f64>| v.map_or("–".to_string(), num);
                Line::Row(vec![
                    Cell::new((i + 1).to_string()),
                    Cell::new(e.config.clone()),
                    Cell::new(if e.threads > 1 {
                        format!("{} threads", e.threads)
                    } else {
                        "1".into()
                    }),
                    Cell {
                        text: e.solved_text(),
                        best: i == 0,
                    },
                    Cell::new(opt(e.par2_ms)),
                    Cell::new(opt(e.score_ms)),
                    Cell::new(opt(e.median_ms)),
                    Cell::new(opt(e.cpu_median_ms)),
                    Cell::new(e.speedup.map_or("–".to_string(), times)),
                ])
            })
            .collect();
        Table {
            headers: LEADERBOARD_HEADERS.map(String::from).to_vec(),
            numeric: vec![true, false, false, true, true, true, true, true, true],
            lines,
        }
    }
}

/// The columns of a leaderboard.
pub const LEADERBOARD_HEADERS: [&str; 9] = [
    "#",
    "Method",
    "Threads",
    "Solved",
    "PAR-2 ms",
    "Score ms",
    "Median ms",
    "CPU ms",
    "Speed-up",
];

/// What a leaderboard's columns are.
pub fn leaderboard_caption() -> String {
    format!("Ranked by solved share, then score. Score: shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (wall time, or twice the time limit when unsolved). Median and CPU: median wall and CPU time of the solved trials (CPU counts every thread, so it exceeds wall time when a method runs several). Speed-up: the next line's score over this line's. Threads: the most a trial ran on; compare those on more threads knowing they used more cores.")
}

/// A ratio as `9.7×` (two significant figures, whole from 10).
pub fn times(x: f64) -> String {
    if x >= 9.95 {
        format!("{x:.0}×")
    } else {
        format!("{x:.1}×")
    }
}

/// The findings of every group of `rows`, in the order of the performance table.
pub fn findings(rows: &[Trial], caps: &Caps) -> Vec<Finding> {
    let mut groups: BTreeMap<SetKey, Vec<&Trial>> = BTreeMap::new();
    for r in rows {
        groups.entry(set_key(r)).or_default().push(r);
    }
    groups
        .into_iter()
        .map(|((kind, variant, order, instance_set), rs)| {
            let mut by_config: BTreeMap<String, Vec<&Trial>> = BTreeMap::new();
            for r in &rs {
                by_config
                    .entry(config_label(&r.method, &r.params))
                    .or_default()
                    .push(r);
            }
            let mut board: Vec<Entry> = by_config
                .iter()
                .map(|(config, trs)| {
                    let cap = trs.first().and_then(|r| {
                        caps.get(&(r.kind.clone(), r.method.clone(), r.params.clone()))
                            .copied()
                            .flatten()
                    });
                    entry(config, trs, cap)
                })
                .collect();
            board.sort_by(|a, b| {
                (b.solved * a.trials)
                    .cmp(&(a.solved * b.trials))
                    .then(match (a.score_ms, b.score_ms) {
                        (Some(x), Some(y)) => x.total_cmp(&y),
                        (Some(_), None) => std::cmp::Ordering::Less,
                        (None, Some(_)) => std::cmp::Ordering::Greater,
                        (None, None) => std::cmp::Ordering::Equal,
                    })
                    .then(a.config.cmp(&b.config))
            });
            for i in 0..board.len().saturating_sub(1) {
                board[i].speedup = score_ratio(&board[i], &board[i + 1]);
            }
            let (_, values) = instance_values(&rs, caps);
            let verdict = board.first().and_then(|w| {
                let mut tests: Vec<PairTest> = board[1..]
                    .iter()
                    .map(|o| paired(&w.config, &o.config, &values))
                    .collect();
                holm_pairs(&mut tests);
                tests.first().map(Verdict::of)
            });
            // Each configuration's trial scores per instance, when every one has a score.
            let mut scores: BTreeMap<String, BTreeMap<(String, String), Vec<f64>>> =
                BTreeMap::new();
            for (config, trs) in &by_config {
                let cap = trs.first().and_then(|r| {
                    caps.get(&(r.kind.clone(), r.method.clone(), r.params.clone()))
                        .copied()
                        .flatten()
                });
                let mut per: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
                let complete = trs.iter().all(|r| match par2_score(r, cap) {
                    Some(x) => {
                        per.entry((r.instance_set.to_string(), r.instance.to_string()))
                            .or_default()
                            .push(x);
                        true
                    }
                    None => false,
                });
                if complete {
                    scores.insert(config.clone(), per);
                }
            }
            let per_instance: BTreeMap<&str, f64> = rs
                .iter()
                .map(|r| {
                    let cells = (r.order as f64).powi(4);
                    (r.instance.as_str(), 100.0 * r.givens as f64 / cells)
                })
                .collect();
            let givens_pct = per_instance
                .values()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &g| {
                    (a.min(g), b.max(g))
                });
            let mut f = Finding {
                kind,
                variant,
                order,
                instance_set,
                instances: per_instance.len(),
                givens_pct,
                board,
                verdict,
                decided: Decided::Alone,
                speedup_ci: None,
                values,
                scores,
            };
            if let (Some(w), Some(r), Some(v)) = (f.winner(), f.runner_up(), &f.verdict) {
                let (decided, ci) = (Decided::of(w, r, v), f.score_interval(&w.config, &r.config));
                (f.decided, f.speedup_ci) = (decided, ci);
            }
            f
        })
        .collect()
}

/// An instance's sum of ln(t + shift) over its trials, and how many trials.
type LogSum = (f64, usize);

/// `second`'s score over `first`'s; `None` without both, or when `first`'s is 0.
fn score_ratio(first: &Entry, second: &Entry) -> Option<f64> {
    first
        .score_ms
        .zip(second.score_ms)
        .filter(|(a, _)| *a > 0.0)
        .map(|(a, b)| b / a)
}

/// A configuration's line from its trials `trs` and time limit `cap` (ms).
fn entry(config: &str, trs: &[&Trial], cap: Option<f64>) -> Entry {
    let solved: Vec<&&Trial> = trs.iter().filter(|r| r.success()).collect();
    let wall: Vec<f64> = solved.iter().map(|r| r.wall_ms).collect();
    let cpu: Vec<f64> = solved.iter().map(|r| r.cpu_ms).collect();
    let scores: Option<Vec<f64>> = trs.iter().map(|r| par2_score(r, cap)).collect();
    Entry {
        config: config.to_string(),
        trials: trs.len(),
        solved: solved.len(),
        par2_ms: scores.as_deref().and_then(crate::stats::mean),
        score_ms: scores
            .as_deref()
            .and_then(|s| shifted_geometric_mean(s, SGM_SHIFT_MS)),
        median_ms: median(&wall),
        cpu_median_ms: median(&cpu),
        threads: trs.iter().map(|r| r.threads.max(1)).max().unwrap_or(1),
        speedup: None,
    }
}

/// The method paragraph of findings.md and the report.
pub fn method_text() -> String {
    format!("Per instance group (kind, variant, grid size, instance set): configurations ranked by the share of trials solved, then by score, the shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (an unsolved trial counts twice its time limit). What decided first place: solving more; else the score, and then the first is faster when the Wilcoxon signed-rank test on the instances both ran (each instance's mean PAR-2 score; Holm-corrected over the first's tests against every other configuration, at α = {ALPHA}) separates it from the second, tied when it does not, untested with fewer than {MIN_PAIRS} paired instances. The speed-up is the second's score over the first's (below 1: the second is faster by score), with a 95 % percentile-bootstrap interval over the paired instances resampled in pairs ({RESAMPLES} resamples, fixed seed) from {MIN_PAIRS} of them on.")
}

/// What the columns of [`brief`] are, after the method: the scores are what ranks.
pub fn brief_caption() -> String {
    format!(
        "{} Score: as shown, the time a configuration is ranked by; a tie is in bold.",
        method_text()
    )
}

/// What the columns of [`versus_peers`] are.
pub fn peers_caption() -> String {
    format!("Per grid and share of givens, our best configuration and the best peer (an `external` program, or `sat` handing its formula to another SAT program), each the first of its side in the leaderboard (solved share, then score). Score: the shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (an unsolved trial counts twice its time limit). Median: of the solved trials' wall times. Peer / ours: the peer's score over ours (above 1: ours is faster), with a 95 % percentile-bootstrap interval over the instances both ran ({RESAMPLES} resamples, fixed seed), from {MIN_PAIRS} of them on. Decided: solves more; else faster when the Wilcoxon signed-rank test on the two sides' per-instance PAR-2 scores separates them at α = {ALPHA}, a tie (in bold) when it does not, untested below {MIN_PAIRS} paired instances.")
}

/// findings.md: the method, every group's sentence, a table of winners, and every
/// leaderboard.
pub fn markdown(title: &str, findings: &[Finding]) -> String {
    let mut out = format!(
        "# Findings: {}\n\n{}\n",
        escape::markdown(title),
        escape::markdown(&method_text())
    );
    if findings.is_empty() {
        out.push_str("\nNo trials.\n");
        return out;
    }
    out.push_str("\n## Verdicts\n\n");
    for f in findings {
        out.push_str("- ");
        out.push_str(&f.sentence_markdown());
        out.push('\n');
    }
    out.push_str("\n## Winners\n\n");
    out.push_str(&winners(findings).markdown());
    out.push_str("\n## Leaderboards\n\n");
    out.push_str(&escape::markdown(&leaderboard_caption()));
    out.push('\n');
    for f in findings {
        out.push_str(&format!("\n### {}\n\n", escape::markdown(&f.title())));
        out.push_str(&f.table().markdown());
    }
    out
}

/// One line per group: the winner, the runner-up, the speed-up with its interval, what
/// decided and the test.
pub fn winners(findings: &[Finding]) -> Table {
    let lines = findings
        .iter()
        .map(|f| {
            let w = f.winner();
            let r = f.runner_up();
            let cell = |e: Option<&Entry>, g: &dyn Fn(&Entry) -> String| {
                Cell::new(e.map_or("–".to_string(), g))
            };
            Line::Row(vec![
                Cell::new(f.kind.clone()),
                Cell::new(f.grid()),
                Cell::new(f.givens()),
                Cell::new(f.instance_set.clone()),
                cell(w, &|e| e.config.clone()),
                cell(w, &Entry::solved_text),
                cell(w, &|e| e.score_ms.map_or("–".into(), num)),
                cell(r, &|e| e.config.clone()),
                cell(r, &Entry::solved_text),
                cell(r, &|e| e.score_ms.map_or("–".into(), num)),
                Cell::new(
                    f.speedup()
                        .map_or("–".into(), |x| times_ci(x, f.speedup_ci)),
                ),
                Cell {
                    text: f.decided.word().to_string(),
                    best: f.decided == Decided::Tied,
                },
                Cell::new(f.verdict.as_ref().map_or("–".into(), Verdict::text)),
            ])
        })
        .collect();
    Table {
        headers: [
            "Kind",
            "Grid",
            "Givens",
            "Set",
            "First",
            "Solved",
            "Score ms",
            "Second",
            "Solved",
            "Score ms",
            "Speed-up (95 % CI)",
            "Decided",
            "Test",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![
            false, false, true, false, false, true, true, false, true, true, true, false, false,
        ],
        lines,
    }
}

/// A time for a reader: `0.025 ms` below a second, `1.51 s` from one on.
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", num(ms))
    } else {
        format!("{} s", num(ms / 1000.0))
    }
}

/// A test's result in a table cell: `p = 0.016`, `too few (3 of 6)`.
fn test_cell(v: &Verdict) -> String {
    match v {
        Verdict::Significant { p_holm, .. } | Verdict::NotSignificant { p_holm, .. } => {
            format!("p {}", p_text(*p_holm))
        }
        Verdict::TooFew { n } => format!("too few ({n} of {MIN_PAIRS})"),
        Verdict::Untestable { .. } => "–".to_string(),
    }
}

/// What decided, for a document's table: a tie in bold, so that it reads as one.
fn decided_cell(d: Decided) -> String {
    match d {
        Decided::Tied => "**tie**".to_string(),
        d => d.word().to_string(),
    }
}

/// The findings as a short Markdown table for a document (README's "which method" table): per
/// group the grid, the share of givens, the first and second configurations with their solved
/// counts and scores, the speed-up with its interval, what decided first place and the test.
/// Instance sets are left out: a document's table is read by grid and share of givens.
pub fn brief(findings: &[Finding]) -> String {
    let mut out = String::from(
        "| grid | givens | first | solved | score | second | solved | score | speed-up (95 % CI) | decided | test |\n\
         |---|---:|---|---:|---:|---|---:|---:|---:|---|---|\n",
    );
    for f in findings {
        let entry = |e: Option<&Entry>| match e {
            Some(e) => format!(
                "`{}` | {} | {}",
                escape::markdown(&e.config),
                e.solved_text(),
                e.score_ms.map_or("–".into(), duration)
            ),
            None => "– | – | –".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            f.grid(),
            f.givens(),
            entry(f.winner()),
            entry(f.runner_up()),
            f.speedup()
                .map_or("–".into(), |x| times_ci(x, f.speedup_ci)),
            if f.runner_up().is_some() {
                decided_cell(f.decided)
            } else {
                "–".to_string()
            },
            f.verdict.as_ref().map_or("–".into(), test_cell),
        ));
    }
    out
}

/// Our best configuration against the best peer per group, as a short Markdown table: the
/// grid, the share of givens, each side's best by the leaderboard's ranking (solved share,
/// then score) with its solved count, median and score, the peer's score over ours (above 1:
/// ours is faster) with its interval, what decided between the two and their paired test (the
/// two alone, uncorrected). `is_peer` says which configurations are peers (the `external`
/// ones); groups without both sides are left out.
pub fn versus_peers(findings: &[Finding], is_peer: impl Fn(&str) -> bool) -> String {
    let mut out = String::from(
        "| grid | givens | ours | solved | median | score | best peer | solved | median | score | peer / ours (95 % CI) | decided | test |\n\
         |---|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|\n",
    );
    for f in findings {
        // The board is ranked already: the first of each side is its best.
        let ours = f.board.iter().position(|e| !is_peer(&e.config));
        let peer = f.board.iter().position(|e| is_peer(&e.config));
        let (Some(o), Some(p)) = (ours, peer) else {
            continue;
        };
        let side = |e: &Entry| {
            format!(
                "`{}` | {} | {} | {}",
                escape::markdown(&e.config),
                e.solved_text(),
                e.median_ms.map_or("–".into(), duration),
                e.score_ms.map_or("–".into(), duration)
            )
        };
        let (first, second) = (&f.board[o.min(p)], &f.board[o.max(p)]);
        let duel = f.duel(first, second);
        let who = if o < p { "ours" } else { "peer" };
        let decided = match duel.decided {
            Decided::SolvesMore | Decided::Faster => format!("{who} {}", duel.decided.word()),
            d => decided_cell(d),
        };
        // Peer over ours: the duel's ratio, or its inverse when the peer ranks first.
        let ratio = match (duel.ratio, o < p) {
            (Some(x), true) => times_ci(x, duel.ci),
            (Some(x), false) if x > 0.0 => {
                times_ci(1.0 / x, duel.ci.map(|(lo, hi)| (1.0 / hi, 1.0 / lo)))
            }
            _ => "–".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            f.grid(),
            f.givens(),
            side(&f.board[o]),
            side(&f.board[p]),
            ratio,
            decided,
            test_cell(&duel.verdict)
        ));
    }
    out
}

/// The configurations of `findings`, sorted (every name the leaderboards use).
pub fn configs(findings: &[Finding]) -> BTreeSet<String> {
    findings
        .iter()
        .flat_map(|f| f.board.iter().map(|e| e.config.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{config_caps, TimeLimits};
    use crate::{Row, TrialStatus, Trials};

    /// One trial of `method` on each of `times.len()` 9×9 instances with 32 givens (40 %):
    /// `Some(ms)` solved, `None` a timeout at 100 ms.
    fn trials(method: &str, times: &[Option<f64>]) -> Vec<Row> {
        times
            .iter()
            .enumerate()
            .map(|(i, t)| Row {
                kind: "solve".into(),
                method: method.into(),
                variant: "classic".into(),
                order: 3,
                instance_set: "s".into(),
                instance: format!("i{i}"),
                givens: 32,
                status: if t.is_some() {
                    TrialStatus::Solved
                } else {
                    TrialStatus::Timeout
                },
                limit: if t.is_some() { "" } else { "time" }.into(),
                wall_ms: t.unwrap_or(100.0),
                cpu_ms: t.unwrap_or(100.0),
                threads: 1,
                ..Row::default()
            })
            .collect()
    }

    fn one(rows: &[Row]) -> Finding {
        let t = Trials::of_rows(rows);
        let f = findings(&t, &config_caps(&t, &TimeLimits::default()));
        assert_eq!(f.len(), 1);
        f.into_iter().next().unwrap()
    }

    #[test]
    fn the_winner_its_margin_and_an_exact_test() {
        // a 1 ms and b 3 ms on each of 8 instances: scores (SGM, shift 1) 1 and 3, so 3.0×;
        // every difference positive: exact two-sided p = 2/2⁸.
        let mut rows = trials("b", &[Some(3.0); 8]);
        rows.extend(trials("a", &[Some(1.0); 8]));
        let f = one(&rows);
        let w = f.winner().unwrap();
        assert_eq!((w.config.as_str(), w.solved, w.trials), ("a", 8, 8));
        assert!((w.score_ms.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(f.runner_up().unwrap().config, "b");
        assert!((f.speedup().unwrap() - 3.0).abs() < 1e-12);
        assert_eq!(f.board[1].speedup, None);
        assert_eq!(
            f.verdict,
            Some(Verdict::Significant {
                n: 8,
                p_holm: 2.0 / 256.0
            })
        );
        assert_eq!((f.instances, f.givens()), (8, "40 %".to_string()));
        assert_eq!(
            f.sentence(),
            "a is faster than b at 9×9, 40 % givens (8 instances of s): both solve 8/8, and it is 3.0× faster by score (95 % CI 3.0–3.0); the paired test separates them (Wilcoxon, Holm-corrected p = 0.008)."
        );
        assert_eq!(
            f.sentence_markdown(),
            "`a` is faster than `b` at 9×9, 40 % givens (8 instances of s): both solve 8/8, and it is 3.0× faster by score (95 % CI 3.0–3.0); the paired test separates them (Wilcoxon, Holm-corrected p = 0.008)."
        );
    }

    #[test]
    fn the_brief_table_names_both_with_scores_what_decided_and_the_test() {
        let mut rows = trials("b", &[Some(3000.0); 8]);
        rows.extend(trials("a", &[Some(1.0); 8]));
        let text = brief(&[one(&rows)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[2],
            "| 9×9 | 40 % | `a` | 8/8 | 1.00 ms | `b` | 8/8 | 3.00 s | 3000× (3000–3000) | faster | p = 0.008 |"
        );
        let few = brief(&[one(&trials("a", &[Some(1.0)]))]);
        assert!(
            few.ends_with("| `a` | 1/1 | 1.00 ms | – | – | – | – | – | – |\n"),
            "{few}"
        );
        // Faster on half the instances, slower on the other half: ranked by score, read as a
        // tie.
        let mut rows = trials("a", &[Some(1.0), Some(9.0)].repeat(4));
        rows.extend(trials("b", &[Some(2.0), Some(8.0)].repeat(4)));
        let f = one(&rows);
        assert_eq!(f.decided, Decided::Tied);
        let text = brief(std::slice::from_ref(&f));
        assert!(text.contains("| **tie** | p = 1.000 |"), "{text}");
        assert!(
            f.sentence().starts_with("a and b tie at 9×9"),
            "{}",
            f.sentence()
        );
    }

    #[test]
    fn ours_against_the_best_peer_says_what_decided() {
        // Ours 1 ms, the peer 30 ms on 8 instances, and a slower one of ours ranked between:
        // the peer table pairs our best with the peer, tested alone.
        let mut rows = trials("mine", &[Some(1.0); 8]);
        rows.extend(trials("slow", &[Some(10.0); 8]));
        rows.extend(trials("external name=x", &[Some(30.0); 8]));
        let f = one(&rows);
        let table = versus_peers(std::slice::from_ref(&f), |c| c.starts_with("external"));
        let line = table.lines().nth(2).unwrap();
        assert_eq!(
            line,
            "| 9×9 | 40 % | `mine` | 8/8 | 1.00 ms | 1.00 ms | `external name=x` | 8/8 | 30.0 ms | 30.0 ms | 30× (30–30) | ours faster | p = 0.008 |"
        );
        // The peer solving more decides for it, whatever the times.
        let mut rows = trials("mine", &[Some(1.0), None].repeat(4));
        rows.extend(trials("external name=x", &[Some(30.0); 8]));
        let f = one(&rows);
        let table = versus_peers(&[f], |c| c.starts_with("external"));
        assert!(table.contains("| peer solves more |"), "{table}");
    }

    #[test]
    fn holm_corrects_over_the_winners_tests() {
        // a beats b and c on all 8 instances: p = 2/256 each; Holm over the two tests makes
        // both 2 × 2/256.
        let mut rows = trials("a", &[Some(1.0); 8]);
        rows.extend(trials("b", &[Some(3.0); 8]));
        rows.extend(trials("c", &[Some(7.0); 8]));
        let f = one(&rows);
        let names: Vec<&str> = f.board.iter().map(|e| e.config.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(
            f.verdict,
            Some(Verdict::Significant {
                n: 8,
                p_holm: 4.0 / 256.0
            })
        );
        // b's speed-up is over c: (7 + 1) / (3 + 1).
        assert!((f.board[1].speedup.unwrap() - 7.0 / 3.0).abs() < 1e-12);
        assert!(f
            .sentence()
            .ends_with("(Wilcoxon, Holm-corrected p = 0.016)."));
    }

    #[test]
    fn too_few_instances_are_not_tested() {
        let mut rows = trials("a", &[Some(1.0); 3]);
        rows.extend(trials("b", &[Some(1.0), Some(1.0), Some(1.1)]));
        let f = one(&rows);
        assert_eq!(f.verdict, Some(Verdict::TooFew { n: 3 }));
        assert!(!f.verdict.as_ref().unwrap().supported());
        assert_eq!(
            f.sentence(),
            "a ranks before b at 9×9, 40 % givens (3 instances of s): both solve 3/3, and by score they are about as fast (1.0×); too few instances to test: 3 paired, 6 needed."
        );
        // One configuration: nothing to compare.
        let f = one(&trials("a", &[Some(1.0); 3]));
        assert_eq!(f.verdict, None);
        assert!(f
            .sentence()
            .ends_with("; no other configuration ran these instances."));
    }

    #[test]
    fn solving_more_ranks_first_even_when_slower() {
        // a solves all 8 in 10 ms; b solves 6 in 1 ms and times out on 2 (cap 100 ms, so
        // PAR-2 200 ms). Scores: a 10; b exp((6 ln 2 + 2 ln 201) / 8) − 1.
        let mut rows = trials("a", &[Some(10.0); 8]);
        let mut b = vec![Some(1.0); 6];
        b.extend([None, None]);
        rows.extend(trials("b", &b));
        let f = one(&rows);
        assert_eq!(f.winner().unwrap().config, "a");
        let b = f.runner_up().unwrap();
        assert_eq!((b.solved, b.par2_ms), (6, Some((6.0 + 400.0) / 8.0)));
        let sb = ((6.0 * 2f64.ln() + 2.0 * 201f64.ln()) / 8.0).exp() - 1.0;
        assert!((b.score_ms.unwrap() - sb).abs() < 1e-9);
        assert!((f.speedup().unwrap() - sb / 10.0).abs() < 1e-12);
        // Differences b − a: six of −9 (ranks 1–6, 3.5 each), two of +190 (7.5 each):
        // R+ = 15 against R− = 21; exact two-sided p = 204/256.
        assert_eq!(
            f.verdict,
            Some(Verdict::NotSignificant {
                n: 8,
                p_holm: 204.0 / 256.0
            })
        );
        assert_eq!(
            f.sentence(),
            "a ranks first at 9×9, 40 % givens (8 instances of s) for solving more: 8/8 against b's 6/8; b is 1.9× faster by score (95 % CI 0.29–10); the paired test on PAR-2 scores does not separate them (Wilcoxon, Holm-corrected p = 0.797)."
        );
    }

    #[test]
    fn threads_are_shown_and_files_are_written() {
        let mut rows = trials("a", &[Some(1.0); 8]);
        for r in &mut rows {
            r.threads = 2;
            r.cpu_ms = 1.9;
        }
        rows.extend(trials("b", &[Some(3.0); 8]));
        let f = one(&rows);
        assert!(f
            .sentence()
            .starts_with("a on 2 threads is faster than b at 9×9"));
        let w = f.winner().unwrap();
        assert_eq!(
            (w.threads, w.cpu_median_ms, w.median_ms),
            (2, Some(1.9), Some(1.0))
        );
        let md = markdown("demo", &[f]);
        assert!(md.starts_with("# Findings: demo\n\nPer instance group"));
        assert!(md.contains("\n- `a` on 2 threads is faster than `b` at 9×9"));
        assert!(md.contains("| solve | 9×9 | 40 % | s | a | 8/8 | 1.00 | b | 8/8 | 3.00 | 3.0× (3.0–3.0) | faster | Wilcoxon, Holm-corrected p = 0.008 |"));
        assert!(md.contains("### solve · classic · 9×9 · s\n\n| \\# | Method | Threads |"));
        assert!(md.contains("| 1 | a | 2 threads | **8/8** | 1.00 | 1.00 | 1.00 | 1.90 | 3.0× |"));
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`a"), "`` `a ``");
    }
}
