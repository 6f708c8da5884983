#!/bin/sh
# tdoku (github.com/t-dillon/tdoku), the fastest public 9x9 solver, as an `external` program:
# one process answers puzzle after puzzle (use `batch = true`), with its own clock in
# `# stats solve_ms=` (scripts/adapters/tdoku/adapter.cc). Classic 9x9, line format only.
#
# Nothing of tdoku is shipped. Build it once from your clone of its public source:
#   git clone https://github.com/t-dillon/tdoku
#   TDOKU_SRC=$PWD/tdoku scripts/adapters/tdoku/build.sh
# which writes target/peers/tdoku (or set TDOKU_BIN to a binary built elsewhere). Without the
# binary this says how to build it and exits with status 3 (the trial is an `error` with this hint).
here=$(dirname "$0")
bin=${TDOKU_BIN:-$here/../../target/peers/tdoku}
if [ ! -x "$bin" ]; then
    if [ -n "${TDOKU_SRC:-}" ]; then
        "$here/tdoku/build.sh" >&2 || exit 3
    else
        echo "tdoku not built: git clone https://github.com/t-dillon/tdoku, then TDOKU_SRC=\$PWD/tdoku scripts/adapters/tdoku/build.sh (or set TDOKU_BIN)" >&2
        exit 3
    fi
fi
exec "$bin"
