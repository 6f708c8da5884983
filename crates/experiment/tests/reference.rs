//! `docs/experiment-files.md` against the parser: each table's section documents exactly the
//! keys [`sudoku_experiment::tables`] reads from the parser, and every TOML example in the page
//! is a whole experiment file that parses.

use std::collections::BTreeSet;
use std::path::PathBuf;

/// The reference page, from the workspace root.
const PAGE: &str = "docs/experiment-files.md";

/// The page's text.
fn page() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(PAGE);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The text under each `## ` heading (the heading without its backticks), in page order.
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push((h.replace('`', "").trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The keys a section documents: the first cell of each table row, when it is one backticked
/// word (`| \`time_limit\` | … |`).
fn documented(body: &str) -> BTreeSet<String> {
    body.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .filter(|(_, rest)| rest.trim_start().starts_with('|'))
        .map(|(key, _)| key.to_string())
        .collect()
}

#[test]
fn the_reference_documents_every_key_the_parser_accepts_and_no_other() {
    let text = page();
    let sections = sections(&text);
    let mut problems = Vec::new();
    for table in sudoku_experiment::tables() {
        let Some((_, body)) = sections
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(table.name))
        else {
            problems.push(format!(
                "no section `## {}` (its keys: {})",
                table.name,
                table.keys.join(", ")
            ));
            continue;
        };
        let docs = documented(body);
        let parser: BTreeSet<String> = table.keys.iter().map(|k| k.to_string()).collect();
        for k in parser.difference(&docs) {
            problems.push(format!(
                "{}: key `{k}` is accepted by the parser but not documented",
                table.name
            ));
        }
        for k in docs.difference(&parser) {
            problems.push(format!(
                "{}: key `{k}` is documented but the parser does not accept it",
                table.name
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{PAGE} disagrees with the parser (crates/experiment):\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn every_toml_example_in_the_reference_parses() {
    let text = page();
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut current, line.trim()) {
            (None, "```toml") => current = Some((i + 2, String::new())),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some((_, b)), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(blocks.len() >= 3, "only {} TOML examples", blocks.len());
    for (line, block) in blocks {
        if let Err(e) = sudoku_experiment::parse(&block) {
            panic!("{PAGE}:{line}: the example does not parse: {e}\n{block}");
        }
    }
}
