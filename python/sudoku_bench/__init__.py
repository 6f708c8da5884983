"""sudoku-bench from Python.

The operations of the ``sudoku-bench`` command line as functions, over the same Rust code
(the extension module ``sudoku_bench._native`` is built from this workspace's crates by
maturin): nothing is solved, parsed, judged or summarised in Python.

Puzzles are given as text in either format (a line of digits and dots, or grid blocks of
integers), as a path to a puzzle file, as a list of lists of digits (0 or ``None`` empty), or as a
NumPy array (2-D: one grid; 3-D: several). Methods and parameters have the names and values
``sudoku-bench list`` shows (:func:`methods`).

- :func:`solve`, :func:`solve_many`, :func:`count`: an :class:`Answer` per puzzle (status,
  verified solution as an array, the statistics a trial row has).
- :func:`generate`: full grids or carved puzzles (:class:`Generated`).
- :func:`check`, :func:`rate`, :func:`explain`: the givens checked, the rule solver's rating
  and its steps (:class:`Check`, :class:`Rating`, :class:`Explanation` of :class:`Step`).
- :func:`convert`: the line, grid-block or DIMACS text of puzzles. :func:`read`: puzzles as
  arrays.
- :func:`run`: an experiment into its results folder, as ``sudoku-bench run``;
  :func:`load`: its trials as a typed pandas DataFrame and its meta.json;
  :func:`findings`, :func:`compare`: verdicts and a comparison of two runs as records;
  :func:`plot`: the charts again.

Errors are the classes of :mod:`sudoku_bench._errors`: :class:`InputError` (bad input),
:class:`FolderInUseError`, :class:`MethodError`, all :class:`SudokuBenchError`. Ctrl-C stops a
call of many puzzles between two of them and a run between two trials (its rows are kept: run
it again with ``resume=True``); the puzzle in hand runs to its end or its time limit.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Union

from ._errors import FolderInUseError, InputError, MethodError, SudokuBenchError
from ._native import (
    BUILD,
    Answer,
    Check,
    Explanation,
    Generated,
    Rating,
    RunSummary,
    Step,
    __version__,
    check,
    compare,
    convert,
    count,
    explain,
    findings,
    generate,
    methods,
    rate,
    read,
    solve,
    solve_many,
)
from . import _native

__all__ = [
    "Answer",
    "BUILD",
    "Check",
    "Explanation",
    "FolderInUseError",
    "Generated",
    "InputError",
    "MethodError",
    "Rating",
    "RunSummary",
    "Step",
    "SudokuBenchError",
    "__version__",
    "check",
    "compare",
    "convert",
    "count",
    "explain",
    "findings",
    "generate",
    "load",
    "methods",
    "plot",
    "rate",
    "read",
    "run",
    "solve",
    "solve_many",
]

Progress = Union[bool, None, Callable[[dict], Any]]


class _Printer:
    """The default progress display: the plan, notes and warnings as lines, and one line kept
    up to date while the trials run (a carriage return rewrites it, in a terminal and in a
    notebook's output alike), on standard error as the command line shows them."""

    def __init__(self, stream=None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = 0
        self.done = 0
        self.ok = 0
        self.current = ""
        self.shown = 0.0
        self.started = time.monotonic()
        self.open = False

    def _line(self, text: str) -> None:
        if self.open:
            self.stream.write("\n")
            self.open = False
        self.stream.write(text + "\n")
        self.stream.flush()

    def _bar(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.shown < 0.1:
            return
        self.shown = now
        share = self.done / self.total if self.total else 1.0
        filled = int(round(30 * share))
        elapsed = now - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        self.stream.write(
            f"\r[{'=' * filled}{' ' * (30 - filled)}] {self.done}/{self.total} "
            f"ETA {eta:.0f} s · solved {self.ok} · not solved {self.done - self.ok} "
            f"· {self.current}\x1b[K"
        )
        self.stream.flush()
        self.open = True

    def __call__(self, e: dict) -> None:
        kind = e["event"]
        if kind == "planning":
            self._line(f"planning {e['experiment']} ({e['file']})")
        elif kind == "planned":
            bound = (
                f"no bound on the time: `{e['unlimited']}` has no time limit"
                if e["unlimited"]
                else f"at most {e['worst_seconds']:.0f} s if every trial ran to its time limit"
            )
            self._line(
                f"{e['configs']} configurations × {e['instances']} instances → "
                f"{e['tasks']} tasks; {bound}"
            )
        elif kind in ("note", "warning"):
            self._line(f"{kind}: {e['text']}")
        elif kind == "removed":
            self._line(f"removed {e['path']}")
        elif kind == "started":
            self.total, self.started = e["tasks"], time.monotonic()
            self._bar(force=True)
        elif kind == "running":
            self.current = f"{e['config']} · order {e['order']}"
        elif kind == "trial":
            self.done += 1
            self.ok += bool(e["success"])
            if e["status"] in ("wrong", "error"):
                self._line(
                    f"{e['status']}: {e['config']} on {e['instance']} "
                    f"(trial {e['trial']}): {e['message']}"
                )
            self._bar(force=self.done == self.total)
        elif kind == "trials_done":
            self._bar(force=True)
            self._line(
                f"{e['ran']} trials run"
                + (f", {e['skipped']} already done" if e["skipped"] else "")
            )
        elif kind == "chart_skipped":
            self._line(f"chart {e['chart']} not drawn: {e['reason']}")


def _progress(progress: Progress) -> Callable[[dict], Any] | None:
    if progress is True:
        return _Printer()
    if progress is False or progress is None:
        return None
    if callable(progress):
        return progress
    raise InputError("progress: give True, False or a callable taking an event dict")


def run(
    experiment: Union[str, os.PathLike, Mapping[str, Any]],
    out: Union[str, os.PathLike, None] = None,
    *,
    quick: bool = False,
    jobs: int = 1,
    resume: bool = False,
    fresh: bool = False,
    trials: int | None = None,
    time_limit: float | None = None,
    no_plots: bool = False,
    shard: str | None = None,
    progress: Progress = True,
) -> RunSummary:
    """Run an experiment exactly as ``sudoku-bench run`` does.

    ``experiment`` is an experiment file (TOML, docs/experiment-files.md) or a dict of the
    same keys (paths in it start in the current folder). The results go to ``out`` (default
    ``results/<name>``): ``trials.csv`` row by row, ``meta.json``, the summaries, findings,
    charts and ``report.html``, the same files as the command's. ``quick`` is the file's
    ``[quick]`` smoke settings; ``jobs`` runs trials on that many threads; ``resume``
    continues an interrupted run of the same settings, ``fresh`` discards the folder's earlier
    results; ``trials`` and ``time_limit`` override the file's; ``no_plots`` skips the charts
    and the report; ``shard`` is ``"K/N"``.

    ``progress``: ``True`` shows the plan and a progress line on standard error (in a notebook,
    below the cell), ``False`` nothing, or a callable that takes each event as a dict (its
    ``event`` key: planning, planned, note, warning, removed, started, running, trial,
    trials_done, chart_skipped).

    Ctrl-C (or an exception raised by ``progress``) stops the run between two trials and is
    raised here; every finished trial is in ``trials.csv``, and ``resume=True`` goes on.
    Raises :class:`InputError` for a bad experiment or settings, :class:`FolderInUseError` when
    another run writes the folder. Wrong answers and trials in ``error`` are rows, counted in
    the :class:`RunSummary`, not exceptions.
    """
    if isinstance(experiment, Mapping):
        source, from_json = json.dumps(dict(experiment)), True
    elif isinstance(experiment, (str, os.PathLike)):
        source, from_json = os.fspath(experiment), False
    else:
        raise InputError(
            "experiment: give the path of an experiment file or a dict of its keys; "
            f"got a {type(experiment).__name__}"
        )
    return _native.run(
        source,
        from_json,
        out=None if out is None else os.fspath(out),
        quick=quick,
        jobs=jobs,
        resume=resume,
        fresh=fresh,
        trials=trials,
        time_limit=time_limit,
        no_plots=no_plots,
        shard=shard,
        progress=_progress(progress),
    )


def _dtype(kind: str, statuses: list[str]):
    import pandas as pd

    return {
        "int": "int64",
        "uint": "uint64",
        "uint?": pd.UInt64Dtype(),
        "float": "float64",
        "float?": "float64",
        "bool?": pd.BooleanDtype(),
        "text": pd.StringDtype(),
        "text?": pd.StringDtype(),
        "status": pd.CategoricalDtype(categories=statuses),
    }[kind]


def load(folder: Union[str, os.PathLike]):
    """A results folder's trials as a pandas DataFrame, and its meta.json as a dict.

    Returns ``(trials, meta)``. The rows are read and checked as ``plot`` reads them (each
    against the settings meta.json records; an error names the file, line and column). One
    column per column of ``trials.csv``, in its order, typed: whole numbers ``int64`` (``seed``
    and the counters ``uint64``), times ``float64`` with NaN where a cell is empty,
    ``best_cost``, ``count`` and ``peak_rss_kb`` nullable ``UInt64``, ``verified``,
    ``lp_integral`` and ``lp_unique`` nullable ``boolean``, ``status`` a categorical of every
    status in summary order, text ``string`` (``params`` is ``""`` for a configuration with no
    parameters; ``limit``, ``extra``, ``message`` and the like are missing when empty). A last
    column ``config`` names each configuration as the tables do (``sat encoding=extended``).
    ``meta`` is ``None`` when the folder has no meta.json.
    """
    import pandas as pd

    columns, statuses, meta = _native.columns(os.fspath(folder))
    frame = pd.DataFrame(
        {name: pd.Series(values, dtype=_dtype(kind, statuses)) for name, kind, values in columns}
    )
    return frame, (json.loads(meta) if meta is not None else None)


def plot(folder: Union[str, os.PathLike], *, progress: Progress = True) -> list[Path]:
    """Draw a results folder's summaries, findings, charts and ``report.html`` again from its
    rows alone, as ``sudoku-bench plot`` does; returns the files written. ``progress`` as for
    :func:`run` (a chart that cannot be drawn is said there)."""
    return [Path(p) for p in _native.plot(os.fspath(folder), progress=_progress(progress))]
