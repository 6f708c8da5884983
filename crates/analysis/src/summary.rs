//! Summaries of trials: one row per (kind, method, params, variant, order, instance set), as
//! CSV, Markdown and LaTeX (booktabs), rendered by the one table maker ([`crate::tables`]),
//! which also makes the performance table that follows it in summary.md and summary.tex. Pure
//! functions of the rows, so tests pin their text.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sudoku_core::derive_seed;

use crate::escape;
use crate::number::num;
use crate::stats::describe;
use crate::tables::{Cell, Line, Table};
use crate::{Name, Trial, TrialStatus};

/// One group of trials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// solve, count, relax or generate.
    pub kind: String,
    /// Method.
    pub method: String,
    /// Parameters.
    pub params: String,
    /// Variant.
    pub variant: String,
    /// Order n.
    pub order: usize,
    /// Instance set.
    pub instance_set: String,
    /// Trials.
    pub count: usize,
    /// Trials with a definitive verified answer (solved, infeasible, multiple).
    pub successes: usize,
    /// successes / count.
    pub success_rate: f64,
    /// Trials that hit a limit (timeout or failed).
    pub unsolved: usize,
    /// Wrong answers (should be 0).
    pub wrong: usize,
    /// Errors (panics, method errors).
    pub errors: usize,
    /// Wall time (ms) over all trials of the group.
    pub mean_ms: f64,
    /// Median wall time.
    pub median_ms: f64,
    /// Standard deviation.
    pub std_ms: f64,
    /// Minimum.
    pub min_ms: f64,
    /// Maximum.
    pub max_ms: f64,
    /// 10th percentile.
    pub p10_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 95 % bootstrap CI of the median, lower end.
    pub median_ci_lo_ms: f64,
    /// 95 % bootstrap CI of the median, upper end.
    pub median_ci_hi_ms: f64,
    /// Mean nodes.
    pub mean_nodes: f64,
    /// Mean guesses.
    pub mean_guesses: f64,
    /// Mean iterations.
    pub mean_iterations: f64,
    /// Share of trials that needed no guess (exact searches).
    pub no_guess_rate: f64,
}

/// (kind, method, params, variant, order, instance set).
type GroupKey = (Name, Name, Name, Name, usize, Name);

/// Groups trials and describes each group, in a stable order (by the group key).
pub fn summarise(rows: &[Trial]) -> Vec<SummaryRow> {
    let mut groups: BTreeMap<GroupKey, Vec<&Trial>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((
                r.kind.clone(),
                r.method.clone(),
                r.params.clone(),
                r.variant.clone(),
                r.order,
                r.instance_set.clone(),
            ))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(
            |((kind, method, params, variant, order, instance_set), rs)| {
                let times: Vec<f64> = rs.iter().map(|r| r.wall_ms).collect();
                let key = format!("{kind}|{method}|{params}|{variant}|{order}|{instance_set}");
                let d = describe(&times, derive_seed(0, "bootstrap", &key, 0))
                    .expect("a group is never empty");
                let n = rs.len();
                let successes = rs.iter().filter(|r| r.success()).count();
                let status = |s: TrialStatus| rs.iter().filter(|r| r.status == s).count();
                let mean_of =
                    |f: fn(&Trial) -> u64| rs.iter().map(|r| f(r) as f64).sum::<f64>() / n as f64;
                SummaryRow {
                    kind: kind.to_string(),
                    method: method.to_string(),
                    params: params.to_string(),
                    variant: variant.to_string(),
                    order,
                    instance_set: instance_set.to_string(),
                    count: n,
                    successes,
                    success_rate: successes as f64 / n as f64,
                    unsolved: rs.iter().filter(|r| r.status.is_limit()).count(),
                    wrong: status(TrialStatus::Wrong),
                    errors: status(TrialStatus::Error),
                    mean_ms: d.mean,
                    median_ms: d.median,
                    std_ms: d.std,
                    min_ms: d.min,
                    max_ms: d.max,
                    p10_ms: d.p10,
                    p90_ms: d.p90,
                    median_ci_lo_ms: d.ci_lo,
                    median_ci_hi_ms: d.ci_hi,
                    mean_nodes: mean_of(|r| r.nodes),
                    mean_guesses: mean_of(|r| r.guesses),
                    mean_iterations: mean_of(|r| r.iterations),
                    no_guess_rate: rs.iter().filter(|r| r.success() && r.guesses == 0).count()
                        as f64
                        / n as f64,
                }
            },
        )
        .collect()
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

const HEADERS: [&str; 12] = [
    "Kind",
    "Method",
    "Params",
    "Variant",
    "Order",
    "Instances",
    "Trials",
    "Success",
    "Median ms",
    "95% CI",
    "Mean ms",
    "p10–p90 ms",
];

fn cells(s: &SummaryRow) -> [String; 12] {
    let n = s.order * s.order;
    [
        s.kind.clone(),
        s.method.clone(),
        if s.params.is_empty() {
            "–".into()
        } else {
            s.params.clone()
        },
        s.variant.clone(),
        format!("{n}×{n}"),
        s.instance_set.clone(),
        s.count.to_string(),
        pct(s.success_rate),
        num(s.median_ms),
        format!("{}–{}", num(s.median_ci_lo_ms), num(s.median_ci_hi_ms)),
        num(s.mean_ms),
        format!("{}–{}", num(s.p10_ms), num(s.p90_ms)),
    ]
}

/// What the summary's times are.
const TIMES: &str = "Wall time per trial in milliseconds over all trials of a group (timeouts count at the time they stopped). Success: a verified solution, or a proof of infeasibility or of several solutions.";

/// The summary table ([`tables::Table`], the one table maker).
fn table(rows: &[SummaryRow]) -> Table {
    Table {
        headers: HEADERS.iter().map(|h| h.to_string()).collect(),
        numeric: (0..HEADERS.len()).map(|i| i >= 6).collect(),
        lines: rows
            .iter()
            .map(|s| Line::Row(cells(s).into_iter().map(Cell::new).collect()))
            .collect(),
    }
}

/// The summary as a Markdown table, with a line on what the times are.
pub fn markdown(title: &str, rows: &[SummaryRow]) -> String {
    let mut out = format!("# {}\n\n{TIMES}\n\n", escape::markdown(title));
    out.push_str(&table(rows).markdown());
    out
}

/// The summary as an HTML `<table>` (for the report), captioned like summary.md.
pub fn html(rows: &[SummaryRow]) -> String {
    table(rows).html(TIMES)
}

/// The summary as a LaTeX booktabs table (needs `\usepackage{booktabs}`).
pub fn latex(title: &str, rows: &[SummaryRow]) -> String {
    let mut out = String::from("% Generated by sudoku-bench; needs \\usepackage{booktabs}.\n");
    out.push_str(&table(rows).latex(title));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Row, Trials};

    fn row(method: &str, status: TrialStatus, ms: f64, guesses: u64) -> Row {
        Row {
            kind: "solve".into(),
            method: method.into(),
            variant: "classic".into(),
            order: 3,
            instance_set: "set_a.txt".into(),
            status,
            wall_ms: ms,
            guesses,
            nodes: 10,
            ..Row::default()
        }
    }

    fn sample() -> Vec<SummaryRow> {
        summarise(&Trials::of_rows(&[
            row("fast", TrialStatus::Solved, 1.0, 0),
            row("fast", TrialStatus::Solved, 2.0, 1),
            row("fast", TrialStatus::Solved, 3.0, 0),
            row("slow", TrialStatus::Solved, 100.0, 5),
            row("slow", TrialStatus::Timeout, 250.0, 9),
        ]))
    }

    #[test]
    fn groups_and_statistics() {
        let s = sample();
        assert_eq!(s.len(), 2);
        let f = &s[0];
        assert_eq!((f.method.as_str(), f.count, f.successes), ("fast", 3, 3));
        assert_eq!(
            (f.median_ms, f.mean_ms, f.min_ms, f.max_ms),
            (2.0, 2.0, 1.0, 3.0)
        );
        assert!((f.p10_ms - 1.2).abs() < 1e-12 && (f.p90_ms - 2.8).abs() < 1e-12);
        assert!((f.no_guess_rate - 2.0 / 3.0).abs() < 1e-12);
        let sl = &s[1];
        assert_eq!(
            (sl.success_rate, sl.unsolved, sl.median_ms),
            (0.5, 1, 175.0)
        );
    }

    #[test]
    fn markdown_snapshot() {
        let md = markdown("demo", &sample());
        let table: Vec<&str> = md.lines().skip(4).collect();
        assert_eq!(
            table,
            [
                "| Kind | Method | Params | Variant | Order | Instances | Trials | Success | Median ms | 95% CI | Mean ms | p10–p90 ms |",
                "| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
                "| solve | fast | – | classic | 9×9 | set_a.txt | 3 | 100% | 2.00 | 1.00–3.00 | 2.00 | 1.20–2.80 |",
                "| solve | slow | – | classic | 9×9 | set_a.txt | 2 | 50% | 175 | 100–250 | 175 | 115–235 |",
            ]
        );
    }

    #[test]
    fn html_table() {
        let h = html(&sample());
        assert!(h.starts_with("<table>\n<caption>Wall time per trial"));
        assert!(h.contains("<th class=\"num\">Trials</th>"));
        assert!(h.contains("<td>set_a.txt</td><td class=\"num\">3</td><td class=\"num\">100%</td>"));
        assert_eq!(h.matches("<tr>").count(), 3);
    }

    #[test]
    fn latex_snapshot() {
        let tex = latex("demo_1", &sample());
        let expected = "% Generated by sudoku-bench; needs \\usepackage{booktabs}.
\\begin{table}[ht]
\\centering
\\small
\\caption{demo\\_1}
\\begin{tabular}{llllllrrrrrr}
\\toprule
Kind & Method & Params & Variant & Order & Instances & Trials & Success & Median ms & 95\\% CI & Mean ms & p10--p90 ms \\\\
\\midrule
solve & fast & -- & classic & 9$\\times$9 & set\\_a.txt & 3 & 100\\% & 2.00 & 1.00--3.00 & 2.00 & 1.20--2.80 \\\\
solve & slow & -- & classic & 9$\\times$9 & set\\_a.txt & 2 & 50\\% & 175 & 100--250 & 175 & 115--235 \\\\
\\bottomrule
\\end{tabular}
\\end{table}
";
        assert_eq!(tex, expected);
    }
}
