#!/usr/bin/env python3
"""R. Lewis's simulated annealing ("Metaheuristics can solve sudoku puzzles", J. Heuristics 13,
2007) as a solver for the `external` method: lewis_sa/lewis_sa.c is a small, independent
transcription of the paper in standard C (it says, step by step, what it does), written to check
the project's own `sa` against the published algorithm (scripts/experiments/fidelity-sa.toml).
Classic Sudoku of any order; it can neither count nor prove a puzzle infeasible, so a run that
reaches its cut-off answers `unknown`.

On first use the adapter compiles lewis_sa.c with `cc -O2` (or $CC) into target/lewis_sa/ of
the checkout, under a name that changes with the source, so an edited file is rebuilt. Without a
C compiler it says so and exits with status 3 (the trial is an `error` with this hint).

Per puzzle it runs the program with the puzzle on its standard input. SUDOKU_SEED seeds it (one
process per puzzle; in batch mode, where the runner gives no seed, puzzle k gets seed k),
SUDOKU_TIME_LIMIT is its own time limit (processor seconds; the runner's deadline still kills
it), and `--max-iterations N` is Lewis's cut-off in neighbourhood moves (none by default).
Before each answer a `# stats` line gives its iterations (moves evaluated, the t0 sample
included), Markov chains, reheats, t0, chain length and best cost.
"""

import argparse
import hashlib
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles, show  # noqa: E402

SOURCE = os.path.join(HERE, "lewis_sa", "lewis_sa.c")
CACHE = os.path.join(HERE, "..", "..", "target", "lewis_sa")
FMT = os.environ.get("SUDOKU_FORMAT", "line")


def fail(message, status):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def binary():
    """The compiled transcription, built now if this source has not been built yet."""
    with open(SOURCE, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:12]
    path = os.path.abspath(os.path.join(CACHE, f"lewis_sa-{digest}"))
    if os.access(path, os.X_OK):
        return path
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        fail(f"no C compiler ({compiler}) to build {SOURCE}: install gcc (apt-get install gcc) "
             "or set CC", 3)
    os.makedirs(CACHE, exist_ok=True)
    # Built under a private name and renamed, so runs started together never see half a file.
    partial = f"{path}.{os.getpid()}"
    done = subprocess.run([compiler, "-O2", "-std=c99", "-o", partial, SOURCE, "-lm"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{compiler} could not build {SOURCE}: {done.stderr[-1000:]}", 3)
    os.replace(partial, path)
    return path


def solve(program, cells, seed, max_iterations):
    side = math.isqrt(len(cells))
    text = f"{math.isqrt(side)}\n" + " ".join(map(str, cells)) + "\n"
    env = dict(os.environ, SUDOKU_SEED=str(seed))
    done = subprocess.run([program, str(max_iterations)], input=text, capture_output=True,
                          text=True, env=env)
    if done.returncode != 0:
        fail(f"lewis_sa exited with status {done.returncode}: {done.stderr[-500:]}", 4)
    lines = done.stdout.splitlines()
    stats = [line for line in lines if line.startswith("# stats")]
    answer = [line for line in lines if line and not line.startswith("#")]
    if not answer or answer[0] == "unknown":
        return stats + ["unknown"]
    return stats + [show([int(v) for v in answer[0].split()], side, FMT)]


def main():
    parser = argparse.ArgumentParser(description="Lewis's simulated annealing for the external method")
    parser.add_argument("--max-iterations", type=int, default=0,
                        help="Lewis's cut-off in neighbourhood moves (0: none)")
    args = parser.parse_args()
    if args.max_iterations < 0:
        fail("--max-iterations must be 0 (none) or more", 2)
    if os.environ.get("SUDOKU_VARIANT", "classic") != "classic":
        fail("Lewis's simulated annealing solves classic Sudoku only (no diagonal units)", 2)
    if os.environ.get("SUDOKU_TASK", "solve") != "solve":
        fail("Lewis's simulated annealing cannot count solutions", 2)
    program = binary()
    given_seed = os.environ.get("SUDOKU_SEED")
    for k, cells in enumerate(puzzles(sys.stdin, FMT), start=1):
        seed = int(given_seed) if given_seed else k
        print("\n".join(solve(program, cells, seed, args.max_iterations)), flush=True)


if __name__ == "__main__":
    main()
