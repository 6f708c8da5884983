//! Where a run says what it does: the runner prints nothing; it hands each [`Event`] to the
//! [`Sink`] its caller gives (the command line draws progress bars and prints notes on stderr,
//! a test collects them, [`Quiet`] drops them). Every event is handed over on the thread that
//! called the runner, in the order it happens.

use std::path::Path;

use sudoku_core::Order;

use crate::plan::PlanSize;
use crate::results::Row;

/// Something a run, a merge or a redraw has to say.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// An experiment is about to be planned.
    Planning {
        /// Its name.
        experiment: &'a str,
        /// Where it was read from (`(memory)` for one made in memory).
        file: &'a str,
        /// Its description, when it has one.
        description: Option<&'a str>,
    },
    /// A note for people: an optional source skipped, a configuration that runs no instance,
    /// a lock taken over from a process that has ended.
    Note(&'a str),
    /// A warning: something the caller should know that does not stop the work (a resume
    /// that cannot check the settings, shards missing from a merge).
    Warning(&'a str),
    /// The plan is made: its size, before anything is written.
    Planned(&'a PlanSize),
    /// `fresh`: a file an earlier run left was removed.
    Removed(&'a Path),
    /// The trials start: this many are to run now.
    Started {
        /// Tasks to run.
        tasks: usize,
    },
    /// The next trial (when trials run one at a time) is of this configuration and order.
    Running {
        /// The configuration's label (`method k=v`).
        config: &'a str,
        /// The puzzle's order.
        order: Order,
    },
    /// A trial ended, and its row was written and flushed.
    Trial(&'a Row),
    /// Every trial of the run has ended.
    TrialsDone {
        /// Trials the results folder already held (a resume).
        skipped: usize,
        /// Trials run now.
        ran: usize,
    },
    /// A chart was left out of the outputs.
    ChartSkipped {
        /// The chart's file stem (`cactus`).
        chart: &'a str,
        /// Why.
        reason: &'a str,
    },
}

/// Takes a run's events.
pub trait Sink {
    /// Takes one event.
    fn event(&self, event: Event<'_>);

    /// Asked between trials (on the thread that called the runner): `true` stops the run
    /// there with [`RunError::Cancelled`](crate::RunError::Cancelled), every row so far written
    /// and flushed, so a resume continues it. The default never cancels; the Python package
    /// answers whether Ctrl-C was pressed.
    fn cancelled(&self) -> bool {
        false
    }
}

/// A sink that drops every event.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Sink for Quiet {
    fn event(&self, _: Event<'_>) {}
}

/// A closure is a sink.
impl<F: Fn(Event<'_>)> Sink for F {
    fn event(&self, event: Event<'_>) {
        self(event)
    }
}
