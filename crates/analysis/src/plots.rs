//! Charts from trials (and traces), as SVG and PNG. Text is drawn with an embedded DejaVu Sans,
//! so nothing depends on fonts installed on the machine. Each chart is drawn only when the data
//! has what it shows (several orders, several givens levels, traces, a swept parameter).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::escape;
use crate::stats::{quantile_sorted, sorted};
use crate::{AnalysisError, Row, TraceRow};

const W: u32 = 960;
const H: u32 = 600;

fn ensure_font(out: &Path) -> Result<(), AnalysisError> {
    static FONT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *FONT.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .is_ok()
            && plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold())
                .is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(AnalysisError::Chart {
            path: out.to_path_buf(),
            message: "the embedded chart font could not be loaded".into(),
        })
    }
}

/// Draws a chart function into `<stem>.svg` and `<stem>.png`.
macro_rules! render {
    ($out:expr, $stem:expr, $f:ident, $($arg:expr),*) => {{
        let svg = $out.join(format!("{}.svg", $stem));
        let png = $out.join(format!("{}.png", $stem));
        {
            let root = SVGBackend::new(&svg, (W, H)).into_drawing_area();
            $f(&root, $($arg),*).map_err(|e| chart_error(&svg, "drawing", e))?;
            root.present().map_err(|e| chart_error(&svg, "writing", e))?;
        }
        {
            let root = BitMapBackend::new(&png, (W, H)).into_drawing_area();
            $f(&root, $($arg),*).map_err(|e| chart_error(&png, "drawing", e))?;
            root.present().map_err(|e| chart_error(&png, "writing", e))?;
        }
        vec![svg, png]
    }};
}

type Res = std::result::Result<(), String>;

fn chart_error(path: &Path, what: &str, e: impl std::fmt::Display) -> AnalysisError {
    AnalysisError::Chart {
        path: path.to_path_buf(),
        message: format!("{what}: {e}"),
    }
}

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// `(config label, x) → wall times`.
type Series = BTreeMap<String, BTreeMap<i64, Vec<f64>>>;

/// A configuration's name as drawn: method and parameters come from files, so control
/// characters are made visible (the SVG writer escapes markup).
fn label(r: &Row) -> String {
    config_name(&r.method, &r.params)
}

fn config_name(method: &str, params: &str) -> String {
    if params.is_empty() {
        escape::chart(method)
    } else {
        escape::chart(&format!("{method} {params}"))
    }
}

/// Draws every chart the rows support into `out`; returns the files written.
pub fn draw_all(
    out: &Path,
    rows: &[Row],
    traces: &[TraceRow],
) -> Result<Vec<PathBuf>, AnalysisError> {
    ensure_font(out)?;
    let mut files = Vec::new();
    let mut by_order: Series = BTreeMap::new();
    for r in rows {
        by_order
            .entry(label(r))
            .or_default()
            .entry(r.order as i64)
            .or_default()
            .push(r.wall_ms.max(1e-3));
    }
    let orders: std::collections::BTreeSet<i64> = rows.iter().map(|r| r.order as i64).collect();
    if !rows.is_empty() {
        if orders.len() >= 2 {
            files.extend(render!(out, "time_vs_order", time_vs_order, &by_order));
        }
        files.extend(render!(out, "boxplot", boxplot, &by_order));
    }
    // Success rate against the share of givens, in 5 % buckets.
    let mut by_givens: BTreeMap<String, BTreeMap<i64, (usize, usize)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.kind == "solve") {
        let cells = (r.order * r.order * r.order * r.order) as f64;
        let bucket = ((r.givens as f64 / cells) * 20.0).round() as i64 * 5;
        let e = by_givens
            .entry(label(r))
            .or_default()
            .entry(bucket)
            .or_default();
        e.0 += r.success() as usize;
        e.1 += 1;
    }
    if by_givens.values().any(|m| m.len() >= 3) {
        files.extend(render!(
            out,
            "success_vs_givens",
            success_vs_givens,
            &by_givens
        ));
    }
    if !traces.is_empty() {
        files.extend(render!(out, "convergence", convergence, traces));
    }
    for (param, series) in sweeps(rows) {
        let stem = format!(
            "sweep_{}",
            param.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        files.extend(render!(out, stem, sweep, &param, &series));
    }
    Ok(files)
}

/// The series legend every chart uses: a framed, slightly transparent box.
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Res {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(position)
        .draw()
        .map_err(err)
}

fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return 0.001..1.0;
    }
    (lo / 2.0).max(1e-4)..(hi * 2.0).max(lo * 4.0)
}

fn quantiles(v: &[f64]) -> (f64, f64, f64) {
    let s = sorted(v);
    let q = |p| quantile_sorted(&s, p).unwrap_or(0.0);
    (q(0.1), q(0.5), q(0.9))
}

fn time_vs_order<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &Series) -> Res {
    root.fill(&WHITE).map_err(err)?;
    let xs: Vec<i64> = data.values().flat_map(|m| m.keys().copied()).collect();
    let (xmin, xmax) = (
        *xs.iter().min().unwrap_or(&2),
        *xs.iter().max().unwrap_or(&3),
    );
    let y = log_range(data.values().flat_map(|m| m.values().flatten().copied()));
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Wall time per trial vs order (median, p10–p90 band)",
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(xmin..xmax, y.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("order n (grid n²×n²)")
        .y_desc("wall time (ms, log scale)")
        .x_labels((xmax - xmin + 1) as usize)
        .draw()
        .map_err(err)?;
    for (i, (name, m)) in data.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let pts: Vec<(i64, (f64, f64, f64))> = m.iter().map(|(&x, v)| (x, quantiles(v))).collect();
        let mut band: Vec<(i64, f64)> = pts.iter().map(|(x, q)| (*x, q.2)).collect();
        band.extend(pts.iter().rev().map(|(x, q)| (*x, q.0)));
        chart
            .draw_series(std::iter::once(Polygon::new(
                band,
                color.mix(0.15).filled(),
            )))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|(x, q)| (*x, q.1)),
                color.stroke_width(2),
            ))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart
            .draw_series(
                pts.iter()
                    .map(|(x, q)| Circle::new((*x, q.1), 3, color.filled())),
            )
            .map_err(err)?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

fn boxplot<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &Series) -> Res {
    root.fill(&WHITE).map_err(err)?;
    // One box per (configuration, order), grouped by order.
    let mut boxes: Vec<(String, usize, Vec<f64>)> = Vec::new();
    let orders: std::collections::BTreeSet<i64> =
        data.values().flat_map(|m| m.keys().copied()).collect();
    for &o in &orders {
        for (i, (name, m)) in data.iter().enumerate() {
            if let Some(v) = m.get(&o) {
                let n = (o * o) as usize;
                boxes.push((format!("{n}×{n} {name}"), i, v.clone()));
            }
        }
    }
    let y = log_range(boxes.iter().flat_map(|b| b.2.iter().copied()));
    let count = boxes.len() as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Wall time per trial by method and order (box: quartiles; whiskers: min–max)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..count - 0.5, y.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(boxes.len().min(40))
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < boxes.len() {
                format!("{}", i as usize + 1)
            } else {
                String::new()
            }
        })
        .x_desc("box number (see legend)")
        .y_desc("wall time (ms, log scale)")
        .draw()
        .map_err(err)?;
    for (k, (name, ci, v)) in boxes.iter().enumerate() {
        let s = sorted(v);
        let q = |p| quantile_sorted(&s, p).unwrap_or(0.0);
        let (lo, q1, med, q3, hi) = (q(0.0), q(0.25), q(0.5), q(0.75), q(1.0));
        let x = k as f64;
        let color = Palette99::pick(*ci).to_rgba();
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x - 0.3, q1), (x + 0.3, q3)],
                color.mix(0.3).filled(),
            )))
            .map_err(err)?
            .label(format!("{} {name}", k + 1))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
        chart
            .draw_series([
                PathElement::new(vec![(x - 0.3, med), (x + 0.3, med)], color.stroke_width(2)),
                PathElement::new(vec![(x, lo), (x, q1)], color.stroke_width(1)),
                PathElement::new(vec![(x, q3), (x, hi)], color.stroke_width(1)),
            ])
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)?;
    Ok(())
}

fn success_vs_givens<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &BTreeMap<String, BTreeMap<i64, (usize, usize)>>,
) -> Res {
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(root)
        .caption("Success rate vs share of givens", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0i64..100i64, 0.0..105.0)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("givens (% of cells, 5 % buckets)")
        .y_desc("success (%)")
        .draw()
        .map_err(err)?;
    for (i, (name, m)) in data.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let pts: Vec<(i64, f64)> = m
            .iter()
            .map(|(&x, &(ok, n))| (x, 100.0 * ok as f64 / n as f64))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(err)?;
    }
    legend(&mut chart, SeriesLabelPosition::LowerRight)
}

fn convergence<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, traces: &[TraceRow]) -> Res {
    root.fill(&WHITE).map_err(err)?;
    // One step line per trial, at most 10 trials per configuration, coloured by configuration.
    let mut runs: BTreeMap<(String, usize), Vec<(u64, u64)>> = BTreeMap::new();
    for t in traces {
        let name = config_name(&t.method, &t.params);
        runs.entry((name, t.task))
            .or_default()
            .push((t.iteration.max(1), t.best_cost));
    }
    let mut per_config: BTreeMap<String, usize> = BTreeMap::new();
    runs.retain(|(name, _), _| {
        let c = per_config.entry(name.clone()).or_default();
        *c += 1;
        *c <= 10
    });
    let xmax = runs
        .values()
        .flatten()
        .map(|p| p.0)
        .max()
        .unwrap_or(1)
        .max(2) as f64;
    let ymax = runs
        .values()
        .flatten()
        .map(|p| p.1)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Best cost vs iterations (up to 10 trials per configuration)",
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d((1.0..xmax * 1.5).log_scale(), 0.0..ymax * 1.05)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("iteration (log scale)")
        .y_desc("best cost")
        .draw()
        .map_err(err)?;
    let names: Vec<String> = per_config.keys().cloned().collect();
    let mut labelled = std::collections::HashSet::new();
    for ((name, _), pts) in &runs {
        let i = names.iter().position(|n| n == name).unwrap_or(0);
        let color = Palette99::pick(i).to_rgba();
        let mut steps = Vec::with_capacity(pts.len() * 2);
        for (k, &(x, y)) in pts.iter().enumerate() {
            if k > 0 {
                steps.push((x as f64, pts[k - 1].1 as f64));
            }
            steps.push((x as f64, y as f64));
        }
        let s = chart
            .draw_series(LineSeries::new(steps, color.mix(0.7).stroke_width(1)))
            .map_err(err)?;
        if labelled.insert(name.clone()) {
            s.label(name.clone()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        }
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight)
}

/// For each parameter that a method sweeps over numeric values with everything else fixed:
/// `(method, order) → value → wall times`.
/// `param → series → (value, wall times)`.
type Sweeps = BTreeMap<String, BTreeMap<String, Vec<(f64, Vec<f64>)>>>;

fn sweeps(rows: &[Row]) -> Sweeps {
    let mut out: Sweeps = BTreeMap::new();
    let mut by_method: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_method.entry(&r.method).or_default().push(r);
    }
    for (method, rs) in by_method {
        let parsed: Vec<BTreeMap<&str, &str>> = rs
            .iter()
            .map(|r| {
                r.params
                    .split_whitespace()
                    .filter_map(|kv| kv.split_once('='))
                    .collect()
            })
            .collect();
        let keys: std::collections::BTreeSet<&str> =
            parsed.iter().flat_map(|m| m.keys().copied()).collect();
        for key in keys {
            let values: std::collections::BTreeSet<&str> =
                parsed.iter().filter_map(|m| m.get(key).copied()).collect();
            if values.len() < 2 || values.iter().any(|v| v.parse::<f64>().is_err()) {
                continue;
            }
            // Every other parameter must be fixed for the sweep to mean something.
            let others: std::collections::BTreeSet<String> = parsed
                .iter()
                .map(|m| {
                    m.iter()
                        .filter(|(k, _)| **k != key)
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            if others.len() != 1 {
                continue;
            }
            let mut series: BTreeMap<String, BTreeMap<String, (f64, Vec<f64>)>> = BTreeMap::new();
            for (r, m) in rs.iter().zip(&parsed) {
                let Some(v) = m.get(key) else { continue };
                let n = r.order * r.order;
                let e = series
                    .entry(format!("{} {n}×{n}", escape::chart(method)))
                    .or_default()
                    .entry(v.to_string())
                    .or_insert((v.parse().unwrap_or(0.0), Vec::new()));
                e.1.push(r.wall_ms.max(1e-3));
            }
            let dest = out.entry(format!("{method}_{key}")).or_default();
            for (name, vals) in series {
                let mut pts: Vec<(f64, Vec<f64>)> = vals.into_values().collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                dest.insert(name, pts);
            }
        }
    }
    out
}

fn sweep<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    param: &str,
    data: &BTreeMap<String, Vec<(f64, Vec<f64>)>>,
) -> Res {
    root.fill(&WHITE).map_err(err)?;
    let xs: Vec<f64> = data.values().flat_map(|v| v.iter().map(|p| p.0)).collect();
    let (xmin, xmax) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let pad = ((xmax - xmin) * 0.05).max(1e-9);
    let y = log_range(
        data.values()
            .flat_map(|v| v.iter().flat_map(|p| p.1.iter().copied())),
    );
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "Wall time vs {} (median, p10–p90 bars)",
                escape::chart(param)
            ),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(xmin - pad..xmax + pad, y.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(escape::chart(param))
        .y_desc("wall time (ms, log scale)")
        .draw()
        .map_err(err)?;
    for (i, (name, pts)) in data.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let q: Vec<(f64, (f64, f64, f64))> = pts.iter().map(|(x, v)| (*x, quantiles(v))).collect();
        chart
            .draw_series(LineSeries::new(
                q.iter().map(|(x, q)| (*x, q.1)),
                color.stroke_width(2),
            ))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart
            .draw_series(
                q.iter().map(|(x, q)| {
                    PathElement::new(vec![(*x, q.0), (*x, q.2)], color.stroke_width(1))
                }),
            )
            .map_err(err)?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}
