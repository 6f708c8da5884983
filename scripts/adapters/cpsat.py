#!/usr/bin/env python3
"""Google OR-Tools CP-SAT as a solver for the `external` method: every unit (rows, columns,
boxes, and both diagonals for Sudoku-X) is one AllDifferent over the cells' digits, any order
n. CP-SAT is a lazy-clause-generation CP solver (a CDCL SAT core with AllDifferent and linear
propagators and LP relaxations), the strongest public CP tool of the MiniZinc Challenges,
hence the peer for the large orders. Reads and answers puzzles like
python_solver.py (whose reading and writing it reuses), per puzzle or with `batch = true`.

Options: `--workers K` (CP-SAT's parallel portfolio; default 1, the resources `sat` uses; a
count always uses one worker, as CP-SAT enumerates solutions only with one).
Environment: SUDOKU_TIME_LIMIT becomes max_time_in_seconds, SUDOKU_SEED random_seed. Before each
answer a `# stats` line carries CP-SAT's own figures (conflicts, branches, workers), the time
of building the model in Python (`build_ms`) and CP-SAT's own clock for the solve (`solve_ms`,
its wall_time), which the runner puts in the `build_ms` and `solve_ms` columns. Use it with
`batch = true`: one Python process then answers every puzzle, and no trial but the first pays
for starting Python and loading OR-Tools.

It installs nothing: without OR-Tools it says how to install it and exits with status 3.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_solver import puzzles, show, units  # noqa: E402

INSTALL = "OR-Tools is not installed: `python3 -m pip install -r scripts/adapters/requirements.txt` (OR-Tools 9.15, which brings CP-SAT)"


def fail(message, status=3):
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


class Collect:
    """Keeps the solutions CP-SAT reports while it enumerates, and stops it at the limit."""

    def __init__(self, cp_model, cells, limit):
        self.cells, self.limit, self.found = cells, limit, []
        outer = self

        class Callback(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self):
                outer.found.append([self.Value(v) for v in outer.cells])
                if len(outer.found) >= outer.limit:
                    self.StopSearch()

        self.callback = Callback()


def solve(cp_model, cells, workers):
    started = time.monotonic()
    side = int(round(len(cells) ** 0.5))
    diagonal = os.environ.get("SUDOKU_VARIANT") == "diagonal"
    model = cp_model.CpModel()
    # Givens are constants: CP-SAT's presolve removes them from every AllDifferent.
    var = [model.NewConstant(d) if d else model.NewIntVar(1, side, f"c{i}") for i, d in enumerate(cells)]
    for unit in units(side, diagonal):
        model.AddAllDifferent([var[i] for i in unit])
    solver = cp_model.CpSolver()
    build_ms = (time.monotonic() - started) * 1000.0
    params = solver.parameters
    limit = os.environ.get("SUDOKU_TIME_LIMIT")
    if limit:
        params.max_time_in_seconds = float(limit)
    # random_seed is an int32.
    params.random_seed = int(os.environ.get("SUDOKU_SEED", "0")) % (2**31)
    counting = os.environ.get("SUDOKU_TASK") == "count"
    if counting:
        params.num_workers = 1
        params.enumerate_all_solutions = True
        collect = Collect(cp_model, var, int(os.environ.get("SUDOKU_COUNT_LIMIT", "2")))
        status = solver.Solve(model, collect.callback)
    else:
        params.num_workers = workers
        status = solver.Solve(model)
    stats = (
        f"# stats conflicts={solver.NumConflicts()} branches={solver.NumBranches()} "
        f"workers={params.num_workers} build_ms={build_ms:.6f} solve_ms={solver.WallTime() * 1000.0:.6f}"
    )
    if status == cp_model.MODEL_INVALID:
        fail(f"CP-SAT rejected the model: {model.Validate()}", 4)
    if counting:
        # OPTIMAL: the enumeration ran to its end (or was stopped at the limit, which it was
        # asked to reach); INFEASIBLE: no solution; otherwise the time ran out first.
        done = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or len(collect.found) >= collect.limit
        if not done:
            return stats, "unknown"
        return stats, "\n".join([f"count {len(collect.found)}"] + [show(g, side, FMT) for g in collect.found])
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return stats, show([solver.Value(v) for v in var], side, FMT)
    if status == cp_model.INFEASIBLE:
        return stats, "infeasible"
    return stats, "unknown"


FMT = os.environ.get("SUDOKU_FORMAT", "line")


def main():
    parser = argparse.ArgumentParser(description="OR-Tools CP-SAT for the external method")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT's num_workers (default 1)")
    args = parser.parse_args()
    if args.workers < 1:
        fail(f"--workers must be at least 1, not {args.workers}", 2)
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        fail(INSTALL)
    for cells in puzzles(sys.stdin, FMT):
        stats, text = solve(cp_model, cells, args.workers)
        # The figures come before the answer: in batch mode the runner stops reading at it.
        print(f"{stats}\n{text}", flush=True)


if __name__ == "__main__":
    main()
