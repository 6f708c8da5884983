//! Every number of the performance table recomputed from the fixture CSV's rows in the test,
//! by its own arithmetic, and the best entries of each block checked.

use std::collections::BTreeMap;
use std::path::Path;

use sudoku_analysis::meta::{ConfigSettings, RunSettings};
use sudoku_analysis::number::num;
use sudoku_analysis::tables::{self, TimeLimits, SGM_SHIFT_MS};
use sudoku_analysis::{parse_rows, Row, Trials};

const HEADER: &str = "task,experiment,kind,method,params,variant,order,instance_set,instance,givens,trial,seed,status,verified,wall_ms,cpu_ms,build_ms,nodes,guesses,iterations,restarts,best_cost,objective,time_to_best_ms,count,limit,extra,message,commit,repeats\n";

/// A fixture of four method configurations on two sets of order 3 and one of order 4, three
/// trials per instance, with timeouts, node-limit failures, a stuck rule solver and an error;
/// times from a fixed linear congruential sequence.
fn fixture() -> String {
    let mut text = HEADER.to_string();
    let mut x: u64 = 12345;
    let mut next = || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as f64 / (1u64 << 31) as f64
    };
    let configs = [
        ("prop", ""),
        ("dlx", ""),
        ("sa", "alpha=0.9"),
        ("logic", "rules=all"),
    ];
    let sets = [
        (3, "easy.txt", 5),
        (3, "hard|<x>.txt", 4),
        (4, "big_set.txt", 3),
    ];
    for (order, set, count) in sets {
        for (m, params) in configs {
            for i in 0..count {
                for t in 0..3 {
                    let u = next();
                    let ms = match m {
                        "prop" => 0.05 + u,
                        "dlx" => 0.2 + 3.0 * u,
                        "sa" => 5.0 + 200.0 * u,
                        _ => 0.01 + 0.1 * u,
                    };
                    let (status, ms, limit) = match m {
                        "sa" if ms > 150.0 => ("timeout", 100.0 + u, "time"),
                        "dlx" if set.starts_with("hard") && i == 0 => ("failed", ms, "nodes"),
                        "logic" if i % 2 == 1 => ("stuck", ms, ""),
                        "prop" if order == 4 && i == 2 && t == 1 => ("error", ms, ""),
                        _ => ("solved", ms, ""),
                    };
                    let set_field = if set.contains('|') {
                        format!("\"{set}\"")
                    } else {
                        set.to_string()
                    };
                    // A solution counts only with the verifier's verdict.
                    let verified = if status == "solved" { "true" } else { "" };
                    text.push_str(&format!(
                        "0,fx,solve,{m},{params},classic,{order},{set_field},{set}:{i},20,{t},1,{status},{verified},{ms},{ms},,0,0,0,0,,,,,{limit},,,c,1\n"
                    ));
                }
            }
        }
    }
    text
}

/// meta.json's settings with a recorded limit of 0.1 s for sa and 2 s for dlx; prop and logic
/// have none.
fn settings() -> RunSettings {
    let config = |label: &str, time_limit: Option<f64>| ConfigSettings {
        label: label.into(),
        trials: 3,
        repeat: 1,
        time_limit,
        node_limit: None,
        iteration_limit: None,
        orders: None,
        variants: None,
    };
    RunSettings {
        kind: "solve".into(),
        seed: 1,
        count_limit: 2,
        shard: None,
        configs: vec![
            config("sa alpha=0.9", Some(0.1)),
            config("dlx", Some(2.0)),
            config("prop", None),
        ],
        instances: 10,
        instances_digest: "0".into(),
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - h.floor()) * (sorted[hi] - sorted[lo])
}

/// What the test computes for one configuration on one set. Best marks: values equal as
/// printed count as equal.
struct Expected {
    solved: usize,
    trials: usize,
    median: Option<f64>,
    mean: Option<f64>,
    sgm: Option<f64>,
    par2: Option<f64>,
    iqr: Option<f64>,
}

fn expected(rows: &[&Row], cap: Option<f64>) -> Expected {
    let ok = |r: &&&Row| matches!(r.status.name(), "solved" | "infeasible" | "multiple");
    let mut t: Vec<f64> = rows.iter().filter(ok).map(|r| r.wall_ms).collect();
    t.sort_by(f64::total_cmp);
    let n = t.len() as f64;
    let some = !t.is_empty();
    let par2: Option<f64> = rows
        .iter()
        .map(|r| {
            if ok(&r) {
                Some(r.wall_ms)
            } else {
                cap.map(|c| 2.0 * c)
            }
        })
        .sum::<Option<f64>>()
        .map(|s| s / rows.len() as f64);
    Expected {
        solved: t.len(),
        trials: rows.len(),
        median: some.then(|| quantile(&t, 0.5)),
        mean: some.then(|| t.iter().sum::<f64>() / n),
        sgm: some.then(|| {
            (t.iter().map(|x| (x + SGM_SHIFT_MS).ln()).sum::<f64>() / n).exp() - SGM_SHIFT_MS
        }),
        par2,
        iqr: some.then(|| quantile(&t, 0.75) - quantile(&t, 0.25)),
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or("–".to_string(), num)
}

#[test]
fn every_number_of_the_performance_table_is_recomputed_from_the_csv() {
    let rows: Vec<Row> = parse_rows(fixture(), Path::new("fx.csv"), false).unwrap();
    let limits = TimeLimits::from_settings(Some(&settings()));
    assert_eq!(limits.0.len(), 2);
    let trials = Trials::of_rows(&rows);
    let perf = tables::perf_rows(&trials, &tables::config_caps(&trials, &limits));
    let md = tables::performance(&perf).markdown();

    // Caps: recorded (sa 100 ms, dlx 2000 ms); prop none recorded and no timeout: none;
    // logic: none at all.
    let cap = |m: &str| match m {
        "sa" => Some(100.0),
        "dlx" => Some(2000.0),
        _ => None,
    };
    // The test's own grouping: set → configuration → rows.
    type Configs<'a> = BTreeMap<(String, String), Vec<&'a Row>>;
    let mut sets: BTreeMap<(usize, String), Configs> = BTreeMap::new();
    for r in &rows {
        sets.entry((r.order, r.instance_set.clone()))
            .or_default()
            .entry((r.method.clone(), r.params.clone()))
            .or_default()
            .push(r);
    }
    let mut lines = md.lines().skip(2);
    let mut checked = 0;
    for ((order, set), configs) in &sets {
        let n = order * order;
        let group = lines.next().unwrap();
        assert!(
            group.starts_with(&format!(
                "| **solve · classic · {n}×{n} · {}** |",
                sudoku_analysis::escape::markdown(set)
            )),
            "{group}"
        );
        let exp: Vec<((String, String), Expected)> = configs
            .iter()
            .map(|(k, rs)| (k.clone(), expected(rs, cap(&k.0))))
            .collect();
        // Best entries, by the rule the caption states.
        let top = exp
            .iter()
            .map(|(_, e)| e.solved as f64 / e.trials as f64)
            .fold(0.0, f64::max);
        let is_top = |e: &Expected| e.solved as f64 / e.trials as f64 == top;
        let min_of = |f: &dyn Fn(&Expected) -> Option<f64>, among_top: bool| {
            exp.iter()
                .filter(|(_, e)| !among_top || is_top(e))
                .filter_map(|(_, e)| f(e))
                .fold(f64::INFINITY, f64::min)
        };
        for ((method, params), e) in &exp {
            let line = lines.next().unwrap();
            let cells: Vec<&str> = line
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim())
                .collect();
            let bold = |s: String, b: bool| if b { format!("**{s}**") } else { s };
            let timed = |v: Option<f64>, f: &dyn Fn(&Expected) -> Option<f64>| {
                bold(
                    cell(v),
                    v.is_some() && is_top(e) && cell(v) == cell(Some(min_of(f, true))),
                )
            };
            let want = vec![
                method.clone(),
                sudoku_analysis::escape::markdown(if params.is_empty() { "–" } else { params }),
                bold(format!("{}/{}", e.solved, e.trials), is_top(e)),
                timed(e.median, &|e| e.median),
                timed(e.mean, &|e| e.mean),
                timed(e.sgm, &|e| e.sgm),
                bold(
                    cell(e.par2),
                    e.par2.is_some() && cell(e.par2) == cell(Some(min_of(&|e| e.par2, false))),
                ),
                timed(e.iqr, &|e| e.iqr),
            ];
            assert_eq!(cells, want, "{set} {method}");
            checked += 1;
        }
    }
    assert_eq!(lines.next(), None);
    assert_eq!(checked, 12);
    // The fixture exercises what it should: timeouts at the recorded cap, an unknown cap
    // (logic's stuck trials: PAR-2 "–"), a configuration with none solved on no set.
    assert!(md.contains("| logic | rules=all |"));
    assert!(perf
        .iter()
        .any(|p| p.method == "logic" && p.par2_ms.is_none()));
    assert!(perf.iter().any(|p| p.method == "sa" && p.solved < p.trials));
    assert!(perf
        .iter()
        .any(|p| p.method == "prop" && p.solved < p.trials && p.par2_ms.is_none()));

    // The same table in LaTeX and HTML: booktabs rules, bold, escaped set names.
    let tex = tables::performance_latex(&perf);
    assert!(tex.contains("\\toprule") && tex.contains("\\midrule") && tex.contains("\\bottomrule"));
    assert!(
        tex.contains("\\textbf{")
            && tex.contains("hard\\textbar{}\\textless{}x\\textgreater{}.txt")
    );
    assert!(tex.contains("shift 1 ms"));
    let html = tables::performance_html(&perf);
    assert!(
        html.contains("<strong>") && html.contains("hard|&lt;x&gt;.txt") && !html.contains("<x>")
    );
}

#[test]
fn the_cap_falls_back_to_the_longest_timeout() {
    let text = format!(
        "{HEADER}0,fx,solve,m,,classic,3,s,s:1,20,0,1,timeout,,30.5,1,,0,0,0,0,,,,,time,,,c,1\n0,fx,solve,m,,classic,3,s,s:2,20,0,1,timeout,,30.2,1,,0,0,0,0,,,,,time,,,c,1\n0,fx,solve,m,,classic,3,s,s:3,20,0,1,solved,true,3,1,,0,0,0,0,,,,,,,,c,1\n"
    );
    let rows: Vec<Row> = parse_rows(text, Path::new("fx.csv"), false).unwrap();
    let trials = Trials::of_rows(&rows);
    let perf = tables::perf_rows(
        &trials,
        &tables::config_caps(&trials, &TimeLimits::from_settings(None)),
    );
    assert_eq!(perf[0].cap_ms, Some(30.5));
    assert_eq!(perf[0].par2_ms, Some((61.0 + 61.0 + 3.0) / 3.0));
    assert_eq!(perf[0].median_ms, Some(3.0));
}

/// Rows of one set: `sa` with 15 unsolved trials (costs 15, 14, …, 1) and one solved (cost 0),
/// `tabu` with three unsolved (costs 9, 2, 5), `prop` timed out with no cost; another set where
/// every trial of `sa` solved.
fn cost_rows() -> Vec<Row> {
    let mut text = HEADER.to_string();
    let mut row = |m: &str, set: &str, i: usize, status: &str, cost: &str| {
        let verified = if status == "solved" { "true" } else { "" };
        let limit = if status == "solved" { "" } else { "time" };
        text.push_str(&format!(
            "0,fx,solve,{m},,classic,3,{set},{set}:{i},20,0,1,{status},{verified},5,5,,0,0,0,0,{cost},,,,{limit},,,c,1\n"
        ));
    };
    for i in 0..15 {
        row("sa", "hard.txt", i, "timeout", &(15 - i).to_string());
    }
    row("sa", "hard.txt", 15, "solved", "0");
    for (i, c) in ["9", "2", "5"].into_iter().enumerate() {
        row("tabu", "hard.txt", i, "timeout", c);
    }
    row("prop", "hard.txt", 0, "timeout", "");
    row("sa", "easy.txt", 0, "solved", "0");
    parse_rows(text, Path::new("costs.csv"), false).unwrap()
}

#[test]
fn the_best_costs_of_unsolved_trials_are_listed_or_summed_up() {
    let trials = Trials::of_rows(&cost_rows());
    let md = tables::best_costs_markdown(&trials);
    assert!(
        md.starts_with("\n## Best cost of the unsolved trials\n\n"),
        "{md}"
    );
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    // Only the set with unsolved trials, only the configurations with a cost: `sa`'s 15 (more
    // than 12) summed up, `tabu`'s 3 listed in order.
    assert_eq!(
        table[2..],
        [
            "| **solve · classic · 9×9 · hard.txt** |  |  |  |",
            "| sa | – | 15/16 | 1 · median 8 · 15 |",
            "| tabu | – | 3/3 | 2, 5, 9 |",
        ],
        "{md}"
    );
    // A run whose every trial solved, or whose unsolved trials have no cost, has no section.
    let solved: Vec<Row> = cost_rows()
        .into_iter()
        .filter(|r| r.method == "prop" || r.status.name() == "solved")
        .collect();
    assert_eq!(tables::best_costs_markdown(&Trials::of_rows(&solved)), "");
}
