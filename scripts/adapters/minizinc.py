#!/usr/bin/env python3
"""MiniZinc with Gecode as a solver for the `external` method: each puzzle is solved by
`minizinc --solver gecode` on the model minizinc/sudoku.mzn (AllDifferent with domain
consistency, any order n, classic or diagonal). Reads and answers puzzles like
python_solver.py (whose reading and writing it reuses), so it works per puzzle or with
`batch = true` (one Python process; MiniZinc still starts once per puzzle, flattening
included in the time, as a user of the MiniZinc tool chain would see it).

Environment: SUDOKU_SOLVER picks another MiniZinc solver (default gecode); SUDOKU_TIME_LIMIT
becomes --time-limit. Before each answer a `# stats` line carries Gecode's own figures (nodes,
failures, solveTime, flatTime in seconds), which the runner puts in the `extra` column, and its
clocks in milliseconds: solve_ms (solveTime) and build_ms (flatTime) have columns of their own.

It installs nothing: without MiniZinc it says how to install it and exits with status 3.
"""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles, show  # noqa: E402

MODEL = os.path.join(HERE, "minizinc", "sudoku.mzn")
COMPAT = os.path.join(HERE, "minizinc", "gecode-compat")
INSTALL = (
    "MiniZinc is not installed: on Debian or Ubuntu `sudo apt-get install minizinc flatzinc` "
    "(flatzinc brings Gecode); elsewhere the bundle from https://www.minizinc.org/software.html"
)
STATS = ("nodes", "failures", "solveTime", "flatTime")


def fail(message, status=3):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def include_args(exe, solver):
    """`-I gecode-compat` when the Gecode library next to this MiniZinc predates
    `fzn_all_different_int` (Debian's Gecode 6.2), so AllDifferent reaches Gecode whole."""
    if solver != "gecode":
        return []
    share = os.path.join(os.path.dirname(os.path.realpath(exe)), "..", "share", "minizinc")
    lib = os.path.join(share, "gecode")
    old = os.path.isdir(lib) and not os.path.exists(os.path.join(lib, "fzn_all_different_int.mzn"))
    return ["-I", COMPAT] if old else []


def data(cells, side, diagonal):
    rows = "|".join(",".join(str(d) for d in cells[r * side:(r + 1) * side]) for r in range(side))
    n = int(round(side ** 0.5))
    return f"n={n};diagonal={'true' if diagonal else 'false'};givens=[|{rows}|];"


def run(exe, args, cells):
    side = int(round(len(cells) ** 0.5))
    diagonal = os.environ.get("SUDOKU_VARIANT") == "diagonal"
    cmd = [exe, *args, MODEL, "-D", data(cells, side, diagonal), "--statistics"]
    limit = os.environ.get("SUDOKU_TIME_LIMIT")
    if limit:
        cmd += ["--time-limit", str(max(1, int(float(limit) * 1000)))]
    count = os.environ.get("SUDOKU_TASK") == "count"
    if count:
        cmd += ["--num-solutions", os.environ.get("SUDOKU_COUNT_LIMIT", "2")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        fail(f"minizinc exited with status {done.returncode}", 4)
    solutions, rows, stats = [], [], {}
    complete = unsat = False
    for line in done.stdout.splitlines():
        line = line.strip()
        if line.startswith("%%%mzn-stat:"):
            key, _, value = line.split(":", 1)[1].strip().partition("=")
            if key in STATS:
                stats[key] = value
        elif line == "----------":
            solutions.append([int(x) for row in rows for x in row.split()])
            rows = []
        elif line == "==========":
            complete = True
        elif line == "=====UNSATISFIABLE=====":
            unsat = True
        elif line and not line.startswith("%") and not line.startswith("="):
            rows.append(line)
    return solutions, complete, unsat, count, side, stats


def answer(exe, args, cells, fmt):
    solutions, complete, unsat, count, side, stats = run(exe, args, cells)
    if unsat:
        text = "count 0" if count else "infeasible"
    elif count and (complete or len(solutions) >= int(os.environ.get("SUDOKU_COUNT_LIMIT", "2"))):
        text = "\n".join([f"count {len(solutions)}"] + [show(g, side, fmt) for g in solutions])
    elif solutions and not count:
        text = show(solutions[0], side, fmt)
    else:
        text = "unknown"
    # Before the answer: in batch mode the runner stops reading at the answer.
    # Gecode's own clocks, in the runner's columns: its search, and flattening the model.
    for key, column in (("solveTime", "solve_ms"), ("flatTime", "build_ms")):
        try:
            stats[column] = f"{float(stats[key]) * 1000:.6f}"
        except (KeyError, ValueError):
            pass
    figures = " ".join(f"{k}={v}" for k, v in stats.items())
    return (f"# stats {figures}\n" if figures else "") + text


def main():
    exe = shutil.which("minizinc")
    if exe is None:
        fail(INSTALL)
    solver = os.environ.get("SUDOKU_SOLVER", "gecode")
    args = ["--solver", solver, *include_args(exe, solver)]
    fmt = os.environ.get("SUDOKU_FORMAT", "line")
    for cells in puzzles(sys.stdin, fmt):
        print(answer(exe, args, cells, fmt), flush=True)


if __name__ == "__main__":
    main()
