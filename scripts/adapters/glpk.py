#!/usr/bin/env python3
"""GLPK as a solver for the `external` method: the binary ILP of the jump notebook (one 0/1
variable per cell and digit, "exactly one" per cell and per digit in every row, column and box,
each given fixed to 1, no objective), solved as the notebook's JuMP + GLPK did it: the LP
relaxation by GLPK's simplex, then its branch-and-cut (glp_intopt). Any order n; classic and
Sudoku-X (the diagonals get their own "exactly one" rows).

It exists to ask how much of the notebook's times is GLPK's and how much Julia's: on this
machine, GLPK's own solve time beside our CBC model on the same puzzles.

Environment: SUDOKU_TIME_LIMIT becomes GLPK's tm_lim. Before each answer a `# stats` line gives
GLPK's figures: build_time and solve_time (seconds, measured here around the model's
construction and around simplex + intopt), variables and rows. Solves only (no counting).
It installs nothing: without the `swiglpk` package (GLPK's Python bindings, which bring GLPK
itself) it says how to install it and exits with status 3.
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles, show, units  # noqa: E402

INSTALL = "GLPK's Python bindings are not installed: `python3 -m pip install -r scripts/adapters/requirements.txt` (swiglpk, which brings GLPK 5.0)"
FMT = os.environ.get("SUDOKU_FORMAT", "line")


def fail(message, status=3):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def solve(glp, cells):
    side = int(round(len(cells) ** 0.5))
    diagonal = os.environ.get("SUDOKU_VARIANT") == "diagonal"
    started = time.perf_counter()
    lp = glp.glp_create_prob()
    glp.glp_set_obj_dir(lp, glp.GLP_MIN)
    ncols = len(cells) * side
    glp.glp_add_cols(lp, ncols)

    def col(cell, digit):
        # GLPK numbers columns from 1.
        return cell * side + digit

    for j in range(1, ncols + 1):
        glp.glp_set_col_kind(lp, j, glp.GLP_BV)
    # "Exactly one" rows: one per cell, then one per unit and digit.
    rows = [[col(c, d) for d in range(1, side + 1)] for c in range(len(cells))]
    for unit in units(side, diagonal):
        for d in range(1, side + 1):
            rows.append([col(c, d) for c in unit])
    glp.glp_add_rows(lp, len(rows))
    nz = sum(len(r) for r in rows)
    ia, ja, ar = glp.intArray(nz + 1), glp.intArray(nz + 1), glp.doubleArray(nz + 1)
    k = 0
    for i, r in enumerate(rows, start=1):
        glp.glp_set_row_bnds(lp, i, glp.GLP_FX, 1.0, 1.0)
        for j in r:
            k += 1
            ia[k], ja[k], ar[k] = i, j, 1.0
    glp.glp_load_matrix(lp, nz, ia, ja, ar)
    # A given is its variable fixed to 1, as the notebook's constraints x[i,j,k] == 1 do.
    for c, d in enumerate(cells):
        if d:
            glp.glp_set_col_bnds(lp, col(c, d), glp.GLP_FX, 1.0, 1.0)
    built = time.perf_counter()

    limit = os.environ.get("SUDOKU_TIME_LIMIT")
    smcp = glp.glp_smcp()
    glp.glp_init_smcp(smcp)
    smcp.msg_lev = glp.GLP_MSG_OFF
    iocp = glp.glp_iocp()
    glp.glp_init_iocp(iocp)
    iocp.msg_lev = glp.GLP_MSG_OFF
    if limit:
        ms = max(1, int(float(limit) * 1000))
        smcp.tm_lim = ms
        iocp.tm_lim = ms
    simplex = glp.glp_simplex(lp, smcp)
    lp_status = glp.glp_get_status(lp)
    status = None
    if simplex == 0 and lp_status in (glp.GLP_OPT, glp.GLP_FEAS):
        glp.glp_intopt(lp, iocp)
        status = glp.glp_mip_status(lp)
    done = time.perf_counter()
    stats = (
        f"# stats build_time={built - started:.6f} solve_time={done - built:.6f} "
        f"variables={ncols} rows={len(rows)}"
    )
    try:
        if simplex == 0 and lp_status in (glp.GLP_NOFEAS, glp.GLP_INFEAS):
            return stats, "infeasible"
        if status == glp.GLP_NOFEAS:
            return stats, "infeasible"
        if status in (glp.GLP_OPT, glp.GLP_FEAS):
            grid = []
            for c in range(len(cells)):
                grid.append(next(d for d in range(1, side + 1) if glp.glp_mip_col_val(lp, col(c, d)) > 0.5))
            return stats, show(grid, side, FMT)
        return stats, "unknown"
    finally:
        glp.glp_delete_prob(lp)


def main():
    if os.environ.get("SUDOKU_TASK", "solve") != "solve":
        fail("the GLPK adapter only solves (SUDOKU_TASK=solve)", 2)
    try:
        import swiglpk as glp
    except ImportError:
        fail(INSTALL)
    glp.glp_term_out(glp.GLP_OFF)
    for cells in puzzles(sys.stdin, FMT):
        stats, text = solve(glp, cells)
        # The figures come before the answer: in batch mode the runner stops reading at it.
        print(f"{stats}\n{text}", flush=True)


if __name__ == "__main__":
    main()
