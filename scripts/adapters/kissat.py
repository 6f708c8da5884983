#!/usr/bin/env python3
"""Kissat, a second CDCL SAT solver beside `sat`'s CaDiCaL, for the `external` method. Each
puzzle becomes CNF here (the extended encoding over the candidates left once the givens' digits
are struck from their peers: every open cell holds one of its candidates and at most one,
every digit a unit still lacks sits in exactly one of its cells), and the `kissat` program
solves it; any order n, classic or diagonal. Reads and answers puzzles like python_solver.py
(whose reading and writing it reuses), per puzzle or with `batch = true`.

Finding kissat: SUDOKU_KISSAT (a path), else `kissat` on PATH, else the binary inside the PyPI
package passagemath-kissat (`python3 -m pip install -r scripts/adapters/requirements.txt`).
Environment: SUDOKU_TIME_LIMIT becomes kissat's --time (whole seconds, rounded up) and a
kill a second after. Counting (SUDOKU_TASK=count) blocks each solution and runs kissat again.
Before each answer a `# stats` line carries kissat's conflicts and decisions, the variables and
clauses of the formula, the encoding's time in Python (`build_ms`) and kissat's own time
(`solve_ms`: the wall time of its runs, from starting the program to its answer, with its
reading of the CNF file; kissat prints its own times to 10 ms only).

It installs nothing: without kissat it says how to install it and exits with status 3.
"""

import importlib.util
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles, show, units  # noqa: E402

INSTALL = (
    "kissat is not installed: `python3 -m pip install -r scripts/adapters/requirements.txt` "
    "(the PyPI package passagemath-kissat ships the kissat program), or put `kissat` on PATH, "
    "or set SUDOKU_KISSAT to its path"
)
FMT = os.environ.get("SUDOKU_FORMAT", "line")


def fail(message, status=3):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def find_kissat():
    given = os.environ.get("SUDOKU_KISSAT")
    if given:
        if not os.access(given, os.X_OK):
            fail(f"SUDOKU_KISSAT={given}: not an executable file", 2)
        return given
    on_path = shutil.which("kissat")
    if on_path:
        return on_path
    spec = importlib.util.find_spec("passagemath_kissat")
    if spec and spec.submodule_search_locations:
        site = os.path.dirname(list(spec.submodule_search_locations)[0])
        wheel = os.path.join(site, "sage_wheels", "bin", "kissat")
        if os.access(wheel, os.X_OK):
            return wheel
    fail(INSTALL)


def encode(cells, side, diagonal):
    """The CNF of a puzzle: (clauses, var) with var[(cell, digit)] for each open candidate,
    or None when striking the givens' digits leaves a cell or a unit's digit without a place."""
    groups = units(side, diagonal)
    for unit in groups:
        given = [cells[i] for i in unit if cells[i]]
        if len(given) != len(set(given)):
            return None  # two equal givens in a unit
    peers = [set() for _ in cells]
    for unit in groups:
        for i in unit:
            peers[i].update(unit)
    cand = []
    for i, d in enumerate(cells):
        if d:
            cand.append(set())
            continue
        taken = {cells[j] for j in peers[i] if cells[j]}
        cand.append(set(range(1, side + 1)) - taken)
    var = {}
    for i, ds in enumerate(cand):
        for d in sorted(ds):
            var[(i, d)] = len(var) + 1
    clauses = []

    def exactly_one(lits):
        if not lits:
            return False
        clauses.append(lits)
        for a in range(len(lits)):
            for b in range(a + 1, len(lits)):
                clauses.append([-lits[a], -lits[b]])
        return True

    for i, ds in enumerate(cand):
        if not cells[i] and not exactly_one([var[(i, d)] for d in sorted(ds)]):
            return None
    for unit in groups:
        placed = {cells[i] for i in unit if cells[i]}
        for d in range(1, side + 1):
            if d in placed:
                continue
            if not exactly_one([var[(i, d)] for i in unit if (i, d) in var]):
                return None
    return clauses, var


def run_kissat(kissat, clauses, nvars, deadline):
    """Solves once: ("sat", set of true variables) | ("unsat", None) | ("unknown", None),
    with kissat's figures."""
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
        f.write(f"p cnf {nvars} {len(clauses)}\n")
        f.write("".join(" ".join(map(str, c)) + " 0\n" for c in clauses))
        path = f.name
    args = [kissat, path]
    timeout = None
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            os.unlink(path)
            return "unknown", None, {}
        args.insert(1, f"--time={max(1, math.ceil(left))}")
        timeout = left + 1.0
    started = time.monotonic()
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return "unknown", None, {}
    finally:
        os.unlink(path)
    figures, true, status = {"ms": (time.monotonic() - started) * 1000.0}, set(), "unknown"
    for line in out.splitlines():
        if line.startswith("s SATISFIABLE"):
            status = "sat"
        elif line.startswith("s UNSATISFIABLE"):
            status = "unsat"
        elif line.startswith("v "):
            true.update(v for v in map(int, line[2:].split()) if v > 0)
        elif line.startswith("c ") and ":" in line:
            key, _, rest = line[2:].partition(":")
            key, value = key.strip(), rest.split()
            if key in ("conflicts", "decisions") and value:
                figures[key] = value[0]
    return status, true, figures


def solve(kissat, cells, deadline):
    side = math.isqrt(len(cells))
    diagonal = os.environ.get("SUDOKU_VARIANT") == "diagonal"
    counting = os.environ.get("SUDOKU_TASK") == "count"
    limit = int(os.environ.get("SUDOKU_COUNT_LIMIT", "2")) if counting else 1
    started = time.monotonic()
    encoded = encode(cells, side, diagonal)
    build_ms = (time.monotonic() - started) * 1000.0
    if encoded is None:
        return f"# stats variables=0 clauses=0 build_ms={build_ms:.6f}", "count 0" if counting else "infeasible"
    clauses, var = encoded
    base = len(clauses)
    found, totals, status = [], {"conflicts": 0, "decisions": 0}, "unsat"
    solve_ms = 0.0
    while len(found) < limit:
        status, true, figures = run_kissat(kissat, clauses, len(var), deadline)
        solve_ms += figures.get("ms", 0.0)
        for k in totals:
            totals[k] += int(figures.get(k, 0))
        if status != "sat":
            break
        grid = list(cells)
        for (i, d), v in var.items():
            if v in true:
                grid[i] = d
        found.append(grid)
        # Block this solution for the next call.
        clauses.append([-v for (i, d), v in var.items() if v in true])
    stats = (
        f"# stats variables={len(var)} clauses={base} conflicts={totals['conflicts']} "
        f"decisions={totals['decisions']} calls={len(found) + (status != 'sat')} "
        f"build_ms={build_ms:.6f} solve_ms={solve_ms:.6f}"
    )
    if counting:
        if status == "unknown" and len(found) < limit:
            return stats, "unknown"
        return stats, "\n".join([f"count {len(found)}"] + [show(g, side, FMT) for g in found])
    if found:
        return stats, show(found[0], side, FMT)
    return stats, "infeasible" if status == "unsat" else "unknown"


def main():
    kissat = find_kissat()
    limit = os.environ.get("SUDOKU_TIME_LIMIT")
    for cells in puzzles(sys.stdin, FMT):
        start = time.monotonic()
        deadline = start + float(limit) if limit else None
        stats, text = solve(kissat, cells, deadline)
        # The figures come before the answer: in batch mode the runner stops reading at it.
        print(f"{stats}\n{text}", flush=True)


if __name__ == "__main__":
    main()
