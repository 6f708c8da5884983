//! The statistics of `compare` against published worked examples and tables, and the
//! statistics files made from trial rows.

use std::path::Path;

use sudoku_analysis::compare::{
    self, critical_difference, friedman, holm, nemenyi_q05, signed_rank, studentized_range_q,
    Zeros, NEMENYI_Q05,
};
use sudoku_analysis::tables::{config_caps, TimeLimits};
use sudoku_analysis::{parse_rows, Row, RunOutputs, Trials};

/// Demšar (2006), Table 2 and Table 6: AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 data
/// sets (adult … wine), in thousandths so that equal differences are equal numbers.
const C45: [f64; 14] = [
    763., 599., 954., 628., 882., 936., 661., 583., 775., 1000., 940., 619., 972., 957.,
];
const C45_M: [f64; 14] = [
    768., 591., 971., 661., 888., 931., 668., 583., 838., 1000., 962., 666., 981., 978.,
];
/// Voting: Table 6 prints 0.975 for both C4.5+cf and C4.5+m+cf but ranks C4.5+cf ahead (its
/// mean ranks 2.893 and 1.964 need it), so the unrounded value is higher; SciPy's test of the
/// same example transcribes it as 0.9751.
const C45_CF: [f64; 14] = [
    771., 590., 968., 654., 886., 916., 609., 563., 866., 1000., 965., 614., 975.1, 946.,
];
const C45_M_CF: [f64; 14] = [
    798., 569., 967., 657., 898., 931., 685., 625., 875., 1000., 962., 669., 975., 970.,
];

/// Demšar §3.1.3: C4.5+m against C4.5. The two zero differences (lung cancer, mushroom) have
/// their ranks split between the sums, giving R+ = 93, R− = 12, T = 12; the critical value
/// of T for N = 14 at α = 0.05 is 21, so the difference is significant.
#[test]
fn wilcoxon_signed_rank_reproduces_demsar_section_3_1_3() {
    let d: Vec<f64> = C45_M.iter().zip(C45).map(|(m, c)| m - c).collect();
    let w = signed_rank(&d, Zeros::Split).unwrap();
    assert_eq!((w.n, w.zeros), (14, 2));
    assert_eq!((w.r_plus, w.r_minus, w.t), (93.0, 12.0, 12.0));
    assert!(w.exact && w.p < 0.05, "{w:?}");
    // The normal approximation of the same sums: E = 102/2 (the zeros' ranks are fixed), and
    // Var = Σr²/4 over the twelve non-zero ranks (3.5, 3.5, 5, …, 14) = 1009.5/4.
    let z = (91.5 - 51.0 - 0.5) / (1009.5f64 / 4.0).sqrt();
    assert!(
        (w.z - z).abs() < 1e-12 && (w.z - 2.518).abs() < 1e-3,
        "{}",
        w.z
    );
    // Pratt leaves the zeros' ranks out of both sums; Wilcoxon drops them before ranking.
    let p = signed_rank(&d, Zeros::Pratt).unwrap();
    assert_eq!((p.r_plus, p.r_minus), (91.5, 10.5));
    let wx = signed_rank(&d, Zeros::Wilcoxon).unwrap();
    assert_eq!((wx.r_plus, wx.r_minus), (71.5, 6.5));
    // Rank-biserial correlation: (R+ − R−)/(R+ + R−).
    assert!((w.effect - 81.0 / 105.0).abs() < 1e-12);
}

/// The exact distribution against the published two-sided α = 0.05 critical values of T
/// (T ≤ value is significant) for n = 6..=25: the table of the University of York's
/// Department of Mathematics ("Critical values for T in the Wilcoxon signed-rank test").
#[test]
fn exact_signed_rank_p_matches_the_published_critical_values() {
    let critical = [
        (6, 0.0),
        (7, 2.0),
        (8, 3.0),
        (9, 5.0),
        (10, 8.0),
        (11, 10.0),
        (12, 13.0),
        (13, 17.0),
        (14, 21.0),
        (15, 25.0),
        (16, 29.0),
        (17, 34.0),
        (18, 40.0),
        (19, 46.0),
        (20, 52.0),
        (21, 58.0),
        (22, 65.0),
        (23, 73.0),
        (24, 81.0),
        (25, 89.0),
    ];
    // Differences 1..=n whose negative ones have ranks summing to exactly t.
    let with_t = |n: usize, t: f64| -> Vec<f64> {
        let mut left = t as usize;
        (1..=n)
            .rev()
            .map(|r| {
                if r <= left {
                    left -= r;
                    -(r as f64)
                } else {
                    r as f64
                }
            })
            .collect()
    };
    for (n, t) in critical {
        let at = signed_rank(&with_t(n, t), Zeros::Pratt).unwrap();
        let above = signed_rank(&with_t(n, t + 1.0), Zeros::Pratt).unwrap();
        assert_eq!((at.t, above.t), (t, t + 1.0));
        assert!(at.exact && at.p <= 0.05, "n {n} T {t}: p {}", at.p);
        assert!(above.p > 0.05, "n {n} T {}: p {}", t + 1.0, above.p);
    }
    // n = 1: no sign pattern is unlikely.
    assert_eq!(signed_rank(&[3.0], Zeros::Pratt).unwrap().p, 1.0);
    // Every difference zero: nothing to test.
    let z = signed_rank(&[0.0; 8], Zeros::Pratt).unwrap();
    assert_eq!((z.p, z.effect, z.t), (1.0, 0.0, 0.0));
}

/// Beyond 50 non-zero differences the p-value is the normal approximation, with the
/// continuity correction: z = (R+ − n(n+1)/4 − ½)/√(n(n+1)(2n+1)/24) without ties.
#[test]
fn normal_approximation_beyond_the_exact_range() {
    let n = 60usize;
    // Ranks 1..=20 negative: R− = 210, R+ = 1830 − 210 = 1620.
    let d: Vec<f64> = (1..=n)
        .map(|r| if r <= 20 { -(r as f64) } else { r as f64 })
        .collect();
    let w = signed_rank(&d, Zeros::Pratt).unwrap();
    assert!(!w.exact);
    assert_eq!((w.r_plus, w.r_minus), (1620.0, 210.0));
    let nf = n as f64;
    let z =
        (1620.0 - nf * (nf + 1.0) / 4.0 - 0.5) / (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0).sqrt();
    assert!((w.z - z).abs() < 1e-12);
    // Two-sided normal tail of z ≈ 5.15: about 2.6e-7.
    assert!(w.p > 1e-7 && w.p < 1e-6, "{}", w.p);
}

/// Holm on a hand-worked family: sorted p = 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 =
/// 0.02, 0.03, 0.06, 0.04, made monotone: 0.02, 0.03, 0.06, 0.06; capped at 1.
#[test]
fn holm_step_down_hand_worked() {
    let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
    let want = [0.03, 0.06, 0.06, 0.02];
    for (a, w) in adj.iter().zip(want) {
        assert!((a - w).abs() < 1e-12, "{adj:?}");
    }
    assert_eq!(holm(&[0.5, 0.6]), vec![1.0, 1.0]);
    assert!(holm(&[]).is_empty());
}

/// Demšar §3.2.4 on Table 6: χ²_F = 9.28, F_F = 3.69 (F with 3 and 39 degrees of freedom,
/// critical value 2.85, so the null hypothesis is rejected), CD = 1.25 for k = 4, N = 14.
#[test]
fn friedman_and_nemenyi_reproduce_demsar_table_6() {
    // Higher AUC is better; the test ranks lower values first.
    let blocks: Vec<Vec<f64>> = (0..14)
        .map(|i| vec![-C45[i], -C45_M[i], -C45_CF[i], -C45_M_CF[i]])
        .collect();
    let f = friedman(&blocks).unwrap();
    assert_eq!((f.k, f.n), (4, 14));
    assert!((f.chi2 - 9.28).abs() < 0.005, "{}", f.chi2);
    assert!((f.ff - 3.69).abs() < 0.005, "{}", f.ff);
    assert!(f.p_ff < 0.05 && f.p_chi2 < 0.05);
    assert!((f.cd - 1.25).abs() < 0.005, "{}", f.cd);
    // The mean ranks of Table 6: 3.143, 2.000, 2.893, 1.964.
    for (r, want) in f.mean_ranks.iter().zip([3.143, 2.000, 2.893, 1.964]) {
        assert!((r - want).abs() < 5e-4, "{:?}", f.mean_ranks);
    }
    assert_eq!(critical_difference(4, 14), Some(f.cd));
}

/// Demšar's Table 5(a) is q_0.05 of the studentized range at infinite degrees of freedom over
/// √2: the computed quantile agrees with every transcribed entry, which is what backs the
/// values used beyond k = 10.
#[test]
fn nemenyi_q_table_matches_the_studentized_range() {
    for (i, &q) in NEMENYI_Q05.iter().enumerate() {
        let k = i + 2;
        let computed = studentized_range_q(k, 0.95) / std::f64::consts::SQRT_2;
        assert!((computed - q).abs() < 1.5e-3, "k {k}: {computed} vs {q}");
        assert_eq!(nemenyi_q05(k), Some(q));
    }
    let q11 = nemenyi_q05(11).unwrap();
    assert!(q11 > NEMENYI_Q05[8] && q11 < 3.3, "{q11}");
    assert_eq!(nemenyi_q05(1), None);
}

const HEADER: &str = "task,experiment,kind,method,params,variant,order,instance_set,instance,givens,trial,seed,status,verified,wall_ms,cpu_ms,build_ms,nodes,guesses,iterations,restarts,best_cost,objective,time_to_best_ms,count,limit,extra,message,commit,repeats\n";

fn csv_row(
    method: &str,
    order: usize,
    instance: usize,
    trial: u32,
    status: &str,
    ms: f64,
) -> String {
    let limit = if status == "timeout" { "time" } else { "" };
    // A solution counts only with the verifier's verdict.
    let verified = if status == "solved" { "true" } else { "" };
    // Instances of different orders are different puzzles (a file line holds one order).
    format!("0,t,solve,{method},,classic,{order},set.txt,set-{order}.txt:{instance},11,{trial},1,{status},{verified},{ms},{ms},,0,0,0,0,,,,,{limit},,,c,1\n")
}

/// The comparisons of `rows`, a run without recorded time limits.
fn compared(rows: &[Row]) -> Vec<compare::Comparison> {
    let t = Trials::of_rows(rows);
    compare::compare(&t, &config_caps(&t, &TimeLimits::default()))
}

fn rows(text: String) -> Vec<Row> {
    parse_rows(text, Path::new("t.csv"), false).unwrap()
}

#[test]
fn comparisons_of_rows_pair_instances_and_say_when_they_cannot() {
    let mut text = HEADER.to_string();
    // Order 3: fast always beats mid, which beats slow, on 8 instances (slow times out on
    // two: they count as twice the largest time limit, 2 × 50 ms). Two trials of each.
    for i in 0..8 {
        for t in 0..2 {
            text.push_str(&csv_row("fast", 3, i, t, "solved", 1.0 + i as f64));
            text.push_str(&csv_row("mid", 3, i, t, "solved", 5.0 + i as f64));
            let (st, ms) = if i < 2 {
                ("timeout", 50.0)
            } else {
                ("solved", 9.0 + i as f64)
            };
            text.push_str(&csv_row("slow", 3, i, t, st, ms));
        }
    }
    // Order 2: one method only. Order 4: two methods on three instances.
    text.push_str(&csv_row("fast", 2, 0, 0, "solved", 1.0));
    for i in 0..3 {
        text.push_str(&csv_row("fast", 4, i, 0, "solved", 1.0));
        text.push_str(&csv_row("mid", 4, i, 0, "solved", 2.0));
    }
    let rows = rows(text);
    let cs = compared(&rows);
    assert_eq!(cs.len(), 3);
    let (o2, o3, o4) = (&cs[0], &cs[1], &cs[2]);
    assert_eq!((o2.order, o2.methods.len()), (2, 1));
    assert!(o2.pairs.is_empty() && o2.ranks.is_none());
    assert_eq!(o3.penalty_ms, Some(100.0));
    assert_eq!(o3.instances, 8);
    assert_eq!(o3.pairs.len(), 3);
    for p in &o3.pairs {
        let t = p.test.as_ref().unwrap();
        // Every instance favours the first method (alphabetical: fast < mid < slow).
        assert_eq!((p.n, t.r_minus, t.t), (8, 0.0, 0.0));
        assert!(t.exact && (t.p - 2.0 / 256.0).abs() < 1e-12, "{}", t.p);
        assert_eq!(t.effect, 1.0);
        assert!((p.p_holm.unwrap() - 3.0 * 2.0 / 256.0).abs() < 1e-12);
        assert_eq!(p.verdict(), format!("{} is faster than {}", p.a, p.b));
    }
    let rt = o3.ranks.as_ref().unwrap();
    assert_eq!(rt.result.mean_ranks, vec![1.0, 2.0, 3.0]);
    assert_eq!(rt.result.chi2, 16.0);
    // CD = 2.343 √(12/48) ≈ 1.17: neighbours (one rank apart) are not significantly different.
    assert!((rt.result.cd - 2.343 * 0.5).abs() < 1e-12);
    assert_eq!(rt.cliques(), vec![(0, 1), (1, 2)]);
    assert_eq!(o4.pairs[0].n, 3);
    assert!(o4.pairs[0].test.is_none());
    assert!(o4.pairs[0]
        .verdict()
        .starts_with("too few paired instances (3 < 6)"));
    assert!(o4.note.as_ref().unwrap().contains("three or more"));

    let md = compare::markdown("t", &cs);
    assert!(md.contains("Only one method configuration: nothing to compare."));
    assert!(md
        .contains("No pair of methods shares 6 or more instances (at most 3): no Wilcoxon tests."));
    // Every difference is 4 ms: eight tied ranks of 4.5, so z = (36 − 18 − ½)/√(8 · 4.5²/4).
    assert!(
        md.contains(
            "| fast | mid | 8 | 0 | 2.75 | 0.008 | 0.023 | 1.00 | fast is faster than mid |"
        ),
        "{md}"
    );
    assert!(md.contains("χ²_F = 16.00"));
    let tex = compare::latex("t_1", &cs);
    assert!(tex.contains("\\toprule") && tex.contains("\\bottomrule") && tex.contains("t\\_1"));
    let html = compare::html(&cs);
    assert!(html.contains("<table>") && !html.contains("<b>"));

    // The text files of a run: the summaries, then the statistics and the findings (the
    // inputs are listed where they exist).
    let dir = tempfile::tempdir().unwrap();
    let run = RunOutputs::new("t", rows, Vec::new(), None);
    let names: Vec<String> = run
        .write_text(dir.path())
        .unwrap()
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "summary.csv",
            "summary.md",
            "summary.tex",
            "stats.md",
            "stats.tex",
            "findings.md"
        ]
    );
}

/// A group of more than `ALL_PAIRS_MAX` configurations tests each against the best one, not
/// every pair: 150 configurations give 149 tests, not 11,175 (10,000 would give 50 million).
#[test]
fn many_configurations_are_tested_against_a_control_not_in_every_pair() {
    let k = compare::ALL_PAIRS_MAX + 50;
    let mut text = HEADER.to_string();
    // `m007` is fastest on every instance, the others slower by their number.
    for c in 0..k {
        let slower = if c == 7 { 0.0 } else { 10.0 + c as f64 };
        for i in 0..6 {
            let name = format!("m{c:03}");
            text.push_str(&csv_row(&name, 3, i, 0, "solved", 1.0 + i as f64 + slower));
        }
    }
    let cs = compared(&rows(text));
    let c = &cs[0];
    assert_eq!(c.methods.len(), k);
    assert_eq!(c.control.as_deref(), Some("m007"));
    assert_eq!(c.pairs.len(), k - 1);
    assert!(c.pairs.iter().all(|p| p.a == "m007" && p.b != "m007"));
    // Every instance favours the control.
    assert!(c
        .pairs
        .iter()
        .all(|p| p.test.as_ref().is_some_and(|t| t.r_minus == 0.0)));
    let md = compare::markdown("t", &cs);
    assert!(
        md.contains("More than 100 configurations: each is tested against m007, the best by mean rank, instead of every pair; Holm's correction is over those 149 tests."),
        "{}",
        &md[..md.len().min(2000)]
    );
}

#[test]
fn labels_from_data_are_escaped_in_every_format() {
    let mut text = HEADER.to_string();
    for m in ["<b>x|y</b>", "a_b", "c&d"] {
        for i in 0..6 {
            text.push_str(&csv_row(m, 3, i, 0, "solved", 1.0 + i as f64));
        }
    }
    let cs = compared(&rows(text));
    let html = compare::html(&cs);
    assert!(html.contains("&lt;b&gt;x|y&lt;/b&gt;") && !html.contains("<b>"));
    assert!(compare::markdown("t", &cs).contains("\\<b\\>x\\|y\\</b\\>"));
    assert!(compare::latex("t", &cs).contains("c\\&d"));
}

/// Damaged times (NaN, infinity) from a CSV neither panic nor produce a verdict.
#[test]
fn non_finite_times_are_not_tested() {
    let mut text = HEADER.to_string();
    for m in ["a", "b", "c"] {
        for i in 0..7 {
            text.push_str(&csv_row(m, 3, i, 0, "solved", f64::from(1 + i as u32)));
        }
    }
    // A file cannot hold them (reading refuses the row), but rows made in memory can.
    let nan = text.replacen(",1,1,,0,0,0,0,", ",NaN,NaN,,0,0,0,0,", 1);
    let e = parse_rows::<Row>(nan, Path::new("t.csv"), false).unwrap_err();
    assert!(
        e.to_string()
            .contains("line 2, column `wall_ms`: NaN is not a time"),
        "{e}"
    );
    let mut rows = rows(text);
    rows[0].wall_ms = f64::NAN;
    rows[8].wall_ms = f64::INFINITY;
    assert_eq!(
        (rows[0].method.as_str(), rows[8].method.as_str()),
        ("a", "b")
    );
    let cs = compared(&rows);
    let md = compare::markdown("t", &cs);
    assert!(
        md.contains("not tested: a time is not a finite number"),
        "{md}"
    );
    let t = Trials::of_rows(&rows);
    let perf = sudoku_analysis::tables::perf_rows(&t, &config_caps(&t, &TimeLimits::default()));
    let _ = sudoku_analysis::tables::performance_markdown(&perf);
}
