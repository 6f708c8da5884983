//! A run's trials as the outputs read them ([`Trials`]): each row of `trials.csv` ([`Row`])
//! without the columns no summary, statistic, finding or chart reads. What a trial shares with
//! others is held once for all of them and read through it: its configuration's columns (kind,
//! method, parameters, variant, limit, threads, commit: [`ConfigFacts`]), and those of its
//! configuration and instance (set, instance, order, givens, and the status, which an
//! instance's trials mostly share: [`Facts`]). A [`Trial`] derefs to its facts, which deref to
//! their configuration (`trial.instance`, `trial.method`), and every text is held once for the
//! whole run ([`Name`]), so a trial itself is its measurements and one pointer: 56 bytes. A
//! [`Row`] with its own copy of each text took about 1.2 KB in memory, a trial with its own
//! names 144 bytes. [`Trials::read`] reads `trials.csv` a row at a time, never whole.

use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::num::NonZeroU64;
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

use crate::meta::RunSettings;
use crate::{visit_checked, AnalysisError, Row, TrialStatus};

/// A text that every trial having it shares: one pointer each, the text once. It reads as the
/// `&str` it holds (`&*name`, `name.len()`, `name == "solve"`), and orders, hashes and compares
/// as that text.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<String>);

impl Name {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Arc::new(s.to_string()))
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The texts and facts met so far, each held once: [`Names::get`] gives the [`Name`] of a
/// text, [`Names::facts`] the shared [`Facts`] of a row.
#[derive(Clone, Debug, Default)]
pub struct Names {
    texts: HashSet<Name>,
    /// Configurations by the addresses of their (shared) texts, and threads.
    configs: HashMap<([usize; 6], u32), Arc<ConfigFacts>>,
    /// Facts by their configuration's address, their texts', their numbers and status.
    facts: HashMap<[usize; 6], Arc<Facts>>,
}

/// A shared value's address, which identifies it among values that are shared.
fn address<T>(shared: &Arc<T>) -> usize {
    Arc::as_ptr(shared) as usize
}

impl Names {
    /// The shared [`Name`] of `text`.
    pub fn get(&mut self, text: &str) -> Name {
        if let Some(n) = self.texts.get(text) {
            return n.clone();
        }
        let n = Name::from(text);
        self.texts.insert(n.clone());
        n
    }

    /// The shared [`Facts`] of `row`.
    pub fn facts(&mut self, row: &Row) -> Arc<Facts> {
        let config = self.config(row);
        let [instance_set, instance] = [&row.instance_set, &row.instance].map(|t| self.get(t));
        let key = [
            address(&config),
            address(&instance_set.0),
            address(&instance.0),
            row.order,
            row.givens,
            row.status as usize,
        ];
        self.facts
            .entry(key)
            .or_insert_with(|| {
                Arc::new(Facts {
                    config,
                    instance_set,
                    instance,
                    order: row.order,
                    givens: row.givens,
                    status: row.status,
                })
            })
            .clone()
    }

    /// The shared [`ConfigFacts`] of `row`.
    fn config(&mut self, row: &Row) -> Arc<ConfigFacts> {
        let texts = [
            &row.kind,
            &row.method,
            &row.params,
            &row.variant,
            &row.limit,
            &row.commit,
        ]
        .map(|t| self.get(t));
        let key = (texts.each_ref().map(|n| address(&n.0)), row.threads);
        self.configs
            .entry(key)
            .or_insert_with(|| {
                let [kind, method, params, variant, limit, commit] = texts;
                Arc::new(ConfigFacts {
                    kind,
                    method,
                    params,
                    variant,
                    limit,
                    threads: row.threads,
                    commit,
                })
            })
            .clone()
    }
}

/// What a trial has in common with the other trials of its configuration, held once for all
/// of them (with the limit that stopped it, the threads it ran on and the commit): the same
/// names as the columns of its [`Row`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigFacts {
    /// solve, count, relax, generate or logic-lp.
    pub kind: Name,
    /// Method (or generator) name.
    pub method: Name,
    /// Parameters, `k=v k=v`.
    pub params: Name,
    /// classic or diagonal.
    pub variant: Name,
    /// Which limit ran out (time, nodes, iterations), if one did.
    pub limit: Name,
    /// Threads the call ran on at once.
    pub threads: u32,
    /// The commit the binary was built from.
    pub commit: Name,
}

/// What a trial has in common with the other trials of its configuration and instance that
/// ended the same way, held once for all of them; its configuration's are read through it
/// ([`ConfigFacts`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// The configuration.
    pub config: Arc<ConfigFacts>,
    /// The instance set.
    pub instance_set: Name,
    /// The instance.
    pub instance: Name,
    /// Order n.
    pub order: usize,
    /// Number of givens.
    pub givens: usize,
    /// How the trial ended.
    pub status: TrialStatus,
}

/// Facts read as their configuration's too: `facts.method`.
impl Deref for Facts {
    type Target = ConfigFacts;
    fn deref(&self) -> &ConfigFacts {
        &self.config
    }
}

/// One trial: the columns of its [`Row`] that an output reads, under the same names: its own
/// measurements here, the rest ([`Facts`], [`ConfigFacts`]) shared and read through it
/// (`trial.instance`, `trial.method`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trial {
    /// What it shares with the trials of its configuration and instance.
    pub facts: Arc<Facts>,
    /// Position in the experiment's stable task order (traces name their trial by it; the
    /// rows' check keeps it below 2³²).
    pub task: u32,
    /// Wall time of the method call (ms).
    pub wall_ms: f64,
    /// CPU time of the method call (ms).
    pub cpu_ms: f64,
    /// Search nodes.
    pub nodes: u64,
    /// Branching decisions.
    pub guesses: u64,
    /// Iterations.
    pub iterations: u64,
    /// Trial number, from 0.
    pub trial: u32,
    /// The best cost the method reached, plus one (a metaheuristic's; none for the others):
    /// one more than the cost so that it takes no more room than a number.
    best: Option<NonZeroU64>,
}

/// A trial reads as its facts too: `trial.instance`, `trial.order`, and through them as its
/// configuration: `trial.method`.
impl Deref for Trial {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl Trial {
    /// `row`'s columns that the outputs read, its facts shared through `names`.
    pub fn of(row: &Row, names: &mut Names) -> Trial {
        Trial {
            facts: names.facts(row),
            // Below 2³², as every row read is checked to be.
            task: row.task as u32,
            wall_ms: row.wall_ms,
            cpu_ms: row.cpu_ms,
            nodes: row.nodes,
            guesses: row.guesses,
            iterations: row.iterations,
            trial: row.trial,
            best: row
                .best_cost
                .and_then(|c| NonZeroU64::new(c.saturating_add(1))),
        }
    }

    /// The best cost the method reached, in its own measure (a metaheuristic's; none for the
    /// other methods).
    pub fn best_cost(&self) -> Option<u64> {
        self.best.map(|b| b.get() - 1)
    }

    /// Did the trial end with a definitive, verified answer?
    pub fn success(&self) -> bool {
        self.status.is_success()
    }
}

/// A run's trials, in the order of its rows, and its experiment's name (the first row's).
#[derive(Clone, Debug, Default)]
pub struct Trials {
    /// The experiment of the rows (empty when there are none).
    pub experiment: String,
    trials: Vec<Trial>,
}

impl Trials {
    /// The trials of `rows`.
    pub fn of_rows<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Trials {
        let mut names = Names::default();
        let mut out = Trials::default();
        for r in rows {
            out.push(r, &mut names);
        }
        out
    }

    /// The trials of the results file `path`, read a row at a time and checked as
    /// [`crate::read_checked`] checks them (against `settings` when given).
    pub fn read(path: &Path, settings: Option<&RunSettings>) -> Result<Trials, AnalysisError> {
        let mut names = Names::default();
        let mut out = Trials {
            experiment: String::new(),
            // As many as the file has lines, so that a large run's list is allocated once
            // instead of doubling past it (a row of a quoted field over lines is rare).
            trials: Vec::with_capacity(lines(path)?),
        };
        visit_checked::<Row>(path, settings, |r| out.push(&r, &mut names))?;
        out.trials.shrink_to_fit();
        Ok(out)
    }

    fn push(&mut self, r: &Row, names: &mut Names) {
        if self.trials.is_empty() {
            self.experiment = r.experiment.clone();
        }
        self.trials.push(Trial::of(r, names));
    }
}

impl From<Vec<Row>> for Trials {
    fn from(rows: Vec<Row>) -> Trials {
        Trials::of_rows(&rows)
    }
}

impl Deref for Trials {
    type Target = [Trial];
    fn deref(&self) -> &[Trial] {
        &self.trials
    }
}

/// The lines of the file `path` after its header.
fn lines(path: &Path) -> Result<usize, AnalysisError> {
    use std::io::Read as _;
    let mut f = std::fs::File::open(path).map_err(|e| AnalysisError::io(path, e))?;
    let (mut n, mut buf) = (0usize, vec![0u8; 1 << 16]);
    loop {
        match f.read(&mut buf).map_err(|e| AnalysisError::io(path, e))? {
            0 => return Ok(n.saturating_sub(1)),
            k => n += buf[..k].iter().filter(|&&b| b == b'\n').count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trial_keeps_its_rows_columns_and_shares_its_texts() {
        let row = |i: usize| Row {
            task: i,
            experiment: "e".into(),
            kind: "solve".into(),
            method: "prop".into(),
            variant: "classic".into(),
            order: 3,
            instance_set: "s".into(),
            instance: format!("s:{}", i % 2),
            trial: i as u32,
            status: TrialStatus::Timeout,
            wall_ms: i as f64,
            limit: "time".into(),
            threads: 2,
            commit: "abc".into(),
            ..Row::default()
        };
        let rows: Vec<Row> = (0..4).map(row).collect();
        let t = Trials::of_rows(&rows);
        assert_eq!((t.len(), t.experiment.as_str()), (4, "e"));
        assert_eq!(t[3].instance, "s:1");
        assert!(t[1].limit == "time" && !t[1].success());
        assert_eq!((t[2].wall_ms, t[2].threads, t[2].trial), (2.0, 2, 2));
        assert_eq!(t[0].best_cost(), None);
        let costs: Vec<Option<u64>> = [0, 7, u64::MAX]
            .into_iter()
            .map(|c| {
                let r = Row {
                    best_cost: Some(c),
                    ..row(0)
                };
                Trials::of_rows([&r])[0].best_cost()
            })
            .collect();
        assert_eq!(costs, [Some(0), Some(7), Some(u64::MAX - 1)]);
        // One text for every trial that has it, one set of facts for the trials of an
        // instance.
        assert!(Arc::ptr_eq(&t[0].method.0, &t[3].method.0));
        assert!(Arc::ptr_eq(&t[1].instance.0, &t[3].instance.0));
        assert!(Arc::ptr_eq(&t[1].facts, &t[3].facts));
        assert!(!Arc::ptr_eq(&t[0].facts, &t[1].facts));
        assert!(Arc::ptr_eq(&t[0].facts.config, &t[1].facts.config));
        assert_eq!(std::mem::size_of::<Trial>(), 64);
    }
}
