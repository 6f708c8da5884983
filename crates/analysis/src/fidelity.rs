//! Is a re-implementation as strong as its original? Our method and the original program
//! (run through `external`) on the same puzzles, limits and number of runs: per instance set,
//! each side's success count and median effort, Fisher's exact test on the success counts and
//! the ratio of the medians, and a verdict by a stated rule ([`Verdict::of`]).

use std::collections::BTreeMap;

use crate::escape;
use crate::findings::{duration, times};
use crate::meta::config_label;
use crate::number::{num, p_value, significant};
use crate::{Row, TrialStatus};

/// Below this p-value the success counts differ.
pub const ALPHA: f64 = 0.05;
/// Medians within this factor of each other are the same speed.
pub const RATIO: f64 = 1.5;

/// What the medians are taken of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Wall time (ms).
    Time,
    /// Search nodes (the `nodes` column; an external program reports them as `# stats nodes=K`).
    Nodes,
    /// Iterations (the `iterations` column).
    Iterations,
    /// The solver's own clock (ms, [`crate::clocks::own_ms`]): a program's reported
    /// `solve_ms`, our method time less model building; both sides must have it.
    Own,
}

impl Measure {
    /// Every measure, by name.
    pub const ALL: [Measure; 4] = [
        Measure::Time,
        Measure::Nodes,
        Measure::Iterations,
        Measure::Own,
    ];

    /// Its name on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Time => "time",
            Measure::Nodes => "nodes",
            Measure::Iterations => "iterations",
            Measure::Own => "own",
        }
    }

    /// The measure called `name`.
    pub fn parse(name: &str) -> Option<Measure> {
        Measure::ALL.into_iter().find(|m| m.name() == name)
    }

    fn of(self, r: &Row) -> f64 {
        match self {
            Measure::Time => r.wall_ms,
            Measure::Nodes => r.nodes as f64,
            Measure::Iterations => r.iterations as f64,
            Measure::Own => crate::clocks::own_ms(r).unwrap_or(0.0),
        }
    }

    fn show(self, x: f64) -> String {
        match self {
            Measure::Time | Measure::Own => duration(x),
            _ => num(x),
        }
    }
}

/// Why a pair cannot be judged.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FidelityError {
    /// No row belongs to this configuration.
    #[error("no trial of `{0}` in the run (a configuration label as the results show it, or an external program's name)")]
    NoRows(String),
    /// Some trials ended in error: the comparison would count a broken run as a failure.
    #[error("{count} trial(s) of `{config}` ended in error, the first: {message}")]
    Errors {
        /// The configuration.
        config: String,
        /// How many.
        count: usize,
        /// The first error's message.
        message: String,
    },
    /// The two sides ran on different puzzles or a different number of times.
    #[error("`{ours}` and `{original}` did not run on the same puzzles the same number of times ({detail})")]
    Unpaired {
        /// Our configuration.
        ours: String,
        /// The original's.
        original: String,
        /// The first difference.
        detail: String,
    },
    /// A side's solved trials carry no value of the measure (it does not report it).
    #[error("`{config}` reports no {measure} on its solved trials")]
    NotReported {
        /// The configuration.
        config: String,
        /// The measure's name.
        measure: &'static str,
    },
}

/// One side of a comparison on one instance set.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// Trials run.
    pub runs: usize,
    /// Trials solved and verified.
    pub solved: usize,
    /// Median of the measure over the solved trials.
    pub median: Option<f64>,
}

impl Side {
    fn of(rows: &[&Row], measure: Measure) -> Side {
        let mut xs: Vec<f64> = rows
            .iter()
            .filter(|r| r.success())
            .map(|r| measure.of(r))
            .collect();
        xs.sort_by(f64::total_cmp);
        Side {
            runs: rows.len(),
            solved: xs.len(),
            median: crate::stats::quantile_sorted(&xs, 0.5),
        }
    }
}

/// How ours compares with the original.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same success rate (p ≥ [`ALPHA`]) and medians within [`RATIO`]×.
    Faithful,
    /// Ours succeeds less often (p < [`ALPHA`]).
    Weaker,
    /// Ours succeeds more often (p < [`ALPHA`]).
    Stronger,
    /// Same success rate, but our median is more than [`RATIO`]× the original's.
    Slower,
    /// Same success rate, our median under 1/[`RATIO`] of the original's.
    Faster,
}

impl Verdict {
    /// The rule: success counts first (Fisher's exact test, two-sided), then the ratio of the
    /// medians (ours over the original's).
    pub fn of(ours: &Side, original: &Side, p: f64, ratio: Option<f64>) -> Verdict {
        let rate = |s: &Side| s.solved as f64 / s.runs.max(1) as f64;
        if p < ALPHA {
            return if rate(ours) < rate(original) {
                Verdict::Weaker
            } else {
                Verdict::Stronger
            };
        }
        match ratio {
            Some(r) if r > RATIO => Verdict::Slower,
            Some(r) if r < 1.0 / RATIO => Verdict::Faster,
            _ => Verdict::Faithful,
        }
    }

    /// Its text in tables.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Faithful => "faithful",
            Verdict::Weaker => "ours weaker",
            Verdict::Stronger => "ours stronger",
            Verdict::Slower => "ours slower",
            Verdict::Faster => "ours faster",
        }
    }
}

/// The comparison on one instance set.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The instance set (file name or generated-set description).
    pub set: String,
    /// Distinct puzzles.
    pub puzzles: usize,
    /// Our side.
    pub ours: Side,
    /// The original's side.
    pub original: Side,
    /// Fisher's exact test on the success counts, two-sided.
    pub p: f64,
    /// Our median over the original's.
    pub ratio: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
}

/// A pair to judge: our configuration and the original's, by label.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// Our configuration (its label, e.g. `acs` or `sa alpha=0.99`).
    pub ours: String,
    /// The original's (its label, or the `name` of an `external` configuration).
    pub original: String,
    /// What the medians are taken of.
    pub measure: Measure,
}

/// Does `r` belong to the configuration called `name`?
fn is(r: &Row, name: &str) -> bool {
    config_label(&r.method, &r.params) == name
        || r.params
            .split_whitespace()
            .any(|kv| kv.strip_prefix("name=") == Some(name))
}

/// The rows of `name`, refusing a run with errors.
fn side_rows<'a>(rows: &'a [Row], name: &str) -> Result<Vec<&'a Row>, FidelityError> {
    let mine: Vec<&Row> = rows.iter().filter(|r| is(r, name)).collect();
    if mine.is_empty() {
        return Err(FidelityError::NoRows(name.to_string()));
    }
    let errors: Vec<&&Row> = mine
        .iter()
        .filter(|r| r.status == TrialStatus::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(FidelityError::Errors {
            config: name.to_string(),
            count: errors.len(),
            message: first.message.clone(),
        });
    }
    Ok(mine)
}

/// Per instance set (in first-seen order), ours against the original.
pub fn judge(rows: &[Row], pair: &Pair) -> Result<Vec<Judgement>, FidelityError> {
    let ours = side_rows(rows, &pair.ours)?;
    let original = side_rows(rows, &pair.original)?;
    // Same puzzles, same runs: the multiset of (instance, trial) of both sides.
    let runs = |rs: &[&Row]| {
        let mut m: BTreeMap<(String, u32), usize> = BTreeMap::new();
        for r in rs {
            *m.entry((r.instance.clone(), r.trial)).or_default() += 1;
        }
        m
    };
    let (a, b) = (runs(&ours), runs(&original));
    if a != b {
        let detail = match a.keys().find(|k| !b.contains_key(*k)) {
            Some((i, t)) => format!(
                "`{}` ran {i} trial {t}, `{}` did not",
                pair.ours, pair.original
            ),
            None => match b.keys().find(|k| !a.contains_key(*k)) {
                Some((i, t)) => {
                    format!(
                        "`{}` ran {i} trial {t}, `{}` did not",
                        pair.original, pair.ours
                    )
                }
                None => "a trial ran twice on one side".to_string(),
            },
        };
        return Err(FidelityError::Unpaired {
            ours: pair.ours.clone(),
            original: pair.original.clone(),
            detail,
        });
    }
    let mut sets: Vec<String> = Vec::new();
    for r in &ours {
        if !sets.contains(&r.instance_set) {
            sets.push(r.instance_set.clone());
        }
    }
    let mut out = Vec::new();
    for set in sets {
        let (o, g) = (in_set(&ours, &set), in_set(&original, &set));
        let mut puzzles: Vec<&str> = o.iter().map(|r| r.instance.as_str()).collect();
        puzzles.sort_unstable();
        puzzles.dedup();
        let (so, sg) = (Side::of(&o, pair.measure), Side::of(&g, pair.measure));
        for (name, s, rs) in [(&pair.ours, &so, &o), (&pair.original, &sg, &g)] {
            let unclocked = pair.measure == Measure::Own
                && rs
                    .iter()
                    .any(|r| r.success() && crate::clocks::own_ms(r).is_none());
            let zero = !matches!(pair.measure, Measure::Time | Measure::Own)
                && s.solved > 0
                && s.median == Some(0.0);
            if unclocked || zero {
                return Err(FidelityError::NotReported {
                    config: name.clone(),
                    measure: pair.measure.name(),
                });
            }
        }
        let p = fisher_exact(
            so.solved,
            so.runs - so.solved,
            sg.solved,
            sg.runs - sg.solved,
        );
        let ratio = match (so.median, sg.median) {
            (Some(x), Some(y)) if y > 0.0 => Some(x / y),
            _ => None,
        };
        out.push(Judgement {
            set,
            puzzles: puzzles.len(),
            verdict: Verdict::of(&so, &sg, p, ratio),
            ours: so,
            original: sg,
            p,
            ratio,
        });
    }
    Ok(out)
}

/// The rows of `rows` in the instance set `set`.
fn in_set<'a>(rows: &[&'a Row], set: &str) -> Vec<&'a Row> {
    rows.iter()
        .copied()
        .filter(|r| r.instance_set == set)
        .collect()
}

/// Fisher's exact test, two-sided, on the 2×2 table `[[a, b], [c, d]]`: the probability,
/// with the margins fixed, of a table at most as likely as this one.
pub fn fisher_exact(a: usize, b: usize, c: usize, d: usize) -> f64 {
    let n = a + b + c + d;
    // ln k! for k ≤ n, summed once.
    let mut lf = vec![0.0f64; n + 1];
    for k in 1..=n {
        lf[k] = lf[k - 1] + (k as f64).ln();
    }
    let (row, col) = (a + b, a + c);
    let ln_p = |x: usize| {
        lf[row] + lf[n - row] + lf[col] + lf[n - col]
            - lf[n]
            - lf[x]
            - lf[row - x]
            - lf[col - x]
            - lf[n + x - row - col]
    };
    let observed = ln_p(a);
    let lo = (row + col).saturating_sub(n);
    let hi = row.min(col);
    // The relative tolerance keeps tables exactly as likely as the observed one in the tail
    // despite rounding.
    let p: f64 = (lo..=hi)
        .map(ln_p)
        .filter(|&l| l <= observed + 1e-7)
        .map(f64::exp)
        .sum();
    p.min(1.0)
}

/// The judgements of several pairs as one Markdown table: the pair, the set, each side's
/// solved count and median, the ratio, the p-value and the verdict.
pub fn markdown(judged: &[(Pair, Vec<Judgement>)]) -> String {
    let mut out = String::from(
        "| ours | original | puzzles | runs | measure | ours solved | original solved | Fisher p | ours median | original median | ours / original | verdict |\n\
         |---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for (pair, js) in judged {
        for j in js {
            let median = |s: &Side| s.median.map_or("–".into(), |x| pair.measure.show(x));
            out.push_str(&format!(
                "| `{}` | `{}` | {} ({}) | {} | {} | {}/{} | {}/{} | {} | {} | {} | {} | {} |\n",
                escape::markdown(&pair.ours),
                escape::markdown(&pair.original),
                escape::markdown(&j.set),
                j.puzzles,
                j.ours.runs,
                pair.measure.name(),
                j.ours.solved,
                j.ours.runs,
                j.original.solved,
                j.original.runs,
                p_value(j.p),
                median(&j.ours),
                median(&j.original),
                j.ratio.map_or("–".into(), ratio_text),
                j.verdict.text(),
            ));
        }
    }
    out
}

/// A ratio: `1.2×`, `15×`, and small ones to two significant digits (`0.0056×`).
fn ratio_text(r: f64) -> String {
    if r < 0.095 {
        format!("{}×", significant(r))
    } else {
        times(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fisher_matches_known_values() {
        // The tea-tasting table: p = 0.4857 two-sided.
        assert!((fisher_exact(3, 1, 1, 3) - 0.485714).abs() < 1e-5);
        // 16/20 against 19/20 (the ACS runs): p = 0.3416.
        assert!((fisher_exact(16, 4, 19, 1) - 0.341_649).abs() < 1e-5);
        // 0/10 against 10/10: 2/C(20,10).
        assert!((fisher_exact(0, 10, 10, 0) - 2.0 / 184_756.0).abs() < 1e-12);
        assert_eq!(fisher_exact(5, 0, 5, 0), 1.0);
        assert_eq!(fisher_exact(0, 0, 0, 0), 1.0);
    }

    fn side(runs: usize, solved: usize, median: f64) -> Side {
        Side {
            runs,
            solved,
            median: Some(median),
        }
    }

    #[test]
    fn verdicts_follow_the_stated_rule() {
        let o = side(20, 19, 2.5);
        assert_eq!(
            Verdict::of(&side(20, 16, 2.8), &o, 0.34, Some(1.12)),
            Verdict::Faithful
        );
        assert_eq!(
            Verdict::of(&side(20, 16, 4.0), &o, 0.34, Some(1.6)),
            Verdict::Slower
        );
        assert_eq!(
            Verdict::of(&side(20, 16, 1.0), &o, 0.34, Some(0.4)),
            Verdict::Faster
        );
        assert_eq!(
            Verdict::of(&side(20, 5, 1.0), &o, 0.0001, Some(0.4)),
            Verdict::Weaker
        );
        assert_eq!(
            Verdict::of(&side(20, 20, 9.0), &side(20, 5, 1.0), 0.0001, None),
            Verdict::Stronger
        );
    }

    /// `n` runs of `method params` on puzzle `i` of set `set`, the first `solved` solved in
    /// `ms` each with `nodes` nodes, the others timeouts.
    fn rows(method: &str, params: &str, set: &str, n: u32, solved: u32, ms: f64) -> Vec<Row> {
        (0..n)
            .map(|t| Row {
                kind: "solve".into(),
                method: method.into(),
                params: params.into(),
                variant: "classic".into(),
                order: 5,
                instance_set: set.into(),
                instance: format!("{set}:{}", t % 2 + 1),
                trial: t / 2,
                status: if t < solved {
                    TrialStatus::Solved
                } else {
                    TrialStatus::Timeout
                },
                wall_ms: ms,
                nodes: 7,
                threads: 1,
                ..Row::default()
            })
            .collect()
    }

    #[test]
    fn ours_and_the_original_judged_per_set() {
        let mut all = rows("acs", "", "a.txt", 10, 10, 100.0);
        all.extend(rows("external", "name=orig", "a.txt", 10, 10, 120.0));
        all.extend(rows("acs", "", "b.txt", 10, 0, 100.0));
        all.extend(rows("external", "name=orig", "b.txt", 10, 10, 100.0));
        let pair = Pair {
            ours: "acs".into(),
            original: "orig".into(),
            measure: Measure::Time,
        };
        let js = judge(&all, &pair).unwrap();
        assert_eq!(js.len(), 2);
        assert_eq!((js[0].set.as_str(), js[0].puzzles), ("a.txt", 2));
        assert_eq!(js[0].verdict, Verdict::Faithful);
        assert!((js[0].ratio.unwrap() - 100.0 / 120.0).abs() < 1e-12);
        assert_eq!(js[1].verdict, Verdict::Weaker);
        assert_eq!(js[1].ours.median, None);
        let table = markdown(&[(pair.clone(), js)]);
        assert!(table.contains("| `acs` | `orig` | a.txt (2) | 10 | time | 10/10 | 10/10 | 1.000 | 100 ms | 120 ms | 0.8× | faithful |"), "{table}");

        // The full label works as well as the external's name.
        let by_label = Pair {
            original: "external name=orig".into(),
            ..pair.clone()
        };
        assert_eq!(judge(&all, &by_label).unwrap().len(), 2);
        // A side that did not run every trial of the other, or erred, is refused.
        let short: Vec<Row> = all
            .iter()
            .filter(|r| !(r.method == "acs" && r.trial == 4))
            .cloned()
            .collect();
        assert!(matches!(
            judge(&short, &pair),
            Err(FidelityError::Unpaired { .. })
        ));
        let mut broken = all.clone();
        broken[15].status = TrialStatus::Error;
        broken[15].message = "not installed".into();
        assert_eq!(
            judge(&broken, &pair).unwrap_err().to_string(),
            "1 trial(s) of `orig` ended in error, the first: not installed"
        );
        assert_eq!(
            judge(
                &all,
                &Pair {
                    ours: "sa".into(),
                    ..pair
                }
            )
            .unwrap_err(),
            FidelityError::NoRows("sa".into())
        );
    }

    #[test]
    fn the_own_clock_needs_the_originals_report() {
        let mut all = rows("norvig", "", "a.txt", 4, 4, 1.0);
        let mut orig = rows("external", "name=orig", "a.txt", 4, 4, 30.0);
        let pair = Pair {
            ours: "norvig".into(),
            original: "orig".into(),
            measure: Measure::Own,
        };
        let mut without = all.clone();
        without.extend(orig.clone());
        assert_eq!(
            judge(&without, &pair).unwrap_err(),
            FidelityError::NotReported {
                config: "orig".into(),
                measure: "own"
            }
        );
        for r in &mut orig {
            r.solve_ms = Some(20.0);
        }
        all.extend(orig);
        let js = judge(&all, &pair).unwrap();
        // Ours: its method time; the original: its own report, not its 30 ms through the pipe.
        assert_eq!(
            (js[0].ours.median, js[0].original.median),
            (Some(1.0), Some(20.0))
        );
    }
}
