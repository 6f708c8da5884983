//! Every row is checked before any statistic: the committed results pass the checks (each
//! against its own meta.json's settings), and a damaged row is named by file, line and column.

use std::path::{Path, PathBuf};

use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{parse_checked, read_checked, Row, TraceRow};

fn results_folders(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.join("trials.csv").exists() {
                out.push(p.clone());
            }
            results_folders(&p, out);
        }
    }
}

#[test]
fn every_committed_run_passes_the_row_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut folders = Vec::new();
    results_folders(&root, &mut folders);
    assert!(folders.len() >= 10, "{folders:?}");
    let mut rows = 0;
    for dir in &folders {
        let meta = RunMeta::read(dir).unwrap();
        let settings = meta.as_ref().and_then(|m| m.settings.as_ref());
        rows += read_checked::<Row>(&dir.join("trials.csv"), settings)
            .unwrap_or_else(|e| panic!("{e}"))
            .len();
        let traces = dir.join("traces.csv");
        if traces.exists() {
            read_checked::<TraceRow>(&traces, settings).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert!(rows > 10_000, "{rows}");
}

#[test]
fn a_damaged_row_is_named_by_line_and_column() {
    const HEADER: &str = "task,experiment,kind,method,params,variant,order,instance_set,instance,givens,trial,seed,status,verified,wall_ms,cpu_ms,build_ms,nodes,guesses,iterations,restarts,best_cost,objective,time_to_best_ms,count,limit,extra,message,commit,repeats\n";
    let row = |trial: u32, status: &str, verified: &str, limit: &str| {
        format!("0,t,solve,prop,,classic,3,s,s:1,30,{trial},1,{status},{verified},1.5,1.5,,0,0,0,0,,,,,{limit},,,c,1\n")
    };
    let read = |rows: &[String]| {
        parse_checked::<Row>(
            format!("{HEADER}{}", rows.concat()),
            Path::new("t.csv"),
            false,
            None,
        )
        .map(|r| r.len())
        .map_err(|e| e.to_string())
    };
    assert_eq!(
        read(&[row(0, "solved", "true", ""), row(1, "timeout", "", "time")]),
        Ok(2)
    );
    for (bad, why) in [
        (
            row(1, "wrong", "", ""),
            "column `verified`: empty with status `wrong`",
        ),
        (
            row(1, "solved", "", ""),
            "column `verified`: empty with status `solved` (kind `solve`): a solution counts only once the verifier passed it",
        ),
        (
            row(1, "solved", "yes", ""),
            "column `verified`: `yes` is not `true`, `false` or empty",
        ),
        (
            row(1, "sol\0ved", "true", ""),
            "column `status`: `sol\\0ved` is not valid: unknown variant `sol\\0ved`",
        ),
        (
            row(1, "timeout", "", ""),
            "column `limit`: `` with status `timeout`",
        ),
        (
            row(1, "solved", "true", "nodes"),
            "column `limit`: `nodes` with status `solved`",
        ),
        (
            row(1, "solved", "true", "").replace("classic", "sideways"),
            "column `variant`: `sideways` is not a variant",
        ),
        (
            row(1, "solved", "true", "").replace(",1.5,1.5,,", ",1.5,1.5,-2,"),
            "column `build_ms`: -2 is not a time",
        ),
    ] {
        let e = read(&[row(0, "solved", "true", ""), bad]).unwrap_err();
        assert!(e.starts_with(&format!("t.csv: line 3, {why}")), "{e}");
    }
    // A file without the column: every solved row would read as unverified.
    let without = |text: &str| {
        text.lines()
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                format!("{},{}\n", f[..13].join(","), f[14..].join(","))
            })
            .collect::<String>()
    };
    let text = without(&format!("{HEADER}{}", row(0, "solved", "true", "")));
    let e = parse_checked::<Row>(text, Path::new("t.csv"), false, None).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("t.csv: line 1, column `verified`: no such column in the header"),
        "{e}"
    );
}
