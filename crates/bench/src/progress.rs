//! What a run says, on stderr ([`Console`], the runner's [`Sink`] for the command line): the
//! plan and its notes, and while the trials run an overall bar with ETA and solved/failed
//! counts and a line naming the current method and order. The bars are drawn only when stdout
//! is a terminal, so they never mix into redirected output; wrong answers and errors are
//! printed above them as they happen.

use std::cell::RefCell;
use std::io::IsTerminal;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_analysis::escape::visible;

use crate::cli::message_text;
use crate::io::shown;
use sudoku_runner::results::{Row, TrialStatus};
use sudoku_runner::{Event, PlanSize, Sink};

/// The command line's sink: notes and warnings on stderr, progress bars while trials run.
#[derive(Default)]
pub struct Console {
    bars: RefCell<Option<Bars>>,
}

impl Sink for Console {
    fn event(&self, event: Event<'_>) {
        match event {
            Event::Planning {
                experiment,
                file,
                description,
            } => {
                say!("planning {} ({})", visible(experiment), visible(file));
                if let Some(d) = description {
                    say!("  {}", message_text(d.trim()));
                }
            }
            Event::Note(n) => self.println(&format!("note: {n}")),
            Event::Warning(w) => self.println(&format!("warning: {w}")),
            Event::Planned(size) => say!("{}", plan_size(size)),
            Event::Removed(f) => say!("removed {}", shown(f)),
            Event::Started { tasks } => *self.bars.borrow_mut() = Some(Bars::new(tasks as u64)),
            Event::Running { config, order } => {
                if let Some(b) = &*self.bars.borrow() {
                    b.current.set_message(format!("{config} · {order}"));
                }
            }
            Event::Trial(row) => self.trial(row),
            Event::TrialsDone { skipped, ran } => {
                if let Some(b) = self.bars.borrow_mut().take() {
                    b.current.finish_and_clear();
                    b.overall.finish_and_clear();
                }
                if skipped > 0 {
                    say!("resumed: {skipped} trials were already done, {ran} run now");
                }
            }
            Event::ChartSkipped { chart, reason } => {
                say!(
                    "chart {} not drawn: {}",
                    visible(chart),
                    message_text(reason)
                )
            }
            _ => {}
        }
    }
}

impl Console {
    /// A finished trial: counted on the bar, and said above it when it is wrong or failed.
    fn trial(&self, row: &Row) {
        let alarm = match row.status {
            TrialStatus::Wrong => Some("WARNING: {} returned a WRONG answer"),
            TrialStatus::Error => Some("error: {} failed"),
            _ => None,
        };
        if let Some(alarm) = alarm {
            let who = format!("{} {}", row.method, row.params);
            self.println(&format!(
                "{} on {} (trial {}): {}",
                alarm.replace("{}", &who),
                row.instance,
                row.trial,
                row.message
            ));
        }
        if let Some(b) = &mut *self.bars.borrow_mut() {
            b.advance(row);
        }
    }

    /// Prints a line above the bars (or plainly on stderr when there are none), its control
    /// characters written out (a path or a label in a note cannot move the terminal).
    fn println(&self, line: &str) {
        let line = &message_text(line);
        match &*self.bars.borrow() {
            Some(b) if !b.multi.is_hidden() => {
                b.multi.println(line).ok();
            }
            _ => say!("{line}"),
        }
    }
}

/// The bars of one run.
struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    current: ProgressBar,
    ok: u64,
    bad: u64,
}

impl Bars {
    /// Bars for `total` tasks; hidden unless stdout is a terminal.
    fn new(total: u64) -> Bars {
        let target = if std::io::stdout().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} ETA {eta} {msg}",
            )
            .expect("static template")
            .progress_chars("=> "),
        );
        let current = multi.add(ProgressBar::new_spinner());
        current.set_style(ProgressStyle::with_template("  {msg}").expect("static template"));
        Bars {
            multi,
            overall,
            current,
            ok: 0,
            bad: 0,
        }
    }

    /// Counts a finished trial.
    fn advance(&mut self, row: &Row) {
        if row.success() {
            self.ok += 1;
        } else {
            self.bad += 1;
        }
        self.overall
            .set_message(format!("solved {} · not solved {}", self.ok, self.bad));
        self.overall.inc(1);
    }
}

/// The plan's size for people: configurations, instances and tasks (of the shard), and the
/// longest the tasks may take, every repetition of every trial running to its time limit.
pub fn plan_size(size: &PlanSize) -> String {
    let reps = if size.repeats > 1 {
        format!(", up to {} repetitions each", size.repeats)
    } else {
        String::new()
    };
    let bound = match &size.unlimited {
        Some(label) => format!(
            "no bound on the time: `{}` has no time limit",
            visible(label)
        ),
        None => format!(
            "at most {} if every trial{} ran to its time limit",
            duration_text(size.worst_seconds),
            if size.repeats > 1 { " repetition" } else { "" }
        ),
    };
    format!(
        "{} configurations × {} instances → {} tasks{}{reps}; {bound}",
        size.configs,
        size.instances,
        size.mine,
        size.shard
            .map(|s| format!(" (shard {s} of {})", size.tasks))
            .unwrap_or_default()
    )
}

/// Seconds as people read a duration: `40 s`, `12 min`, `5.5 h`, `3.2 days`, `41 years`.
fn duration_text(s: f64) -> String {
    const MIN: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    match s {
        s if s < 100.0 => format!("{s:.0} s"),
        s if s < 100.0 * MIN => format!("{:.0} min", s / MIN),
        s if s < 48.0 * HOUR => format!("{:.1} h", s / HOUR),
        s if s < YEAR => format!("{:.1} days", s / DAY),
        s => format!("{:.0} years", s / YEAR),
    }
}
