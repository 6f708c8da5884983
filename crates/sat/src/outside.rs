//! Which outside SAT program answers for `sat` (`solver=kissat`, `command=...`): the
//! [`Program`], where kissat is found ([`find_kissat`]), and a command line checked before
//! any puzzle ([`check_command`]). Apart from running it ([`crate::program`]), so that the
//! configuration reads it without reaching the code that runs programs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where the kissat program is looked for, said when it is not found.
pub const KISSAT_INSTALL: &str = "kissat not found: set SUDOKU_KISSAT to its path, put \
    `kissat` on PATH, or install the PyPI package passagemath-kissat (`python3 -m pip install \
    -r scripts/adapters/requirements.txt`, into ~/.cache/sudoku-bench-venv or the active venv)";

/// An outside SAT program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// The kissat program (see [`find_kissat`]).
    Kissat,
    /// A command line, split at spaces.
    Command(String),
}

/// Finds the kissat program as scripts/adapters/kissat.py does: `SUDOKU_KISSAT` (a path),
/// else `kissat` on PATH, else the binary the PyPI package passagemath-kissat ships, in the
/// venv of `VIRTUAL_ENV`, `SUDOKU_BENCH_VENV` or ~/.cache/sudoku-bench-venv, or beside a
/// `python3` on PATH.
pub fn find_kissat() -> Result<PathBuf, String> {
    if let Some(given) = std::env::var_os("SUDOKU_KISSAT").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(&given);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "SUDOKU_KISSAT={}: not a file",
                given.to_string_lossy()
            ))
        };
    }
    let path_dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(found) = path_dirs
        .iter()
        .map(|d| d.join("kissat"))
        .find(|p| p.is_file())
    {
        return Ok(found);
    }
    let mut venvs: Vec<PathBuf> = ["VIRTUAL_ENV", "SUDOKU_BENCH_VENV"]
        .iter()
        .filter_map(std::env::var_os)
        .map(PathBuf::from)
        .collect();
    if let Some(home) = std::env::var_os("HOME") {
        venvs.push(Path::new(&home).join(".cache/sudoku-bench-venv"));
    }
    venvs.extend(
        path_dirs
            .iter()
            .filter(|d| d.join("python3").is_file())
            .filter_map(|d| d.parent().map(Path::to_path_buf)),
    );
    for venv in venvs {
        let Ok(libs) = std::fs::read_dir(venv.join("lib")) else {
            continue;
        };
        for lib in libs.flatten() {
            let wheel = lib.path().join("site-packages/sage_wheels/bin/kissat");
            if wheel.is_file() {
                return Ok(wheel);
            }
        }
    }
    Err(KISSAT_INSTALL.to_string())
}

/// Checks that the program of a command line exists: a path to a file, or a name found on
/// PATH.
pub(crate) fn check_command(line: &str) -> Result<(), String> {
    let Some(program) = line.split_whitespace().next() else {
        return Err("an empty command".into());
    };
    let found = if program.contains('/') {
        Path::new(program).is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
    };
    if found {
        Ok(())
    } else {
        Err(format!(
            "a DIMACS solver's command line (`{program}` is not a file nor on PATH)"
        ))
    }
}

/// A program ready to run: its command line and how it is named in results.
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    pub(crate) argv: Vec<String>,
    pub(crate) name: String,
    pub(crate) kissat: bool,
}

impl Program {
    /// The program's command line and name, kissat found (once per process).
    pub(crate) fn resolve(&self) -> Result<Resolved, String> {
        match self {
            Program::Kissat => {
                static KISSAT: OnceLock<Result<Resolved, String>> = OnceLock::new();
                KISSAT
                    .get_or_init(|| {
                        let path = find_kissat()?;
                        let version = Command::new(&path)
                            .arg("--version")
                            .output()
                            .map_err(|e| format!("{}: {e}", path.display()))?;
                        let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
                        Ok(Resolved {
                            argv: vec![path.to_string_lossy().into_owned()],
                            name: format!("kissat {version}"),
                            kissat: true,
                        })
                    })
                    .clone()
            }
            Program::Command(line) => {
                let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
                if argv.is_empty() {
                    return Err("command: empty".into());
                }
                Ok(Resolved {
                    argv,
                    name: line.clone(),
                    kissat: false,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_must_name_a_program() {
        assert!(check_command("sh -c true").is_ok());
        assert!(check_command("/nonexistent/sat-solver --flag").is_err());
        assert!(check_command("no-such-sat-solver-here").is_err());
    }
}
