//! The one table maker: a [`Table`] (header, numeric columns, group rows, best entries marked)
//! rendered as Markdown, LaTeX (booktabs) and HTML, with text escaped for each format by
//! [`crate::escape`]; and the performance table built on it ([`performance`]).
//!
//! The performance table has one block per instance set — (kind, variant, order, instance set),
//! since methods are only comparable on the same puzzles — and one line per method
//! configuration (method and params, as [`crate::meta::config_label`] names it) in that block:
//!
//! - **Solved**: trials with a verified answer (solved, infeasible, multiple) / trials;
//! - **Median, Mean, SGM, IQR**: wall time (ms) of the solved trials only, so a method that gives
//!   up fast does not look fast; SGM is the shifted geometric mean
//!   exp(mean(ln(t + s))) − s with s = [`SGM_SHIFT_MS`]; IQR is the third minus the first
//!   quartile (type-7 quantiles);
//! - **PAR-2**: the mean over all trials with every trial without a verified answer (timeout,
//!   failed, stuck, unverified, wrong, error) counted as twice the configuration's time limit
//!   ([`TimeLimits`]).
//!
//! Best entries are marked per block: the highest solved share; the lowest PAR-2; for the time
//! columns the lowest value among the configurations with the block's highest solved share (a
//! configuration that solved fewer puzzles is not "faster"). Values equal as shown (to the
//! digits printed) are marked alike.

use std::collections::BTreeMap;

use crate::escape;
use crate::meta::{config_label, RunSettings};
use crate::number::num;
use crate::stats::{quantile_sorted, sorted};
use crate::{Name, Trial};

/// The shift of the shifted geometric mean, in ms. Most trials here take well under 10 ms, so
/// a smaller shift than the usual 10 s of MIP benchmarks keeps their differences visible while
/// sub-millisecond noise weighs little.
pub const SGM_SHIFT_MS: f64 = 1.0;

/// One cell: its text (unescaped) and whether it is the best of its column in its block.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The text, as shown (escaped when rendered).
    pub text: String,
    /// Marked as best (bold).
    pub best: bool,
}

impl Cell {
    /// A plain cell.
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            best: false,
        }
    }
}

/// A line of a table body.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// A group heading spanning every column.
    Group(String),
    /// A row of cells, one per column.
    Row(Vec<Cell>),
}

/// A table: headers, which columns are numeric (right-aligned), and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Column headings.
    pub headers: Vec<String>,
    /// Right-aligned (numeric) columns.
    pub numeric: Vec<bool>,
    /// The body.
    pub lines: Vec<Line>,
}

impl Table {
    /// A GitHub-flavoured Markdown table (no caption); best entries in bold, group headings as
    /// a row with the heading in bold in its first cell.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "| {} |\n",
            self.headers
                .iter()
                .map(|h| escape::markdown(h))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let aligns: Vec<&str> = self
            .numeric
            .iter()
            .map(|&n| if n { "---:" } else { "---" })
            .collect();
        out.push_str(&format!("| {} |\n", aligns.join(" | ")));
        for line in &self.lines {
            let cells: Vec<String> = match line {
                Line::Group(g) => std::iter::once(format!("**{}**", escape::markdown(g)))
                    .chain((1..self.headers.len()).map(|_| String::new()))
                    .collect(),
                Line::Row(cells) => cells
                    .iter()
                    .map(|c| {
                        let t = escape::markdown(&c.text);
                        if c.best {
                            format!("**{t}**")
                        } else {
                            t
                        }
                    })
                    .collect(),
            };
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out
    }

    /// A LaTeX `table` environment with booktabs rules (`\toprule`, `\midrule`, `\bottomrule`)
    /// and `caption`; best entries in `\textbf`, group headings as `\multicolumn` rows.
    pub fn latex(&self, caption: &str) -> String {
        let spec: String = self
            .numeric
            .iter()
            .map(|&n| if n { 'r' } else { 'l' })
            .collect();
        let mut out = String::from("\\begin{table}[ht]\n\\centering\n\\small\n");
        out.push_str(&format!("\\caption{{{}}}\n", escape::latex(caption)));
        out.push_str(&format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n"));
        let head: Vec<String> = self.headers.iter().map(|h| escape::latex(h)).collect();
        out.push_str(&format!("{} \\\\\n\\midrule\n", head.join(" & ")));
        for (i, line) in self.lines.iter().enumerate() {
            match line {
                Line::Group(g) => {
                    if i > 0 {
                        out.push_str("\\midrule\n");
                    }
                    out.push_str(&format!(
                        "\\multicolumn{{{}}}{{l}}{{\\emph{{{}}}}} \\\\\n",
                        self.headers.len(),
                        escape::latex(g)
                    ));
                }
                Line::Row(cells) => {
                    let c: Vec<String> = cells
                        .iter()
                        .map(|c| {
                            let t = escape::latex(&c.text);
                            if c.best {
                                format!("\\textbf{{{t}}}")
                            } else {
                                t
                            }
                        })
                        .collect();
                    out.push_str(&format!("{} \\\\\n", c.join(" & ")));
                }
            }
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n\\end{table}\n");
        out
    }

    /// An HTML `<table>` with `caption`; every text escaped, best entries in `<strong>`, numeric
    /// cells with `class="num"`, group headings as `<th colspan>` rows.
    pub fn html(&self, caption: &str) -> String {
        let mut out = format!(
            "<table>\n<caption>{}</caption>\n<thead><tr>",
            escape::html(caption)
        );
        for (h, &n) in self.headers.iter().zip(&self.numeric) {
            out.push_str(&format!("<th{}>{}</th>", num_class(n), escape::html(h)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for line in &self.lines {
            match line {
                Line::Group(g) => out.push_str(&format!(
                    "<tr><th colspan=\"{}\" scope=\"colgroup\">{}</th></tr>\n",
                    self.headers.len(),
                    escape::html(g)
                )),
                Line::Row(cells) => {
                    out.push_str("<tr>");
                    for (c, &n) in cells.iter().zip(&self.numeric) {
                        let t = escape::html(&c.text);
                        let t = if c.best {
                            format!("<strong>{t}</strong>")
                        } else {
                            t
                        };
                        out.push_str(&format!("<td{}>{t}</td>", num_class(n)));
                    }
                    out.push_str("</tr>\n");
                }
            }
        }
        out.push_str("</tbody>\n</table>\n");
        out
    }
}

/// An HTML table with a text box that filters its rows (report.html's script does it).
pub fn filterable(table: &str) -> String {
    format!("<div class=\"filterable\">\n<input type=\"search\" placeholder=\"Filter rows\" aria-label=\"Filter rows\">\n{table}</div>\n")
}

fn num_class(numeric: bool) -> &'static str {
    if numeric {
        " class=\"num\""
    } else {
        ""
    }
}

/// The time limit (ms) of each method configuration, by [`config_label`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeLimits(pub BTreeMap<String, f64>);

impl TimeLimits {
    /// The limits a run's settings record (`configs[]`: `label`, `time_limit` in seconds). No
    /// settings (older runs, merged cluster runs without meta.json) give none: the caps then
    /// come from the rows ([`TimeLimits::cap_ms`]).
    pub fn from_settings(settings: Option<&RunSettings>) -> TimeLimits {
        TimeLimits(
            settings
                .into_iter()
                .flat_map(|s| &s.configs)
                .filter_map(|c| Some((c.label.clone(), c.time_limit?)))
                .filter(|(_, t)| t.is_finite() && *t > 0.0)
                .map(|(label, t)| (label, t * 1000.0))
                .collect(),
        )
    }

    /// The time limit (ms) of the configuration of `rows` (all of one configuration): the
    /// recorded one; else the longest trial that stopped at the time limit (`limit = time`: it
    /// ran up to the limit); else none.
    pub fn cap_ms(&self, rows: &[&Trial]) -> Option<f64> {
        let first = rows.first()?;
        if let Some(&t) = self.0.get(&config_label(&first.method, &first.params)) {
            return Some(t);
        }
        rows.iter()
            .filter(|r| r.limit == "time")
            .map(|r| r.wall_ms)
            .filter(|t| t.is_finite())
            .max_by(f64::total_cmp)
    }
}

/// The PAR-2 score of one trial: its wall time when it has a verified answer, else twice the
/// cap; `None` when it is unsolved and there is no cap.
pub fn par2_score(r: &Trial, cap_ms: Option<f64>) -> Option<f64> {
    if r.success() {
        Some(r.wall_ms)
    } else {
        cap_ms.map(|c| 2.0 * c)
    }
}

/// Shifted geometric mean exp(mean(ln(t + shift))) − shift; `None` for no data.
pub fn shifted_geometric_mean(xs: &[f64], shift: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let m = xs.iter().map(|x| (x + shift).ln()).sum::<f64>() / xs.len() as f64;
    Some(m.exp() - shift)
}

/// One line of the performance table: a method configuration on an instance set.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfRow {
    /// solve, count, relax or generate.
    pub kind: String,
    /// Variant.
    pub variant: String,
    /// Order n.
    pub order: usize,
    /// Instance set.
    pub instance_set: String,
    /// Method.
    pub method: String,
    /// Parameters.
    pub params: String,
    /// Trials.
    pub trials: usize,
    /// Trials with a verified answer.
    pub solved: usize,
    /// Median wall time of the solved trials (ms).
    pub median_ms: Option<f64>,
    /// Mean wall time of the solved trials.
    pub mean_ms: Option<f64>,
    /// Shifted geometric mean of the solved trials (shift [`SGM_SHIFT_MS`]).
    pub sgm_ms: Option<f64>,
    /// Interquartile range of the solved trials.
    pub iqr_ms: Option<f64>,
    /// PAR-2 over all trials; `None` when an unsolved trial has no known time limit.
    pub par2_ms: Option<f64>,
    /// The configuration's time limit (ms), if known.
    pub cap_ms: Option<f64>,
}

/// (kind, variant, order, instance set): one block of the table.
pub type SetKey = (String, String, usize, String);

/// The block of the table a trial belongs to.
pub fn set_key(r: &Trial) -> SetKey {
    (
        r.kind.to_string(),
        r.variant.to_string(),
        r.order,
        r.instance_set.to_string(),
    )
}

/// The time limit (ms) of each configuration, keyed by (kind, method, params).
pub type Caps = BTreeMap<(Name, Name, Name), Option<f64>>;

/// The time limit of each configuration of `rows`: the cap belongs to the configuration,
/// whichever instance set its timeouts were on. A run's outputs compute it once
/// ([`crate::RunOutputs::caps`]) for the tables, statistics and findings.
pub fn config_caps(rows: &[Trial], limits: &TimeLimits) -> Caps {
    let mut by_config: BTreeMap<(Name, Name, Name), Vec<&Trial>> = BTreeMap::new();
    for r in rows {
        by_config
            .entry((r.kind.clone(), r.method.clone(), r.params.clone()))
            .or_default()
            .push(r);
    }
    by_config
        .into_iter()
        .map(|(k, rs)| {
            let cap = limits.cap_ms(&rs);
            (k, cap)
        })
        .collect()
}

/// The time limit (ms) of `r`'s configuration in `caps`.
pub fn cap_of(caps: &Caps, r: &Trial) -> Option<f64> {
    caps.get(&(r.kind.clone(), r.method.clone(), r.params.clone()))
        .copied()
        .flatten()
}

/// The performance rows, grouped by instance set and then configuration, in a stable order;
/// `caps` are the configurations' time limits ([`config_caps`]).
pub fn perf_rows(rows: &[Trial], caps: &Caps) -> Vec<PerfRow> {
    let mut groups: BTreeMap<(SetKey, &Name, &Name), Vec<&Trial>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((set_key(r), &r.method, &r.params))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(
            |(((kind, variant, order, instance_set), method, params), rs)| {
                let cap = rs.first().and_then(|r| cap_of(caps, r));
                let solved: Vec<f64> = sorted(
                    &rs.iter()
                        .filter(|r| r.success())
                        .map(|r| r.wall_ms)
                        .collect::<Vec<_>>(),
                );
                let q = |p| quantile_sorted(&solved, p);
                let par2: Option<Vec<f64>> = rs.iter().map(|r| par2_score(r, cap)).collect();
                PerfRow {
                    kind,
                    variant,
                    order,
                    instance_set,
                    method: method.to_string(),
                    params: params.to_string(),
                    trials: rs.len(),
                    solved: solved.len(),
                    median_ms: q(0.5),
                    mean_ms: crate::stats::mean(&solved),
                    sgm_ms: shifted_geometric_mean(&solved, SGM_SHIFT_MS),
                    iqr_ms: q(0.75).zip(q(0.25)).map(|(a, b)| a - b),
                    par2_ms: par2.and_then(|v| crate::stats::mean(&v)),
                    cap_ms: cap,
                }
            },
        )
        .collect()
}

/// The columns of the performance table.
pub const PERF_HEADERS: [&str; 8] = [
    "Method",
    "Params",
    "Solved",
    "Median ms",
    "Mean ms",
    "SGM ms",
    "PAR-2 ms",
    "IQR ms",
];

/// The caption of the performance table: what every column is.
pub fn perf_caption() -> String {
    format!("Per method configuration and instance set. Solved: trials with a verified answer / trials. Median, mean, SGM (shifted geometric mean, shift {SGM_SHIFT_MS} ms) and IQR (interquartile range): wall time of the solved trials. PAR-2: mean wall time of all trials with each unsolved trial (timeout, failed, stuck, unverified, wrong, error) counted as twice the configuration's time limit (as meta.json records it, else the longest timed-out trial; – when unknown). Bold: the best of each column in its block, as shown (times among the configurations that solved the most).")
}

/// A configuration's parameters as a cell, `–` when it has none.
fn params_cell(params: &str) -> Cell {
    Cell::new(if params.is_empty() { "–" } else { params })
}

fn block_label(k: &SetKey) -> String {
    let n = k.2 * k.2;
    format!("{} · {} · {n}×{n} · {}", k.0, k.1, k.3)
}

/// A time column of the performance table.
type Column = fn(&PerfRow) -> Option<f64>;

/// The performance table (see the module documentation).
pub fn performance(rows: &[PerfRow]) -> Table {
    let mut lines = Vec::new();
    let mut blocks: Vec<(SetKey, Vec<&PerfRow>)> = Vec::new();
    for r in rows {
        let key = (
            r.kind.clone(),
            r.variant.clone(),
            r.order,
            r.instance_set.clone(),
        );
        match blocks.last_mut() {
            Some((k, v)) if *k == key => v.push(r),
            _ => blocks.push((key, vec![r])),
        }
    }
    for (key, rs) in blocks {
        lines.push(Line::Group(block_label(&key)));
        // The highest solved share, compared exactly as fractions.
        let top = rs
            .iter()
            .copied()
            .max_by(|a, b| (a.solved * b.trials).cmp(&(b.solved * a.trials)));
        let is_top = |r: &PerfRow| top.is_some_and(|t| r.solved * t.trials == t.solved * r.trials);
        let best_of = |f: Column, among_top: bool| {
            rs.iter()
                .filter(|r| !among_top || is_top(r))
                .filter_map(|r| f(r))
                .min_by(f64::total_cmp)
        };
        let cols: [(Column, bool); 5] = [
            (|r| r.median_ms, true),
            (|r| r.mean_ms, true),
            (|r| r.sgm_ms, true),
            (|r| r.par2_ms, false),
            (|r| r.iqr_ms, true),
        ];
        let bests: Vec<Option<f64>> = cols.iter().map(|&(f, t)| best_of(f, t)).collect();
        for r in &rs {
            let mut cells = vec![
                Cell::new(r.method.clone()),
                params_cell(&r.params),
                Cell {
                    text: format!("{}/{}", r.solved, r.trials),
                    best: is_top(r),
                },
            ];
            for (&(f, among_top), best) in cols.iter().zip(&bests) {
                let v = f(r);
                // Equal as shown counts as equal: a reader cannot tell 0.0012 from 0.0014.
                let text = v.map_or("–".to_string(), num);
                cells.push(Cell {
                    best: v.is_some()
                        && best.map(num) == Some(text.clone())
                        && (!among_top || is_top(r)),
                    text,
                });
            }
            lines.push(Line::Row(cells));
        }
    }
    Table {
        headers: PERF_HEADERS.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, true, true, true, true, true, true],
        lines,
    }
}

/// The performance section of summary.md: a heading, the caption, the table.
pub fn performance_markdown(rows: &[PerfRow]) -> String {
    format!(
        "\n## Performance per method and instance set\n\n{}\n\n{}",
        escape::markdown(&perf_caption()),
        performance(rows).markdown()
    )
}

/// The performance table as a LaTeX booktabs table (appended to summary.tex).
pub fn performance_latex(rows: &[PerfRow]) -> String {
    performance(rows).latex(&perf_caption())
}

/// The performance table as an HTML `<table>` (for the report).
pub fn performance_html(rows: &[PerfRow]) -> String {
    performance(rows).html(&perf_caption())
}

/// The columns of the table of best costs.
pub const COST_HEADERS: [&str; 4] = ["Method", "Params", "Unsolved", "Best cost reached"];

/// Sorted costs listed one by one up to this many; beyond, their minimum, median and maximum.
const COSTS_LISTED: usize = 12;

/// The caption of the table of best costs.
pub fn costs_caption() -> String {
    format!("Per method configuration and instance set, the trials that ended without a verified answer and with the best cost the method reached: how close it came. Unsolved: such trials / trials. Best cost reached: each of those trials' cost, sorted, when there are at most {COSTS_LISTED}; else the lowest, the median and the highest. The cost is the method's own measure (0 is a solution), so it compares configurations of one method, or methods that count the same thing.")
}

/// The table of the best costs of unsolved trials: one line per method configuration that has
/// an unsolved trial with a cost, in blocks as the performance table; `None` when no trial
/// has one (the run had no unsolved metaheuristic trial).
pub fn best_costs(rows: &[Trial]) -> Option<Table> {
    let mut groups: BTreeMap<(SetKey, &Name, &Name), (usize, Vec<u64>)> = BTreeMap::new();
    for r in rows {
        let g = groups
            .entry((set_key(r), &r.method, &r.params))
            .or_default();
        g.0 += 1;
        if let (false, Some(c)) = (r.success(), r.best_cost()) {
            g.1.push(c);
        }
    }
    let mut lines = Vec::new();
    let mut block: Option<SetKey> = None;
    for ((key, method, params), (trials, mut costs)) in groups {
        if costs.is_empty() {
            continue;
        }
        if block.as_ref() != Some(&key) {
            lines.push(Line::Group(block_label(&key)));
            block = Some(key);
        }
        costs.sort_unstable();
        let shown = if costs.len() <= COSTS_LISTED {
            costs
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            // The median of whole numbers is whole or ends in .5.
            let m = costs.len();
            let median = (costs[(m - 1) / 2] as f64 + costs[m / 2] as f64) / 2.0;
            format!(
                "{} · median {median} · {}",
                costs[0],
                costs[costs.len() - 1]
            )
        };
        lines.push(Line::Row(vec![
            Cell::new(method.to_string()),
            params_cell(params),
            Cell::new(format!("{}/{trials}", costs.len())),
            Cell::new(shown),
        ]));
    }
    (!lines.is_empty()).then(|| Table {
        headers: COST_HEADERS.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, true, false],
        lines,
    })
}

/// The best-cost section of summary.md (empty when the run has no such trial).
pub fn best_costs_markdown(rows: &[Trial]) -> String {
    best_costs(rows).map_or(String::new(), |t| {
        format!(
            "\n## Best cost of the unsolved trials\n\n{}\n\n{}",
            escape::markdown(&costs_caption()),
            t.markdown()
        )
    })
}
