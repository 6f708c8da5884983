#!/usr/bin/env bash
# The workspace's tests, then how many tests skipped and why.
#
#   bash scripts/test.sh [--strict] [ARGS for cargo test]
#
# Runs `cargo test --workspace --release ARGS` with SUDOKU_BENCH_SKIPS naming a fresh file, in
# which every test that cannot run here (a peer program is not installed) records itself
# (sudoku_fixtures::skip); `cargo test` hides their output, so the count and the reasons are
# printed at the end. With --strict (CI), a skip fails the run unless .ci/may-skip names the
# test: the peers a package registry carries are installed by .ci/peers.sh, and only those
# that exist as source repositories alone (built by hand) may be missing.
set -uo pipefail
cd "$(dirname "$0")/.."
strict=0
if [ "${1:-}" = --strict ]; then
  strict=1
  shift
fi
log="$(mktemp -t test-skips.XXXXXX)"
trap 'rm -f "$log"' EXIT
SUDOKU_BENCH_SKIPS="$log" cargo test --workspace --release "$@"
status=$?
skipped=$(sort -u "$log" | wc -l)
echo "== $skipped tests skipped (a peer program is not installed here)"
sort -u "$log" | sed 's/^\([^\t]*\)\t/  \1: /'
if [ "$strict" = 1 ]; then
  allowed="$(grep -v '^#' .ci/may-skip | awk 'NF { print $1 }')"
  while IFS=$'\t' read -r test why; do
    if ! grep -qxF "$test" <<<"$allowed"; then
      echo "FAILED: $test skipped ($why); .ci/peers.sh installs its peer in CI, and .ci/may-skip does not name it"
      status=1
    fi
  done < <(sort -u "$log")
fi
exit "$status"
