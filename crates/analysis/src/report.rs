//! `report.html`: one self-contained page per results folder, built from its CSV files (and
//! meta.json when there is one) alone, in one go from a [`RunOutputs`]. The charts' SVG is
//! inlined, the style is in the page, and the page loads nothing: no scripts, no fonts, no
//! network; it links only to the folder's own files, relatively.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::meta::{config_label, RunMeta};
use crate::plots::Drawn;
use crate::{compare, summary, tables};
use crate::{AnalysisError, Row, RunOutputs};

/// One section of the page: an anchor id, a heading and its HTML body (trusted: build it with
/// [`html`] for text from data files).
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

/// The page: a title and its sections in order.
#[derive(Clone, Debug)]
pub struct Report {
    /// The page title (the experiment's name).
    pub title: String,
    /// The sections, in reading order: `experiment`, `tables`, `statistics`, `charts`,
    /// `skipped` (when a chart was left out) and `files`.
    pub sections: Vec<Section>,
}

/// Text made safe as HTML text or attribute value (the one escaper of the crate, here too for
/// callers that build report sections).
pub use crate::escape::html;

/// The files of a results folder the page links to, when they exist.
const LINKED: [&str; 6] = [
    "trials.csv",
    "traces.csv",
    "summary.csv",
    "summary.md",
    "summary.tex",
    "meta.json",
];

impl Report {
    /// The page of the results folder `dir`: its experiment (from meta.json when present, and
    /// from the rows), the summary and performance tables, the statistics with the
    /// critical-difference diagram `cd` (when there is one), the charts in `drawn` (read back
    /// from their SVG files) and the charts left out, and links to its data files.
    pub fn new(
        dir: &Path,
        run: &RunOutputs,
        drawn: &Drawn,
        cd: Option<&str>,
    ) -> Result<Report, AnalysisError> {
        let mut statistics = compare::html(&run.comparisons);
        if let Some(svg) = cd {
            statistics.push_str("<figure>");
            statistics.push_str(svg);
            statistics.push_str(
                "<figcaption>Critical-difference diagram (Nemenyi, α = 0.05): average ranks; \
                 a bar joins methods whose difference is not significant.</figcaption></figure>",
            );
        }
        let mut sections = vec![
            Section::new(
                "experiment",
                "Experiment and environment",
                experiment(run.meta.as_ref(), &run.rows),
            ),
            Section::new(
                "tables",
                "Tables",
                summary::html(&run.summary) + &tables::performance_html(&run.perf),
            ),
            Section::new("statistics", "Statistics", statistics),
            Section::new("charts", "Charts", charts(drawn)?),
        ];
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
        for f in LINKED.iter().filter(|f| dir.join(f).exists()) {
            let _ = writeln!(files, "<li><a href=\"{f}\">{f}</a></li>");
        }
        files.push_str("</ul>\n<p>Charts as files: each chart's <code>.svg</code> and <code>.png</code> beside this page. <code>sudoku-bench report DIR</code> remakes this page from the CSV alone.</p>\n");
        sections.push(Section::new("files", "Data files", files));
        Ok(Report {
            title: run.title.clone(),
            sections,
        })
    }

    /// The page.
    pub fn to_html(&self) -> String {
        let mut o = String::new();
        let title = html(&self.title);
        let _ = write!(
            o,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title} — sudoku-bench report</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n<nav><ul>\n"
        );
        for s in &self.sections {
            let _ = writeln!(
                o,
                "<li><a href=\"#{}\">{}</a></li>",
                html(&s.id),
                html(&s.title)
            );
        }
        o.push_str("</ul></nav>\n");
        for s in &self.sections {
            let _ = write!(
                o,
                "<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n",
                html(&s.id),
                html(&s.title),
                s.html
            );
        }
        o.push_str("</body>\n</html>\n");
        o
    }

    /// Writes `dir/report.html`; returns its path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, AnalysisError> {
        let path = dir.join("report.html");
        std::fs::write(&path, self.to_html()).map_err(|e| AnalysisError::io(&path, e))?;
        Ok(path)
    }
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;max-width:1150px;margin:1.5em auto;padding:0 1em;color:#111;line-height:1.4}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
nav ul{display:flex;flex-wrap:wrap;gap:.4em 1.2em;padding:0;list-style:none}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
thead th{border-bottom:2px solid #444}
.scroll{overflow-x:auto}
.figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:1.5em}
figure{margin:0}figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:.85em;color:#333}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{font-weight:600}dd{margin:0}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:.85em}
";

/// What the rows say about the run, and meta.json's fields when it is there.
fn experiment(meta: Option<&RunMeta>, rows: &[Row]) -> String {
    let set = |f: &dyn Fn(&Row) -> String| {
        rows.iter()
            .map(f)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    };
    let mut h = String::from("<dl>\n");
    let mut item = |k: &str, v: &str| {
        let _ = writeln!(h, "<dt>{}</dt><dd>{}</dd>", html(k), html(v));
    };
    item("trials", &rows.len().to_string());
    item(
        "experiment (rows)",
        &set(&|r| r.experiment.clone()).join(", "),
    );
    item("kinds", &set(&|r| r.kind.clone()).join(", "));
    item(
        "configurations",
        &set(&|r| config_label(&r.method, &r.params))
            .len()
            .to_string(),
    );
    let orders: std::collections::BTreeSet<usize> = rows.iter().map(|r| r.order).collect();
    item(
        "grid sizes",
        &orders
            .iter()
            .map(|o| format!("{0}×{0}", o * o))
            .collect::<Vec<_>>()
            .join(", "),
    );
    item(
        "instance sets",
        &set(&|r| r.instance_set.clone()).join(", "),
    );
    item("commits (rows)", &set(&|r| r.commit.clone()).join(", "));
    if let Some(m) = meta {
        // By field name, as the page has always listed them; absent ones left out.
        let facts = [
            ("cbc", m.cbc.clone()),
            ("command", Some(json(&m.command))),
            ("commit", Some(m.commit.clone())),
            ("cores", Some(m.cores.to_string())),
            ("cpu", Some(m.cpu.clone())),
            ("dirty", m.dirty.map(|d| d.to_string())),
            ("experiment", Some(m.experiment.clone())),
            ("experiment_file", Some(m.experiment_file.clone())),
            ("finished", m.finished.clone()),
            ("jobs", Some(m.jobs.to_string())),
            ("os", Some(m.os.clone())),
            ("rustc", Some(m.rustc.clone())),
            ("settings", m.settings.as_ref().map(json)),
            ("shard", m.shard.clone()),
            ("started", Some(m.started.clone())),
        ];
        for (k, v) in facts {
            if let Some(v) = v {
                item(k, &v);
            }
        }
    }
    h.push_str("</dl>\n");
    match meta {
        None => h.push_str("<p>This folder has no <code>meta.json</code> (a merged cluster run or copied CSV has none): the machine, build and times of the run are not known here; the facts above come from the rows.</p>\n"),
        Some(m) => {
            let _ = writeln!(
                h,
                "<details><summary>Experiment file</summary>\n<pre>{}</pre>\n</details>",
                html_keep_lines(&m.experiment_text)
            );
        }
    }
    h
}

/// A value as compact JSON, object keys sorted.
fn json(v: &impl Serialize) -> String {
    serde_json::to_value(v).map_or_else(|e| e.to_string(), |v| v.to_string())
}

/// Text for a `<pre>`: escaped, line breaks kept.
fn html_keep_lines(s: &str) -> String {
    s.lines().map(html).collect::<Vec<_>>().join("\n")
}

/// Each chart's SVG inlined, with its title and caption.
fn charts(drawn: &Drawn) -> Result<String, AnalysisError> {
    if drawn.charts.is_empty() {
        return Ok("<p>No chart was drawn (see the charts left out).</p>\n".into());
    }
    let mut h = String::from("<div class=\"figs\">\n");
    for c in &drawn.charts {
        let Some(svg_path) = c
            .files
            .iter()
            .find(|f| f.extension().is_some_and(|e| e == "svg"))
        else {
            continue;
        };
        let svg = std::fs::read_to_string(svg_path).map_err(|e| AnalysisError::io(svg_path, e))?;
        let stem = html(&c.stem);
        let _ = write!(
            h,
            "<figure id=\"fig-{stem}\">\n<h3>{}</h3>\n{}\n<figcaption>{} <a href=\"{stem}.svg\">SVG</a> · <a href=\"{stem}.png\">PNG</a></figcaption>\n</figure>\n",
            html(&c.title),
            inline_svg(&svg, &c.title),
            html(&c.caption),
        );
    }
    h.push_str("</div>\n");
    Ok(h)
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
    use crate::TrialStatus;

    fn rows() -> Vec<Row> {
        let mut v = Vec::new();
        for (i, m) in ["a", "b<script>"].iter().enumerate() {
            for order in [2, 3] {
                for inst in 0..3 {
                    v.push(Row {
                        experiment: "demo & co".into(),
                        kind: "solve".into(),
                        method: m.to_string(),
                        variant: "classic".into(),
                        order,
                        instance_set: "s".into(),
                        instance: format!("i{order}-{inst}"),
                        status: TrialStatus::Solved,
                        wall_ms: (1 + i + inst) as f64 * order as f64,
                        ..Row::default()
                    });
                }
            }
        }
        v
    }

    #[test]
    fn the_page_inlines_every_chart_and_loads_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("trials.csv"), "x").unwrap();
        let run = RunOutputs::new("demo & co", rows(), Vec::new(), None);
        let drawn = crate::plots::draw(dir.path(), &run.figures).unwrap();
        assert!(!drawn.charts.is_empty() && !drawn.skipped.is_empty());
        let r = Report::new(dir.path(), &run, &drawn, Some("<svg>cd</svg>")).unwrap();
        let ids: Vec<&str> = r.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "experiment",
                "tables",
                "statistics",
                "charts",
                "skipped",
                "files"
            ]
        );
        // The summary table has a row per group (and its header row), the performance table
        // follows it; the diagram closes the statistics.
        let summary = crate::summary::html(&run.summary);
        assert_eq!(summary.matches("<tr>").count(), 1 + 4);
        assert!(r.sections[1].html.starts_with(&summary));
        assert!(r.sections[1]
            .html
            .contains("<caption>Per method configuration"));
        assert!(r.sections[2].html.ends_with("</figcaption></figure>"));
        let page = r.write(dir.path()).unwrap();
        let h = std::fs::read_to_string(page).unwrap();
        // Self-contained: no URL of any scheme, no script, no external resource.
        for bad in [
            "http:", "https:", "<script", "src=", "@import", "url(", "<link",
        ] {
            assert!(!h.contains(bad), "{bad} in the page");
        }
        // Every chart inline, once, with its caption (and the diagram); every skipped chart
        // named.
        assert_eq!(h.matches("<svg").count(), drawn.charts.len() + 1);
        for c in &drawn.charts {
            assert!(
                h.contains(&format!("<figure id=\"fig-{}\">", c.stem)),
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
        assert!(h.contains("b&lt;script&gt;"));
        // Links to the folder's files that exist, relatively; no meta.json said so.
        assert!(h.contains("<a href=\"trials.csv\">"));
        assert!(!h.contains("<a href=\"traces.csv\">"));
        assert!(h.contains("no <code>meta.json</code>"));
    }

    #[test]
    fn meta_json_facts_are_listed_by_name() {
        let meta = RunMeta {
            experiment: "demo".into(),
            commit: "abc".into(),
            cores: 2,
            command: vec!["sudoku-bench".into(), "run".into()],
            finished: None,
            experiment_text: "name = \"demo\"\n# <b>\n".into(),
            settings: Some(crate::meta::RunSettings {
                kind: "solve".into(),
                seed: 7,
                count_limit: 2,
                shard: None,
                configs: Vec::new(),
                instances: 3,
                instances_digest: "ff".into(),
            }),
            ..RunMeta::default()
        };
        let h = experiment(Some(&meta), &rows());
        let names: Vec<&str> = h
            .lines()
            .filter_map(|l| l.strip_prefix("<dt>")?.split_once("</dt>"))
            .map(|(k, _)| k)
            .skip(7)
            .collect();
        // Every fact but those the file leaves empty (finished, dirty, cbc, shard).
        assert_eq!(
            names,
            [
                "command",
                "commit",
                "cores",
                "cpu",
                "experiment",
                "experiment_file",
                "jobs",
                "os",
                "rustc",
                "settings",
                "started"
            ]
        );
        assert!(h.contains("<dd>[&quot;sudoku-bench&quot;,&quot;run&quot;]</dd>"));
        assert!(h.contains("{&quot;configs&quot;:[],&quot;count_limit&quot;:2,"));
        assert!(h.contains("<pre>name = &quot;demo&quot;\n# &lt;b&gt;</pre>"));
        assert!(!h.contains("no <code>meta.json</code>"));
    }
}
