//! The statistics of a comparison that know nothing of runs: the exact sign test, the
//! half-sample mode, and the seeded paired bootstrap (which `findings` reuses). Apart so that
//! they read, and can be reused, as plain functions on numbers.

use rand::Rng as _;
use sudoku_core::rng_from_seed;

use super::{Interval, RESAMPLES, SEED};
use crate::stats::{mean, median, quantile_sorted, sorted};

/// The exact two-sided sign test of `k` against `m` (the units one way and the other):
/// 2 P(X ≤ min(k, m)) for X ~ Binomial(k + m, ½), at most 1; 1 without discordant units.
/// Summed in log space (each term log C(n, i) − n log 2, the tail by log-sum-exp), so it
/// stays exact for any n: 0.5^n underflows to 0 beyond n = 1,074.
pub fn sign_test(k: usize, m: usize) -> f64 {
    let n = k + m;
    if n == 0 {
        return 1.0;
    }
    let low = k.min(m);
    // log P(X = i), by the recurrence C(n, i + 1) = C(n, i) (n − i) / (i + 1).
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut logs = Vec::with_capacity(low + 1);
    for i in 0..=low {
        logs.push(log_term);
        log_term += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    // The largest term is the last (i ≤ n/2): factor it out before summing.
    let top = logs[low];
    let sum: f64 = logs.iter().map(|l| (l - top).exp()).sum();
    (2.0 * (top + sum.ln()).exp()).min(1.0)
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
