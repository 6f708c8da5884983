//! `docs`: the reference pages made from the code, so that they cannot drift from it (tests
//! compare the committed pages with this command's output). `docs cli` writes docs/cli.md from
//! the command definitions (each command's and flag's `--help` text, value names, defaults and
//! choices); `docs report` writes the generated blocks of docs/report.md: the files of a results
//! folder ([`sudoku_analysis::files`]), the columns of trials.csv ([`sudoku_analysis::columns`])
//! and the charts ([`sudoku_report::charts`]); `docs blocks` rewrites every block of the user
//! documentation that holds a command's output on a committed run (README.md's tables, the
//! experiment catalogue, the calibration tables), as docs/blocks.toml lists them, and `docs
//! blocks --check` says which differ (a test runs it), so no such figure is typed by hand.
//! `docs excerpt`, `docs effort` and `docs repro` print what such blocks hold beside the
//! findings: a section of a committed Markdown file, a run's search effort, the papers'
//! committed reproductions.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use clap::{Arg, ArgAction, Args, CommandFactory, Subcommand};

use crate::cli::catalogue;
use crate::cli::excerpt::{effort_block, excerpt_block, Filter};
use crate::cli::findings::{read_document, replace_between, write_document};
use crate::cli::{Cli, Exit, Failure, EXIT_RULE};
use crate::io::Out;
use sudoku_runner::results::write_atomic;

/// The command that writes docs/cli.md, as the page and the test's message say.
pub const CLI_COMMAND: &str = "cargo run --release -- docs cli > docs/cli.md";
/// The command that writes docs/report.md's generated blocks.
pub const REPORT_COMMAND: &str = "cargo run --release -- docs report --into docs/report.md";
/// The command that rewrites every block docs/blocks.toml lists.
pub const BLOCKS_COMMAND: &str = "cargo run --release -- docs blocks";
/// The list of generated blocks, from the checkout's top folder.
pub const BLOCKS_FILE: &str = "docs/blocks.toml";

#[derive(Args)]
pub struct DocsArgs {
    #[command(subcommand)]
    pub page: Page,
}

#[derive(Subcommand)]
pub enum Page {
    /// Print the command reference, docs/cli.md: every command and flag with its help text,
    /// the exit codes.
    Cli,
    /// Print the generated blocks of docs/report.md (the files of a results folder, the columns
    /// of trials.csv, the charts), each between its marker lines.
    Report {
        /// Replace each block between its `<!-- generated:NAME:start -->` and
        /// `<!-- generated:NAME:end -->` lines in this Markdown file instead of printing.
        #[arg(long, value_name = "FILE")]
        into: Option<PathBuf>,
    },
    /// Print the catalogue of the canonical experiments (scripts/experiments/*.toml): each
    /// one's question, its committed run (trials, how long it ran, the build it ran from) and
    /// the pages that quote it, from the files and their meta.json; run from the checkout's
    /// top folder.
    Experiments,
    /// Print one section of a committed Markdown file (a results folder's summary.md,
    /// findings.md or comparison.md), its tables' rows filtered, under a caption naming the
    /// file and this command: what a page quotes of a run.
    Excerpt {
        /// The Markdown file.
        file: PathBuf,
        /// The section: its heading's anchor as GitHub makes it (`performance-per-method-and-instance-set`),
        /// or a start of it ending a word (`performance`); up to the next heading. Without it,
        /// the whole file.
        #[arg(long, value_name = "ANCHOR")]
        section: Option<String>,
        /// Keep only the table groups (a row with its first cell in bold) whose heading
        /// contains TEXT; may be repeated.
        #[arg(long = "group", value_name = "TEXT")]
        groups: Vec<String>,
        /// Keep only the table rows with a cell equal to TEXT (`sat`, `differs`); may be
        /// repeated.
        #[arg(long = "row", value_name = "TEXT")]
        rows: Vec<String>,
        /// Start at the section's first line that starts with WORD (`Friedman`), leaving out
        /// the paragraphs and tables before it.
        #[arg(long, value_name = "WORD")]
        from: Option<String>,
    },
    /// Print a run's search effort per instance set and configuration: trials, those answered,
    /// the median time, the mean nodes and guesses, the share answered without a guess.
    Effort {
        /// A results folder holding trials.csv (and meta.json).
        dir: PathBuf,
        /// Keep only the instance sets whose name contains TEXT; may be repeated.
        #[arg(long = "set", value_name = "TEXT")]
        sets: Vec<String>,
        /// Keep only this method's configurations; may be repeated.
        #[arg(long = "method", value_name = "NAME")]
        methods: Vec<String>,
        /// Keep only the configurations given this parameter (`objective=zero`); when
        /// repeated, every one.
        #[arg(long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
    },
    /// Print the table of the papers' committed reproductions (`results/repro-NAME/`): per
    /// paper its comparison, which experiments ran in full, its items by verdict and how long
    /// its experiments ran; run from the checkout's top folder.
    Repro,
    /// Rewrite every generated block that docs/blocks.toml lists (run from the checkout's
    /// top folder): each holds the standard output of one `sudoku-bench` command on committed
    /// results, between its `<!-- NAME:start -->` and `<!-- NAME:end -->` lines; and every
    /// chart it lists, a copy of one that `plot` draws from a committed run.
    Blocks {
        /// Change nothing: say which blocks differ from their command's output (and which
        /// charts from their run's), and exit 1 when one does.
        #[arg(long)]
        check: bool,
        /// The list of blocks.
        #[arg(long, value_name = "FILE", default_value = BLOCKS_FILE)]
        list: PathBuf,
    },
}

/// One generated block of a document.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Block {
    /// The document, from the checkout's top folder.
    file: PathBuf,
    /// The block's name: it lies between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
    name: String,
    /// The `sudoku-bench` arguments whose standard output the block holds (words split at
    /// blanks; no quoting).
    run: String,
}

/// One chart of the user documentation: a copy of a chart that `plot` draws from a committed
/// run (charts are not committed with the runs).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Figure {
    /// The copy, from the checkout's top folder.
    file: PathBuf,
    /// The committed results folder it is drawn from.
    run: PathBuf,
    /// The chart's file name as `plot` writes it into the folder (`success_vs_givens.svg`).
    chart: String,
}

/// docs/blocks.toml.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockList {
    #[serde(default)]
    block: Vec<Block>,
    #[serde(default)]
    figure: Vec<Figure>,
}

/// The chart `f` names, drawn again from its run (into a scratch folder, removed after).
fn redraw(f: &Figure, n: usize) -> Result<Vec<u8>, Failure> {
    let run = sudoku_runner::outputs::read_run(&f.run, "docs blocks")?;
    let scratch =
        std::env::temp_dir().join(format!("sudoku-bench-figure-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    let drawn = sudoku_report::plots::draw_all(&scratch, &run.trials, &run.traces);
    let chart = scratch.join(&f.chart);
    let bytes = drawn.map_err(anyhow::Error::from).and_then(|_| {
        std::fs::read(&chart).with_context(|| {
            format!(
                "{}: `plot` draws no chart {} from this run",
                f.run.display(),
                f.chart
            )
        })
    });
    // Best effort: a scratch folder left behind is only litter.
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(bytes?)
}

/// `docs blocks`: every listed block rewritten from its command, or (`check`) compared.
fn blocks(list: &Path, check: bool) -> Result<(), Failure> {
    let text =
        std::fs::read_to_string(list).with_context(|| format!("reading {}", list.display()))?;
    let blocks: BlockList =
        toml::from_str(&text).map_err(|e| anyhow!("{}: {}", list.display(), e.message()))?;
    let exe =
        std::env::current_exe().context("finding this program to run each block's command")?;
    let mut stale = Vec::new();
    for b in &blocks.block {
        let args: Vec<&str> = b.run.split_whitespace().collect();
        let o = std::process::Command::new(&exe)
            .args(&args)
            .output()
            .with_context(|| format!("running `sudoku-bench {}`", b.run))?;
        if !o.status.success() {
            return Err(anyhow!(
                "{}: block `{}`: `sudoku-bench {}` failed: {}",
                list.display(),
                b.name,
                b.run,
                String::from_utf8_lossy(&o.stderr).trim()
            )
            .into());
        }
        let output = String::from_utf8(o.stdout)
            .map_err(|_| anyhow!("`sudoku-bench {}` printed text that is not UTF-8", b.run))?;
        let (open, close) = (
            format!("<!-- {}:start -->", b.name),
            format!("<!-- {}:end -->", b.name),
        );
        let doc = std::fs::read_to_string(&b.file)
            .with_context(|| format!("reading {}", b.file.display()))?;
        let new = replace_between(&doc, &output, &open, &close).map_err(|e| {
            e.said(
                &b.file,
                &open,
                &close,
                &format!("{} lists it", list.display()),
            )
        })?;
        if new != doc {
            stale.push(format!(
                "{}: block `{}` differs from `sudoku-bench {}`",
                b.file.display(),
                b.name,
                b.run
            ));
            if !check {
                write_atomic(&b.file, &new)?;
            }
        }
    }
    for (n, f) in blocks.figure.iter().enumerate() {
        let chart = redraw(f, n)?;
        if std::fs::read(&f.file).ok().as_deref() != Some(&chart[..]) {
            stale.push(format!(
                "{}: differs from the chart {} that `plot` draws from {}",
                f.file.display(),
                f.chart,
                f.run.display()
            ));
            if !check {
                sudoku_analysis::write_with(&f.file, |w| w.write_all(&chart))?;
            }
        }
    }
    for s in &stale {
        eprintln!("{}{s}", if check { "" } else { "written: " });
    }
    if check && !stale.is_empty() {
        eprintln!("run `{BLOCKS_COMMAND}` to write them again");
        return Err(Failure::Check);
    }
    eprintln!(
        "generated blocks: {}, charts: {}; {}",
        blocks.block.len(),
        blocks.figure.len(),
        if check { "checked" } else { "up to date" }
    );
    Ok(())
}

/// Prints the page, or writes the blocks into `--into`'s file.
pub fn docs(a: &DocsArgs) -> Result<(), Failure> {
    if let Page::Report { into: Some(file) } = &a.page {
        let mut text = read_document(file)?;
        for (name, block) in report_blocks() {
            let (open, close) = markers(name);
            text = replace_between(&text, &block, &open, &close)
                .map_err(|e| e.said(file, &open, &close, &format!("the {name} go")))?;
        }
        write_document(file, &text, "docs report --into", "generated blocks")?;
        return Ok(());
    }
    let mut out = Out::new();
    match &a.page {
        Page::Cli => out.text(&cli_page())?,
        Page::Report { .. } => {
            for (name, block) in report_blocks() {
                let (open, close) = markers(name);
                out.text(&format!("{open}\n{block}{close}\n\n"))?;
            }
        }
        Page::Blocks { check, list } => blocks(list, *check)?,
        Page::Experiments => out.text(&catalogue::markdown(Path::new("."))?)?,
        Page::Repro => out.text(&catalogue::repro_markdown(Path::new("."))?)?,
        Page::Excerpt {
            file,
            section,
            groups,
            rows,
            from,
        } => out.text(&excerpt_block(
            file,
            &Filter {
                section: section.as_deref(),
                groups,
                rows,
                from: from.as_deref(),
            },
        )?)?,
        Page::Effort {
            dir,
            sets,
            methods,
            params,
        } => out.text(&effort_block(dir, sets, methods, params)?)?,
    }
    Ok(out.finish()?)
}

/// The markers of the generated block `name` of a page.
fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- generated:{name}:start -->"),
        format!("<!-- generated:{name}:end -->"),
    )
}

/// The blocks of docs/report.md, each with its name.
fn report_blocks() -> [(&'static str, String); 3] {
    let source = |what: &str| format!("_Generated from {what} by `{REPORT_COMMAND}`._\n\n");
    [
        (
            "files",
            source("the table of a results folder's files (`sudoku_analysis::files`)")
                + &sudoku_analysis::files::markdown(),
        ),
        (
            "columns",
            source("the trial row (`sudoku_analysis::columns`)")
                + &sudoku_analysis::columns::markdown(),
        ),
        (
            "charts",
            source("the chart list (`sudoku_report::charts`)") + &sudoku_report::charts::markdown(),
        ),
    ]
}

/// `text` ending as a sentence does (clap drops the full stop of a one-sentence help).
fn sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.is_empty() || text.ends_with(['.', '!', '?', ':']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

/// The subcommands of `cmd` a reader types: clap's own `help` and hidden ones aside.
fn documented(cmd: &clap::Command) -> Vec<String> {
    cmd.get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .map(|s| s.get_name().to_string())
        .collect()
}

/// Text for a Markdown table cell: one line, `|` escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// An argument as a reader types it: `PUZZLES`, `DIRS...`, `-p, --param <KEY=VALUE>`.
fn arg_form(a: &Arg) -> String {
    let values: Vec<String> = match a.get_value_names() {
        Some(names) => names.iter().map(|n| n.to_string()).collect(),
        None => vec![a.get_id().as_str().to_uppercase()],
    };
    let many = a.get_num_args().is_some_and(|n| n.max_values() > 1);
    let dots = if many { "..." } else { "" };
    if a.is_positional() {
        return format!("{}{dots}", values.join(" "));
    }
    let mut names = Vec::new();
    if let Some(s) = a.get_short() {
        names.push(format!("-{s}"));
    }
    if let Some(l) = a.get_long() {
        names.push(format!("--{l}"));
    }
    let mut form = names.join(", ");
    if a.get_action().takes_values() {
        let optional = a.get_num_args().is_some_and(|n| n.min_values() == 0);
        let value = format!("<{}>{dots}", values.join("> <"));
        if optional {
            form.push_str(&format!("[={value}]"));
        } else {
            form.push(' ');
            form.push_str(&value);
        }
    }
    form
}

/// What an argument does: its help, then its default and its choices.
fn arg_help(a: &Arg) -> String {
    let mut help = a
        .get_long_help()
        .or(a.get_help())
        .map(|h| sentence(&cell(&h.to_string())))
        .unwrap_or_default();
    if !a.get_action().takes_values() {
        return help;
    }
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|d| format!("`{}`", d.to_string_lossy()))
        .collect();
    if !defaults.is_empty() {
        help.push_str(&format!(" Default: {}.", defaults.join(", ")));
    }
    let choices: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| match p.get_help() {
            Some(h) => format!("`{}` ({})", p.get_name(), cell(&h.to_string())),
            None => format!("`{}`", p.get_name()),
        })
        .collect();
    if !choices.is_empty() {
        help.push_str(&format!(" One of: {}.", choices.join("; ")));
    }
    help
}

/// The section of `cmd` (and of its subcommands): what it does, its usage and its arguments.
fn command_section(out: &mut String, path: &str, cmd: &mut clap::Command) {
    out.push_str(&format!("\n## `{path}`\n\n"));
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        out.push_str(&format!("{}\n\n", sentence(&about.to_string())));
    }
    let usage = cmd.render_usage().to_string();
    let usage = usage.trim().trim_start_matches("Usage:").trim();
    out.push_str(&format!("```text\n{usage}\n```\n"));
    // What `--help` prints after the flags (a command's list of papers, the exit codes).
    let after = cmd
        .get_after_long_help()
        .or(cmd.get_after_help())
        .map(|a| a.to_string());
    let args: Vec<&Arg> = cmd
        .get_arguments()
        .filter(|a| {
            !a.is_hide_set()
                && !matches!(
                    a.get_action(),
                    ArgAction::Help
                        | ArgAction::HelpShort
                        | ArgAction::HelpLong
                        | ArgAction::Version
                )
        })
        .collect();
    if !args.is_empty() {
        out.push_str("\n| argument | what it does |\n|---|---|\n");
        for a in args {
            out.push_str(&format!("| `{}` | {} |\n", cell(&arg_form(a)), arg_help(a)));
        }
    }
    if let Some(after) = after {
        out.push_str(&format!("\n```text\n{}\n```\n", after.trim_end()));
    }
    for name in documented(cmd) {
        if let Some(sub) = cmd.find_subcommand_mut(&name) {
            command_section(out, &format!("{path} {name}"), sub);
        }
    }
}

/// docs/cli.md: the commands in short, the exit codes, then each command in full.
pub fn cli_page() -> String {
    let mut cli = Cli::command();
    // Built, every subcommand knows its full name and its arguments their number of values.
    cli.build();
    let mut out = format!(
        "# Command reference\n\n\
         _Generated from the command definitions by `{CLI_COMMAND}`; do not edit by hand: the \
         text is each command's `--help`._\n\n"
    );
    if let Some(about) = cli.get_long_about() {
        out.push_str(&format!("{}\n\n", about.to_string().trim_end()));
    }
    out.push_str(
        "`sudoku-bench <command> --help` prints a command's section below (`-h` in short); from \
         the checkout, `cargo run --release -- <command> ...` runs the binary (or \
         `target/release/sudoku-bench` once built). What is an error and what a warning, the \
         limits of every value and how results folders are written safely: [errors, limits and \
         warnings](errors.md).\n\n",
    );
    out.push_str("| command | what it does |\n|---|---|\n");
    for name in documented(&cli) {
        let about = cli
            .find_subcommand(&name)
            .and_then(|s| s.get_about())
            .map(|a| sentence(&cell(&a.to_string())))
            .unwrap_or_default();
        out.push_str(&format!("| [`{name}`](#{name}) | {about} |\n"));
    }
    out.push_str("\n## Exit codes\n\nOne rule for every command, also printed by `sudoku-bench --help`:\n\n| code | meaning |\n|---|---|\n");
    for code in Exit::ALL {
        out.push_str(&format!(
            "| {} | {} |\n",
            code as u8,
            cell(code.meaning().1)
        ));
    }
    out.push_str(&format!("\n{EXIT_RULE}\n"));
    for name in documented(&cli) {
        if let Some(sub) = cli.find_subcommand_mut(&name) {
            command_section(&mut out, &name, sub);
        }
    }
    out
}
