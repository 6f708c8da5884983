//! What each column of `trials.csv` holds, in words: the one place docs/report.md's column
//! table is made from. The columns themselves are [`Row`]'s fields (its serde header); a test
//! keeps this table to exactly those, in their order.

use crate::{Row, TrialStatus};

/// Each column of `trials.csv`, in header order, with what it holds (Markdown).
pub const TRIAL_COLUMNS: &[(&str, &str)] = &[
    ("task", "the trial's place in the experiment's stable task order"),
    ("experiment", "the experiment's name"),
    ("kind", "`solve`, `count`, `relax`, `generate` or `logic-lp`"),
    ("method", "the method (or generator) name"),
    ("params", "its parameters, `k=v k=v`"),
    ("variant", "`classic` or `diagonal`"),
    ("order", "the order n of the grid (n²×n²)"),
    ("instance_set", "the instance set: a file name, or a generated set's description"),
    ("instance", "the instance: `file:line`, or a generated id"),
    ("givens", "the number of givens (for a carved puzzle: its clues)"),
    ("trial", "the trial number, from 0"),
    ("seed", "the trial's seed, derived from the experiment's seed, the configuration, the instance and the trial number"),
    ("status", "how the trial ended"),
    ("verified", "`true` when the answer passed the independent verifier, `false` when it failed (status `wrong`), empty when there is nothing to check"),
    ("wall_ms", "wall time of the method call (ms), model building included"),
    ("cpu_ms", "CPU time of the call (ms): every thread it ran on (for `external`, the program's and its descendants'), so it may exceed `wall_ms`"),
    ("build_ms", "the part of `wall_ms` spent building a model, where a method reports it"),
    ("nodes", "search nodes (for `sat`, conflicts)"),
    ("guesses", "branching decisions"),
    ("iterations", "iterations of a metaheuristic"),
    ("restarts", "restarts of a metaheuristic"),
    ("best_cost", "the best cost a metaheuristic reached"),
    ("objective", "the objective value (relaxations, ILP)"),
    ("time_to_best_ms", "when the best cost was reached (ms)"),
    (
        "count",
        "solutions counted (kind `count`; with status `unverified`, the count an outside program claimed and no check confirmed)",
    ),
    ("limit", "which limit ran out, if one did: `time`, `nodes` or `iterations`"),
    ("extra", "what a method reports beyond the common columns, `key=value` pairs separated by `;` (`found_by=tabu;conflicts=0` for `hybrid`, the solver version for `sat`, …)"),
    ("message", "the error or verification message"),
    ("commit", "the git commit the binary was built from (`+dirty` when the tree had changes)"),
    ("repeats", "the best-of-R count behind the times (`repeat` in the experiment file; files without the column read as 1)"),
    ("rules_needed", "kind `logic-lp`: the smallest rule set that solves the puzzle (`singles`, `pigeonhole`, `two-unit`, `all`) or `none`"),
    ("lp_integral", "kind `logic-lp`: whether the LP relaxation's optimum is integral (empty when infeasible)"),
    ("lp_unique", "kind `logic-lp`: whether the LP polytope is that one integral point"),
    ("peak_rss_kb", "the peak resident memory of the trial (KiB; the largest over repeats), empty where it cannot be read"),
    ("threads", "how many threads the call ran on at once (1 for every method but `hybrid` with its second search; files without the column read as 1)"),
    ("solve_ms", "the solver's own clock (ms): its search alone, as the method or outside program reports it (`# stats solve_ms=`; CaDiCaL's time for `sat`); empty where it reports none"),
];

/// The header of `trials.csv`, as the CSV writer makes it from [`Row`] (a kind's own columns
/// in place of the field that holds them).
pub fn trial_header() -> Vec<String> {
    // Only a row that is no struct has no header, which Row is not.
    crate::header::csv_header(&Row::default())
        .map(|names| names.into_iter().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The column table as Markdown (docs/report.md's): each column and what it holds, the
/// statuses named in full.
pub fn markdown() -> String {
    let statuses: Vec<String> = TrialStatus::ALL
        .iter()
        .map(|s| format!("`{}`", s.name()))
        .collect();
    let mut out = String::from("| column | what it holds |\n|---|---|\n");
    for (column, meaning) in TRIAL_COLUMNS {
        let more = if *column == "status" {
            format!(": {}", statuses.join(", "))
        } else {
            String::new()
        };
        out.push_str(&format!("| `{column}` | {meaning}{more} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_exactly_the_header_in_its_order() {
        let described: Vec<&str> = TRIAL_COLUMNS.iter().map(|(c, _)| *c).collect();
        assert_eq!(trial_header(), described);
        assert!(markdown().contains("| `status` | how the trial ended: `solved`, "));
    }
}
