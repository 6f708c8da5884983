#!/usr/bin/env bash
# README.md's picture and report, remade from the committed run of `which-method`: its
# report.html (which `run` and `report` write beside the run's rows) copied to
# docs/which-method-report.html, where README.md links it (results/ keeps rows and summaries
# only), and opened in
# headless Chromium (scripts/check-report.sh, which checks the page too), the top of the page
# from the verdicts down, at 3/4 scale, into docs/report.png; docs/report-picture.txt records
# which run and which start (meta.json's `started`) it shows, and a test
# (crates/bench/tests/figures.rs) fails when the committed run is another.
#
#   bash scripts/readme-picture.sh
#
# Run it after the canonical run of which-method (or `sudoku-bench report results/which-method`). Needs
# Chromium: scripts/check-report.sh installs it with apt-get when it runs as root.
set -euo pipefail
cd "$(dirname "$0")/.."
run=results/which-method
if [ ! -f "$run/report.html" ]; then
  echo "error: $run/report.html not found: run scripts/experiments/which-method.toml first" >&2
  exit 1
fi
out="$(bash scripts/check-report.sh "$run" docs/report.png '#headline' 760)"
echo "$out"
if grep -q '^skipped:' <<<"$out"; then
  echo "error: no picture made (the check was skipped)" >&2
  exit 1
fi
cp "$run/report.html" docs/which-method-report.html
started="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["started"])' "$run/meta.json")"
printf 'run = %s\nstarted = %s\n' "$run" "$started" >docs/report-picture.txt
echo "docs/report.png, docs/which-method-report.html: the report of $run (started $started)"
