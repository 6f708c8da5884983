//! The findings written out: each leaderboard as a table, findings.md, the winners table, and
//! the short Markdown tables of a document (`brief`, `versus_peers`) with their captions. Apart
//! because they only lay out what `mod.rs` computed and `sentence.rs` put into words.

use super::sentence::{p_text, times, times_ci};
use super::{Decided, Entry, Finding, Verdict};
use crate::baseline::RESAMPLES;
use crate::compare::{ALPHA, MIN_PAIRS};
use crate::escape;
use crate::number::num;
use crate::tables::{Cell, Line, Table, SGM_SHIFT_MS};

impl Finding {
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

/// The method paragraph of findings.md and the report.
pub fn method_text() -> String {
    format!("Per instance group (kind, variant, grid size, instance set): configurations ranked by the share of trials solved, then by score, the shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (an unsolved trial counts twice its time limit). What decided first place: solving more; else the score, and then the first is faster when the Wilcoxon signed-rank test on the instances both ran (each instance's mean PAR-2 score; Holm-corrected over the first's tests against every other configuration, at α = {ALPHA}) separates it from the second, tied when it does not, untested with fewer than {MIN_PAIRS} paired instances. The speed-up is the second's score over the first's (below 1: the second is faster by score), with a 95 % percentile-bootstrap interval over the paired instances resampled in pairs ({RESAMPLES} resamples, fixed seed) from {MIN_PAIRS} of them on.")
}

/// What the columns of [`brief`] are, after the method: the scores are what ranks.
pub fn brief_caption() -> String {
    format!(
        "{} Score: as shown, the time a configuration is ranked by; a tie is in bold.",
        method_text()
    )
}

/// What the columns of [`versus_peers`] are.
pub fn peers_caption() -> String {
    format!("Per grid and share of givens, our best configuration and the best peer (an `external` program, or `sat` handing its formula to another SAT program), each the first of its side in the leaderboard (solved share, then score). Score: the shifted geometric mean (shift {SGM_SHIFT_MS} ms) of the PAR-2 scores of all trials (an unsolved trial counts twice its time limit). Median: of the solved trials' wall times. Peer / ours: the peer's score over ours (above 1: ours is faster), with a 95 % percentile-bootstrap interval over the instances both ran ({RESAMPLES} resamples, fixed seed), from {MIN_PAIRS} of them on. Decided: solves more; else faster when the Wilcoxon signed-rank test on the two sides' per-instance PAR-2 scores separates them at α = {ALPHA}, a tie (in bold) when it does not, untested below {MIN_PAIRS} paired instances.")
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

/// One line per group: the winner, the runner-up, the speed-up with its interval, what
/// decided and the test.
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
                Cell::new(
                    f.speedup()
                        .map_or("–".into(), |x| times_ci(x, f.speedup_ci)),
                ),
                Cell {
                    text: f.decided.word().to_string(),
                    best: f.decided == Decided::Tied,
                },
                Cell::new(f.verdict.as_ref().map_or("–".into(), Verdict::text)),
            ])
        })
        .collect();
    Table {
        headers: [
            "Kind",
            "Grid",
            "Givens",
            "Set",
            "First",
            "Solved",
            "Score ms",
            "Second",
            "Solved",
            "Score ms",
            "Speed-up (95 % CI)",
            "Decided",
            "Test",
        ]
        .map(String::from)
        .to_vec(),
        numeric: vec![
            false, false, true, false, false, true, true, false, true, true, true, false, false,
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

/// A test's result in a table cell: `p = 0.016`, `too few (3 of 6)`.
fn test_cell(v: &Verdict) -> String {
    match v {
        Verdict::Significant { p_holm, .. } | Verdict::NotSignificant { p_holm, .. } => {
            format!("p {}", p_text(*p_holm))
        }
        Verdict::TooFew { n } => format!("too few ({n} of {MIN_PAIRS})"),
        Verdict::Untestable { .. } => "–".to_string(),
    }
}

/// What decided, for a document's table: a tie in bold, so that it reads as one.
fn decided_cell(d: Decided) -> String {
    match d {
        Decided::Tied => "**tie**".to_string(),
        d => d.word().to_string(),
    }
}

/// The findings as a short Markdown table for a document (README's "which method" table): per
/// group the grid, the share of givens, the first and second configurations with their solved
/// counts and scores, the speed-up with its interval, what decided first place and the test.
/// Instance sets are left out: a document's table is read by grid and share of givens.
pub fn brief(findings: &[Finding]) -> String {
    let mut out = String::from(
        "| grid | givens | first | solved | score | second | solved | score | speed-up (95 % CI) | decided | test |\n\
         |---|---:|---|---:|---:|---|---:|---:|---:|---|---|\n",
    );
    for f in findings {
        let entry = |e: Option<&Entry>| match e {
            Some(e) => format!(
                "`{}` | {} | {}",
                escape::markdown(&e.config),
                e.solved_text(),
                e.score_ms.map_or("–".into(), duration)
            ),
            None => "– | – | –".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            f.grid(),
            f.givens(),
            entry(f.winner()),
            entry(f.runner_up()),
            f.speedup()
                .map_or("–".into(), |x| times_ci(x, f.speedup_ci)),
            if f.runner_up().is_some() {
                decided_cell(f.decided)
            } else {
                "–".to_string()
            },
            f.verdict.as_ref().map_or("–".into(), test_cell),
        ));
    }
    out
}

/// Our best configuration against the best peer per group, as a short Markdown table: the
/// grid, the share of givens, each side's best by the leaderboard's ranking (solved share,
/// then score) with its solved count, median and score, the peer's score over ours (above 1:
/// ours is faster) with its interval, what decided between the two and their paired test (the
/// two alone, uncorrected). `is_peer` says which configurations are peers (the `external`
/// ones); groups without both sides are left out.
pub fn versus_peers(findings: &[Finding], is_peer: impl Fn(&str) -> bool) -> String {
    let mut out = String::from(
        "| grid | givens | ours | solved | median | score | best peer | solved | median | score | peer / ours (95 % CI) | decided | test |\n\
         |---|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|\n",
    );
    for f in findings {
        // The board is ranked already: the first of each side is its best.
        let ours = f.board.iter().position(|e| !is_peer(&e.config));
        let peer = f.board.iter().position(|e| is_peer(&e.config));
        let (Some(o), Some(p)) = (ours, peer) else {
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
        let (first, second) = (&f.board[o.min(p)], &f.board[o.max(p)]);
        let duel = f.duel(first, second);
        let who = if o < p { "ours" } else { "peer" };
        let decided = match duel.decided {
            Decided::SolvesMore | Decided::Faster => format!("{who} {}", duel.decided.word()),
            d => decided_cell(d),
        };
        // Peer over ours: the duel's ratio, or its inverse when the peer ranks first.
        let ratio = match (duel.ratio, o < p) {
            (Some(x), true) => times_ci(x, duel.ci),
            (Some(x), false) if x > 0.0 => {
                times_ci(1.0 / x, duel.ci.map(|(lo, hi)| (1.0 / hi, 1.0 / lo)))
            }
            _ => "–".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            f.grid(),
            f.givens(),
            side(&f.board[o]),
            side(&f.board[p]),
            ratio,
            decided,
            test_cell(&duel.verdict)
        ));
    }
    out
}

/// The command line that runs a configuration on a puzzle file: `sudoku-bench solve FILE -m
/// METHOD -p KEY=VALUE …`, from its label (`sat options=vivify=0 preset=sat`).
pub fn solve_command(config: &str) -> String {
    let mut words = config.split_whitespace();
    let method = words.next().unwrap_or_default();
    let mut out = format!("sudoku-bench solve PUZZLES.txt -m {method}");
    for w in words {
        out.push_str(&format!(" -p {w}"));
    }
    out
}

/// The recommendation of a run, one line per group: which of our configurations to use (the
/// first of ours in the leaderboard; with the second of ours when the paired test does not
/// separate the two, or cannot), what decided, and the command line that runs it. Peers
/// (`is_peer`) are left out: a recommendation names what this tool runs.
pub fn recommendations(findings: &[Finding], is_peer: impl Fn(&str) -> bool) -> String {
    let mut out =
        String::from("| grid | givens | use | how sure | command |\n|---|---:|---|---|---|\n");
    for f in findings {
        let mut ours = f.board.iter().filter(|e| !is_peer(&e.config));
        let Some(first) = ours.next() else { continue };
        let code = |e: &Entry| format!("`{}`", escape::markdown(&e.config));
        let (use_text, sure) = match ours.next() {
            None => (code(first), "alone".to_string()),
            Some(second) => {
                let duel = f.duel(first, second);
                match duel.decided {
                    Decided::SolvesMore => {
                        (code(first), format!("solves more than {}", code(second)))
                    }
                    Decided::Faster => (
                        code(first),
                        format!(
                            "faster than {} ({})",
                            code(second),
                            test_cell(&duel.verdict)
                        ),
                    ),
                    Decided::Tied => (
                        format!("{} or {}", code(first), code(second)),
                        format!("**tie** ({})", test_cell(&duel.verdict)),
                    ),
                    d => (
                        format!("{} or {}", code(first), code(second)),
                        format!("{} ({})", d.word(), test_cell(&duel.verdict)),
                    ),
                }
            }
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | `{}` |\n",
            f.grid(),
            f.givens(),
            use_text,
            sure,
            solve_command(&first.config)
        ));
    }
    out
}

/// What the columns of [`recommendations`] are.
pub fn recommendations_caption() -> String {
    format!("Per grid and share of givens, the configuration of ours to use: the first in the leaderboard (solved share, then score), and the second of ours beside it when the Wilcoxon signed-rank test on their per-instance PAR-2 scores (the two alone, at α = {ALPHA}) does not separate them (a tie, in bold) or cannot (untested, below {MIN_PAIRS} paired instances). The command runs the first on a puzzle file of yours.")
}

#[cfg(test)]
mod tests {
    use super::super::tests::{one, trials};
    use super::*;

    #[test]
    fn the_brief_table_names_both_with_scores_what_decided_and_the_test() {
        let mut rows = trials("b", &[Some(3000.0); 8]);
        rows.extend(trials("a", &[Some(1.0); 8]));
        let text = brief(&[one(&rows)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[2],
            "| 9×9 | 40 % | `a` | 8/8 | 1.00 ms | `b` | 8/8 | 3.00 s | 3000× (3000–3000) | faster | p = 0.008 |"
        );
        let few = brief(&[one(&trials("a", &[Some(1.0)]))]);
        assert!(
            few.ends_with("| `a` | 1/1 | 1.00 ms | – | – | – | – | – | – |\n"),
            "{few}"
        );
        // Faster on half the instances, slower on the other half: ranked by score, read as a
        // tie.
        let mut rows = trials("a", &[Some(1.0), Some(9.0)].repeat(4));
        rows.extend(trials("b", &[Some(2.0), Some(8.0)].repeat(4)));
        let f = one(&rows);
        assert_eq!(f.decided, Decided::Tied);
        let text = brief(std::slice::from_ref(&f));
        assert!(text.contains("| **tie** | p = 1.000 |"), "{text}");
        assert!(
            f.sentence().starts_with("a and b tie at 9×9"),
            "{}",
            f.sentence()
        );
    }

    #[test]
    fn ours_against_the_best_peer_says_what_decided() {
        // Ours 1 ms, the peer 30 ms on 8 instances, and a slower one of ours ranked between:
        // the peer table pairs our best with the peer, tested alone.
        let mut rows = trials("mine", &[Some(1.0); 8]);
        rows.extend(trials("slow", &[Some(10.0); 8]));
        rows.extend(trials("external name=x", &[Some(30.0); 8]));
        let f = one(&rows);
        let table = versus_peers(std::slice::from_ref(&f), |c| c.starts_with("external"));
        let line = table.lines().nth(2).unwrap();
        assert_eq!(
            line,
            "| 9×9 | 40 % | `mine` | 8/8 | 1.00 ms | 1.00 ms | `external name=x` | 8/8 | 30.0 ms | 30.0 ms | 30× (30–30) | ours faster | p = 0.008 |"
        );
        // The peer solving more decides for it, whatever the times.
        let mut rows = trials("mine", &[Some(1.0), None].repeat(4));
        rows.extend(trials("external name=x", &[Some(30.0); 8]));
        let f = one(&rows);
        let table = versus_peers(&[f], |c| c.starts_with("external"));
        assert!(table.contains("| peer solves more |"), "{table}");
    }

    #[test]
    fn a_recommendation_names_ours_how_sure_and_the_command() {
        let mut rows = trials("sat options=vivify=0 preset=sat", &[Some(1.0); 8]);
        rows.extend(trials("external name=x", &[Some(0.5); 8]));
        rows.extend(trials("gac", &[Some(30.0); 8]));
        let f = one(&rows);
        let text = recommendations(std::slice::from_ref(&f), |c| c.starts_with("external"));
        assert_eq!(
            text.lines().nth(2).unwrap(),
            "| 9×9 | 40 % | `sat options=vivify=0 preset=sat` | faster than `gac` (p = 0.008) | `sudoku-bench solve PUZZLES.txt -m sat -p options=vivify=0 -p preset=sat` |"
        );
        // Not separated: both named.
        let mut rows = trials("a", &[Some(1.0), Some(9.0)].repeat(4));
        rows.extend(trials("b", &[Some(2.0), Some(8.0)].repeat(4)));
        let text = recommendations(&[one(&rows)], |_| false);
        assert!(
            text.contains(
                "| `a` or `b` | **tie** (p = 1.000) | `sudoku-bench solve PUZZLES.txt -m a` |"
            ),
            "{text}"
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
        assert!(f
            .sentence()
            .starts_with("a on 2 threads is faster than b at 9×9"));
        let w = f.winner().unwrap();
        assert_eq!(
            (w.threads, w.cpu_median_ms, w.median_ms),
            (2, Some(1.9), Some(1.0))
        );
        let md = markdown("demo", &[f]);
        assert!(md.starts_with("# Findings: demo\n\nPer instance group"));
        assert!(md.contains("\n- `a` on 2 threads is faster than `b` at 9×9"));
        assert!(md.contains("| solve | 9×9 | 40 % | s | a | 8/8 | 1.00 | b | 8/8 | 3.00 | 3.0× (3.0–3.0) | faster | Wilcoxon, Holm-corrected p = 0.008 |"));
        assert!(md.contains("### solve · classic · 9×9 · s\n\n| \\# | Method | Threads |"));
        assert!(md.contains("| 1 | a | 2 threads | **8/8** | 1.00 | 1.00 | 1.00 | 1.90 | 3.0× |"));
    }
}
