#!/bin/sh
# Builds the tdoku adapter (adapter.cc, ours) against a clone of tdoku's public source, with
# tdoku's own flags for its fastest solver (g++ -O3 -march=native), into target/peers/tdoku.
#   TDOKU_SRC=/path/to/tdoku scripts/adapters/tdoku/build.sh [OUT]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${TDOKU_SRC:?set TDOKU_SRC to a clone of https://github.com/t-dillon/tdoku}
out=${1:-$here/../../../target/peers/tdoku}
for f in include/tdoku.h src/solver_dpll_triad_simd.cc src/util.cc; do
    [ -f "$src/$f" ] || { echo "$src/$f is missing: is TDOKU_SRC a clone of tdoku?" >&2; exit 2; }
done
mkdir -p "$(dirname "$out")"
${CXX:-g++} -O3 -march=native -std=c++17 -DNDEBUG -I"$src/include" -I"$src/src" \
    "$here/adapter.cc" "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc" -o "$out"
echo "built $out" >&2
