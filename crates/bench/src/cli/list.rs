//! `list`: every registered method and generator with its parameters and capabilities.

use std::io::Write;

use anyhow::Context;

use crate::cli::Failure;
use crate::registry::Registry;

/// Prints every registered method and generator with its parameters.
pub fn list(registry: &Registry) -> Result<(), Failure> {
    let mut out = String::new();
    out.push_str("Solving methods (solve --method NAME; experiment [[method]] name = \"NAME\"):\n");
    if registry.methods.is_empty() {
        out.push_str("  (none in this build)\n");
    }
    for m in &registry.methods {
        let mut caps = vec![if m.caps.complete {
            "exact"
        } else {
            "incomplete"
        }];
        if !m.caps.thread_safe {
            caps.push("not thread-safe");
        }
        if m.caps.randomized {
            caps.push("randomized");
        }
        out.push_str(&format!(
            "\n  {} — {} [{}]\n",
            m.name,
            m.summary,
            caps.join(", ")
        ));
        for p in m.params {
            out.push_str(&format!(
                "      {}={} ({}) {}\n",
                p.name, p.default, p.range, p.help
            ));
        }
    }
    out.push_str("\nGenerators (generate --method NAME; kind = \"generate\"):\n");
    if registry.generators.is_empty() {
        out.push_str("  (none in this build)\n");
    }
    for g in &registry.generators {
        out.push_str(&format!("\n  {} — {}\n", g.name, g.summary));
        for p in g.params {
            out.push_str(&format!(
                "      {}={} ({}) {}\n",
                p.name, p.default, p.range, p.help
            ));
        }
    }
    out.push_str("\nExperiment kinds: solve, count, relax (ILP's LP relaxation), generate.\n");
    out.push_str(&format!(
        "Methods with a relaxation (kind = \"relax\", solve --relax): {}. Generated instances: {}.\n",
        registry.relaxer_names(),
        if registry.puzzle_maker.is_some() {
            "available"
        } else {
            "not in this build"
        }
    ));
    std::io::stdout()
        .write_all(out.as_bytes())
        .context("writing to standard output")?;
    Ok(())
}
