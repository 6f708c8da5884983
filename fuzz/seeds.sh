#!/usr/bin/env bash
# Fills DIR with the seed corpus of TARGET, taken from the repository's own files (nothing is
# kept twice): puzzle files and the malformed examples, the experiment files, and the first rows
# of every results folder's trials.csv and traces.csv (whole files would be too large to mutate
# well), and fuzz/seeds/ for the files no results folder commits.  Usage: fuzz/seeds.sh TARGET DIR
set -euo pipefail
target=$1 dir=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$dir"
case "$target" in
puzzle_text)
    cp "$root"/datasets/seeds/*.txt "$dir"/
    for f in "$root"/tests/malformed/*.txt; do cp "$f" "$dir/malformed_$(basename "$f")"; done
    ;;
experiment_toml)
    cp "$root"/scripts/experiments/*.toml "$dir"/
    ;;
trial_csv)
    # traces.csv is not committed for every run (it can be large), so a missing one is no
    # error, and fuzz/seeds/traces_head.csv (the first rows of a traces.csv) is always a seed.
    shopt -s nullglob
    cp "$root"/fuzz/seeds/traces_head.csv "$dir"/
    for f in "$root"/results/*/trials.csv "$root"/results/*/traces.csv; do
        name="$(basename "$(dirname "$f")")_$(basename "$f")"
        head -n 6 "$f" >"$dir/$name"
    done
    ;;
trial_csv_plot)
    # Rows of several configurations and instances, so the charts that compare them are drawn.
    for f in "$root"/results/*/trials.csv; do
        head -n 12 "$f" >"$dir/$(basename "$(dirname "$f")").csv"
    done
    cp "$root"/crates/bench/tests/malformed/results_zero_time/trials.csv "$dir/zero_time.csv"
    ;;
paper_values)
    cp "$root"/datasets/seeds/paper_values.csv "$dir"/
    # The header with a few items too: a whole file is long for AFL to mutate well.
    body=$(grep -v '^#' "$root"/datasets/seeds/paper_values.csv)
    # The first line by expansion, not `| head -n 1`: head may exit before printf has written
    # all of the body, and under pipefail printf's SIGPIPE fails the script (seen once in CI).
    header=${body%%$'\n'*}
    for start in 2 40 80 120; do
        { printf '%s\n' "$header"; printf '%s\n' "$body" | sed -n "${start},$((start + 3))p"; } >"$dir/items_$start.csv"
    done
    ;;
*)
    echo "unknown target $target (puzzle_text, experiment_toml, trial_csv, trial_csv_plot, paper_values)" >&2
    exit 2
    ;;
esac
