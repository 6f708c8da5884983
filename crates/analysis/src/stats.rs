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
    quantile_of(sorted.len(), q, |k| sorted[k])
}

/// [`quantile_sorted`] of `len` sorted values of which `at(k)` is the `k`-th, for data that is
/// not laid out sorted (the one formula, so both give the same bits).
fn quantile_of(len: usize, q: f64, mut at: impl FnMut(usize) -> f64) -> Option<f64> {
    if len == 0 {
        return None;
    }
    let h = (len - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    let (a, b) = (at(lo), at(hi));
    Some(a + (h - lo as f64) * (b - a))
}

/// Median.
pub fn median(xs: &[f64]) -> Option<f64> {
    quantile_sorted(&sorted(xs), 0.5)
}

/// A 95 % percentile-bootstrap confidence interval of the median: `resamples` resamples with
/// replacement drawn from a generator seeded with `seed`, so the interval is reproducible.
///
/// A resample is the multiset of the draws, so it is kept as how often each value was drawn,
/// and its median read off those counts in the order of the values: the same draws and the same
/// medians as sorting each resample, in linear time (a million trials took minutes sorted).
pub fn bootstrap_median_ci(xs: &[f64], resamples: usize, seed: u64) -> Option<(f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len();
    // The indices in the order `sorted` puts their values (u32: half the memory the counting
    // walks, and a results file holds far fewer rows).
    let mut by_rank: Vec<u32> = (0..n as u32).collect();
    by_rank.sort_by(|&a, &b| xs[a as usize].total_cmp(&xs[b as usize]));
    let mut rng = rng_from_seed(seed);
    let mut medians = Vec::with_capacity(resamples);
    let mut drawn = vec![0u32; n];
    for _ in 0..resamples {
        drawn.fill(0);
        for _ in 0..n {
            drawn[rng.random_range(0..n)] += 1;
        }
        // The k-th of the resample sorted, for the k asked in increasing order (lo, then hi).
        let (mut r, mut below) = (0, 0usize);
        let kth = |k: usize| {
            while below + drawn[by_rank[r] as usize] as usize <= k {
                below += drawn[by_rank[r] as usize] as usize;
                r += 1;
            }
            xs[by_rank[r] as usize]
        };
        medians.push(quantile_of(n, 0.5, kth)?);
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

    /// The bootstrap as first written: each resample drawn, sorted and its median taken.
    fn bootstrap_by_sorting(xs: &[f64], resamples: usize, seed: u64) -> (f64, f64) {
        let mut rng = rng_from_seed(seed);
        let mut medians = Vec::new();
        for _ in 0..resamples {
            let sample: Vec<f64> = (0..xs.len())
                .map(|_| xs[rng.random_range(0..xs.len())])
                .collect();
            medians.push(median(&sample).unwrap());
        }
        let m = sorted(&medians);
        (
            quantile_sorted(&m, 0.025).unwrap(),
            quantile_sorted(&m, 0.975).unwrap(),
        )
    }

    #[test]
    fn counting_the_draws_gives_the_sorted_resamples_medians_to_the_bit() {
        let mut rng = rng_from_seed(3);
        for n in [1, 2, 3, 10, 101, 1000] {
            // Heavy-tailed, with ties, a zero and a negative zero.
            let mut xs: Vec<f64> = (0..n)
                .map(|_| (rng.random_range(0.0..1.0f64) * 8.0).exp().round() / 4.0)
                .collect();
            xs[0] = 0.0;
            if n > 1 {
                xs[1] = -0.0;
            }
            let (lo, hi) = bootstrap_median_ci(&xs, 200, n as u64).unwrap();
            let (a, b) = bootstrap_by_sorting(&xs, 200, n as u64);
            assert_eq!(
                (lo.to_bits(), hi.to_bits()),
                (a.to_bits(), b.to_bits()),
                "n = {n}"
            );
        }
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
