//! The values-file parser and the judging of items.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use sudoku_analysis::Row;

use super::*;
use crate::values::LineSplitter;

const HEADER: &str =
    "paper,item,page,quantity,value,unit,experiment,select,measure,check,notes,cause\n";

fn parse(body: &str) -> Result<Vec<PaperValue>, ReproError> {
    parse_paper_values(&format!("{HEADER}{body}"), Path::new("pv.csv"))
}

fn error_text(body: &str) -> String {
    parse(body).unwrap_err().to_string()
}

fn row(method: &str, status: TrialStatus, wall_ms: f64, objective: Option<f64>) -> Row {
    Row {
        method: method.into(),
        status,
        wall_ms,
        objective,
        order: 3,
        instance_set: "s".into(),
        ..Row::default()
    }
}

use sudoku_analysis::TrialStatus;

#[test]
fn a_good_file_parses_with_its_lines() {
    let v = parse(
        "# a comment\n000,Objective,p. 16,Σk·x,405,-,000-solve,method=ilp;params~objective=weighted,objective,equal,,\n001,\"T | a | b\",In [5],time,0.047,s,001-solve,,wall_s,within:10,\"GLPK, Julia\",\n",
    )
    .unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].line, 3);
    assert_eq!(v[1].line, 4);
    assert_eq!(v[0].select.0 .0.len(), 2);
    assert_eq!(v[1].check, Check::Within(10.0));
    assert_eq!(v[1].notes, "GLPK, Julia");
}

#[test]
fn errors_name_the_file_and_line() {
    // (lines after the header, the start of the error)
    let cases = [
        (
            "000,a,p,q,1,s,x,,wall_s,equal,,\n000,b,p,q,1,s,x\n",
            "pv.csv:3: 7 fields, expected 12",
        ),
        (
            "007,a,p,q,1,s,x,,wall_s,equal,,\n",
            "pv.csv:2: unknown paper `007`",
        ),
        (
            "000,a,p,q,1,s,x,,speed,equal,,\n",
            "pv.csv:2: measure: unknown variant `speed`, expected one of `status`",
        ),
        (
            "000,a,p,q,fast,s,x,,wall_s,within:10,,\n",
            "pv.csv:2: value `fast` is not a number",
        ),
        (
            "000,a,p,q,1,s,x,colour=red,wall_s,equal,,\n",
            "pv.csv:2: select `colour=red`: field: unknown variant `colour`",
        ),
        (
            "000,a,p,q,1,s,-,,wall_s,equal,,\n",
            "pv.csv:2: experiment `-` (not yet) needs notes",
        ),
        (
            "000,a,p,q,1,s,x,,status,within:2,,\n",
            "pv.csv:2: measure `status` is text",
        ),
        (
            "000,a,p,q,1,s,x,,wall_s,within:0.5,,\n",
            "pv.csv:2: check `within:0.5`",
        ),
        (
            "000,a,p,q,1,s,x,,fastest:,equal,,\n",
            "pv.csv:2: measure `fastest:`",
        ),
    ];
    for (body, start) in cases {
        let e = error_text(body);
        assert!(e.starts_with(start), "{e}");
    }
    let e = parse_paper_values("paper,item\n", Path::new("pv.csv")).unwrap_err();
    assert!(
        e.to_string().starts_with("pv.csv:1: the header must be"),
        "{e}"
    );
}

#[test]
fn an_item_without_a_matching_experiment_names_its_line() {
    let v = parse("000,a,p,q,1,s,000-solve,,wall_s,within:10,,\n000,b,p,q,1,s,000-nothing,,wall_s,within:10,,\n").unwrap();
    let known = BTreeMap::from([("000".to_string(), vec!["000-solve".to_string()])]);
    let e = check_experiments(&v, Path::new("pv.csv"), &known)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("pv.csv:3: item `b` of paper 000 names experiment `000-nothing`"),
        "{e}"
    );
}

#[test]
fn trials_that_outran_an_at_most_bound_decide_it() {
    // "A grid in at most 20 s": the selection keeps only answers, so a run with none would
    // say nothing, unless every trial ran out of time past the bound.
    let item = |exp: &str, check: &str| {
        format!("003,grid,p,q,20,s,{exp},method=gen;status=solved,max_wall_s,{check},,\n")
    };
    let v = parse(
        &[
            item("past", "atmost"),
            item("short", "atmost"),
            item("mixed", "atmost"),
            item("answered", "atmost"),
            item("past", "atleast"),
        ]
        .concat(),
    )
    .unwrap();
    let gen = |status, ms| row("gen", status, ms, None);
    let rows = BTreeMap::from([
        (
            "past".to_string(),
            vec![gen(TrialStatus::Timeout, 25_000.0)],
        ),
        (
            "short".to_string(),
            vec![gen(TrialStatus::Timeout, 2_000.0)],
        ),
        (
            "mixed".to_string(),
            vec![
                gen(TrialStatus::Timeout, 25_000.0),
                gen(TrialStatus::Failed, 30_000.0),
            ],
        ),
        (
            "answered".to_string(),
            vec![
                gen(TrialStatus::Timeout, 25_000.0),
                gen(TrialStatus::Solved, 10_000.0),
            ],
        ),
    ]);
    use Verdict::*;
    let c = compare(&v, &rows, &BTreeSet::new());
    let verdicts: Vec<Verdict> = c.iter().map(|c| c.verdict).collect();
    assert_eq!(verdicts, [Differs, NotYet, NotYet, Reproduced, NotYet]);
    assert_eq!(c[0].ours, Some(Ours::Num(25.0)));
    assert_eq!(
        c[0].reason,
        "no answer: 1 matching trial(s) ran out of time after 25 s or more, beyond the paper's at most 20"
    );
    assert_eq!(c[3].ours, Some(Ours::Num(10.0)));
    // A quick run's cap is short of the bound: not judged, as before.
    let quick = BTreeSet::from(["short".to_string()]);
    assert_eq!(compare(&v, &rows, &quick)[1].verdict, Unjudged);
}

#[test]
fn items_are_judged_by_their_check() {
    let v = parse(concat!(
        "000,obj,p,q,405,-,e,method=ilp,objective,equal,,\n",
        "000,time,p,q,0.02,s,e,method=ilp,wall_s,within:10,,\n",
        "000,slow,p,q,0.001,s,e,method=ilp,wall_s,within:2,,\n",
        "000,status,p,q,infeasible,status,e,method=dlx,status,equal,,\n",
        "000,ratio,p,q,1,-,e,method=ilp vs method=dlx,wall_s,atmost,,\n",
        "000,none,p,q,1,-,e,method=sa,wall_s,atmost,,\n",
        "000,later,p,q,1,-,-,,wall_s,atmost,needs a SAT method,\n",
    ))
    .unwrap();
    let rows = BTreeMap::from([(
        "e".to_string(),
        vec![
            row("ilp", TrialStatus::Solved, 10.0, Some(405.0)),
            row("ilp", TrialStatus::Solved, 30.0, Some(405.0)),
            row("dlx", TrialStatus::Infeasible, 40.0, None),
        ],
    )]);
    let c = compare(&v, &rows, &BTreeSet::new());
    let verdicts: Vec<Verdict> = c.iter().map(|c| c.verdict).collect();
    use Verdict::*;
    assert_eq!(
        verdicts,
        [Reproduced, Reproduced, Differs, Reproduced, Reproduced, NotYet, NotYet]
    );
    // The same rows from a --quick run: what differs, and what no row matches, is not
    // judged; the rest stands, and an item with no experiment is still not yet.
    let quick = compare(&v, &rows, &BTreeSet::from(["e".to_string()]));
    let verdicts: Vec<Verdict> = quick.iter().map(|c| c.verdict).collect();
    assert_eq!(
        verdicts,
        [Reproduced, Reproduced, Unjudged, Reproduced, Reproduced, Unjudged, NotYet]
    );
    assert!(quick[2]
        .reason
        .ends_with("cannot judge this, a full run can"));
    assert!(
        quick[5].reason.contains("this --quick run"),
        "{}",
        quick[5].reason
    );
    assert_eq!(quick[5].ours, None);
    assert_eq!(c[5].reason, "no rows of `e` match this item in this run");
    assert_eq!(
        counts_text(&quick),
        "4 reproduced, 0 differs, 1 not yet, 2 quick: not judged"
    );
    assert_eq!(c[0].ours, Some(Ours::Num(405.0)));
    assert!(matches!(c[4].ours, Some(Ours::Num(r)) if (r - 0.5).abs() < 1e-12));
    assert_eq!(c[6].reason, "needs a SAT method");
    assert_eq!(counts_text(&c), "4 reproduced, 1 differs, 2 not yet");
    // A measured cause goes into the reason of an item that differs, and only there.
    let mut explained = v.clone();
    explained[2].cause = "with a 10 s cap it is 3 ms (`run study.toml`)".into();
    explained[0].cause = "never shown".into();
    let e = compare(&explained, &rows, &BTreeSet::new());
    assert_eq!(e[2].verdict, Differs);
    assert!(
        e[2].reason
            .ends_with("; measured cause: with a 10 s cap it is 3 ms (`run study.toml`)"),
        "{}",
        e[2].reason
    );
    assert_eq!(e[0].reason, c[0].reason);
    let md = markdown("t", &c);
    // Pages show the paper by name.
    assert!(md.contains("| unicamp-ilp | obj |"), "{md}");
}

#[test]
fn grid_items_are_laid_out_as_a_grid() {
    let v = parse(concat!(
        "000,\"T | easy | 1\",p,q,0.02,s,e,,wall_s,within:10,,\n",
        "000,\"T | easy | 2\",p,q,0.03,s,e,,wall_s,within:10,,\n",
        "000,\"T | hard | 1\",p,q,0.05,s,e,,wall_s,within:10,,\n",
    ))
    .unwrap();
    let rows = BTreeMap::from([(
        "e".to_string(),
        vec![row("ilp", TrialStatus::Solved, 20.0, None)],
    )]);
    let md = markdown("t", &compare(&v, &rows, &BTreeSet::new()));
    assert!(md.contains("## T (paper / ours)"), "{md}");
    assert!(
        md.contains("| easy | 0.02 / 0.0200 | 0.03 / 0.0200 |"),
        "{md}"
    );
    assert!(md.contains("| hard | 0.05 / 0.0200 |  |"), "{md}");
}

#[test]
fn hardest_givens_is_the_set_with_the_lowest_success() {
    let mk = |set: &str, givens: usize, status, wall_ms| Row {
        instance_set: set.into(),
        givens,
        status,
        wall_ms,
        order: 3,
        ..Row::default()
    };
    let rows = [
        mk("a", 20, TrialStatus::Solved, 1.0),
        mk("b", 36, TrialStatus::Timeout, 9.0),
        mk("b", 36, TrialStatus::Solved, 3.0),
        mk("c", 60, TrialStatus::Solved, 1.0),
    ];
    let hardest = |rows: &[Row]| {
        let refs: Vec<&Row> = rows.iter().collect();
        match Measure::HardestGivens.compute(&refs) {
            Some(Ours::Num(g)) => g,
            other => panic!("{other:?}"),
        }
    };
    assert!((hardest(&rows) - 36.0 / 81.0).abs() < 1e-12);
    // All solved: the slowest set is the hardest.
    let solved = [
        mk("a", 20, TrialStatus::Solved, 1.0),
        mk("b", 36, TrialStatus::Solved, 7.0),
        mk("c", 60, TrialStatus::Solved, 2.0),
    ];
    assert!((hardest(&solved) - 36.0 / 81.0).abs() < 1e-12);
}
#[test]
fn lines_split_as_csv_with_one_reader_for_all() {
    let mut s = LineSplitter::default();
    // The same reader must forget each line's state: an open quote does not leak into the next.
    let cases: [(&str, &[&str]); 5] = [
        ("a,b,\"c,d\"", &["a", "b", "c,d"]),
        ("\"open,quote", &["open,quote"]),
        ("x,,\"say \"\"hi\"\"\",", &["x", "", "say \"hi\"", ""]),
        ("ä×,\"ö,ü\"", &["ä×", "ö,ü"]),
        ("solo", &["solo"]),
    ];
    for (line, want) in cases {
        assert_eq!(s.split(line), want, "{line}");
    }
}
