//! What `sudoku-report` writes for a run: the files in their order, the critical-difference
//! diagram from the statistics, each chart's SVG written once and inlined in the page, and
//! text from data files escaped in the drawings.

use sudoku_analysis::{Row, RunOutputs, TrialStatus};
use sudoku_report::plots::cd_svg;

/// `per` instances of order 3, two trials each, of three methods whose times keep their order on
/// every instance (`fast` < `mid` < `slow`).
fn three_methods(names: [&str; 3], per: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (k, m) in names.iter().enumerate() {
        for i in 0..per {
            for trial in 0..2 {
                rows.push(Row {
                    task: rows.len(),
                    experiment: "t".into(),
                    kind: "solve".into(),
                    method: m.to_string(),
                    variant: "classic".into(),
                    order: 3,
                    instance_set: "set.txt".into(),
                    instance: format!("set.txt:{i}"),
                    trial,
                    status: TrialStatus::Solved,
                    wall_ms: (1 + 4 * k + i) as f64,
                    cpu_ms: (1 + 4 * k + i) as f64,
                    repeats: 1,
                    threads: 1,
                    ..Row::default()
                });
            }
        }
    }
    rows
}

#[test]
fn a_run_writes_its_text_then_its_drawings_each_svg_once() {
    let run = RunOutputs::new(
        "t",
        three_methods(["fast", "mid", "slow"], 8),
        Vec::new(),
        None,
    );
    let svg = cd_svg(&run.comparisons).unwrap().unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("CD = ") && svg.contains("slow (3.00)"));

    // The summaries, then the statistics and the diagram, the charts and the page; without
    // charts no diagram, and an earlier one is removed.
    let dir = tempfile::tempdir().unwrap();
    let names = |charts: bool| -> Vec<String> {
        sudoku_report::write(&run, dir.path(), charts)
            .unwrap()
            .files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    let all = names(true);
    assert_eq!(
        all[..7],
        [
            "summary.csv",
            "summary.md",
            "summary.tex",
            "stats.md",
            "stats.tex",
            "findings.md",
            "cd.svg"
        ]
    );
    assert_eq!(all.last().map(String::as_str), Some("report.html"));
    // Every chart's SVG is in the page as written to its file (after its XML prolog).
    let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    for svg in all.iter().filter(|f| f.ends_with(".svg") && *f != "cd.svg") {
        let text = std::fs::read_to_string(dir.path().join(svg)).unwrap();
        let body = &text[text.find("<svg").unwrap()..];
        let inner = &body[body.find('>').unwrap() + 1..];
        assert!(page.contains(inner), "{svg} is not inlined as written");
    }
    assert_eq!(
        names(false),
        [
            "summary.csv",
            "summary.md",
            "summary.tex",
            "stats.md",
            "stats.tex",
            "findings.md"
        ]
    );
    assert!(!dir.path().join("cd.svg").exists());
}

#[test]
fn names_from_data_are_escaped_in_the_diagram() {
    let rows = three_methods(["<b>x|y</b>", "a_b", "c&d"], 6);
    let run = RunOutputs::new("t", rows, Vec::new(), None);
    let svg = cd_svg(&run.comparisons).unwrap().unwrap();
    assert!(!svg.contains("<b>"));
}

#[test]
fn non_finite_times_draw_no_diagram_and_do_not_panic() {
    let mut rows = three_methods(["a", "b", "c"], 7);
    rows[0].wall_ms = f64::NAN;
    rows[14].wall_ms = f64::INFINITY;
    let run = RunOutputs::new("t", rows, Vec::new(), None);
    let _ = cd_svg(&run.comparisons).unwrap();
}
