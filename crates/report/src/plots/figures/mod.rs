//! What each chart shows: the rows turned into [`Figure`](crate::plots::Figure)s (pure data,
//! no drawing), or the reason a chart is left out.
//!
//! One module a family of charts (`times`, `solved`, `instances`, `givens`, `traces`,
//! `sweeps`), on what they share (`common`); this one lists them in reading order.

use sudoku_analysis::{TraceRow, Trial};

use common::{Built, Data};
use givens::success_vs_givens;
use instances::{profile, scatter};
use solved::{cactus, ecdf};
use sweeps::sweeps;
use times::{boxplot, time_vs_order};
use traces::{convergence, ert};

mod common;
mod givens;
mod instances;
mod solved;
mod sweeps;
mod times;
mod traces;

/// What builds one chart from the rows.
type Builder = fn(&Data) -> Built;

/// Every chart, in reading order, with its stem.
pub(super) fn all(rows: &[Trial], traces: &[TraceRow]) -> Vec<(String, Built)> {
    let mut out = Vec::new();
    each(rows, traces, |stem, built| {
        out.push((stem, built));
        Ok::<(), ()>(())
    })
    .expect("collecting fails never");
    out
}

/// Every chart, in reading order, handed to `f` with its stem as soon as it is built, so that
/// one chart's data is held at a time (a million trials' points, each chart's own copy).
pub(super) fn each<E>(
    rows: &[Trial],
    traces: &[TraceRow],
    mut f: impl FnMut(String, Built) -> Result<(), E>,
) -> Result<(), E> {
    let d = Data::new(rows, traces);
    let charts: [(&str, Builder); 9] = [
        ("time_vs_order", time_vs_order),
        ("boxplot", boxplot),
        ("cactus", cactus),
        ("ecdf", ecdf),
        ("profile", profile),
        ("scatter", scatter),
        ("success_vs_givens", success_vs_givens),
        ("convergence", convergence),
        ("ert", ert),
    ];
    for (stem, build) in charts {
        f(stem.to_string(), build(&d))?;
    }
    for (stem, built) in sweeps(&d) {
        f(stem, built)?;
    }
    Ok(())
}

/// The configurations' names as charts draw them, sorted: a configuration's place in this list
/// is its colour and marker in every chart.
pub(super) fn configs(rows: &[Trial], traces: &[TraceRow]) -> Vec<String> {
    Data::new(rows, traces).configs
}
