#!/usr/bin/env python3
"""Sudoku-LS of AllDiff-LS (github.com/Ailuras/AllDIff-LS, Solvers/AllDiff-LS/Sudoku-LS.cpp) as a
solver for the `external` method: the public local search closest to our `tabu` (TabuCol on the
candidates left by singles, choosing the most-conflicting cell first with configuration checking,
restarting from a pool of equally good assignments, with clash weights), hence its peer at the
large orders. Classic Sudoku of any order; it can neither count nor prove a puzzle
infeasible, so those answers are `unknown` at the time limit.

Nothing here is AllDiff-LS's code, and nothing is installed: the package registries this project
installs from do not carry it, so build it yourself once and say where the binary is:

  git clone https://github.com/Ailuras/AllDIff-LS
  g++ -std=c++11 -O3 -o sudoku-ls AllDIff-LS/Solvers/AllDiff-LS/Sudoku-LS.cpp
  export ALLDIFF_LS_BIN=$PWD/sudoku-ls     # or pass --binary PATH

Without the binary it says so and exits with status 3 (the trial is an `error` with this hint).
Per puzzle it writes the puzzle in Sudoku-LS's input format (order n, a flag line, then the grid
with -1 for an empty cell) to a temporary file, runs `sudoku-ls FILE SEED SECONDS 1`, and reads
the solution it prints. SUDOKU_SEED becomes its seed (modulo 2^31), SUDOKU_TIME_LIMIT its time
limit (its own clock, checked between its search segments; the runner's deadline still kills it).
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles, show  # noqa: E402

BUILD = (
    "Sudoku-LS not found: build it with `git clone https://github.com/Ailuras/AllDIff-LS && "
    "g++ -std=c++11 -O3 -o sudoku-ls AllDIff-LS/Solvers/AllDiff-LS/Sudoku-LS.cpp` and set "
    "ALLDIFF_LS_BIN to the binary (or pass --binary)"
)
FMT = os.environ.get("SUDOKU_FORMAT", "line")


def fail(message, status):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def to_input(cells):
    """The puzzle in Sudoku-LS's input format."""
    side = math.isqrt(len(cells))
    lines = [str(math.isqrt(side)), "1"]
    for r in range(side):
        lines.append("\t".join(str(d) if d else "-1" for d in cells[r * side:(r + 1) * side]))
    return "\n".join(lines) + "\n"


def read_solution(text, side):
    """The grid Sudoku-LS printed (side rows of side numbers), or None when it printed none."""
    rows = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == side and all(f.isdigit() for f in fields):
            rows.append([int(f) for f in fields])
    if len(rows) != side or any(not 1 <= d <= side for row in rows for d in row):
        return None
    return [d for row in rows for d in row]


def solve(binary, cells):
    side = math.isqrt(len(cells))
    seed = int(os.environ.get("SUDOKU_SEED", "1")) % (2**31)
    limit = os.environ.get("SUDOKU_TIME_LIMIT", "1000000000")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(to_input(cells))
        path = f.name
    try:
        done = subprocess.run([binary, path, str(seed), limit, "1"], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        fail(f"Sudoku-LS exited with status {done.returncode}: {done.stderr[-500:]}", 4)
    found = read_solution(done.stdout, side)
    return show(found, side, FMT) if found else "unknown"


def main():
    parser = argparse.ArgumentParser(description="AllDiff-LS's Sudoku-LS for the external method")
    parser.add_argument("--binary", default=os.environ.get("ALLDIFF_LS_BIN", ""), help="the Sudoku-LS binary")
    args = parser.parse_args()
    if not args.binary or not os.access(args.binary, os.X_OK):
        fail(BUILD, 3)
    if os.environ.get("SUDOKU_VARIANT", "classic") != "classic":
        fail("Sudoku-LS solves classic Sudoku only (no diagonal units)", 2)
    if os.environ.get("SUDOKU_TASK", "solve") != "solve":
        fail("Sudoku-LS cannot count solutions", 2)
    for cells in puzzles(sys.stdin, FMT):
        print(solve(args.binary, cells), flush=True)


if __name__ == "__main__":
    main()
