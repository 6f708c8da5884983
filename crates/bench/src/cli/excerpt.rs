//! Two tables for the user documentation made from committed runs, so that a page quotes a run
//! through a generated block rather than by hand: `docs excerpt`, one section of a committed
//! Markdown file (a summary.md, findings.md or comparison.md) with its table rows filtered, and
//! `docs effort`, the search effort of a run per configuration and instance set (nodes,
//! guesses, the share answered without a guess), which no summary file shows as a table.

use std::path::Path;

use anyhow::{anyhow, Context};
use sudoku_analysis::meta::config_label;
use sudoku_analysis::number::num;
use sudoku_analysis::summary::SummaryRow;
use sudoku_analysis::tables::{Cell, Line, Table};

use crate::cli::Failure;
use sudoku_runner::outputs::read_run;

/// A heading's anchor as GitHub makes it: lower case, blanks to `-`, every character that is
/// not a letter, a digit, `-` or `_` dropped (`Performance per method and instance set` →
/// `performance-per-method-and-instance-set`).
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A heading line's level and text (`## Verdicts` → 2, `Verdicts`).
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    (level > 0 && line[level..].starts_with(' ')).then(|| (level, line[level..].trim()))
}

/// The cells of a table line, trimmed, with a bold cell's stars dropped.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|c| {
            let c = c.trim();
            c.strip_prefix("**")
                .and_then(|c| c.strip_suffix("**"))
                .unwrap_or(c)
                .to_string()
        })
        .collect()
}

/// A group row of a table: its first cell in bold, the others empty.
fn is_group(line: &str) -> bool {
    let raw: Vec<&str> = line
        .trim()
        .trim_start_matches('|')
        .trim_end_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    raw.len() > 1
        && raw[0].starts_with("**")
        && raw[0].ends_with("**")
        && raw[1..].iter().all(|c| c.is_empty())
}

/// What `docs excerpt` keeps of a file.
pub struct Filter<'a> {
    /// The section (the anchor of its heading, or a start of it ending a word); the whole file
    /// without it.
    pub section: Option<&'a str>,
    /// Keep only the table groups whose heading row contains one of these.
    pub groups: &'a [String],
    /// Keep only the table rows with a cell equal to one of these.
    pub rows: &'a [String],
    /// Start at the section's first line that starts with this word (a paragraph, a table
    /// caption), leaving out what comes before.
    pub from: Option<&'a str>,
}

/// The lines of `text` that `filter` keeps (the section's body, its tables filtered), and the
/// section's heading; an error names what is missing.
pub fn excerpt(text: &str, filter: &Filter) -> Result<(String, Option<String>), String> {
    let lines: Vec<&str> = text.lines().collect();
    let (body, title) = match filter.section {
        None => (&lines[..], None),
        Some(want) => {
            let headings: Vec<(usize, &str)> = lines
                .iter()
                .enumerate()
                .filter_map(|(i, l)| heading(l).map(|(_, t)| (i, t)))
                .collect();
            let matches = |t: &str| {
                let s = slug(t);
                s == want || s.strip_prefix(want).is_some_and(|r| r.starts_with('-'))
            };
            let Some(k) = headings.iter().position(|(_, t)| matches(t)) else {
                let known: Vec<String> = headings.iter().map(|(_, t)| slug(t)).collect();
                return Err(format!(
                    "no section `{want}` (the sections: {})",
                    known.join(", ")
                ));
            };
            let start = headings[k].0 + 1;
            let end = headings.get(k + 1).map_or(lines.len(), |(i, _)| *i);
            (&lines[start..end], Some(headings[k].1.to_string()))
        }
    };
    let body = match filter.from {
        None => body,
        Some(word) => {
            let i = body
                .iter()
                .position(|l| l.starts_with(word))
                .ok_or_else(|| format!("no line starts with `{word}` in the section"))?;
            &body[i..]
        }
    };
    let filtering = !filter.groups.is_empty() || !filter.rows.is_empty();
    let mut out: Vec<&str> = Vec::new();
    // Within a table: how many lines of it so far (the first two are its header), the pending
    // group row (written when a row under it is kept), and whether the current group is kept.
    let (mut in_table, mut pending, mut group_kept) = (0usize, None, filter.groups.is_empty());
    let mut kept_rows = 0;
    for &line in body {
        if !line.trim_start().starts_with('|') {
            (in_table, pending, group_kept) = (0, None, filter.groups.is_empty());
            out.push(line);
            continue;
        }
        in_table += 1;
        if in_table <= 2 || !filtering {
            out.push(line);
            continue;
        }
        if is_group(line) {
            let text = cells(line).swap_remove(0);
            group_kept =
                filter.groups.is_empty() || filter.groups.iter().any(|g| text.contains(g.as_str()));
            pending = Some(line);
            continue;
        }
        let row_kept =
            filter.rows.is_empty() || cells(line).iter().any(|c| filter.rows.contains(c));
        if group_kept && row_kept {
            if let Some(g) = pending.take() {
                out.push(g);
            }
            out.push(line);
            kept_rows += 1;
        }
    }
    if filtering && kept_rows == 0 {
        return Err("no table row matches the filters".to_string());
    }
    // Drop the blank lines at either end.
    let first = out.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
    let last = out
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let mut text = out[first..last.max(first)].join("\n");
    text.push('\n');
    Ok((text, title))
}

/// `docs excerpt FILE`: the caption naming the file, the section and the filters and the
/// command, then the excerpt.
pub fn excerpt_block(file: &Path, filter: &Filter) -> Result<String, Failure> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let (body, title) = excerpt(&text, filter).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let mut args = vec![file.display().to_string()];
    if let Some(s) = filter.section {
        args.push(format!("--section {s}"));
    }
    if let Some(w) = filter.from {
        args.push(format!("--from {w}"));
    }
    args.extend(filter.groups.iter().map(|g| format!("--group {g}")));
    args.extend(filter.rows.iter().map(|r| format!("--row {r}")));
    let mut what = Vec::new();
    if let Some(t) = &title {
        what.push(format!("the section \"{t}\""));
    }
    if let Some(w) = filter.from {
        what.push(format!("from its paragraph \"{w} …\""));
    }
    if !filter.groups.is_empty() {
        what.push(format!("the groups named with {}", quoted(filter.groups)));
    }
    if !filter.rows.is_empty() {
        what.push(format!("the rows with a cell {}", quoted(filter.rows)));
    }
    let what = if what.is_empty() {
        String::new()
    } else {
        format!(", {}", what.join(", "))
    };
    Ok(format!(
        "_From `{}`{what}: written by `sudoku-bench docs excerpt {}`._\n\n{body}",
        file.display(),
        args.join(" ")
    ))
}

/// `a`, `b` or `c`.
fn quoted(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

/// The search-effort table of summary rows: one group per instance set (kind, variant, grid,
/// set), one line per configuration.
pub fn effort_table(rows: &[&SummaryRow]) -> Table {
    let mut sorted: Vec<&SummaryRow> = rows.to_vec();
    sorted.sort_by(|a, b| {
        (a.order, &a.kind, &a.variant, &a.instance_set).cmp(&(
            b.order,
            &b.kind,
            &b.variant,
            &b.instance_set,
        ))
    });
    let mut lines = Vec::new();
    let mut last = None;
    for s in sorted {
        let n = s.order * s.order;
        let group = format!("{} · {} · {n}×{n} · {}", s.kind, s.variant, s.instance_set);
        if last.as_ref() != Some(&group) {
            lines.push(Line::Group(group.clone()));
            last = Some(group);
        }
        lines.push(Line::Row(vec![
            Cell::new(config_label(&s.method, &s.params)),
            Cell::new(s.count.to_string()),
            Cell::new(format!("{}/{}", s.successes, s.count)),
            Cell::new(num(s.median_ms)),
            Cell::new(num(s.mean_nodes)),
            Cell::new(guesses(s, num(s.mean_guesses))),
            Cell::new(guesses(s, format!("{:.0} %", s.no_guess_rate * 100.0))),
        ]));
    }
    Table {
        headers: [
            "Method",
            "Trials",
            "Solved",
            "Median ms",
            "Mean nodes",
            "Mean guesses",
            "No guess",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![false, true, true, true, true, true, true],
        lines,
    }
}

/// `text`, or `–` for a configuration that counts no guesses: none in any trial though its
/// searches had more nodes than the root (a branch is a guess).
fn guesses(s: &SummaryRow, text: String) -> String {
    if s.mean_guesses == 0.0 && s.mean_nodes > 1.0 {
        "–".to_string()
    } else {
        text
    }
}

/// `docs effort DIR`: the caption naming the run and the command, then the table of the
/// configurations and instance sets the filters keep.
pub fn effort_block(
    dir: &Path,
    sets: &[String],
    methods: &[String],
    params: &[String],
) -> Result<String, Failure> {
    let run = read_run(dir, "docs effort")?;
    let rows: Vec<&SummaryRow> = run
        .summary
        .iter()
        .filter(|s| sets.is_empty() || sets.iter().any(|t| s.instance_set.contains(t.as_str())))
        .filter(|s| methods.is_empty() || methods.contains(&s.method))
        .filter(|s| {
            params
                .iter()
                .all(|p| s.params.split_whitespace().any(|q| q == p))
        })
        .collect();
    if rows.is_empty() {
        return Err(anyhow!(
            "{}: no configuration and instance set matches the filters",
            dir.display()
        )
        .into());
    }
    let mut args = vec![dir.display().to_string()];
    args.extend(sets.iter().map(|s| format!("--set {s}")));
    args.extend(methods.iter().map(|m| format!("--method {m}")));
    args.extend(params.iter().map(|p| format!("--param {p}")));
    let source = match &run.meta {
        Some(m) => format!("the run of `{}` in `{}`", m.experiment_file, dir.display()),
        None => format!("the run in `{}`", dir.display()),
    };
    Ok(format!(
        "_Written by `sudoku-bench docs effort {}` from {source}. Per instance set and \
         configuration: its trials, those with a verified answer, the median wall time of all \
         of them (a trial stopped by its limit counts at the time it stopped), the mean search \
         nodes and guesses per trial (each method counts its own: the nodes of its search, its \
         branching decisions; – where a method counts no guesses), and the share of trials \
         answered without a guess._\n\n{}",
        args.join(" "),
        effort_table(&rows).markdown()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# Title\n\nIntro.\n\n## Performance per method and instance set\n\n\
        Caption.\n\n| Method | Params | Solved |\n| --- | --- | ---: |\n\
        | **solve · classic · 9×9 · a.txt** |  |  |\n| prop | – | **3/3** |\n| sat | – | 2/3 |\n\
        | **solve · classic · 25×25 · b.txt** |  |  |\n| prop | – | 1/3 |\n| sat | – | **3/3** |\n\
        \n## Next\n\nOther.\n";

    fn run(section: Option<&str>, groups: &[&str], rows: &[&str]) -> Result<String, String> {
        let groups: Vec<String> = groups.iter().map(|s| s.to_string()).collect();
        let rows: Vec<String> = rows.iter().map(|s| s.to_string()).collect();
        let f = Filter {
            section,
            groups: &groups,
            rows: &rows,
            from: None,
        };
        excerpt(DOC, &f).map(|(t, _)| t)
    }

    #[test]
    fn anchors_are_githubs() {
        assert_eq!(
            slug("Performance per method and instance set"),
            "performance-per-method-and-instance-set"
        );
        assert_eq!(
            slug("solve · classic · 9×9 · a.txt"),
            "solve--classic--99--atxt"
        );
        assert_eq!(slug("`sat`: the method"), "sat-the-method");
    }

    #[test]
    fn a_section_ends_at_the_next_heading_and_its_rows_are_filtered() {
        let all = run(Some("performance-per-method-and-instance-set"), &[], &[]).unwrap();
        assert!(all.starts_with("Caption.\n\n| Method |"), "{all}");
        assert!(all.ends_with("| sat | – | **3/3** |\n"), "{all}");
        // A start of the anchor that ends a word names the section too.
        assert_eq!(run(Some("performance"), &[], &[]).unwrap(), all);
        let sat = run(Some("performance"), &[], &["sat"]).unwrap();
        assert!(
            sat.ends_with(
                "| Method | Params | Solved |\n| --- | --- | ---: |\n\
                 | **solve · classic · 9×9 · a.txt** |  |  |\n| sat | – | 2/3 |\n\
                 | **solve · classic · 25×25 · b.txt** |  |  |\n| sat | – | **3/3** |\n"
            ),
            "{sat}"
        );
        let big = run(Some("performance"), &["25×25"], &[]).unwrap();
        assert!(
            !big.contains("a.txt") && big.contains("| prop | – | 1/3 |"),
            "{big}"
        );
        let one = run(Some("performance"), &["25×25"], &["prop"]).unwrap();
        assert!(!one.contains("| sat |") && one.contains("| prop | – | 1/3 |"));
    }

    #[test]
    fn what_is_missing_is_named() {
        let e = run(Some("verdicts"), &[], &[]).unwrap_err();
        assert!(
            e.contains("no section `verdicts`") && e.contains("next"),
            "{e}"
        );
        assert!(
            run(Some("perf"), &[], &[]).is_err(),
            "a part of a word names nothing"
        );
        let e = run(Some("performance"), &[], &["gac"]).unwrap_err();
        assert_eq!(e, "no table row matches the filters");
        // The whole file without a section.
        assert!(run(None, &[], &[]).unwrap().starts_with("# Title\n"));
    }

    #[test]
    fn an_excerpt_may_start_at_a_paragraph() {
        let f = Filter {
            section: Some("performance"),
            groups: &[],
            rows: &[],
            from: Some("|"),
        };
        let (text, title) = excerpt(DOC, &f).unwrap();
        assert!(text.starts_with("| Method |"), "{text}");
        assert_eq!(
            title.as_deref(),
            Some("Performance per method and instance set")
        );
        let f = Filter {
            from: Some("Missing"),
            ..f
        };
        assert!(excerpt(DOC, &f).unwrap_err().contains("`Missing`"));
    }
}
