#!/usr/bin/env python3
"""The smallest complete example of a solver for the `external` method (Python standard library
only): copy it and put your own search in `solve`.

Reads puzzles from standard input and answers each one at once on standard output, so it works
both with one process per puzzle and with `batch = true`:

  line format (SUDOKU_FORMAT=line): one puzzle per line, `.` or `0` empty, 1-9 then A-Z;
  grid format (SUDOKU_FORMAT=grid): N rows of N numbers, then a blank line.

The answer is the solution in the same format, `infeasible`, or, when SUDOKU_TASK=count,
`count K` followed by the K solutions found (at most SUDOKU_COUNT_LIMIT). SUDOKU_VARIANT=diagonal
adds both main diagonals as units. Anything for people goes to standard error.

  sudoku-bench solve datasets/seeds/001_jump.txt -m external \
      -p command="python3 scripts/adapters/python_solver.py" -p name=python
"""

import math
import os
import sys
import time

DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def units(side, diagonal):
    """Every unit (row, column, box, and the diagonals when asked) as a list of cell indices."""
    box = math.isqrt(side)
    out = [[r * side + c for c in range(side)] for r in range(side)]
    out += [[r * side + c for r in range(side)] for c in range(side)]
    for br in range(0, side, box):
        for bc in range(0, side, box):
            out.append([(br + r) * side + bc + c for r in range(box) for c in range(box)])
    if diagonal:
        out.append([i * side + i for i in range(side)])
        out.append([i * side + side - 1 - i for i in range(side)])
    return out


def solve(cells, side, diagonal, limit):
    """Up to `limit` solutions of `cells` (0 = empty), by depth-first search on the cell with
    the fewest candidates."""
    peers = [set() for _ in cells]
    for unit in units(side, diagonal):
        for i in unit:
            peers[i].update(unit)
    for i, p in enumerate(peers):
        p.discard(i)
    full = (1 << side) - 1
    grid = list(cells)
    for i, d in enumerate(grid):
        if d and any(grid[j] == d for j in peers[i]):
            return []  # contradictory givens
    found = []

    def candidates(i):
        used = 0
        for j in peers[i]:
            if grid[j]:
                used |= 1 << (grid[j] - 1)
        return full & ~used

    def search():
        best, best_mask, best_count = -1, 0, side + 1
        for i, d in enumerate(grid):
            if d == 0:
                mask = candidates(i)
                count = bin(mask).count("1")
                if count < best_count:
                    best, best_mask, best_count = i, mask, count
                    if count <= 1:
                        break
        if best < 0:
            found.append(list(grid))
            return len(found) >= limit
        for d in range(1, side + 1):
            if best_mask >> (d - 1) & 1:
                grid[best] = d
                if search():
                    return True
        grid[best] = 0
        return False

    search()
    return found


def show(cells, side, fmt):
    if fmt == "line":
        return "".join(DIGITS[d - 1] if d else "." for d in cells)
    rows = [" ".join(str(d) for d in cells[r * side:(r + 1) * side]) for r in range(side)]
    return "\n".join(rows)


def answer(cells, fmt):
    side = math.isqrt(len(cells))
    diagonal = os.environ.get("SUDOKU_VARIANT") == "diagonal"
    if os.environ.get("SUDOKU_TASK") == "count":
        limit = int(os.environ.get("SUDOKU_COUNT_LIMIT", "2"))
        found = solve(cells, side, diagonal, limit)
        lines = [f"count {len(found)}"] + [show(g, side, fmt) for g in found]
        return "\n".join(lines)
    found = solve(cells, side, diagonal, 1)
    return show(found[0], side, fmt) if found else "infeasible"


def puzzles(stream, fmt):
    """Yields each puzzle's cells as soon as it has been read."""
    rows = []
    for raw in stream:
        line = raw.strip()
        if line.startswith("#"):
            continue
        if fmt == "line":
            if line:
                yield [0 if ch in ".0" else DIGITS.index(ch.upper()) + 1 for ch in line]
            continue
        if line:
            rows.append([0 if x == "." else int(x) for x in line.split()])
            if len(rows) == len(rows[0]):
                yield [d for row in rows for d in row]
                rows = []


def main():
    fmt = os.environ.get("SUDOKU_FORMAT", "line")
    for cells in puzzles(sys.stdin, fmt):
        # Its own clock, by a monotonic timer around the search alone (`solve_ms`, in ms).
        start = time.perf_counter()
        text = answer(cells, fmt)
        ms = (time.perf_counter() - start) * 1000
        print(f"# stats solve_ms={ms:.6f}\n{text}", flush=True)


if __name__ == "__main__":
    main()
