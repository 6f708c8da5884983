//! Two runs of one experiment compared, as criterion compares a benchmark with its baseline:
//! before and after a change, on two machines, or two versions of a method. Run A is the
//! baseline, run B the new one; ratios are B over A, so above 1 is slower.
//!
//! **Unit.** Per method configuration and instance group (kind, variant, order, instance set),
//! the instances both runs ran with that configuration. Each instance's value in a run is the
//! mean PAR-2 score of its trials there (wall time when solved, else twice the configuration's
//! time limit in that run), so a trial that newly times out counts as the slowdown it is. A line
//! with fewer than [`MIN_PAIRS`] shared instances is compared trial by trial instead: trial `t`
//! of an instance in A against trial `t` of the same instance in B (the same seed, so the same
//! work for the same code), when there are [`MIN_PAIRS`] such pairs or more.
//!
//! **Ratios.** The ratio of medians (median over the units of B's values over A's) and the
//! ratio of PAR-2 scores (mean over mean). From [`MIN_PAIRS`] units on, each has a 95 %
//! confidence interval by the percentile bootstrap over units, resampled in pairs
//! ([`paired_interval`]: [`RESAMPLES`] resamples from a ChaCha generator with the fixed seed
//! [`SEED`], so the interval is the same on every run). Below that a percentile interval is
//! degenerate (three pairs have ten distinct resamples), and the line is *too few* to judge.
//!
//! **Test.** The Wilcoxon signed-rank test on the per-unit differences B − A (two-sided,
//! zeros by Pratt's method, exact p up to [`crate::compare::EXACT_MAX`] non-zero differences),
//! from [`MIN_PAIRS`] units on, not corrected for multiplicity (each line is its own
//! question; the flag below does not use it).
//!
//! **Noise.** The bootstrap sees how instances differ, not how the machine's speed drifted
//! between the runs, and on a shared machine that drift moves whole configurations by tens of
//! per cent (a run times each configuration in its own stretch of time unless it interleaves).
//! So the comparison measures its own noise from its lines, as an empirical null (Efron 2004,
//! "Large-scale simultaneous hypothesis testing", JASA 99): the lines a change did not touch
//! gather around one ratio, and their spread is the noise of this pair of runs. The centre is
//! the half-sample mode of the judged lines' log median ratios (Bickel and Frühwirth 2006), the
//! spread σ the first quartile of their distances from it over 0.3186 (the first quartile of
//! |Z| for a standard normal Z), from [`NOISE_MIN_LINES`] judged lines on. The mode and a
//! quartile, not the median and the median absolute deviation, so that σ stays the spread of
//! the untouched lines even when a change moves most of the others (the tabu step that sped up
//! three of four configurations in `large-orders-targets`); in an A/A comparison (the same
//! build twice) every line is noise, and σ is all of it.
//!
//! **Flag.** The bar is the larger of 1 + threshold (by default [`THRESHOLD`]: 10 %) and
//! exp([`NOISE_K`] σ), as criterion's noise threshold but measured. A *regression* when the
//! median ratio's whole interval lies above the bar, or when B solves a smaller share of more
//! units than it solves a larger share of and the exact sign test on those units separates them
//! at α = [`ALPHA`]; an *improvement* the other way round; otherwise *unchanged*. The PAR-2
//! ratio is shown, not judged: a mean of a few values moves past any bar when one trial meets a
//! burst of load, and the solved share covers what PAR-2 adds (trials that newly time out).
//! Fewer than [`MIN_PAIRS`] units: *too few* (no interval).
//!
//! **What it cannot tell.** A burst of load (another job starting) while one configuration ran
//! in a run that does not interleave slows that configuration alone, exactly as a regression
//! would; the notes say when a run did not interleave. A real regression comes back when B is
//! run again.

use std::collections::{BTreeMap, BTreeSet};

use rand::Rng as _;
use sudoku_core::rng_from_seed;

use crate::compare::{signed_rank, SignedRank, Zeros, ALPHA, MIN_PAIRS};
use crate::escape;
use crate::meta::{config_label, RunMeta};
use crate::number::{num, p_value, significant};
use crate::stats::{mean, median, quantile_sorted, sorted};
use crate::tables::{
    cap_of, config_caps, par2_score, set_key, Cell, Line, SetKey, Table, TimeLimits,
};
use crate::{Row, Trials};

/// Bootstrap resamples of each interval.
pub const RESAMPLES: usize = 2000;
/// The bootstrap generator's seed.
pub const SEED: u64 = 0x5d0c_b00c;
/// The default threshold of a regression: 10 %.
pub const THRESHOLD: f64 = 0.10;
/// How many standard deviations of the lines' noise a change must clear: beyond 3.5 σ a
/// normal value falls once in 2,000, so a comparison of 150 lines flags none by chance.
pub const NOISE_K: f64 = 3.5;
/// The fewest judged lines from which the noise is measured.
pub const NOISE_MIN_LINES: usize = 10;

/// Why two folders cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The folders hold runs of different experiments.
    #[error("{a} holds experiment `{exp_a}` and {b} experiment `{exp_b}`: compare needs two runs of one experiment")]
    NotOneExperiment {
        /// Run A's name (its folder).
        a: String,
        /// Its experiment.
        exp_a: String,
        /// Run B's name.
        b: String,
        /// Its experiment.
        exp_b: String,
    },
    /// No configuration ran an instance in both folders.
    #[error("{a} and {b} share no instance run by the same configuration: nothing to compare")]
    NothingShared {
        /// Run A's name.
        a: String,
        /// Run B's name.
        b: String,
    },
    /// A folder has no trial rows.
    #[error("{0}: no trial rows")]
    Empty(String),
}

/// One run: a name (its folder, as the user gave it), its rows and its meta.json.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// How the output names the run.
    pub name: &'a str,
    /// The trial rows.
    pub rows: &'a [Row],
    /// The folder's meta.json.
    pub meta: Option<&'a RunMeta>,
}

impl Side<'_> {
    /// The experiment's name: meta.json's, else the rows'.
    pub fn experiment(&self) -> String {
        match self.meta {
            Some(m) if !m.experiment.is_empty() => m.experiment.clone(),
            _ => self
                .rows
                .first()
                .map(|r| r.experiment.clone())
                .unwrap_or_default(),
        }
    }
}

/// What the flag says about one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Slower beyond the threshold, interval and all.
    Regression,
    /// Faster beyond the threshold, interval and all.
    Improvement,
    /// Neither.
    Unchanged,
    /// Fewer than [`MIN_PAIRS`] paired instances and trials: no interval to judge by.
    TooFew,
}

impl Change {
    /// The word in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Change::Regression => "regression",
            Change::Improvement => "improvement",
            Change::Unchanged => "unchanged",
            Change::TooFew => "too few to judge",
        }
    }
}

/// A ratio B/A with its bootstrap interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// The ratio.
    pub value: f64,
    /// Its 95 % percentile-bootstrap interval; `None` below [`MIN_PAIRS`] units.
    pub ci: Option<Interval>,
}

impl Ratio {
    /// `1.23 (1.05–1.40)`.
    pub fn text(&self) -> String {
        match self.ci {
            Some((lo, hi)) => format!("{:.2} ({lo:.2}–{hi:.2})", self.value),
            None => format!("{:.2}", self.value),
        }
    }
}

/// What a line's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// One value per shared instance: the mean PAR-2 score of its trials.
    Instances,
    /// One value per trial both runs made on a shared instance (same instance, same trial
    /// number): used when fewer than [`MIN_PAIRS`] instances are shared.
    Trials,
}

/// One configuration on one group, A against B.
#[derive(Clone, Debug, PartialEq)]
pub struct Delta {
    /// (kind, variant, order, instance set).
    pub group: SetKey,
    /// The configuration.
    pub config: String,
    /// Instances both runs ran with it.
    pub shared: usize,
    /// What the values below are.
    pub unit: Unit,
    /// How many paired units (instances or trials) the ratios, intervals and test are over.
    pub n: usize,
    /// Solved and trials on the shared instances, in A.
    pub solved_a: (usize, usize),
    /// The same in B.
    pub solved_b: (usize, usize),
    /// Median over the units of A's values (ms).
    pub median_a: f64,
    /// The same for B.
    pub median_b: f64,
    /// Mean (PAR-2) over the units of A's values (ms).
    pub par2_a: f64,
    /// The same for B.
    pub par2_b: f64,
    /// Median B / median A; `None` when A's is 0.
    pub median_ratio: Option<Ratio>,
    /// PAR-2 B / PAR-2 A; `None` when A's is 0.
    pub par2_ratio: Option<Ratio>,
    /// The Wilcoxon test of B − A; `None` below [`MIN_PAIRS`] units.
    pub test: Option<SignedRank>,
    /// Units that B solves a smaller share of than A, and a larger (the sign test's counts).
    pub solved_shift: (usize, usize),
    /// The flag.
    pub change: Change,
}

/// Two runs compared.
#[derive(Clone, Debug, PartialEq)]
pub struct RunComparison {
    /// The experiment.
    pub experiment: String,
    /// Run A's name and what its meta.json says of it (commit, date, machine).
    pub a: (String, String),
    /// Run B's.
    pub b: (String, String),
    /// The regression threshold (0.10: 10 %).
    pub threshold: f64,
    /// The noise of this pair of runs: the robust standard deviation of the judged lines' log
    /// median ratios; `None` below [`NOISE_MIN_LINES`] judged lines.
    pub noise: Option<f64>,
    /// The bar a ratio's interval must clear: the larger of 1 + threshold and
    /// exp([`NOISE_K`] × noise).
    pub bar: f64,
    /// One line per configuration and group both ran, in group order.
    pub lines: Vec<Delta>,
    /// What differs between the runs besides the times (settings, configurations, instances).
    pub notes: Vec<String>,
}

impl RunComparison {
    /// The lines flagged `change`.
    pub fn count(&self, change: Change) -> usize {
        self.lines.iter().filter(|l| l.change == change).count()
    }

    /// Whether any line is a regression.
    pub fn regressed(&self) -> bool {
        self.count(Change::Regression) > 0
    }
}

/// One configuration on one instance in one run.
#[derive(Clone, Debug, Default)]
struct Value {
    /// The mean PAR-2 score of its trials.
    score: f64,
    /// Trials with a verified answer.
    solved: usize,
    /// Trials.
    trials: usize,
    /// Each trial's PAR-2 score and whether it was solved, by its number.
    by_trial: BTreeMap<u32, (f64, bool)>,
}

/// Per (group, configuration), per instance: its [`Value`].
type PerInstance = BTreeMap<(SetKey, String), BTreeMap<String, Value>>;

/// A confidence interval, low and high.
pub type Interval = (f64, f64);

fn per_instance(side: &Side) -> PerInstance {
    let limits = TimeLimits::from_settings(side.meta.and_then(|m| m.settings.as_ref()));
    let trials = Trials::of_rows(side.rows);
    let caps = config_caps(&trials, &limits);
    let mut sums: PerInstance = BTreeMap::new();
    for r in trials.iter() {
        let cap = cap_of(&caps, r);
        // No known limit: an unsolved trial counts at the time it stopped.
        let score = par2_score(r, cap).unwrap_or(r.wall_ms);
        let e = sums
            .entry((set_key(r), config_label(&r.method, &r.params)))
            .or_default()
            .entry(r.instance.to_string())
            .or_default();
        e.score += score;
        e.solved += usize::from(r.success());
        e.trials += 1;
        e.by_trial.insert(r.trial, (score, r.success()));
    }
    for m in sums.values_mut() {
        for v in m.values_mut() {
            v.score /= v.trials as f64;
        }
    }
    sums
}

/// Compares run B with run A (see the module documentation).
pub fn compare_runs(a: &Side, b: &Side, threshold: f64) -> Result<RunComparison, BaselineError> {
    for s in [a, b] {
        if s.rows.is_empty() {
            return Err(BaselineError::Empty(s.name.to_string()));
        }
    }
    let (exp_a, exp_b) = (a.experiment(), b.experiment());
    if exp_a != exp_b {
        return Err(BaselineError::NotOneExperiment {
            a: a.name.into(),
            exp_a,
            b: b.name.into(),
            exp_b,
        });
    }
    let (va, vb) = (per_instance(a), per_instance(b));
    let mut lines = Vec::new();
    for (key, ia) in &va {
        let Some(ib) = vb.get(key) else { continue };
        let shared: Vec<Pair> = ia
            .iter()
            .filter_map(|(inst, x)| ib.get(inst).map(|y| (x, y)))
            .collect();
        if shared.is_empty() {
            continue;
        }
        lines.push(line(key, &shared));
    }
    if lines.is_empty() {
        return Err(BaselineError::NothingShared {
            a: a.name.into(),
            b: b.name.into(),
        });
    }
    let noise = noise(&lines);
    let bar = (1.0 + threshold).max(noise.map_or(0.0, |s| (NOISE_K * s).exp()));
    for l in &mut lines {
        l.change = change(l, bar);
    }
    Ok(RunComparison {
        experiment: exp_a,
        a: (a.name.to_string(), describe(a.meta)),
        b: (b.name.to_string(), describe(b.meta)),
        threshold,
        noise,
        bar,
        lines,
        notes: notes(a, b, &va, &vb),
    })
}

/// An instance's value in A and in B.
type Pair<'a> = (&'a Value, &'a Value);

/// The line of configuration and group `key` from its shared instances; its flag is set once
/// the comparison's noise is known ([`change`]).
fn line(key: &(SetKey, String), shared: &[Pair]) -> Delta {
    // Per instance, or per trial when too few instances are shared (module documentation).
    // Each unit: A's value and solved share, B's.
    let by_trial: Vec<UnitPair> = shared
        .iter()
        .flat_map(|(a, b)| {
            a.by_trial.iter().filter_map(|(t, (x, sx))| {
                b.by_trial.get(t).map(|(y, sy)| {
                    (
                        (*x, f64::from(u8::from(*sx))),
                        (*y, f64::from(u8::from(*sy))),
                    )
                })
            })
        })
        .collect();
    let share = |v: &Value| v.solved as f64 / v.trials.max(1) as f64;
    let (unit, pairs): (Unit, Vec<UnitPair>) =
        if shared.len() < MIN_PAIRS && by_trial.len() >= MIN_PAIRS {
            (Unit::Trials, by_trial)
        } else {
            (
                Unit::Instances,
                shared
                    .iter()
                    .map(|(a, b)| ((a.score, share(a)), (b.score, share(b))))
                    .collect(),
            )
        };
    let xa: &[f64] = &pairs.iter().map(|p| p.0 .0).collect::<Vec<_>>();
    let xb: &[f64] = &pairs.iter().map(|p| p.1 .0).collect::<Vec<_>>();
    // Units that B solves less of than A, and more of.
    let worse = pairs.iter().filter(|p| p.1 .1 < p.0 .1).count();
    let better = pairs.iter().filter(|p| p.1 .1 > p.0 .1).count();
    let solved = |v: &dyn Fn(&Pair) -> usize, t: &dyn Fn(&Pair) -> usize| {
        shared
            .iter()
            .fold((0, 0), |acc, p| (acc.0 + v(p), acc.1 + t(p)))
    };
    let (median_a, median_b) = (median(xa).unwrap_or(0.0), median(xb).unwrap_or(0.0));
    let (par2_a, par2_b) = (mean(xa).unwrap_or(0.0), mean(xb).unwrap_or(0.0));
    let n = pairs.len();
    let (median_ci, par2_ci) = if n >= MIN_PAIRS {
        bootstrap(xa, xb)
    } else {
        (None, None)
    };
    let ratio = |b: f64, a: f64, ci: Option<Interval>| {
        (a > 0.0 && b.is_finite()).then_some(Ratio { value: b / a, ci })
    };
    let d: Vec<f64> = xa.iter().zip(xb).map(|(a, b)| b - a).collect();
    Delta {
        group: key.0.clone(),
        config: key.1.clone(),
        shared: shared.len(),
        unit,
        n,
        solved_a: solved(&|p| p.0.solved, &|p| p.0.trials),
        solved_b: solved(&|p| p.1.solved, &|p| p.1.trials),
        median_a,
        median_b,
        par2_a,
        par2_b,
        median_ratio: ratio(median_b, median_a, median_ci),
        par2_ratio: ratio(par2_b, par2_a, par2_ci),
        test: (n >= MIN_PAIRS)
            .then(|| signed_rank(&d, Zeros::Pratt))
            .flatten(),
        solved_shift: (worse, better),
        change: Change::TooFew,
    }
}

/// A unit's (value, solved share) in A and in B.
type UnitPair = ((f64, f64), (f64, f64));

/// The exact two-sided sign test of `k` against `m` (the units one way and the other):
/// 2 P(X ≤ min(k, m)) for X ~ Binomial(k + m, ½), at most 1; 1 without discordant units.
pub fn sign_test(k: usize, m: usize) -> f64 {
    let n = k + m;
    if n == 0 {
        return 1.0;
    }
    // P(X = i) by the recurrence C(n, i) / 2^n, in floating point (n is a few hundred at most).
    let mut term = 0.5f64.powi(n as i32);
    let mut tail = 0.0;
    for i in 0..=k.min(m) {
        tail += term;
        term *= (n - i) as f64 / (i + 1) as f64;
    }
    (2.0 * tail).min(1.0)
}

/// The first quartile of |Z| for a standard normal Z: Φ(q) = 0.625.
const QUARTILE_ABS_NORMAL: f64 = 0.318_639;

/// The noise of a comparison (module documentation): the first quartile of the distances of
/// the judged lines' log median ratios from their half-sample mode, over
/// [`QUARTILE_ABS_NORMAL`]; `None` below [`NOISE_MIN_LINES`] judged lines.
pub fn noise(lines: &[Delta]) -> Option<f64> {
    let logs: Vec<f64> = lines
        .iter()
        .filter_map(|l| l.median_ratio)
        .filter(|r| r.ci.is_some() && r.value > 0.0)
        .map(|r| r.value.ln())
        .collect();
    if logs.len() < NOISE_MIN_LINES {
        return None;
    }
    let mode = half_sample_mode(&logs)?;
    let dev = sorted(&logs.iter().map(|x| (x - mode).abs()).collect::<Vec<_>>());
    Some(quantile_sorted(&dev, 0.25)? / QUARTILE_ABS_NORMAL)
}

/// The half-sample mode (Bickel and Frühwirth 2006): the densest half of the sorted values,
/// then its densest half, down to three or fewer, whose middle (or the mean of the closer pair)
/// it is; `None` for no values.
pub fn half_sample_mode(xs: &[f64]) -> Option<f64> {
    let all = sorted(xs);
    let mut x: &[f64] = &all;
    while x.len() > 3 {
        let h = x.len().div_ceil(2);
        let start = (0..=x.len() - h)
            .min_by(|&i, &j| (x[i + h - 1] - x[i]).total_cmp(&(x[j + h - 1] - x[j])))?;
        x = &x[start..start + h];
    }
    match x {
        [a, b, c] if b - a < c - b => Some((a + b) / 2.0),
        [a, b, c] if b - a > c - b => Some((b + c) / 2.0),
        [_, b, _] => Some(*b),
        _ => mean(x),
    }
}

/// A line's flag against the bar (a ratio, above 1): by the median ratio's interval (the
/// PAR-2 mean's is shown, not judged: one trial slowed by a burst of load moves a mean of a
/// few values past any bar), or by the solved share when the sign test separates B from A.
fn change(l: &Delta, bar: f64) -> Change {
    let Some(ci) = l.median_ratio.and_then(|r| r.ci) else {
        return Change::TooFew;
    };
    let (worse, better) = l.solved_shift;
    let solved = sign_test(worse, better) < ALPHA;
    if ci.0 > bar || (solved && worse > better) {
        Change::Regression
    } else if ci.1 < 1.0 / bar || (solved && better > worse) {
        Change::Improvement
    } else {
        Change::Unchanged
    }
}

/// The 95 % percentile-bootstrap interval of a statistic of `n` paired units: [`RESAMPLES`]
/// resamples of `n` unit indices drawn with replacement from a generator seeded with [`SEED`]
/// (so the interval is the same on every run), `stat` computed on each resample's indices;
/// `None` below two units or when a resample's statistic is missing or not finite.
pub fn paired_interval(
    n: usize,
    mut stat: impl FnMut(&[usize]) -> Option<f64>,
) -> Option<Interval> {
    if n < 2 {
        return None;
    }
    let mut rng = rng_from_seed(SEED);
    let mut idx = vec![0; n];
    let mut values = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        for i in idx.iter_mut() {
            *i = rng.random_range(0..n);
        }
        values.push(stat(&idx).filter(|x| x.is_finite())?);
    }
    let s = sorted(&values);
    Some((quantile_sorted(&s, 0.025)?, quantile_sorted(&s, 0.975)?))
}

/// The 95 % percentile-bootstrap intervals of median(b)/median(a) and mean(b)/mean(a),
/// resampling the units in pairs ([`paired_interval`]); `None` below two units or when a
/// resample's A is 0.
pub fn bootstrap(a: &[f64], b: &[f64]) -> (Option<Interval>, Option<Interval>) {
    let n = a.len().min(b.len());
    let ratio = |f: fn(&[f64]) -> Option<f64>| {
        paired_interval(n, |idx| {
            let pick = |x: &[f64]| idx.iter().map(|&i| x[i]).collect::<Vec<f64>>();
            Some(f(&pick(b))? / f(&pick(a))?)
        })
    };
    (ratio(median), ratio(mean))
}

/// `commit abc, 2026-11-23, AMD EPYC (2 cores)` from a meta.json.
fn describe(meta: Option<&RunMeta>) -> String {
    match meta {
        None => "no meta.json".into(),
        Some(m) => format!(
            "commit {}{}, {}, {} ({} cores)",
            m.commit,
            if m.dirty == Some(true) { "+dirty" } else { "" },
            m.started.get(..10).unwrap_or(&m.started),
            m.cpu,
            m.cores
        ),
    }
}

/// What differs between the runs besides the times.
fn notes(a: &Side, b: &Side, va: &PerInstance, vb: &PerInstance) -> Vec<String> {
    let mut out = Vec::new();
    let configs = |v: &PerInstance| -> BTreeSet<String> { v.keys().map(|k| k.1.clone()).collect() };
    let (ca, cb) = (configs(va), configs(vb));
    let list = |s: Vec<&String>| {
        s.iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let only_a: Vec<&String> = ca.difference(&cb).collect();
    let only_b: Vec<&String> = cb.difference(&ca).collect();
    if !only_a.is_empty() {
        out.push(format!("Only in A (not compared): {}.", list(only_a)));
    }
    if !only_b.is_empty() {
        out.push(format!("Only in B (not compared): {}.", list(only_b)));
    }
    let instances = |v: &PerInstance| -> BTreeSet<(SetKey, String)> {
        v.iter()
            .flat_map(|(k, m)| m.keys().map(move |i| (k.0.clone(), i.clone())))
            .collect()
    };
    let (ia, ib) = (instances(va), instances(vb));
    let both = ia.intersection(&ib).count();
    if both != ia.len() || both != ib.len() {
        out.push(format!(
            "The runs share {both} instances (A ran {}, B {}): only shared ones are compared.",
            ia.len(),
            ib.len()
        ));
    }
    let settings = |s: &Side| s.meta.and_then(|m| m.settings.clone());
    if let (Some(sa), Some(sb)) = (settings(a), settings(b)) {
        if sa.seed != sb.seed {
            out.push(format!(
                "The seeds differ: {} in A, {} in B.",
                sa.seed, sb.seed
            ));
        }
        let by_label =
            |s: &crate::meta::RunSettings| -> BTreeMap<String, crate::meta::ConfigSettings> {
                s.configs
                    .iter()
                    .map(|c| (c.label.clone(), c.clone()))
                    .collect()
            };
        let (la, lb) = (by_label(&sa), by_label(&sb));
        for (label, x) in &la {
            let Some(y) = lb.get(label) else { continue };
            let secs = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{} s", num(t)));
            if x.time_limit != y.time_limit {
                out.push(format!(
                    "`{label}`: time limit {} in A, {} in B (its PAR-2 penalty differs with it).",
                    secs(x.time_limit),
                    secs(y.time_limit)
                ));
            }
            if x.trials != y.trials || x.repeat != y.repeat {
                out.push(format!(
                    "`{label}`: {} trials × {} repeats in A, {} × {} in B.",
                    x.trials, x.repeat, y.trials, y.repeat
                ));
            }
        }
    }
    // A run that times each configuration in its own stretch of time confounds the two.
    let sequential: Vec<&str> = [a, b]
        .iter()
        .zip(["A", "B"])
        .filter(|(s, _)| {
            s.meta
                .is_some_and(|m| !m.experiment_text.is_empty() && !interleaves(&m.experiment_text))
        })
        .map(|(_, n)| n)
        .collect();
    if !sequential.is_empty() {
        out.push(format!(
            "{} ran configuration by configuration (`interleave` is not set): a change in the machine's load while one configuration ran reads as a change of that configuration. A regression that is real comes back when B is run again; with `interleave = true` a burst of load falls on every configuration of a few instances alike.",
            if sequential.len() == 2 { "Both runs".to_string() } else { format!("Run {}", sequential[0]) }
        ));
    }
    if let (Some(ma), Some(mb)) = (a.meta, b.meta) {
        if ma.cpu != mb.cpu || ma.cores != mb.cores {
            out.push(format!(
                "The machines differ: {} ({} cores) in A, {} ({} cores) in B.",
                ma.cpu, ma.cores, mb.cpu, mb.cores
            ));
        }
    }
    out
}

/// The flag in the table, saying when the solved share decided it rather than the times.
fn change_text(l: &Delta, bar: f64) -> String {
    let by_time = l
        .median_ratio
        .and_then(|r| r.ci)
        .is_some_and(|(lo, hi)| lo > bar || hi < 1.0 / bar);
    match l.change {
        Change::Regression if !by_time => "regression (solves fewer)".into(),
        Change::Improvement if !by_time => "improvement (solves more)".into(),
        c => c.name().into(),
    }
}

/// Whether an experiment file's text sets `interleave = true` at its top level.
fn interleaves(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .any(|(k, v)| {
            k.trim() == "interleave" && v.split('#').next().map(str::trim) == Some("true")
        })
}

/// The comparison as a table: one line per configuration and group.
pub fn table(c: &RunComparison) -> Table {
    let mut lines = Vec::new();
    let mut group: Option<&SetKey> = None;
    for l in &c.lines {
        if group != Some(&l.group) {
            let n = l.group.2 * l.group.2;
            lines.push(Line::Group(format!(
                "{} · {} · {n}×{n} · {}",
                l.group.0, l.group.1, l.group.3
            )));
            group = Some(&l.group);
        }
        let ratio = |r: &Option<Ratio>| Cell::new(r.map_or("–".to_string(), |r| r.text()));
        lines.push(Line::Row(vec![
            Cell::new(l.config.clone()),
            Cell::new(match l.unit {
                Unit::Instances => l.n.to_string(),
                Unit::Trials => format!("{} trials", l.n),
            }),
            Cell::new(format!("{}/{}", l.solved_a.0, l.solved_a.1)),
            Cell::new(format!("{}/{}", l.solved_b.0, l.solved_b.1)),
            Cell::new(num(l.median_a)),
            Cell::new(num(l.median_b)),
            ratio(&l.median_ratio),
            Cell::new(num(l.par2_a)),
            Cell::new(num(l.par2_b)),
            ratio(&l.par2_ratio),
            Cell::new(l.test.as_ref().map_or("–".to_string(), |t| p_value(t.p))),
            Cell {
                text: change_text(l, c.bar),
                best: l.change == Change::Regression,
            },
        ]));
    }
    Table {
        headers: [
            "Configuration",
            "n",
            "Solved A",
            "Solved B",
            "Median A ms",
            "Median B ms",
            "Median B/A (95 % CI)",
            "PAR-2 A ms",
            "PAR-2 B ms",
            "PAR-2 B/A (95 % CI)",
            "Wilcoxon p",
            "Change",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![
            false, true, true, true, true, true, true, true, true, true, true, false,
        ],
        lines,
    }
}

/// The verdict in one paragraph: how many lines regressed, improved, stayed, and the bar they
/// were judged by.
pub fn summary(c: &RunComparison) -> String {
    let pct = format!("{} %", significant(c.threshold * 100.0));
    let mut s = format!(
        "B against A on {} configuration × group line{}: {} regression{}, {} improvement{}, {} unchanged (threshold {pct})",
        c.lines.len(),
        if c.lines.len() == 1 { "" } else { "s" },
        c.count(Change::Regression),
        if c.count(Change::Regression) == 1 { "" } else { "s" },
        c.count(Change::Improvement),
        if c.count(Change::Improvement) == 1 { "" } else { "s" },
        c.count(Change::Unchanged),
    );
    let few = c.count(Change::TooFew);
    if few > 0 {
        s.push_str(&format!(
            ", {few} too few to judge (fewer than {MIN_PAIRS} paired instances or trials)"
        ));
    }
    s.push('.');
    match c.noise {
        Some(sigma) if c.bar > 1.0 + c.threshold => s.push_str(&format!(
            " The noise of these two runs: the lines' median ratios spread by ×{:.2} (one standard deviation) around the most common one, so a change counts from ×{:.2} on ({NOISE_K} σ), above the threshold.",
            sigma.exp(),
            c.bar
        )),
        Some(sigma) => s.push_str(&format!(
            " The noise of these two runs: the lines' median ratios spread by ×{:.2} (one standard deviation) around the most common one, within the threshold, which decides.",
            sigma.exp()
        )),
        None => s.push_str(&format!(
            " Fewer than {NOISE_MIN_LINES} lines to measure the runs' noise by: the threshold alone decides."
        )),
    }
    let regressed: Vec<String> = c
        .lines
        .iter()
        .filter(|l| l.change == Change::Regression)
        .map(|l| {
            let n = l.group.2 * l.group.2;
            format!(
                "`{}` at {n}×{n} ({}): median ×{}",
                l.config,
                l.group.3,
                l.median_ratio
                    .map_or("–".into(), |r| format!("{:.2}", r.value))
            )
        })
        .collect();
    if !regressed.is_empty() {
        s.push_str(&format!(" Regressions: {}.", regressed.join("; ")));
    }
    s
}

/// How the lines are computed, for the documents.
pub fn method_text(threshold: f64) -> String {
    format!("Per configuration and instance group, on the instances both runs ran: each instance's value is the mean PAR-2 score of its trials (wall time, or twice the time limit when unsolved); with fewer than {MIN_PAIRS} shared instances, each trial against the same trial of the other run (n then counts trials). Ratios are B over A (above 1: B is slower), of the medians and of the means (PAR-2), with 95 % percentile-bootstrap intervals over the units resampled in pairs ({RESAMPLES} resamples, fixed seed), from {MIN_PAIRS} units on; fewer are too few to judge. Wilcoxon signed-rank test on the differences B − A (two-sided, uncorrected). Noise σ: the spread of the lines' log median ratios around their half-sample mode (the first quartile of the distances over 0.3186, from {NOISE_MIN_LINES} lines with an interval), the lines a change did not touch. Regression: the median ratio's interval wholly above the bar, the larger of {} (the threshold) and exp({NOISE_K} σ), or fewer units solved in B than in A where the exact sign test on the units that differ gives p < {ALPHA}; improvement: the other way round. The PAR-2 ratio is shown, not judged.", significant(1.0 + threshold))
}

/// compare.md.
pub fn markdown(c: &RunComparison) -> String {
    let mut out = format!(
        "# Compare: {}\n\nA: {} ({})  \nB: {} ({})\n\n{}\n\n{}\n",
        escape::markdown(&c.experiment),
        escape::markdown(&c.a.0),
        escape::markdown(&c.a.1),
        escape::markdown(&c.b.0),
        escape::markdown(&c.b.1),
        md_code(&summary(c)),
        escape::markdown(&method_text(c.threshold)),
    );
    if !c.notes.is_empty() {
        out.push('\n');
        for n in &c.notes {
            out.push_str(&format!("- {}\n", md_code(n)));
        }
    }
    out.push('\n');
    out.push_str(&table(c).markdown());
    out
}

/// Text with backtick code spans: the spans kept, the rest escaped for Markdown.
fn md_code(s: &str) -> String {
    s.split('`')
        .enumerate()
        .map(|(i, p)| {
            if i % 2 == 1 {
                format!("`{p}`")
            } else {
                escape::markdown(p)
            }
        })
        .collect()
}

/// Text with backtick code spans as HTML.
fn html_code(s: &str) -> String {
    s.split('`')
        .enumerate()
        .map(|(i, p)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape::html(p))
            } else {
                escape::html(p)
            }
        })
        .collect()
}

/// The comparison as the body of a report section (HTML).
pub fn html(c: &RunComparison) -> String {
    let mut out = format!(
        "<p><strong>A</strong>: {} ({})<br><strong>B</strong>: {} ({})</p>\n<p>{}</p>\n",
        escape::html(&c.a.0),
        escape::html(&c.a.1),
        escape::html(&c.b.0),
        escape::html(&c.b.1),
        html_code(&summary(c)),
    );
    if !c.notes.is_empty() {
        out.push_str("<ul>\n");
        for n in &c.notes {
            out.push_str(&format!("<li>{}</li>\n", html_code(n)));
        }
        out.push_str("</ul>\n");
    }
    out.push_str(&crate::tables::filterable(
        &table(c).html(&method_text(c.threshold)),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TrialStatus;

    fn rows(exp: &str, times: &[f64]) -> Vec<Row> {
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| Row {
                experiment: exp.into(),
                kind: "solve".into(),
                method: "m".into(),
                variant: "classic".into(),
                order: 3,
                instance_set: "s".into(),
                instance: format!("i{i}"),
                status: TrialStatus::Solved,
                wall_ms: t,
                ..Row::default()
            })
            .collect()
    }

    fn side<'a>(name: &'a str, rows: &'a [Row]) -> Side<'a> {
        Side {
            name,
            rows,
            meta: None,
        }
    }

    #[test]
    fn a_doubled_time_is_a_regression_with_its_interval() {
        let a = rows("e", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        let b = rows("e", &[2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0]);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert_eq!(c.lines.len(), 1);
        let l = &c.lines[0];
        assert_eq!((l.shared, l.solved_a, l.solved_b), (8, (8, 8), (8, 8)));
        assert_eq!((l.median_a, l.median_b), (4.5, 9.0));
        // Every resample doubles too: the interval is the point.
        let m = l.median_ratio.unwrap();
        assert_eq!((m.value, m.ci), (2.0, Some((2.0, 2.0))));
        assert_eq!(l.par2_ratio.unwrap().ci, Some((2.0, 2.0)));
        // All 8 differences positive: exact two-sided p = 2/2⁸.
        assert_eq!(l.test.as_ref().unwrap().p, 2.0 / 256.0);
        assert_eq!(l.change, Change::Regression);
        assert!(c.regressed());
        assert!(summary(&c).starts_with(
            "B against A on 1 configuration × group line: 1 regression, 0 improvements, 0 unchanged (threshold 10 %)."
        ));
        // And the other way round, an improvement.
        let c = compare_runs(&side("B", &b), &side("A", &a), THRESHOLD).unwrap();
        assert_eq!(c.lines[0].change, Change::Improvement);
        let md = markdown(&c);
        assert!(md.contains("| m | 8 | 8/8 | 8/8 | 9.00 | 4.50 | 0.50 (0.50–0.50) |"));
    }

    #[test]
    fn the_bootstrap_interval_is_fixed_by_its_seed_and_holds_the_ratio() {
        let a = [1.0, 1.2, 0.9, 1.1, 1.0, 1.3, 0.8, 1.05, 0.95, 1.15];
        let b = [1.1, 1.1, 1.0, 1.2, 0.9, 1.4, 0.9, 1.0, 1.0, 1.3];
        let (m1, p1) = bootstrap(&a, &b);
        let (m2, p2) = bootstrap(&a, &b);
        assert_eq!((m1, p1), (m2, p2));
        let (lo, hi) = p1.unwrap();
        let ratio = mean(&b).unwrap() / mean(&a).unwrap();
        assert!(lo < ratio && ratio < hi, "{lo} {ratio} {hi}");
        // Noise of a few per cent: neither a regression nor an improvement at 10 %.
        let ra = rows("e", &a);
        let rb = rows("e", &b);
        let c = compare_runs(&side("A", &ra), &side("B", &rb), THRESHOLD).unwrap();
        assert_eq!(c.lines[0].change, Change::Unchanged);
        // A single instance has no interval.
        assert_eq!(bootstrap(&a[..1], &b[..1]), (None, None));
    }

    /// `configs` configurations on one group of `instances` instances, `trials` trials each:
    /// instance i takes (i + 1) ms, times `factor(config)` and a per-trial noise of up to
    /// ±`jitter` (uniform, seeded).
    fn many(
        configs: usize,
        instances: usize,
        trials: u32,
        factor: &dyn Fn(usize) -> f64,
        jitter: f64,
        seed: u64,
    ) -> Vec<Row> {
        let mut rng = rng_from_seed(seed);
        let mut out = Vec::new();
        for c in 0..configs {
            for i in 0..instances {
                for t in 0..trials {
                    let noise = 1.0 + jitter * (2.0 * rng.random::<f64>() - 1.0);
                    out.push(Row {
                        experiment: "e".into(),
                        kind: "solve".into(),
                        method: format!("m{c:02}"),
                        variant: "classic".into(),
                        order: 3,
                        instance_set: "s".into(),
                        instance: format!("i{i}"),
                        trial: t,
                        status: TrialStatus::Solved,
                        wall_ms: (i + 1) as f64 * factor(c) * noise,
                        ..Row::default()
                    });
                }
            }
        }
        out
    }

    #[test]
    fn an_a_a_comparison_with_drifting_configurations_flags_nothing() {
        // The same experiment twice on a shared machine: each configuration ran in its own
        // stretch of time, so B moves each one as a whole by a factor from 0.6 to 1.6 (its
        // drift), on top of ±5 % per trial. Twenty lines of 8 instances: the bootstrap alone
        // would flag most of them; measured against the runs' own noise, none.
        let drift = |c: usize| [1.0, 0.6, 1.3, 0.8, 1.6, 1.1, 0.7, 1.2, 0.9, 1.45][c % 10];
        let a = many(20, 8, 1, &|_| 1.0, 0.05, 1);
        let b = many(20, 8, 1, &drift, 0.05, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert_eq!(c.lines.len(), 20);
        let threshold_alone = c
            .lines
            .iter()
            .filter(|l| super::change(l, 1.0 + THRESHOLD) != Change::Unchanged)
            .count();
        assert!(threshold_alone >= 12, "{threshold_alone}");
        assert_eq!(
            (c.count(Change::Regression), c.count(Change::Improvement)),
            (0, 0),
            "{}",
            summary(&c)
        );
        let sigma = c.noise.unwrap();
        assert!(sigma > 0.2 && sigma < 0.5, "{sigma}");
        assert!(c.bar > 1.8, "{}", c.bar);
        assert!(summary(&c).contains("The noise of these two runs"));
        // A real change beyond the noise still shows: one configuration 8 times slower.
        let b8 = many(20, 8, 1, &|c| if c == 3 { 8.0 } else { drift(c) }, 0.05, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b8), THRESHOLD).unwrap();
        let flagged: Vec<&str> = c
            .lines
            .iter()
            .filter(|l| l.change != Change::Unchanged)
            .map(|l| l.config.as_str())
            .collect();
        assert_eq!(flagged, ["m03"]);
        assert!(c.regressed());
        // On a quiet machine (drift within ±2 %) the bar is the threshold, and a 30 % change
        // is a regression.
        let quiet = |c: usize| 1.0 + 0.02 * ((c % 5) as f64 - 2.0) / 2.0;
        let bq = many(20, 8, 1, &|c| if c == 7 { 1.3 } else { quiet(c) }, 0.02, 2);
        let aq = many(20, 8, 1, &|_| 1.0, 0.02, 1);
        let c = compare_runs(&side("A", &aq), &side("B", &bq), THRESHOLD).unwrap();
        assert_eq!(c.bar, 1.0 + THRESHOLD);
        assert_eq!(c.count(Change::Regression), 1);
        assert_eq!(c.lines[7].change, Change::Regression);
    }

    #[test]
    fn the_noise_is_the_spread_of_the_untouched_lines_when_many_changed() {
        // A change that sped up half of 20 configurations, each by its own factor from 2 to
        // 10 times (as a faster step speeds up methods unevenly); the other half (the
        // controls) stay within ±2 %. The noise is the controls', and every sped-up line
        // counts, where the median absolute deviation over all lines would have hidden them.
        let sped = |c: usize| {
            if c < 10 {
                1.0 + 0.004 * (c as f64 - 5.0)
            } else {
                0.5 / 1.2f64.powi((c - 10) as i32)
            }
        };
        let a = many(20, 8, 1, &|_| 1.0, 0.02, 1);
        let b = many(20, 8, 1, &sped, 0.02, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert!(c.noise.unwrap() < 0.03, "{:?}", c.noise);
        assert_eq!(c.bar, 1.0 + THRESHOLD);
        assert_eq!(
            (c.count(Change::Improvement), c.count(Change::Unchanged)),
            (10, 10)
        );
        assert_eq!(half_sample_mode(&[1.0, 5.0, 5.5, 6.0, 9.0]), Some(5.5));
        assert_eq!(half_sample_mode(&[1.0, 2.0, 2.5]), Some(2.25));
        assert_eq!(half_sample_mode(&[3.0]), Some(3.0));
        assert_eq!(half_sample_mode(&[]), None);
    }

    #[test]
    fn trials_that_newly_time_out_are_a_regression_by_the_solved_share() {
        // 20 instances; B times out (at a 100 ms cap) on the 7 slowest, the median is unmoved.
        let a = many(1, 20, 1, &|_| 1.0, 0.0, 1);
        let mut b = a.clone();
        for r in b.iter_mut().skip(13) {
            r.status = TrialStatus::Timeout;
            r.limit = "time".into();
            r.wall_ms = 100.0;
        }
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        let l = &c.lines[0];
        assert!(l.median_ratio.unwrap().ci.unwrap().0 < 1.0 + THRESHOLD);
        assert_eq!(l.solved_shift, (7, 0));
        assert_eq!(l.change, Change::Regression);
        assert!(markdown(&c).contains("| **regression (solves fewer)** |"));
        // Four of 20 would not be enough: p = 2/2⁴.
        assert_eq!(sign_test(4, 0), 0.125);
        assert_eq!(sign_test(7, 0), 2.0 / 128.0);
        assert_eq!(sign_test(3, 3), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        // The note on runs that do not interleave, read from the experiment's text.
        assert!(interleaves(
            "name = \"x\"\ninterleave = true # compare\n[budget]\n"
        ));
        assert!(!interleaves("name = \"x\"\n[budget]\ninterleave = true\n"));
        assert!(!interleaves("interleave = false\n"));
    }

    #[test]
    fn few_instances_are_compared_trial_by_trial_or_not_judged() {
        // 3 instances: a bootstrap over 3 pairs is degenerate, so no interval and no flag,
        // even for a doubled time.
        let a = many(1, 3, 1, &|_| 1.0, 0.0, 1);
        let b = many(1, 3, 1, &|_| 2.0, 0.0, 1);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        let l = &c.lines[0];
        assert_eq!(
            (l.unit, l.n, l.change),
            (Unit::Instances, 3, Change::TooFew)
        );
        assert_eq!(l.median_ratio.unwrap().ci, None);
        assert!(!c.regressed());
        assert!(
            summary(&c).contains("1 too few to judge (fewer than 6 paired instances or trials)")
        );
        assert!(markdown(&c).contains("| m00 | 3 | 3/3 | 3/3 |"));
        // 3 instances of 3 trials: 9 trial pairs, judged.
        let a = many(1, 3, 3, &|_| 1.0, 0.02, 1);
        let b = many(1, 3, 3, &|_| 2.0, 0.02, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        let l = &c.lines[0];
        assert_eq!((l.unit, l.n, l.shared), (Unit::Trials, 9, 3));
        assert_eq!(l.change, Change::Regression);
        assert!(markdown(&c).contains("| m00 | 9 trials | 9/9 | 9/9 |"));
    }

    #[test]
    fn unsolved_trials_count_their_penalty_and_bad_pairs_are_refused() {
        let a = rows("e", &[1.0; 6]);
        let mut b = rows("e", &[1.0; 6]);
        b[0].status = TrialStatus::Timeout;
        b[0].limit = "time".into();
        b[0].wall_ms = 50.0;
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        let l = &c.lines[0];
        assert_eq!(l.solved_b, (5, 6));
        // The timeout counts 2 × 50 ms (the longest timed-out trial is the cap).
        assert_eq!(l.par2_b, (5.0 + 100.0) / 6.0);
        // Another experiment, and no shared instance, are refused.
        let other = rows("f", &[1.0]);
        let e = compare_runs(&side("A", &a), &side("B", &other), THRESHOLD).unwrap_err();
        assert_eq!(
            e.to_string(),
            "A holds experiment `e` and B experiment `f`: compare needs two runs of one experiment"
        );
        let mut moved = rows("e", &[1.0]);
        moved[0].instance = "elsewhere".into();
        let e = compare_runs(&side("A", &a), &side("B", &moved), THRESHOLD).unwrap_err();
        assert!(matches!(e, BaselineError::NothingShared { .. }));
    }
}
