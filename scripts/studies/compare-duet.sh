#!/usr/bin/env bash
# The runs of docs/notes/compare-duet.md, from one build: does `compare` flag lines of two runs
# of the same build (false alarms), and does it flag a method made 10, 25 or 50 % slower by the
# test-only slowdown (power)? Each pair's compare.md goes to results/studies/compare-duet/, and
# scripts/studies/compare-duet-counts.py counts them into its counts.md.
#
#   cargo build --release && bash scripts/studies/compare-duet.sh [BINARY]
#
# 1. Separate runs, five rounds: three runs of scripts/studies/compare-duet.toml back to back,
#    every pair compared (A/A); then one run per method with that method 25 % slower
#    (--test-slowdown M=25), each compared with the round's three. On the methods' own clocks
#    (`compare --clock own`), the clock the slowdown is a share of.
# 2. Duets (`run --baseline` with the build itself as the old build), in twenty blocks: an
#    A/A duet, then the block's method (prop, dlx, norvig, gac, sat in turn) 25 % slower on
#    one side (the new build's in blocks 1-5 and 11-15, the old build's in 6-10 and 16-20), and
#    in blocks 1-10 also 10 % and 50 % slower.
# The runs go to target/compare-duet/ (not committed); about 15 minutes on a loaded 2-core
# machine. Give a copy of the binary (cp target/release/sudoku-bench target/study-bin/), so
# that a build during the study does not change it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/sudoku-bench}
exp=scripts/studies/compare-duet.toml
scratch=target/compare-duet
res=results/studies/compare-duet
methods=(prop dlx norvig gac sat)

rm -rf "$scratch" "$res/separate" "$res/duet"
mkdir -p "$scratch" "$res/separate" "$res/duet"
log="$scratch/log"

run() {
    echo "$(date -u +%H:%M:%S) run $*" >>"$log"
    "$bin" run "$exp" --no-plots --fresh --out "$@" >>"$log" 2>&1
}

compare() {
    "$bin" compare "$1" "$2" --clock own --out "$res/separate/$3" >>"$log" 2>&1
}

for r in 1 2 3 4 5; do
    for i in 1 2 3; do
        run "$scratch/r$r-$i"
    done
    for m in "${methods[@]}"; do
        run "$scratch/r$r-slow-$m" --test-slowdown "$m=25"
    done
    compare "$scratch/r$r-1" "$scratch/r$r-2" "aa-r$r-12"
    compare "$scratch/r$r-1" "$scratch/r$r-3" "aa-r$r-13"
    compare "$scratch/r$r-2" "$scratch/r$r-3" "aa-r$r-23"
    for m in "${methods[@]}"; do
        for i in 1 2 3; do
            compare "$scratch/r$r-$i" "$scratch/r$r-slow-$m" "slow25-$m-r$r-$i"
        done
    done
done

duet() {
    local name=$1
    shift
    run "$scratch/$name" --baseline "$bin" "$@"
    mkdir -p "$res/duet/$name"
    cp "$scratch/$name/compare.md" "$res/duet/$name/compare.md"
}

for b in $(seq 1 20); do
    m=${methods[$(((b - 1) % 5))]}
    side=""
    [ $((((b - 1) / 5) % 2)) -eq 1 ] && side="baseline:"
    tag=${side:+baseline-}$m
    duet "aa-$b"
    duet "slow25-$tag-$b" --test-slowdown "$side$m=25"
    if [ "$b" -le 10 ]; then
        duet "slow10-$tag" --test-slowdown "$side$m=10"
        duet "slow50-$tag" --test-slowdown "$side$m=50"
    fi
done

python3 scripts/studies/compare-duet-counts.py
