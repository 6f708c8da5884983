#!/usr/bin/env bash
# Builds the fuzz targets with AFL++ instrumentation (cargo afl) and fuzzes one of them.
#   fuzz/run.sh TARGET [AFL-FUZZ OPTIONS...]   e.g. fuzz/run.sh trial_csv -V 60   (60 s)
#                                                    fuzz/run.sh puzzle_text -E 10000000
# Findings go to fuzz/out/TARGET/default/{crashes,hangs} (FUZZ_OUT=DIR: DIR/TARGET/…); a second
# run resumes from them.
set -euo pipefail
target=${1:?usage: fuzz/run.sh TARGET [afl-fuzz options]}
shift
cd "$(dirname "$0")"
# Its own target folder always: instrumented flags would otherwise rebuild a workspace target
# folder that CARGO_TARGET_DIR may point at (FUZZ_TARGET_DIR moves it).
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/target}"
cargo afl build --release --bin "$target"
out=${FUZZ_OUT:-out}
seeds="$out/$target-seeds"
rm -rf "$seeds"
bash seeds.sh "$target" "$seeds"
# A container's core_pattern and CPU governor are not ours to change; neither affects findings.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_AUTORESUME=1
export AFL_NO_UI=${AFL_NO_UI:-1}
# 1 s per input is far above any parse here (a hang is a finding); inputs up to 16 KiB (a 64×64 grid block).
cargo afl fuzz -i "$seeds" -o "$out/$target" -t 1000 -G 16384 "$@" "$CARGO_TARGET_DIR/release/$target"
