//! Running an experiment, in four rooms: [`plan`] (experiment file → configurations, instances,
//! tasks; each configuration built once), [`execute`] (each task timed under its budget, panics
//! captured, CBC's lock), [`judge`] (an answer against its puzzle → a typed trial) and
//! [`resume`] (which tasks are left: resume and shards), with [`lock`] (one writer per results
//! folder). [`kind`] says what each kind of trial asks of a registered method; [`logic_lp`] is
//! the analysis behind `kind = "logic-lp"`; [`latin`] reads Latin-square instances and checks
//! answers against their squares.
//!
//! The rooms import in one direction: `logic_lp` nothing of the runner, `judge` its report,
//! `kind` both (every trial method lives there), `plan` and `execute` the rest.

pub mod execute;
pub mod judge;
pub mod kind;
pub mod latin;
pub mod lock;
pub mod logic_lp;
pub mod plan;
pub mod resume;

pub use execute::{execute_plan, ExecOptions};
pub use plan::{make_plan, write_generated};
