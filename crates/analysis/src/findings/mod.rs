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
//!
//! This module computes: the [`Finding`]s and their parts. `sentence.rs` puts a finding into
//! words (its sentence, and the number words the tables share); `write.rs` lays findings out
//! as documents (findings.md, the leaderboards, the short tables of a README).

use std::collections::{BTreeMap, BTreeSet};

use crate::baseline::{paired_interval, Interval};
use crate::compare::{holm_pairs, instance_values, paired, PairTest, Values, ALPHA, MIN_PAIRS};
use crate::meta::config_label;
use crate::stats::median;
use crate::tables::{par2_score, set_key, shifted_geometric_mean, Caps, SetKey, SGM_SHIFT_MS};
use crate::Trial;

mod sentence;
mod write;

pub use sentence::{times, times_ci, Part};
pub use write::{
    brief, brief_caption, duration, leaderboard_caption, markdown, method_text, peers_caption,
    recommendations, recommendations_caption, solve_command, versus_peers, winners,
    LEADERBOARD_HEADERS,
};

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
    pub(super) fn trials(method: &str, times: &[Option<f64>]) -> Vec<Row> {
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

    pub(super) fn one(rows: &[Row]) -> Finding {
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
}
