//! Two runs of one experiment compared, as criterion compares a benchmark with its baseline:
//! before and after a change, on two machines, or two versions of a method. Run A is the
//! baseline, run B the new one; ratios are B over A, so above 1 is slower.
//!
//! **Unit.** Per method configuration and instance group (kind, variant, order, instance set),
//! the instances both runs ran with that configuration. Each instance's value in a run is the
//! mean PAR-2 score of its trials there (wall time when solved, else twice the configuration's
//! time limit in that run), so a trial that newly times out counts as the slowdown it is. A line
//! with fewer than [`MIN_PAIRS`] shared instances is compared trial by trial instead: trial `t`
//! of an instance in A against trial `t` of the same instance in B (the same seed, so the same
//! work for the same code), when there are [`MIN_PAIRS`] such pairs or more.
//!
//! **Ratios.** The ratio of medians (median over the units of B's values over A's) and the
//! ratio of PAR-2 scores (mean over mean). From [`MIN_PAIRS`] units on, each has a 95 %
//! confidence interval by the percentile bootstrap over units, resampled in pairs
//! ([`paired_interval`]: [`RESAMPLES`] resamples from a ChaCha generator with the fixed seed
//! [`SEED`], so the interval is the same on every run). Below that a percentile interval is
//! degenerate (three pairs have ten distinct resamples), and the line is *too few* to judge.
//!
//! **Test.** The Wilcoxon signed-rank test on the per-unit differences B − A (two-sided,
//! zeros by Pratt's method, exact p up to [`crate::compare::EXACT_MAX`] non-zero differences),
//! from [`MIN_PAIRS`] units on, not corrected for multiplicity (each line is its own
//! question; the flag below does not use it).
//!
//! **Shift and noise.** The bootstrap sees how instances differ, not how the machine's speed
//! drifted between the runs: on a shared machine a slower stretch moves every line of a run
//! together, and a run that times each configuration in its own stretch of time (unless it
//! interleaves) moves each configuration as a whole by tens of per cent. So the comparison
//! measures both from its lines, as an empirical null (Efron 2004, "Large-scale simultaneous
//! hypothesis testing", JASA 99): the lines a change did not touch gather around one ratio.
//! That ratio, the half-sample mode of the judged lines' log median ratios (Bickel and
//! Frühwirth 2006), is the run-wide *shift* ([`shift`]: with a bootstrap interval over the
//! lines, from [`SHIFT_MIN_LINES`] judged lines on): B's whole run is that many times A's,
//! because of the machine or of a change that touches every method; two separate runs cannot
//! tell which (a duet run, both builds interleaved per instance, can). The spread around it is
//! the *noise* σ ([`noise`]): from [`NOISE_MIN_LINES`] judged lines on, the first quartile of
//! the distances from the mode over 0.3186 (the first quartile of |Z| for a standard normal Z),
//! so that σ stays the spread of the untouched lines even when a change moves most of the
//! others (the tabu step that sped up three of four configurations in `large-orders-targets`);
//! from 2 to 9 lines, the median distance over 0.6745, cruder but defined. In an A/A
//! comparison (the same build twice) every line is noise, and σ is all of it.
//!
//! **Flag.** The bar is the larger of 1 + threshold (by default [`THRESHOLD`]: 10 %) and
//! exp([`NOISE_K`] σ), as criterion's noise threshold but measured. A *regression* when the
//! median ratio's whole interval lies above the bar measured both from 1 and from the shift
//! (a line that moved with the whole run is not a change of its method), or when B solves a
//! smaller share of more units than it solves a larger share of and the exact sign test on
//! those units separates them at α = [`ALPHA`]; an *improvement* the other way round;
//! otherwise *unchanged*. The shift itself is said first, not flagged. The PAR-2 ratio is
//! shown, not judged: a mean of a few values moves past any bar when one trial meets a burst of
//! load, and the solved share covers what PAR-2 adds (trials that newly time out). Fewer than
//! [`MIN_PAIRS`] units: *too few* (no interval). With one judged line there is neither shift
//! nor noise, and the threshold from 1 alone decides.
//!
//! **What it cannot tell.** A burst of load (another job starting) while one configuration ran
//! in a run that does not interleave slows that configuration alone, exactly as a regression
//! would; the notes say when a run did not interleave. A real regression comes back when B is
//! run again.
//!
//! **A duet.** The two sides of a duet run (`run --baseline`: the old build's rows in its
//! `baseline/` folder as A, the new build's as B) ran each trial one right after the other, so
//! a burst of load falls on both builds of the same few trials and the shift is the builds',
//! not the machine's between two runs: the summary says so. The rule is the same.
//!
//! This module holds the settings and the types of a comparison. `compute.rs` compares the
//! runs (with the tests of the whole), on the resampling and sign test of `statistics.rs`;
//! `notes.rs` says what differs between the runs besides the times; `write.rs` writes the
//! comparison out (compare.md, the report's section, the summary paragraph).

use std::collections::BTreeMap;

use crate::compare::SignedRank;
use crate::meta::RunMeta;
use crate::tables::SetKey;
use crate::Row;

mod compute;
mod notes;
mod statistics;
mod write;

pub use compute::{compare_runs, noise, shift};
pub use statistics::{bootstrap, half_sample_mode, paired_interval, sign_test};
pub use write::{html, markdown, method_text, summary, table};

#[cfg(doc)]
use crate::compare::{ALPHA, MIN_PAIRS};

/// Bootstrap resamples of each interval.
pub const RESAMPLES: usize = 2000;
/// The bootstrap generator's seed.
pub const SEED: u64 = 0x5d0c_b00c;
/// The default threshold of a regression: 10 %.
pub const THRESHOLD: f64 = 0.10;
/// How many standard deviations of the lines' noise a change must clear: beyond 3.5 σ a
/// normal value falls once in 2,000, so a comparison of 150 lines flags none by chance.
pub const NOISE_K: f64 = 3.5;
/// The fewest judged lines from which the noise is measured by the first quartile of the
/// distances from the mode (below, by their median).
pub const NOISE_MIN_LINES: usize = 10;
/// The fewest judged lines from which the run-wide shift and the noise are measured at all.
pub const SHIFT_MIN_LINES: usize = 2;

/// Why two folders cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The folders hold runs of different experiments.
    #[error("{a} holds experiment `{exp_a}` and {b} experiment `{exp_b}`: compare needs two runs of one experiment")]
    NotOneExperiment {
        /// Run A's name (its folder).
        a: String,
        /// Its experiment.
        exp_a: String,
        /// Run B's name.
        b: String,
        /// Its experiment.
        exp_b: String,
    },
    /// No configuration ran an instance in both folders.
    #[error("{a} and {b} share no instance run by the same configuration: nothing to compare")]
    NothingShared {
        /// Run A's name.
        a: String,
        /// Run B's name.
        b: String,
    },
    /// A folder has no trial rows.
    #[error("{0}: no trial rows")]
    Empty(String),
}

/// One run: a name (its folder, as the user gave it), its rows and its meta.json.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// How the output names the run.
    pub name: &'a str,
    /// The trial rows.
    pub rows: &'a [Row],
    /// The folder's meta.json.
    pub meta: Option<&'a RunMeta>,
}

impl Side<'_> {
    /// The experiment's name: meta.json's, else the rows'.
    pub fn experiment(&self) -> String {
        match self.meta {
            Some(m) if !m.experiment.is_empty() => m.experiment.clone(),
            _ => self
                .rows
                .first()
                .map(|r| r.experiment.clone())
                .unwrap_or_default(),
        }
    }
}

/// What the flag says about one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Slower beyond the threshold, interval and all.
    Regression,
    /// Faster beyond the threshold, interval and all.
    Improvement,
    /// Neither.
    Unchanged,
    /// Fewer than [`MIN_PAIRS`] paired instances and trials: no interval to judge by.
    TooFew,
}

impl Change {
    /// The word in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Change::Regression => "regression",
            Change::Improvement => "improvement",
            Change::Unchanged => "unchanged",
            Change::TooFew => "too few to judge",
        }
    }
}

/// A ratio B/A with its bootstrap interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// The ratio.
    pub value: f64,
    /// Its 95 % percentile-bootstrap interval; `None` below [`MIN_PAIRS`] units.
    pub ci: Option<Interval>,
}

impl Ratio {
    /// `1.23 (1.05–1.40)`.
    pub fn text(&self) -> String {
        match self.ci {
            Some((lo, hi)) => format!("{:.2} ({lo:.2}–{hi:.2})", self.value),
            None => format!("{:.2}", self.value),
        }
    }
}

/// What a line's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// One value per shared instance: the mean PAR-2 score of its trials.
    Instances,
    /// One value per trial both runs made on a shared instance (same instance, same trial
    /// number): used when fewer than [`MIN_PAIRS`] instances are shared.
    Trials,
}

/// One configuration on one group, A against B.
#[derive(Clone, Debug, PartialEq)]
pub struct Delta {
    /// (kind, variant, order, instance set).
    pub group: SetKey,
    /// The configuration.
    pub config: String,
    /// Instances both runs ran with it.
    pub shared: usize,
    /// What the values below are.
    pub unit: Unit,
    /// How many paired units (instances or trials) the ratios, intervals and test are over.
    pub n: usize,
    /// Solved and trials on the shared instances, in A.
    pub solved_a: (usize, usize),
    /// The same in B.
    pub solved_b: (usize, usize),
    /// Median over the units of A's values (ms).
    pub median_a: f64,
    /// The same for B.
    pub median_b: f64,
    /// Mean (PAR-2) over the units of A's values (ms).
    pub par2_a: f64,
    /// The same for B.
    pub par2_b: f64,
    /// Median B / median A; `None` when A's is 0.
    pub median_ratio: Option<Ratio>,
    /// PAR-2 B / PAR-2 A; `None` when A's is 0.
    pub par2_ratio: Option<Ratio>,
    /// The Wilcoxon test of B − A; `None` below [`MIN_PAIRS`] units.
    pub test: Option<SignedRank>,
    /// Units that B solves a smaller share of than A, and a larger (the sign test's counts).
    pub solved_shift: (usize, usize),
    /// The flag.
    pub change: Change,
}

/// Two runs compared.
#[derive(Clone, Debug, PartialEq)]
pub struct RunComparison {
    /// The experiment.
    pub experiment: String,
    /// Run A's name and what its meta.json says of it (commit, date, machine).
    pub a: (String, String),
    /// Run B's.
    pub b: (String, String),
    /// The regression threshold (0.10: 10 %).
    pub threshold: f64,
    /// The noise of this pair of runs: the robust standard deviation of the judged lines' log
    /// median ratios around their mode; `None` below [`SHIFT_MIN_LINES`] judged lines.
    pub noise: Option<f64>,
    /// The shift every line shares (the machine, or a change that touches every method);
    /// `None` below [`SHIFT_MIN_LINES`] judged lines.
    pub shift: Option<Shift>,
    /// The bar a ratio's interval must clear: the larger of 1 + threshold and
    /// exp([`NOISE_K`] × noise).
    pub bar: f64,
    /// One line per configuration and group both ran, in group order.
    pub lines: Vec<Delta>,
    /// Whether the two are the sides of one duet run (`run --baseline`): both builds ran each
    /// trial one right after the other, so the machine's load fell on both alike.
    pub duet: bool,
    /// What differs between the runs besides the times (settings, configurations, instances).
    pub notes: Vec<String>,
}

impl RunComparison {
    /// The lines flagged `change`.
    pub fn count(&self, change: Change) -> usize {
        self.lines.iter().filter(|l| l.change == change).count()
    }

    /// Whether any line is a regression.
    pub fn regressed(&self) -> bool {
        self.count(Change::Regression) > 0
    }
}

/// One configuration on one instance in one run.
#[derive(Clone, Debug, Default)]
struct Value {
    /// The mean PAR-2 score of its trials.
    score: f64,
    /// Trials with a verified answer.
    solved: usize,
    /// Trials.
    trials: usize,
    /// Each trial's PAR-2 score and whether it was solved, by its number.
    by_trial: BTreeMap<u32, (f64, bool)>,
}

/// Per (group, configuration), per instance: its [`Value`].
type PerInstance = BTreeMap<(SetKey, String), BTreeMap<String, Value>>;

/// The ratio B/A that the lines of a comparison share: the half-sample mode of their median
/// ratios.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shift {
    /// The ratio.
    pub value: f64,
    /// Its 95 % percentile-bootstrap interval over the lines resampled.
    pub ci: Option<Interval>,
    /// The judged lines it is the mode of.
    pub lines: usize,
}

/// A confidence interval, low and high.
pub type Interval = (f64, f64);
