//! The malformed-input corpus (`tests/malformed/`): every case of `CASES.txt` run through the
//! binary, each with its exit code and a fragment of its message, none allowed to panic or to
//! run past a minute (the hangs this corpus keeps ran for days).

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod binary;
use binary::root;

/// Longer than any case needs by far (each takes well under a second alone), short enough that
/// a hang fails the test instead of stalling the suite.
const WATCHDOG: Duration = Duration::from_secs(60);

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed")
}

/// Copies a corpus file or folder to `to`; a link stays a link, and the corpus file it names
/// is copied beside it.
fn copy(from: &Path, to: &Path) {
    if let Ok(target) = std::fs::read_link(from) {
        std::os::unix::fs::symlink(&target, to).unwrap();
        let (from_target, to_target) = (corpus().join(&target), to.with_file_name(&target));
        if !to_target.exists() {
            copy(&from_target, &to_target);
        }
    } else if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            copy(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

/// One line of CASES.txt.
struct Case {
    line: usize,
    exit: i32,
    command: String,
    fragment: String,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus().join("CASES.txt")).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            // The fragment is the rest of the line: it may hold a tab of the output.
            let f: Vec<&str> = l.splitn(3, '\t').collect();
            assert_eq!(
                f.len(),
                3,
                "CASES.txt:{}: three tab-separated fields",
                i + 1
            );
            Case {
                line: i + 1,
                exit: f[0].parse().unwrap(),
                command: f[1].to_string(),
                fragment: f[2].to_string(),
            }
        })
        .collect()
}

/// Runs one case in a fresh temporary folder; returns a description of what went wrong.
fn run(case: &Case) -> Result<(), String> {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = Vec::new();
    let mut stdin = Stdio::null();
    let (out, err) = (tmp.path().join("stdout"), tmp.path().join("stderr"));
    let mut stdout_to = out.clone();
    let mut stderr_to = err.clone();
    let mut closed = false;
    let mut held = Vec::new();
    let mut env = Vec::new();
    for word in case.command.split(' ') {
        let word = word
            .replace("{tmp}", &tmp.path().display().to_string())
            .replace("{esc}", "\u{1b}")
            .replace("{nl}", "\n");
        // `>&-`: standard output closed.
        if word == ">&-" {
            closed = true;
            continue;
        }
        // `2>FILE`: standard error goes there (`2>/dev/full`: every write fails).
        if let Some(file) = word.strip_prefix("2>") {
            stderr_to = Path::new(file).to_path_buf();
            continue;
        }
        // `held@NAME`: the copy of NAME, whose lock this test holds while the command runs,
        // as a run writing the folder holds it.
        if let Some(name) = word.strip_prefix("held@") {
            let to = tmp.path().join(name);
            if !to.exists() {
                copy(&corpus().join(name), &to);
            }
            held.push(sudoku_runner::lock::lock_folder(&to, "run", &sudoku_runner::Quiet).unwrap());
            args.push(to.display().to_string());
            continue;
        }
        // `NAME=VALUE` before the first argument: the binary's environment (`PATH=…`).
        if let Some((name, value)) = word.split_once('=').filter(|_| args.is_empty()) {
            env.push((name.to_string(), value.to_string()));
            continue;
        }
        // `KEY=@NAME`: `KEY=` and the copy's path (`-p command=@program.sh`).
        if let Some((key, name)) = word.split_once("=@") {
            let to = tmp.path().join(name);
            if !to.exists() {
                copy(&corpus().join(name), &to);
            }
            args.push(format!("{key}={}", to.display()));
            continue;
        }
        // `>FILE`: standard output goes there (`>/dev/full`: every write fails).
        if let Some(file) = word.strip_prefix('>') {
            stdout_to = Path::new(file).to_path_buf();
            continue;
        }
        let (input, name) = match word.strip_prefix("<@") {
            Some(n) => (true, Some(n)),
            None => (false, word.strip_prefix('@')),
        };
        let Some(name) = name else {
            args.push(word.clone());
            continue;
        };
        // `@NAME:REST`: the copy's path, then `:REST` (`fidelity DIR:OURS=ORIGINAL`).
        let (name, rest) = name
            .split_once(':')
            .map_or((name, None), |(n, r)| (n, Some(r)));
        let from = corpus().join(name);
        let to = tmp.path().join(name);
        if !to.exists() {
            copy(&from, &to);
        }
        if input {
            stdin = Stdio::from(File::open(&to).unwrap());
        } else {
            let rest = rest.map(|r| format!(":{r}")).unwrap_or_default();
            args.push(format!("{}{rest}", to.display()));
        }
    }
    let stdout = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&stdout_to)
        .unwrap();
    let stderr = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&stderr_to)
        .unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-bench"));
    command
        .args(&args)
        .envs(env)
        .current_dir(root())
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr);
    if closed {
        // SAFETY: only `close`, which is async-signal-safe, between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::close(1);
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("the binary starts");
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > WATCHDOG {
            child.kill().ok();
            child.wait().ok();
            return Err(format!("still running after {} s", WATCHDOG.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    drop(held);
    let (out, err) = (text(&out), text(&err));
    let shown = format!(
        "exit {:?}\n--- stdout\n{out}--- stderr\n{err}",
        status.code()
    );
    if err.contains("panicked") {
        return Err(format!("panicked\n{shown}"));
    }
    if status.code() != Some(case.exit) {
        return Err(format!(
            "exit code {:?}, not {}\n{shown}",
            status.code(),
            case.exit
        ));
    }
    if !out.contains(&case.fragment) && !err.contains(&case.fragment) {
        return Err(format!("no `{}` in the output\n{shown}", case.fragment));
    }
    Ok(())
}

#[test]
fn every_case_of_the_corpus_ends_as_listed() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            run(c)
                .err()
                .map(|e| format!("CASES.txt:{}: {}\n{e}", c.line, c.command))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_file_of_the_corpus_is_used() {
    let listed: String = cases().iter().map(|c| format!("{} ", c.command)).collect();
    for e in std::fs::read_dir(corpus()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name != "CASES.txt" {
            assert!(
                listed.contains(&format!("@{name} ")),
                "{name} is in no case"
            );
        }
    }
}
