//! What can go wrong planning, running or writing an experiment: one enum, [`RunError`], whose
//! variants are the kinds of failure a caller may tell apart; every message names the file,
//! line, key or folder, and says what to change where there is something to change.

use std::path::PathBuf;

/// A failure of the runner. Messages are written for people (the command line prints them
/// as they are); the variant is for code.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The experiment file could not be read, or does not parse or validate.
    #[error(transparent)]
    Experiment(#[from] sudoku_experiment::ExperimentError),
    /// An unknown method, generator or parameter, or a parameter value out of range.
    #[error(transparent)]
    Param(#[from] sudoku_core::ParamError),
    /// A puzzle file could not be read (missing, too large, not text).
    #[error(transparent)]
    Read(#[from] sudoku_core::format::ReadError),
    /// A malformed puzzle: the message names the file, line and column.
    #[error(transparent)]
    Parse(#[from] sudoku_core::format::ParseError),
    /// A malformed Latin-square file.
    #[error(transparent)]
    Latin(#[from] sudoku_gen::LatinFileError),
    /// A puzzle could not be carved from a grid.
    #[error(transparent)]
    Carve(#[from] sudoku_gen::GenError),
    /// A method was asked for what it cannot do (count, with an incomplete method).
    #[error(transparent)]
    Unsupported(#[from] sudoku_core::Unsupported),
    /// A relaxation failed.
    #[error(transparent)]
    Relax(#[from] sudoku_core::RelaxError),
    /// A results file could not be read or written, or holds rows that are not valid.
    #[error(transparent)]
    Analysis(#[from] sudoku_analysis::AnalysisError),
    /// The charts or the report could not be drawn or written.
    #[error(transparent)]
    Report(#[from] sudoku_report::ReportError),
    /// A file or folder could not be created, read, written or removed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done, naming the path (`creating results/x`).
        what: String,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// An experiment that cannot be planned as it stands (a file that does not exist, no
    /// instance or no task to run, too many tasks, a kind the method cannot do, a results
    /// folder its name cannot make): the message says what to change.
    #[error("{0}")]
    Plan(String),
    /// A trial's method failed in a way that has no error type of its own (the analysis of
    /// kind `logic-lp`, a carving the plan did not prepare).
    #[error("{0}")]
    Trial(String),
    /// `shard` is not `K/N` with 1 ≤ K ≤ N, or the shard holds no task of the plan.
    #[error("{0}")]
    Shard(String),
    /// A method registered under a name a method or generator already has.
    #[error("a method or generator named `{name}` is already registered: give yours another name")]
    Duplicate {
        /// The name.
        name: String,
    },
    /// A results folder another process is writing.
    #[error("{} is in use: {holder} is writing there; {}", .dir.display(), busy_advice(command))]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// Who holds it (command line, process, host, since when).
        holder: String,
        /// What wanted to write (`run`, `merge`).
        command: String,
    },
    /// A results folder holds results of other settings than the run that would resume it.
    #[error("{} holds results made with other settings ({}); resuming would mix the two in one table: pass --fresh to discard those results, or --out DIR to write elsewhere", .dir.display(), .differences.join("; "))]
    Settings {
        /// The folder.
        dir: PathBuf,
        /// What differs, for people (`seed 1 → 9`).
        differences: Vec<String>,
    },
    /// A results folder whose files do not go together, or that holds results the command
    /// would overwrite or mix with its own (a run without resume, folders that are not shards
    /// of one run): the message names the files and what to do.
    #[error("{0}")]
    Folder(String),
    /// The caller's sink asked the run to stop ([`Sink::cancelled`](crate::Sink::cancelled)):
    /// the trials that ended are in the folder's trials.csv, and a resume runs the rest.
    #[error("{} stopped after {done} of {tasks} trials: the {done} done are in its trials.csv; run again with resume to go on", .dir.display())]
    Cancelled {
        /// The results folder.
        dir: PathBuf,
        /// Trials run before the stop (this session).
        done: usize,
        /// Trials this session had to run.
        tasks: usize,
    },
    /// Where the error below happened: `method[0] (`x`)`, `instances[2].generate`.
    #[error("{place}: {source}")]
    At {
        /// The place.
        place: String,
        /// The error.
        #[source]
        source: Box<RunError>,
    },
}

impl RunError {
    /// `source`, said to have happened at `place`.
    pub fn at(place: impl Into<String>, source: impl Into<RunError>) -> RunError {
        RunError::At {
            place: place.into(),
            source: Box::new(source.into()),
        }
    }

    /// An I/O failure while doing `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> RunError {
        RunError::Io {
            what: what.into(),
            source,
        }
    }
}

/// What [`RunError::Busy`] tells `command` to do: a writer of new results may write elsewhere;
/// one that redraws the folder (`plot`, `report`) or writes a document into it can only wait.
fn busy_advice(command: &str) -> String {
    match command {
        "run" | "merge" => format!(
            "`{command}` would mix its results into the same files. Wait for it to end, or write elsewhere (--out DIR)"
        ),
        _ => format!(
            "`{command}` would read rows still being written and write the same files at once. Wait for it to end"
        ),
    }
}

/// The crate's result.
pub type Result<T, E = RunError> = std::result::Result<T, E>;

/// An error and its causes joined by `: `, each said once (many errors already put their
/// source in their own message): the text of a trial's `message` column.
pub fn chain_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let c_text = c.to_string();
        if !text.ends_with(&c_text) {
            text.push_str(": ");
            text.push_str(&c_text);
        }
        cause = c.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_and_a_cause_are_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = RunError::at("method[0] (`x`)", RunError::io("reading f.txt", io));
        assert_eq!(chain_text(&e), "method[0] (`x`): reading f.txt: gone");
    }
}
