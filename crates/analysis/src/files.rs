//! The files of a results folder, in one table ([`RUN_FILES`]): their names, what makes them
//! and what they hold. The writers name files through its constants, `run --fresh` clears what
//! [`is_output`] matches (the charts by the names a run may draw, never a file of the user's), the report links the files marked [`RunFile::linked`], and the file
//! table of docs/report.md is generated from it, so a new file is one row here.

use std::path::{Path, PathBuf};

/// One trial a row, appended and flushed as each trial ends.
pub const TRIALS: &str = "trials.csv";
/// The best cost over time of traced metaheuristics.
pub const TRACES: &str = "traces.csv";
/// The summary as CSV.
pub const SUMMARY_CSV: &str = "summary.csv";
/// The summary and the performance table as Markdown.
pub const SUMMARY_MD: &str = "summary.md";
/// The summary and the performance table as LaTeX.
pub const SUMMARY_TEX: &str = "summary.tex";
/// The statistical comparison as Markdown.
pub const STATS_MD: &str = "stats.md";
/// The statistical comparison as LaTeX.
pub const STATS_TEX: &str = "stats.tex";
/// The critical-difference diagram.
pub const CD: &str = "cd.svg";
/// The verdicts and leaderboards.
pub const FINDINGS: &str = "findings.md";
/// What the run was made with.
pub const META: &str = "meta.json";
/// Every instance of the run.
pub const INSTANCES: &str = "instances.txt";
/// The self-contained page.
pub const REPORT: &str = "report.html";

/// The extensions of the charts, whose names come from the data (`cactus.svg`, `sweep_…png`).
pub const CHART_EXTENSIONS: [&str; 2] = ["svg", "png"];

/// What `<file>` is written through (renamed over the file when whole), so that a killed run
/// leaves the old file or none, never half of one; `--fresh` clears these too.
pub const TMP_SUFFIX: &str = ".tmp";

/// What makes a file of a results folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    /// `run` writes it as it runs (`merge` joins it from shards): the data the others are made
    /// from.
    Run,
    /// `run` writes it from its plan, before the trials.
    Plan,
    /// Made from the data alone by `run`, `plot`, `report` and `merge`.
    Text,
    /// Drawn as [`Made::Text`] is, unless charts are left out (`run --no-plots`).
    Drawn,
}

impl Made {
    /// Which commands write it, in words.
    pub fn written_by(self) -> &'static str {
        match self {
            Made::Run => "`run` as it runs; `merge`",
            Made::Plan => "`run`, before the trials",
            Made::Text => "`run`, `plot`, `report`, `merge`",
            Made::Drawn => "`run` (not with `--no-plots`), `plot`, `report`, `merge`",
        }
    }
}

/// A row of [`RUN_FILES`]: files written together and described once.
#[derive(Clone, Copy, Debug)]
pub struct RunFile {
    /// File names; `*.svg` stands for every file with that extension (the charts).
    pub names: &'static [&'static str],
    /// What writes them.
    pub made: Made,
    /// What they hold (Markdown, one sentence).
    pub holds: &'static str,
    /// Whether report.html links them under "Data files" (when they exist).
    pub linked: bool,
}

/// The charts' names, as [`RunFile::names`] writes them.
const CHARTS: [&str; 2] = ["*.svg", "*.png"];

/// Every file a run leaves in its folder, in the order `run` lists them.
pub const RUN_FILES: &[RunFile] = &[
    RunFile {
        names: &[TRIALS],
        made: Made::Run,
        holds: "one row per trial, appended and flushed as each trial ends",
        linked: true,
    },
    RunFile {
        names: &[TRACES],
        made: Made::Run,
        holds: "the best cost over time of traced metaheuristics (`trace = true`)",
        linked: true,
    },
    RunFile {
        names: &[SUMMARY_CSV, SUMMARY_MD, SUMMARY_TEX],
        made: Made::Text,
        holds: "per configuration and instance set: trials, solved, success rate, mean, median, \
                spread and confidence interval of the wall time, mean nodes, guesses and \
                iterations; then the performance table; in `summary.md`, then the best costs of \
                unsolved metaheuristic trials",
        linked: true,
    },
    RunFile {
        names: &[STATS_MD, STATS_TEX],
        made: Made::Text,
        holds: "the statistical comparison of the methods",
        linked: false,
    },
    RunFile {
        names: &[CD],
        made: Made::Drawn,
        holds: "the critical-difference diagram of the statistics (when a group has three \
                methods or more)",
        linked: false,
    },
    RunFile {
        names: &[FINDINGS],
        made: Made::Text,
        holds: "the verdict of each instance group: a sentence naming the first configuration, \
                what decided (solves more, faster, a tie, untested), the speed-up with its \
                interval and the test, a table of winners, and every leaderboard",
        linked: true,
    },
    RunFile {
        names: &CHARTS,
        made: Made::Drawn,
        holds: "the charts, each as SVG and PNG",
        linked: false,
    },
    RunFile {
        names: &[META],
        made: Made::Run,
        holds: "the experiment's text, its settings, the machine (CPU, cores, OS), the \
                compiler, the solver versions, the command, start and end",
        linked: true,
    },
    RunFile {
        names: &[INSTANCES],
        made: Made::Plan,
        holds: "the instances the run generated (when it generated any), each with its set, \
                to inspect or re-use them",
        linked: false,
    },
    RunFile {
        names: &[REPORT],
        made: Made::Drawn,
        holds: "one self-contained page with all of the above, the verdicts first; nothing \
                loaded from the network",
        linked: false,
    },
];

/// Whether the file named `name` is the table name `pattern`: a name, or `*.svg` standing
/// for `STEM.svg` of each chart stem in `charts`.
fn matches(pattern: &str, name: &str, charts: &[String]) -> bool {
    match pattern.strip_prefix("*.") {
        Some(ext) => name
            .strip_suffix(ext)
            .and_then(|n| n.strip_suffix('.'))
            .is_some_and(|stem| charts.iter().any(|c| c == stem)),
        None => name == pattern,
    }
}

/// Whether a file named `name` is an output of a run: a file of [`RUN_FILES`], a chart (by
/// its name: `charts` are the stems a run may draw, `cactus` for `cactus.svg` and
/// `cactus.png`), or the [`TMP_SUFFIX`] sibling of one that a killed run left. A file of the
/// user's, `notes.md` or `photo.png`, is none.
pub fn is_output(name: &str, charts: &[String]) -> bool {
    let name = name.strip_suffix(TMP_SUFFIX).unwrap_or(name);
    RUN_FILES
        .iter()
        .flat_map(|f| f.names)
        .any(|pattern| matches(pattern, name, charts))
}

/// The files of [`RUN_FILES`] (charts aside) that `keep` admits, in table order.
pub fn named(keep: impl Fn(&RunFile) -> bool) -> impl Iterator<Item = &'static str> {
    RUN_FILES
        .iter()
        .filter(move |f| keep(f))
        .flat_map(|f| f.names.iter().copied())
        .filter(|n| !n.starts_with('*'))
}

/// `path` with [`TMP_SUFFIX`] appended: where it is written before it is renamed over `path`.
pub fn tmp_sibling(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(TMP_SUFFIX);
    PathBuf::from(tmp)
}

/// The table as Markdown (docs/report.md's file table): file names, what writes them, what
/// they hold.
pub fn markdown() -> String {
    let mut out = String::from("| file | written by | what it holds |\n|---|---|---|\n");
    for f in RUN_FILES {
        let names: Vec<String> = f.names.iter().map(|n| format!("`{n}`")).collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            names.join(", "),
            f.made.written_by(),
            f.holds
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_charts_and_tmp_siblings_are_cleared_and_nothing_else() {
        let charts = ["cactus".to_string(), "sweep_tabu_lambda".to_string()];
        for name in [
            "trials.csv",
            "trials.csv.tmp",
            "meta.json.tmp",
            "summary.md.tmp",
            "report.html",
            "cactus.svg",
            "sweep_tabu_lambda.png",
            "cd.svg",
            "instances.txt",
        ] {
            assert!(is_output(name, &charts), "{name}");
        }
        for name in [
            "notes.md",
            "trials.csv.bak",
            ".sudoku-bench.lock",
            "comparison.md",
            "svg",
            "x.tmp",
            "README.md",
            "photo.png",
            "my-chart.svg",
            "cactus.svg.bak",
            "sweep_tabu_lambda.jpg",
        ] {
            assert!(!is_output(name, &charts), "{name}");
        }
    }

    #[test]
    fn every_name_is_once_in_the_table() {
        let mut names: Vec<&str> = RUN_FILES.iter().flat_map(|f| f.names).copied().collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
        assert_eq!(
            named(|f| f.linked).collect::<Vec<_>>(),
            [
                TRIALS,
                TRACES,
                SUMMARY_CSV,
                SUMMARY_MD,
                SUMMARY_TEX,
                FINDINGS,
                META
            ]
        );
        assert_eq!(
            tmp_sibling(Path::new("a/trials.csv")),
            Path::new("a/trials.csv.tmp")
        );
    }
}
