//! `list`: every registered method and generator with its parameters and capabilities, and the
//! papers `repro` reproduces; `--markdown` writes the same as the page `docs/methods.md`
//! (a test fails when the committed page differs).

use clap::Args;
use sudoku_core::{Capabilities, ParamSpec};
use sudoku_repro::CATALOGUE;

use crate::cli::Failure;
use crate::io::Out;
use sudoku_runner::Registry;

/// The command that writes `docs/methods.md`, as its header and the test's message say.
pub const MARKDOWN_COMMAND: &str = "cargo run --release -- list --markdown > docs/methods.md";

#[derive(Args, Default)]
pub struct ListArgs {
    /// Write the list as a Markdown page (docs/methods.md is this output).
    #[arg(long)]
    pub markdown: bool,
}

/// Prints every registered method and generator with its parameters, and the papers.
pub fn list(a: &ListArgs, registry: &Registry) -> Result<(), Failure> {
    let out = if a.markdown {
        markdown(registry)
    } else {
        text(registry)
    };
    let mut stdout = Out::new();
    stdout.text(&out)?;
    stdout.finish()?;
    Ok(())
}

/// A method's capabilities in words: `exact`/`incomplete`, then the exceptions.
fn caps_words(caps: &Capabilities) -> Vec<&'static str> {
    let mut words = vec![if caps.complete { "exact" } else { "incomplete" }];
    if !caps.thread_safe {
        words.push("not thread-safe");
    }
    if caps.randomized {
        words.push("randomized");
    }
    words
}

/// What the kinds and the relaxations are in this build: the last lines of both forms.
fn kinds_text(registry: &Registry) -> String {
    format!(
        "Experiment kinds: solve, count, relax (ILP's LP relaxation), generate, logic-lp (rule sets \
         against the LP relaxation).\n\
         Methods with a relaxation (kind = \"relax\", solve --relax): {}. Generated instances: {}.\n",
        registry.relaxer_names(),
        if registry.puzzle_maker.is_some() {
            "available"
        } else {
            "not in this build"
        }
    )
}

/// The plain list, for people at a terminal.
fn text(registry: &Registry) -> String {
    let params = |out: &mut String, ps: &[ParamSpec]| {
        for p in ps {
            out.push_str(&format!(
                "      {}={} ({}) {}\n",
                p.name, p.default, p.range, p.help
            ));
        }
    };
    let mut out = String::new();
    out.push_str("Solving methods (solve --method NAME; experiment [[method]] name = \"NAME\"):\n");
    if registry.methods.is_empty() {
        out.push_str("  (none in this build)\n");
    }
    for m in &registry.methods {
        out.push_str(&format!(
            "\n  {} — {} [{}]\n",
            m.name,
            m.summary,
            caps_words(&m.caps).join(", ")
        ));
        params(&mut out, m.params);
    }
    out.push_str("\nGenerators (generate --method NAME; kind = \"generate\"):\n");
    if registry.generators.is_empty() {
        out.push_str("  (none in this build)\n");
    }
    for g in &registry.generators {
        out.push_str(&format!("\n  {} — {}\n", g.name, g.summary));
        params(&mut out, g.params);
    }
    out.push('\n');
    out.push_str(&kinds_text(registry));
    out.push_str("\nPapers (repro NAME; the numbers work too):\n");
    for p in CATALOGUE {
        out.push_str(&format!("  {:<12} {:<6} {}\n", p.name, p.id, p.byline()));
    }
    out
}

/// Text for a Markdown table cell: a `|` would end the cell, a line break the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Text in backticks for a table cell (`–` when empty).
fn code(text: &str) -> String {
    if text.is_empty() {
        "–".to_string()
    } else {
        format!("`{}`", cell(text))
    }
}

/// A method's or a generator's section: its heading, what it is, and its parameters.
fn section_markdown(out: &mut String, heading: &str, summary: &str, ps: &[ParamSpec]) {
    out.push_str(&format!("\n### {heading}\n\n{}\n\n", sentence(summary)));
    params_markdown(out, ps);
}

/// A parameter table, or a line saying there is none.
fn params_markdown(out: &mut String, ps: &[ParamSpec]) {
    if ps.is_empty() {
        out.push_str("No parameters.\n");
        return;
    }
    out.push_str("| parameter | default | values | what it does |\n|---|---|---|---|\n");
    for p in ps {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            p.name,
            code(p.default),
            code(p.range),
            cell(p.help)
        ));
    }
}

/// The page `docs/methods.md`.
fn markdown(registry: &Registry) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut out = String::new();
    out.push_str("# Methods and generators\n\n");
    out.push_str(&format!(
        "_Generated from the method registry by `{MARKDOWN_COMMAND}`; do not edit by hand \
         (a test fails when this page and the registry differ)._\n\n"
    ));
    out.push_str(
        "A method is named by `solve --method NAME` and by `name = \"NAME\"` in an experiment's \
         `[[method]]`; its parameters by `--param key=value` and by `params = { key = value }` \
         ([experiment files](experiment-files.md)). **Complete** methods prove that a puzzle \
         has no solution and can count solutions (`kind = \"count\"`); **incomplete** ones \
         only return solutions they find. Every answer of every method is verified before it \
         is reported. A method that is not thread-safe runs one trial at a time whatever \
         `--jobs` says.\n\n",
    );
    out.push_str("## Solving methods\n\n");
    out.push_str("| method | complete | randomized | thread-safe | what it is |\n");
    out.push_str("|---|---|---|---|---|\n");
    for m in &registry.methods {
        out.push_str(&format!(
            "| [`{0}`](#{0}) | {1} | {2} | {3} | {4} |\n",
            m.name,
            yes(m.caps.complete),
            yes(m.caps.randomized),
            yes(m.caps.thread_safe),
            cell(m.summary)
        ));
    }
    for m in &registry.methods {
        section_markdown(&mut out, &format!("`{}`", m.name), m.summary, m.params);
    }
    out.push_str("\n## Generators\n\n");
    out.push_str(
        "Full-grid generators, named by `generate --method NAME`, by `kind = \"generate\"` \
         experiments, and by `generate = { method = \"NAME\" }` in an `[[instances]]` source.\n\n",
    );
    out.push_str("| generator | thread-safe | what it is |\n|---|---|---|\n");
    for g in &registry.generators {
        out.push_str(&format!(
            // A generator may share its name with a method: its heading says `(generator)`.
            "| [`{0}`](#{0}-generator) | {1} | {2} |\n",
            g.name,
            yes(g.thread_safe),
            cell(g.summary)
        ));
    }
    for g in &registry.generators {
        section_markdown(
            &mut out,
            &format!("`{}` (generator)", g.name),
            g.summary,
            g.params,
        );
    }
    out.push_str("\n## Kinds\n\n");
    out.push_str(&kinds_text(registry));
    out.push_str("\n## Papers\n\n");
    out.push_str(
        "`repro NAME` reproduces a paper (the number works too); \
         [reproducing the papers](reproducing.md) cites each in full.\n\n",
    );
    out.push_str("| name | number | authors | what is compared |\n|---|---|---|---|\n");
    for p in CATALOGUE {
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            p.name,
            p.id,
            cell(&p.byline()),
            cell(p.about)
        ));
    }
    out
}

/// A summary as a sentence: a full stop added unless it ends with one ("Takano et al.").
fn sentence(summary: &str) -> String {
    if summary.ends_with('.') {
        summary.to_string()
    } else {
        format!("{summary}.")
    }
}
