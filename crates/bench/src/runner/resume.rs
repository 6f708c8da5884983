//! Which tasks are left: the trials `trials.csv` already holds (resume), and this shard's share
//! of the plan.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{bail, Result};

use crate::results::{done_keys, read_rows, task_key, write_rows, TraceRow};
use crate::runner::plan::{Plan, Task};

/// The tasks of this shard, and of those the ones still to run.
pub struct Todo<'p> {
    /// Tasks of this shard.
    pub mine: usize,
    /// Tasks to run now, in order.
    pub tasks: Vec<&'p Task>,
}

/// Reads what an earlier run left in `out` (with `resume`; without it, refuses a folder that
/// already holds trials) and returns the tasks still to run in this shard (`(k, n)`: tasks
/// with `index % n == k - 1`). Trace lines of trials that never got their row are dropped.
pub fn remaining<'p>(
    plan: &'p Plan,
    out: &Path,
    resume: bool,
    shard: Option<(usize, usize)>,
) -> Result<Todo<'p>> {
    let trials_path = out.join("trials.csv");
    let (done, rows) = if resume {
        done_keys(&trials_path)?
    } else {
        if trials_path.exists() && std::fs::metadata(&trials_path)?.len() > 0 {
            bail!(
                "{} already holds results: pass --resume to continue that run, or --fresh to start over",
                trials_path.display()
            );
        }
        (HashSet::new(), Vec::new())
    };
    // A trace line whose trial row never got written belongs to a trial that will run again.
    let traces_path = out.join("traces.csv");
    if traces_path.exists() {
        let traces: Vec<TraceRow> = read_rows(&traces_path)?;
        let tasks: HashSet<usize> = rows.iter().map(|r| r.task).collect();
        let kept: Vec<TraceRow> = traces
            .into_iter()
            .filter(|t| tasks.contains(&t.task))
            .collect();
        write_rows(&traces_path, &kept)?;
    }
    let mine: Vec<&Task> = plan
        .tasks
        .iter()
        .filter(|t| shard.is_none_or(|(k, n)| t.index % n == k - 1))
        .collect();
    Ok(Todo {
        mine: mine.len(),
        tasks: mine
            .into_iter()
            .filter(|t| !done.contains(&key_of(plan, t)))
            .collect(),
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
