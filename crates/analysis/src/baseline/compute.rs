//! The comparison computed: each run's values per instance, one line per configuration and
//! group with its ratios, intervals and test, the runs' noise, and each line's flag. Apart from
//! the types (`mod.rs`) and from the writing (`write.rs`); the tests of the whole comparison
//! are here, beside `compare_runs`.

use std::collections::BTreeMap;

use super::notes::{describe, notes};
use super::statistics::{bootstrap, half_sample_mode, paired_interval, sign_test};
use super::{
    BaselineError, Change, Delta, Interval, PerInstance, Ratio, RunComparison, Shift, Side, Unit,
    Value, NOISE_K, NOISE_MIN_LINES, SHIFT_MIN_LINES,
};
use crate::compare::{signed_rank, Zeros, ALPHA, MIN_PAIRS};
use crate::meta::config_label;
use crate::stats::{mean, median, quantile_sorted, sorted};
use crate::tables::{cap_of, config_caps, par2_score, set_key, SetKey, TimeLimits};
use crate::Trials;

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
    let shift = shift(&lines);
    let bar = (1.0 + threshold).max(noise.map_or(0.0, |s| (NOISE_K * s).exp()));
    for l in &mut lines {
        l.change = change(l, bar, shift.map_or(1.0, |s| s.value));
    }
    Ok(RunComparison {
        experiment: exp_a,
        a: (a.name.to_string(), describe(a.meta)),
        b: (b.name.to_string(), describe(b.meta)),
        threshold,
        noise,
        shift,
        bar,
        lines,
        duet: [a, b]
            .iter()
            .any(|s| s.meta.is_some_and(|m| m.duet.is_some())),
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

/// The first quartile of |Z| for a standard normal Z: Φ(q) = 0.625.
const QUARTILE_ABS_NORMAL: f64 = 0.318_639;
/// The median of |Z| for a standard normal Z: Φ(q) = 0.75.
const MEDIAN_ABS_NORMAL: f64 = 0.674_490;

/// The judged lines' log median ratios (lines with an interval).
fn judged_logs(lines: &[Delta]) -> Vec<f64> {
    lines
        .iter()
        .filter_map(|l| l.median_ratio)
        .filter(|r| r.ci.is_some() && r.value > 0.0)
        .map(|r| r.value.ln())
        .collect()
}

/// The noise of a comparison (module documentation): the spread of the judged lines' log
/// median ratios around their half-sample mode. From [`NOISE_MIN_LINES`] lines on, the first
/// quartile of the distances over [`QUARTILE_ABS_NORMAL`] (robust to a change that moved
/// most lines); from [`SHIFT_MIN_LINES`] to fewer, the median distance over
/// [`MEDIAN_ABS_NORMAL`] (a quartile of two or three distances is one of them, and would take
/// the smallest); `None` below [`SHIFT_MIN_LINES`].
pub fn noise(lines: &[Delta]) -> Option<f64> {
    let logs = judged_logs(lines);
    if logs.len() < SHIFT_MIN_LINES {
        return None;
    }
    let mode = half_sample_mode(&logs)?;
    let dev = sorted(&logs.iter().map(|x| (x - mode).abs()).collect::<Vec<_>>());
    if logs.len() >= NOISE_MIN_LINES {
        Some(quantile_sorted(&dev, 0.25)? / QUARTILE_ABS_NORMAL)
    } else {
        Some(quantile_sorted(&dev, 0.5)? / MEDIAN_ABS_NORMAL)
    }
}

/// The shift every line shares (module documentation): the half-sample mode of the judged
/// lines' median ratios, with a 95 % percentile-bootstrap interval over the lines resampled
/// (fixed seed); `None` below [`SHIFT_MIN_LINES`] judged lines.
pub fn shift(lines: &[Delta]) -> Option<Shift> {
    let logs = judged_logs(lines);
    if logs.len() < SHIFT_MIN_LINES {
        return None;
    }
    let value = half_sample_mode(&logs)?.exp();
    let ci = paired_interval(logs.len(), |idx| {
        let pick: Vec<f64> = idx.iter().map(|&i| logs[i]).collect();
        half_sample_mode(&pick).map(f64::exp)
    });
    Some(Shift {
        value,
        ci,
        lines: logs.len(),
    })
}

/// A line's flag against the bar (a ratio, above 1) and the run-wide shift: by the median
/// ratio's interval, which must clear the bar both from 1 and from the shift (a line that
/// moved with the whole run is not a change of its method; the PAR-2 mean's interval is
/// shown, not judged: one trial slowed by a burst of load moves a mean of a few values past
/// any bar), or by the solved share when the sign test separates B from A.
fn change(l: &Delta, bar: f64, shift: f64) -> Change {
    let Some(ci) = l.median_ratio.and_then(|r| r.ci) else {
        return Change::TooFew;
    };
    let (worse, better) = l.solved_shift;
    let solved = sign_test(worse, better) < ALPHA;
    if ci.0 > bar * shift.max(1.0) || (solved && worse > better) {
        Change::Regression
    } else if ci.1 < shift.min(1.0) / bar || (solved && better > worse) {
        Change::Improvement
    } else {
        Change::Unchanged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{markdown, summary, THRESHOLD};
    use crate::Row;
    use crate::TrialStatus;
    use rand::Rng as _;
    use sudoku_core::rng_from_seed;

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
            .filter(|l| super::change(l, 1.0 + THRESHOLD, 1.0) != Change::Unchanged)
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
        let close = |p: f64, exact: f64| (p - exact).abs() <= 1e-12 * exact;
        assert!(close(sign_test(4, 0), 0.125));
        assert!(close(sign_test(7, 0), 2.0 / 128.0));
        assert_eq!(sign_test(3, 3), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
    }

    #[test]
    fn the_sign_test_is_exact_for_thousands_of_units() {
        // Exact values (Python's integer binomials): 2 P(X ≤ 900) for n = 2,000, and
        // 2 P(X ≤ 990). Summed from 0.5^2000 in floating point, both were 0.
        let rel = |p: f64, exact: f64| (p - exact).abs() / exact;
        assert!(rel(sign_test(900, 1100), 8.457_089_535_503_927e-6) < 1e-9);
        assert!(rel(sign_test(1010, 990), 0.670_954_485_555_654_5) < 1e-9);
        assert_eq!(sign_test(1000, 1000), 1.0);
        // A balanced split of 2,000 differing units (B times out on the even instances, A on
        // the odd ones) is no change of the solved share.
        let time_out = |rows: &mut [Row], parity: usize| {
            for r in rows.iter_mut().skip(parity).step_by(2) {
                r.status = TrialStatus::Timeout;
                r.limit = "time".into();
                r.wall_ms = 100.0;
            }
        };
        let mut a = many(1, 2000, 1, &|_| 1.0, 0.0, 1);
        let mut b = a.clone();
        time_out(&mut b, 0);
        time_out(&mut a, 1);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert_eq!(c.lines[0].solved_shift, (1000, 1000));
        assert_eq!(c.lines[0].change, Change::Unchanged);
    }

    #[test]
    fn a_shift_of_the_whole_run_is_said_first_and_not_a_regression_of_each_line() {
        // Every configuration 1.25× slower in B (the machine was slower), ±3 % per trial:
        // judged from 1 alone, all ten would be regressions.
        let a = many(10, 12, 1, &|_| 1.0, 0.03, 1);
        let b = many(10, 12, 1, &|_| 1.25, 0.03, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        let shift = c.shift.unwrap();
        assert!((shift.value - 1.25).abs() < 0.03, "{shift:?}");
        let (lo, hi) = shift.ci.unwrap();
        assert!(lo > 1.2 && hi < 1.3, "{lo} {hi}");
        assert_eq!(shift.lines, 10);
        assert_eq!(c.count(Change::Unchanged), 10, "{}", summary(&c));
        let from_one = c
            .lines
            .iter()
            .filter(|l| super::change(l, c.bar, 1.0) == Change::Regression)
            .count();
        assert!(from_one >= 8, "{from_one}");
        let s = summary(&c);
        assert!(
            s.starts_with("B's whole run is 1.2") && s.contains("the machine, or a change that touches every method; an interleaved comparison (`run --baseline`) can tell which."),
            "{s}"
        );
        assert!(markdown(&c).contains("unchanged (moved with the run)"));
        // One configuration 1.6× on top of the shift is that method's regression, alone.
        let b = many(
            10,
            12,
            1,
            &|c| if c == 4 { 1.25 * 1.6 } else { 1.25 },
            0.03,
            2,
        );
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        let flagged: Vec<&str> = c
            .lines
            .iter()
            .filter(|l| l.change != Change::Unchanged)
            .map(|l| l.config.as_str())
            .collect();
        assert_eq!(flagged, ["m04"]);
        // A machine 1.25× faster does not hide it either way: judged from 1 and from the shift.
        let b = many(10, 12, 1, &|c| if c == 4 { 1.6 } else { 0.8 }, 0.03, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert_eq!(c.lines[4].change, Change::Regression, "{}", summary(&c));
        assert_eq!(c.count(Change::Regression), 1);
    }

    #[test]
    fn a_line_past_the_bar_from_1_only_is_not_said_to_move_with_a_run_that_did_not() {
        // The run moved by 5 %, within the threshold; one line by 13 %: past the bar (1.10)
        // from 1, not from the shift (1.155), so unchanged, and not "moved with the run".
        let a = many(10, 12, 1, &|_| 1.0, 0.0, 1);
        let b = many(10, 12, 1, &|c| if c == 3 { 1.13 } else { 1.05 }, 0.0, 1);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert!((c.shift.unwrap().value - 1.05).abs() < 1e-9);
        assert_eq!(c.count(Change::Unchanged), 10);
        let md = markdown(&c);
        assert!(
            md.contains("| unchanged (beyond the bar from 1, not from the run's shift) |"),
            "{md}"
        );
        assert!(!md.contains("moved with the run"), "{md}");
    }

    #[test]
    fn two_to_nine_lines_have_a_shift_and_a_noise() {
        // Two lines that moved together by 1.15: the shift, a small noise, nothing flagged.
        let a = many(2, 12, 1, &|_| 1.0, 0.03, 1);
        let b = many(2, 12, 1, &|_| 1.15, 0.03, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert_eq!(c.shift.unwrap().lines, 2);
        assert!(c.noise.unwrap() < 0.05, "{:?}", c.noise);
        assert_eq!(c.count(Change::Unchanged), 2, "{}", summary(&c));
        assert!(summary(&c).contains("from only 2 lines"));
        // Two lines far apart: no telling which moved, so the noise is wide and neither is
        // flagged.
        let b = many(2, 12, 1, &|c| [1.0, 1.6][c], 0.03, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert!(c.bar > 1.6, "{}", c.bar);
        assert_eq!(c.count(Change::Unchanged), 2);
        // Five lines, one 2× slower: the four others set the shift and noise.
        let a = many(5, 12, 1, &|_| 1.0, 0.03, 1);
        let b = many(5, 12, 1, &|c| if c == 2 { 2.0 } else { 1.0 }, 0.03, 2);
        let c = compare_runs(&side("A", &a), &side("B", &b), THRESHOLD).unwrap();
        assert_eq!(c.lines[2].change, Change::Regression, "{}", summary(&c));
        assert_eq!(c.count(Change::Regression), 1);
        // One line: no shift, no noise, the threshold decides.
        let a = many(1, 12, 1, &|_| 1.0, 0.03, 1);
        let c = compare_runs(&side("A", &a), &side("B", &a), THRESHOLD).unwrap();
        assert_eq!((c.shift, c.noise), (None, None));
        assert!(summary(&c).contains("Fewer than 2 judged lines"));
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
