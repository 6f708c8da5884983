#!/usr/bin/env bash
# Builds the binary, submits an experiment as an N-task array job, and a merge job that runs
# when every shard has finished.
#
#   scripts/slurm/submit.sh scripts/experiments/default.toml 8 [extra sbatch options...]
set -euo pipefail
EXP=${1:?usage: submit.sh EXPERIMENT.toml SHARDS [sbatch options...]}
SHARDS=${2:?usage: submit.sh EXPERIMENT.toml SHARDS [sbatch options...]}
shift 2
cd "$(dirname "$0")/../.."
cargo build --release -p sudoku-bench
NAME=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$EXP" | head -n 1)
[ -n "$NAME" ] || { echo "no name = \"...\" in $EXP" >&2; exit 2; }
jid=$(sbatch --parsable --array=1-"$SHARDS" --export=ALL,EXP="$EXP",SHARDS="$SHARDS" "$@" scripts/slurm/shard.sbatch)
sbatch --dependency=afterok:"$jid" --export=ALL,NAME="$NAME",SHARDS="$SHARDS" scripts/slurm/merge.sbatch
echo "submitted array job $jid ($SHARDS shards of $NAME); results/$NAME gets the merge"
