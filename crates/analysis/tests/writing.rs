//! The one file writer ([`sudoku_analysis::writing`]) where writing really fails: on a full
//! disk (a tmpfs of 256 KiB, mounted for the test: CI runs as root; where mounting is
//! impossible the test skips and says so) and in a process killed in the middle of a write.
//! Either way the file keeps its old text, and nothing is left that a later write or run would
//! take for a result.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use sudoku_analysis::files;
use sudoku_analysis::writing::{write_whole, write_with};
use sudoku_fixtures::disk::{fill, Tmpfs};

#[test]
fn a_full_disk_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let disk = match Tmpfs::mount(dir.path(), 256) {
        Ok(d) => d,
        Err(why) => {
            sudoku_fixtures::skip("a_full_disk_leaves_the_old_file_and_no_temporary", &why);
            return;
        }
    };
    let p = disk.path().join("summary.md");
    write_whole(&p, "the old summary\n").unwrap();
    let filler = fill(disk.path());
    let e = write_whole(&p, &"a new summary, longer than the old one\n".repeat(100))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("writing {}: No space left on device", p.display())),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "the old summary\n");
    assert!(!files::tmp_sibling(&p).exists());
    // Streamed text fails the same way, part-way through.
    let e = write_with(&p, |w| {
        for _ in 0..1000 {
            w.write_all(&[b'x'; 1024])?;
        }
        Ok(())
    })
    .unwrap_err();
    assert!(e.to_string().contains("No space left on device"), "{e}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "the old summary\n");
    assert!(!files::tmp_sibling(&p).exists());
    // Room again: the next write goes through.
    std::fs::remove_file(filler).unwrap();
    write_whole(&p, "new\n").unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "new\n");
}

/// The variable that makes [`writer_killed_mid_write`] the writer that is killed.
const CHILD: &str = "SUDOKU_WRITING_TEST_CHILD";

/// The writer of [`a_killed_writer_leaves_the_old_file`], when that test starts this test
/// binary with [`CHILD`] set: it writes a first MiB of the new text, says so, and waits to be
/// killed. Without the variable it does nothing.
#[test]
fn writer_killed_mid_write() {
    let Some(path) = std::env::var_os(CHILD) else {
        return;
    };
    let _ = write_with(Path::new(&path), |w| {
        w.write_all(&[b'n'; 1 << 20])?;
        w.flush()?;
        println!("half written");
        std::io::stdout().flush()?;
        std::thread::sleep(std::time::Duration::from_secs(120));
        w.write_all(b"the rest")
    });
}

#[test]
fn a_killed_writer_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("summary.md");
    write_whole(&p, "the old summary\n").unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "writer_killed_mid_write", "--nocapture"])
        .env(CHILD, &p)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let said = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .any(|l| l.contains("half written"));
    assert!(said, "the writer never got half-way");
    child.kill().unwrap();
    child.wait().unwrap();
    // The file is the old one; what was written lies in the temporary, which no reader reads.
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "the old summary\n");
    let tmp = files::tmp_sibling(&p);
    assert_eq!(std::fs::metadata(&tmp).unwrap().len(), 1 << 20);
    // `run --fresh` clears it with the outputs, and the next write replaces it.
    assert!(files::is_output(
        &tmp.file_name().unwrap().to_string_lossy(),
        &[]
    ));
    write_whole(&p, "the new summary\n").unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "the new summary\n");
    assert!(!tmp.exists());
}
