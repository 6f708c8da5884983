#!/usr/bin/env python3
"""Lloyd & Amos's own ant colony system for Sudoku (github.com/huwlloyd-mmu/sudoku_acs, the
program behind "Solving Sudoku with Ant Colony Optimization", IEEE Trans. Games 2020) as a solver
for the `external` method: the original our `acs` re-implements, to check that ours is as strong
(scripts/experiments/fidelity-acs.toml pairs them as `acs` and `acs-original`). Classic Sudoku of
orders 3, 4 and 5 (9x9, 16x16, 25x25: what its puzzle reader handles); it neither counts nor proves
a puzzle infeasible, so a run that ends without a solution is `unknown`.

Nothing here is the authors' code, and nothing is installed: build it yourself once and say where
the binary is:

  git clone https://github.com/huwlloyd-mmu/sudoku_acs
  make -C sudoku_acs                       # needs g++; writes sudoku_acs/sudokusolver
  export ACS_ORIGINAL_BIN=$PWD/sudoku_acs/sudokusolver     # or pass --binary PATH

Without the binary it says so and exits with status 3 (the trial is an `error` with this hint).
Per puzzle it writes the puzzle in the program's instance format (order n, a line `1`, then the
grid with -1 for an empty cell) to a temporary file and runs

  sudokusolver --file FILE --alg 0 --ants 10 --q0 0.9 --rho 0.9 --evap 0.005 --timeout SECONDS
               --verbose --showinitial

(the ACS algorithm with the paper's parameters, which are also the program's defaults; its README
calls the ants flag `--nAnts`, its code reads `--ants`). SECONDS is the whole part of
SUDOKU_TIME_LIMIT, at least 1, because the program reads its timeout as an integer; it checks its
clock every 100 cycles, and the runner's deadline still kills it. The program takes no seed (it
seeds its Mersenne Twister from std::random_device), so SUDOKU_SEED is not passed on: its trials
are not reproducible one by one. It prints the solution as a grid of numbers with `|` and `-+-`
rules, which is read back; `failed in time` becomes `unknown`.

The row's `extra` column gets `acs_time` (the program's own solving time in seconds, on its clock,
when it solved) and `initial_fixed` (cells fixed in its initial constrained grid, the givens
propagated, comparable with our `acs`'s figure of the same name). Options: --ants, --q0, --rho,
--evap override the parameters.
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
# Sudoku-LS reads the same instance format (Lewis's: order, a flag line, -1 for an empty cell).
from alldiff_ls import fail, to_input  # noqa: E402

BUILD = (
    "the authors' ACS program not found: build it with `git clone "
    "https://github.com/huwlloyd-mmu/sudoku_acs && make -C sudoku_acs` (needs g++) and set "
    "ACS_ORIGINAL_BIN to sudoku_acs/sudokusolver (or pass --binary)"
)
FMT = os.environ.get("SUDOKU_FORMAT", "line")



def cell_tokens(lines):
    """The cells of a grid the program printed: whitespace-separated fields without the `|`
    separators and the `---+---` rules (a lone `-` is a cell left without a digit)."""
    out = []
    for line in lines:
        for field in line.split():
            if field == "|" or (len(field) > 1 and set(field) <= set("-+")):
                continue
            out.append(field)
    return out


def read_output(text, side):
    """(solution or None, figures) from the program's verbose output."""
    lines = text.splitlines()
    figures = {}
    if "Initial constrained grid" in lines:
        start = lines.index("Initial constrained grid") + 1
        rows = [ln for ln in lines[start:] if ln.strip()][: 2 * side]
        cells = cell_tokens(rows)[: side * side]
        # A fixed cell shows its one symbol; an open one its candidates in parentheses.
        figures["initial_fixed"] = sum(1 for c in cells if c != "-" and not c.startswith("("))
    found = None
    if "Solution:" in lines:
        start = lines.index("Solution:") + 1
        numbers = [f for f in cell_tokens(lines[start:start + side + math.isqrt(side)]) if f.isdigit()]
        grid = [int(f) for f in numbers[: side * side]]
        if len(grid) == side * side and all(1 <= d <= side for d in grid):
            found = grid
    for line in lines:
        if line.startswith("solved in "):
            figures["acs_time"] = line.split()[-1]
    if found is None and not any(line.startswith("failed in time") for line in lines):
        fail(f"the ACS program printed neither a solution nor `failed in time`: {text[-500:]}", 4)
    return found, figures


def solve(args, cells):
    side = math.isqrt(len(cells))
    limit = float(os.environ.get("SUDOKU_TIME_LIMIT", "1000000"))
    seconds = max(1, int(limit))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(to_input(cells))
        path = f.name
    command = [
        args.binary, "--file", path, "--alg", "0", "--ants", str(args.ants), "--q0", str(args.q0),
        "--rho", str(args.rho), "--evap", str(args.evap), "--timeout", str(seconds),
        "--verbose", "--showinitial",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        fail(f"the ACS program exited with status {done.returncode}: {done.stderr[-500:]}", 4)
    found, figures = read_output(done.stdout, side)
    stats = " ".join(f"{k}={v}" for k, v in figures.items())
    answer = show(found, side, FMT) if found else "unknown"
    return (f"# stats {stats}\n" if stats else "") + answer


def main():
    parser = argparse.ArgumentParser(description="Lloyd & Amos's ACS program for the external method")
    parser.add_argument("--binary", default=os.environ.get("ACS_ORIGINAL_BIN", ""), help="their sudokusolver binary")
    parser.add_argument("--ants", type=int, default=10, help="ants per cycle (paper: 10)")
    parser.add_argument("--q0", type=float, default=0.9, help="their q0 (paper: 0.9)")
    parser.add_argument("--rho", type=float, default=0.9, help="global evaporation (paper: 0.9)")
    parser.add_argument("--evap", type=float, default=0.005, help="best-value evaporation (paper: 0.005)")
    args = parser.parse_args()
    if not args.binary or not os.access(args.binary, os.X_OK):
        fail(BUILD, 3)
    if os.environ.get("SUDOKU_VARIANT", "classic") != "classic":
        fail("the ACS program solves classic Sudoku only (no diagonal units)", 2)
    if os.environ.get("SUDOKU_TASK", "solve") != "solve":
        fail("the ACS program cannot count solutions", 2)
    for cells in puzzles(sys.stdin, FMT):
        side = math.isqrt(len(cells))
        if side not in (9, 16, 25):
            fail(f"the ACS program reads 9x9, 16x16 and 25x25 puzzles only, not {side}x{side}", 2)
        print(solve(args, cells), flush=True)


if __name__ == "__main__":
    main()
