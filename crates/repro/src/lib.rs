//! sudoku-repro: the reproduced papers' own numbers beside ours ([`CATALOGUE`] names and cites
//! each paper).
//!
//! The papers' values are data, not code: `datasets/seeds/paper_values.csv` holds one line per
//! item of a paper (a table cell, a figure, a quantitative claim), with the experiment under
//! `scripts/experiments/repro/` that measures it, which trial rows to look at (`select`), what to
//! compute from them (`measure`) and how to judge agreement (`check`). [`parse_paper_values`]
//! reads that file (every error names the file and line), [`check_experiments`] checks that each
//! item names an experiment that exists, and [`compare`] turns a finished run's trial rows
//! ([`sudoku_analysis::Row`]) into one [`Comparison`] per item, which [`markdown`], [`latex`] and
//! [`write_csv`] print. The parser is a library function so that a fuzz target can call it.
//!
//! Columns of the values file, in order (a header line naming them is required; lines starting
//! with `#` are comments):
//!
//! | column | meaning |
//! |---|---|
//! | paper | `000`, `001`, `002`, `003`, `004` or `lewis` |
//! | item | what is compared; `Group \| Row \| Column` items are also laid out as a grid |
//! | page | where the paper prints it (page, figure, notebook cell) |
//! | quantity | what the number is |
//! | value | the paper's value, as printed (a number for the numeric checks) |
//! | unit | its unit (`s`, `count`, `status`, …) |
//! | experiment | the `name` of the repro experiment that measures it, or `-` (not yet: notes say why) |
//! | select | `field=value` / `field~text` filters joined by `;`; `A vs B` divides A's measure by B's |
//! | measure | [`Measure`] names: `status`, `count`, `objective`, `objectives`, `wall_s`, `mean_wall_s`, `max_wall_s`, `success`, `rows`, `lp_unique`, `hardest_givens`, `givens`, `min_givens`, `fastest:KEY` |
//! | check | [`Check`]: `equal`, `within:K` (ratio in [1/K, K]), `atmost`, `atleast`, `range:A..B` |
//! | notes | hardware, solver, and anything the comparison needs said |
//! | cause | for an item that differs: what an experiment that isolates the cause measured, and its command (shown in the reason); empty otherwise |

#![deny(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::de::IntoDeserializer;
use serde::Deserialize;
use sudoku_analysis::escape;
use sudoku_analysis::number::significant;
use sudoku_analysis::{Row, TrialStatus};
use thiserror::Error;

/// The papers `repro` knows, in the order `repro all` runs them.
pub const PAPERS: &[&str] = &["000", "001", "002", "003", "004", "lewis"];

/// The header of the values file.
pub const COLUMNS: &[&str] = &[
    "paper",
    "item",
    "page",
    "quantity",
    "value",
    "unit",
    "experiment",
    "select",
    "measure",
    "check",
    "notes",
    "cause",
];

/// The variant of `T` named `name` (serde's message lists the names when there is none).
fn by_name<'a, T: Deserialize<'a>>(name: &'a str) -> Result<T, String> {
    T::deserialize(name.into_deserializer()).map_err(|e: serde::de::value::Error| e.to_string())
}

/// What can be wrong with a values file or a comparison.
#[derive(Debug, Error)]
pub enum ReproError {
    /// The file could not be read.
    #[error("reading {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A line of the file is wrong.
    #[error("{}:{line}: {what}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// Writing a comparison failed.
    #[error("writing {}: {what}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        what: String,
    },
}

/// One row filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// The trial-row column.
    pub field: Field,
    /// `~`: the column contains the text; `=`: it equals it.
    pub contains: bool,
    /// The text.
    pub text: String,
}

/// The trial-row columns a filter may name (by their names in trials.csv).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// `method`.
    Method,
    /// `params`.
    Params,
    /// `variant`.
    Variant,
    /// `order`.
    Order,
    /// `instance_set`.
    InstanceSet,
    /// `instance`.
    Instance,
    /// `trial` (0-based, as in trials.csv).
    Trial,
    /// `status`.
    Status,
    /// `givens`.
    Givens,
    /// `rules_needed` (kind = logic-lp).
    RulesNeeded,
}

impl Field {
    fn of(self, r: &Row) -> String {
        match self {
            Field::Method => r.method.clone(),
            Field::Params => r.params.clone(),
            Field::Variant => r.variant.clone(),
            Field::Order => r.order.to_string(),
            Field::InstanceSet => r.instance_set.clone(),
            Field::Instance => r.instance.clone(),
            Field::Trial => r.trial.to_string(),
            Field::Status => r.status.name().to_string(),
            Field::Givens => r.givens.to_string(),
            Field::RulesNeeded => r.rules_needed.clone(),
        }
    }
}

/// The rows an item looks at: all filters hold (an empty list keeps every row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Select(pub Vec<Filter>);

impl Select {
    /// Does `r` pass every filter? `params=` compares the parameter pairs as a set, and a
    /// `params~k=v` filter with several pairs needs each of them.
    pub fn keeps(&self, r: &Row) -> bool {
        self.0.iter().all(|f| {
            let v = f.field.of(r);
            match (f.field, f.contains) {
                (Field::Params, true) => {
                    let have: Vec<&str> = v.split_whitespace().collect();
                    f.text.split_whitespace().all(|p| have.contains(&p))
                }
                (Field::Params, false) => {
                    let mut a: Vec<&str> = v.split_whitespace().collect();
                    let mut b: Vec<&str> = f.text.split_whitespace().collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    a == b
                }
                (_, true) => v.contains(&f.text),
                (_, false) => v == f.text,
            }
        })
    }
}

/// What is computed from the selected rows (named in snake case: `wall_s`, `hardest_givens`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The distinct statuses, joined by `+` (one status when all agree).
    Status,
    /// The distinct solution counts (kind = count), joined by `+`.
    Count,
    /// The median objective value.
    Objective,
    /// The distinct objective values, joined by `+` (one value when all rows agree).
    Objectives,
    /// The median wall time in seconds.
    WallS,
    /// The mean wall time in seconds.
    MeanWallS,
    /// The largest wall time in seconds.
    MaxWallS,
    /// The share of rows with a definitive, verified answer (0..1).
    Success,
    /// The number of rows.
    Rows,
    /// Kind = logic-lp: the share of rows whose LP polytope is the one integral point.
    LpUnique,
    /// The share of givens (givens / cells) of the instance set with the lowest success rate
    /// (among sets with the same rate, the one with the highest mean wall time).
    HardestGivens,
    /// The median number of givens.
    Givens,
    /// The smallest number of givens.
    MinGivens,
    /// `fastest:KEY`: the value of parameter KEY whose rows have the lowest mean wall time
    /// (a timeout counts at the time it stopped).
    #[serde(skip)]
    Fastest(String),
}

impl Measure {
    fn parse(s: &str) -> Result<Measure, String> {
        if let Some(key) = s.strip_prefix("fastest:") {
            if key.is_empty() || key.contains(char::is_whitespace) {
                return Err(format!("measure `{s}`: fastest:KEY needs a parameter name"));
            }
            return Ok(Measure::Fastest(key.to_string()));
        }
        by_name(s).map_err(|e| format!("measure: {e} (or fastest:KEY)"))
    }

    /// Numbers, or text (`status`, `count`).
    fn textual(&self) -> bool {
        matches!(self, Measure::Status | Measure::Count | Measure::Objectives)
    }

    fn compute(&self, rows: &[&Row]) -> Option<Ours> {
        if rows.is_empty() {
            return None;
        }
        let walls = || rows.iter().map(|r| r.wall_ms / 1000.0).collect::<Vec<_>>();
        let distinct = |xs: Vec<String>| {
            let mut xs = xs;
            xs.sort();
            xs.dedup();
            Ours::Text(xs.join("+"))
        };
        let share = |n: usize, of: usize| (of > 0).then(|| Ours::Num(n as f64 / of as f64));
        match self {
            Measure::Status => Some(distinct(
                rows.iter().map(|r| r.status.name().to_string()).collect(),
            )),
            Measure::Count => Some(distinct(
                rows.iter()
                    .map(|r| r.count.map_or("-".into(), |c| c.to_string()))
                    .collect(),
            )),
            Measure::Objectives => Some(distinct(
                rows.iter()
                    .map(|r| r.objective.map_or("-".into(), significant))
                    .collect(),
            )),
            Measure::Objective => {
                let xs: Vec<f64> = rows.iter().filter_map(|r| r.objective).collect();
                sudoku_analysis::stats::median(&xs).map(Ours::Num)
            }
            Measure::WallS => sudoku_analysis::stats::median(&walls()).map(Ours::Num),
            Measure::MeanWallS => sudoku_analysis::stats::mean(&walls()).map(Ours::Num),
            Measure::MaxWallS => walls().into_iter().reduce(f64::max).map(Ours::Num),
            Measure::Success => share(rows.iter().filter(|r| r.success()).count(), rows.len()),
            Measure::Rows => Some(Ours::Num(rows.len() as f64)),
            Measure::LpUnique => {
                let known: Vec<bool> = rows.iter().filter_map(|r| r.lp_unique).collect();
                share(known.iter().filter(|u| **u).count(), known.len())
            }
            Measure::HardestGivens => {
                // (successes, rows, share of givens summed, wall ms summed) per set.
                let mut sets: BTreeMap<&str, (usize, usize, f64, f64)> = BTreeMap::new();
                for r in rows {
                    let e = sets.entry(&r.instance_set).or_default();
                    e.0 += usize::from(r.success());
                    e.1 += 1;
                    e.2 += r.givens as f64 / (r.order * r.order * r.order * r.order) as f64;
                    e.3 += r.wall_ms;
                }
                // The lowest success rate; among equal rates (all solved, say) the slowest.
                sets.values()
                    .map(|&(s, n, g, w)| (s as f64 / n as f64, w / n as f64, g / n as f64))
                    .min_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)))
                    .map(|(_, _, g)| Ours::Num(g))
            }
            Measure::Givens => {
                let xs: Vec<f64> = rows.iter().map(|r| r.givens as f64).collect();
                sudoku_analysis::stats::median(&xs).map(Ours::Num)
            }
            Measure::MinGivens => rows
                .iter()
                .map(|r| r.givens)
                .min()
                .map(|g| Ours::Num(g as f64)),
            Measure::Fastest(key) => {
                let prefix = format!("{key}=");
                let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
                for r in rows {
                    if let Some(v) = r
                        .params
                        .split_whitespace()
                        .find_map(|p| p.strip_prefix(&prefix))
                    {
                        groups.entry(v.to_string()).or_default().push(r.wall_ms);
                    }
                }
                let best = groups
                    .iter()
                    .filter_map(|(v, ws)| sudoku_analysis::stats::mean(ws).map(|m| (v, m)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))?;
                Some(match best.0.parse::<f64>() {
                    Ok(x) if x.is_finite() => Ours::Num(x),
                    _ => Ours::Text(best.0.clone()),
                })
            }
        }
    }
}

/// How ours is judged against the paper's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// The same value (numbers compared as numbers, to 1e-9 relative).
    Equal,
    /// Numbers whose ratio ours/paper lies in [1/K, K].
    Within(f64),
    /// Ours is at most the paper's. On a wall-time measure, trials that all ran out of time at
    /// or past the paper's value decide it too (ours is above it), even when the selection
    /// keeps only answers.
    AtMost,
    /// Ours is at least the paper's.
    AtLeast,
    /// Ours lies in [A, B] (the paper states a range or a qualitative claim).
    Range(f64, f64),
}

impl Check {
    fn parse(s: &str) -> Result<Check, String> {
        let s = s.trim();
        let number = |x: &str| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("check `{s}`: `{x}` is not a finite number"))
        };
        Ok(match s {
            "equal" => Check::Equal,
            "atmost" => Check::AtMost,
            "atleast" => Check::AtLeast,
            _ => {
                if let Some(k) = s.strip_prefix("within:") {
                    let k = number(k)?;
                    if k < 1.0 {
                        return Err(format!("check `{s}`: the factor must be at least 1"));
                    }
                    Check::Within(k)
                } else if let Some(r) = s.strip_prefix("range:") {
                    let (a, b) = r
                        .split_once("..")
                        .ok_or_else(|| format!("check `{s}`: expected range:A..B"))?;
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("check `{s}`: empty range"));
                    }
                    Check::Range(a, b)
                } else {
                    return Err(format!(
                        "unknown check `{s}` (equal, within:K, atmost, atleast, range:A..B)"
                    ));
                }
            }
        })
    }

    /// Needs the paper's value to be a number.
    fn numeric(self) -> bool {
        matches!(self, Check::Within(_) | Check::AtMost | Check::AtLeast)
    }
}

/// One item of a paper, as transcribed.
#[derive(Clone, Debug, PartialEq)]
pub struct PaperValue {
    /// Line of the values file.
    pub line: u64,
    /// The paper (one of [`PAPERS`]).
    pub paper: String,
    /// The item.
    pub item: String,
    /// Where the paper prints it.
    pub page: String,
    /// What the number is.
    pub quantity: String,
    /// The paper's value as printed.
    pub value: String,
    /// Its unit.
    pub unit: String,
    /// The repro experiment that measures it; `None`: not yet (the notes say why).
    pub experiment: Option<String>,
    /// The rows to look at; a second selection divides the first one's measure.
    pub select: (Select, Option<Select>),
    /// What to compute.
    pub measure: Measure,
    /// How to judge.
    pub check: Check,
    /// Hardware, solver, caveats.
    pub notes: String,
    /// Why ours differs, as an isolating experiment measured it, with its command.
    pub cause: String,
}

/// Reads a values file; `path` names it in errors. Errors name the line: a wrong number of
/// fields, an unknown paper, column, measure or check, a non-numeric value for a numeric check.
pub fn parse_paper_values(text: &str, path: &Path) -> Result<Vec<PaperValue>, ReproError> {
    let err = |line: u64, what: String| ReproError::Line {
        path: path.to_path_buf(),
        line,
        what,
    };
    let mut out = Vec::new();
    let mut header_seen = false;
    let mut splitter = LineSplitter::default();
    // One record per physical line, so that a line number is the line a reader sees (quoted
    // fields may hold commas, never a line break).
    for (i, raw) in text.lines().enumerate() {
        let line = i as u64 + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let fields = splitter.split(raw);
        let fields: Vec<&str> = fields.iter().map(|f| f.trim()).collect();
        if !header_seen {
            if fields != COLUMNS {
                return Err(err(
                    line,
                    format!("the header must be `{}`", COLUMNS.join(",")),
                ));
            }
            header_seen = true;
            continue;
        }
        if fields.len() != COLUMNS.len() {
            return Err(err(
                line,
                format!(
                    "{} fields, expected {} ({})",
                    fields.len(),
                    COLUMNS.len(),
                    COLUMNS.join(",")
                ),
            ));
        }
        let v = parse_line(&fields).map_err(|what| err(line, what))?;
        out.push(PaperValue { line, ..v });
    }
    if !header_seen {
        return Err(err(1, "empty: no header line".into()));
    }
    Ok(out)
}

/// Splits one line into CSV fields (RFC 4180 quoting). One `csv_core` reader serves every line:
/// building one per line (its state machine) took two thirds of the time of reading a file.
struct LineSplitter {
    reader: csv_core::Reader,
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Default for LineSplitter {
    fn default() -> Self {
        Self {
            reader: csv_core::ReaderBuilder::new().build(),
            bytes: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl LineSplitter {
    fn split(&mut self, line: &str) -> Vec<String> {
        self.reader.reset();
        // Unquoting never lengthens a line, and a line of n bytes has at most n + 1 fields, so
        // one pass always fits; the buffers grow anyway if that ever changes.
        self.bytes.resize(line.len() + 1, 0);
        self.ends.resize(line.len() + 2, 0);
        let (mut input, mut nout, mut nend) = (line.as_bytes(), 0, 0);
        loop {
            let (res, nin, o, e) =
                self.reader
                    .read_record(input, &mut self.bytes[nout..], &mut self.ends[nend..]);
            input = &input[nin..];
            nout += o;
            nend += e;
            match res {
                // The line has no terminator: an empty input ends its record.
                csv_core::ReadRecordResult::InputEmpty => {}
                csv_core::ReadRecordResult::OutputFull => {
                    self.bytes.resize(self.bytes.len() * 2 + 1, 0)
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    self.ends.resize(self.ends.len() * 2 + 1, 0)
                }
                csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => break,
            }
        }
        let mut start = 0;
        self.ends[..nend]
            .iter()
            .map(|&end| {
                // Quote characters are ASCII, so every field is whole UTF-8 from a `str`.
                let field = String::from_utf8_lossy(&self.bytes[start..end]).into_owned();
                start = end;
                field
            })
            .collect()
    }
}

fn parse_line(f: &[&str]) -> Result<PaperValue, String> {
    let [paper, item, page, quantity, value, unit, experiment, select, measure, check, notes, cause] =
        f
    else {
        return Err("wrong number of fields".into());
    };
    if !PAPERS.contains(paper) {
        return Err(format!(
            "unknown paper `{paper}` (expected one of {})",
            PAPERS.join(", ")
        ));
    }
    for (name, v) in [("item", item), ("value", value)] {
        if v.is_empty() {
            return Err(format!("empty `{name}`"));
        }
    }
    let measure = Measure::parse(measure)?;
    let check = Check::parse(check)?;
    if check.numeric() && value.parse::<f64>().map_or(true, |v| !v.is_finite()) {
        return Err(format!(
            "value `{value}` is not a number, which check `{}` needs",
            f[9]
        ));
    }
    if measure.textual() && !matches!(check, Check::Equal) {
        return Err(format!(
            "measure `{}` is text: only `equal` can judge it",
            f[8]
        ));
    }
    let experiment = match *experiment {
        "" => {
            return Err("empty `experiment` (give an experiment name, or `-` for not yet)".into())
        }
        "-" => {
            if notes.is_empty() {
                return Err("experiment `-` (not yet) needs notes that say why".into());
            }
            None
        }
        e => Some(e.to_string()),
    };
    let select = match select.split_once(" vs ") {
        Some((a, b)) => (parse_select(a)?, Some(parse_select(b)?)),
        None => (parse_select(select)?, None),
    };
    if select.1.is_some() && measure.textual() {
        return Err("`A vs B` divides numbers: the measure must be numeric".into());
    }
    Ok(PaperValue {
        line: 0,
        paper: paper.to_string(),
        item: item.to_string(),
        page: page.to_string(),
        quantity: quantity.to_string(),
        value: value.to_string(),
        unit: unit.to_string(),
        experiment,
        select,
        measure,
        check,
        notes: notes.to_string(),
        cause: cause.to_string(),
    })
}

fn parse_select(s: &str) -> Result<Select, String> {
    let mut filters = Vec::new();
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (at, contains) = match (part.find('='), part.find('~')) {
            (Some(e), Some(t)) if t < e => (t, true),
            (Some(e), _) => (e, false),
            (None, Some(t)) => (t, true),
            (None, None) => {
                return Err(format!(
                    "select `{part}`: expected field=value or field~text"
                ))
            }
        };
        let name = part[..at].trim();
        let field = by_name::<Field>(name).map_err(|e| format!("select `{part}`: field: {e}"))?;
        filters.push(Filter {
            field,
            contains,
            text: part[at + 1..].trim().to_string(),
        });
    }
    Ok(Select(filters))
}

/// Checks that every item of `papers` that names an experiment names one of `known` (the
/// experiments of its paper); the error names the line.
pub fn check_experiments(
    values: &[PaperValue],
    path: &Path,
    known: &BTreeMap<String, Vec<String>>,
) -> Result<(), ReproError> {
    for v in values {
        let Some(e) = &v.experiment else { continue };
        let names = known.get(&v.paper).map(Vec::as_slice).unwrap_or(&[]);
        if !names.contains(e) {
            return Err(ReproError::Line {
                path: path.to_path_buf(),
                line: v.line,
                what: format!(
                    "item `{}` of paper {} names experiment `{e}`, which no repro experiment of that paper defines (it has: {})",
                    v.item,
                    v.paper,
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                ),
            });
        }
    }
    Ok(())
}

/// Our value of an item.
#[derive(Clone, Debug, PartialEq)]
pub enum Ours {
    /// A number.
    Num(f64),
    /// Text (statuses, counts).
    Text(String),
}

impl fmt::Display for Ours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ours::Num(x) => f.write_str(&significant(*x)),
            Ours::Text(t) => f.write_str(t),
        }
    }
}

/// The verdict of one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Ours agrees with the paper under the item's check.
    Reproduced,
    /// Ours does not.
    Differs,
    /// Ours does not, or no row matches the item, in a `--quick` run: its fewer instances and
    /// trials and shorter limits may be the cause, so only a full run can judge.
    Unjudged,
    /// Not measured (yet): no experiment, or no rows in a full run.
    NotYet,
}

impl Verdict {
    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Differs => "differs",
            Verdict::Unjudged => "quick: not judged",
            Verdict::NotYet => "not yet",
        }
    }
}

/// One item judged.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The item.
    pub value: PaperValue,
    /// Ours, when measured.
    pub ours: Option<Ours>,
    /// `×r` (ours/paper), `=` or `≠`.
    pub agreement: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in one line.
    pub reason: String,
}

/// Judges every item against the rows of its experiment (`rows` by experiment name). An item
/// whose experiment did not run, or whose selection keeps no row of a full run, is `not yet`;
/// one that differs, or keeps no row, in an experiment of `quick` (run with `--quick`) is
/// `quick: not judged`.
pub fn compare(
    values: &[PaperValue],
    rows: &BTreeMap<String, Vec<Row>>,
    quick: &BTreeSet<String>,
) -> Vec<Comparison> {
    values.iter().map(|v| judge(v, rows, quick)).collect()
}

/// What a `--quick` run changes, in the reasons of the items it cannot judge.
const QUICK_LIMITS: &str = "(fewer instances and trials, shorter limits)";

fn judge(
    v: &PaperValue,
    rows: &BTreeMap<String, Vec<Row>>,
    quick: &BTreeSet<String>,
) -> Comparison {
    // An item with no value of ours: not yet, or (quick run) not judged.
    let unmeasured = |verdict, reason: String| Comparison {
        value: v.clone(),
        ours: None,
        agreement: "–".into(),
        verdict,
        reason,
    };
    let not_yet = |reason| unmeasured(Verdict::NotYet, reason);
    let Some(exp) = &v.experiment else {
        return not_yet(v.notes.clone());
    };
    let Some(rows) = rows.get(exp) else {
        return not_yet(format!("experiment `{exp}` did not run"));
    };
    let pick = |s: &Select| -> Vec<&Row> { rows.iter().filter(|r| s.keeps(r)).collect() };
    let a = v.measure.compute(&pick(&v.select.0));
    let ours = match (&v.select.1, a) {
        (_, None) => None,
        (None, a) => a,
        (Some(b), Some(Ours::Num(x))) => match v.measure.compute(&pick(b)) {
            Some(Ours::Num(y)) if y != 0.0 => Some(Ours::Num(x / y)),
            _ => None,
        },
        (Some(_), Some(t)) => Some(t),
    };
    let paper_num = v.value.parse::<f64>().ok().filter(|x| x.is_finite());
    let Some(ours) = ours else {
        if let Some((n, least, bound)) = paper_num.and_then(|p| outran(v, p, rows)) {
            let agreement = format!(">×{}", significant(least / bound));
            let reason = format!(
                "no answer: {n} matching trial(s) ran out of time after {} s or more, beyond the paper's at most {}",
                significant(least),
                v.value
            );
            return settle(
                v,
                quick.contains(exp),
                Ours::Num(least),
                false,
                agreement,
                reason,
            );
        }
        // A quick run keeps fewer instances and trials under shorter limits, so an item it
        // leaves without rows (say, no grid finished within the quick cap) is one it cannot
        // judge, not a missing capability.
        if quick.contains(exp) {
            return unmeasured(
                Verdict::Unjudged,
                format!("no rows of `{exp}` match this item in this --quick run {QUICK_LIMITS}; a full run can judge it"),
            );
        }
        return not_yet(format!("no rows of `{exp}` match this item in this run"));
    };
    let (ok, agreement, reason) = match (&ours, v.check) {
        (Ours::Num(x), Check::Within(k)) => {
            let p = paper_num.unwrap_or(f64::NAN);
            let r = x / p;
            let ok = r >= 1.0 / k && r <= k;
            let side = if ok { "within" } else { "beyond" };
            (
                ok,
                format!("×{}", significant(r)),
                format!(
                    "ours/paper = {}, {side} the factor {} allowed",
                    significant(r),
                    significant(k)
                ),
            )
        }
        (Ours::Num(x), Check::AtMost | Check::AtLeast) => {
            let p = paper_num.unwrap_or(f64::NAN);
            let most = v.check == Check::AtMost;
            let ok = if most { *x <= p } else { *x >= p };
            let word = if most { "at most" } else { "at least" };
            let not = if ok { "" } else { "not " };
            (
                ok,
                format!("×{}", significant(x / p)),
                format!(
                    "ours {} is {not}{word} the paper's {}",
                    significant(*x),
                    v.value
                ),
            )
        }
        (Ours::Num(x), Check::Range(a, b)) => {
            let ok = *x >= a && *x <= b;
            let word = if ok { "inside" } else { "outside" };
            (
                ok,
                if ok { "in range" } else { "out of range" }.to_string(),
                format!(
                    "ours {} is {word} [{}, {}], the paper's claim",
                    significant(*x),
                    significant(a),
                    significant(b)
                ),
            )
        }
        (o, Check::Equal) => {
            let ok = match (o, paper_num) {
                (Ours::Num(x), Some(p)) => (x - p).abs() <= 1e-9 * p.abs().max(1.0),
                _ => o.to_string() == v.value,
            };
            (
                ok,
                if ok { "=" } else { "≠" }.to_string(),
                if ok {
                    format!("the same {}", v.quantity)
                } else {
                    format!("ours {o}, the paper's {}", v.value)
                },
            )
        }
        (Ours::Text(t), _) => (false, "≠".into(), format!("ours `{t}` is not a number")),
    };
    settle(v, quick.contains(exp), ours, ok, agreement, reason)
}

/// The verdict of an item with a value of ours: `ok` under its check, in a full or quick run.
fn settle(
    v: &PaperValue,
    quick: bool,
    ours: Ours,
    ok: bool,
    agreement: String,
    reason: String,
) -> Comparison {
    let (verdict, reason) = match (ok, quick) {
        (true, _) => (Verdict::Reproduced, reason),
        (false, false) if v.cause.is_empty() => (Verdict::Differs, reason),
        (false, false) => (
            Verdict::Differs,
            format!("{reason}; measured cause: {}", v.cause),
        ),
        (false, true) => (
            Verdict::Unjudged,
            format!("{reason}; a --quick run {QUICK_LIMITS} cannot judge this, a full run can"),
        ),
    };
    Comparison {
        value: v.clone(),
        ours: Some(ours),
        agreement,
        verdict,
        reason,
    }
}

/// An at-most wall-time item whose selection keeps no row, while every trial it would have
/// judged (the same selection without its `status` filter) ran out of time past the paper's
/// bound: ours is above the bound whatever the answer's time would have been, a value known
/// only from below that still decides the item. The number of such trials, the shortest of
/// their times (s) and the bound.
fn outran(v: &PaperValue, bound: f64, rows: &[Row]) -> Option<(usize, f64, f64)> {
    let wall = matches!(
        v.measure,
        Measure::WallS | Measure::MeanWallS | Measure::MaxWallS
    );
    if v.check != Check::AtMost || !wall || v.select.1.is_some() {
        return None;
    }
    let open = Select(
        v.select
            .0
             .0
            .iter()
            .filter(|f| f.field != Field::Status)
            .cloned()
            .collect(),
    );
    let tried: Vec<&Row> = rows.iter().filter(|r| open.keeps(r)).collect();
    let all_out = !tried.is_empty() && tried.iter().all(|r| r.status == TrialStatus::Timeout);
    let least = tried
        .iter()
        .map(|r| r.wall_ms / 1000.0)
        .fold(f64::INFINITY, f64::min);
    (all_out && least >= bound).then_some((tried.len(), least, bound))
}

/// How many items have each verdict.
pub fn counts(cs: &[Comparison]) -> BTreeMap<Verdict, usize> {
    let mut m = BTreeMap::new();
    for c in cs {
        *m.entry(c.verdict).or_insert(0) += 1;
    }
    m
}

/// `12 reproduced, 3 differs, 2 not yet` (and `, 4 quick: not judged` when a quick run left
/// some).
pub fn counts_text(cs: &[Comparison]) -> String {
    let m = counts(cs);
    [
        Verdict::Reproduced,
        Verdict::Differs,
        Verdict::NotYet,
        Verdict::Unjudged,
    ]
    .iter()
    .filter(|v| **v != Verdict::Unjudged || m.contains_key(v))
    .map(|v| format!("{} {}", m.get(v).copied().unwrap_or(0), v.name()))
    .collect::<Vec<_>>()
    .join(", ")
}

fn ours_text(c: &Comparison) -> String {
    c.ours.as_ref().map_or("–".into(), Ours::to_string)
}

/// The grids of `Group | Row | Column` items: group → (rows, columns, cells).
type Grids<'a> = Vec<(
    String,
    Vec<String>,
    Vec<String>,
    BTreeMap<(String, String), &'a Comparison>,
)>;

fn grids(cs: &[Comparison]) -> Grids<'_> {
    let mut out: Grids<'_> = Vec::new();
    for c in cs {
        let parts: Vec<&str> = c.value.item.split(" | ").map(str::trim).collect();
        let [g, r, col] = parts.as_slice() else {
            continue;
        };
        let i = match out.iter().position(|x| x.0 == *g) {
            Some(i) => i,
            None => {
                out.push((g.to_string(), vec![], vec![], BTreeMap::new()));
                out.len() - 1
            }
        };
        let e = &mut out[i];
        if !e.1.iter().any(|x| x == r) {
            e.1.push(r.to_string());
        }
        if !e.2.iter().any(|x| x == col) {
            e.2.push(col.to_string());
        }
        e.3.insert((r.to_string(), col.to_string()), c);
    }
    out
}

/// One comparison row's cells: paper, item, page, quantity, the paper's value (with its unit),
/// ours, ours/paper, verdict, reason.
fn fields(c: &Comparison) -> [String; 9] {
    let v = &c.value;
    let unit = match v.unit.as_str() {
        "" | "status" | "count" | "-" => String::new(),
        u => format!(" {u}"),
    };
    [
        // Pages show the paper's name; the CSV keeps the values file's number.
        paper(&v.paper).map_or_else(|| v.paper.clone(), |p| p.name.to_string()),
        v.item.clone(),
        v.page.clone(),
        v.quantity.clone(),
        format!("{}{unit}", v.value),
        ours_text(c),
        c.agreement.clone(),
        c.verdict.name().to_string(),
        c.reason.clone(),
    ]
}

/// The comparison as Markdown: one row per item, then each `Group | Row | Column` group laid out
/// as the paper lays it out (paper / ours per cell).
pub fn markdown(title: &str, cs: &[Comparison]) -> String {
    let m = escape::markdown;
    let mut s = format!("# {}\n\n{}.\n\n", m(title), counts_text(cs));
    s.push_str(
        "| Paper | Item | Page | Quantity | Paper value | Ours | Ours/paper | Verdict | Reason |\n",
    );
    s.push_str("| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |\n");
    for c in cs {
        let row: Vec<String> = fields(c).iter().map(|f| m(f)).collect();
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    for (g, rows, cols, cells) in grids(cs) {
        let _ = write!(s, "\n## {} (paper / ours)\n\n| |", m(&g));
        for col in &cols {
            let _ = write!(s, " {} |", m(col));
        }
        s.push_str("\n| --- |");
        s.push_str(&" ---: |".repeat(cols.len()));
        s.push('\n');
        for r in &rows {
            let _ = write!(s, "| {} |", m(r));
            for col in &cols {
                let cell = cells
                    .get(&(r.clone(), col.clone()))
                    .map_or(String::new(), |c| {
                        format!("{} / {}", c.value.value, ours_text(c))
                    });
                let _ = write!(s, " {} |", m(&cell));
            }
            s.push('\n');
        }
    }
    s
}

/// The comparison as a LaTeX `longtable` (needs the `longtable` package).
pub fn latex(title: &str, cs: &[Comparison]) -> String {
    let l = escape::latex;
    let mut s = format!(
        "% {}\n\\begin{{longtable}}{{lllrrrl}}\n\\caption{{{}}}\\\\\n\\hline\nItem & Page & Quantity & Paper & Ours & Ours/paper & Verdict \\\\\n\\hline\n\\endhead\n",
        counts_text(cs),
        l(title)
    );
    for c in cs {
        // Item to verdict: the paper is the caption's, the reason too long for a page.
        let row: Vec<String> = fields(c)[1..8].iter().map(|f| l(f)).collect();
        let _ = writeln!(s, "{} \\\\", row.join(" & "));
    }
    s.push_str("\\hline\n\\end{longtable}\n");
    s
}

/// The comparison as CSV (the values file's columns plus ours, agreement, verdict, reason), for
/// machines and tests.
pub fn write_csv(path: &Path, cs: &[Comparison]) -> Result<(), ReproError> {
    let werr = |e: csv::Error| ReproError::Write {
        path: path.to_path_buf(),
        what: e.to_string(),
    };
    let mut w = csv::Writer::from_path(path).map_err(werr)?;
    let extra = ["ours", "agreement", "verdict", "reason", "notes"];
    let header = COLUMNS[..6].iter().chain(extra.iter());
    w.write_record(header).map_err(werr)?;
    for c in cs {
        let v = &c.value;
        let given = [&v.paper, &v.item, &v.page, &v.quantity, &v.value, &v.unit];
        let judged = [ours_text(c), c.agreement.clone(), c.verdict.name().into()];
        let record = given.into_iter().cloned().chain(judged);
        w.write_record(record.chain([c.reason.clone(), v.notes.clone()]))
            .map_err(werr)?;
    }
    w.flush().map_err(|e| ReproError::Write {
        path: path.to_path_buf(),
        what: e.to_string(),
    })
}

/// Reads a values file from disk.
pub fn read_paper_values(path: &Path) -> Result<Vec<PaperValue>, ReproError> {
    let text = std::fs::read_to_string(path).map_err(|error| ReproError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_paper_values(&text, path)
}

mod papers;
pub use papers::{paper, Paper, CATALOGUE};

#[cfg(test)]
mod tests;
