//! Every row is checked before any statistic: the committed results pass the checks (each
//! against its own meta.json's settings), and a damaged row is named by file, line and column.

use std::path::{Path, PathBuf};

use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{parse_checked, read_checked, visit_checked, Row, TraceRow};

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

/// A file read a row at a time (`visit_checked`, what `plot` does) refuses what reading its
/// text whole refuses, with the same words: a trial twice, two experiments, a torn last line,
/// bytes that are not text.
#[test]
fn a_file_read_a_row_at_a_time_is_checked_as_its_whole_text() {
    const HEADER: &str = "task,experiment,kind,method,params,variant,order,instance_set,instance,givens,trial,seed,status,verified,wall_ms,cpu_ms,build_ms,nodes,guesses,iterations,restarts,best_cost,objective,time_to_best_ms,count,limit,extra,message,commit,repeats\n";
    let row = |exp: &str, trial: u32| {
        format!("0,{exp},solve,prop,,classic,3,s,s:1,30,{trial},1,solved,true,1.5,1.5,,0,0,0,0,,,,,,,,c,1\n")
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trials.csv");
    let both = |text: &[u8]| {
        std::fs::write(&path, text).unwrap();
        let mut n = 0;
        let streamed = visit_checked::<Row>(&path, None, |_| n += 1)
            .map(|()| n)
            .map_err(|e| e.to_string());
        let whole = match String::from_utf8(text.to_vec()) {
            Ok(t) => parse_checked::<Row>(t, &path, false, None)
                .map(|r| r.len())
                .map_err(|e| e.to_string()),
            Err(_) => read_checked::<Row>(&path, None)
                .map(|r| r.len())
                .map_err(|e| e.to_string()),
        };
        assert_eq!(streamed, whole);
        streamed
    };
    let good = format!("{HEADER}{}{}", row("t", 0), row("t", 1));
    assert_eq!(both(good.as_bytes()), Ok(2));
    assert_eq!(both(b""), Ok(0));
    let twice = format!("{good}{}", row("t", 1));
    assert!(both(twice.as_bytes())
        .unwrap_err()
        .contains("line 4, column `trial`: the trial of line 3 again"));
    let other = format!("{good}{}", row("u", 2));
    assert!(both(other.as_bytes())
        .unwrap_err()
        .contains("line 4, column `experiment`: `u`, but line 2 is of `t`"));
    let torn = &good[..good.len() - 3];
    assert!(both(torn.as_bytes())
        .unwrap_err()
        .contains("line 3 is cut off (no newline at its end)"));
    let mut latin1 = good.clone().into_bytes();
    let at = latin1.len() - 4;
    latin1[at] = 0xe9;
    let e = both(&latin1).unwrap_err();
    assert!(
        e.ends_with("trials.csv: line 3 is not valid UTF-8 text"),
        "{e}"
    );
}
