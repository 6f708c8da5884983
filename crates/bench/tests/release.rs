//! What a stranger needs to adopt a release: the licence files that Cargo.toml's `license`
//! names, a CITATION.cff that parses and cites the works `repro` reproduces, a description for
//! every crate, and no placeholder where the source is said to come from.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The subset of YAML that CITATION.cff uses: block mappings and sequences by indentation,
/// plain or double-quoted scalars (no escapes, no flow collections, no multi-line scalars).
#[derive(Debug)]
enum Yaml {
    Str(String),
    Map(Vec<(String, Yaml)>),
    List(Vec<Yaml>),
}

impl Yaml {
    fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self, key: &str) -> Option<&str> {
        match self.get(key)? {
            Yaml::Str(s) => Some(s),
            _ => None,
        }
    }

    fn list(&self, key: &str) -> &[Yaml] {
        match self.get(key) {
            Some(Yaml::List(l)) => l,
            other => panic!("`{key}` is not a list: {other:?}"),
        }
    }
}

/// `"text"` without its quotes, or a plain scalar as written.
fn scalar(s: &str, line: usize) -> Yaml {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .unwrap_or_else(|| panic!("line {line}: unterminated string"));
        assert!(
            !inner.contains('"') && !inner.contains('\\'),
            "line {line}: quotes or escapes inside a string"
        );
        Yaml::Str(inner.to_string())
    } else {
        assert!(
            !s.starts_with(['[', '{', '\'', '|', '>', '&', '*']),
            "line {line}: `{s}` is outside the subset"
        );
        Yaml::Str(s.to_string())
    }
}

/// Lines as (indent, text, line number), blank lines and comments left out.
fn lines(text: &str) -> Vec<(usize, String, usize)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            assert!(!l.contains('\t'), "line {}: a tab", i + 1);
            let t = l.trim_start();
            (l.len() - t.len(), t.trim_end().to_string(), i + 1)
        })
        .collect()
}

/// The block that starts at `ls[*i]`, whose lines are indented by `indent`.
fn block(ls: &mut Vec<(usize, String, usize)>, i: &mut usize, indent: usize) -> Yaml {
    if ls[*i].1.starts_with("- ") || ls[*i].1 == "-" {
        let mut items = Vec::new();
        while *i < ls.len() && ls[*i].0 == indent && ls[*i].1.starts_with("- ") {
            let (_, text, n) = ls[*i].clone();
            let rest = text[2..].trim_start().to_string();
            if rest.contains(": ") || rest.ends_with(':') {
                // A mapping whose first key sits on the dash's line.
                ls[*i] = (indent + 2, rest, n);
                items.push(block(ls, i, indent + 2));
            } else {
                items.push(scalar(&rest, n));
                *i += 1;
            }
        }
        return Yaml::List(items);
    }
    let mut map = Vec::new();
    while *i < ls.len() && ls[*i].0 == indent {
        let (_, text, n) = ls[*i].clone();
        let (key, value) = text
            .split_once(':')
            .unwrap_or_else(|| panic!("line {n}: `{text}` is not `key: value`"));
        assert!(
            !map.iter().any(|(k, _): &(String, Yaml)| k == key),
            "line {n}: `{key}` twice"
        );
        *i += 1;
        let value = if value.trim().is_empty() {
            assert!(
                *i < ls.len() && ls[*i].0 >= indent,
                "line {n}: `{key}:` has no value"
            );
            // A sequence may sit at the key's indentation, a mapping must be deeper.
            let child = ls[*i].0;
            assert!(
                child > indent || ls[*i].1.starts_with("- "),
                "line {n}: `{key}:` has no value"
            );
            block(ls, i, child)
        } else {
            scalar(value, n)
        };
        map.push((key.to_string(), value));
    }
    assert!(
        *i == ls.len() || ls[*i].0 < indent,
        "line {}: unexpected indentation",
        ls[*i].2
    );
    Yaml::Map(map)
}

fn parse(text: &str) -> Yaml {
    let mut ls = lines(text);
    let mut i = 0;
    let y = block(&mut ls, &mut i, 0);
    assert_eq!(
        i,
        ls.len(),
        "line {}: not parsed",
        ls[i.min(ls.len() - 1)].2
    );
    y
}

/// The workspace's `license` expression from the root Cargo.toml.
fn workspace_license() -> String {
    let toml: toml::Value = read("Cargo.toml").parse().expect("Cargo.toml parses");
    toml["workspace"]["package"]["license"]
        .as_str()
        .expect("a workspace license")
        .to_string()
}

#[test]
fn the_licence_files_are_those_cargo_toml_names() {
    let license = workspace_license();
    assert_eq!(license, "MIT OR Apache-2.0");
    let mit = read("LICENSE-MIT");
    assert!(mit.starts_with("MIT License\n\nCopyright (c) the sudoku-bench authors\n"));
    assert!(mit.contains("THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND"));
    let apache = read("LICENSE-APACHE");
    assert!(apache.contains("Apache License\n                           Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    // Every crate takes the workspace's licence and says what it is.
    let mut crates = 0;
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let toml: toml::Value = text.parse().unwrap();
        let package = &toml["package"];
        let name = package["name"].as_str().unwrap();
        assert_eq!(
            package.get("license").and_then(|l| l.get("workspace")),
            Some(&toml::Value::Boolean(true)),
            "{name}: license.workspace = true"
        );
        let description = package.get("description").and_then(|d| d.as_str());
        assert!(
            description.is_some_and(|d| d.len() > 20),
            "{name}: a description"
        );
        crates += 1;
    }
    assert!(crates >= 15, "{crates} crates");
}

#[test]
fn the_citation_file_parses_and_cites_the_reproduced_works() {
    let cff = parse(&read("CITATION.cff"));
    assert_eq!(cff.str("cff-version"), Some("1.2.0"));
    assert_eq!(cff.str("type"), Some("software"));
    for key in ["message", "title", "version", "abstract"] {
        assert!(cff.str(key).is_some_and(|v| !v.is_empty()), "{key}");
    }
    let version: toml::Value = read("Cargo.toml").parse().unwrap();
    assert_eq!(
        cff.str("version"),
        version["workspace"]["package"]["version"].as_str()
    );
    assert!(!cff.list("authors").is_empty());
    // The licences, as the SPDX list CFF reads as "any of these".
    let licenses: Vec<&str> = cff
        .list("license")
        .iter()
        .map(|l| match l {
            Yaml::Str(s) => s.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    let expression = workspace_license();
    assert_eq!(licenses, expression.split(" OR ").collect::<Vec<_>>());
    // One reference per work `repro` reproduces, each with its title as the guide cites it.
    let guide = read("docs/reproducing.md");
    let references = cff.list("references");
    assert_eq!(references.len(), 6);
    let mut notes = BTreeSet::new();
    for r in references {
        let title = r.str("title").expect("a title");
        assert!(guide.contains(title), "docs/reproducing.md cites {title:?}");
        assert!(
            r.str("type").is_some() && !r.list("authors").is_empty(),
            "{title}"
        );
        notes.insert(r.str("notes").unwrap_or_default().to_string());
    }
    for name in ["unicamp-ilp", "jump", "takano", "raggi", "teles", "lewis"] {
        let by = format!("Reproduced by `sudoku-bench repro {name}`.");
        assert!(
            notes.iter().any(|n| n.ends_with(&by)),
            "no reference says {by:?}"
        );
    }
    // The README tells how to cite.
    assert!(read("README.md").contains("CITATION.cff"));
}

#[test]
fn the_subset_parser_refuses_what_it_does_not_read() {
    let y = parse("a: 1\nb:\n  - c: \"x: y\"\n    d: 2\n  - e\nf:\n- g\n");
    assert_eq!(y.str("a"), Some("1"));
    assert_eq!(y.list("b").len(), 2);
    assert_eq!(y.list("b")[0].str("c"), Some("x: y"));
    assert_eq!(y.list("f").len(), 1);
    for bad in [
        "a: [1, 2]\n",
        "a:\n\tb: 1\n",
        "a: 1\na: 2\n",
        "a\n",
        "a:\n",
        "a: \"x\n",
    ] {
        assert!(
            std::panic::catch_unwind(|| parse(bad)).is_err(),
            "{bad:?} parsed"
        );
    }
}

#[test]
fn no_placeholder_says_where_the_source_is() {
    let mut files = vec!["Cargo.toml".to_string(), "README.md".to_string()];
    for dir in ["docs", "crates"] {
        let mut stack = vec![root().join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "md" || x == "toml") {
                    files.push(p.strip_prefix(root()).unwrap().display().to_string());
                }
            }
        }
    }
    for f in &files {
        let text = read(f);
        for placeholder in ["example.invalid", "<this repository>"] {
            assert!(!text.contains(placeholder), "{f} holds {placeholder}");
        }
    }
}

#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-bench"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let prefix = format!("sudoku-bench {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = text
        .strip_prefix(&prefix)
        .and_then(|t| t.strip_suffix(")\n"))
        .unwrap_or_else(|| panic!("{text:?}"));
    let hash = commit.strip_suffix("+dirty").unwrap_or(commit);
    assert!(
        commit == "archive" || (hash.len() == 12 && hash.chars().all(|c| c.is_ascii_hexdigit())),
        "{text:?}"
    );
}
