//! Each item judged against the rows of its experiment: ours computed by its measure, its
//! check applied, and the verdict with its reason ([`Comparison`]).

use std::collections::{BTreeMap, BTreeSet};

use sudoku_analysis::number::significant;
use sudoku_analysis::{Row, TrialStatus};

use crate::{Check, Field, Measure, Ours, PaperValue, Select};

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
