#!/usr/bin/env bash
# The Python package as a new user gets it (docs/python.md): a fresh virtual environment,
# `pip install ./python` from the checkout, then the package's tests (python/tests, pytest) and
# docs/python.md's example, extracted from the page and run as a script in an empty folder.
# The extension is built into the workspace's target/ folder, so CBC and CaDiCaL, compiled by
# the Rust steps before, are not compiled again. The tests compare answers with the command,
# which the Rust steps built (target/release/sudoku-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CARGO_TARGET_DIR="$root/target"
work="$(mktemp -d -t sudoku-bench-python.XXXXXX)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
echo "== python: a fresh virtual environment, pip install ./python"
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet ./python
# What the tests and the example need beside the package (python/pyproject.toml's `test` extra).
"$py" -m pip install --quiet "pytest>=7" "matplotlib>=3.7"
echo "   installed in $((SECONDS - started)) s"
# Built by the Rust steps before (the command's tests run it); built here when this runs alone.
[ -x target/release/sudoku-bench ] || cargo build --release -q -p sudoku-bench
echo "== python: pytest python/tests (the installed package)"
(cd "$work" && "$py" -m pytest -q -p no:cacheprovider "$root/python/tests")
echo "   tests done at $((SECONDS - started)) s"
echo "== python: docs/python.md's example, as a script in an empty folder"
mkdir "$work/example"
"$py" - "$root/docs/python.md" "$work/example/example.py" <<'PY'
import sys
text = open(sys.argv[1]).read()
block = text.split("<!-- python-example:start -->\n", 1)[1].split("<!-- python-example:end -->", 1)[0]
open(sys.argv[2], "w").write(block.strip().removeprefix("```python").removesuffix("```"))
PY
(cd "$work/example" && "$py" example.py && test -s example/wall.png)
echo "== python: done in $((SECONDS - started)) s"
