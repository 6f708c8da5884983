#!/usr/bin/env python3
"""Peter Norvig's own sudoku.py ("Solving Every Sudoku Puzzle", norvig.com/sudoku.html) as a
solver for the `external` method, to check that our `norvig` searches the way his does
(scripts/experiments/fidelity-norvig.toml). 9x9 classic Sudoku only, as his code is.

Nothing of his is copied here or installed: download his file yourself and say where it is:

  curl -O https://norvig.com/sudoku.py      # or py/sudoku.py of github.com/norvig/pytudes
  export NORVIG_SUDOKU_PY=$PWD/sudoku.py     # or pass --module PATH

Without it the adapter says so and exits with status 3 (the trial is an `error` with this hint).

Each puzzle is solved by his `solve` (his `parse_grid`, then his `search`), unchanged. His effort
is counted from outside: his module's `search` and `assign` are replaced by wrappers that count
the calls and call the originals (his functions call each other through the module's globals,
so the recursive calls are counted too). Before each answer a `# stats` line gives
- nodes: calls of `search`: the root and every child tried (our `norvig`'s `nodes` column);
- guesses: those calls that branched (a state, not solved: our `guesses` column);
- assigns: calls of `assign`, the givens' and the propagation's included. This one depends on
  the order his `peers` sets are walked in, which Python randomises per process for strings;
  the adapter therefore runs with PYTHONHASHSEED=0 (it restarts itself with it when unset) so
  the figure repeats. The search itself (nodes, guesses, the solution) does not depend on it.
- solve_ms: the time of his `solve` call alone (his parsing of the grid and his search), by
  Python's monotonic clock: his own clock, beside the harness's.
The answer is his solution, or `infeasible` when his search returns nothing (it is complete).

His file exists in two forms: the pytudes one is Python 3; the one on norvig.com is Python 2
(`print` statements in his display and timing helpers). The adapter loads the file as it is
when Python 3 can compile it; otherwise it runs his top-level statements one by one, skips
those Python 3 cannot compile (the helpers with `print` statements, which solving does not
use) and names them on standard error. The file itself is never edited. If one of the
functions solving needs cannot be compiled, that is an error naming it.
"""

import argparse
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles  # noqa: E402

DOWNLOAD = (
    "Norvig's sudoku.py not found: download it from https://norvig.com/sudoku.py (or py/sudoku.py "
    "of https://github.com/norvig/pytudes) and set NORVIG_SUDOKU_PY to the file (or pass --module)"
)
FMT = os.environ.get("SUDOKU_FORMAT", "line")
# What solving uses of his module.
NEEDED = ("squares", "digits", "parse_grid", "grid_values", "assign", "eliminate", "search", "solve")
# Lines at column 0 that continue the statement above rather than start one.
CONTINUATIONS = ("else", "elif", "except", "finally", ")", "]", "}")


def fail(message, status):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def statements(source):
    """His file cut into top-level statements: a new one starts at each line at column 0 that
    is not blank, a comment or the continuation of the statement above."""
    chunks, current = [], []
    for line in source.splitlines(keepends=True):
        starts = line[:1] not in ("", " ", "\t", "\n", "\r", "#")
        if starts and not line.startswith(CONTINUATIONS) and current:
            chunks.append(current)
            current = []
        current.append(line)
    if current:
        chunks.append(current)
    return ["".join(c) for c in chunks]


def load(path):
    """His module's namespace, from his file as it is."""
    with open(path, encoding="utf-8", errors="replace") as f:
        source = f.read()
    space = {"__name__": "norvig_sudoku", "__file__": path}
    try:
        code = compile(source, path, "exec")
    except SyntaxError:
        code = None
    if code is not None:
        exec(code, space)
        return space
    # The Python 2 file: his statements one by one, skipping those Python 3 cannot compile.
    skipped = []
    for chunk in statements(source):
        try:
            piece = compile(chunk, path, "exec")
        except SyntaxError:
            skipped.append(chunk.split("\n", 1)[0].strip())
            continue
        exec(piece, space)
    print(f"note: {path} is Python 2; skipped what Python 3 cannot compile: {skipped}",
          file=sys.stderr, flush=True)
    return space


class Counted:
    """His `search` and `assign`, replaced in his namespace by counting wrappers."""

    def __init__(self, space):
        self.space = space
        self.nodes = self.guesses = self.assigns = 0
        search, assign, squares = space["search"], space["assign"], space["squares"]

        def counted_search(values):
            self.nodes += 1
            if values and any(len(values[s]) > 1 for s in squares):
                self.guesses += 1
            return search(values)

        def counted_assign(values, s, d):
            self.assigns += 1
            return assign(values, s, d)

        space["search"] = counted_search
        space["assign"] = counted_assign

    def solve(self, grid):
        """His `solve` on one puzzle: the solved values (or a false value) and the counts."""
        self.nodes = self.guesses = self.assigns = 0
        started = time.perf_counter()
        values = self.space["solve"](grid)
        ms = (time.perf_counter() - started) * 1000.0
        return values, (
            f"# stats nodes={self.nodes} guesses={self.guesses} assigns={self.assigns} "
            f"solve_ms={ms:.6f}"
        )


def answer(counted, cells):
    side = math.isqrt(len(cells))
    if side != 9:
        fail(f"Norvig's sudoku.py solves 9x9 puzzles only (this one is {side}x{side})", 2)
    grid = "".join(str(d) if d else "." for d in cells)
    values, stats = counted.solve(grid)
    if not values:
        return stats + "\ninfeasible"
    squares = counted.space["squares"]
    solution = [int(values[s]) for s in squares]
    if FMT == "line":
        return stats + "\n" + "".join(map(str, solution))
    rows = [" ".join(map(str, solution[r * 9:(r + 1) * 9])) for r in range(9)]
    return stats + "\n" + "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description="Norvig's sudoku.py for the external method")
    parser.add_argument("--module", default=os.environ.get("NORVIG_SUDOKU_PY", ""),
                        help="the path of his sudoku.py")
    args = parser.parse_args()
    if not args.module or not os.path.isfile(args.module):
        fail(DOWNLOAD, 3)
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Fixed string hashing, so that the walk of his `peers` sets (and `assigns`) repeats.
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:])
    if os.environ.get("SUDOKU_VARIANT", "classic") != "classic":
        fail("Norvig's sudoku.py solves classic Sudoku only (no diagonal units)", 2)
    if os.environ.get("SUDOKU_TASK", "solve") != "solve":
        fail("Norvig's sudoku.py stops at the first solution: it cannot count", 2)
    space = load(args.module)
    missing = [name for name in NEEDED if name not in space]
    if missing:
        fail(f"{args.module} lacks what solving needs (or Python 3 cannot compile it): {missing}", 2)
    counted = Counted(space)
    for cells in puzzles(sys.stdin, FMT):
        print(answer(counted, cells), flush=True)


if __name__ == "__main__":
    main()
