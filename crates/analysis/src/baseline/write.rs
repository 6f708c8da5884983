//! The comparison written out: its table, the summary paragraph, the method text, compare.md
//! and the report's section (HTML). Apart because it only lays out what `compute.rs` computed.

use super::{
    Change, Delta, Ratio, RunComparison, Unit, NOISE_K, NOISE_MIN_LINES, RESAMPLES, SHIFT_MIN_LINES,
};
use crate::compare::{ALPHA, MIN_PAIRS};
use crate::escape;
use crate::number::{num, p_value, significant};
use crate::tables::{Cell, Line, SetKey, Table};

/// The flag in the table, saying when the solved share decided it rather than the times, and
/// when a line beyond the bar from 1 is not flagged because it moved with the whole run (or,
/// beyond the bar from the shift only, moved against it).
fn change_text(l: &Delta, c: &RunComparison) -> String {
    let ci = l.median_ratio.and_then(|r| r.ci);
    let beyond = |from: f64| ci.is_some_and(|(lo, hi)| lo > from * c.bar || hi < from / c.bar);
    let shift = c.shift.map_or(1.0, |s| s.value);
    match l.change {
        Change::Regression | Change::Improvement if !(beyond(1.0) && beyond(shift)) => {
            format!(
                "{} (solves {})",
                l.change.name(),
                if l.change == Change::Regression {
                    "fewer"
                } else {
                    "more"
                }
            )
        }
        // A run that moved less than the threshold did not move: the line is at the bar.
        Change::Unchanged if beyond(1.0) && !run_moved(c) => {
            "unchanged (beyond the bar from 1, not from the run's shift)".into()
        }
        Change::Unchanged if beyond(1.0) => "unchanged (moved with the run)".into(),
        Change::Unchanged if beyond(shift) && !run_moved(c) => {
            "unchanged (beyond the bar from the run's shift, not from 1)".into()
        }
        Change::Unchanged if beyond(shift) => "unchanged (moved against the run)".into(),
        ch => ch.name().into(),
    }
}

/// Whether the whole run moved: its shift lies beyond the threshold from 1.
fn run_moved(c: &RunComparison) -> bool {
    c.shift
        .is_some_and(|s| s.value > 1.0 + c.threshold || s.value < 1.0 / (1.0 + c.threshold))
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
                text: change_text(l, c),
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

/// The verdict in one paragraph: the shift the whole run shares, then how many lines
/// regressed, improved, stayed, and the bar they were judged by.
pub fn summary(c: &RunComparison) -> String {
    let pct = format!("{} %", significant(c.threshold * 100.0));
    let mut s = String::new();
    if let Some(shift) = c.shift {
        let ci = shift.ci.map_or(String::new(), |(lo, hi)| {
            format!(" (95 % CI {lo:.2}–{hi:.2})")
        });
        let beyond = shift
            .ci
            .is_some_and(|(lo, hi)| lo > 1.0 + c.threshold || hi < 1.0 / (1.0 + c.threshold));
        let reading = match (beyond, c.duet) {
            (true, false) => ": the machine, or a change that touches every method; an interleaved comparison (`run --baseline`) can tell which.".to_string(),
            (true, true) => ": both builds ran each trial one right after the other, so this is not the machine's load but the builds' (a change that touches every method).".to_string(),
            (false, _) => format!(", within the threshold ({pct})."),
        };
        s.push_str(&format!(
            "B's whole run is {:.2}× A's{ci}, the most common median ratio of its {} judged lines{reading} Each line is judged against that shift as well as against 1, so a line that moved with the whole run is not a change of its method. ",
            shift.value, shift.lines,
        ));
    }
    s.push_str(&format!(
        "B against A on {} configuration × group line{}: {} regression{}, {} improvement{}, {} unchanged (threshold {pct})",
        c.lines.len(),
        if c.lines.len() == 1 { "" } else { "s" },
        c.count(Change::Regression),
        if c.count(Change::Regression) == 1 { "" } else { "s" },
        c.count(Change::Improvement),
        if c.count(Change::Improvement) == 1 { "" } else { "s" },
        c.count(Change::Unchanged),
    ));
    let few = c.count(Change::TooFew);
    if few > 0 {
        s.push_str(&format!(
            ", {few} too few to judge (fewer than {MIN_PAIRS} paired instances or trials)"
        ));
    }
    s.push('.');
    let lines = c.shift.map_or(0, |s| s.lines);
    let rough = if lines < NOISE_MIN_LINES {
        format!(" (from only {lines} lines: a rough measure)")
    } else {
        String::new()
    };
    match c.noise {
        Some(sigma) if c.bar > 1.0 + c.threshold => s.push_str(&format!(
            " The noise of these two runs: the lines' median ratios spread by ×{:.2} (one standard deviation) around the most common one{rough}, so a change counts from ×{:.2} on ({NOISE_K} σ), above the threshold.",
            sigma.exp(),
            c.bar
        )),
        Some(sigma) => s.push_str(&format!(
            " The noise of these two runs: the lines' median ratios spread by ×{:.2} (one standard deviation) around the most common one{rough}, within the threshold, which decides.",
            sigma.exp()
        )),
        None => s.push_str(&format!(
            " Fewer than {SHIFT_MIN_LINES} judged lines to measure the runs' shift and noise by: the threshold alone decides."
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
    format!("Per configuration and instance group, on the instances both runs ran: each instance's value is the mean PAR-2 score of its trials (wall time, or twice the time limit when unsolved); with fewer than {MIN_PAIRS} shared instances, each trial against the same trial of the other run (n then counts trials). Ratios are B over A (above 1: B is slower), of the medians and of the means (PAR-2), with 95 % percentile-bootstrap intervals over the units resampled in pairs ({RESAMPLES} resamples, fixed seed), from {MIN_PAIRS} units on; fewer are too few to judge. Wilcoxon signed-rank test on the differences B − A (two-sided, uncorrected). Shift: the half-sample mode of the lines' median ratios (from {SHIFT_MIN_LINES} lines with an interval), with a bootstrap interval over the lines; noise σ: the spread of the log median ratios around it (the first quartile of the distances over 0.3186 from {NOISE_MIN_LINES} lines on, the median distance over 0.6745 below), the lines a change did not touch. Regression: the median ratio's interval wholly above the bar, the larger of {} (the threshold) and exp({NOISE_K} σ), measured both from 1 and from the shift, or fewer units solved in B than in A where the exact sign test on the units that differ gives p < {ALPHA}; improvement: the other way round. The PAR-2 ratio is shown, not judged.", significant(1.0 + threshold))
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
