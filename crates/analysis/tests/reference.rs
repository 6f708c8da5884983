//! The committed reference results read and re-summarise to the committed summary: the
//! per-configuration table followed by the performance table (time limits from meta.json), as
//! `run` and `plot` write `summary.md`.

use std::path::Path;

use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::tables::{self, TimeLimits};
use sudoku_analysis::{read_rows, summary, Row, TrialStatus};

#[test]
fn reference_results_read_and_summarise_as_committed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default-reference");
    let rows: Vec<Row> = read_rows(&dir.join("trials.csv")).unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.repeats == 1));
    assert!(rows.iter().all(|r| r.status != TrialStatus::Wrong));
    let meta = RunMeta::read(&dir).unwrap().unwrap();
    let limits = TimeLimits::from_settings(meta.settings.as_ref());
    let md = summary::markdown(&rows[0].experiment, &summary::summarise(&rows))
        + &tables::performance_markdown(&tables::perf_rows(&rows, &limits));
    let committed = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert_eq!(md, committed);
}
