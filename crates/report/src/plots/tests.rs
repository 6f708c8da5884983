//! Charts from a fixture with many methods and orders: layout arithmetic (legend outside every
//! panel), facets with every configuration side by side, titles that fit whole, the SVG's
//! groups for the report's filter, skipped charts.

use super::*;
use sudoku_analysis::{Row, TrialStatus, Trials};

/// 11 configurations (9 methods, one with two parameter values) at orders 2–4 and two
/// variants; givens varying at order 3; a failed run; traces for one method.
fn fixture() -> (Vec<Row>, Vec<TraceRow>) {
    let mut rows = Vec::new();
    let mut traces = Vec::new();
    let mut task = 0;
    let configs: Vec<(String, String)> = (0..9)
        .map(|i| (format!("method-{i}"), String::new()))
        .chain([
            ("meta".to_string(), "alpha=0.5".to_string()),
            ("meta".to_string(), "alpha=0.9".to_string()),
        ])
        .collect();
    for (ci, (method, params)) in configs.iter().enumerate() {
        for order in 2..=4usize {
            for variant in ["classic", "diagonal"] {
                for inst in 0..4 {
                    for trial in 0..2u32 {
                        let cells = order.pow(4);
                        let givens = if order == 3 {
                            cells * (3 + 2 * inst) / 20
                        } else {
                            cells / 3
                        };
                        let fail = ci == 3 && inst == 0;
                        rows.push(Row {
                            task,
                            experiment: "fixture".into(),
                            kind: "solve".into(),
                            method: method.clone(),
                            params: params.clone(),
                            variant: variant.into(),
                            order,
                            instance_set: "set".into(),
                            instance: format!("i{order}-{inst}"),
                            givens,
                            trial,
                            status: if fail {
                                TrialStatus::Timeout
                            } else {
                                TrialStatus::Solved
                            },
                            wall_ms: (1 + ci) as f64
                                * 10f64.powi(order as i32 - 2)
                                * (1.0 + inst as f64 + trial as f64 * 0.1),
                            ..Row::default()
                        });
                        if method == "meta" {
                            for (k, cost) in [9u64, 4, 1, 0].iter().enumerate() {
                                traces.push(TraceRow {
                                    task,
                                    method: method.clone(),
                                    params: params.clone(),
                                    order,
                                    instance: format!("i{order}-{inst}"),
                                    trial,
                                    iteration: k as u64 * 10,
                                    elapsed_ms: 0.01 * (k + 1) as f64 * (1 + inst) as f64,
                                    best_cost: *cost,
                                });
                            }
                        }
                        task += 1;
                    }
                }
            }
        }
    }
    (rows, traces)
}

#[test]
fn many_configurations_are_faceted_and_the_legend_stays_off_the_data() {
    let (rows, traces) = fixture();
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw_all(dir.path(), &Trials::of_rows(&rows), &traces).unwrap();
    let stems: Vec<&str> = drawn.charts.iter().map(|c| c.stem.as_str()).collect();
    for want in [
        "time_vs_order",
        "boxplot",
        "cactus",
        "ecdf",
        "profile",
        "scatter",
        "success_vs_givens",
        "convergence",
        "ert",
        "sweep_meta_alpha",
    ] {
        assert!(stems.contains(&want), "{want} missing from {stems:?}");
    }
    assert!(drawn.skipped.is_empty(), "{:?}", drawn.skipped);
    for c in &drawn.charts {
        let l = &c.layout;
        let fig = Rect {
            x: 0,
            y: 0,
            w: l.size.0,
            h: l.size.1,
        };
        assert_eq!(l.panels.len(), c.panels.len(), "{}", c.stem);
        for (r, (title, series)) in l.panels.iter().zip(&c.panels) {
            assert!(*series >= 1, "{} panel {title} is empty", c.stem);
            assert!(fig.contains(r));
            assert!(
                !r.intersects(&l.legend),
                "{}: legend over panel {title}",
                c.stem
            );
        }
        for (i, p) in l.panels.iter().enumerate() {
            for q in &l.panels[i + 1..] {
                assert!(!p.intersects(q), "{}: panels overlap", c.stem);
            }
        }
        // The SVG is the size the layout says, and both files exist.
        let svg = std::fs::read_to_string(&c.files[0]).unwrap();
        assert!(svg.contains(&format!("width=\"{}\" height=\"{}\"", l.size.0, l.size.1)));
        assert!(c.files[1].exists());
    }
    let get = |s: &str| drawn.charts.iter().find(|c| c.stem == s).unwrap();
    // 11 configurations: one panel per facet (3 orders × 2 variants), each with all 11, named.
    let b = get("boxplot");
    assert_eq!(b.panels.len(), 6);
    assert_eq!(b.panels[0], ("4×4".to_string(), 11));
    assert_eq!(b.panels[5], ("16×16 diagonal".to_string(), 11));
    let svg = std::fs::read_to_string(&b.files[0]).unwrap();
    for name in ["method-0", "meta alpha=0.5", "meta alpha=0.9"] {
        assert_eq!(
            svg.matches(&format!(">\n{name}\n</text>")).count()
                + svg.matches(&format!(">{name}</text>")).count(),
            6 + 1,
            "{name}: named on the axis of every panel and in the legend"
        );
    }
    for c in ["cactus", "ecdf", "profile"] {
        assert!(get(c).panels.iter().all(|p| p.1 == 11), "{c}");
    }
    // One facet per variant over the orders, every configuration in it.
    let t = get("time_vs_order");
    assert_eq!(t.panels.len(), 2);
    assert!(t.panels.iter().all(|p| p.1 == 11));
    // Givens vary only at order 3 (both variants).
    let g: Vec<&str> = get("success_vs_givens")
        .panels
        .iter()
        .map(|p| p.0.as_str())
        .collect();
    assert_eq!(g, ["9×9", "9×9 diagonal"]);
    // Scatter: the flagship against 4 others, one panel each.
    assert_eq!(get("scatter").panels.len(), 4);
    // Traces: the two meta configurations only, per order.
    assert_eq!(get("ert").panels.len(), 3);
    assert!(get("ert").panels.iter().all(|p| p.1 == 2));
}

#[test]
fn titles_are_whole_and_fit_their_room() {
    let (mut rows, traces) = fixture();
    // A configuration with a long name, which the scatter puts on an axis.
    for r in rows.iter_mut().filter(|r| r.method == "method-1") {
        r.method = "ilp".into();
        r.params = "objective=weighted search=cbc cuts=gomory,mir,probing".into();
    }
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw_all(dir.path(), &Trials::of_rows(&rows), &traces).unwrap();
    let mut seen = 0;
    for c in &drawn.charts {
        for f in &c.texts {
            assert!(!f.text.contains('…'), "{}: {f:?}", c.stem);
            assert!(f.width <= f.room, "{}: {f:?} does not fit", c.stem);
            assert!(f.px >= 8.0, "{}: {f:?} too small to read", c.stem);
            // The width is the embedded font's.
            assert_eq!(f.width, text_px(&f.text, f.px));
            seen += 1;
        }
        let svg = std::fs::read_to_string(&c.files[0]).unwrap();
        for f in &c.texts {
            assert!(
                svg.contains(&sudoku_analysis::escape::html(&f.text).replace("&#39;", "&apos;")),
                "{}: {} not in the SVG",
                c.stem,
                f.text
            );
        }
    }
    assert!(seen > 20);
    let givens = drawn
        .charts
        .iter()
        .find(|c| c.stem == "success_vs_givens")
        .unwrap();
    let x = givens
        .texts
        .iter()
        .find(|f| f.text.starts_with("givens"))
        .unwrap();
    assert_eq!(x.text, "givens (% of cells)");
}

#[test]
fn every_series_is_a_group_naming_its_configuration() {
    let (rows, traces) = fixture();
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw_all(dir.path(), &Trials::of_rows(&rows), &traces).unwrap();
    let configs = ["meta alpha=0.5", "meta alpha=0.9", "method-0", "method-8"];
    for c in &drawn.charts {
        let svg = std::fs::read_to_string(&c.files[0]).unwrap();
        assert!(
            !svg.contains("width=\"1\" height=\"1\" stroke=\"none\""),
            "{}: a mark left",
            c.stem
        );
        assert_eq!(
            svg.matches("<g").count(),
            svg.matches("</g>").count(),
            "{}",
            c.stem
        );
        if c.stem.starts_with("sweep_") {
            // Series are grid sizes: grouped, but not named as configurations.
            assert!(svg.contains("<g class=\"series\">"));
            assert!(!svg.contains("data-config"));
            continue;
        }
        let shown: BTreeSet<&str> = svg
            .split("data-config=\"")
            .skip(1)
            .filter_map(|t| t.split('"').next())
            .collect();
        if ["convergence", "ert"].contains(&c.stem.as_str()) {
            assert_eq!(shown, BTreeSet::from(["meta alpha=0.5", "meta alpha=0.9"]));
        } else if c.stem != "scatter" {
            for want in configs {
                assert!(shown.contains(want), "{}: {want} not grouped", c.stem);
            }
            // Every configuration is in the legend once.
            assert_eq!(svg.matches("<g class=\"key\"").count(), 11, "{}", c.stem);
        }
        assert!(
            svg.contains("<g class=\"tip\"><title>"),
            "{}: no hover values",
            c.stem
        );
    }
    // A hover text names the configuration and both values.
    let t = std::fs::read_to_string(dir.path().join("time_vs_order.svg")).unwrap();
    assert!(
        t.contains("<title>method-0\norder n (grid n²×n²): 2\nwall time (ms): "),
        "{}",
        &t[..2000]
    );
}

#[test]
fn a_chart_the_data_cannot_support_is_skipped_with_a_reason() {
    let (rows, _) = fixture();
    // One method, one order, one variant, no traces, givens fixed.
    let one: Vec<Row> = rows
        .into_iter()
        .filter(|r| r.method == "method-0" && r.order == 2 && r.variant == "classic")
        .collect();
    let dir = tempfile::tempdir().unwrap();
    // A stale chart of a skipped kind is removed.
    std::fs::write(dir.path().join("ert.svg"), "<svg/>").unwrap();
    let drawn = draw_all(dir.path(), &Trials::of_rows(&one), &[]).unwrap();
    let skipped: Vec<&str> = drawn.skipped.iter().map(|s| s.stem.as_str()).collect();
    assert_eq!(
        skipped,
        [
            "time_vs_order",
            "profile",
            "scatter",
            "success_vs_givens",
            "convergence",
            "ert"
        ]
    );
    assert!(drawn.skipped.iter().all(|s| !s.reason.is_empty()));
    for s in &drawn.skipped {
        assert!(
            !dir.path().join(format!("{}.svg", s.stem)).exists(),
            "{}",
            s.stem
        );
    }
    let stems: Vec<&str> = drawn.charts.iter().map(|c| c.stem.as_str()).collect();
    assert_eq!(stems, ["boxplot", "cactus", "ecdf"]);
}

#[test]
fn colours_follow_the_sorted_configurations() {
    // The same configuration keeps its colour whatever else a chart shows.
    let (rows, traces) = fixture();
    let d = figures_keys(&rows, &traces);
    assert_eq!(d[0], ("meta alpha=0.5".to_string(), 0));
    assert_eq!(d[2], ("method-0".to_string(), 2));
    assert_eq!(colour(0), colour(8));
    assert_ne!(shape(0), shape(8));
}

fn figures_keys(rows: &[Row], traces: &[TraceRow]) -> Vec<(String, usize)> {
    let all = figures::all(&Trials::of_rows(rows), traces);
    let Ok(f) = &all.iter().find(|(s, _)| s == "boxplot").unwrap().1 else {
        panic!("no boxplot")
    };
    f.keys.iter().map(|k| (k.label.clone(), k.style)).collect()
}

/// The points of the first line of `style` in chart `stem`'s first panel.
fn line_of(rows: &[Row], traces: &[TraceRow], stem: &str, style: usize) -> Vec<(f64, f64)> {
    let all = figures::all(&Trials::of_rows(rows), traces);
    let Ok(f) = &all.iter().find(|(s, _)| s == stem).unwrap().1 else {
        panic!("{stem} not drawn")
    };
    f.panels[0]
        .marks
        .iter()
        .find_map(|m| match m {
            Mark::Line { style: s, pts, .. } if *s == style => Some(pts.clone()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn ert_and_profile_on_literal_runs() {
    // Two traced runs: one reaches cost 0 at 2 ms (of 3 ms), the other stops at cost 3 after
    // 10 ms. ERT(τ) = (time of the hits + wall time of the misses) / hits.
    let row = |task, ms, status| Row {
        task,
        kind: "solve".into(),
        method: "m".into(),
        variant: "classic".into(),
        order: 2,
        instance: format!("i{task}"),
        status,
        wall_ms: ms,
        ..Row::default()
    };
    let rows = [
        row(0, 3.0, TrialStatus::Solved),
        row(1, 10.0, TrialStatus::Timeout),
    ];
    let tr = |task, elapsed_ms, best_cost| TraceRow {
        task,
        method: "m".into(),
        params: String::new(),
        order: 2,
        instance: format!("i{task}"),
        trial: 0,
        iteration: 0,
        elapsed_ms,
        best_cost,
    };
    let traces = [
        tr(0, 0.5, 6),
        tr(0, 1.0, 2),
        tr(0, 2.0, 0),
        tr(1, 0.5, 7),
        tr(1, 4.0, 3),
    ];
    // Targets 5, 2, 1, 0 (at positions 0..4; 7 is the top start cost, so 5 is the first).
    let ert = line_of(&rows, &traces, "ert", 0);
    assert_eq!(ert, [(0.0, 2.5), (1.0, 11.0), (2.0, 12.0), (3.0, 12.0)]);

    // Profile: a is fastest on i0 (1 ms vs 4 ms), b on i1 (2 ms vs 8 ms); b fails on i2.
    let pr = |m: &str, inst: &str, ms: f64, ok: bool| Row {
        kind: "solve".into(),
        method: m.into(),
        variant: "classic".into(),
        order: 2,
        instance: inst.into(),
        status: if ok {
            TrialStatus::Solved
        } else {
            TrialStatus::Timeout
        },
        wall_ms: ms,
        ..Row::default()
    };
    let rows = [
        pr("a", "i0", 1.0, true),
        pr("b", "i0", 4.0, true),
        pr("a", "i1", 8.0, true),
        pr("b", "i1", 2.0, true),
        pr("a", "i2", 5.0, true),
        pr("b", "i2", 9.0, false),
    ];
    let a = line_of(&rows, &[], "profile", 0);
    let b = line_of(&rows, &[], "profile", 1);
    // log2 ratios: a 0, 2, 0 → steps at 0 (1/3, 2/3) and 2 (1); b 2, 0, ∞ → ends at 2/3.
    assert_eq!(
        &a[..4],
        [(0.0, 0.0), (0.0, 1.0 / 3.0), (0.0, 2.0 / 3.0), (2.0, 1.0)]
    );
    assert_eq!(&b[..3], [(0.0, 0.0), (0.0, 1.0 / 3.0), (2.0, 2.0 / 3.0)]);
    assert_eq!(b.last().unwrap().1, 2.0 / 3.0);
}

/// A run of many trials draws charts of the size of their pixels, not of their trials.
#[test]
fn a_large_run_draws_small_charts() {
    let rows: Vec<Row> = (0..60_000)
        .map(|i| Row {
            task: i,
            kind: "solve".into(),
            method: ["a", "b"][i % 2].into(),
            variant: "classic".into(),
            order: 3,
            instance_set: "s".into(),
            instance: format!("i{}", i / 2),
            status: TrialStatus::Solved,
            wall_ms: 1.0 + (i % 997) as f64 / 10.0,
            ..Row::default()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw_all(dir.path(), &Trials::of_rows(&rows), &[]).unwrap();
    for c in &drawn.charts {
        assert!(c.svg.len() < 2_000_000, "{}: {} bytes", c.stem, c.svg.len());
    }
}
