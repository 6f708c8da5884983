//! Writing `trials.csv` and `traces.csv` during a run: row by row and flushed, a torn tail cut
//! before appending, the trials already done read back for resume. The row schema itself is
//! `sudoku-analysis`'s.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::Serialize;
use sudoku_analysis::meta::RunSettings;
pub use sudoku_analysis::read_rows;
pub use sudoku_analysis::{
    csv_header, ms, read_rows_resuming, task_key, write_rows, CsvRow, KindColumns, LogicLpColumns,
    Row, TraceRow, TrialStatus,
};

use crate::error::{Result, RunError};

/// A CSV error while doing `what`, as an I/O error of that file.
fn csv_error(what: String, e: csv::Error) -> RunError {
    RunError::io(what, std::io::Error::other(e))
}

/// Appends rows to a CSV file, flushing each one so a killed run loses at most the row in
/// flight.
pub struct Appender<T> {
    writer: csv::Writer<File>,
    /// The file is empty: the header goes before the first row (an empty file, not a header
    /// alone, is what a run killed before its first trial leaves).
    header: bool,
    /// The file, named in errors (a full disk).
    path: std::path::PathBuf,
    _row: std::marker::PhantomData<T>,
}

impl<T: Serialize + CsvRow + Default> Appender<T> {
    /// Opens `path` for appending; writes the header when the file is new or empty. A torn
    /// last line (from a killed run) is cut off first.
    pub fn open(path: &Path) -> Result<Appender<T>> {
        let reading = |e| RunError::io(format!("reading {}", path.display()), e);
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| RunError::io(format!("opening {}", path.display()), e))?;
        cut_torn_tail(&mut file, path)?;
        let empty = file.metadata().map_err(reading)?.len() == 0;
        if !empty && first_line(&mut file).map_err(reading)? != header_of::<T>() {
            // Written by a version with fewer columns: rows appended now would not match its
            // header, so the file is rewritten once in today's columns (absent ones read with
            // their defaults) before the run goes on.
            let rows: Vec<T> = read_rows(path)?;
            write_rows(path, &rows)?;
            return Appender::open(path);
        }
        // The header written here, not by csv: it refuses a row's nested columns.
        let writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        Ok(Appender {
            writer,
            header: empty,
            path: path.to_path_buf(),
            _row: std::marker::PhantomData,
        })
    }

    /// Writes one row and flushes it to the operating system.
    pub fn push(&mut self, row: &T) -> Result<()> {
        let what = || format!("writing {}", self.path.display());
        if self.header {
            let header = csv_header(row).map_err(|e| csv_error(what(), e))?;
            self.writer
                .write_record(header)
                .map_err(|e| csv_error(what(), e))?;
            self.header = false;
        }
        self.writer
            .serialize(row)
            .map_err(|e| csv_error(what(), e))?;
        self.writer.flush().map_err(|e| RunError::io(what(), e))?;
        Ok(())
    }
}

/// The first line of `file`, without its line end.
fn first_line(file: &mut File) -> std::io::Result<String> {
    file.seek(SeekFrom::Start(0))?;
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(&mut *file), &mut line)?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// The header today's `T` writes (its column names joined by commas: none needs quoting).
fn header_of<T: Serialize + Default>() -> String {
    csv_header(&T::default())
        .map(|names| names.join(","))
        .unwrap_or_default()
}

/// Truncates a file to its last newline: a process killed mid-write leaves a partial row.
fn cut_torn_tail(file: &mut File, path: &Path) -> Result<()> {
    let reading = |e| RunError::io(format!("reading {}", path.display()), e);
    let len = file.metadata().map_err(reading)?.len();
    if len == 0 {
        return Ok(());
    }
    let mut text = Vec::with_capacity(len as usize);
    file.seek(SeekFrom::Start(0)).map_err(reading)?;
    file.read_to_end(&mut text).map_err(reading)?;
    if text.last() == Some(&b'\n') {
        return Ok(());
    }
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    file.set_len(keep as u64).map_err(|e| {
        RunError::io(
            format!("cutting the torn last line of {}", path.display()),
            e,
        )
    })?;
    Ok(())
}

/// The keys of the trials already recorded in `trials.csv`, and its rows, each checked as
/// `plot` checks them and against `settings`, the run's (a trial twice is an error too).
pub fn done_keys(path: &Path, settings: &RunSettings) -> Result<(HashSet<String>, Vec<Row>)> {
    if !path.exists() {
        return Ok((HashSet::new(), Vec::new()));
    }
    let rows: Vec<Row> = read_rows_resuming(path, Some(settings))?;
    let keys = rows.iter().map(Row::key).collect();
    Ok((keys, rows))
}

/// Writes `text` to `path` whole or not at all: the workspace's one file writer,
/// [`sudoku_analysis::writing::write_whole`] (a temporary sibling synced and renamed over the
/// file, a link written through), with the runner's error.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    sudoku_analysis::write_whole(path, text)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn torn_tail_is_cut_and_appending_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("trials.csv");
        {
            let mut a = Appender::<Row>::open(&p).unwrap();
            a.push(&Row {
                task: 0,
                method: "m".into(),
                order: 3,
                variant: "classic".into(),
                repeats: 1,
                ..Row::default()
            })
            .unwrap();
        }
        // A kill in the middle of the second row.
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"1,exp,solve,m,,cla").unwrap();
        drop(f);
        assert_eq!(read_rows_resuming::<Row>(&p, None).unwrap().len(), 1);
        // Anything but resume says where the torn line is.
        let e = read_rows::<Row>(&p).unwrap_err().to_string();
        assert!(e.contains("trials.csv: line 3 is cut off"), "{e}");
        {
            let mut a = Appender::<Row>::open(&p).unwrap();
            a.push(&Row {
                task: 1,
                trial: 1,
                method: "m".into(),
                order: 3,
                variant: "classic".into(),
                repeats: 1,
                ..Row::default()
            })
            .unwrap();
        }
        let rows: Vec<Row> = read_rows(&p).unwrap();
        assert_eq!(rows.iter().map(|r| r.task).collect::<Vec<_>>(), [0, 1]);
    }

    #[test]
    fn csvs_without_the_repeats_column_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("trials.csv");
        Appender::<Row>::open(&p)
            .unwrap()
            .push(&Row {
                repeats: 4,
                order: 3,
                variant: "classic".into(),
                ..Row::default()
            })
            .unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        let header = text.lines().next().unwrap();
        assert!(text.starts_with("task,") && header.contains(",commit,repeats"));
        // Drop the columns from `repeats` on (none of this row's fields holds a comma), as
        // results written before it have it.
        let keep = header.split(',').position(|c| c == "repeats").unwrap();
        let old: String = text
            .lines()
            .map(|l| {
                format!(
                    "{}\n",
                    l.split(',').take(keep).collect::<Vec<_>>().join(",")
                )
            })
            .collect();
        std::fs::write(&p, old).unwrap();
        let rows: Vec<Row> = read_rows(&p).unwrap();
        assert_eq!(rows[0].repeats, 1);
    }

    #[test]
    fn appending_to_a_file_of_fewer_columns_rewrites_it_first() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("trials.csv");
        let row = |task| Row {
            task,
            instance: format!("i{task}"),
            order: 3,
            variant: "classic".into(),
            repeats: 1,
            solve_ms: Some(2.5),
            ..Row::default()
        };
        Appender::<Row>::open(&p).unwrap().push(&row(0)).unwrap();
        // As an older version wrote it: without the last two columns (`threads`, `solve_ms`).
        let text = std::fs::read_to_string(&p).unwrap();
        let old: String = text
            .lines()
            .map(|l| format!("{}\n", l.rsplitn(3, ',').nth(2).unwrap()))
            .collect();
        std::fs::write(&p, old).unwrap();
        Appender::<Row>::open(&p).unwrap().push(&row(1)).unwrap();
        let rows: Vec<Row> = read_rows(&p).unwrap();
        assert_eq!(rows.iter().map(|r| r.task).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(
            (rows[0].solve_ms, rows[1].solve_ms),
            (None, Some(2.5)),
            "the missing column read with its default, the new row whole"
        );
    }
}
