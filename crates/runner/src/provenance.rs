//! The facts `meta.json` records about the machine and build a run was made on — commit,
//! toolchain, CPU, operating system, date, command line — gathered here; the file's shape is
//! [`sudoku_analysis::meta::RunMeta`], which `plot` and `run --resume` read back.

/// The commit the runner was built from, `+dirty` when its sources differed from it
/// (`archive` outside a git checkout of this workspace): what every row's `commit` column and
/// `sudoku-bench --version` say.
pub const BUILD: &str = env!("SUDOKU_BENCH_BUILD");

/// `sudoku-bench --version`: the package version and the commit the runner was built from
/// ([`BUILD`]).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("SUDOKU_BENCH_BUILD"),
    ")"
);

/// The commit this binary was built from (short) and whether its sources differed from that
/// commit, as the build script found them: `archive` and `None` for a build outside a git
/// checkout of this workspace (a source archive). Taken from the build, not from the folder a
/// run happens in, so a run started inside another repository still names its own build.
pub fn build_commit() -> (String, Option<bool>) {
    let dirty = match env!("SUDOKU_BENCH_DIRTY") {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    (env!("SUDOKU_BENCH_COMMIT").to_string(), dirty)
}

/// What every row's `commit` column holds: the build's commit, `+dirty` when its sources
/// differed from it.
pub fn row_commit() -> String {
    BUILD.to_string()
}

/// The CPU model, from /proc/cpuinfo where there is one.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The operating system: /etc/os-release's PRETTY_NAME, plus the kernel family and arch.
pub fn os_name() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        });
    let base = format!("{} {}", std::env::consts::OS, std::env::consts::ARCH);
    match pretty {
        Some(p) => format!("{p} ({base})"),
        None => base,
    }
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    iso_utc(secs)
}

/// Seconds since the Unix epoch as an ISO 8601 UTC time (proleptic Gregorian calendar).
pub fn iso_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil-from-days, after H. Hinnant's public-domain algorithm description.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The compiler that built this binary (captured by the build script).
pub fn rustc_version() -> String {
    option_env!("SUDOKU_BENCH_RUSTC")
        .unwrap_or("unknown")
        .to_string()
}

/// This process's command line with the program named by its file name only: an absolute
/// path to the binary says where one machine keeps its build, not how to re-run the run.
pub fn command_line() -> Vec<String> {
    program_by_name(std::env::args().collect())
}

fn program_by_name(mut args: Vec<String>) -> Vec<String> {
    if let Some(first) = args.first_mut() {
        if let Some(name) = std::path::Path::new(first.as_str()).file_name() {
            *first = name.to_string_lossy().into_owned();
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_utc(1_795_000_000), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn the_program_is_recorded_by_name() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            program_by_name(args(&[
                "/home/me/build/release/sudoku-bench",
                "run",
                "x.toml"
            ])),
            args(&["sudoku-bench", "run", "x.toml"])
        );
        assert_eq!(program_by_name(Vec::new()), Vec::<String>::new());
    }
}
