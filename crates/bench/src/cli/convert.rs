//! `convert`: between the line and grid-block formats, and to DIMACS CNF (the formula `sat`
//! gives its SAT solver, for running any SAT program on exactly that formula).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use sudoku_analysis::{write_whole, write_with};
use sudoku_core::{format, Puzzle};

use crate::cli::{params_from, Failure, InputPath, VariantArg};
use crate::io::{display_name, read_puzzles, shown, Out};

#[derive(Clone, Copy, ValueEnum)]
pub enum Target {
    /// One puzzle per line (orders 2..=5).
    Line,
    /// Grid blocks of integers (any order).
    Block,
    /// DIMACS CNF: the formula `sat` solves, with its options given by `--param` (one file per
    /// puzzle: with several puzzles `--output X.cnf` writes X-1.cnf, X-2.cnf, ...; `--output`
    /// naming a folder writes STEM.cnf or STEM-1.cnf, ... there, STEM the puzzle file's).
    Dimacs,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
    /// Output format.
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub to: Target,
    /// Output file (standard output when absent), written whole or not at all; with `--to
    /// dimacs` also a folder.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<InputPath>,
    /// With `--to dimacs`: a `sat` parameter, `key=value` (repeatable), e.g. encoding=extended.
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    #[command(flatten)]
    pub variant: VariantArg,
}

/// Rewrites every puzzle in the target format, keeping labels as comments.
pub fn convert(a: &ConvertArgs) -> Result<(), Failure> {
    if matches!(a.to, Target::Dimacs) {
        return dimacs(a);
    }
    if !a.params.is_empty() {
        return Err(Failure::Input(anyhow::anyhow!(
            "--param: only with --to dimacs"
        )));
    }
    let entries = read_puzzles(&a.file)?;
    let mut text = String::new();
    for e in &entries {
        if let Some(l) = &e.label {
            for part in l.split("; ") {
                text.push_str(&format!("# {part}\n"));
            }
        }
        match a.to {
            Target::Line => match format::to_line(&e.grid) {
                Ok(l) => {
                    text.push_str(&l);
                    text.push('\n');
                }
                Err(err) => {
                    return Err(Failure::Input(anyhow::anyhow!(
                        "{}:{}: {err}",
                        display_name(&a.file),
                        e.line
                    )))
                }
            },
            Target::Block => {
                text.push_str(&format::to_block(&e.grid));
                text.push('\n');
            }
            Target::Dimacs => unreachable!("handled by `dimacs`"),
        }
    }
    match &a.output {
        Some(p) => {
            write_whole(p, &text)?;
        }
        None => {
            let mut out = Out::new();
            out.text(&text)?;
            out.finish()?;
        }
    }
    Ok(())
}

/// `--to dimacs`: each puzzle's CNF as `sat` with `--param` builds it, a comment header naming
/// the source and the options.
fn dimacs(a: &ConvertArgs) -> Result<(), Failure> {
    let params = params_from(&a.params)?;
    let sat = sudoku_sat::Sat::from_params(&params).map_err(|e| anyhow::anyhow!("--param: {e}"))?;
    let entries = read_puzzles(&a.file)?;
    let several = entries.len() > 1;
    let Some(out) = &a.output else {
        if several {
            return Err(Failure::Input(anyhow::anyhow!(
                "{}: {} puzzles: DIMACS holds one formula, so give --output X.cnf (writes \
                 X-1.cnf, X-2.cnf, ...)",
                display_name(&a.file),
                entries.len()
            )));
        }
        let mut stdout = Out::new();
        for e in &entries {
            let f = formula(a, &sat, &params, e)?;
            write_cnf(&f, stdout.writer()?).map_err(Out::failed)?;
        }
        stdout.finish()?;
        return Ok(());
    };
    let paths = cnf_paths(out, &a.file, entries.len());
    for (e, path) in entries.iter().zip(&paths) {
        let f = formula(a, &sat, &params, e)?;
        write_with(path, |w| write_cnf(&f, w))?;
    }
    match paths.as_slice() {
        [one] => say!("wrote {}", shown(one)),
        [first, .., last] => say!(
            "wrote {} files, {} to {}",
            paths.len(),
            shown(first),
            shown(last)
        ),
        [] => {}
    }
    Ok(())
}

/// Where the formulas of `count` puzzles from `input` go with `--output out`: `out` itself for
/// one puzzle, `X-1.cnf`, `X-2.cnf`, ... for `out` = `X.cnf` (or `X`); in a folder `out` (one
/// that exists, or a path ending in `/`), `STEM.cnf` or `STEM-K.cnf` named after the puzzle
/// file (`puzzles` for standard input), not files beside the folder.
fn cnf_paths(out: &Path, input: &Path, count: usize) -> Vec<PathBuf> {
    let folder = out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/');
    let base = if folder {
        let stem = match input.file_stem() {
            Some(s) if input.as_os_str() != "-" => s.to_string_lossy().into_owned(),
            _ => "puzzles".to_string(),
        };
        out.join(stem)
    } else if count == 1 {
        return vec![out.to_path_buf()];
    } else {
        out.to_path_buf()
    };
    let base = base.to_string_lossy();
    let base = base.strip_suffix(".cnf").unwrap_or(&base);
    match count {
        1 => vec![PathBuf::from(format!("{base}.cnf"))],
        n => (1..=n)
            .map(|k| PathBuf::from(format!("{base}-{k}.cnf")))
            .collect(),
    }
}

/// Puzzle `e`'s formula as `sat` builds it, with its comment line (the source and the
/// options); a puzzle the encoder refuses is an error naming it.
fn formula(
    a: &ConvertArgs,
    sat: &sudoku_sat::Sat,
    params: &sudoku_core::Params,
    e: &format::Entry,
) -> anyhow::Result<(String, sudoku_sat::Cnf, u32)> {
    let place = format!("{}:{}", display_name(&a.file), e.line);
    let puzzle = Puzzle::new(e.grid.clone(), a.variant.variant);
    let (cnf, layout) = sudoku_sat::formula(&puzzle, sat.config())
        .map_err(|err| anyhow::anyhow!("{place}: {err}"))?;
    let shown = params.to_string();
    let comment = format!(
        "c sudoku-bench sat {}: {place}",
        if shown.is_empty() {
            "(defaults)"
        } else {
            &shown
        }
    );
    Ok((comment, cnf, layout.vars))
}

/// Writes a formula of [`formula`] as DIMACS.
fn write_cnf(
    (comment, cnf, vars): &(String, sudoku_sat::Cnf, u32),
    mut w: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(w, "{comment}")?;
    cnf.write_dimacs(*vars, &mut w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::Variant;

    /// `--to dimacs` writes one file per puzzle, each `sat`'s formula with the given
    /// parameters, which CaDiCaL's answer on it confirms satisfiable.
    #[test]
    fn dimacs_writes_sats_formula_per_puzzle() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("p.txt");
        let puzzles = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
                       52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n";
        std::fs::write(&input, puzzles).unwrap();
        let args = |to, out: Option<std::path::PathBuf>, params: &[&str]| ConvertArgs {
            file: input.clone(),
            to,
            output: out,
            params: params.iter().map(|s| s.to_string()).collect(),
            variant: VariantArg {
                variant: Variant::Classic,
            },
        };
        let out = dir.path().join("f.cnf");
        convert(&args(
            Target::Dimacs,
            Some(out.clone()),
            &["encoding=extended"],
        ))
        .unwrap();
        let entries = read_puzzles(&input).unwrap();
        let cfg =
            sudoku_sat::Sat::from_params(&params_from(&["encoding=extended".into()]).unwrap())
                .unwrap();
        for (i, e) in entries.iter().enumerate() {
            let text =
                std::fs::read_to_string(dir.path().join(format!("f-{}.cnf", i + 1))).unwrap();
            let puzzle = Puzzle::new(e.grid.clone(), Variant::Classic);
            let (cnf, layout) = sudoku_sat::formula(&puzzle, cfg.config()).unwrap();
            let mut expected = Vec::new();
            cnf.write_dimacs(layout.vars, &mut expected).unwrap();
            let (header, body) = text.split_once('\n').unwrap();
            assert!(
                header.starts_with("c sudoku-bench sat encoding=extended: "),
                "{header}"
            );
            assert_eq!(body.as_bytes(), &expected[..]);
        }
        // Several puzzles to standard output, or a parameter without `--to dimacs`: errors.
        assert!(convert(&args(Target::Dimacs, None, &[])).is_err());
        assert!(convert(&args(Target::Line, None, &["encoding=minimal"])).is_err());
        assert!(convert(&args(Target::Dimacs, Some(out), &["encoding=bogus"])).is_err());
    }
}
