//! Progress bars: an overall bar with ETA and solved/failed counts, and a line naming the
//! current method and order. Drawn on stderr, and only when stdout is a terminal, so they never
//! mix into redirected output.

use std::io::IsTerminal;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::results::Row;

/// The bars of one run.
pub struct Progress {
    multi: MultiProgress,
    overall: ProgressBar,
    current: ProgressBar,
    ok: std::cell::Cell<u64>,
    bad: std::cell::Cell<u64>,
}

impl Progress {
    /// Bars for `total` tasks; hidden unless `wanted` and stdout is a terminal.
    pub fn new(total: u64, wanted: bool) -> Progress {
        let target = if wanted && std::io::stdout().is_terminal() {
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
        Progress {
            multi,
            overall,
            current,
            ok: 0.into(),
            bad: 0.into(),
        }
    }

    /// Names what runs now.
    pub fn current(&self, config: &str, order: sudoku_core::Order) {
        self.current.set_message(format!("{config} · {order}"));
    }

    /// Counts a finished trial.
    pub fn advance(&self, row: &Row) {
        if row.success() {
            self.ok.set(self.ok.get() + 1);
        } else {
            self.bad.set(self.bad.get() + 1);
        }
        self.overall.set_message(format!(
            "solved {} · not solved {}",
            self.ok.get(),
            self.bad.get()
        ));
        self.overall.inc(1);
    }

    /// Prints a line above the bars (or plainly on stderr when they are hidden).
    pub fn println(&self, line: &str) {
        if self.multi.is_hidden() {
            eprintln!("{line}");
        } else {
            self.multi.println(line).ok();
        }
    }

    /// Removes the bars.
    pub fn finish(&self) {
        self.current.finish_and_clear();
        self.overall.finish_and_clear();
    }
}
