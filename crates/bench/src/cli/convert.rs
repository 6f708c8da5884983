//! `convert`: between the line and grid-block formats, and to DIMACS CNF (the formula `sat`
//! gives its SAT solver, for running any SAT program on exactly that formula).

use std::io::Write;

use anyhow::Context;
use clap::{Args, ValueEnum};
use sudoku_core::{format, Puzzle};

use crate::cli::{params_from, Failure, InputPath, VariantArg};
use crate::io::{display_name, read_puzzles, Out};

#[derive(Clone, Copy, ValueEnum)]
pub enum Target {
    /// One puzzle per line (orders 2..=5).
    Line,
    /// Grid blocks of integers (any order).
    Block,
    /// DIMACS CNF: the formula `sat` solves, with its options given by `--param` (one file per
    /// puzzle: with several puzzles `--output X.cnf` writes X-1.cnf, X-2.cnf, ...).
    Dimacs,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// Puzzle file (`-` for standard input).
    pub file: InputPath,
    /// Output format.
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub to: Target,
    /// Output file (standard output when absent).
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
        Some(p) => std::fs::write(p, text).with_context(|| format!("writing {}", p.display()))?,
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
        let mut stdout = std::io::stdout().lock();
        for e in &entries {
            write_cnf(a, &sat, &params, e, &mut stdout)?;
        }
        stdout.flush().context("writing to standard output")?;
        return Ok(());
    };
    for (i, e) in entries.iter().enumerate() {
        let path = if several {
            let stem = out.to_string_lossy();
            let stem = stem.strip_suffix(".cnf").unwrap_or(&stem);
            std::path::PathBuf::from(format!("{stem}-{}.cnf", i + 1))
        } else {
            out.to_path_buf()
        };
        let file =
            std::fs::File::create(&path).with_context(|| format!("writing {}", path.display()))?;
        let mut w = std::io::BufWriter::new(file);
        write_cnf(a, &sat, &params, e, &mut w)?;
        w.flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn write_cnf(
    a: &ConvertArgs,
    sat: &sudoku_sat::Sat,
    params: &sudoku_core::Params,
    e: &format::Entry,
    w: &mut impl Write,
) -> Result<(), Failure> {
    let place = format!("{}:{}", display_name(&a.file), e.line);
    let puzzle = Puzzle::new(e.grid.clone(), a.variant.variant);
    let (cnf, layout) = sudoku_sat::formula(&puzzle, sat.config())
        .map_err(|err| anyhow::anyhow!("{place}: {err}"))?;
    let shown = params.to_string();
    let written = writeln!(
        w,
        "c sudoku-bench sat {}: {place}",
        if shown.is_empty() {
            "(defaults)"
        } else {
            &shown
        }
    )
    .and_then(|()| cnf.write_dimacs(layout.vars, w));
    written.context("writing DIMACS")?;
    Ok(())
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
