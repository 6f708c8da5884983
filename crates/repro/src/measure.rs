//! What an item computes from the rows it selects ([`Measure`], the `measure` column, giving
//! [`Ours`]) and how ours is judged against the paper's value ([`Check`], the `check` column).

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use sudoku_analysis::number::significant;
use sudoku_analysis::Row;

use crate::by_name;

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
    pub(crate) fn parse(s: &str) -> Result<Measure, String> {
        if let Some(key) = s.strip_prefix("fastest:") {
            if key.is_empty() || key.contains(char::is_whitespace) {
                return Err(format!("measure `{s}`: fastest:KEY needs a parameter name"));
            }
            return Ok(Measure::Fastest(key.to_string()));
        }
        by_name(s).map_err(|e| format!("measure: {e} (or fastest:KEY)"))
    }

    /// Numbers, or text (`status`, `count`).
    pub(crate) fn textual(&self) -> bool {
        matches!(self, Measure::Status | Measure::Count | Measure::Objectives)
    }

    pub(crate) fn compute(&self, rows: &[&Row]) -> Option<Ours> {
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
                let known: Vec<bool> = rows
                    .iter()
                    .filter_map(|r| r.kind_columns.as_ref()?.logic_lp()?.lp_unique)
                    .collect();
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
    pub(crate) fn parse(s: &str) -> Result<Check, String> {
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
    pub(crate) fn numeric(self) -> bool {
        matches!(self, Check::Within(_) | Check::AtMost | Check::AtLeast)
    }
}
