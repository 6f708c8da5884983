//! Reading an experiment file: [`load`] (size and text checks, the file named in errors) and
//! [`parse`], which checks what no single key can (one source per `[[instances]]`, where
//! `latin` and `carve` apply, clue counts, no configuration given twice); with the tests of
//! the whole reader, single-key checks included.

use std::path::Path;

use sudoku_core::{Order, Variant};

use crate::error::ExperimentError;
use crate::grid::expand_params;
use crate::schema::{ExperimentFile, Kind};
use crate::shape::Shape;
use crate::MAX_FILE_BYTES;

/// Loads and parses an experiment file; errors name the file and the key.
pub fn load(path: &Path) -> Result<(ExperimentFile, String), ExperimentError> {
    use sudoku_core::format::{read_text_within, ReadError};
    let text = read_text_within(
        path,
        MAX_FILE_BYTES,
        "an experiment file",
        "shipped ones are a few KiB; puzzles go in files of their own",
    )
    .map_err(|e| match e {
        ReadError::Io { source, .. } => ExperimentError::Read {
            path: path.to_path_buf(),
            error: source,
        },
        e => ExperimentError::Text(e),
    })?;
    let exp = parse(&text).map_err(|e| ExperimentError::InFile {
        path: path.to_path_buf(),
        error: Box::new(e),
    })?;
    Ok((exp, text))
}

/// Parses experiment text and checks what can be checked without the registry.
pub fn parse(text: &str) -> Result<ExperimentFile, ExperimentError> {
    let exp: ExperimentFile = toml::from_str(text)?;
    if exp.name.trim().is_empty() || exp.name.contains(['/', '\\']) {
        return Err(ExperimentError::Name(exp.name));
    }
    if exp.methods.is_empty() {
        return Err(ExperimentError::NoMethod);
    }
    if exp.carve.is_some() && exp.kind != Kind::Generate {
        return Err(ExperimentError::CarveWithoutGenerate);
    }
    for (i, s) in exp.instances.iter().enumerate() {
        let sources = [
            s.file.is_some(),
            s.glob.is_some(),
            s.generate.is_some(),
            s.orders.is_some(),
            s.latin.is_some(),
        ];
        if sources.iter().filter(|&&b| b).count() != 1 {
            return Err(ExperimentError::Sources(i));
        }
        let latin_fits = matches!(exp.kind, Kind::Solve | Kind::Count)
            && s.variant.unwrap_or(exp.variant) == Variant::Classic;
        if s.latin.is_some() && !latin_fits {
            return Err(ExperimentError::LatinUse(i));
        }
        if s.carve.is_some() && (exp.kind != Kind::Generate || s.orders.is_none()) {
            return Err(ExperimentError::SourceCarve(i));
        }
        if let Some(g) = &s.generate {
            check_clues(
                &format!("instances[{i}].generate"),
                g.puzzle,
                g.clues,
                &[g.order],
            )?;
        }
        if let (Some(c), Some(orders)) = (&s.carve, &s.orders) {
            check_clues(&format!("instances[{i}].carve"), c.puzzle, c.clues, orders)?;
        }
    }
    if let Some(c) = &exp.carve {
        // It carves the grids of every source of empty grids without a carve of its own.
        let orders: Vec<Order> = exp
            .instances
            .iter()
            .filter(|s| s.carve.is_none())
            .flat_map(|s| s.orders.iter().flatten().copied())
            .collect();
        check_clues("carve", c.puzzle, c.clues, &orders)?;
    }
    // Two [[method]] entries giving the same configuration would share seeds and result rows
    // (resume could not tell them apart).
    let mut seen = std::collections::HashSet::new();
    for (i, m) in exp.methods.iter().enumerate() {
        for p in expand_params(&m.params, &format!("method[{i}]"))? {
            // A named configuration is known by its name alone (`Params::shown`).
            if !seen.insert((m.name.clone(), p.shown())) {
                return Err(ExperimentError::Duplicate {
                    index: i,
                    method: m.name.clone(),
                    params: p.to_string(),
                });
            }
        }
    }
    if exp.instances.is_empty() {
        return Err(ExperimentError::NoInstances);
    }
    Ok(exp)
}

/// A carve's `clues`, checked as `generate --clues` checks it: only with `puzzle = "unique"`
/// (the other shapes decide their own clues), at least 1 (no grid is the one solution of an
/// empty puzzle, so carving could never stop at 0), and at most the cells of each grid carved
/// (`orders`).
pub fn check_clues(
    what: &str,
    puzzle: Shape,
    clues: Option<usize>,
    orders: &[Order],
) -> Result<(), ExperimentError> {
    let Some(c) = clues else { return Ok(()) };
    let problem = if puzzle != Shape::Unique {
        format!("only with puzzle = \"unique\" (where to stop carving); `{puzzle}` decides its own clues")
    } else if c == 0 {
        "0: no puzzle without clues has one solution, so carving could never stop there; leave `clues` out to carve as far as uniqueness allows, or give at least 1".to_string()
    } else if let Some(o) = orders.iter().find(|o| c > o.cells()) {
        format!("{c} clues, but a {o} grid has only {} cells", o.cells())
    } else {
        return Ok(());
    };
    Err(ExperimentError::Clues {
        what: what.to_string(),
        problem,
    })
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{seconds, MAX_REPEAT};
    use std::collections::BTreeMap;
    use std::time::Duration;

    const OK: &str = r#"
name = "t"
seed = 1
[[method]]
name = "m"
params = { alpha = [0.5, 0.7], mode = "best", k = [1, 2] }
[[instances]]
orders = [2, 3]
"#;

    #[test]
    fn grids_expand_in_a_stable_order() {
        let e = parse(OK).unwrap();
        let grid = expand_params(&e.methods[0].params, "method[0]").unwrap();
        let labels: Vec<String> = grid.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            labels,
            [
                "alpha=0.5 k=1 mode=best",
                "alpha=0.5 k=2 mode=best",
                "alpha=0.7 k=1 mode=best",
                "alpha=0.7 k=2 mode=best"
            ]
        );
    }

    #[test]
    fn errors_name_the_key() {
        let e = parse(&OK.replace("seed = 1", "seed = 1\ntrails = 3"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `trails`"), "{e}");
        assert!(e.contains("line 4"), "{e}");
        let e = parse(&OK.replace("seed = 1", "seed = \"x\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed"), "{e}");
        // Typed values are checked while reading: the error shows the line and the key.
        let e = parse(&OK.replace("orders = [2, 3]", "orders = [2, 30]"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 8") && e.contains("orders = [2, 30]"),
            "{e}"
        );
        let e = parse(&OK.replace("orders = [2, 3]", "orders = [2]\nfile = \"x\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("exactly one of"), "{e}");
        let e = parse(&format!("{OK}variant = \"hex\""))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 9") && e.contains("variant = \"hex\""),
            "{e}"
        );
        let mut t = BTreeMap::new();
        t.insert("alpha".to_string(), toml::Value::Array(vec![]));
        assert!(expand_params(&t, "method[0]")
            .unwrap_err()
            .to_string()
            .contains("method[0].params.alpha"));
    }

    #[test]
    fn latin_squares_are_a_source_for_solve_and_count_on_classic_grids() {
        let latin = "latin = \"squares.txt\"";
        let e = parse(&OK.replace("orders = [2, 3]", latin)).unwrap();
        assert_eq!(e.instances[0].latin.as_deref(), Some("squares.txt"));
        let counted = OK.replace("orders = [2, 3]", latin);
        assert!(parse(&counted.replace("seed = 1", "seed = 1\nkind = \"count\"")).is_ok());
        for (from, to) in [
            ("seed = 1", "seed = 1\nkind = \"relax\""),
            ("seed = 1", "seed = 1\nvariant = \"diagonal\""),
            (latin, "latin = \"squares.txt\"\nvariant = \"diagonal\""),
        ] {
            let e = parse(&counted.replace(from, to)).unwrap_err().to_string();
            assert!(
                e.starts_with("instances[0].latin: only with kind"),
                "{to}: {e}"
            );
        }
        let e = error_with("orders = [2, 3]", "orders = [2]\nlatin = \"x\"");
        assert!(e.contains("exactly one of") && e.contains("`latin`"), "{e}");
    }

    #[test]
    fn interleave_is_off_unless_asked_and_must_be_a_boolean() {
        assert!(!parse(OK).unwrap().interleave);
        assert!(
            parse(&OK.replace("seed = 1", "seed = 1\ninterleave = true"))
                .unwrap()
                .interleave
        );
        let e = error_with("seed = 1", "seed = 1\ninterleave = \"yes\"");
        assert!(e.contains("interleave") && e.contains("line 4"), "{e}");
    }

    /// The error for `OK` with `from` replaced by `to`.
    fn error_with(from: &str, to: &str) -> String {
        assert!(OK.contains(from), "{from}");
        parse(&OK.replace(from, to)).unwrap_err().to_string()
    }

    #[test]
    fn time_limits_are_positive_finite_and_capped() {
        for bad in [
            "1e300",
            "1e20",
            "inf",
            "-inf",
            "nan",
            "-1.0",
            "0.0",
            "0",
            "1000000001",
            "1e-12",
        ] {
            let e = error_with(
                "seed = 1",
                &format!("seed = 1\n[budget]\ntime_limit = {bad}"),
            );
            assert!(
                e.contains("line 5") && e.contains("key `time_limit`"),
                "{bad}: {e}"
            );
        }
        // The same check in [quick], in a method's budget and in `generate`.
        let e = error_with("seed = 1", "seed = 1\n[quick]\ntime_limit = 1e300");
        assert!(
            e.contains("line 5") && e.contains("key `time_limit`"),
            "{e}"
        );
        let e = error_with(
            "name = \"m\"",
            "name = \"m\"\nbudget = { time_limit = nan }",
        );
        assert!(
            e.contains("line 6") && e.contains("key `time_limit`"),
            "{e}"
        );
        let e = error_with(
            "orders = [2, 3]",
            "generate = { order = 3, time_limit = 1e300 }",
        );
        assert!(
            e.contains("line 8") && e.contains("key `time_limit`"),
            "{e}"
        );
        // The largest accepted limit, and an integer number of seconds.
        let e = parse(&OK.replace("seed = 1", "seed = 1\n[budget]\ntime_limit = 1e9")).unwrap();
        assert_eq!(
            e.budget.time_limit,
            Some(Duration::from_secs(1_000_000_000))
        );
        let e = parse(&OK.replace("seed = 1", "seed = 1\n[budget]\ntime_limit = 3")).unwrap();
        assert_eq!(e.budget.time_limit, Some(Duration::from_secs(3)));
        assert!(seconds(f64::NAN).is_err() && seconds(1e20).is_err());
        assert_eq!(seconds(0.5), Ok(Duration::from_millis(500)));
    }

    #[test]
    fn counts_and_limits_of_zero_or_below_are_errors() {
        for (key, line) in [
            ("node_limit", 5),
            ("iteration_limit", 5),
            ("count_limit", 4),
            ("trials", 4),
            ("repeat", 4),
        ] {
            let table = if key.ends_with("_limit") && key != "count_limit" {
                "[budget]\n"
            } else {
                ""
            };
            for bad in ["0", "-1"] {
                let e = error_with("seed = 1", &format!("seed = 1\n{table}{key} = {bad}"));
                assert!(
                    e.contains(&format!("line {line}")) && e.contains(key),
                    "{key} = {bad}: {e}"
                );
            }
        }
        // Elsewhere in the file: (text replaced, replacement, line, key).
        for (from, to, line, key) in [
            (
                "seed = 1",
                "seed = 1\n[quick]\nmax_instances = 0",
                5,
                "max_instances",
            ),
            (
                "name = \"m\"",
                "name = \"m\"\nbudget = { node_limit = 0 }",
                6,
                "node_limit",
            ),
            ("name = \"m\"", "name = \"m\"\nrepeat = 0", 6, "repeat"),
            ("orders = [2, 3]", "file = \"x\"\nlimit = 0", 9, "limit"),
            (
                "orders = [2, 3]",
                "generate = { order = 3, count = 0 }",
                8,
                "count",
            ),
        ] {
            let e = error_with(from, to);
            let want = format!("key `{key}`: must be at least 1");
            assert!(
                e.contains(&format!("line {line}")) && e.contains(&want),
                "{e}"
            );
        }
        // Past the type's range.
        let e = error_with("seed = 1", "seed = 1\ntrials = 4294967296");
        assert!(e.contains("line 4") && e.contains("trials"), "{e}");
    }

    #[test]
    fn repeat_is_bounded_where_it_is_written() {
        for (from, to, line) in [
            ("seed = 1", "seed = 1\nrepeat = 4294967295", 4),
            ("name = \"m\"", "name = \"m\"\nrepeat = 1001", 6),
        ] {
            let e = error_with(from, to);
            assert!(
                e.contains(&format!("line {line}"))
                    && e.contains("key `repeat`: ")
                    && e.contains("more than 1000 (the time limit applies to each one)"),
                "{e}"
            );
        }
        let e = parse(&OK.replace("seed = 1", "seed = 1\nrepeat = 1000")).unwrap();
        assert_eq!(e.repeat, MAX_REPEAT);
    }

    #[test]
    fn parameter_values_must_be_finite() {
        for bad in ["nan", "-nan", "inf", "-inf", "[0.5, nan]", "[inf]"] {
            let e = error_with("alpha = [0.5, 0.7]", &format!("alpha = {bad}"));
            assert!(
                e.contains("line 6")
                    && e.contains("params.alpha")
                    && e.contains("not a finite number"),
                "{bad}: {e}"
            );
        }
        let e = error_with(
            "orders = [2, 3]",
            "generate = { order = 3, params = { p = nan } }",
        );
        assert!(e.contains("line 8") && e.contains("params.p"), "{e}");
        // Tables are reported with their line too.
        let e = error_with("mode = \"best\"", "mode = { a = 1 }");
        assert!(
            e.contains("line 6") && e.contains("params.mode: must be a number"),
            "{e}"
        );
        // A huge finite float reaches the method's own range check as a plain number.
        let e = parse(&OK.replace("alpha = [0.5, 0.7]", "alpha = 1e300")).unwrap();
        let grid = expand_params(&e.methods[0].params, "method[0]").unwrap();
        assert_eq!(grid[0].raw("alpha").unwrap().parse::<f64>(), Ok(1e300));
        // And a NaN put in by a program is refused when expanding.
        let mut t = BTreeMap::new();
        t.insert("alpha".to_string(), toml::Value::Float(f64::NAN));
        let e = expand_params(&t, "method[0]").unwrap_err().to_string();
        assert_eq!(e, "method[0].params.alpha: NaN is not a finite number");
    }

    #[test]
    fn parameter_grids_are_bounded() {
        let lists: Vec<String> = (0..14).map(|i| format!("k{i} = [1, 2]")).collect();
        let e = error_with(
            "alpha = [0.5, 0.7], mode = \"best\", k = [1, 2]",
            &lists.join(", "),
        );
        assert!(
            e.contains("method[0].params: the grid has 16384 configurations"),
            "{e}"
        );
        // Sizes that overflow a usize saturate instead.
        let lists: Vec<String> = (0..70).map(|i| format!("k{i} = [1, 2]")).collect();
        let e = error_with(
            "alpha = [0.5, 0.7], mode = \"best\", k = [1, 2]",
            &lists.join(", "),
        );
        assert!(e.contains(&format!("{}", usize::MAX)), "{e}");
    }

    #[test]
    fn load_names_the_file_once() {
        let dir = std::env::temp_dir().join(format!("sudoku-experiment-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.toml");
        let e = load(&missing).unwrap_err().to_string();
        assert!(
            e.starts_with("reading ") && e.matches("missing.toml").count() == 1,
            "{e}"
        );
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, OK.replace("seed = 1", "seed = 1\ntrials = 0")).unwrap();
        let e = load(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.toml: ") && e.contains("line 4") && e.contains("key `trials`"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod shipped {
    /// Every experiment file in the repository reads under the checks above.
    #[test]
    fn every_shipped_experiment_parses() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/experiments");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                super::load(&path).unwrap_or_else(|e| panic!("{e}"));
                n += 1;
            }
        }
        assert!(n > 5, "only {n} experiment files in {}", dir.display());
    }
}
