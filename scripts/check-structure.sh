#!/usr/bin/env bash
# CI: the structure the workspace keeps. No import circle, between the files of a crate or
# between crates (scripts/import-circles.py, after its own self-test); and the runner used as
# a library from outside the workspace: examples/own-solver registers its own solver, runs an
# experiment file that names it beside prop, and checks the results (exit 1 when a check
# fails). The example builds in the workspace's target folder, so the crates it shares with
# the workspace (CBC and CaDiCaL among them) are not compiled again: it adds its own crate.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== import circles"
python3 scripts/import-circles.py --self-test
python3 scripts/import-circles.py
echo "== examples/own-solver: a solver from outside the workspace, run and checked"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
start=$(date +%s)
manifest=examples/own-solver/Cargo.toml
cargo fmt --manifest-path "$manifest" -- --check
cargo test --release -q --manifest-path "$manifest"
out="$(mktemp -d -t own-solver.XXXXXX)"
cargo run --release -q --manifest-path "$manifest" -- examples/own-solver/experiment.toml --out "$out/run"
rm -rf "$out"
echo "examples/own-solver: built, tested and run in $(($(date +%s) - start)) s"
