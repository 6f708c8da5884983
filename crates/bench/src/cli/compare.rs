//! `compare`: two results folders of one experiment (before and after a change, two machines,
//! two versions of a method), B against the baseline A: per configuration and instance group the
//! ratios of medians and of PAR-2 with bootstrap intervals, a paired test, and the regressions
//! beyond a threshold ([`sudoku_analysis::baseline`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::Args;

use sudoku_analysis::baseline::{self, Side};
use sudoku_analysis::escape::visible;
use sudoku_analysis::files;
use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{read_rows, write_whole, Row};
use sudoku_report::{Report, Section};

use crate::cli::findings::{clocked, partial_rows, ClockArg};
use crate::cli::Failure;
use crate::io::{shown, Out};
use sudoku_runner::outputs::check_meta_experiment;

#[derive(Args)]
pub struct CompareArgs {
    /// The baseline results folder (A).
    pub a: PathBuf,
    /// The results folder compared with it (B); ratios are B over A.
    pub b: PathBuf,
    /// A ratio whose whole 95 % interval lies above 1 + THRESHOLD is a regression: a share
    /// from 0 to 10 (0.1: 10 %).
    #[arg(long, value_name = "T", default_value_t = baseline::THRESHOLD, allow_negative_numbers = true)]
    pub threshold: f64,
    /// Write compare.md and compare.html into this folder instead of printing Markdown.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Exit 1 when a line is a regression (for CI).
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Which clock the ratios use: `harness` (`wall_ms`) or `own` (`solve_ms`, each solver's
    /// search alone, where every answered trial of a group has it; see `findings --clock`).
    #[arg(long, value_enum, default_value_t = ClockArg::Harness)]
    pub clock: ClockArg,
}

/// A results folder's rows and meta.json.
fn load(dir: &Path) -> anyhow::Result<(Vec<Row>, Option<RunMeta>)> {
    let trials = dir.join(files::TRIALS);
    if !trials.exists() {
        bail!(
            "{} not found: `compare` needs two results folders written by `run`",
            trials.display()
        );
    }
    check_meta_experiment(dir)?;
    let rows: Vec<Row> = read_rows(&trials)?;
    if rows.is_empty() {
        bail!(
            "{}: no trial rows (the file is empty or only a header): nothing to compare",
            trials.display()
        );
    }
    Ok((rows, RunMeta::read(dir)?))
}

/// The largest `--threshold`: a regression of 1000 %.
const MAX_THRESHOLD: f64 = 10.0;

/// `--threshold`, checked: a share from 0 to [`MAX_THRESHOLD`]; one of 1 or more (100 %) is
/// taken, with a warning that it is not a percentage.
fn threshold(t: f64) -> anyhow::Result<f64> {
    let range = format!("give a share from 0 to {MAX_THRESHOLD} (0.1 is 10 %)");
    if t.is_nan() {
        bail!("--threshold NaN is not a number: {range}");
    }
    if t < 0.0 {
        bail!("--threshold {t} is negative: {range}");
    }
    if t > MAX_THRESHOLD {
        bail!("--threshold {t} is more than {MAX_THRESHOLD}: {range}");
    }
    if t >= 1.0 {
        say!(
            "warning: --threshold {t} is a share: a regression must be more than {:.0} % slower (for {t} %, give {})",
            t * 100.0,
            t / 100.0
        );
    }
    Ok(t)
}

/// Each instance's givens in `rows`, by its set and name.
fn givens(rows: &[Row]) -> BTreeMap<(&str, &str), usize> {
    rows.iter()
        .map(|r| ((r.instance_set.as_str(), r.instance.as_str()), r.givens))
        .collect()
}

/// Refuses two runs whose instances of one name are different puzzles: `compare` pairs
/// instances by name, so it would compare different work (`run --resume` refuses the same
/// change). Known from the rows (an instance's givens differ) or from meta.json (the
/// instances' digest differs while their number is the same). When the number differs too
/// (instances added or removed), the shared names may still be the same puzzles: a note says
/// what cannot be checked.
fn same_puzzles(
    names: (&str, &str),
    rows: (&[Row], &[Row]),
    metas: (Option<&RunMeta>, Option<&RunMeta>),
) -> anyhow::Result<Option<String>> {
    let (ga, gb) = (givens(rows.0), givens(rows.1));
    let changed: Vec<String> = ga
        .iter()
        .filter_map(|(k, a)| {
            gb.get(k)
                .filter(|b| *b != a)
                .map(|b| format!("`{}` has {a} givens in A, {b} in B", visible(k.1)))
        })
        .collect();
    let settings = |m: Option<&RunMeta>| m.and_then(|m| m.settings.clone());
    let digests = match (settings(metas.0), settings(metas.1)) {
        (Some(a), Some(b)) if a.instances_digest != b.instances_digest => Some((a, b)),
        _ => None,
    };
    let what = match &digests {
        Some((a, b)) => format!(
            " (meta.json: the instances' digest is {} in A, {} in B)",
            a.instances_digest, b.instances_digest
        ),
        None => String::new(),
    };
    let refuse = |why: String| {
        anyhow!(
            "{} (A) and {} (B) ran different puzzles under the same names: {why}{what}; compare pairs instances by name, so it would compare different work: run both on the same puzzle files",
            visible(names.0),
            visible(names.1)
        )
    };
    if !changed.is_empty() {
        let more = match changed.len() {
            1..=3 => String::new(),
            n => format!(" and {} more", n - 3),
        };
        return Err(refuse(format!(
            "{}{more}",
            changed[..changed.len().min(3)].join(", ")
        )));
    }
    match digests {
        Some((a, b)) if a.instances == b.instances => Err(refuse(format!(
            "the instances' puzzles or names changed between the runs, {} instances in each",
            a.instances
        ))),
        Some((a, b)) => Ok(Some(format!(
            "The runs were made on other instances ({} in A, {} in B; meta.json's digests differ): instances are paired by name, and a puzzle changed under its name would not show.",
            a.instances, b.instances
        ))),
        None => Ok(None),
    }
}

/// Compares B with A; prints Markdown, or writes compare.md and compare.html.
pub fn compare(a: &CompareArgs) -> Result<(), Failure> {
    let threshold = threshold(a.threshold)?;
    let (rows_a, meta_a) = load(&a.a)?;
    let (rows_b, meta_b) = load(&a.b)?;
    let (name_a, name_b) = (a.a.display().to_string(), a.b.display().to_string());
    let instances = same_puzzles(
        (&name_a, &name_b),
        (&rows_a, &rows_b),
        (meta_a.as_ref(), meta_b.as_ref()),
    )?;
    let partial: Vec<String> = [(&a.a, &meta_a, "A"), (&a.b, &meta_b, "B")]
        .into_iter()
        .filter_map(|(dir, meta, side)| {
            partial_rows(dir, meta.as_ref()).map(|why| format!("{side}: {why}."))
        })
        .collect();
    let (rows_a, on_clock) = clocked(rows_a, a.clock);
    let (rows_b, on_clock_b) = clocked(rows_b, a.clock);
    let mut c = baseline::compare_runs(
        &Side {
            name: &name_a,
            rows: &rows_a,
            meta: meta_a.as_ref(),
        },
        &Side {
            name: &name_b,
            rows: &rows_b,
            meta: meta_b.as_ref(),
        },
        threshold,
    )?;
    // Said first: they change how every line reads.
    for p in &partial {
        say!("warning: {p}");
    }
    c.notes.splice(0..0, partial.into_iter().chain(instances));
    let mut md = baseline::markdown(&c);
    if a.clock == ClockArg::Own {
        md = format!("_A:{on_clock}_\n\n_B:{on_clock_b}_\n\n{md}");
    }
    match &a.out {
        None => {
            let mut stdout = Out::new();
            stdout.text(&md)?;
            stdout.finish()?;
        }
        Some(out) => {
            std::fs::create_dir_all(out).with_context(|| format!("creating {}", shown(out)))?;
            let _lock = crate::cli::findings::lock_if_results(out, "compare")?;
            let page = Report {
                title: format!("Compare: {}", c.experiment),
                lead: "Run B against the baseline A: ratios are B over A, above 1 is slower."
                    .into(),
                sections: vec![Section::new("compare", "B against A", baseline::html(&c))],
            };
            let mut stdout = Out::new();
            for (name, text) in [("compare.md", md), ("compare.html", page.to_html())] {
                let path = out.join(name);
                write_whole(&path, &text)?;
                stdout.line(shown(&path))?;
            }
            stdout.finish()?;
            say!("{}", baseline::summary(&c));
        }
    }
    if a.fail_on_regression && c.regressed() {
        return Err(Failure::Check);
    }
    Ok(())
}
