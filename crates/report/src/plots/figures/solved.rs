//! The charts of solved runs' times: how many are solved within a time (`cactus`) and the
//! share solved by a time (`ecdf`); apart because both read the same sorted solved times.

use std::collections::BTreeMap;

use crate::plots::{Axis, Mark, Panel};
use sudoku_analysis::stats::sorted;

use super::common::{by_facet, facets, figure, Built, Data, Facet, WALL};

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

pub(super) fn cactus(d: &Data) -> Built {
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

pub(super) fn ecdf(d: &Data) -> Built {
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
                // Room for the two ends at once: a series of a million points is not copied
                // into a list twice its size to add them.
                let mut pts: Vec<(f64, f64)> = Vec::with_capacity(v.len() + 2);
                if let Some(&t0) = v.first() {
                    pts.push((t0, 0.0));
                }
                pts.extend(
                    v.iter()
                        .enumerate()
                        .map(|(k, &t)| (t, (k + 1) as f64 / *n as f64)),
                );
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
