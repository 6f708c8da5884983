#!/usr/bin/env bash
# Builds the binary, submits an experiment as an N-task array job, and a merge job that runs
# when every shard has finished.
#
#   scripts/slurm/submit.sh scripts/experiments/default.toml 8 [extra sbatch options...]
#
# The jobs run in WORKDIR (default: the checkout), so results/<name>/ and the slurm-*.out logs
# land there; relative paths in the experiment file are read from there too. The binary is
# $CARGO_TARGET_DIR/release/sudoku-bench (default target/), or BIN. scripts/slurm/test-local.sh
# tests all of this on a one-node Slurm.
set -euo pipefail
EXP=${1:?usage: submit.sh EXPERIMENT.toml SHARDS [sbatch options...]}
SHARDS=${2:?usage: submit.sh EXPERIMENT.toml SHARDS [sbatch options...]}
shift 2
EXP=$(realpath "$EXP")
cd "$(dirname "$0")/../.."
WORKDIR=$(realpath "${WORKDIR:-.}")
cargo build --release -p sudoku-bench
BIN=$(realpath "${BIN:-${CARGO_TARGET_DIR:-target}/release/sudoku-bench}")
NAME=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$EXP" | head -n 1)
[ -n "$NAME" ] || { echo "no name = \"...\" in $EXP" >&2; exit 2; }
jid=$(sbatch --parsable --chdir="$WORKDIR" --array=1-"$SHARDS" \
  --export=ALL,EXP="$EXP",SHARDS="$SHARDS",BIN="$BIN" "$@" scripts/slurm/shard.sbatch)
jid=${jid%%;*}
mid=$(sbatch --parsable --chdir="$WORKDIR" --dependency=afterok:"$jid" \
  --export=ALL,NAME="$NAME",SHARDS="$SHARDS",BIN="$BIN" scripts/slurm/merge.sbatch)
mid=${mid%%;*}
echo "submitted array job $jid and merge job $mid ($SHARDS shards of $NAME); $WORKDIR/results/$NAME gets the merge"
