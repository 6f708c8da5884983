//! `report.html`: one self-contained page per results folder, built from its CSV files (and
//! meta.json when there is one) alone, in one go from a [`RunOutputs`]. It answers first: the
//! verdict of each instance group (winner, margin, test) with its leaderboard, then the key
//! charts (cactus, performance profile, time against order), then the details, long ones
//! folded: the settings per configuration and the environment, the tables, the statistics, the
//! other charts. The charts' SVG is inlined, the style and one small script are in the page, and
//! the page loads nothing: no fonts, no network; it links only to the folder's own files,
//! relatively. The script makes it interactive offline: a method filter that hides a
//! configuration's series in every chart at once (each series of the SVG names its
//! configuration), tables sorted by a click on a heading and filtered by a text, and hover
//! values on chart points (SVG `<title>`s, no script needed).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sudoku_analysis::findings::{self, Finding, Verdict};
use sudoku_analysis::meta::{config_label, RunMeta};
use sudoku_analysis::number::num;
use sudoku_analysis::tables::Caps;
use sudoku_analysis::tables::{filterable, Cell, Line, Table};
use sudoku_analysis::{compare, files, summary, tables, write_whole};
use sudoku_analysis::{RunOutputs, Trial};

use crate::plots::{self, Drawn};
use crate::ReportError;

/// One section of the page: an anchor id, a heading and its HTML body (trusted: build it with
/// [`html`] for text from data files). A section without a title is a bar without a heading,
/// left out of the navigation (the method filter).
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The anchor (`#id`) and the name other code finds the section by.
    pub id: String,
    /// The heading.
    pub title: String,
    /// The body, HTML.
    pub html: String,
}

impl Section {
    /// A section.
    pub fn new(id: &str, title: &str, html: String) -> Section {
        Section {
            id: id.into(),
            title: title.into(),
            html,
        }
    }
}

/// The page: a title, a lead paragraph and its sections in order.
#[derive(Clone, Debug)]
pub struct Report {
    /// The page title (the experiment's name).
    pub title: String,
    /// One line under the title: what was run, on what.
    pub lead: String,
    /// The sections, in reading order: `headline`, `methods` (the filter bar, when a chart
    /// names configurations), `key-charts`, `settings`, `tables`, `statistics`, `charts`,
    /// `skipped` (when a chart was left out) and `files`.
    pub sections: Vec<Section>,
}

/// Text made safe as HTML text or attribute value (the one escaper of the crate, here too for
/// callers that build report sections).
pub use sudoku_analysis::escape::html;

/// The charts shown first, in this order: how many each method solves within a time, how
/// often each is near the best, and how each scales with the order.
pub const KEY_CHARTS: [&str; 3] = ["cactus", "profile", "time_vs_order"];

impl Report {
    /// The page of the results folder `dir`: the verdicts and leaderboards, the method filter,
    /// the key charts, the settings and environment (from meta.json when present, and from the
    /// rows), the summary and performance tables, the statistics with the critical-difference
    /// diagram `cd` (when there is one), the other charts in `drawn` (their SVG inlined) and the
    /// charts left out, and links to its data files.
    pub fn new(dir: &Path, run: &RunOutputs, drawn: &Drawn, cd: Option<&str>) -> Report {
        let mut statistics = compare::html(&run.comparisons);
        if let Some(svg) = cd {
            statistics.push_str("<figure>");
            statistics.push_str(svg);
            statistics.push_str(
                "<figcaption>Critical-difference diagram (Nemenyi, α = 0.05): average ranks; \
                 a bar joins methods whose difference is not significant.</figcaption></figure>",
            );
        }
        let key = |stem: &str| KEY_CHARTS.contains(&stem);
        let mut sections = vec![Section::new(
            "headline",
            "Verdicts",
            headline(&run.findings),
        )];
        let configs = plots::config_names(&run.trials, &run.traces);
        if !drawn.charts.is_empty() && !configs.is_empty() {
            sections.push(Section::new("methods", "", method_filter(&configs)));
        }
        sections.extend([
            Section::new("key-charts", "Key charts", charts(drawn, &|c| key(c), true)),
            Section::new(
                "settings",
                "Settings and environment",
                settings(run.meta.as_ref(), &run.trials, &run.caps),
            ),
            Section::new(
                "tables",
                "Tables",
                folded(
                    &format!(
                        "Summary: {} rows, one per configuration and instance set",
                        run.summary.len()
                    ),
                    &filterable(&summary::html(&run.summary)),
                ) + &folded(
                    &format!(
                        "Performance: {} rows (solved, median, mean, SGM, PAR-2, IQR)",
                        run.perf.len()
                    ),
                    &filterable(&tables::performance_html(&run.perf)),
                ) + &best_costs(run),
            ),
            Section::new(
                "statistics",
                "Statistics",
                folded(
                    &format!(
                        "Wilcoxon/Holm and Friedman/Nemenyi tests of {} group{}",
                        run.comparisons.len(),
                        if run.comparisons.len() == 1 { "" } else { "s" }
                    ),
                    &statistics,
                ),
            ),
            Section::new("charts", "More charts", charts(drawn, &|c| !key(c), false)),
        ]);
        if !drawn.skipped.is_empty() {
            let mut h =
                String::from("<p>Charts this data cannot support were not drawn:</p>\n<ul>\n");
            for s in &drawn.skipped {
                let _ = writeln!(
                    h,
                    "<li><code>{}</code>: {}</li>",
                    html(&s.stem),
                    html(&s.reason)
                );
            }
            h.push_str("</ul>\n");
            sections.push(Section::new("skipped", "Charts left out", h));
        }
        let mut files = String::from("<ul>\n");
        for f in files::named(|f| f.linked).filter(|f| dir.join(f).exists()) {
            let _ = writeln!(files, "<li><a href=\"{f}\">{f}</a></li>");
        }
        files.push_str("</ul>\n<p>Charts as files: each chart's <code>.svg</code> and <code>.png</code> beside this page. <code>sudoku-bench report DIR</code> remakes this page from the CSV alone.</p>\n");
        sections.push(Section::new("files", "Data files", files));
        Report {
            title: run.title.clone(),
            lead: lead(run),
            sections,
        }
    }

    /// The page.
    pub fn to_html(&self) -> String {
        let mut o = String::new();
        let title = html(&self.title);
        let _ = write!(
            o,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title} — sudoku-bench report</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n<p class=\"lead\">{}</p>\n<nav><ul>\n",
            self.lead
        );
        for s in self.sections.iter().filter(|s| !s.title.is_empty()) {
            let _ = writeln!(
                o,
                "<li><a href=\"#{}\">{}</a></li>",
                html(&s.id),
                html(&s.title)
            );
        }
        o.push_str("</ul></nav>\n");
        for s in &self.sections {
            if s.title.is_empty() {
                let _ = write!(o, "<div id=\"{}\">\n{}</div>\n", html(&s.id), s.html);
            } else {
                let _ = write!(
                    o,
                    "<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n",
                    html(&s.id),
                    html(&s.title),
                    s.html
                );
            }
        }
        let _ = write!(o, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
        o
    }

    /// Writes `dir/report.html`; returns its path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, ReportError> {
        Ok(write_whole(&dir.join(files::REPORT), &self.to_html())?)
    }
}

/// The page's style sheet.
const STYLE: &str = include_str!("report.css");

/// The page's one script: the method filter, sortable and filterable tables. Small, inline,
/// and it loads nothing.
const SCRIPT: &str = include_str!("report.js");

/// `body` under a `<details>` whose summary is `summary` (plain text).
/// The folded table of the best costs of unsolved trials, when a metaheuristic left any.
fn best_costs(run: &RunOutputs) -> String {
    tables::best_costs(&run.trials).map_or(String::new(), |t| {
        let rows = t.lines.iter().filter(|l| matches!(l, Line::Row(_))).count();
        folded(
            &format!(
                "Best cost of the unsolved trials: {rows} row{} (how close each came)",
                if rows == 1 { "" } else { "s" }
            ),
            &filterable(&t.html(&tables::costs_caption())),
        )
    })
}

fn folded(summary: &str, body: &str) -> String {
    format!(
        "<details>\n<summary>{}</summary>\n{body}</details>\n",
        html(summary)
    )
}

/// The line under the title: trials, configurations, instances; the machine, commit and date.
fn lead(run: &RunOutputs) -> String {
    let rows = &run.trials;
    // Inserted one by one: a set collected from a million rows holds them all in a list first.
    let (mut pairs, mut instances) = (BTreeSet::new(), BTreeSet::new());
    for r in rows.iter() {
        pairs.insert((r.method.as_str(), r.params.as_str()));
        instances.insert((r.instance_set.as_str(), r.instance.as_str()));
    }
    let configs: BTreeSet<String> = pairs
        .into_iter()
        .map(|(method, params)| config_label(method, params))
        .collect();
    let mut t = format!(
        "{} trials of {} configuration{} on {} instance{}",
        rows.len(),
        configs.len(),
        if configs.len() == 1 { "" } else { "s" },
        instances.len(),
        if instances.len() == 1 { "" } else { "s" },
    );
    if let Some(m) = &run.meta {
        let _ = write!(
            t,
            "; run {} on {} ({} core{}), commit <code>{}</code>{}",
            html(m.started.get(..10).unwrap_or(&m.started)),
            html(&m.cpu),
            m.cores,
            if m.cores == 1 { "" } else { "s" },
            html(&m.commit),
            if m.dirty == Some(true) {
                " with uncommitted changes"
            } else {
                ""
            }
        );
    }
    t.push('.');
    if let Some(w) = run.meta.as_ref().and_then(RunMeta::test_warning) {
        let _ = write!(t, " <strong style=\"color:#b00\">{}</strong>", html(&w));
    }
    t
}

/// The verdicts: one sentence per group, the leaderboard folded under it.
fn headline(findings: &[Finding]) -> String {
    if findings.is_empty() {
        return "<p>No trials.</p>\n".into();
    }
    let mut h = String::from("<ul class=\"verdicts\">\n");
    for f in findings {
        // The badge says what decided; coloured when the paired test supports it.
        let class = if f.verdict.as_ref().is_some_and(Verdict::supported) {
            "yes"
        } else {
            "no"
        };
        let badge = f.decided.word();
        let sentence = f.sentence_html();
        let _ = write!(
            h,
            "<li class=\"verdict\"><details><summary><span class=\"badge {class}\">{badge}</span>{sentence}</summary>\n<div class=\"scroll\">{}</div></details></li>\n",
            f.table().html(&format!("{}. {}", f.title(), findings::leaderboard_caption()))
        );
    }
    h.push_str("</ul>\n");
    let _ = writeln!(
        h,
        "<p class=\"how\">{} Click a verdict for its leaderboard; all of them are in <a href=\"findings.md\">findings.md</a>.</p>",
        html(&findings::method_text())
    );
    h
}

/// The filter bar: a checkbox per configuration, in its chart colour.
fn method_filter(configs: &[String]) -> String {
    let mut h = String::from("<strong>Methods in the charts:</strong> <button type=\"button\" value=\"all\">all</button><button type=\"button\" value=\"none\">none</button>\n");
    for (i, c) in configs.iter().enumerate() {
        let (r, g, b) = plots::PALETTE[i % plots::PALETTE.len()];
        let _ = writeln!(
            h,
            "<label><input type=\"checkbox\" checked data-config=\"{0}\"><span class=\"sw\" style=\"background:#{r:02x}{g:02x}{b:02x}\"></span>{0}</label>",
            html(c)
        );
    }
    h
}

/// The run's settings as a table per configuration, the environment in a few lines, the
/// experiment file folded.
fn settings(meta: Option<&RunMeta>, rows: &[Trial], caps: &Caps) -> String {
    let mut h = String::new();
    // What the rows say: threads and trials per configuration, limits from the rows.
    let mut seen: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for r in rows {
        let e = seen
            .entry(config_label(&r.method, &r.params))
            .or_insert((0, 0));
        e.0 = e.0.max(r.threads.max(1));
        e.1 = e.1.max(r.trial + 1);
    }
    let caps: BTreeMap<String, Option<f64>> = caps
        .iter()
        .map(|((_, method, params), cap)| (config_label(method, params), *cap))
        .collect();
    let split = |label: &str| match label.split_once(' ') {
        Some((m, p)) => (m.to_string(), p.to_string()),
        None => (label.to_string(), "–".to_string()),
    };
    let opt = |v: Option<String>| v.unwrap_or_else(|| "–".into());
    let threads = |label: &str| seen.get(label).map_or("–".into(), |t| t.0.to_string());
    let mut lines = Vec::new();
    let settings = meta.and_then(|m| m.settings.as_ref());
    match settings {
        Some(s) => {
            for c in &s.configs {
                let (m, p) = split(&c.label);
                lines.push(Line::Row(vec![
                    Cell::new(m),
                    Cell::new(p),
                    Cell::new(c.trials.to_string()),
                    Cell::new(c.repeat.to_string()),
                    Cell::new(opt(c.time_limit.map(|t| format!("{} s", num(t))))),
                    Cell::new(opt(c.node_limit.map(|n| n.to_string()))),
                    Cell::new(opt(c.iteration_limit.map(|n| n.to_string()))),
                    Cell::new(opt(c.orders.as_ref().map(|o| {
                        o.iter()
                            .map(|n| n.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }))),
                    Cell::new(threads(&c.label)),
                ]));
            }
            let _ = writeln!(
                h,
                "<p>Kind <strong>{}</strong>, seed {}, {} instance{}{}{}.</p>",
                html(&s.kind),
                s.seed,
                s.instances,
                if s.instances == 1 { "" } else { "s" },
                if s.kind == "count" {
                    format!(", counting up to {}", s.count_limit)
                } else {
                    String::new()
                },
                s.shard
                    .as_ref()
                    .map_or(String::new(), |sh| format!(", shard {}", html(sh)))
            );
        }
        None => {
            for (label, (t, trials)) in &seen {
                let (m, p) = split(label);
                lines.push(Line::Row(vec![
                    Cell::new(m),
                    Cell::new(p),
                    Cell::new(trials.to_string()),
                    Cell::new("–"),
                    Cell::new(opt(caps
                        .get(label)
                        .copied()
                        .flatten()
                        .map(|c| format!("{} s", num(c / 1000.0))))),
                    Cell::new("–"),
                    Cell::new("–"),
                    Cell::new("–"),
                    Cell::new(t.to_string()),
                ]));
            }
            h.push_str("<p>No settings were recorded with this run: the table is read from the rows (trials per instance, and the longest trial stopped by the time limit as the limit).</p>\n");
        }
    }
    let table = Table {
        headers: [
            "Method",
            "Parameters",
            "Trials",
            "Repeat",
            "Time limit",
            "Node limit",
            "Iteration limit",
            "Orders",
            "Threads",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, false, true, true, true, true, true, false, true],
        lines,
    };
    h.push_str("<div class=\"scroll\">");
    h.push_str(&table.html("Per configuration: trials per instance, best-of-R repetitions, the limits of each trial, the orders it was limited to, and the most threads a trial ran on (from the rows)."));
    h.push_str("</div>\n");
    match meta {
        None => h.push_str("<p>This folder has no <code>meta.json</code> (a merged cluster run or copied CSV has none): the machine, build and times of the run are not known here; the facts above come from the rows.</p>\n"),
        Some(m) => {
            let mut env: Vec<String> = [
                format!("{} ({} core{})", html(&m.cpu), m.cores, if m.cores == 1 { "" } else { "s" }),
                html(&m.os),
                html(&m.rustc),
            ]
            .into_iter()
            .filter(|t| !t.is_empty())
            .collect();
            if let Some(c) = &m.cbc {
                env.push(format!("CBC {}", html(c)));
            }
            env.push(format!(
                "commit <code>{}</code>{}",
                html(&m.commit),
                if m.dirty == Some(true) { " (uncommitted changes)" } else { "" }
            ));
            env.push(format!("{} worker thread{}", m.jobs, if m.jobs == 1 { "" } else { "s" }));
            env.push(format!(
                "{} → {}",
                html(&m.started),
                html(m.finished.as_deref().unwrap_or("not finished"))
            ));
            let _ = writeln!(
                h,
                "<p class=\"env\"><strong>Environment:</strong> {}.<br>Command: <code>{}</code></p>",
                env.join(" · "),
                html(&m.command.join(" "))
            );
            let _ = writeln!(
                h,
                "<details><summary>Experiment file <code>{}</code></summary>\n<pre>{}</pre>\n</details>",
                html(&m.experiment_file),
                html_keep_lines(&m.experiment_text)
            );
        }
    }
    let commits: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.commit.as_str()).collect();
    if commits.len() > 1 {
        let _ = writeln!(
            h,
            "<p>The rows were made by {} builds: {}.</p>",
            commits.len(),
            commits
                .iter()
                .map(|c| format!("<code>{}</code>", html(c)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    h
}

/// Text for a `<pre>`: escaped, line breaks kept.
fn html_keep_lines(s: &str) -> String {
    s.lines().map(html).collect::<Vec<_>>().join("\n")
}

/// The charts `pick` chooses, each SVG inlined with its title and caption (`key`: the key
/// charts, drawn wider).
fn charts(drawn: &Drawn, pick: &dyn Fn(&str) -> bool, key: bool) -> String {
    let mut chosen: Vec<&plots::Chart> = drawn.charts.iter().filter(|c| pick(&c.stem)).collect();
    if key {
        chosen.sort_by_key(|c| KEY_CHARTS.iter().position(|k| *k == c.stem));
    }
    if chosen.is_empty() {
        return if key {
            "<p>None of the key charts could be drawn from this data (see the charts left out).</p>\n".into()
        } else {
            "<p>No other chart was drawn (see the charts left out).</p>\n".into()
        };
    }
    let mut h = format!("<div class=\"figs{}\">\n", if key { " key" } else { "" });
    for c in chosen {
        let stem = html(&c.stem);
        let _ = write!(
            h,
            "<figure id=\"fig-{stem}\">\n<h3>{}</h3>\n{}\n<figcaption>{} <a href=\"{stem}.svg\">SVG</a> · <a href=\"{stem}.png\">PNG</a></figcaption>\n</figure>\n",
            html(&c.title),
            inline_svg(&c.svg, &c.title),
            html(&c.caption),
        );
    }
    h.push_str("</div>\n");
    h
}

/// An SVG file's markup for inlining in HTML: no XML prolog, no namespace URL (HTML parsers put
/// `<svg>` in the SVG namespace themselves), labelled for screen readers.
fn inline_svg(svg: &str, title: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    body.replacen(
        " xmlns=\"http://www.w3.org/2000/svg\"",
        &format!(" role=\"img\" aria-label=\"{}\"", html(title)),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_analysis::TrialStatus;

    fn rows() -> Vec<sudoku_analysis::Row> {
        let mut v = Vec::new();
        for (i, m) in ["a", "b<script>"].iter().enumerate() {
            for order in [2, 3] {
                for inst in 0..3 {
                    v.push(sudoku_analysis::Row {
                        experiment: "demo & co".into(),
                        kind: "solve".into(),
                        method: m.to_string(),
                        variant: "classic".into(),
                        order,
                        instance_set: "s".into(),
                        instance: format!("i{order}-{inst}"),
                        status: TrialStatus::Solved,
                        wall_ms: (1 + i + inst) as f64 * order as f64,
                        ..sudoku_analysis::Row::default()
                    });
                }
            }
        }
        v
    }

    #[test]
    fn the_page_answers_first_and_loads_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("trials.csv"), "x").unwrap();
        let run = RunOutputs::new("demo & co", rows(), Vec::new(), None);
        let drawn =
            crate::plots::draw(dir.path(), &plots::Figures::of(&run.trials, &run.traces)).unwrap();
        assert!(!drawn.charts.is_empty() && !drawn.skipped.is_empty());
        let r = Report::new(dir.path(), &run, &drawn, Some("<svg>cd</svg>"));
        let ids: Vec<&str> = r.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "headline",
                "methods",
                "key-charts",
                "settings",
                "tables",
                "statistics",
                "charts",
                "skipped",
                "files"
            ]
        );
        // The verdicts first: one per group (two orders), each naming the winner, its margin
        // and the test, with its leaderboard folded under it.
        let head = &r.sections[0].html;
        assert_eq!(head.matches("<li class=\"verdict\">").count(), 2);
        assert!(head.contains(
            "<span class=\"badge no\">untested</span><code>a</code> ranks before <code>b&lt;script&gt;</code> at 4×4, 0 % givens (3 instances of s): both solve 3/3, and <code>a</code> is 1.6× faster by score; too few instances to test: 3 paired, 6 needed."
        ), "{head}");
        assert!(head.contains("<th class=\"num\">Speed-up</th>"));
        // The key charts in their order, then the rest.
        let key = &r.sections[2].html;
        let at = |s: &str| key.find(&format!("id=\"fig-{s}\"")).unwrap();
        assert!(at("cactus") < at("profile"));
        assert!(!r.sections[6].html.contains("id=\"fig-cactus\""));
        // The filter names every configuration, and the charts name them too.
        let filter = &r.sections[1].html;
        for c in ["a", "b&lt;script&gt;"] {
            assert!(filter.contains(&format!("data-config=\"{c}\"")), "{c}");
            assert!(
                key.contains(&format!("class=\"series\" data-config=\"{c}\"")),
                "{c}"
            );
        }
        // The tables and statistics are folded.
        assert!(r.sections[4]
            .html
            .starts_with("<details>\n<summary>Summary: 4 rows"));
        assert!(r.sections[4].html.contains("<div class=\"filterable\">"));
        // Every trial solved: two tables. A trial left unsolved with a cost adds a third.
        assert_eq!(r.sections[4].html.matches("<details>").count(), 2);
        let mut unsolved = rows();
        unsolved[0].status = TrialStatus::Timeout;
        unsolved[0].best_cost = Some(3);
        let with_cost = RunOutputs::new("demo", unsolved, Vec::new(), None);
        let tables = Report::new(dir.path(), &with_cost, &drawn, None).sections[4]
            .html
            .clone();
        assert!(
            tables.contains("<summary>Best cost of the unsolved trials: 1 row (how close"),
            "{tables}"
        );
        assert!(tables.contains("<td class=\"num\">1/"), "{tables}");
        assert!(r.sections[5].html.starts_with("<details>"));
        assert!(r.sections[5]
            .html
            .ends_with("</figcaption></figure></details>\n"));
        let page = r.write(dir.path()).unwrap();
        let h = std::fs::read_to_string(page).unwrap();
        // Self-contained: no URL of any scheme, one inline script, no external resource.
        for bad in [
            "http:",
            "https:",
            "src=",
            "@import",
            "url(",
            "<link",
            "fetch(",
            "XMLHttpRequest",
        ] {
            assert!(!h.contains(bad), "{bad} in the page");
        }
        assert_eq!(h.matches("<script").count(), 1);
        assert!(h.contains("<script>\n(() => {"));
        assert!(h.len() < 2_000_000);
        // Every chart inline, once, with its caption (and the diagram); every skipped chart
        // named.
        assert_eq!(h.matches("<svg").count(), drawn.charts.len() + 1);
        for c in &drawn.charts {
            assert_eq!(
                h.matches(&format!("<figure id=\"fig-{}\">", c.stem))
                    .count(),
                1,
                "{}",
                c.stem
            );
            assert!(h.contains(&html(&c.caption)));
        }
        for s in &drawn.skipped {
            assert!(h.contains(&format!("<code>{}</code>: {}", s.stem, html(&s.reason))));
        }
        // Text from files is escaped.
        assert!(h.contains("<h1>demo &amp; co</h1>"));
        assert!(!h.contains("b<script>"));
        // Links to the folder's files that exist, relatively; no meta.json said so.
        assert!(h.contains("<a href=\"trials.csv\">"));
        assert!(!h.contains("<a href=\"traces.csv\">"));
        assert!(h.contains("no <code>meta.json</code>"));
        assert!(h.contains("<p class=\"lead\">12 trials of 2 configurations on 6 instances.</p>"));
    }

    #[test]
    fn settings_are_a_table_per_configuration() {
        let config = |label: &str, trials| sudoku_analysis::meta::ConfigSettings {
            label: label.into(),
            trials,
            repeat: 1,
            time_limit: Some(2.5),
            node_limit: None,
            iteration_limit: Some(1000),
            orders: Some(vec![2, 3]),
            variants: None,
        };
        let meta = RunMeta {
            experiment: "demo".into(),
            commit: "abc".into(),
            cores: 2,
            cpu: "cpu <x>".into(),
            command: vec!["sudoku-bench".into(), "run".into()],
            finished: None,
            experiment_file: "demo.toml".into(),
            experiment_text: "name = \"demo\"\n# <b>\n".into(),
            settings: Some(sudoku_analysis::meta::RunSettings {
                kind: "solve".into(),
                seed: 7,
                count_limit: 2,
                shard: None,
                configs: vec![config("a", 3), config("b<script> x=1", 1)],
                instances: 6,
                instances_digest: "ff".into(),
            }),
            ..RunMeta::default()
        };
        let run = RunOutputs::new("demo", rows(), Vec::new(), Some(meta.clone()));
        let h = settings(Some(&meta), &run.trials, &run.caps);
        assert!(h.contains("<p>Kind <strong>solve</strong>, seed 7, 6 instances.</p>"));
        assert!(h.contains("<tr><td>a</td><td>–</td><td class=\"num\">3</td><td class=\"num\">1</td><td class=\"num\">2.50 s</td><td class=\"num\">–</td><td class=\"num\">1000</td><td>2, 3</td><td class=\"num\">1</td></tr>"), "{h}");
        assert!(h.contains("<tr><td>b&lt;script&gt;</td><td>x=1</td>"));
        assert!(h.contains("<strong>Environment:</strong> cpu &lt;x&gt; (2 cores)"));
        assert!(h.contains("Command: <code>sudoku-bench run</code>"));
        assert!(h.contains("<details><summary>Experiment file <code>demo.toml</code></summary>\n<pre>name = &quot;demo&quot;\n# &lt;b&gt;</pre>"));
        // No JSON dump of the settings any more.
        assert!(!h.contains("&quot;configs&quot;"));
        assert!(!h.contains("no <code>meta.json</code>"));
        // Without settings, the table is read from the rows.
        let h = settings(None, &run.trials, &run.caps);
        assert!(h.contains("read from the rows"));
        assert!(h.contains("<tr><td>a</td><td>–</td><td class=\"num\">1</td>"));
    }
}
