//! The values file (`datasets/seeds/paper_values.csv`): its columns, one [`PaperValue`] per
//! item, read line by line with a CSV splitter of its own so that every error names the line a
//! reader sees.

use std::collections::BTreeMap;
use std::path::Path;

use crate::select::parse_select;
use crate::{Check, Measure, ReproError, Select, PAPERS};

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
pub(crate) struct LineSplitter {
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
    pub(crate) fn split(&mut self, line: &str) -> Vec<String> {
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

/// Reads a values file from disk.
pub fn read_paper_values(path: &Path) -> Result<Vec<PaperValue>, ReproError> {
    let text = std::fs::read_to_string(path).map_err(|error| ReproError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_paper_values(&text, path)
}
