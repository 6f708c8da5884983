#!/usr/bin/env bash
# CI's fuzz smoke run: every fuzz target (fuzz/, cargo afl) fuzzed for a few seconds from its
# seed corpus; fails on any crash or hang. Installs cargo-afl (which builds AFL++) when it is
# missing. FUZZ_SECONDS sets the seconds per target (default 10); trial_csv_plot, which draws
# every chart of each input (tens of executions a second, not thousands), gets
# FUZZ_PLOT_SECONDS (default 4).
# From scratch it costs about 350 CPU-seconds (4-6 minutes on an idle 2-core machine), nearly
# all of it building: cargo-afl with AFL++, then the instrumented targets; see fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo afl --version >/dev/null 2>&1; then
    cargo install cargo-afl --locked --version 0.18.2
fi
# AFL++'s runtime is built per rustc version: after a toolchain update it is missing.
cargo afl config --build >/dev/null 2>&1 || true
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failed=0
for target in puzzle_text experiment_toml trial_csv paper_values trial_csv_plot; do
    seconds=${FUZZ_SECONDS:-10}
    [ "$target" = trial_csv_plot ] && seconds=${FUZZ_PLOT_SECONDS:-4}
    echo "== fuzz smoke: $target ($seconds s)"
    FUZZ_OUT="$out" bash fuzz/run.sh "$target" -V "$seconds" >"$out/$target.log" 2>&1 ||
        { tail -n 30 "$out/$target.log"; failed=1; continue; }
    grep -E "^(execs_done|execs_per_sec|corpus_count)" "$out/$target/default/fuzzer_stats" || true
    for kind in crashes hangs; do
        found=$(find "$out/$target/default/$kind" -type f -name 'id:*' 2>/dev/null | wc -l)
        if [ "$found" -gt 0 ]; then
            echo "fuzz smoke: $target has $found $kind; inputs:"
            for f in "$out/$target/default/$kind"/id:*; do echo "--- $f"; head -c 400 "$f" | cat -v; echo; done
            failed=1
        fi
    done
done
exit "$failed"
