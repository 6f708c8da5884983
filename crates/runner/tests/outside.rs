//! examples/own-solver, the crate outside the workspace that uses the runner (CI builds and
//! runs it in the workspace's target folder, scripts/check-structure.sh), stays able to share
//! what the workspace built: its lock file pins the workspace's versions, and its release
//! profile gives each of the workspace's crates the settings the workspace gives its members.
//! A crate built with other settings or versions would be compiled again (CBC and CaDiCaL
//! take minutes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn toml_of(path: &Path) -> toml::Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each package of a lock file (name and version): whether it comes from a registry (else a
/// path).
fn locked(path: &Path) -> BTreeMap<(String, String), bool> {
    let lock = toml_of(path);
    let packages = lock["package"].as_array().expect("a lock lists packages");
    packages
        .iter()
        .map(|p| {
            let t = p.as_table().unwrap();
            let name = t["name"].as_str().unwrap().to_string();
            let version = t["version"].as_str().unwrap().to_string();
            ((name, version), t.contains_key("source"))
        })
        .collect()
}

#[test]
fn the_example_pins_the_workspace_versions() {
    let ours = locked(&top().join("Cargo.lock"));
    let theirs = locked(&top().join("examples/own-solver/Cargo.lock"));
    for (name, version) in theirs.keys() {
        assert!(
            name == "own-solver" || ours.contains_key(&(name.clone(), version.clone())),
            "examples/own-solver/Cargo.lock has {name} {version}, which the workspace's Cargo.lock does not: copy Cargo.lock into examples/own-solver/ and build it again"
        );
    }
}

#[test]
fn the_example_builds_the_workspace_crates_as_the_workspace_does() {
    let workspace = toml_of(&top().join("Cargo.toml"));
    let example = toml_of(&top().join("examples/own-solver/Cargo.toml"));
    let profile = |t: &toml::Table| t["profile"]["release"].as_table().unwrap().clone();
    let (ours, theirs) = (profile(&workspace), profile(&example));
    // The members' settings, and the one every other package gets.
    assert_eq!(theirs.get("debug"), ours.get("debug"));
    assert_eq!(
        theirs["package"]["*"], ours["package"]["*"],
        "the settings of every other package"
    );
    let member_debug = ours["debug"].clone();
    let packages = theirs["package"].as_table().unwrap();
    for ((name, _), registry) in locked(&top().join("examples/own-solver/Cargo.lock")) {
        if registry || name == "own-solver" {
            continue;
        }
        // A workspace member, a plain path dependency of the example.
        let mut want = ours["package"]
            .get(&name)
            .and_then(|v| v.as_table().cloned())
            .unwrap_or_default();
        want.insert("debug".into(), member_debug.clone());
        let have = packages.get(&name).and_then(|v| v.as_table()).cloned();
        assert_eq!(
            have.as_ref(),
            Some(&want),
            "examples/own-solver/Cargo.toml: [profile.release.package.{name}] must be {want:?}, as the workspace builds its member"
        );
    }
}
