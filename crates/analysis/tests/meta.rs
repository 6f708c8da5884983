//! `meta.json` read typed: every committed one reads into [`RunMeta`] and writes back the same
//! JSON (the type covers the whole file); one that is not JSON is an error naming the file,
//! one that is missing is allowed.

use std::path::{Path, PathBuf};

use sudoku_analysis::meta::RunMeta;
use sudoku_analysis::{AnalysisError, RunOutputs};

/// Every folder below `dir` holding a meta.json.
fn folders_with_meta(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            folders_with_meta(&p, out);
        } else if p.file_name().is_some_and(|n| n == "meta.json") {
            out.push(dir.to_path_buf());
        }
    }
}

#[test]
fn every_committed_meta_json_reads_typed_and_whole() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut dirs = Vec::new();
    folders_with_meta(&results, &mut dirs);
    assert!(dirs.len() >= 50, "{} folders with meta.json", dirs.len());
    let mut with_settings = 0;
    for dir in &dirs {
        let meta = RunMeta::read(dir)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap();
        // Written back, the typed file is the file: no field is left out or read wrong.
        let text = std::fs::read_to_string(dir.join("meta.json")).unwrap();
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut typed = serde_json::to_value(&meta).unwrap();
        if file.get("settings").is_none() {
            typed.as_object_mut().unwrap().remove("settings");
        } else {
            with_settings += 1;
        }
        assert_eq!(typed, file, "{}", dir.display());
        assert!(!meta.experiment.is_empty() && !meta.command.is_empty());
    }
    assert!(with_settings > 0 && with_settings < dirs.len());
}

#[test]
fn a_meta_json_that_is_not_json_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // No meta.json: allowed (a merged cluster run has none).
    assert_eq!(RunMeta::read(dir.path()).unwrap(), None);
    assert!(RunOutputs::read(dir.path(), None).unwrap().meta.is_none());
    for bad in ["{\"experiment\": ", "[1, 2]", "{\"cores\": \"two\"}"] {
        std::fs::write(dir.path().join("meta.json"), bad).unwrap();
        let e = RunOutputs::read(dir.path(), None).unwrap_err();
        assert!(matches!(e, AnalysisError::Meta { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("meta.json: not a readable meta.json") && text.contains("line 1"),
            "{text}"
        );
    }
    // An older file without settings reads, with none.
    std::fs::write(dir.path().join("meta.json"), "{\"experiment\": \"x\"}").unwrap();
    let meta = RunMeta::read(dir.path()).unwrap().unwrap();
    assert_eq!((meta.experiment.as_str(), meta.settings), ("x", None));
}
