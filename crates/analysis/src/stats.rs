//! Descriptive statistics for heavy-tailed timings: pure functions on slices, tested on
//! literal data.

use rand::Rng as _;
use sudoku_core::rng_from_seed;

/// Arithmetic mean; `None` for no data.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Sample standard deviation (n − 1); `None` below two values.
pub fn std_dev(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = mean(xs)?;
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64;
    Some(var.sqrt())
}

/// Sorted copy (NaNs last), for the quantile functions.
pub fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

/// Quantile `q` in 0..=1 of already sorted data, by linear interpolation between closest ranks
/// (the common "type 7" definition, as in R and NumPy's default).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// Median.
pub fn median(xs: &[f64]) -> Option<f64> {
    quantile_sorted(&sorted(xs), 0.5)
}

/// A 95 % percentile-bootstrap confidence interval of the median: `resamples` resamples with
/// replacement drawn from a generator seeded with `seed`, so the interval is reproducible.
pub fn bootstrap_median_ci(xs: &[f64], resamples: usize, seed: u64) -> Option<(f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let mut rng = rng_from_seed(seed);
    let mut medians = Vec::with_capacity(resamples);
    let mut sample = vec![0.0; xs.len()];
    for _ in 0..resamples {
        for s in sample.iter_mut() {
            *s = xs[rng.random_range(0..xs.len())];
        }
        medians.push(median(&sample)?);
    }
    let m = sorted(&medians);
    Some((quantile_sorted(&m, 0.025)?, quantile_sorted(&m, 0.975)?))
}

/// Everything the summary reports about one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Describe {
    /// Number of values.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Sample standard deviation (0 for a single value).
    pub std: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// 10th percentile.
    pub p10: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 25th percentile (box plots).
    pub q1: f64,
    /// 75th percentile (box plots).
    pub q3: f64,
    /// Lower end of the 95 % bootstrap CI of the median.
    pub ci_lo: f64,
    /// Upper end of the 95 % bootstrap CI of the median.
    pub ci_hi: f64,
}

/// Describes a non-empty sample; the bootstrap uses `seed`.
pub fn describe(xs: &[f64], seed: u64) -> Option<Describe> {
    let s = sorted(xs);
    let q = |p| quantile_sorted(&s, p);
    let (ci_lo, ci_hi) = bootstrap_median_ci(xs, 1000, seed)?;
    Some(Describe {
        n: xs.len(),
        mean: mean(xs)?,
        median: q(0.5)?,
        std: std_dev(xs).unwrap_or(0.0),
        min: *s.first()?,
        max: *s.last()?,
        p10: q(0.1)?,
        p90: q(0.9)?,
        q1: q(0.25)?,
        q3: q(0.75)?,
        ci_lo,
        ci_hi,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_values() {
        let xs = [4.0, 1.0, 3.0, 2.0, 10.0];
        assert_eq!(mean(&xs), Some(4.0));
        assert_eq!(median(&xs), Some(3.0));
        assert_eq!(median(&[1.0, 2.0, 3.0, 4.0]), Some(2.5));
        assert!((std_dev(&xs).unwrap() - 12.5f64.sqrt()).abs() < 1e-12);
        let s = sorted(&xs);
        assert!((quantile_sorted(&s, 0.1).unwrap() - 1.4).abs() < 1e-12);
        assert!((quantile_sorted(&s, 0.9).unwrap() - 7.6).abs() < 1e-12);
        assert_eq!(quantile_sorted(&s, 0.0), Some(1.0));
        assert_eq!(quantile_sorted(&s, 1.0), Some(10.0));
        assert_eq!(mean(&[]), None);
        assert_eq!(std_dev(&[1.0]), None);
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_median() {
        let xs: Vec<f64> = (1..=50).map(f64::from).collect();
        let a = bootstrap_median_ci(&xs, 1000, 7).unwrap();
        assert_eq!(a, bootstrap_median_ci(&xs, 1000, 7).unwrap());
        assert!(a.0 < 25.5 && 25.5 < a.1, "{a:?}");
        // A constant sample has a degenerate interval.
        assert_eq!(bootstrap_median_ci(&[3.0; 9], 100, 1), Some((3.0, 3.0)));
        let d = describe(&[2.0], 1).unwrap();
        assert_eq!((d.n, d.median, d.std, d.ci_lo), (1, 2.0, 0.0, 2.0));
    }
}
