//! The one way every file of the workspace is written ([`write_with`], [`write_whole`]): whole
//! or not at all. The bytes go to a temporary sibling (`FILE.tmp`, [`files::tmp_sibling`]),
//! are flushed and synced to the disk, and only then renamed over `FILE`; on any failure the
//! temporary is removed and `FILE` keeps what it held. So a full disk, a killed process or a
//! crash leaves the old file or the new one, never half of one, and the next writer of the file
//! replaces a `.tmp` a killed one left.
//!
//! A path that is a symbolic link is written through: the file it names gets the new text and
//! the link stays a link (renaming over the link would have cut it off from its file). A path
//! that names a device or a pipe (`/dev/null`, `/dev/stdout`) is written directly, where
//! renaming means nothing; a folder is an error. A file replaced keeps its permissions.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::files;
use crate::AnalysisError;

/// How many links [`write_with`] follows before it calls the path a loop (Linux's own bound).
const MAX_LINKS: usize = 40;

/// Writes `text` to `path` whole or not at all (see the module); returns `path`.
pub fn write_whole(path: &Path, text: &str) -> Result<PathBuf, AnalysisError> {
    write_with(path, |w| w.write_all(text.as_bytes()))
}

/// Writes what `fill` writes to `path`, whole or not at all (see the module), through a buffer:
/// for text made as it is written (CSV rows, a formula). An error of `fill` leaves the old
/// file as a full disk does. Returns `path`.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<PathBuf, AnalysisError> {
    let failed = |source| AnalysisError::NotWritten {
        path: path.to_path_buf(),
        source,
    };
    let target = through_links(path).map_err(failed)?;
    match std::fs::metadata(&target) {
        Ok(m) if m.is_dir() => {
            return Err(failed(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a folder: give a file name",
            )))
        }
        // A device or a pipe: nothing to rename over, nothing half-written to keep.
        Ok(m) if !m.is_file() => {
            let file = OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(failed)?;
            fill_and_flush(&file, fill).map_err(failed)?;
            return Ok(path.to_path_buf());
        }
        _ => {}
    }
    let tmp = files::tmp_sibling(&target);
    // A `.tmp` a killed writer left is replaced; one that is a link is removed, not followed
    // (`create_new` below refuses to open through a link).
    match std::fs::remove_file(&tmp) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(failed(e)),
        _ => {}
    }
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(failed)?;
    let kept = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let written = fill_and_flush(&file, fill)
        .and_then(|()| kept.map_or(Ok(()), |p| file.set_permissions(p)))
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, &target));
    drop(file);
    if let Err(e) = written {
        std::fs::remove_file(&tmp).ok();
        return Err(failed(e));
    }
    // The rename itself reaches the disk with its folder; a file system that cannot sync a
    // folder has renamed the file all the same.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir).and_then(|d| d.sync_all()).ok();
    }
    Ok(path.to_path_buf())
}

/// Fills `file` through a buffer and flushes the buffer.
fn fill_and_flush(
    file: &File,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut w = BufWriter::new(file);
    fill(&mut w)?;
    w.flush()
}

/// The file `path` names once every symbolic link on its last component is followed: `path`
/// itself when it is no link (or does not exist); a link's target is taken relative to the
/// link's folder, as the system takes it.
pub fn through_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row (a loop?)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_stays() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        write_whole(&p, "one").unwrap();
        write_whole(&p, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert!(!files::tmp_sibling(&p).exists());
    }

    #[test]
    fn a_failed_fill_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        write_whole(&p, "old").unwrap();
        let e = write_with(&p, |w| {
            w.write_all(b"half of")?;
            Err(io::Error::other("the rows ran out"))
        })
        .unwrap_err();
        assert!(
            e.to_string().starts_with("writing ") && e.to_string().ends_with("the rows ran out"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert!(!files::tmp_sibling(&p).exists());
    }

    #[test]
    fn a_link_is_written_through_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("docs")).unwrap();
        std::fs::write(d.join("docs/real.md"), "old").unwrap();
        // A relative link, and a link to that link.
        symlink("docs/real.md", d.join("link.md")).unwrap();
        symlink("link.md", d.join("link2.md")).unwrap();
        write_whole(&d.join("link2.md"), "new").unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("docs/real.md")).unwrap(),
            "new"
        );
        for l in ["link.md", "link2.md"] {
            assert!(std::fs::symlink_metadata(d.join(l))
                .unwrap()
                .file_type()
                .is_symlink());
        }
        // A link to nothing yet makes its file.
        symlink("made.md", d.join("dangling.md")).unwrap();
        write_whole(&d.join("dangling.md"), "x").unwrap();
        assert_eq!(std::fs::read_to_string(d.join("made.md")).unwrap(), "x");
        // A loop is an error, not a hang.
        symlink("loop-b", d.join("loop-a")).unwrap();
        symlink("loop-a", d.join("loop-b")).unwrap();
        let e = write_whole(&d.join("loop-a"), "x").unwrap_err().to_string();
        assert!(e.contains("symbolic links in a row"), "{e}");
    }

    #[test]
    fn a_temporary_left_behind_or_planted_as_a_link_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let p = d.join("meta.json");
        std::fs::write(files::tmp_sibling(&p), "half of a killed write").unwrap();
        write_whole(&p, "{}").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "{}");
        std::fs::write(d.join("victim"), "keep").unwrap();
        symlink(d.join("victim"), files::tmp_sibling(&p)).unwrap();
        write_whole(&p, "{ }").unwrap();
        assert_eq!(std::fs::read_to_string(d.join("victim")).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "{ }");
        assert!(!files::tmp_sibling(&p).exists());
    }

    #[test]
    fn devices_are_written_directly_and_folders_refused() {
        write_whole(Path::new("/dev/null"), "x").unwrap();
        let e = write_whole(Path::new("/dev/full"), "x")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("writing /dev/full: No space left"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let e = write_whole(dir.path(), "x").unwrap_err().to_string();
        assert!(e.contains("it is a folder: give a file name"), "{e}");
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.sh");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o750)).unwrap();
        write_whole(&p, "new").unwrap();
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o750);
    }
}
