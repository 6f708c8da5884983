//! What each chart shows: the rows turned into [`Figure`]s (pure data, no drawing), or the
//! reason a chart is left out.

use std::collections::{BTreeMap, BTreeSet};

use super::{Axis, BoxStats, Figure, Key, Mark, Panel, PALETTE};
use sudoku_analysis::escape;
use sudoku_analysis::meta::config_label;
use sudoku_analysis::stats::{quantile_sorted, sorted};
use sudoku_analysis::{Name, TraceRow, Trial};

/// Why a chart is not drawn.
type Built = Result<Figure, String>;

/// What builds one chart from the rows.
type Builder = fn(&Data) -> Built;

/// Every chart, in reading order, with its stem.
pub(super) fn all(rows: &[Trial], traces: &[TraceRow]) -> Vec<(String, Built)> {
    let mut out = Vec::new();
    each(rows, traces, |stem, built| {
        out.push((stem, built));
        Ok::<(), ()>(())
    })
    .expect("collecting fails never");
    out
}

/// Every chart, in reading order, handed to `f` with its stem as soon as it is built, so that
/// one chart's data is held at a time (a million trials' points, each chart's own copy).
pub(super) fn each<E>(
    rows: &[Trial],
    traces: &[TraceRow],
    mut f: impl FnMut(String, Built) -> Result<(), E>,
) -> Result<(), E> {
    let d = Data::new(rows, traces);
    let charts: [(&str, Builder); 9] = [
        ("time_vs_order", time_vs_order),
        ("boxplot", boxplot),
        ("cactus", cactus),
        ("ecdf", ecdf),
        ("profile", profile),
        ("scatter", scatter),
        ("success_vs_givens", success_vs_givens),
        ("convergence", convergence),
        ("ert", ert),
    ];
    for (stem, build) in charts {
        f(stem.to_string(), build(&d))?;
    }
    for (stem, built) in sweeps(&d) {
        f(stem, built)?;
    }
    Ok(())
}

/// The configurations' names as charts draw them, sorted: a configuration's place in this list
/// is its colour and marker in every chart.
pub(super) fn configs(rows: &[Trial], traces: &[TraceRow]) -> Vec<String> {
    Data::new(rows, traces).configs
}

/// The rows, with each configuration's index in the sorted list of configurations.
struct Data<'a> {
    rows: &'a [Trial],
    traces: &'a [TraceRow],
    configs: Vec<String>,
}

/// A configuration's name as drawn: method and parameters come from files, so control
/// characters are made visible (the SVG writer escapes markup).
fn config_name(method: &str, params: &str) -> String {
    escape::chart(&config_label(method, params))
}

/// A facet's key: a number to sort by (the order), and its title.
type Facet = (usize, String);

/// A facet: order and variant, as `9×9` or `9×9 diagonal`.
fn facet(order: usize, variant: &str) -> String {
    let n = order * order;
    if variant == "classic" || variant.is_empty() {
        format!("{n}×{n}")
    } else {
        format!("{n}×{n} {}", escape::chart(variant))
    }
}

impl<'a> Data<'a> {
    fn new(rows: &'a [Trial], traces: &'a [TraceRow]) -> Data<'a> {
        let configs: BTreeSet<String> = rows
            .iter()
            .map(|r| config_name(&r.method, &r.params))
            .chain(traces.iter().map(|t| config_name(&t.method, &t.params)))
            .collect();
        Data {
            rows,
            traces,
            configs: configs.into_iter().collect(),
        }
    }

    fn style(&self, method: &str, params: &str) -> usize {
        let name = config_name(method, params);
        self.configs.binary_search(&name).unwrap_or(0)
    }

    fn cfg(&self, r: &Trial) -> usize {
        self.style(&r.method, &r.params)
    }

    fn keys(&self, styles: impl IntoIterator<Item = usize>) -> Vec<Key> {
        styles
            .into_iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|i| Key {
                label: self.configs[i].clone(),
                style: i,
            })
            .collect()
    }
}

/// One panel per facet, each with every series of its facet (configuration → data): methods
/// a reader compares are side by side in one panel, never split over several; `panel` draws
/// one facet.
fn facets<T>(
    groups: &BTreeMap<Facet, BTreeMap<usize, T>>,
    mut panel: impl FnMut(&str, &[(usize, &T)]) -> Panel,
) -> Vec<Panel> {
    groups
        .iter()
        .map(|((_, title), series)| {
            let items: Vec<(usize, &T)> = series.iter().map(|(k, v)| (*k, v)).collect();
            panel(title, &items)
        })
        .collect()
}

fn figure(
    d: &Data,
    stem: &str,
    title: &str,
    caption: String,
    panels: Vec<Panel>,
    panel_h: (f64, f64),
) -> Figure {
    let styles = panels
        .iter()
        .flat_map(|p| p.marks.iter().filter_map(Mark::style));
    let keys = d.keys(styles);
    // Two panels a row, unless a panel holds more series than the palette has colours: then
    // one a row, twice as wide, so the lines stay apart.
    let crowded = panels.iter().any(|p| p.series() > PALETTE.len());
    let cols = if panels.len() > 1 && !crowded { 2 } else { 1 };
    Figure {
        stem: stem.into(),
        title: title.into(),
        caption,
        cols,
        panel_h: if cols == 1 { panel_h.0 } else { panel_h.1 },
        keys,
        panels,
        configs: true,
    }
}

/// Median and quartiles (type 7) of a sample.
fn quartiles(v: &[f64]) -> (f64, f64, f64) {
    let s = sorted(v);
    let q = |p| quantile_sorted(&s, p).unwrap_or(f64::NAN);
    (q(0.25), q(0.5), q(0.75))
}

/// A median line over an interquartile band, from `(x, (q1, median, q3))`.
fn median_band(style: usize, q: &[(f64, (f64, f64, f64))], marks: &mut Vec<Mark>) {
    marks.push(Mark::Band {
        style,
        upper: q.iter().map(|(x, q)| (*x, q.2)).collect(),
        lower: q.iter().map(|(x, q)| (*x, q.0)).collect(),
    });
    marks.push(Mark::Line {
        style,
        pts: q.iter().map(|(x, q)| (*x, q.1)).collect(),
        step: false,
    });
}

const WALL: &str = "wall time (ms)";

fn time_vs_order(d: &Data) -> Built {
    let mut g: BTreeMap<Facet, BTreeMap<usize, BTreeMap<usize, Vec<f64>>>> = BTreeMap::new();
    for r in d.rows {
        g.entry((0, escape::chart(&r.variant)))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .entry(r.order)
            .or_default()
            .push(r.wall_ms);
    }
    g.retain(|_, s| {
        s.values()
            .flat_map(|m| m.keys())
            .collect::<BTreeSet<_>>()
            .len()
            >= 2
    });
    if g.is_empty() {
        return Err("every variant was run at one order only: no trend over orders to show".into());
    }
    let panels = facets(&g, |title, series| {
        let orders: BTreeSet<usize> = series.iter().flat_map(|(_, m)| m.keys().copied()).collect();
        let x = Axis::categories(
            "order n (grid n²×n²)",
            orders.iter().map(|&o| (o as f64, o.to_string())).collect(),
        );
        let y = Axis::log(
            WALL,
            series
                .iter()
                .flat_map(|(_, m)| m.values().flatten().copied()),
        );
        let mut marks = Vec::new();
        for &(style, m) in series {
            let q: Vec<(f64, (f64, f64, f64))> =
                m.iter().map(|(&o, v)| (o as f64, quartiles(v))).collect();
            median_band(style, &q, &mut marks);
        }
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    Ok(figure(
        d,
        "time_vs_order",
        "Wall time against order",
        "Median wall time per run (line) and interquartile range (band) of each configuration at each order; runs that hit a limit count at the time they stopped. Log scale.".into(),
        panels,
        (300.0, 250.0),
    ))
}

/// Runs grouped by facet (order, variant) and configuration.
fn by_facet<'a>(d: &'a Data) -> BTreeMap<Facet, BTreeMap<usize, Vec<&'a Trial>>> {
    let mut g: BTreeMap<Facet, BTreeMap<usize, Vec<&Trial>>> = BTreeMap::new();
    for r in d.rows {
        g.entry((r.order, facet(r.order, &r.variant)))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .push(r);
    }
    g
}

fn boxplot(d: &Data) -> Built {
    if d.rows.is_empty() {
        return Err("no trials".into());
    }
    let g = by_facet(d);
    // Every facet's panel is as tall as the one with the most configurations, a row each.
    let most = g.values().map(BTreeMap::len).max().unwrap_or(1);
    let panels = facets(&g, |title, series| {
        let x = Axis::log(
            WALL,
            series.iter().flat_map(|(_, v)| v.iter().map(|r| r.wall_ms)),
        );
        // Horizontal boxes, named on the y axis, the first configuration at the top.
        let n = series.len();
        let at = |i: usize| (n - 1 - i) as f64;
        let y = Axis::categories(
            "",
            series
                .iter()
                .enumerate()
                .map(|(i, (style, _))| (at(i), d.configs[*style].clone()))
                .collect(),
        );
        let marks = series
            .iter()
            .enumerate()
            .map(|(i, (style, rs))| {
                let v = sorted(&rs.iter().map(|r| r.wall_ms).collect::<Vec<_>>());
                let q = |p| quantile_sorted(&v, p).unwrap_or(f64::NAN);
                let (q1, med, q3) = (q(0.25), q(0.5), q(0.75));
                let fence = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
                let inside: Vec<f64> = v
                    .iter()
                    .copied()
                    .filter(|t| (fence.0..=fence.1).contains(t))
                    .collect();
                Mark::Box {
                    style: *style,
                    x: at(i),
                    b: BoxStats {
                        n: v.len(),
                        lo: inside.first().copied().unwrap_or(q1),
                        q1,
                        med,
                        q3,
                        hi: inside.last().copied().unwrap_or(q3),
                        outliers: v
                            .iter()
                            .copied()
                            .filter(|t| !(fence.0..=fence.1).contains(t))
                            .collect(),
                    },
                }
            })
            .collect();
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    let h = 70.0 + 24.0 * most as f64;
    let mut fig = figure(
        d,
        "boxplot",
        "Wall time per run, by order",
        "One panel per grid size (and variant), one box per configuration: from the first to the third quartile, thick line at the median, whiskers to the furthest run within 1.5 interquartile ranges, hollow markers beyond. All runs, those that hit a limit at the time they stopped. Log scale.".into(),
        panels,
        (h, h),
    );
    // Names take room across: one panel a row.
    fig.cols = 1;
    Ok(fig)
}

/// Per facet and configuration: sorted wall times of the successful runs, and the runs.
type Solved = BTreeMap<Facet, BTreeMap<usize, (Vec<f64>, usize)>>;

/// Sorted wall times of the successful runs of each facet and configuration, and the number of
/// runs; an error when no run succeeded.
fn solved_times(d: &Data) -> Result<Solved, String> {
    let g: Solved = by_facet(d)
        .into_iter()
        .map(|(f, s)| {
            let s = s
                .into_iter()
                .map(|(c, rs)| {
                    let ok: Vec<f64> = rs
                        .iter()
                        .filter(|r| r.success())
                        .map(|r| r.wall_ms)
                        .collect();
                    (c, (sorted(&ok), rs.len()))
                })
                .collect();
            (f, s)
        })
        .collect();
    if g.values()
        .flat_map(|s| s.values())
        .all(|(ok, _)| ok.is_empty())
    {
        return Err("no run ended with an answer".into());
    }
    Ok(g)
}

fn cactus(d: &Data) -> Built {
    let g = solved_times(d)?;
    let panels = facets(&g, |title, series| {
        let most = series.iter().map(|(_, (_, n))| *n).max().unwrap_or(1);
        let x = Axis::linear("runs solved", 0.0, most as f64 + 0.5);
        let y = Axis::log(
            WALL,
            series.iter().flat_map(|(_, (v, _))| v.iter().copied()),
        );
        let marks = series
            .iter()
            .map(|(style, (v, _))| Mark::Line {
                style: *style,
                pts: v
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| ((k + 1) as f64, t))
                    .collect(),
                step: false,
            })
            .collect();
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    Ok(figure(
        d,
        "cactus",
        "Cactus plot: runs solved against time",
        "For each configuration, its successful runs sorted by wall time: the k-th point is the time within which k runs ended with a verified answer (further right and lower is better). Runs are instance × trial. Log scale.".into(),
        panels,
        (280.0, 260.0),
    ))
}

fn ecdf(d: &Data) -> Built {
    let g = solved_times(d)?;
    let panels = facets(&g, |title, series| {
        let x = Axis::log(
            WALL,
            series.iter().flat_map(|(_, (v, _))| v.iter().copied()),
        );
        let right = x.top();
        let y = Axis::linear("fraction of runs solved", 0.0, 1.02);
        let marks = series
            .iter()
            .map(|(style, (v, n))| {
                let mut pts: Vec<(f64, f64)> = v
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| (t, (k + 1) as f64 / *n as f64))
                    .collect();
                if let Some(&(t0, _)) = pts.first() {
                    pts.insert(0, (t0, 0.0));
                }
                if let Some(&(_, last)) = pts.last() {
                    pts.push((right, last));
                }
                Mark::Line {
                    style: *style,
                    pts,
                    step: true,
                }
            })
            .collect();
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    Ok(figure(
        d,
        "ecdf",
        "Run-time distribution (ECDF)",
        "Fraction of each configuration's runs that ended with a verified answer within a given wall time; runs that hit a limit never count, so a curve ends below 1 when some failed. Log scale.".into(),
        panels,
        (280.0, 260.0),
    ))
}

/// Median of a sample where `None` (no answer) counts as larger than any time: `None` when at
/// least half the runs failed.
fn median_or_fail(v: &[Option<f64>]) -> Option<f64> {
    let mut t: Vec<f64> = v.iter().map(|x| x.unwrap_or(f64::INFINITY)).collect();
    t.sort_by(f64::total_cmp);
    let n = t.len();
    if n == 0 {
        return None;
    }
    let m = if n % 2 == 1 {
        t[n / 2]
    } else {
        (t[n / 2 - 1] + t[n / 2]) / 2.0
    };
    m.is_finite().then_some(m)
}

/// An instance: variant and instance name.
type Instance = (Name, Name);

/// Per instance (variant and instance) and configuration: the median wall time over its trials
/// (`None`: no answer in at least half of them).
fn per_instance(d: &Data) -> BTreeMap<Instance, BTreeMap<usize, Option<f64>>> {
    let mut runs: BTreeMap<Instance, BTreeMap<usize, Vec<Option<f64>>>> = BTreeMap::new();
    for r in d.rows {
        runs.entry((r.variant.clone(), r.instance.clone()))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .push(r.success().then_some(r.wall_ms));
    }
    runs.into_iter()
        .map(|(k, m)| {
            (
                k,
                m.into_iter()
                    .map(|(c, v)| (c, median_or_fail(&v)))
                    .collect(),
            )
        })
        .collect()
}

fn profile(d: &Data) -> Built {
    let per = per_instance(d);
    let all: BTreeSet<usize> = per.values().flat_map(|m| m.keys().copied()).collect();
    if all.len() < 2 {
        return Err("one configuration only: nothing to compare".into());
    }
    let common: Vec<&BTreeMap<usize, Option<f64>>> =
        per.values().filter(|m| m.len() == all.len()).collect();
    if common.len() < 2 {
        return Err(format!(
            "fewer than 2 instances were run by all {} configurations",
            all.len()
        ));
    }
    let p = common.len() as f64;
    // log2 of each configuration's ratio to the best on each instance (None: no answer).
    let mut ratios: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for m in &common {
        let best = m.values().flatten().copied().fold(f64::INFINITY, f64::min);
        for (&c, t) in m.iter() {
            let e = ratios.entry(c).or_default();
            if let Some(t) = t {
                e.push((t / best).log2().max(0.0));
            }
        }
    }
    let worst = ratios.values().flatten().copied().fold(0.0, f64::max);
    let right = (worst * 1.08).max(1.0);
    let cfgs: Vec<usize> = all.into_iter().collect();
    let marks = cfgs
        .iter()
        .map(|&c| {
            let v = sorted(ratios.get(&c).map_or(&[][..], |v| &v[..]));
            let mut pts = vec![(0.0, 0.0)];
            for (k, &r) in v.iter().enumerate() {
                pts.push((r, (k + 1) as f64 / p));
            }
            let last = v.len() as f64 / p;
            pts.push((right, last));
            Mark::Line {
                style: c,
                pts,
                step: true,
            }
        })
        .collect();
    let panels = vec![Panel {
        title: String::new(),
        x: Axis::linear("log₂ τ (ratio to fastest)", 0.0, right),
        y: Axis::linear("fraction of instances", 0.0, 1.02),
        marks,
    }];
    Ok(figure(
        d,
        "profile",
        "Performance profile (Dolan and Moré 2002)",
        format!(
            "Over the {} instances every configuration ran: the fraction on which a configuration's median wall time is within a factor τ of the fastest configuration's. At log₂ τ = 0, how often it is the fastest; the height at the right, how often it answers at all (no answer in half the trials or more counts as an infinite ratio). Ratios are to the best of all {} configurations.",
            common.len(),
            cfgs.len()
        ),
        panels,
        (280.0, 260.0),
    ))
}

fn scatter(d: &Data) -> Built {
    let per = per_instance(d);
    // Successes and total median time: the flagship is the configuration with most instances
    // answered, then the fastest.
    let mut score: BTreeMap<usize, (usize, f64)> = BTreeMap::new();
    for m in per.values() {
        for (&c, t) in m {
            let e = score.entry(c).or_default();
            if let Some(t) = t {
                e.0 += 1;
                e.1 += t;
            }
        }
    }
    if score.len() < 2 {
        return Err("one configuration only: nothing to compare".into());
    }
    let mut ranked: Vec<(usize, (usize, f64))> = score.into_iter().collect();
    ranked.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.1 .1.total_cmp(&b.1 .1)));
    let flag = ranked[0].0;
    const PAIRS: usize = 4;
    let others: Vec<usize> = ranked[1..]
        .iter()
        .map(|r| r.0)
        .filter(|&c| {
            per.values()
                .filter(|m| m.contains_key(&c) && m.contains_key(&flag))
                .count()
                >= 2
        })
        .take(PAIRS)
        .collect();
    if others.is_empty() {
        return Err("no configuration shares 2 or more instances with another".into());
    }
    let fname = d.configs[flag].clone();
    let panels = others
        .iter()
        .map(|&c| {
            // Both axes over the times of this pair, so the diagonal is the 45° line.
            let times: Vec<f64> = per
                .values()
                .filter_map(|m| Some([*m.get(&flag)?, *m.get(&c)?]))
                .flatten()
                .flatten()
                .collect();
            let span = || times.iter().copied().chain(times.iter().map(|v| v * 4.0));
            // The panel names the other configuration, so a long name has the panel's width.
            let x = Axis::log(format!("{fname} (ms)"), span());
            let y = Axis::log("other configuration (ms)", span());
            let edge = 10f64.powf(x.hi - 0.12);
            let lo = 10f64.powf(x.lo);
            let (mut ok, mut out) = (Vec::new(), Vec::new());
            for m in per.values() {
                if let (Some(a), Some(b)) = (m.get(&flag), m.get(&c)) {
                    let p = (a.unwrap_or(edge), b.unwrap_or(edge));
                    if a.is_some() && b.is_some() {
                        ok.push(p);
                    } else {
                        out.push(p);
                    }
                }
            }
            Panel {
                title: format!("{} (y)", d.configs[c]),
                x,
                y,
                marks: vec![
                    Mark::Guide {
                        pts: vec![(lo, lo), (edge * 1.5, edge * 1.5)],
                    },
                    Mark::Points {
                        style: c,
                        pts: ok,
                        hollow: false,
                    },
                    Mark::Points {
                        style: c,
                        pts: out,
                        hollow: true,
                    },
                ],
            }
        })
        .collect();
    let names: Vec<&str> = others.iter().map(|&c| d.configs[c].as_str()).collect();
    Ok(figure(
        d,
        "scatter",
        "Per-instance wall time against the flagship",
        format!(
            "Each point is one instance: median wall time over its trials of {fname} (x; the configuration that answered the most instances, then the fastest) against {} (y, one panel each, titled by its name: the next {} by the same ranking{}). Below the diagonal the other configuration is faster. Hollow markers at the top or right edge: no answer in half the trials or more. Log scales.",
            names.join(", "),
            names.len(),
            if ranked.len() - 1 > names.len() { format!("; {} others not shown", ranked.len() - 1 - names.len()) } else { String::new() }
        ),
        panels,
        (300.0, 300.0),
    ))
    .map(|mut f| {
        // An axis titled by a configuration's name needs the figure's width.
        f.cols = 1;
        f
    })
}

fn success_vs_givens(d: &Data) -> Built {
    type Buckets = BTreeMap<i64, (usize, usize)>;
    let mut g: BTreeMap<Facet, BTreeMap<usize, Buckets>> = BTreeMap::new();
    for r in d.rows.iter().filter(|r| r.kind == "solve") {
        let cells = (r.order * r.order * r.order * r.order) as f64;
        let bucket = ((r.givens as f64 / cells) * 20.0).round() as i64 * 5;
        let e = g
            .entry((r.order, facet(r.order, &r.variant)))
            .or_default()
            .entry(d.cfg(r))
            .or_default()
            .entry(bucket)
            .or_default();
        e.0 += r.success() as usize;
        e.1 += 1;
    }
    g.retain(|_, s| s.values().any(|b| b.len() >= 3));
    if g.is_empty() {
        return Err("the share of givens spans fewer than 3 buckets of 5 % at every grid size: no trend over givens to show".into());
    }
    let panels = facets(&g, |title, series| {
        let xs: Vec<f64> = series
            .iter()
            .flat_map(|(_, b)| b.keys().map(|&k| k as f64))
            .collect();
        let (lo, hi) = xs
            .iter()
            .fold((100.0f64, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
        let marks = series
            .iter()
            .map(|(style, b)| Mark::Line {
                style: *style,
                pts: b
                    .iter()
                    .map(|(&x, &(ok, n))| (x as f64, 100.0 * ok as f64 / n as f64))
                    .collect(),
                step: false,
            })
            .collect();
        Panel {
            title: title.to_string(),
            x: Axis::linear("givens (% of cells)", lo - 2.5, hi + 2.5),
            y: Axis::linear("runs solved (%)", 0.0, 104.0),
            marks,
        }
    });
    Ok(figure(
        d,
        "success_vs_givens",
        "Success rate against the share of givens",
        "Share of runs that ended with a verified answer, by the proportion of cells given (as Lewis draws it) in bins of 5 %, one panel per grid size where the givens vary over at least three bins.".into(),
        panels,
        (280.0, 260.0),
    ))
}

/// Traces per facet (order), configuration and run (task): `(elapsed ms, best cost)` in order.
type Runs = BTreeMap<Facet, BTreeMap<usize, BTreeMap<usize, Vec<(f64, u64)>>>>;

fn trace_runs(d: &Data) -> Runs {
    let mut g: Runs = BTreeMap::new();
    for t in d.traces {
        let n = t.order * t.order;
        g.entry((t.order, format!("{n}×{n}")))
            .or_default()
            .entry(d.style(&t.method, &t.params))
            .or_default()
            .entry(t.task)
            .or_default()
            .push((t.elapsed_ms, t.best_cost));
    }
    g.into_iter()
        .map(|(k, mut v)| {
            for runs in v.values_mut() {
                for pts in runs.values_mut() {
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                }
            }
            (k, v)
        })
        .collect()
}

const NO_TRACES: &str = "no traces.csv rows (only metaheuristics run with trace=true write them)";

fn convergence(d: &Data) -> Built {
    let g = trace_runs(d);
    if g.is_empty() {
        return Err(NO_TRACES.into());
    }
    let panels = facets(&g, |title, series| {
        let times = series
            .iter()
            .flat_map(|(_, r)| r.values().flatten().map(|p| p.0));
        let x = Axis::log("time (ms)", times.clone());
        let top = series
            .iter()
            .flat_map(|(_, r)| r.values().flatten().map(|p| p.1))
            .max()
            .unwrap_or(1);
        let y = Axis::linear("best cost (digits)", 0.0, top as f64 * 1.05 + 0.5);
        let mut marks = Vec::new();
        for &(style, runs) in series {
            let lo = runs
                .values()
                .flatten()
                .map(|p| p.0)
                .filter(|t| *t > 0.0)
                .fold(f64::INFINITY, f64::min);
            let hi = runs.values().flatten().map(|p| p.0).fold(0.0, f64::max);
            if !lo.is_finite() || hi <= 0.0 {
                continue;
            }
            let steps = 40;
            let grid: Vec<f64> = (0..=steps)
                .map(|i| lo * (hi / lo).max(1.0).powf(i as f64 / steps as f64))
                .collect();
            let q: Vec<(f64, (f64, f64, f64))> = grid
                .iter()
                .map(|&t| {
                    let at: Vec<f64> = runs
                        .values()
                        .filter_map(|pts| {
                            let first = pts.first()?;
                            let last = pts.iter().take_while(|p| p.0 <= t).last().unwrap_or(first);
                            Some(last.1 as f64)
                        })
                        .collect();
                    (t, quartiles(&at))
                })
                .collect();
            median_band(style, &q, &mut marks);
        }
        Panel {
            title: title.to_string(),
            x,
            y,
            marks,
        }
    });
    Ok(figure(
        d,
        "convergence",
        "Convergence: best cost against time",
        "Best cost reached so far (digits missing from rows and columns; 0 is a solution) against time, median (line) and interquartile band over all traced runs of a configuration at a grid size; a run counts at its last cost after it stops. Log time scale.".into(),
        panels,
        (280.0, 260.0),
    ))
}

/// Targets of the fixed-target chart: 0, 1, 2, 5, 10, 20, 50, … up to `top`.
fn targets(top: u64) -> Vec<u64> {
    let mut t = vec![0];
    let mut base = 1;
    'outer: loop {
        for m in [1, 2, 5] {
            if base * m > top {
                break 'outer;
            }
            t.push(base * m);
        }
        base *= 10;
    }
    t.reverse();
    t
}

fn ert(d: &Data) -> Built {
    let g = trace_runs(d);
    if g.is_empty() {
        return Err(NO_TRACES.into());
    }
    let wall: BTreeMap<usize, f64> = d.rows.iter().map(|r| (r.task, r.wall_ms)).collect();
    let top = g
        .values()
        .flat_map(|s| {
            s.values()
                .flat_map(|r| r.values().filter_map(|p| p.first().map(|x| x.1)))
        })
        .max()
        .unwrap_or(0);
    let ts = targets(top);
    let labels: Vec<(f64, String)> = ts
        .iter()
        .enumerate()
        .map(|(i, t)| (i as f64, t.to_string()))
        .collect();
    let panels = facets(&g, |title, series| {
        let mut marks = Vec::new();
        let mut all = Vec::new();
        for &(style, runs) in series {
            let pts: Vec<(f64, f64)> = ts
                .iter()
                .enumerate()
                .filter_map(|(i, &target)| {
                    let (mut total, mut hits) = (0.0, 0usize);
                    for (task, pts) in runs {
                        let end = wall
                            .get(task)
                            .copied()
                            .unwrap_or_else(|| pts.last().map_or(0.0, |p| p.0));
                        match pts.iter().find(|p| p.1 <= target) {
                            Some(p) => {
                                total += p.0;
                                hits += 1;
                            }
                            None => total += end,
                        }
                    }
                    (hits > 0).then(|| (i as f64, total / hits as f64))
                })
                .collect();
            all.extend(pts.iter().map(|p| p.1));
            marks.push(Mark::Line {
                style,
                pts,
                step: false,
            });
        }
        Panel {
            title: title.to_string(),
            x: Axis::categories("target cost (digits)", labels.clone()),
            y: Axis::log("ERT (ms)", all),
            marks,
        }
    });
    Ok(figure(
        d,
        "ert",
        "Expected running time to reach a target cost",
        "Fixed-target view: for each target cost (right: harder, 0 = solved), ERT as COCO and IOHprofiler define it, the summed time of all traced runs (a run that reached the target counts until it did, one that did not its whole wall time) divided by the number that reached it. A missing point: no run reached that target. Log scale.".into(),
        panels,
        (280.0, 260.0),
    ))
}

/// One chart per parameter that a method sweeps over numeric values with every other
/// parameter fixed: wall time against the value, one series per grid size.
fn sweeps(d: &Data) -> Vec<(String, Built)> {
    let mut by_method: BTreeMap<&str, Vec<&Trial>> = BTreeMap::new();
    for r in d.rows {
        by_method.entry(&r.method).or_default().push(r);
    }
    let mut out = Vec::new();
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
        let keys: BTreeSet<&str> = parsed.iter().flat_map(|m| m.keys().copied()).collect();
        for key in keys {
            let values: BTreeSet<&str> =
                parsed.iter().filter_map(|m| m.get(key).copied()).collect();
            if values.len() < 2 || values.iter().any(|v| v.parse::<f64>().is_err()) {
                continue;
            }
            // Every other parameter must be fixed for the sweep to mean something.
            let others: BTreeSet<Vec<(&str, &str)>> = parsed
                .iter()
                .map(|m| {
                    m.iter()
                        .filter(|(k, _)| **k != key)
                        .map(|(k, v)| (*k, *v))
                        .collect()
                })
                .collect();
            if others.len() != 1 {
                continue;
            }
            // order → value → wall times
            let mut series: BTreeMap<usize, BTreeMap<String, (f64, Vec<f64>)>> = BTreeMap::new();
            for (r, m) in rs.iter().zip(&parsed) {
                let Some(v) = m.get(key) else { continue };
                series
                    .entry(r.order)
                    .or_default()
                    .entry(v.to_string())
                    .or_insert((v.parse().unwrap_or(0.0), Vec::new()))
                    .1
                    .push(r.wall_ms);
            }
            let xs: Vec<f64> = series
                .values()
                .flat_map(|m| m.values().map(|p| p.0))
                .collect();
            let (lo, hi) = xs
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                    (a.min(x), b.max(x))
                });
            let pad = ((hi - lo) * 0.05).max(1e-9);
            let orders: Vec<usize> = series.keys().copied().collect();
            // One panel: the grid sizes of one sweep side by side.
            let mut marks = Vec::new();
            let mut all = Vec::new();
            for (style, o) in orders.iter().enumerate() {
                let mut pts: Vec<(f64, (f64, f64, f64))> = series[o]
                    .values()
                    .map(|(x, v)| (*x, quartiles(v)))
                    .collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                all.extend(pts.iter().flat_map(|p| [p.1 .0, p.1 .2]));
                marks.push(Mark::Bars {
                    style,
                    pts: pts.iter().map(|(x, q)| (*x, q.0, q.2)).collect(),
                });
                marks.push(Mark::Line {
                    style,
                    pts: pts.iter().map(|(x, q)| (*x, q.1)).collect(),
                    step: false,
                });
            }
            let panels = vec![Panel {
                title: String::new(),
                x: Axis::linear(
                    format!("{} (parameter value)", escape::chart(key)),
                    lo - pad,
                    hi + pad,
                ),
                y: Axis::log(WALL, all),
                marks,
            }];
            let keys = orders
                .iter()
                .enumerate()
                .map(|(i, o)| Key {
                    label: format!("{} {}", escape::chart(method), facet(*o, "")),
                    style: i,
                })
                .collect();
            let stem = format!("sweep_{}_{}", method, key)
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_");
            out.push((
                stem.clone(),
                Ok(Figure {
                    stem,
                    title: format!("{} against {}", escape::chart(method), escape::chart(key)),
                    caption: format!("Median wall time per run (line) and interquartile range (bars) of {} as {} varies, every other parameter fixed; one series per grid size (colours here are grid sizes, not configurations). Log scale.", escape::chart(method), escape::chart(key)),
                    cols: 1,
                    panel_h: 280.0,
                    keys,
                    panels,
                    configs: false,
                }),
            ));
        }
    }
    out
}
