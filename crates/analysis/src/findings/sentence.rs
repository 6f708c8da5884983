//! A finding in words: its sentence (in pieces, then as text, Markdown or HTML), the few words
//! of its test, and the number words (`3.0×`, `95 % CI 1.5–2.2`) the tables share. Apart from
//! the computing (`mod.rs`), which says nothing, and from the documents (`write.rs`) that place
//! these words.

use super::{Decided, Entry, Finding, Verdict};
use crate::baseline::Interval;
use crate::compare::MIN_PAIRS;
use crate::escape;
use crate::number::p_value;

impl Verdict {
    /// In a few words: `Wilcoxon, Holm-corrected p < 0.001`, `too few instances to test (3
    /// paired, 6 needed)`.
    pub fn text(&self) -> String {
        match self {
            Verdict::Significant { p_holm, .. } | Verdict::NotSignificant { p_holm, .. } => {
                format!("Wilcoxon, Holm-corrected p {}", p_text(*p_holm))
            }
            Verdict::TooFew { n } => {
                format!("too few instances to test: {n} paired, {MIN_PAIRS} needed")
            }
            Verdict::Untestable { .. } => "not tested: a time is not a finite number".into(),
        }
    }
}

/// `1.8× (1.5–2.2)`, in a table whose header names the interval; `1.8×` without one.
pub fn times_ci(x: f64, ci: Option<Interval>) -> String {
    match ci {
        Some((lo, hi)) => format!("{} ({}–{})", times(x), ratio_num(lo), ratio_num(hi)),
        None => times(x),
    }
}

/// An interval in a sentence: `, 95 % CI 1.5–2.2` after `open` = `", "`, or ` (95 % CI
/// 1.5–2.2)` after `open` = `" ("`; nothing without one.
fn ci_text(ci: Option<Interval>, open: &str) -> String {
    let Some((lo, hi)) = ci else {
        return String::new();
    };
    let close = if open.ends_with('(') { ")" } else { "" };
    format!("{open}95 % CI {}–{}{close}", ratio_num(lo), ratio_num(hi))
}

/// A ratio's bound: two decimals below 1, one to 10, none from 10.
fn ratio_num(x: f64) -> String {
    if x < 0.995 {
        format!("{x:.2}")
    } else if x < 9.95 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// `< 0.001`, or `= 0.012`.
pub(super) fn p_text(p: f64) -> String {
    let t = p_value(p);
    if t.starts_with('<') {
        t
    } else {
        format!("= {t}")
    }
}

/// A piece of a verdict's sentence.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Plain text (it may hold an instance set's name from a file).
    Text(String),
    /// A configuration's name, set as code.
    Code(String),
}

/// A Markdown code span holding `s` literally: fenced by more backticks than any run inside
/// it, padded with a space when it starts or ends with one.
fn code_span(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

impl Finding {
    /// The verdict in one sentence, in pieces: configuration names apart from the rest, so
    /// each format can set them as code ([`Finding::sentence_markdown`],
    /// [`Finding::sentence_html`]). It says what decided first place ([`Decided`]), the
    /// speed-up by score with its interval, and the test.
    pub fn sentence_parts(&self) -> Vec<Part> {
        let mut out = Vec::new();
        let Some(w) = self.winner() else {
            return out;
        };
        let text = |out: &mut Vec<Part>, t: &str| out.push(Part::Text(t.to_string()));
        let name = |out: &mut Vec<Part>, e: &Entry| {
            out.push(Part::Code(e.config.clone()));
            if e.threads > 1 {
                out.push(Part::Text(format!(" on {} threads", e.threads)));
            }
        };
        let at = format!(
            "at {}, {} givens ({} instance{} of {})",
            self.grid(),
            self.givens(),
            self.instances,
            if self.instances == 1 { "" } else { "s" },
            self.instance_set
        );
        let (Some(r), Some(v)) = (self.runner_up(), &self.verdict) else {
            name(&mut out, w);
            text(
                &mut out,
                &format!(
                    " solves {} {at}; no other configuration ran these instances.",
                    w.solved_text()
                ),
            );
            return out;
        };
        let test = v.text();
        let (ws, rs) = (w.solved_text(), r.solved_text());
        let both = if ws == rs {
            format!("both solve {ws}")
        } else if w.solved * r.trials != r.solved * w.trials {
            format!("they solve {ws} and {rs}")
        } else if w.solved == w.trials {
            format!("both solve every trial ({ws} and {rs})")
        } else {
            format!("both solve the same share ({ws} and {rs})")
        };
        // "by score `a` is 1.3× faster (95 % CI …)", from the ratio r/w and its interval.
        let by_score = |out: &mut Vec<Part>| {
            let Some(x) = self.speedup() else { return };
            let ci = self.speedup_ci;
            if (1.0 / 1.05..1.05).contains(&x) {
                text(
                    out,
                    &format!(
                        "by score they are about as fast ({}{})",
                        times(x),
                        ci_text(ci, ", ")
                    ),
                );
            } else if x >= 1.0 {
                name(out, w);
                text(
                    out,
                    &format!(" is {} faster by score{}", times(x), ci_text(ci, " (")),
                );
            } else {
                name(out, r);
                let inv = ci.map(|(lo, hi)| (1.0 / hi, 1.0 / lo));
                text(
                    out,
                    &format!(
                        " is {} faster by score{}",
                        times(1.0 / x),
                        ci_text(inv, " (")
                    ),
                );
            }
        };
        match self.decided {
            Decided::SolvesMore => {
                name(&mut out, w);
                text(
                    &mut out,
                    &format!(
                        " ranks first {at} for solving more: {} against ",
                        w.solved_text()
                    ),
                );
                name(&mut out, r);
                text(&mut out, &format!("'s {}; ", r.solved_text()));
                by_score(&mut out);
                let tail = match v {
                    Verdict::Significant { .. } => {
                        format!("; the paired test on PAR-2 scores separates them ({test}).")
                    }
                    Verdict::NotSignificant { .. } => format!(
                        "; the paired test on PAR-2 scores does not separate them ({test})."
                    ),
                    _ => format!(" ({test})."),
                };
                text(&mut out, &tail);
            }
            Decided::Faster => {
                name(&mut out, w);
                text(&mut out, " is faster than ");
                name(&mut out, r);
                text(
                    &mut out,
                    &format!(
                        " {at}: {both}, and it is {} faster by score{}; the paired test separates them ({test}).",
                        self.speedup().map_or("–".into(), times),
                        ci_text(self.speedup_ci, " (")
                    ),
                );
            }
            Decided::Tied => {
                name(&mut out, w);
                text(&mut out, " and ");
                name(&mut out, r);
                text(
                    &mut out,
                    &format!(
                        " tie {at}: {both}, and the paired test does not separate them ({test}); "
                    ),
                );
                by_score(&mut out);
                text(&mut out, ".");
            }
            Decided::Untested => {
                name(&mut out, w);
                text(&mut out, " ranks before ");
                name(&mut out, r);
                text(&mut out, &format!(" {at}: {both}, and "));
                by_score(&mut out);
                text(&mut out, &format!("; {test}."));
            }
            Decided::Unscored | Decided::Alone => {
                name(&mut out, w);
                text(
                    &mut out,
                    &format!(" solves {} {at}, ahead of ", w.solved_text()),
                );
                name(&mut out, r);
                text(
                    &mut out,
                    &format!(
                        " ({}; no time limit is known to score unsolved trials).",
                        r.solved_text()
                    ),
                );
            }
        }
        out
    }

    /// The sentence as plain text.
    pub fn sentence(&self) -> String {
        self.sentence_parts()
            .into_iter()
            .map(|p| match p {
                Part::Text(t) | Part::Code(t) => t,
            })
            .collect()
    }

    /// The sentence as Markdown: names as code spans, the rest escaped.
    pub fn sentence_markdown(&self) -> String {
        self.sentence_parts()
            .into_iter()
            .map(|p| match p {
                Part::Text(t) => escape::markdown(&t),
                Part::Code(c) => code_span(&escape::visible(&c)),
            })
            .collect()
    }

    /// The sentence as HTML: names in `<code>`, everything escaped.
    pub fn sentence_html(&self) -> String {
        self.sentence_parts()
            .into_iter()
            .map(|p| match p {
                Part::Text(t) => escape::html(&t),
                Part::Code(c) => format!("<code>{}</code>", escape::html(&c)),
            })
            .collect()
    }
}

/// A ratio as `9.7×` (two significant figures, whole from 10).
pub fn times(x: f64) -> String {
    if x >= 9.95 {
        format!("{x:.0}×")
    } else {
        format!("{x:.1}×")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_hold_backticks() {
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`a"), "`` `a ``");
    }
}
