//! Which tasks are left: the trials `trials.csv` already holds (resume), and this shard's share
//! of the plan.

use std::collections::HashSet;
use std::path::Path;

use sudoku_analysis::files;
use sudoku_analysis::meta::{ConfigSettings, RunMeta, RunSettings};
use sudoku_core::format::to_text;

use crate::error::{Result, RunError};
use crate::plan::{Plan, Task};
use crate::results::{done_keys, read_rows_resuming, task_key, write_rows, TraceRow};
use crate::shard::Shard;
use crate::sink::{Event, Sink};

/// The tasks of this shard, and of those the ones still to run.
pub struct Todo<'p> {
    /// Tasks of this shard.
    pub mine: usize,
    /// Tasks to run now, in order.
    pub tasks: Vec<&'p Task>,
    /// The lines of `traces.csv` to keep, when there is one: those of trials that got their
    /// row ([`Todo::prune_traces`] writes them).
    traces: Option<Vec<TraceRow>>,
}

impl Todo<'_> {
    /// Rewrites `out/traces.csv` without the lines of trials that never got their row (they
    /// run again). The first write [`remaining`] leads to.
    pub fn prune_traces(&self, out: &Path) -> Result<()> {
        match &self.traces {
            Some(kept) => Ok(write_rows(&out.join(files::TRACES), kept)?),
            None => Ok(()),
        }
    }
}

/// Reads what an earlier run left in `out` (with `resume`, the run's settings, which its rows
/// must match; without it, refuses a folder that already holds trials) and returns the tasks
/// still to run in `shard`. Writes nothing, so a refused run leaves the folder as it was; the
/// trace lines of trials that never got their row are dropped by [`Todo::prune_traces`].
pub fn remaining<'p>(
    plan: &'p Plan,
    out: &Path,
    resume: Option<&RunSettings>,
    shard: Option<Shard>,
) -> Result<Todo<'p>> {
    let trials_path = out.join(files::TRIALS);
    let (done, rows) = if let Some(settings) = resume {
        done_keys(&trials_path, settings)?
    } else {
        if trials_path.exists() && file_len(&trials_path)? > 0 {
            return Err(RunError::Folder(format!(
                "{} already holds results: pass --resume to continue that run, or --fresh to start over",
                trials_path.display()
            )));
        }
        (HashSet::new(), Vec::new())
    };
    // A trace line whose trial row never got written belongs to a trial that will run again.
    let traces_path = out.join(files::TRACES);
    let traces = if traces_path.exists() {
        let traces: Vec<TraceRow> = read_rows_resuming(&traces_path, None)?;
        let tasks: HashSet<usize> = rows.iter().map(|r| r.task).collect();
        Some(
            traces
                .into_iter()
                .filter(|t| tasks.contains(&t.task))
                .collect(),
        )
    } else {
        None
    };
    let mine: Vec<&Task> = plan
        .tasks
        .iter()
        .filter(|t| shard.is_none_or(|s| s.holds(t.index)))
        .collect();
    let mut tasks: Vec<&Task> = mine
        .iter()
        .copied()
        .filter(|t| !done.contains(&key_of(plan, t)))
        .collect();
    if plan.exp.interleave {
        // Stable: within one instance and trial the methods keep the file's order.
        tasks.sort_by_key(|t| (t.instance, t.trial));
    }
    Ok(Todo {
        mine: mine.len(),
        tasks,
        traces,
    })
}

/// The resume key of a task, as its row will have it.
fn key_of(plan: &Plan, t: &Task) -> String {
    let cfg = &plan.configs[t.config];
    let inst = &plan.instances[t.instance];
    task_key(
        &cfg.method,
        &cfg.params.shown(),
        inst.puzzle.variant().name(),
        &inst.id,
        t.trial,
    )
}

/// The length of the file at `path`.
fn file_len(path: &Path) -> Result<u64> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| RunError::io(format!("reading {}", path.display()), e))
}

/// The settings of a plan, as meta.json records them.
pub fn settings_of(plan: &Plan, shard: Option<Shard>) -> RunSettings {
    // FNV-1a over every instance's id, set and givens: any change of puzzles changes it.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for inst in &plan.instances {
        let text = format!(
            "{}\t{}\t{}",
            inst.id,
            inst.set,
            to_text(inst.puzzle.givens())
        );
        for b in text.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    RunSettings {
        kind: plan.exp.kind.name().to_string(),
        seed: plan.exp.seed,
        count_limit: plan.exp.count_limit,
        shard: shard.map(|s| s.to_string()),
        configs: plan
            .configs
            .iter()
            .map(|c| ConfigSettings {
                label: c.label(),
                trials: c.trials,
                repeat: c.repeat,
                time_limit: c.budget.time.map(|t| t.as_secs_f64()),
                node_limit: c.budget.nodes,
                iteration_limit: c.budget.iterations,
                orders: c
                    .orders
                    .as_ref()
                    .map(|os| os.iter().map(|o| o.n()).collect()),
                variants: c
                    .variants
                    .as_ref()
                    .map(|vs| vs.iter().map(|v| v.to_string()).collect()),
            })
            .collect(),
        instances: plan.instances.len(),
        instances_digest: format!("{h:016x}"),
    }
}

/// Before `--resume` continues `out`: the settings recorded in its meta.json must be `new`,
/// or the folder would hold rows of two different runs while meta.json names only the last.
/// A folder without trials has nothing to mix; one whose meta.json predates recorded settings
/// is resumed with a warning to `sink`.
pub fn check_resume(out: &Path, new: &RunSettings, sink: &dyn Sink) -> Result<()> {
    let trials = out.join(files::TRIALS);
    if !trials.exists() || file_len(&trials)? == 0 {
        return Ok(());
    }
    let meta = out.join(files::META);
    let old = RunMeta::read(out)?.and_then(|m| m.settings);
    let Some(old) = old else {
        sink.event(Event::Warning(&format!(
            "{} records no settings (written by an older version): resuming without checking that they match",
            meta.display()
        )));
        return Ok(());
    };
    let differences = differences(&old, new);
    if differences.is_empty() {
        return Ok(());
    }
    Err(RunError::Settings {
        dir: out.to_path_buf(),
        differences,
    })
}

/// What changed from `old` to `new`, for people.
fn differences(old: &RunSettings, new: &RunSettings) -> Vec<String> {
    let mut d = Vec::new();
    let mut field = |what: &str, a: String, b: String| {
        if a != b {
            d.push(format!("{what} {a} → {b}"));
        }
    };
    field("kind", old.kind.clone(), new.kind.clone());
    field("seed", old.seed.to_string(), new.seed.to_string());
    field(
        "count limit",
        old.count_limit.to_string(),
        new.count_limit.to_string(),
    );
    field("shard", opt(&old.shard), opt(&new.shard));
    field(
        "instances",
        old.instances.to_string(),
        new.instances.to_string(),
    );
    if old.instances == new.instances && old.instances_digest != new.instances_digest {
        d.push("the instances' puzzles or names changed".to_string());
    }
    for o in &old.configs {
        match new.configs.iter().find(|n| n.label == o.label) {
            None => d.push(format!("`{}` is no longer in the plan", o.label)),
            Some(n) => {
                let l = &o.label;
                let mut f = |what: &str, a: String, b: String| {
                    if a != b {
                        d.push(format!("`{l}` {what} {a} → {b}"));
                    }
                };
                f("trials", o.trials.to_string(), n.trials.to_string());
                f("repeat", o.repeat.to_string(), n.repeat.to_string());
                f(
                    "time limit",
                    opt(&o.time_limit.map(|t| format!("{t} s"))),
                    opt(&n.time_limit.map(|t| format!("{t} s"))),
                );
                f("node limit", opt(&o.node_limit), opt(&n.node_limit));
                f(
                    "iteration limit",
                    opt(&o.iteration_limit),
                    opt(&n.iteration_limit),
                );
                f(
                    "orders",
                    format!("{:?}", o.orders),
                    format!("{:?}", n.orders),
                );
                f(
                    "variants",
                    format!("{:?}", o.variants),
                    format!("{:?}", n.variants),
                );
            }
        }
    }
    for n in &new.configs {
        if !old.configs.iter().any(|o| o.label == n.label) {
            d.push(format!("`{}` is new", n.label));
        }
    }
    d
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "none".to_string(), T::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::Quiet;

    fn settings() -> RunSettings {
        RunSettings {
            kind: "solve".into(),
            seed: 1,
            count_limit: 2,
            shard: None,
            configs: vec![ConfigSettings {
                label: "prop".into(),
                trials: 2,
                repeat: 1,
                time_limit: Some(2.0),
                node_limit: None,
                iteration_limit: None,
                orders: None,
                variants: None,
            }],
            instances: 3,
            instances_digest: "00ff".into(),
        }
    }

    #[test]
    fn differences_name_what_changed() {
        let old = settings();
        assert!(differences(&old, &old).is_empty());
        let mut new = settings();
        new.seed = 9;
        new.configs[0].time_limit = None;
        new.configs[0].node_limit = Some(10);
        new.instances_digest = "0100".into();
        new.configs.push(ConfigSettings {
            label: "dlx".into(),
            ..new.configs[0].clone()
        });
        assert_eq!(
            differences(&old, &new),
            [
                "seed 1 → 9",
                "the instances' puzzles or names changed",
                "`prop` time limit 2 s → none",
                "`prop` node limit none → 10",
                "`dlx` is new",
            ]
        );
    }

    #[test]
    fn only_folders_with_trials_and_recorded_settings_are_compared() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        // No trials yet: nothing to mix.
        assert!(check_resume(out, &settings(), &Quiet).is_ok());
        std::fs::write(out.join("trials.csv"), "task\n0\n").unwrap();
        // A meta.json from before settings were recorded: resumed (with a warning).
        std::fs::write(out.join("meta.json"), r#"{"experiment": "x"}"#).unwrap();
        assert!(check_resume(out, &settings(), &Quiet).is_ok());
        let meta = serde_json::json!({ "settings": settings() });
        std::fs::write(out.join("meta.json"), meta.to_string()).unwrap();
        assert!(check_resume(out, &settings(), &Quiet).is_ok());
        let mut other = settings();
        other.configs[0].trials = 1;
        let e = check_resume(out, &other, &Quiet).unwrap_err().to_string();
        assert!(
            e.contains("(`prop` trials 2 → 1); resuming would mix") && e.contains("--fresh"),
            "{e}"
        );
    }
}
