//! `repro` through the binary: `repro unicamp-ilp --quick` reproduces the exact items of that
//! paper, papers are found by name or number, and a paper values file that does not parse, or
//! names an experiment that does not exist, is an error naming its line before anything runs.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `sudoku-bench repro ARGS` from the workspace root (dataset paths are relative to it).
fn repro(args: &[&str]) -> Output {
    let bin = env!("CARGO_BIN_EXE_sudoku-bench");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cmd = Command::new(bin);
    cmd.arg("repro").args(args).current_dir(workspace);
    cmd.output().expect("the binary runs")
}

/// item → (ours, verdict) from comparison.csv.
fn comparison(dir: &Path) -> HashMap<String, (String, String)> {
    let mut r = csv::Reader::from_path(dir.join("comparison.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let (item, ours, verdict) = (col("item"), col("ours"), col("verdict"));
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[item].to_string(),
                (rec[ours].to_string(), rec[verdict].to_string()),
            )
        })
        .collect()
}

#[test]
fn repro_unicamp_ilp_quick_reproduces_the_exact_items() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("repro-unicamp-ilp");
    let o = repro(&[
        "unicamp-ilp",
        "--quick",
        "--no-plots",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    for f in ["comparison.md", "comparison.tex", "comparison.csv"] {
        assert!(out.join(f).exists(), "{f}");
    }
    for e in ["000-solve", "000-count", "000-empty"] {
        assert!(out.join(e).join("trials.csv").exists(), "{e}");
    }
    let c = comparison(&out);
    for (item, ours) in [
        ("Objective Σk·x on every solution", "405"),
        ("Figure 4: classic infeasible", "infeasible"),
        ("Figure 5: diagonal infeasible", "infeasible"),
        ("Figure 7: Figure 5a as classic is feasible", "solved"),
        ("Figure 6a: empty classic grid", "solved"),
        ("Figure 6b: empty diagonal grid", "solved"),
        ("Figure 2a as Sudoku-X: unique", "1"),
        ("Figure 2a as classic: several (Figure 8)", "multiple"),
        ("Figure 9: exactly two solutions", "2"),
        ("Figure 10a: Z1 = -x(1,1,1) selects a(1,1) = 1", "-1"),
        ("Figure 10b: Z2 = x(1,1,1) selects a(1,1) = 2", "0"),
        ("§4.4 puzzles: unique, so ours is the printed solution", "1"),
    ] {
        let got = c.get(item).unwrap_or_else(|| panic!("no item {item:?}"));
        assert_eq!(got, &(ours.to_string(), "reproduced".to_string()), "{item}");
    }
    // The timing table in the paper's layout: 9 puzzles x 5 trials, each with a value of ours.
    let cells: Vec<_> = c
        .iter()
        .filter(|(k, _)| k.starts_with("Table §4.3 |") && k.contains("| trial "))
        .collect();
    assert_eq!(cells.len(), 45);
    assert!(cells
        .iter()
        .all(|(_, (ours, v))| ours != "–" && v != "not yet"));
    let md = std::fs::read_to_string(out.join("comparison.md")).unwrap();
    assert!(md.contains("## Table §4.3 (paper / ours)"), "{md}");
    // Pages name the paper; the CSV keeps the values file's number.
    assert!(md.starts_with("# Paper unicamp-ilp, Raimundo, Tartare, Carrenho, Cabrera: "));
    assert!(md.contains("| unicamp-ilp | Objective Σk·x on every solution |"));
    assert!(!md.contains("| 000 |"));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.lines().any(|l| l.starts_with("paper unicamp-ilp: ")),
        "{stdout}"
    );
    assert!(md.contains("| trial 1 | trial 2 | trial 3 | trial 4 | trial 5 | Média | Células |"));
}

const HEADER: &str =
    "paper,item,page,quantity,value,unit,experiment,select,measure,check,notes,cause\n";

/// Runs `repro 000` on a values file with `body` and returns its stderr (it must fail).
fn values_error(body: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let values = tmp.path().join("values.csv");
    std::fs::write(&values, format!("{HEADER}{body}")).unwrap();
    let o = repro(&[
        "000",
        "--quick",
        "--values",
        values.to_str().unwrap(),
        "--out",
        tmp.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!tmp.path().join("out").exists(), "nothing runs");
    String::from_utf8_lossy(&o.stderr).replace(values.to_str().unwrap(), "values.csv")
}

#[test]
fn a_bad_values_line_is_an_error_naming_it() {
    let e = values_error("000,ok,p,q,1,s,000-solve,,wall_s,within:10,,\n000,short,p\n");
    assert!(e.contains("values.csv:3: 3 fields, expected 12"), "{e}");
}

#[test]
fn an_unknown_paper_is_an_error_naming_its_line() {
    let e = values_error("999,x,p,q,1,s,000-solve,,wall_s,within:10,,\n");
    assert!(e.contains("values.csv:2: unknown paper `999`"), "{e}");
}

#[test]
fn an_item_without_a_matching_experiment_is_an_error_naming_its_line() {
    let e = values_error(
        "000,fine,p,q,1,s,000-solve,,wall_s,within:10,,\n000,orphan,p,q,1,s,000-nope,,wall_s,within:10,,\n",
    );
    assert!(
        e.contains("values.csv:3: item `orphan` of paper 000 names experiment `000-nope`"),
        "{e}"
    );
}

#[test]
fn an_unknown_paper_argument_is_refused() {
    let o = repro(&["005", "--quick"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unknown paper `005` (expected one of unicamp-ilp, jump, takano, raggi, teles, lewis, or all"),
        "{e}"
    );
}

#[test]
fn help_lists_the_papers_by_name_number_and_authors() {
    let o = repro(&["--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    for line in [
        "unicamp-ilp  000    Raimundo, Tartare, Carrenho, Cabrera",
        "takano       002    Takano, de Freitas, de Sá",
        "teles        004    Teles (2016)",
        "lewis        lewis  Lewis (2007)",
    ] {
        assert!(help.contains(line), "{line}: {help}");
    }
}

#[test]
fn a_paper_is_found_by_its_number_too() {
    let tmp = tempfile::tempdir().unwrap();
    let page = |paper: &str| {
        let out = tmp.path().join(paper);
        let o = repro(&[paper, "--compare-only", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out.join("comparison.md")).unwrap()
    };
    let by_name = page("teles");
    assert!(
        by_name.starts_with("# Paper teles, Teles (2016): "),
        "{by_name}"
    );
    assert_eq!(page("004"), by_name);
}

#[test]
fn the_shipped_values_file_parses_and_names_existing_experiments() {
    // Nothing runs: every item is `not yet`, but the file and its experiment names are checked.
    let tmp = tempfile::tempdir().unwrap();
    let o = repro(&[
        "all",
        "--compare-only",
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for p in ["unicamp-ilp", "jump", "takano", "raggi", "teles", "lewis"] {
        let c = comparison(&tmp.path().join(format!("repro-{p}")));
        assert!(!c.is_empty(), "{p}");
        assert!(c.values().all(|(_, v)| v == "not yet"), "{p}");
    }
}
