//! Is a difference between methods real? Rank tests on paired trials, as Demšar (2006,
//! "Statistical comparisons of classifiers over multiple data sets", JMLR 7) recommends.
//!
//! **Pairing.** Rows are compared within a group (kind, variant, order): puzzles of one grid
//! size, whichever set they came from. The unit is the instance (set and `instance` id): every
//! method configuration ([`crate::meta::config_label`]) gets one value per instance, the mean
//! PAR-2 score of its trials on it ([`crate::tables::par2_score`]). Trial seeds are derived
//! from the configuration's label, so trial `t` of two methods shares nothing but the puzzle;
//! and methods may run different numbers of trials. Two methods are paired on the instances
//! both ran. Unsolved trials count as twice the largest time limit among the group's
//! configurations (or, with none known, twice its longest trial), so an unsolved trial ranks
//! behind every solved one and two methods that both failed tie.
//!
//! **Two methods**: the Wilcoxon signed-rank test ([`signed_rank`]) on the per-instance
//! differences, zero differences by Pratt's method (ranked with the others, then left out of
//! both sums: equal results count as evidence of no difference); the exact conditional
//! distribution of R+ (every sign flip of the observed ranks, ties and zeros included) for up
//! to [`EXACT_MAX`] non-zero differences, else the normal approximation with tie correction
//! (variance Σr²/4 over the ranks) and continuity correction 0.5. Two-sided p-values, corrected
//! with Holm's step-down method ([`holm`]) over all pairs of a group. A group of more than
//! [`ALL_PAIRS_MAX`] configurations tests each against a control instead, its best (Demšar's
//! comparison with a control, Holm over those tests): every pair of 10,000 configurations would
//! be 50 million tests and as many lines of `stats.md`. Effect size: the
//! matched-pairs rank-biserial correlation r = (R+ − R−)/(R+ + R−) (Kerby 2014), positive when
//! the first method of the pair is faster.
//!
//! **Three or more**: the Friedman test on the instances every method ran ([`friedman`]:
//! chi-square χ²_F and the Iman–Davenport F_F, without tie correction, as Demšar gives them),
//! and the Nemenyi post-hoc test: two methods differ when their mean ranks differ by at least
//! CD = q_α √(k(k+1)/(6N)), α = 0.05 ([`critical_difference`]), drawn as a critical-difference
//! diagram (`sudoku-report`'s `cd.svg`).
//!
//! Fewer than [`MIN_PAIRS`] paired instances (below which no two-sided test at α = 0.05 can
//! reject) or a single method: the output says so instead of computing.

use std::collections::{BTreeMap, BTreeSet};

use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor, Normal};

use crate::escape;
use crate::meta::config_label;
use crate::number::{num, p_value};
use crate::tables::{par2_score, Caps, Cell, Line, Table};
use crate::{Name, Trial};

/// Significance level of every verdict.
pub const ALPHA: f64 = 0.05;
/// Fewest paired instances for a test: with 5, the smallest two-sided Wilcoxon p is 1/16.
pub const MIN_PAIRS: usize = 6;
/// Up to this many non-zero differences the Wilcoxon p-value is exact.
pub const EXACT_MAX: usize = 50;
/// Up to this many configurations in a group every pair is tested (4,950 pairs); beyond, each
/// configuration against the group's best only, so that the work grows with the configurations
/// and not with their square. The committed runs have at most 22 per group.
pub const ALL_PAIRS_MAX: usize = 100;

/// How zero differences enter the signed-rank test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zeros {
    /// Wilcoxon's: dropped before ranking.
    Wilcoxon,
    /// Pratt's: ranked with the others, then left out of both sums.
    Pratt,
    /// Demšar's: ranked, and their ranks split evenly between R+ and R−.
    Split,
}

/// The result of a Wilcoxon signed-rank test.
#[derive(Clone, Debug, PartialEq)]
pub struct SignedRank {
    /// Pairs (zeros included).
    pub n: usize,
    /// Zero differences among them.
    pub zeros: usize,
    /// Sum of the ranks of positive differences.
    pub r_plus: f64,
    /// Sum of the ranks of negative differences.
    pub r_minus: f64,
    /// min(R+, R−).
    pub t: f64,
    /// Normal-approximation z of R+ (tie- and continuity-corrected), also when p is exact.
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Whether `p` is from the exact distribution.
    pub exact: bool,
    /// Matched-pairs rank-biserial correlation (R+ − R−)/(R+ + R−); 0 when both are 0.
    pub effect: f64,
}

/// Ranks 1..=n of `xs` in ascending order, ties getting their average rank.
pub fn average_ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut ranks = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let r = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            ranks[k] = r;
        }
        i = j + 1;
    }
    ranks
}

fn std_normal() -> Normal {
    Normal::standard()
}

/// The Wilcoxon signed-rank test of the differences `d` (two-sided); `None` for no data or a
/// non-finite difference.
pub fn signed_rank(d: &[f64], zeros: Zeros) -> Option<SignedRank> {
    if d.is_empty() || d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let kept: Vec<f64> = match zeros {
        Zeros::Wilcoxon => d.iter().copied().filter(|&x| x != 0.0).collect(),
        Zeros::Pratt | Zeros::Split => d.to_vec(),
    };
    let ranks = average_ranks(&kept.iter().map(|x| x.abs()).collect::<Vec<_>>());
    let mut r_plus = 0.0;
    let mut r_minus = 0.0;
    let mut zero_ranks = 0.0;
    let mut nonzero: Vec<f64> = Vec::new();
    for (&x, &r) in kept.iter().zip(&ranks) {
        if x > 0.0 {
            r_plus += r;
            nonzero.push(r);
        } else if x < 0.0 {
            r_minus += r;
            nonzero.push(r);
        } else {
            zero_ranks += r;
        }
    }
    let split = if zeros == Zeros::Split {
        zero_ranks / 2.0
    } else {
        0.0
    };
    // Only the signs of the non-zero differences are random under the null hypothesis.
    let s_obs = r_plus;
    r_plus += split;
    r_minus += split;
    let mean = nonzero.iter().sum::<f64>() / 2.0;
    let var = nonzero.iter().map(|r| r * r).sum::<f64>() / 4.0;
    let dev = s_obs - mean;
    let z = if var > 0.0 {
        dev.signum() * (dev.abs() - 0.5).max(0.0) / var.sqrt()
    } else {
        0.0
    };
    let exact = !nonzero.is_empty() && nonzero.len() <= EXACT_MAX;
    let p = if nonzero.is_empty() {
        1.0
    } else if exact {
        exact_p(&nonzero, s_obs)
    } else {
        (2.0 * std_normal().sf(z.abs())).min(1.0)
    };
    let total = r_plus + r_minus;
    Some(SignedRank {
        n: d.len(),
        zeros: d.iter().filter(|&&x| x == 0.0).count(),
        r_plus,
        r_minus,
        t: r_plus.min(r_minus),
        z,
        p,
        exact,
        effect: if total > 0.0 {
            (r_plus - r_minus) / total
        } else {
            0.0
        },
    })
}

/// Two-sided exact p of the positive-rank sum `s_obs` when each rank is positive with
/// probability ½: ranks are multiples of ½, so doubled they are integer weights of a subset-sum
/// distribution.
fn exact_p(ranks: &[f64], s_obs: f64) -> f64 {
    let w: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let total: usize = w.iter().sum();
    let mut dist = vec![0.0f64; total + 1];
    dist[0] = 1.0;
    let mut reach = 0;
    for &wi in &w {
        reach += wi;
        for s in (wi..=reach).rev() {
            dist[s] = 0.5 * dist[s] + 0.5 * dist[s - wi];
        }
        for v in dist.iter_mut().take(wi.min(reach + 1)) {
            *v *= 0.5;
        }
    }
    let obs = (2.0 * s_obs).round() as usize;
    let lower: f64 = dist[..=obs.min(total)].iter().sum();
    let upper: f64 = dist[obs.min(total)..].iter().sum();
    (2.0 * lower.min(upper)).min(1.0)
}

/// Holm's step-down adjustment: the i-th smallest of m p-values becomes
/// max over j ≤ i of min(1, (m − j + 1) p_(j)); returned in the input order.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut idx: Vec<usize> = (0..m).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (j, &i) in idx.iter().enumerate() {
        running = running.max(((m - j) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// The Friedman test's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Friedman {
    /// Methods.
    pub k: usize,
    /// Blocks (instances).
    pub n: usize,
    /// Mean rank of each method (1 = best).
    pub mean_ranks: Vec<f64>,
    /// χ²_F = 12N/(k(k+1)) (Σ R_j² − k(k+1)²/4).
    pub chi2: f64,
    /// Its p-value (chi-square, k − 1 degrees of freedom).
    pub p_chi2: f64,
    /// Iman–Davenport F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F).
    pub ff: f64,
    /// Its p-value (F with k − 1 and (k − 1)(N − 1) degrees of freedom).
    pub p_ff: f64,
    /// Nemenyi critical difference at α = 0.05.
    pub cd: f64,
}

/// The Friedman test on `blocks` (each block: one value per method, lower is better); `None`
/// below two methods or two blocks, or for blocks of different lengths.
pub fn friedman(blocks: &[Vec<f64>]) -> Option<Friedman> {
    let k = blocks.first()?.len();
    let n = blocks.len();
    if k < 2 || n < 2 || blocks.iter().any(|b| b.len() != k) {
        return None;
    }
    let mut mean_ranks = vec![0.0; k];
    for b in blocks {
        for (m, r) in mean_ranks.iter_mut().zip(average_ranks(b)) {
            *m += r / n as f64;
        }
    }
    let (kf, nf) = (k as f64, n as f64);
    let chi2 = 12.0 * nf / (kf * (kf + 1.0))
        * (mean_ranks.iter().map(|r| r * r).sum::<f64>() - kf * (kf + 1.0).powi(2) / 4.0);
    let chi2 = chi2.max(0.0);
    let p_chi2 = ChiSquared::new(kf - 1.0).ok()?.sf(chi2);
    let denom = nf * (kf - 1.0) - chi2;
    let (ff, p_ff) = if denom > 1e-12 {
        let ff = (nf - 1.0) * chi2 / denom;
        let f = FisherSnedecor::new(kf - 1.0, (kf - 1.0) * (nf - 1.0)).ok()?;
        (ff, f.sf(ff))
    } else {
        // Every block ranks the methods the same way.
        (f64::INFINITY, 0.0)
    };
    Some(Friedman {
        k,
        n,
        mean_ranks,
        chi2,
        p_chi2,
        ff,
        p_ff,
        cd: critical_difference(k, n)?,
    })
}

/// q_0.05 of the Nemenyi test for k = 2..=10 methods: Demšar (2006), Table 5(a) (the
/// studentized range statistic at infinite degrees of freedom divided by √2).
pub const NEMENYI_Q05: [f64; 9] = [
    1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164,
];

/// q_0.05 for `k` methods: Demšar's table up to 10, beyond it the same quantity computed
/// ([`studentized_range_q`] / √2).
pub fn nemenyi_q05(k: usize) -> Option<f64> {
    match k {
        0 | 1 => None,
        2..=10 => Some(NEMENYI_Q05[k - 2]),
        _ => Some(studentized_range_q(k, 1.0 - ALPHA) / std::f64::consts::SQRT_2),
    }
}

/// The `level` quantile of the range of `k` independent standard normal values (the
/// studentized range at infinite degrees of freedom): P(W ≤ w) = k ∫ φ(z) (Φ(z + w) − Φ(z))^(k−1)
/// dz, by Simpson's rule, inverted by bisection.
pub fn studentized_range_q(k: usize, level: f64) -> f64 {
    let norm = std_normal();
    let cdf = |w: f64| {
        let (a, b, steps) = (-9.0f64, 9.0f64, 3600usize);
        let h = (b - a) / steps as f64;
        let f = |z: f64| {
            let phi = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
            phi * (norm.cdf(z + w) - norm.cdf(z)).powi(k as i32 - 1)
        };
        let mut s = f(a) + f(b);
        for i in 1..steps {
            s += f(a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        k as f64 * s * h / 3.0
    };
    let (mut lo, mut hi) = (0.0, 20.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if cdf(mid) < level {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// CD = q_0.05 √(k(k+1)/(6N)) for `k` methods on `n` blocks.
pub fn critical_difference(k: usize, n: usize) -> Option<f64> {
    if n == 0 {
        return None;
    }
    let kf = k as f64;
    Some(nemenyi_q05(k)? * (kf * (kf + 1.0) / (6.0 * n as f64)).sqrt())
}

/// One pairwise comparison of a group.
#[derive(Clone, Debug, PartialEq)]
pub struct PairTest {
    /// First method configuration.
    pub a: String,
    /// Second.
    pub b: String,
    /// Instances both ran.
    pub n: usize,
    /// The test (d = b − a per instance, so R+ and r > 0 favour `a`); `None` below
    /// [`MIN_PAIRS`].
    pub test: Option<SignedRank>,
    /// Holm-adjusted p over the group's tests.
    pub p_holm: Option<f64>,
}

impl PairTest {
    /// The plain-language verdict at [`ALPHA`].
    pub fn verdict(&self) -> String {
        match (&self.test, self.p_holm) {
            (Some(t), Some(p)) if p < ALPHA => {
                let (fast, slow) = if t.r_plus > t.r_minus {
                    (&self.a, &self.b)
                } else {
                    (&self.b, &self.a)
                };
                format!("{fast} is faster than {slow}")
            }
            (Some(_), _) => "no significant difference".to_string(),
            (None, _) if self.n >= MIN_PAIRS => "not tested: a time is not a finite number".into(),
            _ => format!(
                "too few paired instances ({} < {MIN_PAIRS}): not tested",
                self.n
            ),
        }
    }
}

/// The Friedman–Nemenyi part of a group.
#[derive(Clone, Debug, PartialEq)]
pub struct RankTest {
    /// The methods, in the order of the result's mean ranks.
    pub methods: Vec<String>,
    /// The test.
    pub result: Friedman,
}

impl RankTest {
    /// Groups of methods whose mean ranks differ by less than CD (not significantly different),
    /// maximal and with at least two members, as index ranges into the methods sorted by mean
    /// rank ([`RankTest::by_rank`]).
    pub fn cliques(&self) -> Vec<(usize, usize)> {
        let r: Vec<f64> = self
            .by_rank()
            .iter()
            .map(|&i| self.result.mean_ranks[i])
            .collect();
        let mut out: Vec<(usize, usize)> = Vec::new();
        for i in 0..r.len() {
            let mut j = i;
            while j + 1 < r.len() && r[j + 1] - r[i] < self.result.cd {
                j += 1;
            }
            if j > i && !out.iter().any(|&(_, e)| e >= j) {
                out.push((i, j));
            }
        }
        out
    }

    /// Method indices by mean rank, best first.
    pub fn by_rank(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.methods.len()).collect();
        idx.sort_by(|&a, &b| {
            self.result.mean_ranks[a]
                .total_cmp(&self.result.mean_ranks[b])
                .then(self.methods[a].cmp(&self.methods[b]))
        });
        idx
    }
}

/// The comparison of the methods of one group (kind, variant, order).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Kind.
    pub kind: String,
    /// Variant.
    pub variant: String,
    /// Order n.
    pub order: usize,
    /// Method configurations, sorted.
    pub methods: Vec<String>,
    /// Instances in the group.
    pub instances: usize,
    /// What an unsolved trial counts as (ms); `None` when every trial was solved.
    pub penalty_ms: Option<f64>,
    /// Every pair of methods; with more than [`ALL_PAIRS_MAX`] of them, each against
    /// [`Comparison::control`].
    pub pairs: Vec<PairTest>,
    /// The configuration every other one is tested against, when the group has more than
    /// [`ALL_PAIRS_MAX`]: the best mean rank (the Friedman test's), else the lowest mean value
    /// over the instances it ran.
    pub control: Option<String>,
    /// Friedman and Nemenyi, with three or more methods.
    pub ranks: Option<RankTest>,
    /// Why there is no Friedman test, when there is none.
    pub note: Option<String>,
}

impl Comparison {
    /// `kind · variant · N×N`: the group, as headings and the diagram name it.
    pub fn title(&self) -> String {
        let n = self.order * self.order;
        format!("{} · {} · {n}×{n}", self.kind, self.variant)
    }
}

/// The comparisons of every group of `rows` (see the module documentation); `caps` are the
/// configurations' time limits ([`crate::tables::config_caps`]).
pub fn compare(rows: &[Trial], caps: &Caps) -> Vec<Comparison> {
    let mut groups: BTreeMap<(Name, Name, usize), Vec<&Trial>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.kind.clone(), r.variant.clone(), r.order))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((kind, variant, order), rs)| {
            let (penalty_ms, values) = instance_values(&rs, caps);
            let methods: Vec<String> = values.keys().cloned().collect();
            let instances: BTreeSet<&(Name, Name)> =
                values.values().flat_map(|v| v.keys()).collect();
            let instances = instances.len();
            let (ranks, note) = rank_test(&methods, &values);
            let control =
                (methods.len() > ALL_PAIRS_MAX).then(|| control(&methods, &values, &ranks));
            let mut pairs = Vec::new();
            match &control {
                Some(c) => pairs.extend(
                    methods
                        .iter()
                        .filter(|b| *b != c)
                        .map(|b| paired(c, b, &values)),
                ),
                None => {
                    for (i, a) in methods.iter().enumerate() {
                        for b in &methods[i + 1..] {
                            pairs.push(paired(a, b, &values));
                        }
                    }
                }
            }
            holm_pairs(&mut pairs);
            Comparison {
                kind: kind.to_string(),
                variant: variant.to_string(),
                order,
                methods,
                instances,
                penalty_ms,
                pairs,
                control,
                ranks,
                note,
            }
        })
        .collect()
}

/// Per method configuration, per instance (set, id): the value the tests compare.
pub(crate) type Values = BTreeMap<String, BTreeMap<(Name, Name), f64>>;

/// The values of the rows `rs` of one group (see the module documentation): each
/// configuration's mean PAR-2 score per instance, an unsolved trial counting twice the largest
/// time limit among the group's configurations (else twice its longest trial); and that
/// penalty, when a trial was unsolved.
pub(crate) fn instance_values(rs: &[&Trial], caps: &Caps) -> (Option<f64>, Values) {
    let cap = rs
        .iter()
        .filter_map(|r| caps.get(&(r.kind.clone(), r.method.clone(), r.params.clone())))
        .flatten()
        .copied()
        .max_by(f64::total_cmp)
        .or_else(|| rs.iter().map(|r| r.wall_ms).max_by(f64::total_cmp));
    let penalty_ms = rs
        .iter()
        .any(|r| !r.success())
        .then(|| cap.map(|c| 2.0 * c))
        .flatten();
    // Per configuration (method, params) and instance: the sum and count of its trials'
    // scores, for their mean.
    type Sums = BTreeMap<(Name, Name), (f64, usize)>;
    let mut sums: BTreeMap<(&str, &str), Sums> = BTreeMap::new();
    for r in rs {
        let score = par2_score(r, cap).unwrap_or(r.wall_ms);
        let e = sums
            .entry((&r.method, &r.params))
            .or_default()
            .entry((r.instance_set.clone(), r.instance.clone()))
            .or_insert((0.0, 0));
        e.0 += score;
        e.1 += 1;
    }
    let mut values: Values = BTreeMap::new();
    for ((method, params), per) in sums {
        let means = per.into_iter().map(|(inst, (s, c))| (inst, s / c as f64));
        values
            .entry(config_label(method, params))
            .or_default()
            .extend(means);
    }
    (penalty_ms, values)
}

/// The Wilcoxon test of `a` against `b` on the instances both ran (no Holm adjustment yet).
pub(crate) fn paired(a: &str, b: &str, values: &Values) -> PairTest {
    let empty = BTreeMap::new();
    let (va, vb) = (
        values.get(a).unwrap_or(&empty),
        values.get(b).unwrap_or(&empty),
    );
    let d: Vec<f64> = va
        .iter()
        .filter_map(|(inst, x)| vb.get(inst).map(|y| y - x))
        .collect();
    PairTest {
        a: a.to_string(),
        b: b.to_string(),
        n: d.len(),
        test: (d.len() >= MIN_PAIRS)
            .then(|| signed_rank(&d, Zeros::Pratt))
            .flatten(),
        p_holm: None,
    }
}

/// The control of a group too large for every pair: the configuration with the best mean rank
/// when the Friedman test ran, else the lowest mean of its values (ties: the first by name).
fn control(methods: &[String], values: &Values, ranks: &Option<RankTest>) -> String {
    if let Some(rt) = ranks {
        if let Some(&best) = rt.by_rank().first() {
            return rt.methods[best].clone();
        }
    }
    let mean = |m: &String| {
        let v = values.get(m).map(|v| v.values()).into_iter().flatten();
        let (sum, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
        if n == 0 {
            f64::INFINITY
        } else {
            sum / n as f64
        }
    };
    methods
        .iter()
        .map(|m| (mean(m), m))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)))
        .map(|(_, m)| m.clone())
        .unwrap_or_default()
}

/// Sets `p_holm` of every tested pair: Holm's adjustment over the tested pairs of `pairs`.
pub(crate) fn holm_pairs(pairs: &mut [PairTest]) {
    let tested: Vec<usize> = (0..pairs.len())
        .filter(|&i| pairs[i].test.is_some())
        .collect();
    let p: Vec<f64> = tested
        .iter()
        .filter_map(|&i| pairs[i].test.as_ref().map(|t| t.p))
        .collect();
    for (&i, adj) in tested.iter().zip(holm(&p)) {
        pairs[i].p_holm = Some(adj);
    }
}

/// Friedman on the instances every method ran, or why not.
fn rank_test(methods: &[String], values: &Values) -> (Option<RankTest>, Option<String>) {
    if methods.len() < 3 {
        return (
            None,
            Some(format!(
                "{} method configuration{}: the Friedman test needs three or more",
                methods.len(),
                if methods.len() == 1 { "" } else { "s" }
            )),
        );
    }
    let Some(first) = values.get(&methods[0]) else {
        return (None, None);
    };
    let blocks: Vec<Vec<f64>> = first
        .keys()
        .filter_map(|inst| {
            methods
                .iter()
                .map(|m| values.get(m).and_then(|v| v.get(inst)).copied())
                .collect::<Option<Vec<f64>>>()
        })
        .collect();
    if blocks.len() < MIN_PAIRS {
        return (
            None,
            Some(format!(
                "{} instance{} ran by every method (< {MIN_PAIRS}): no Friedman test",
                blocks.len(),
                if blocks.len() == 1 { "" } else { "s" }
            )),
        );
    }
    match friedman(&blocks) {
        Some(result) => (
            Some(RankTest {
                methods: methods.to_vec(),
                result,
            }),
            None,
        ),
        None => (None, Some("the Friedman test could not be computed".into())),
    }
}

/// A piece of the statistics document, rendered per format.
enum Piece {
    Heading(String),
    Para(String),
    Table(Table, String),
}

fn pieces(comparisons: &[Comparison]) -> Vec<Piece> {
    let mut out = vec![Piece::Para(format!(
        "Methods are paired on the instances both ran; each method's value on an instance is the mean PAR-2 score of its trials there (wall time, or an unsolved trial at twice the group's largest time limit). Pairs: Wilcoxon signed-rank test, two-sided, zero differences by Pratt's method, exact p up to {EXACT_MAX} non-zero differences and otherwise the normal approximation with tie and continuity correction; p-values adjusted by Holm's step-down method within each group; effect size r: matched-pairs rank-biserial correlation (R+ − R−)/(R+ + R−), positive when method A is faster. Three or more methods: Friedman test (χ²_F and Iman–Davenport F_F) on the instances every method ran, Nemenyi post-hoc test with CD = q_α √(k(k+1)/(6N)) at α = {ALPHA} (Demšar 2006); diagram in cd.svg. Fewer than {MIN_PAIRS} paired instances: not tested."
    ))];
    if comparisons.is_empty() {
        out.push(Piece::Para("No trials.".into()));
    }
    for c in comparisons {
        out.push(Piece::Heading(c.title()));
        out.push(Piece::Para(format!(
            "{} method configuration{} on {} instance{}; an unsolved trial counts as {}.",
            c.methods.len(),
            if c.methods.len() == 1 { "" } else { "s" },
            c.instances,
            if c.instances == 1 { "" } else { "s" },
            c.penalty_ms
                .map_or("– (every trial solved)".to_string(), |p| format!(
                    "{} ms",
                    num(p)
                ))
        )));
        if c.methods.len() < 2 {
            out.push(Piece::Para(
                "Only one method configuration: nothing to compare.".into(),
            ));
            continue;
        }
        if let Some(control) = &c.control {
            out.push(Piece::Para(format!(
                "More than {ALL_PAIRS_MAX} configurations: each is tested against {}, the best by {}, instead of every pair; Holm's correction is over those {} tests.",
                control,
                if c.ranks.is_some() { "mean rank" } else { "mean value over its instances" },
                c.pairs.len()
            )));
        }
        if c.pairs.iter().all(|p| p.n < MIN_PAIRS) {
            let most = c.pairs.iter().map(|p| p.n).max().unwrap_or(0);
            out.push(Piece::Para(format!(
                "No pair of methods shares {MIN_PAIRS} or more instances (at most {most}): no Wilcoxon tests."
            )));
        } else {
            out.push(pair_table(c));
        }
        match (&c.ranks, &c.note) {
            (Some(rt), _) => {
                let f = &rt.result;
                let sig = f.p_ff < ALPHA;
                out.push(Piece::Para(format!(
                    "Friedman test, k = {} methods on N = {} instances: χ²_F = {:.2} (p {}), Iman–Davenport F_F = {:.2} (p {}). {} Nemenyi CD at α = {ALPHA}: {:.3}.",
                    f.k,
                    f.n,
                    f.chi2,
                    p_value(f.p_chi2),
                    f.ff,
                    p_value(f.p_ff),
                    if sig {
                        "The methods differ: mean ranks further apart than CD are significantly different."
                    } else {
                        "No significant difference among the methods (the Nemenyi groups below are shown for completeness)."
                    },
                    f.cd
                )));
                let cliques = rt.cliques();
                let order = rt.by_rank();
                let lines = order
                    .iter()
                    .enumerate()
                    .map(|(pos, &i)| {
                        let groups: Vec<String> = cliques
                            .iter()
                            .enumerate()
                            .filter(|(_, &(s, e))| s <= pos && pos <= e)
                            .map(|(g, _)| char::from(b'a' + (g % 26) as u8).to_string())
                            .collect();
                        Line::Row(vec![
                            Cell::new(rt.methods[i].clone()),
                            Cell::new(format!("{:.3}", f.mean_ranks[i])),
                            Cell::new(if groups.is_empty() {
                                "–".to_string()
                            } else {
                                groups.join(" ")
                            }),
                        ])
                    })
                    .collect();
                out.push(Piece::Table(
                    Table {
                        headers: ["Method", "Mean rank", "Nemenyi group"]
                            .map(String::from)
                            .to_vec(),
                        numeric: vec![false, true, false],
                        lines,
                    },
                    format!("Mean ranks, {} (1 = fastest); methods sharing a group letter are not significantly different (Nemenyi, α = {ALPHA}).", c.title()),
                ));
            }
            (None, Some(note)) => out.push(Piece::Para(format!("{note}."))),
            (None, None) => {}
        }
    }
    out
}

/// The Wilcoxon table of a group.
fn pair_table(c: &Comparison) -> Piece {
    let mut lines = Vec::new();
    for pt in &c.pairs {
        let t = pt.test.as_ref();
        let f = |g: &dyn Fn(&SignedRank) -> String| Cell::new(t.map_or("–".into(), g));
        lines.push(Line::Row(vec![
            Cell::new(pt.a.clone()),
            Cell::new(pt.b.clone()),
            Cell::new(pt.n.to_string()),
            f(&|t| num(t.t)),
            f(&|t| format!("{:.2}", t.z)),
            f(&|t| format!("{}{}", p_value(t.p), if t.exact { "" } else { " (z)" })),
            Cell::new(pt.p_holm.map_or("–".into(), p_value)),
            f(&|t| format!("{:.2}", t.effect)),
            Cell::new(pt.verdict()),
        ]));
    }
    let table = Table {
        headers: [
            "Method A", "Method B", "n", "T", "z", "p", "Holm p", "r", "Verdict",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, true, true, true, true, true, false],
        lines,
    };
    Piece::Table(table, format!("Wilcoxon signed-rank tests, {}: n paired instances, T = min(R+, R−), z normal approximation, p two-sided (exact unless marked (z)), Holm-adjusted p, r rank-biserial (positive: A faster).", c.title()))
}

/// stats.md.
pub fn markdown(title: &str, comparisons: &[Comparison]) -> String {
    let mut out = format!("# Statistics: {}\n", escape::markdown(title));
    for p in pieces(comparisons) {
        match p {
            Piece::Heading(h) => out.push_str(&format!("\n## {}\n", escape::markdown(&h))),
            Piece::Para(t) => out.push_str(&format!("\n{}\n", escape::markdown(&t))),
            Piece::Table(t, caption) => out.push_str(&format!(
                "\n{}\n\n{}",
                escape::markdown(&caption),
                t.markdown()
            )),
        }
    }
    out
}

/// stats.tex (booktabs tables; needs `\usepackage{booktabs}`).
pub fn latex(title: &str, comparisons: &[Comparison]) -> String {
    let mut out = format!(
        "% Generated by sudoku-bench; needs \\usepackage{{booktabs}}.\n% Statistics: {}\n",
        escape::latex(title)
    );
    for p in pieces(comparisons) {
        match p {
            Piece::Heading(h) => out.push_str(&format!("\n\\paragraph{{{}}}\n", escape::latex(&h))),
            Piece::Para(t) => out.push_str(&format!("{}\n\n", escape::latex(&t))),
            Piece::Table(t, caption) => out.push_str(&t.latex(&caption)),
        }
    }
    out
}

/// The statistics as an HTML fragment (headings `<h3>`, paragraphs, tables), for the report.
pub fn html(comparisons: &[Comparison]) -> String {
    let mut out = String::new();
    for p in pieces(comparisons) {
        match p {
            Piece::Heading(h) => out.push_str(&format!("<h3>{}</h3>\n", escape::html(&h))),
            Piece::Para(t) => out.push_str(&format!("<p>{}</p>\n", escape::html(&t))),
            Piece::Table(t, caption) => out.push_str(&t.html(&caption)),
        }
    }
    out
}
