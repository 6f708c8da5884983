//! Statistics across the process boundary, end to end: `sat` on a 36×36 puzzle under a time
//! limit solves in a forked child (`sudoku-isolate`), and what the child counted reaches the
//! statistic columns of `trials.csv` exactly as the same call reports it in this process.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use sudoku_core::{format, rng_from_seed, Budget, Solver};
use sudoku_fixtures::carved_pattern;
use sudoku_sat::{Sat, Session};

mod binary;

/// One row of trials.csv, by column name.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    binary::csv_rows(path)
}

#[test]
fn a_forked_childs_statistics_reach_trials_csv() {
    let puzzle = carved_pattern(6, 0.35, 5);
    assert!(
        Session::needs_isolation(&puzzle),
        "a 36x36 under a time limit runs in a child"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format::to_text(puzzle.givens())).unwrap();
    let exp = dir.path().join("forked.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"forked\"\nseed = 1\n[budget]\ntime_limit = 120.0\n[[method]]\nname = \"sat\"\n[[instances]]\nfile = \"{}\"\n",
            file.display()
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .args(["run", exp.to_str().unwrap()])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = rows(&dir.path().join("results/forked/trials.csv"));
    let [row] = rows.as_slice() else {
        panic!("one trial, got {rows:?}")
    };
    assert_eq!(row["status"], "solved");
    // The same call here, without a limit: no child, the reference statistics.
    let here = Sat::default().solve(&puzzle, &Budget::unlimited(), &mut rng_from_seed(1));
    let stats = here.stats;
    assert!(stats.nodes > 0, "the puzzle needs conflicts: {stats:?}");
    let columns = [
        ("nodes", stats.nodes),
        ("guesses", stats.guesses),
        ("iterations", stats.iterations),
        ("restarts", stats.restarts),
    ];
    for (column, value) in columns {
        assert_eq!(row[column], value.to_string(), "column {column}");
    }
    assert!(row["build_ms"].parse::<f64>().unwrap() > 0.0);
    // `extra` crossed whole: the child's counts, in the child's order (its times differ).
    let forked: Vec<&str> = row["extra"].split(';').collect();
    let keys = |pairs: &[&str]| -> Vec<String> {
        pairs
            .iter()
            .map(|p| p.split('=').next().unwrap_or("").to_string())
            .collect()
    };
    let reference: Vec<String> = stats
        .extra
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let reference: Vec<&str> = reference.iter().map(String::as_str).collect();
    assert_eq!(keys(&forked), keys(&reference));
    for (got, want) in forked.iter().zip(&reference) {
        if !got.contains("_time") {
            assert_eq!(got, want);
        }
    }
}
