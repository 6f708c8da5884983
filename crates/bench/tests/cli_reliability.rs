//! No panic and no silent acceptance (issue #14): every numeric flag, misused option, broken
//! results file and changed resume is a clear error (exit code 2) or a documented warning;
//! text from data and experiment files shows as text in every output.

use std::path::Path;

mod binary;
use binary::{bench, root};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs a command that must fail as bad input: exit code 2, no panic, one `error:` line
/// containing `message`. Returns stderr.
fn fails(dir: &Path, args: &[&str], message: &str) -> String {
    let out = bench(dir, args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {err}");
    assert!(errors[0].contains(message), "{args:?}: {err}");
    err
}

/// Rewrites a CSV file with `column` set to `value` in row `row` (from 0), or in every row.
fn set_field(path: &Path, column: &str, row: Option<usize>, value: &str) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    let col = headers.iter().position(|h| h == column).unwrap();
    let records: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let mut w = csv::Writer::from_path(path).unwrap();
    w.write_record(&headers).unwrap();
    for (i, rec) in records.iter().enumerate() {
        let hit = |c: usize| c == col && row.is_none_or(|r| r == i);
        let fields: Vec<&str> = rec
            .iter()
            .enumerate()
            .map(|(c, f)| if hit(c) { value } else { f })
            .collect();
        w.write_record(fields).unwrap();
    }
    w.flush().unwrap();
}

/// A folder with `two.txt`: the first two puzzles of Norvig's easy set.
fn two_puzzles() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let all = std::fs::read_to_string(root().join("datasets/public/norvig_easy50.txt")).unwrap();
    let two: String = all.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("two.txt"), two).unwrap();
    (dir, "two.txt".to_string())
}

/// An experiment of `prop` on the two puzzles, 2 trials, 2 s.
fn small_experiment(dir: &Path, extra_method: &str) -> String {
    let toml = format!(
        "name = \"small\"\nseed = 1\ntrials = 2\n[budget]\ntime_limit = 2.0\n[[method]]\nname = \"prop\"\n{extra_method}[[instances]]\nfile = \"two.txt\"\n"
    );
    std::fs::write(dir.join("small.toml"), toml).unwrap();
    "small.toml".to_string()
}

#[test]
fn time_limits_out_of_range_are_errors_not_panics() {
    let (dir, f) = two_puzzles();
    let d = dir.path();
    for (t, why) in [
        (
            "1e20",
            "1e20 seconds is more than the largest time limit, 1e9 s",
        ),
        ("1e300", "1e300 seconds is more than the largest time limit"),
        ("inf", "inf is not a finite number of seconds"),
        ("NaN", "NaN is not a finite number of seconds"),
        ("-1", "-1.0 is not a positive number of seconds"),
        ("0", "0.0 is not a positive number of seconds"),
    ] {
        let msg = format!("--time-limit: {why}");
        fails(d, &["solve", &f, "-m", "prop", "--time-limit", t], &msg);
        fails(
            d,
            &["generate", "--order", "2", "--time-limit", t],
            &format!("--time-limit: {why}"),
        );
    }
    let exp = small_experiment(d, "");
    fails(
        d,
        &["run", &exp, "--out", "o", "--time-limit", "1e300"],
        "--time-limit: 1e300 seconds is more than",
    );
    // The cap itself is a valid limit.
    let ok = bench(d, &["solve", &f, "-m", "prop", "--time-limit", "1e9"]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
}

#[test]
fn zero_counts_and_limits_are_errors() {
    let (dir, f) = two_puzzles();
    let d = dir.path();
    let at_least_one = "0 is less than 1: give a whole number of at least 1";
    let exp = small_experiment(d, "");
    for (args, flag) in [
        (
            vec!["solve", &f, "-m", "prop", "--count=0"],
            "'--count [<LIMIT>]'",
        ),
        (
            vec!["solve", &f, "-m", "prop", "--node-limit", "0"],
            "'--node-limit <N>'",
        ),
        (
            vec!["solve", &f, "-m", "grasp", "--iteration-limit", "0"],
            "'--iteration-limit <N>'",
        ),
        (
            vec!["solve", &f, "-m", "prop", "--jobs", "0"],
            "'--jobs <N>'",
        ),
        (
            vec!["generate", "--order", "3", "--count", "0"],
            "'--count <K>'",
        ),
        (
            vec!["run", &exp, "--out", "o", "--trials", "0"],
            "'--trials <TRIALS>'",
        ),
        (
            vec!["run", &exp, "--out", "o", "--jobs", "0"],
            "'--jobs <JOBS>'",
        ),
    ] {
        fails(
            d,
            &args,
            &format!("invalid value '0' for {flag}: {at_least_one}"),
        );
    }
    // A negative number is named as one, not taken for a flag (clap's "tip: use '-- -1'").
    for args in [
        vec!["solve", &f, "-m", "prop", "--node-limit", "-1"],
        vec!["solve", &f, "-m", "prop", "--seed", "-1"],
        vec!["generate", "--order", "3", "--clues", "-1"],
        vec!["run", &exp, "--out", "o", "--trials", "-1"],
    ] {
        let err = fails(d, &args, "-1 is negative: give a whole number");
        assert!(!err.contains("tip:"), "{err}");
    }
}

#[test]
fn a_limit_the_method_never_checks_gets_a_warning() {
    let (dir, f) = two_puzzles();
    let out = bench(
        dir.path(),
        &[
            "solve",
            &f,
            "-m",
            "grasp",
            "--node-limit",
            "5",
            "--time-limit",
            "5",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr)
        .contains("warning: `grasp` counts no search nodes, so --node-limit is ignored"));
    let out = bench(
        dir.path(),
        &["solve", &f, "-m", "prop", "--iteration-limit", "5"],
    );
    assert!(text(&out.stderr)
        .contains("warning: `prop` counts no iterations, so --iteration-limit is ignored"));
}

#[test]
fn nan_parameters_are_rejected() {
    let (dir, f) = two_puzzles();
    let d = dir.path();
    fails(
        d,
        &["solve", &f, "-m", "grasp", "-p", "alpha=NaN"],
        "--param: parameter `alpha`: `NaN` is not valid (expected a number in 0.0..=1.0)",
    );
    for g in ["prune", "weighted-prune"] {
        fails(
            d,
            &["generate", "--order", "3", "-m", g, "-p", "alpha=NaN"],
            "parameter `alpha`: `NaN` is not valid",
        );
    }
    fails(
        d,
        &["solve", &f, "-m", "sa", "-p", "cooling=nan"],
        "parameter `cooling`: `nan` is not valid",
    );
}

#[test]
fn relax_needs_a_method_with_a_relaxation() {
    let (dir, f) = two_puzzles();
    fails(
        dir.path(),
        &["solve", &f, "-m", "prop", "--relax"],
        "`prop` has none (methods that have one: ilp)",
    );
}

#[test]
fn a_prefer_cell_or_digit_outside_the_grid_is_a_parameter_error() {
    let (dir, f) = two_puzzles();
    let d = dir.path();
    let base = ["solve", &f, "-m", "ilp", "-p", "objective=prefer", "-p"];
    let mut args = base.to_vec();
    args.push("cell=10,10");
    fails(
        d,
        &args,
        "--param: parameter `cell`: `10,10` is not valid (expected R,C with rows and columns in 1..=9 for a 9×9 grid)",
    );
    let mut args = base.to_vec();
    args.push("digit=10");
    fails(d, &args, "--param: parameter `digit`: `10` is not valid");
    // Counting and the relaxation check the same.
    for kind in ["--count", "--relax"] {
        let mut args = base.to_vec();
        args.extend(["cell=10,10", kind]);
        fails(d, &args, "--param: parameter `cell`: `10,10` is not valid");
    }
    // The same in an experiment: refused when the plan is made, before any trial.
    let exp = small_experiment(
        d,
        "[[method]]\nname = \"ilp\"\nparams = { objective = \"prefer\", cell = \"10,10\" }\n",
    );
    fails(d, &["run", &exp, "--out", "o"], "parameter `cell`: `10,10`");
    assert!(!d.join("o/trials.csv").exists());
}

#[test]
fn clue_targets_beyond_the_grid_fail_and_unreachable_ones_warn() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fails(
        d,
        &[
            "generate", "--order", "3", "--puzzle", "unique", "--clues", "200",
        ],
        "--clues 200: a 9x9 grid has only 81 cells",
    );
    fails(
        d,
        &["generate", "--order", "3", "--clues", "30"],
        "--clues applies to --puzzle unique only",
    );
    fails(
        d,
        &["generate", "--order", "3", "--check-nodes", "10"],
        "--check-nodes applies to --puzzle or --rating only",
    );
    let out = bench(
        d,
        &[
            "generate", "--order", "3", "--puzzle", "unique", "--clues", "5",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let clues: usize = text(&out.stdout)
        .strip_prefix("# ")
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the puzzle's clue count");
    assert!(clues > 5);
    assert!(text(&out.stderr).contains(&format!(
        "warning: grid 0: {clues} clues, not 5: no further clue could be removed"
    )));
}

#[test]
fn plot_and_merge_refuse_empty_and_torn_trial_files() {
    let (dir, f) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    assert!(bench(d, &["run", &exp, "--out", "good"]).status.success());
    let csv = std::fs::read_to_string(d.join("good/trials.csv")).unwrap();
    let lines = csv.lines().count();
    assert_eq!(lines, 5, "a header and 4 rows");

    std::fs::create_dir_all(d.join("empty")).unwrap();
    std::fs::write(d.join("empty/trials.csv"), "").unwrap();
    fails(d, &["plot", "empty"], "empty/trials.csv: no trial rows");
    let header = csv.lines().next().unwrap();
    std::fs::write(d.join("empty/trials.csv"), format!("{header}\n")).unwrap();
    fails(d, &["plot", "empty"], "empty/trials.csv: no trial rows");
    fails(
        d,
        &["merge", "empty", "--out", "merged"],
        "no trial rows in empty",
    );

    std::fs::create_dir_all(d.join("torn")).unwrap();
    std::fs::write(d.join("torn/trials.csv"), &csv[..csv.len() - 10]).unwrap();
    fails(
        d,
        &["plot", "torn"],
        &format!("torn/trials.csv: line {lines} is cut off"),
    );
    fails(
        d,
        &["merge", "good", "torn", "--out", "merged"],
        &format!("torn/trials.csv: line {lines} is cut off"),
    );
    std::fs::write(d.join("torn/trials.csv"), format!("{csv}0,small,solve\n")).unwrap();
    fails(
        d,
        &["plot", "torn"],
        &format!(
            "torn/trials.csv: line {} is not a valid result row",
            lines + 1
        ),
    );
    let _ = f;
}

#[test]
fn resume_refuses_changed_settings_and_continues_the_same_ones() {
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    assert!(bench(d, &["run", &exp, "--out", "o"]).status.success());
    for (args, change) in [
        (vec!["--trials", "1"], "`prop` trials 2 → 1"),
        (vec!["--trials", "3"], "`prop` trials 2 → 3"),
        (vec!["--time-limit", "5"], "`prop` time limit 2 s → 5 s"),
    ] {
        let mut a = vec!["run", exp.as_str(), "--out", "o", "--resume"];
        a.extend(args);
        let err = fails(d, &a, change);
        assert!(
            err.contains("pass --fresh") && err.contains("--out DIR"),
            "{err}"
        );
    }
    let toml = std::fs::read_to_string(d.join(&exp)).unwrap();
    std::fs::write(d.join(&exp), toml.replace("seed = 1", "seed = 2")).unwrap();
    fails(d, &["run", &exp, "--out", "o", "--resume"], "seed 1 → 2");
    std::fs::write(
        d.join(&exp),
        toml.replace(
            "name = \"prop\"\n",
            "name = \"prop\"\nparams = { naked_pairs = true }\n",
        ),
    )
    .unwrap();
    let err = fails(
        d,
        &["run", &exp, "--out", "o", "--resume"],
        "`prop` is no longer in the plan",
    );
    assert!(err.contains("`prop naked_pairs=true` is new"), "{err}");
    // The rows are untouched by the refusals, and the same settings resume.
    std::fs::write(d.join(&exp), &toml).unwrap();
    let again = bench(d, &["run", &exp, "--out", "o", "--resume"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stderr).contains("resumed: 4 trials were already done, 0 run now"));
}

#[test]
fn missing_and_non_utf8_files_say_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let err = fails(d, &["solve", "nowhere.txt", "-m", "prop"], "nowhere.txt: ");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    std::fs::write(d.join("latin1.txt"), b"\xe9t\xe9\n").unwrap();
    let err = fails(d, &["check", "latin1.txt"], "latin1.txt: ");
    assert_eq!(err.matches("valid UTF-8").count(), 1, "{err}");
}

#[test]
fn a_letter_beyond_the_order_is_named_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("z.txt"),
        format!("{}Z{}\n", ".".repeat(40), ".".repeat(40)),
    )
    .unwrap();
    fails(
        d,
        &["solve", "z.txt", "-m", "prop"],
        "z.txt:1:41: 'Z' is not a digit of a 9×9 grid (1-9)",
    );
}

/// Text nodes of an XML document, entities decoded; panics on anything that is not
/// well-formed at the level a text injection would break (a stray `<` or `&`, unbalanced tags).
fn xml_texts(xml: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(lt) = rest.find('<') {
        texts.push(decode(&rest[..lt]));
        let gt = rest[lt..].find('>').expect("an unclosed tag") + lt;
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == ':')
            .collect();
        assert!(!name.is_empty(), "a `<` that starts no tag: <{tag}>");
        // Attribute values hold no raw `<` or `&`.
        let attrs = &tag[tag.find(&name).unwrap() + name.len()..];
        decode(attrs);
        if tag.starts_with('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.as_str()),
                "unbalanced </{name}>"
            );
        } else if !tag.ends_with('/') {
            open.push(name);
        }
    }
    texts.push(decode(rest));
    assert!(open.is_empty(), "unclosed {open:?}");
    texts.retain(|t| !t.trim().is_empty());
    texts
}

fn decode(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let semi = rest[amp..].find(';').expect("a bare `&`") + amp;
        out.push_str(match &rest[amp + 1..semi] {
            "lt" => "<",
            "gt" => ">",
            "amp" => "&",
            "quot" => "\"",
            "apos" => "'",
            e => panic!("unknown entity &{e};"),
        });
        rest = &rest[semi + 1..];
    }
    assert!(!rest.contains('<'));
    out.push_str(rest);
    out
}

#[test]
fn labels_and_parameters_from_files_show_as_text_in_every_output() {
    const NASTY: &str = "<script>alert(1)</script> a|b & 5% \"q\" _x_ #1 $2 \\ [o]\nnext";
    // Experiment names cannot hold a path separator.
    let name = NASTY.replace(['/', '\\'], "");
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let toml_str = |s: &str| {
        let mut o = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                '\n' => o.push_str("\\n"),
                c => o.push(c),
            }
        }
        o.push('"');
        o
    };
    std::fs::write(
        d.join("nasty.toml"),
        format!(
            "name = {}\nseed = 1\ntrials = 1\n[[method]]\nname = \"prop\"\n[[instances]]\nfile = \"two.txt\"\nset = {}\n",
            toml_str(&name),
            toml_str(NASTY)
        ),
    )
    .unwrap();
    // The name cannot be a folder: the default output folder is refused, --out works.
    fails(d, &["run", "nasty.toml"], "is not a plain folder name");
    let run = bench(d, &["run", "nasty.toml", "--out", "o"]);
    assert!(run.status.success(), "{}", text(&run.stderr));

    // trials.csv: the set name round-trips through the CSV writer and reader.
    let mut r = csv::Reader::from_path(d.join("o/trials.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    let set_col = headers.iter().position(|h| h == "instance_set").unwrap();
    let records: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|rec| &rec[set_col] == NASTY));

    // A parameter from a data file: the rows, as `plot` reads them, with a nasty `params`.
    set_field(&d.join("o/trials.csv"), "params", None, NASTY);
    // The rows no longer match the settings meta.json recorded (a parameter changed): without
    // it, they are rows of their own.
    std::fs::remove_file(d.join("o/meta.json")).unwrap();
    let plot = bench(d, &["plot", "o"]);
    assert!(plot.status.success(), "{}", text(&plot.stderr));

    let md = std::fs::read_to_string(d.join("o/summary.md")).unwrap();
    assert!(!md.contains("<script>") && !md.contains("\nnext"), "{md}");
    // The summary table, then the performance table (header, rule, the set's row, prop's).
    let (summary_md, perf_md) = md.split_once("\n## Performance").expect("two tables");
    let table: Vec<&str> = summary_md.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(table.len(), 3, "header, rule and one row: {md}");
    let perf: Vec<&str> = perf_md.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(perf.len(), 4, "{perf_md}");
    let cells = |l: &str| {
        let b = l.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
            .count()
    };
    assert_eq!(cells(table[2]), cells(table[0]), "{}", table[2]);
    let escaped = "\\<script\\>alert(1)\\</script\\> a\\|b \\& 5% \"q\" \\_x\\_ \\#1 \\$2 \\\\ \\[o\\]\\\\nnext";
    assert_eq!(table[2].matches(escaped).count(), 2, "{}", table[2]);
    assert_eq!(cells(perf[3]), cells(perf[0]), "{}", perf[3]);
    assert_eq!(perf[2].matches(escaped).count(), 1, "{}", perf[2]);
    assert_eq!(perf[3].matches(escaped).count(), 1, "{}", perf[3]);
    assert!(
        md.starts_with(&format!(
            "# {}\n",
            escaped.replace("/", "").replace(" \\\\ ", "  ")
        )),
        "{md}"
    );

    let tex = std::fs::read_to_string(d.join("o/summary.tex")).unwrap();
    let tex_label = "\\textless{}script\\textgreater{}alert(1)\\textless{}/script\\textgreater{} a\\textbar{}b \\& 5\\% \"q\" \\_x\\_ \\#1 \\$2 \\textbackslash{} {[}o{]}\\textbackslash{}nnext";
    let caption = tex_label
        .replace("/", "")
        .replace(" \\textbackslash{} {[}", "  {[}");
    assert!(tex.contains(&format!("\\caption{{{caption}}}")), "{tex}");
    let row = tex
        .lines()
        .find(|l| l.starts_with("solve & prop"))
        .expect("the summary row");
    assert_eq!(row.matches(tex_label).count(), 2, "{row}");
    // 12 columns: 11 separators, none from the label.
    assert_eq!(row.matches(" & ").count(), 11, "{row}");

    let svg = std::fs::read_to_string(d.join("o/boxplot.svg")).unwrap();
    assert!(!svg.contains("<script"), "raw markup in the chart");
    let texts = xml_texts(&svg);
    let shown = "prop <script>alert(1)</script> a|b & 5% \"q\" _x_ #1 $2 \\ [o]\\nnext";
    // A label longer than a legend line is wrapped at spaces over several text elements.
    let joined = texts.iter().map(|t| t.trim()).collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains(shown),
        "the legend shows the label as text: {texts:?}"
    );
}

#[test]
fn resume_checks_the_rows_it_continues() {
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    assert!(bench(d, &["run", &exp, "--out", "o"]).status.success());
    set_field(&d.join("o/trials.csv"), "repeats", Some(1), "7");
    fails(
        d,
        &["run", &exp, "--out", "o", "--resume"],
        "o/trials.csv: line 3, column `repeats`: 7, but `prop` repeats each trial 1 times in meta.json's settings",
    );
}

#[test]
fn no_subcommand_outside_a_checkout_is_an_error_that_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let err = fails(dir.path(), &[], "is not a sudoku-bench checkout");
    assert!(err.contains("give a command"), "{err}");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    let help = bench(dir.path(), &["--help"]);
    let help = text(&help.stdout);
    for want in [
        "runs (or resumes) the default experiment of the checkout in the current folder",
        "Exit codes (every command):",
        "3  some trials ended in `error`",
    ] {
        assert!(help.contains(want), "{want}: {help}");
    }
}

/// An experiment of `prop` on Jump's four 9×9 puzzles with `trials` trials: thousands of
/// quick trials, long enough to be caught running.
fn many_trials(dir: &Path, trials: u32) -> String {
    let puzzles = root().join("datasets/seeds/001_jump.txt");
    let toml = format!(
        "name = \"many\"\nseed = 1\ntrials = {trials}\n[[method]]\nname = \"prop\"\n[[instances]]\nfile = \"{}\"\n",
        puzzles.display()
    );
    std::fs::write(dir.join("many.toml"), toml).unwrap();
    "many.toml".to_string()
}

/// Waits (at most a minute) until `trials.csv` of `out` holds more than `rows` lines.
fn wait_for_rows(out: &Path, rows: usize) {
    for _ in 0..60_000 {
        let n = std::fs::read_to_string(out.join("trials.csv"))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n > rows {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("{} never got {rows} rows", out.display());
}

/// The trial keys of a results folder's rows: every one once, and how many.
fn distinct_trials(trials: &Path) -> usize {
    let rows: Vec<sudoku_analysis::Row> = sudoku_analysis::read_rows(trials).unwrap();
    let keys: std::collections::HashSet<String> = rows.iter().map(|r| r.key()).collect();
    assert_eq!(
        keys.len(),
        rows.len(),
        "a trial twice in {}",
        trials.display()
    );
    rows.len()
}

/// Issue 67, item 2: a second `run` on a folder a run is writing, and a `--resume` of it,
/// stop with an error naming the holder (they used to run every trial into the same
/// trials.csv); after SIGTERM, SIGINT or SIGKILL the next `--resume` takes the folder over
/// with a note, and the rows end complete, each trial once.
#[test]
fn one_writer_per_results_folder_and_a_killed_runs_folder_is_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Many: a test thread starved by the suite's other tests may look only after a pause, and
    // the run must still be writing then (8,000 trials of `prop` can end in a fraction of a
    // second).
    let trials = 50_000;
    let exp = many_trials(d, trials);
    let out = d.join("o");
    for (i, signal) in [libc::SIGTERM, libc::SIGINT, libc::SIGKILL]
        .into_iter()
        .enumerate()
    {
        let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-bench"));
        first
            .args(["run", &exp, "--out", "o", "--no-plots"])
            .args(if i > 0 { &["--resume"][..] } else { &[] })
            .current_dir(d)
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(d.join(format!("first-{i}.err"))).unwrap());
        // A test run started in the background (nohup, CI) hands its children SIGINT ignored,
        // and SIGINT is what this case sends: the child gets the default action back.
        // SAFETY: between fork and exec only the async-signal-safe signal(2) runs.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut first, || {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut first = first.spawn().unwrap();
        // Until this run has written rows of its own (it holds the folder by then).
        let size = || {
            std::fs::metadata(out.join("trials.csv"))
                .map(|m| m.len())
                .unwrap_or(0)
        };
        // Its size, not its lines: reading 200,000 rows every millisecond would starve it.
        let before = size();
        let started = std::time::Instant::now();
        while size() < before + 20_000 {
            if let Some(status) = first.try_wait().unwrap() {
                panic!(
                    "run {i} ended ({status}) before writing rows: {}",
                    std::fs::read_to_string(d.join(format!("first-{i}.err"))).unwrap_or_default()
                );
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(120),
                "{} never grew past {before} bytes (run {i}): {}",
                out.display(),
                std::fs::read_to_string(d.join(format!("first-{i}.err"))).unwrap_or_default()
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // Held still (it keeps the lock) while the checks run: a run of fast trials could
        // otherwise end first, on a quiet machine as on a loaded one.
        // SAFETY: signalling our own child, which has not been waited for yet.
        assert_eq!(unsafe { libc::kill(first.id() as i32, libc::SIGSTOP) }, 0);
        if i == 0 {
            let pid = format!("(pid {} on host ", first.id());
            for args in [
                vec!["run", &exp, "--out", "o", "--no-plots"],
                vec!["run", &exp, "--out", "o", "--no-plots", "--resume"],
            ] {
                let err = fails(d, &args, "o is in use: `sudoku-bench run many.toml --out o");
                assert!(err.contains(&pid) && err.contains("--out DIR"), "{err}");
            }
        }
        // SAFETY: as above; SIGCONT lets it act on SIGTERM or SIGINT (SIGKILL needs none).
        assert_eq!(unsafe { libc::kill(first.id() as i32, signal) }, 0);
        assert_eq!(unsafe { libc::kill(first.id() as i32, libc::SIGCONT) }, 0);
        first.wait().unwrap();
    }
    let resumed = bench(d, &["run", &exp, "--out", "o", "--no-plots", "--resume"]);
    let err = text(&resumed.stderr);
    assert!(resumed.status.success(), "{err}");
    assert!(
        err.contains("note: o: taking over the lock of `sudoku-bench run many.toml --out o"),
        "{err}"
    );
    assert_eq!(
        distinct_trials(&out.join("trials.csv")),
        4 * trials as usize
    );
    assert!(!out.join(".sudoku-bench.lock").exists());
}

/// meta.json is written before the first trial, with the run's settings, so a killed run's
/// rows stay tied to them (a `--resume` with other settings is refused); the end of a run
/// only adds `finished` to what was written then.
#[test]
fn meta_json_is_written_before_the_trials_and_only_finished_after() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let exp = many_trials(d, 2000);
    let meta = |out: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join(out).join("meta.json")).unwrap())
            .unwrap()
    };
    let spawn = |out: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
            .args(["run", &exp, "--out", out, "--no-plots"])
            .current_dir(d)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut whole = spawn("o");
    wait_for_rows(&d.join("o"), 100);
    let early = meta("o");
    assert!(
        early["finished"].is_null() && early["settings"]["configs"][0]["trials"] == 2000,
        "{early}"
    );
    assert!(whole.wait().unwrap().success());
    let mut last = meta("o");
    assert!(last["finished"].is_string(), "{last}");
    last["finished"] = serde_json::Value::Null;
    assert_eq!(last, early);
    let mut killed = spawn("k");
    wait_for_rows(&d.join("k"), 100);
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert!(meta("k")["finished"].is_null());
    fails(
        d,
        &["run", &exp, "--out", "k", "--resume", "--trials", "3"],
        "(`prop` trials 2000 → 3); resuming would mix",
    );
}

/// Issue 67, items 2 and 6: a write that fails on a full disk names its file, and the
/// folder keeps what it had (meta.json is written whole or not at all).
#[test]
fn a_full_disk_names_the_file() {
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    std::fs::create_dir(d.join("o")).unwrap();
    std::os::unix::fs::symlink("/dev/full", d.join("o/trials.csv")).unwrap();
    fails(
        d,
        &["run", &exp, "--out", "o"],
        "writing o/trials.csv: No space left on device",
    );
    std::fs::remove_file(d.join("o/trials.csv")).unwrap();
    assert!(bench(d, &["run", &exp, "--out", "o"]).status.success());
    // A `.tmp` planted as a link is removed, never written through (it could name any file).
    std::fs::write(d.join("victim"), "keep").unwrap();
    std::os::unix::fs::symlink(d.join("victim"), d.join("o/meta.json.tmp")).unwrap();
    assert!(bench(d, &["run", &exp, "--out", "o", "--resume"])
        .status
        .success());
    assert_eq!(std::fs::read_to_string(d.join("victim")).unwrap(), "keep");
    assert!(!d.join("o/meta.json.tmp").exists());
}

/// Every file in a results folder on a full disk: `plot` fails naming the file it could not
/// write, every file keeps what it held, and no `.tmp` is left; with room again it goes
/// through. The disk is a tmpfs of 1 MiB mounted for the test (CI runs as root; where
/// mounting is impossible the test skips and says so).
#[test]
fn a_full_disk_leaves_every_output_whole() {
    use sudoku_fixtures::disk::{fill, Tmpfs};
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "[[method]]\nname = \"dlx\"\n");
    std::fs::create_dir(d.join("disk")).unwrap();
    let disk = match Tmpfs::mount(&d.join("disk"), 1024) {
        Ok(disk) => disk,
        Err(why) => {
            sudoku_fixtures::skip("a_full_disk_leaves_every_output_whole", &why);
            return;
        }
    };
    let out = disk.path().join("o");
    let run = bench(d, &["run", &exp, "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let before = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    // Every file `plot` rewrites gets a text of its own, which a write that went through would
    // replace.
    for name in before(&out).into_iter().map(|(n, _)| n) {
        if !["trials.csv", "meta.json"].contains(&name.as_str()) {
            std::fs::write(out.join(&name), format!("old {name}")).unwrap();
        }
    }
    let whole = before(&out);
    assert!(
        whole.iter().any(|(n, _)| n.ends_with(".png")),
        "no chart drawn"
    );
    let filler = fill(disk.path());
    let err = fails(
        d,
        &["plot", out.to_str().unwrap()],
        ": No space left on device",
    );
    assert!(
        err.contains(&format!("writing {}/", out.display())),
        "{err}"
    );
    assert_eq!(before(&out), whole, "a file changed on the full disk");
    std::fs::remove_file(filler).unwrap();
    let plot = bench(d, &["plot", out.to_str().unwrap()]);
    assert!(plot.status.success(), "{}", text(&plot.stderr));
    let after = before(&out);
    assert_eq!(
        after.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        whole.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    for (name, bytes) in after {
        assert!(!bytes.starts_with(b"old "), "{name} was not rewritten");
    }
}

/// Issue 67, item 2: `merge A B --out A` left A's meta.json at 0 bytes; now refused, and A
/// reads as before.
#[test]
fn merging_into_an_input_is_refused_and_leaves_it_whole() {
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = format!("s{k}");
        let r = bench(
            d,
            &["run", &exp, "--shard", &shard, "--out", &out, "--no-plots"],
        );
        assert!(r.status.success(), "{}", text(&r.stderr));
    }
    let before = std::fs::read(d.join("s1/meta.json")).unwrap();
    for out in ["s1", "./s1/", &d.join("s1").display().to_string()] {
        fails(
            d,
            &["merge", "s1", "s2", "--out", out],
            "one of the folders being merged",
        );
    }
    assert_eq!(std::fs::read(d.join("s1/meta.json")).unwrap(), before);
    assert!(bench(d, &["plot", "s1"]).status.success());
    let merged = bench(d, &["merge", "s1", "s2", "--out", "m"]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("m/meta.json")).unwrap()).unwrap();
    assert!(meta["shard"].is_null(), "{meta}");
    // A merge of one shard of the two says the other is missing.
    let one = bench(d, &["merge", "s1", "--out", "m1"]);
    assert!(one.status.success());
    assert!(text(&one.stderr)
        .contains("warning: shard 2/2 of the set is not among the 1 folders merged"));
}

/// Issue 67, item 6: a file with no puzzle is one error, not a malformed puzzle and a summary.
#[test]
fn an_empty_file_is_one_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("e.txt"), "# only a comment\n").unwrap();
    let out = bench(dir.path(), &["check", "e.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: e.txt:1:1: no puzzle found (the input is empty or only comments)\n"
    );
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

/// `findings --into` a link writes the block into the file the link names, and the link stays
/// a link (it was replaced by a regular file, and its file kept the old block); `convert -o`
/// through a link likewise.
#[test]
fn a_link_is_written_through() {
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    assert!(bench(d, &["run", &exp, "--out", "o", "--no-plots"])
        .status
        .success());
    std::fs::create_dir(d.join("docs")).unwrap();
    std::fs::write(
        d.join("docs/page.md"),
        "# Page\n<!-- findings:start -->\nold\n<!-- findings:end -->\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("docs/page.md", d.join("link.md")).unwrap();
    let out = bench(d, &["findings", "o", "--into", "link.md"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "link.md: findings block written into docs/page.md, which it links to\n"
    );
    assert!(std::fs::symlink_metadata(d.join("link.md"))
        .unwrap()
        .file_type()
        .is_symlink());
    let page = std::fs::read_to_string(d.join("docs/page.md")).unwrap();
    assert!(
        page.starts_with("# Page\n<!-- findings:start -->\n_Written by `sudoku-bench findings o")
            && !page.contains("\nold\n"),
        "{page}"
    );
    std::os::unix::fs::symlink("docs/grid.txt", d.join("grid-link.txt")).unwrap();
    let out = bench(
        d,
        &["convert", "two.txt", "--to", "block", "-o", "grid-link.txt"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(d.join("docs/grid.txt"))
        .unwrap()
        .starts_with("0 0 3 0 2 0 6 0 0\n"));
}

/// `convert --to dimacs -o DIR` with a folder writes the formulas into it, named after the
/// puzzle file, not `DIR-1.cnf`, `DIR-2.cnf` beside it.
#[test]
fn dimacs_into_a_folder_stays_in_the_folder() {
    let (dir, f) = two_puzzles();
    let d = dir.path();
    std::fs::create_dir(d.join("cnf")).unwrap();
    let out = bench(d, &["convert", &f, "--to", "dimacs", "-o", "cnf"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut made: Vec<String> = std::fs::read_dir(d.join("cnf"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    assert_eq!(made, ["two-1.cnf", "two-2.cnf"]);
    assert!(!d.join("cnf-1.cnf").exists());
    for m in &made {
        let cnf = std::fs::read_to_string(d.join("cnf").join(m)).unwrap();
        assert!(
            cnf.starts_with("c sudoku-bench sat (defaults): two.txt:"),
            "{cnf}"
        );
    }
    // One puzzle: `STEM.cnf` in the folder.
    std::fs::write(
        d.join("one.txt"),
        std::fs::read_to_string(d.join(&f))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(
        bench(d, &["convert", "one.txt", "--to", "dimacs", "-o", "cnf/"])
            .status
            .success()
    );
    assert!(d.join("cnf/one.cnf").exists());
}

/// A results folder named with control characters (an escape sequence, a line break) shows
/// with them written out in what `run` and `report` print: the terminal is not coloured and
/// every file stays on its line.
#[test]
fn a_folder_named_with_control_characters_is_printed_escaped() {
    let (dir, _) = two_puzzles();
    let d = dir.path();
    let exp = small_experiment(d, "");
    let name = "o\u{1b}[31mred\nline";
    let shown = "o\\u{1b}[31mred\\nline";
    let run = bench(d, &["run", &exp, "--out", name, "--no-plots", "--fresh"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let report = bench(d, &["report", name]);
    assert!(report.status.success(), "{}", text(&report.stderr));
    assert_eq!(text(&report.stdout), format!("{shown}/report.html\n"));
    for out in [&run, &report] {
        for stream in [&out.stdout, &out.stderr] {
            let t = text(stream);
            assert!(!t.contains('\u{1b}') && !t.contains("red\nline"), "{t}");
        }
    }
    assert!(text(&run.stdout).contains(&format!("results in {shown}:\n  {shown}/trials.csv\n")));
}
