//! The verdict first: per instance group (kind, variant, order and instance set), a leaderboard
//! of the method configurations and one sentence that names the winner, by how much it wins,
//! and whether the statistics support it. `findings.md` and the top of `report.html` are
//! written from these [`Finding`]s, which are data, so other documents (a README's table of the
//! best method per order and share of givens) can be made from them too.
//!
//! **Ranking.** Configurations are ranked by the share of trials they solved (a verified
//! answer), higher first, compared exactly as fractions; then by their **score**, the shifted
//! geometric mean (shift [`crate::tables::SGM_SHIFT_MS`] ms) of the PAR-2 scores of all their
//! trials (wall time when solved, else twice the configuration's time limit); then by name. The
//! solved share comes first because an answer matters more than its speed (as in the SAT
//! competition's ranking).
//!
//! **Speed-up** of a configuration over the next one down the board: the next one's score over
//! its own. A geometric mean weighs every trial's time by its ratio, so one slow instance does
//! not decide it (as it would the mean, and PAR-2 is a mean); the shift keeps sub-millisecond
//! noise from making huge ratios; counting unsolved trials at their PAR-2 penalty keeps a method
//! from looking fast by failing the hard instances. When every trial is solved, the score is the
//! shifted geometric mean of the wall times, the performance table's SGM.
//!
//! **Test.** The winner is tested against every other configuration of the group with the
//! Wilcoxon signed-rank test on the instances both ran, each instance's value the mean PAR-2
//! score of its trials (an unsolved trial counting twice the group's largest time limit, as in
//! [`crate::compare`]); the p-values are corrected with Holm's method over those tests (the
//! family of the claim "the winner is the best"), and the sentence reports the test against the
//! runner-up at α = [`ALPHA`]. Fewer than [`MIN_PAIRS`] paired instances: the sentence says there
//! are too few to test.

use std::collections::{BTreeMap, BTreeSet};

use crate::compare::{holm_pairs, instance_values, paired, PairTest, ALPHA, MIN_PAIRS};
use crate::escape;
use crate::meta::config_label;
use crate::number::{num, p_value};
use crate::stats::median;
use crate::tables::{
    par2_score, set_key, shifted_geometric_mean, Caps, Cell, Line, SetKey, Table, SGM_SHIFT_MS,
};
use crate::Trial;

/// One line of a leaderboard: a method configuration on a group's instances.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The configuration, as [`config_label`] names it.
    pub config: String,
    /// Trials.
    pub trials: usize,
    /// Trials with a verified answer.
    pub solved: usize,
    /// PAR-2: the mean PAR-2 score of its trials; `None` when an unsolved trial has no known
    /// time limit.
    pub par2_ms: Option<f64>,
    /// The ranking score: the shifted geometric mean of the PAR-2 scores of its trials; `None`
    /// as for `par2_ms`.
    pub score_ms: Option<f64>,
    /// Median wall time of the solved trials.
    pub median_ms: Option<f64>,
    /// Median CPU time of the solved trials (every thread of the call).
    pub cpu_median_ms: Option<f64>,
    /// The most threads a trial of it ran on.
    pub threads: u32,
    /// Its score over the next configuration's: how much faster it is than the one ranked
    /// below it (`None` for the last, or without scores).
    pub speedup: Option<f64>,
}

impl Entry {
    /// Solved as `solved/trials`.
    pub fn solved_text(&self) -> String {
        format!("{}/{}", self.solved, self.trials)
    }
}

/// What the statistics say about the winner against the runner-up.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The Wilcoxon test rejects equality at α after Holm's correction, in the winner's favour.
    Significant {
        /// Paired instances.
        n: usize,
        /// Holm-corrected p.
        p_holm: f64,
    },
    /// It does not (or it favours the runner-up).
    NotSignificant {
        /// Paired instances.
        n: usize,
        /// Holm-corrected p.
        p_holm: f64,
    },
    /// Fewer than [`MIN_PAIRS`] paired instances.
    TooFew {
        /// Paired instances.
        n: usize,
    },
    /// A value was not a finite number.
    Untestable {
        /// Paired instances.
        n: usize,
    },
}

impl Verdict {
    /// The verdict of `t`, a test of the winner (its `a`) against another.
    fn of(t: &PairTest) -> Verdict {
        let n = t.n;
        match (&t.test, t.p_holm) {
            (Some(test), Some(p_holm)) => {
                // d = b − a, so R+ > R− favours a, the winner.
                let favours_winner = test.r_plus > test.r_minus;
                if p_holm < ALPHA && favours_winner {
                    Verdict::Significant { n, p_holm }
                } else {
                    Verdict::NotSignificant { n, p_holm }
                }
            }
            _ if n < MIN_PAIRS => Verdict::TooFew { n },
            _ => Verdict::Untestable { n },
        }
    }

    /// Whether the statistics support the winner.
    pub fn supported(&self) -> bool {
        matches!(self, Verdict::Significant { .. })
    }

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

/// `< 0.001`, or `= 0.012`.
fn p_text(p: f64) -> String {
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

/// The leaderboard and verdict of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// solve, count, relax or generate.
    pub kind: String,
    /// Variant.
    pub variant: String,
    /// Order n.
    pub order: usize,
    /// Instance set.
    pub instance_set: String,
    /// Distinct instances.
    pub instances: usize,
    /// The share of cells given, lowest and highest over the instances (%).
    pub givens_pct: (f64, f64),
    /// Every configuration, best first.
    pub board: Vec<Entry>,
    /// The winner against the runner-up; `None` with one configuration.
    pub verdict: Option<Verdict>,
}

impl Finding {
    /// The best configuration.
    pub fn winner(&self) -> Option<&Entry> {
        self.board.first()
    }

    /// The second best.
    pub fn runner_up(&self) -> Option<&Entry> {
        self.board.get(1)
    }

    /// How much faster the winner is than the runner-up (ratio of their scores).
    pub fn speedup(&self) -> Option<f64> {
        self.winner().and_then(|w| w.speedup)
    }

    /// `25×25`, with the variant when not classic.
    pub fn grid(&self) -> String {
        let n = self.order * self.order;
        if self.variant == "classic" || self.variant.is_empty() {
            format!("{n}×{n}")
        } else {
            format!("{n}×{n} {}", self.variant)
        }
    }

    /// The share of givens: `45 %`, or `21–35 %` when it varies.
    pub fn givens(&self) -> String {
        let (lo, hi) = (self.givens_pct.0.round(), self.givens_pct.1.round());
        if lo == hi {
            format!("{lo} %")
        } else {
            format!("{lo}–{hi} %")
        }
    }

    /// The group as a heading: `solve · classic · 25×25 · set`.
    pub fn title(&self) -> String {
        let n = self.order * self.order;
        format!(
            "{} · {} · {n}×{n} · {}",
            self.kind, self.variant, self.instance_set
        )
    }

    /// The verdict in one sentence, in pieces: configuration names apart from the rest, so
    /// each format can set them as code ([`Finding::sentence_markdown`],
    /// [`Finding::sentence_html`]).
    pub fn sentence_parts(&self) -> Vec<Part> {
        let mut out = Vec::new();
        let Some(w) = self.winner() else {
            return out;
        };
        let text = |out: &mut Vec<Part>, t: String| out.push(Part::Text(t));
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
        name(&mut out, w);
        text(&mut out, format!(" solves {} {at}", w.solved_text()));
        let Some(r) = self.runner_up() else {
            text(
                &mut out,
                "; no other configuration ran these instances.".into(),
            );
            return out;
        };
        let more = w.solved * r.trials > r.solved * w.trials;
        match (self.speedup(), more) {
            // Within 5 %: a tie as far as a reader is concerned.
            (Some(x), false) if x < 1.05 => {
                text(&mut out, ", about as fast as ".into());
                name(&mut out, r);
                text(&mut out, format!(" ({})", times(x)));
            }
            (Some(x), false) => {
                text(&mut out, format!(", {} faster than ", times(x)));
                name(&mut out, r);
            }
            (x, true) => {
                text(&mut out, ", more than ".into());
                name(&mut out, r);
                text(&mut out, format!(" ({})", r.solved_text()));
                match x {
                    Some(x) if x >= 1.0 => text(&mut out, format!(" and {} faster", times(x))),
                    Some(x) => text(
                        &mut out,
                        format!(", which is {} faster by score", times(1.0 / x)),
                    ),
                    None => {}
                }
            }
            (None, false) => {
                text(&mut out, ", ahead of ".into());
                name(&mut out, r);
                text(
                    &mut out,
                    " (no time limit is known to score unsolved trials)".into(),
                );
            }
        }
        let support = match &self.verdict {
            Some(v @ Verdict::NotSignificant { .. }) => {
                format!(", but the difference is not significant ({})", v.text())
            }
            Some(v) => format!(" ({})", v.text()),
            None => String::new(),
        };
        text(&mut out, format!("{support}."));
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

    /// The leaderboard as a table.
    pub fn table(&self) -> Table {
        let lines = self
            .board
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let opt = |v: Option<f64>| v.map_or("–".to_string(), num);
                Line::Row(vec![
                    Cell::new((i + 1).to_string()),
                    Cell::new(e.config.clone()),
                    Cell::new(if e.threads > 1 {
                        format!("{} threads", e.threads)
                    } else {
                        "1".into()
                    }),
                    Cell {
                        text: e.solved_text(),
                        best: i == 0,
                    },
                    Cell::new(opt(e.par2_ms)),
                    Cell::new(opt(e.score_ms)),
                    Cell::new(opt(e.median_ms)),
                    Cell::new(opt(e.cpu_median_ms)),
                    Cell::new(e.speedup.map_or("–".to_string(), times)),
                ])
            })
            .collect();
        Table {
            headers: LEADERBOARD_HEADERS.map(String::from).to_vec(),
            numeric: vec![true, false, false, true, true, true, true, true, true],
            lines,
        }
    }
}

/// The columns of a leaderboard.
pub const LEADERBOARD_HEADERS: [&str; 9] = [
    "#",
    "Method",
    "Threads",
    "Solved",
    "PAR-2 ms",
    "Score ms",
    "Median ms",
    "CPU ms",
    "Speed-up",
];

/// What a leaderboard's columns are.
pub fn leaderboard_caption() -> String {
    format!("Ranked by solved share, then score. Score: shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (wall time, or twice the time limit when unsolved). Median and CPU: median wall and CPU time of the solved trials (CPU counts every thread, so it exceeds wall time when a method runs several). Speed-up: the next line's score over this line's. Threads: the most a trial ran on; compare those on more threads knowing they used more cores.")
}

/// A ratio as `9.7×` (two significant figures, whole from 10).
pub fn times(x: f64) -> String {
    if x >= 9.95 {
        format!("{x:.0}×")
    } else {
        format!("{x:.1}×")
    }
}

/// The findings of every group of `rows`, in the order of the performance table.
pub fn findings(rows: &[Trial], caps: &Caps) -> Vec<Finding> {
    let mut groups: BTreeMap<SetKey, Vec<&Trial>> = BTreeMap::new();
    for r in rows {
        groups.entry(set_key(r)).or_default().push(r);
    }
    groups
        .into_iter()
        .map(|((kind, variant, order, instance_set), rs)| {
            let mut by_config: BTreeMap<String, Vec<&Trial>> = BTreeMap::new();
            for r in &rs {
                by_config
                    .entry(config_label(&r.method, &r.params))
                    .or_default()
                    .push(r);
            }
            let mut board: Vec<Entry> = by_config
                .iter()
                .map(|(config, trs)| {
                    let cap = trs.first().and_then(|r| {
                        caps.get(&(r.kind.clone(), r.method.clone(), r.params.clone()))
                            .copied()
                            .flatten()
                    });
                    entry(config, trs, cap)
                })
                .collect();
            board.sort_by(|a, b| {
                (b.solved * a.trials)
                    .cmp(&(a.solved * b.trials))
                    .then(match (a.score_ms, b.score_ms) {
                        (Some(x), Some(y)) => x.total_cmp(&y),
                        (Some(_), None) => std::cmp::Ordering::Less,
                        (None, Some(_)) => std::cmp::Ordering::Greater,
                        (None, None) => std::cmp::Ordering::Equal,
                    })
                    .then(a.config.cmp(&b.config))
            });
            for i in 0..board.len().saturating_sub(1) {
                board[i].speedup = board[i]
                    .score_ms
                    .zip(board[i + 1].score_ms)
                    .filter(|(a, _)| *a > 0.0)
                    .map(|(a, b)| b / a);
            }
            let (_, values) = instance_values(&rs, caps);
            let verdict = board.first().and_then(|w| {
                let mut tests: Vec<PairTest> = board[1..]
                    .iter()
                    .map(|o| paired(&w.config, &o.config, &values))
                    .collect();
                holm_pairs(&mut tests);
                tests.first().map(Verdict::of)
            });
            let per_instance: BTreeMap<&str, f64> = rs
                .iter()
                .map(|r| {
                    let cells = (r.order as f64).powi(4);
                    (r.instance.as_str(), 100.0 * r.givens as f64 / cells)
                })
                .collect();
            let givens_pct = per_instance
                .values()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &g| {
                    (a.min(g), b.max(g))
                });
            Finding {
                kind,
                variant,
                order,
                instance_set,
                instances: per_instance.len(),
                givens_pct,
                board,
                verdict,
            }
        })
        .collect()
}

/// A configuration's line from its trials `trs` and time limit `cap` (ms).
fn entry(config: &str, trs: &[&Trial], cap: Option<f64>) -> Entry {
    let solved: Vec<&&Trial> = trs.iter().filter(|r| r.success()).collect();
    let wall: Vec<f64> = solved.iter().map(|r| r.wall_ms).collect();
    let cpu: Vec<f64> = solved.iter().map(|r| r.cpu_ms).collect();
    let scores: Option<Vec<f64>> = trs.iter().map(|r| par2_score(r, cap)).collect();
    Entry {
        config: config.to_string(),
        trials: trs.len(),
        solved: solved.len(),
        par2_ms: scores.as_deref().and_then(crate::stats::mean),
        score_ms: scores
            .as_deref()
            .and_then(|s| shifted_geometric_mean(s, SGM_SHIFT_MS)),
        median_ms: median(&wall),
        cpu_median_ms: median(&cpu),
        threads: trs.iter().map(|r| r.threads.max(1)).max().unwrap_or(1),
        speedup: None,
    }
}

/// The method paragraph of findings.md and the report.
pub fn method_text() -> String {
    format!("Per instance group (kind, variant, grid size, instance set): configurations ranked by the share of trials solved, then by score, the shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (an unsolved trial counts twice its time limit). The speed-up is the runner-up's score over the winner's. The winner is tested against every other configuration with the Wilcoxon signed-rank test on the instances both ran (each instance's mean PAR-2 score), Holm-corrected over those tests, at α = {ALPHA}; fewer than {MIN_PAIRS} paired instances are too few to test.")
}

/// findings.md: the method, every group's sentence, a table of winners, and every
/// leaderboard.
pub fn markdown(title: &str, findings: &[Finding]) -> String {
    let mut out = format!(
        "# Findings: {}\n\n{}\n",
        escape::markdown(title),
        escape::markdown(&method_text())
    );
    if findings.is_empty() {
        out.push_str("\nNo trials.\n");
        return out;
    }
    out.push_str("\n## Verdicts\n\n");
    for f in findings {
        out.push_str("- ");
        out.push_str(&f.sentence_markdown());
        out.push('\n');
    }
    out.push_str("\n## Winners\n\n");
    out.push_str(&winners(findings).markdown());
    out.push_str("\n## Leaderboards\n\n");
    out.push_str(&escape::markdown(&leaderboard_caption()));
    out.push('\n');
    for f in findings {
        out.push_str(&format!("\n### {}\n\n", escape::markdown(&f.title())));
        out.push_str(&f.table().markdown());
    }
    out
}

/// One line per group: the winner, the runner-up, the speed-up and the test.
pub fn winners(findings: &[Finding]) -> Table {
    let lines = findings
        .iter()
        .map(|f| {
            let w = f.winner();
            let r = f.runner_up();
            let cell = |e: Option<&Entry>, g: &dyn Fn(&Entry) -> String| {
                Cell::new(e.map_or("–".to_string(), g))
            };
            Line::Row(vec![
                Cell::new(f.kind.clone()),
                Cell::new(f.grid()),
                Cell::new(f.givens()),
                Cell::new(f.instance_set.clone()),
                cell(w, &|e| e.config.clone()),
                cell(w, &Entry::solved_text),
                cell(w, &|e| e.score_ms.map_or("–".into(), num)),
                cell(r, &|e| e.config.clone()),
                cell(r, &Entry::solved_text),
                cell(r, &|e| e.score_ms.map_or("–".into(), num)),
                Cell::new(f.speedup().map_or("–".into(), times)),
                Cell::new(f.verdict.as_ref().map_or("–".into(), |v| {
                    if v.supported() {
                        format!("yes ({})", v.text())
                    } else {
                        format!("no ({})", v.text())
                    }
                })),
            ])
        })
        .collect();
    Table {
        headers: [
            "Kind",
            "Grid",
            "Givens",
            "Set",
            "Best",
            "Solved",
            "Score ms",
            "Runner-up",
            "Solved",
            "Score ms",
            "Speed-up",
            "Significant",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![
            false, false, true, false, false, true, true, false, true, true, true, false,
        ],
        lines,
    }
}

/// A time for a reader: `0.025 ms` below a second, `1.51 s` from one on.
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", num(ms))
    } else {
        format!("{} s", num(ms / 1000.0))
    }
}

/// The findings as a short Markdown table for a document (README's "which method" table): per
/// group the grid, the share of givens, the best configuration and the runner-up with their
/// solved counts and median times, the speed-up, and whether the test supports the winner.
/// Instance sets are left out: a document's table is read by grid and share of givens.
pub fn brief(findings: &[Finding]) -> String {
    let mut out = String::from(
        "| grid | givens | best | solved | median | runner-up | solved | median | speed-up | test |\n\
         |---|---:|---|---:|---:|---|---:|---:|---:|---|\n",
    );
    for f in findings {
        let entry = |e: Option<&Entry>| match e {
            Some(e) => format!(
                "`{}` | {} | {}",
                escape::markdown(&e.config),
                e.solved_text(),
                e.median_ms.map_or("–".into(), duration)
            ),
            None => "– | – | –".to_string(),
        };
        // A winner ranked first for solving more may be slower on its score.
        let speedup = match (f.winner(), f.runner_up(), f.speedup()) {
            (Some(w), Some(r), Some(x)) if x < 1.0 && w.solved * r.trials > r.solved * w.trials => {
                "solves more".to_string()
            }
            (.., x) => x.map_or("–".into(), times),
        };
        let test = match &f.verdict {
            Some(Verdict::Significant { p_holm, .. }) => format!("yes, p {}", p_text(*p_holm)),
            Some(Verdict::NotSignificant { p_holm, .. }) => format!("no, p {}", p_text(*p_holm)),
            Some(Verdict::TooFew { n }) => format!("too few ({n})"),
            Some(Verdict::Untestable { .. }) | None => "–".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            f.grid(),
            f.givens(),
            entry(f.winner()),
            entry(f.runner_up()),
            speedup,
            test
        ));
    }
    out
}

/// Our best configuration against the best peer per group, as a short Markdown table: the
/// grid, the share of givens, each side's best by the leaderboard's ranking (solved share,
/// then score) with its solved count, median and score, and the peer's score over ours (above
/// 1: ours is faster). `is_peer` says which configurations are peers (the `external` ones);
/// groups without both sides are left out.
pub fn versus_peers(findings: &[Finding], is_peer: impl Fn(&str) -> bool) -> String {
    let mut out = String::from(
        "| grid | givens | ours | solved | median | score | best peer | solved | median | score | peer / ours |\n\
         |---|---:|---|---:|---:|---:|---|---:|---:|---:|---:|\n",
    );
    for f in findings {
        // The board is ranked already: the first of each side is its best.
        let ours = f.board.iter().find(|e| !is_peer(&e.config));
        let peer = f.board.iter().find(|e| is_peer(&e.config));
        let (Some(ours), Some(peer)) = (ours, peer) else {
            continue;
        };
        let side = |e: &Entry| {
            format!(
                "`{}` | {} | {} | {}",
                escape::markdown(&e.config),
                e.solved_text(),
                e.median_ms.map_or("–".into(), duration),
                e.score_ms.map_or("–".into(), duration)
            )
        };
        let ratio = match (ours.score_ms, peer.score_ms) {
            (Some(o), Some(p)) if o > 0.0 => times(p / o),
            _ => "–".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            f.grid(),
            f.givens(),
            side(ours),
            side(peer),
            ratio
        ));
    }
    out
}

/// The configurations of `findings`, sorted (every name the leaderboards use).
pub fn configs(findings: &[Finding]) -> BTreeSet<String> {
    findings
        .iter()
        .flat_map(|f| f.board.iter().map(|e| e.config.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{config_caps, TimeLimits};
    use crate::{Row, TrialStatus, Trials};

    /// One trial of `method` on each of `times.len()` 9×9 instances with 32 givens (40 %):
    /// `Some(ms)` solved, `None` a timeout at 100 ms.
    fn trials(method: &str, times: &[Option<f64>]) -> Vec<Row> {
        times
            .iter()
            .enumerate()
            .map(|(i, t)| Row {
                kind: "solve".into(),
                method: method.into(),
                variant: "classic".into(),
                order: 3,
                instance_set: "s".into(),
                instance: format!("i{i}"),
                givens: 32,
                status: if t.is_some() {
                    TrialStatus::Solved
                } else {
                    TrialStatus::Timeout
                },
                limit: if t.is_some() { "" } else { "time" }.into(),
                wall_ms: t.unwrap_or(100.0),
                cpu_ms: t.unwrap_or(100.0),
                threads: 1,
                ..Row::default()
            })
            .collect()
    }

    fn one(rows: &[Row]) -> Finding {
        let t = Trials::of_rows(rows);
        let f = findings(&t, &config_caps(&t, &TimeLimits::default()));
        assert_eq!(f.len(), 1);
        f.into_iter().next().unwrap()
    }

    #[test]
    fn the_winner_its_margin_and_an_exact_test() {
        // a 1 ms and b 3 ms on each of 8 instances: scores (SGM, shift 1) 1 and 3, so 3.0×;
        // every difference positive: exact two-sided p = 2/2⁸.
        let mut rows = trials("b", &[Some(3.0); 8]);
        rows.extend(trials("a", &[Some(1.0); 8]));
        let f = one(&rows);
        let w = f.winner().unwrap();
        assert_eq!((w.config.as_str(), w.solved, w.trials), ("a", 8, 8));
        assert!((w.score_ms.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(f.runner_up().unwrap().config, "b");
        assert!((f.speedup().unwrap() - 3.0).abs() < 1e-12);
        assert_eq!(f.board[1].speedup, None);
        assert_eq!(
            f.verdict,
            Some(Verdict::Significant {
                n: 8,
                p_holm: 2.0 / 256.0
            })
        );
        assert_eq!((f.instances, f.givens()), (8, "40 %".to_string()));
        assert_eq!(
            f.sentence(),
            "a solves 8/8 at 9×9, 40 % givens (8 instances of s), 3.0× faster than b (Wilcoxon, Holm-corrected p = 0.008)."
        );
        assert_eq!(
            f.sentence_markdown(),
            "`a` solves 8/8 at 9×9, 40 % givens (8 instances of s), 3.0× faster than `b` (Wilcoxon, Holm-corrected p = 0.008)."
        );
    }

    #[test]
    fn the_brief_table_names_both_with_medians_and_the_test() {
        let mut rows = trials("b", &[Some(3000.0); 8]);
        rows.extend(trials("a", &[Some(1.0); 8]));
        let text = brief(&[one(&rows)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[2],
            "| 9×9 | 40 % | `a` | 8/8 | 1.00 ms | `b` | 8/8 | 3.00 s | 3000× | yes, p = 0.008 |"
        );
        let few = brief(&[one(&trials("a", &[Some(1.0)]))]);
        assert!(
            few.ends_with("| `a` | 1/1 | 1.00 ms | – | – | – | – | – |\n"),
            "{few}"
        );
    }

    #[test]
    fn holm_corrects_over_the_winners_tests() {
        // a beats b and c on all 8 instances: p = 2/256 each; Holm over the two tests makes
        // both 2 × 2/256.
        let mut rows = trials("a", &[Some(1.0); 8]);
        rows.extend(trials("b", &[Some(3.0); 8]));
        rows.extend(trials("c", &[Some(7.0); 8]));
        let f = one(&rows);
        let names: Vec<&str> = f.board.iter().map(|e| e.config.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(
            f.verdict,
            Some(Verdict::Significant {
                n: 8,
                p_holm: 4.0 / 256.0
            })
        );
        // b's speed-up is over c: (7 + 1) / (3 + 1).
        assert!((f.board[1].speedup.unwrap() - 7.0 / 3.0).abs() < 1e-12);
        assert!(f
            .sentence()
            .ends_with("(Wilcoxon, Holm-corrected p = 0.016)."));
    }

    #[test]
    fn too_few_instances_are_not_tested() {
        let mut rows = trials("a", &[Some(1.0); 3]);
        rows.extend(trials("b", &[Some(1.0), Some(1.0), Some(1.1)]));
        let f = one(&rows);
        assert_eq!(f.verdict, Some(Verdict::TooFew { n: 3 }));
        assert!(!f.verdict.as_ref().unwrap().supported());
        assert_eq!(
            f.sentence(),
            "a solves 3/3 at 9×9, 40 % givens (3 instances of s), about as fast as b (1.0×) (too few instances to test: 3 paired, 6 needed)."
        );
        // One configuration: nothing to compare.
        let f = one(&trials("a", &[Some(1.0); 3]));
        assert_eq!(f.verdict, None);
        assert!(f
            .sentence()
            .ends_with("; no other configuration ran these instances."));
    }

    #[test]
    fn solving_more_ranks_first_even_when_slower() {
        // a solves all 8 in 10 ms; b solves 6 in 1 ms and times out on 2 (cap 100 ms, so
        // PAR-2 200 ms). Scores: a 10; b exp((6 ln 2 + 2 ln 201) / 8) − 1.
        let mut rows = trials("a", &[Some(10.0); 8]);
        let mut b = vec![Some(1.0); 6];
        b.extend([None, None]);
        rows.extend(trials("b", &b));
        let f = one(&rows);
        assert_eq!(f.winner().unwrap().config, "a");
        let b = f.runner_up().unwrap();
        assert_eq!((b.solved, b.par2_ms), (6, Some((6.0 + 400.0) / 8.0)));
        let sb = ((6.0 * 2f64.ln() + 2.0 * 201f64.ln()) / 8.0).exp() - 1.0;
        assert!((b.score_ms.unwrap() - sb).abs() < 1e-9);
        assert!((f.speedup().unwrap() - sb / 10.0).abs() < 1e-12);
        // Differences b − a: six of −9 (ranks 1–6, 3.5 each), two of +190 (7.5 each):
        // R+ = 15 against R− = 21; exact two-sided p = 204/256.
        assert_eq!(
            f.verdict,
            Some(Verdict::NotSignificant {
                n: 8,
                p_holm: 204.0 / 256.0
            })
        );
        assert_eq!(
            f.sentence(),
            "a solves 8/8 at 9×9, 40 % givens (8 instances of s), more than b (6/8), which is 1.9× faster by score, but the difference is not significant (Wilcoxon, Holm-corrected p = 0.797)."
        );
    }

    #[test]
    fn threads_are_shown_and_files_are_written() {
        let mut rows = trials("a", &[Some(1.0); 8]);
        for r in &mut rows {
            r.threads = 2;
            r.cpu_ms = 1.9;
        }
        rows.extend(trials("b", &[Some(3.0); 8]));
        let f = one(&rows);
        assert!(f.sentence().starts_with("a on 2 threads solves 8/8"));
        let w = f.winner().unwrap();
        assert_eq!(
            (w.threads, w.cpu_median_ms, w.median_ms),
            (2, Some(1.9), Some(1.0))
        );
        let md = markdown("demo", &[f]);
        assert!(md.starts_with("# Findings: demo\n\nPer instance group"));
        assert!(md.contains("\n- `a` on 2 threads solves 8/8 at 9×9"));
        assert!(md.contains("| solve | 9×9 | 40 % | s | a | 8/8 | 1.00 | b | 8/8 | 3.00 | 3.0× | yes (Wilcoxon, Holm-corrected p = 0.008) |"));
        assert!(md.contains("### solve · classic · 9×9 · s\n\n| \\# | Method | Threads |"));
        assert!(md.contains("| 1 | a | 2 threads | **8/8** | 1.00 | 1.00 | 1.00 | 1.90 | 3.0× |"));
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`a"), "`` `a ``");
    }
}
