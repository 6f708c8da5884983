//! Which clock a time comes from. Every row has the harness's clock, `wall_ms`: the method
//! call as the runner times it (for an outside program, the puzzle's way through the pipe, the
//! program's work and the answer's way back; for one started per puzzle, its start-up too).
//! Many rows also have a solver's own clock, `solve_ms`: its search alone, without start-up,
//! reading the puzzle or building a model, as the method or program reports it.
//!
//! A method of ours that reports no own clock is timed on its search by the harness already
//! (the puzzle is in memory, nothing starts): its own time is `wall_ms` less any model building
//! (`build_ms`). An outside program that reports none has no own time.
//!
//! [`on_own_clock`] puts a run's rows on the solvers' own clocks where every answered trial of a
//! group has one, so that tables, findings and comparisons rank by solver time on equal terms;
//! [`calibration`] sets the two clocks side by side per configuration.

use std::collections::BTreeMap;

use crate::findings::duration;
use crate::meta::config_label;
use crate::number::num;
use crate::stats::median;
use crate::Row;

/// The method name of outside programs, whose harness clock includes the pipe.
const OUTSIDE: &str = "external";

/// The row's time on the solver's own clock (ms), if it has one.
pub fn own_ms(r: &Row) -> Option<f64> {
    match r.solve_ms {
        Some(ms) => Some(ms),
        None if r.method != OUTSIDE => Some((r.wall_ms - r.build_ms.unwrap_or(0.0)).max(0.0)),
        None => None,
    }
}

/// The rows with `wall_ms` replaced by the solver's own time, in every group (kind, variant,
/// order, instance set) whose answered trials all have one; unanswered trials keep theirs (a
/// timeout is scored by its limit). Also gives the groups left on the harness's clock, as
/// `order×order instance-set` labels, for the caption that must say so.
pub fn on_own_clock(mut rows: Vec<Row>) -> (Vec<Row>, Vec<String>) {
    let group = |r: &Row| {
        (
            r.kind.clone(),
            r.variant.clone(),
            r.order,
            r.instance_set.clone(),
        )
    };
    let mut complete: BTreeMap<(String, String, usize, String), bool> = BTreeMap::new();
    for r in &rows {
        let ok = complete.entry(group(r)).or_insert(true);
        if r.success() && own_ms(r).is_none() {
            *ok = false;
        }
    }
    for r in &mut rows {
        if complete[&group(r)] && r.success() {
            if let Some(ms) = own_ms(r) {
                r.wall_ms = ms;
            }
        }
    }
    let left = complete
        .into_iter()
        .filter(|(_, ok)| !ok)
        .map(|((_, _, n, set), _)| format!("{0}×{0} {set}", n * n))
        .collect();
    (rows, left)
}

/// One configuration's two clocks on the trials that have both.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockRow {
    /// The configuration (`method params`, or its `name`).
    pub config: String,
    /// Trials with both clocks (answered ones).
    pub trials: usize,
    /// Median of the harness's clock (ms).
    pub harness_ms: f64,
    /// Median of the solver's own clock (ms).
    pub own_ms: f64,
    /// Median of the per-trial difference, harness less own (ms).
    pub difference_ms: f64,
    /// Whether the own clock is the solver's report (`solve_ms`) or the method time of one of
    /// our methods less its model building.
    pub reported: bool,
}

/// Every configuration's clocks side by side, over its answered trials that have both, in the
/// order configurations first appear.
pub fn calibration(rows: &[Row]) -> Vec<ClockRow> {
    let mut order: Vec<String> = Vec::new();
    let mut by: BTreeMap<String, Vec<(f64, f64, bool)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.success()) {
        let Some(own) = own_ms(r) else { continue };
        let label = config_label(&r.method, &r.params);
        if !by.contains_key(&label) {
            order.push(label.clone());
        }
        by.entry(label)
            .or_default()
            .push((r.wall_ms, own, r.solve_ms.is_some()));
    }
    order
        .into_iter()
        .map(|config| {
            let t = &by[&config];
            let col = |f: fn(&(f64, f64, bool)) -> f64| {
                median(&t.iter().map(f).collect::<Vec<_>>()).unwrap_or(0.0)
            };
            ClockRow {
                trials: t.len(),
                harness_ms: col(|x| x.0),
                own_ms: col(|x| x.1),
                difference_ms: col(|x| x.0 - x.1),
                reported: t.iter().all(|x| x.2),
                config,
            }
        })
        .collect()
}

/// The calibration table in Markdown, with its caption.
pub fn calibration_markdown(rows: &[ClockRow]) -> String {
    let mut out = String::from(
        "_Per configuration, over its answered trials: the median of the harness's clock \
         (`wall_ms`: the method call as the runner times it; for an `external` program the \
         puzzle's way through the pipe, the program's work and the answer's way back), of the \
         solver's own clock (`solve_ms`, its search alone: as the program reports it, or, for a \
         method of ours that reports none, its call less model building), and of the difference \
         per trial._\n\n",
    );
    out.push_str(
        "| configuration | trials | harness clock | own clock | difference | own clock from |\n",
    );
    out.push_str("|---|---:|---:|---:|---:|---|\n");
    for r in rows {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            r.config,
            r.trials,
            time(r.harness_ms),
            time(r.own_ms),
            time(r.difference_ms),
            if r.reported {
                "its report"
            } else {
                "the call less model building"
            }
        ));
    }
    out
}

/// A time for the table: microseconds below a millisecond (a pipe round trip is a few), else
/// as findings show times.
fn time(ms: f64) -> String {
    if ms.abs() < 1.0 {
        format!("{} µs", num(ms * 1000.0))
    } else {
        duration(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TrialStatus;

    fn row(method: &str, set: &str, wall: f64, build: Option<f64>, own: Option<f64>) -> Row {
        Row {
            kind: "solve".into(),
            method: method.into(),
            variant: "classic".into(),
            order: 3,
            instance_set: set.into(),
            status: TrialStatus::Solved,
            wall_ms: wall,
            build_ms: build,
            solve_ms: own,
            ..Row::default()
        }
    }

    #[test]
    fn own_time_is_the_report_else_our_call_less_building() {
        assert_eq!(own_ms(&row("prop", "a", 2.0, None, None)), Some(2.0));
        assert_eq!(own_ms(&row("ilp", "a", 5.0, Some(1.5), None)), Some(3.5));
        assert_eq!(
            own_ms(&row("sat", "a", 5.0, Some(1.0), Some(3.0))),
            Some(3.0)
        );
        assert_eq!(own_ms(&row("external", "a", 5.0, None, None)), None);
        assert_eq!(
            own_ms(&row("external", "a", 5.0, None, Some(0.5))),
            Some(0.5)
        );
    }

    #[test]
    fn groups_move_to_the_own_clock_only_when_every_answer_has_one() {
        let mut timeout = row("external", "a", 10_000.0, None, None);
        timeout.status = TrialStatus::Timeout;
        let rows = vec![
            row("prop", "a", 2.0, None, None),
            row("external", "a", 9.0, None, Some(1.0)),
            timeout,
            row("prop", "b", 2.0, None, None),
            row("external", "b", 9.0, None, None),
        ];
        let (moved, left) = on_own_clock(rows);
        let walls: Vec<f64> = moved.iter().map(|r| r.wall_ms).collect();
        assert_eq!(walls, vec![2.0, 1.0, 10_000.0, 2.0, 9.0]);
        assert_eq!(left, vec!["9×9 b".to_string()]);
    }

    #[test]
    fn calibration_sets_the_clocks_side_by_side() {
        let rows = vec![
            row("external", "a", 0.05, None, Some(0.02)),
            row("external", "a", 0.07, None, Some(0.03)),
            row("external", "a", 0.06, None, Some(0.05)),
            row("prop", "a", 0.04, None, None),
        ];
        let c = calibration(&rows);
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].trials, c[0].reported), (3, true));
        assert!((c[0].harness_ms - 0.06).abs() < 1e-12);
        assert!((c[0].own_ms - 0.03).abs() < 1e-12);
        assert!((c[0].difference_ms - 0.03).abs() < 1e-12);
        assert!(!c[1].reported && c[1].difference_ms == 0.0);
        let md = calibration_markdown(&c);
        assert!(md.contains("| `external` | 3 |"), "{md}");
    }
}
