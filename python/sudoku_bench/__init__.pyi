"""Type stubs of sudoku_bench (the functions are those of ``sudoku-bench``'s command line)."""

import os
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import (
    FolderInUseError as FolderInUseError,
    InputError as InputError,
    MethodError as MethodError,
    SudokuBenchError as SudokuBenchError,
)

__version__: str
BUILD: str

Grid = npt.NDArray[np.int64]
"""An n²×n² array of int64: 0 for an empty cell, else a digit 1..n²."""

PuzzleInput = Union[
    str,
    os.PathLike[str],
    Sequence[Sequence[int | None]],
    Sequence[int | None],
    npt.NDArray[np.integer[Any]],
]
"""One puzzle: text (line or grid-block format), a path to a file holding one puzzle, rows of
digits (0 or None empty), a flat list of n⁴ cells, or a 2-D integer array."""

PuzzlesInput = Union[
    str,
    os.PathLike[str],
    Sequence[PuzzleInput],
    npt.NDArray[np.integer[Any]],
    PuzzleInput,
]
"""Several puzzles: text or a file of any number, a list of single puzzles, or a 3-D array."""

Params = Union[Mapping[str, Any], str, None]
"""A method's parameters: ``{"encoding": "extended"}`` or ``"encoding=extended"``."""

Progress = Union[bool, None, Callable[[dict[str, Any]], Any]]

class Answer:
    """What ``solve`` or ``count`` answered for one puzzle, with a trial row's statistics."""

    puzzle: str
    method: str
    status: str
    verified: bool | None
    grid: Grid | None
    count: int | None
    exact: bool | None
    message: str | None
    limit: str | None
    wall_ms: float
    cpu_ms: float | None
    solve_ms: float | None
    build_ms: float | None
    nodes: int
    guesses: int
    iterations: int
    restarts: int
    best_cost: int | None
    objective: float | None
    time_to_best_ms: float | None
    threads: int
    seed: int
    @property
    def extra(self) -> dict[str, str]: ...
    @property
    def solved(self) -> bool: ...

class Generated:
    """One generated full grid, and the puzzle carved from it when asked."""

    grid: Grid
    puzzle: Grid | None
    clues: int | None
    carve_end: str | None
    checks: int
    wall_ms: float
    cpu_ms: float
    restarts: int
    seed: int

class Check:
    """The givens checked (and a solution against them)."""

    puzzle: str
    ok: bool
    message: str
    def __bool__(self) -> bool: ...

class Rating:
    """A puzzle's rating by the rule solver."""

    puzzle: str
    end: str
    hardest: str | None
    steps: int
    score: float | None
    level: str | None
    unrateable: str | None
    timeout: bool
    undecided: bool

class Step:
    """One step of the rule solver."""

    step: int
    rule: str
    units: list[str]
    cells: list[str]
    digits: list[int]
    place: tuple[str, int] | None
    eliminate: list[tuple[str, int]]
    text: str

class Explanation:
    """Every step of the rule solver on one puzzle, and how it ended."""

    puzzle: str
    order: int
    givens: int
    rules: str
    steps: list[Step]
    end: str
    open_at_end: int
    grid: Grid | None
    no_solution: str | None
    several_solutions: bool
    rating: Rating | None

class RunSummary:
    """What a run did."""

    experiment: str
    out: Path
    planned: int
    skipped: int
    ran: int
    succeeded: int
    wrong: int
    errors: int
    files: list[Path]
    @property
    def clean(self) -> bool: ...

def methods() -> list[dict[str, Any]]:
    """Every method and generator with its parameters, as ``sudoku-bench list`` shows them."""

def read(source: PuzzlesInput) -> list[Grid]:
    """Every puzzle of ``source`` as an array, in order."""

def solve(
    puzzle: PuzzleInput,
    method: str = "prop",
    params: Params = None,
    *,
    variant: str = "classic",
    time_limit: float | None = None,
    node_limit: int | None = None,
    iteration_limit: int | None = None,
    seed: int = 0,
    cpu_time: bool = False,
) -> Answer:
    """Solve one puzzle, as ``sudoku-bench solve`` solves each puzzle of a file."""

def solve_many(
    puzzles: PuzzlesInput,
    method: str = "prop",
    params: Params = None,
    *,
    variant: str = "classic",
    time_limit: float | None = None,
    node_limit: int | None = None,
    iteration_limit: int | None = None,
    seed: int = 0,
    cpu_time: bool = False,
    jobs: int = 1,
) -> list[Answer]:
    """Solve every puzzle, in order, on ``jobs`` threads, with the GIL released."""

def count(
    puzzle: PuzzleInput,
    method: str = "prop",
    params: Params = None,
    *,
    limit: int = 1000,
    variant: str = "classic",
    time_limit: float | None = None,
    node_limit: int | None = None,
    seed: int = 0,
) -> Answer:
    """Count the solutions of one puzzle up to ``limit`` with a complete method."""

def generate(
    order: int,
    count: int = 1,
    method: str = "prop-fill",
    params: Params = None,
    *,
    seed: int = 0,
    puzzle: str | None = None,
    rating: str | None = None,
    checker: str | None = None,
    clues: int | None = None,
    check_nodes: int | None = None,
    variant: str = "classic",
    time_limit: float | None = None,
) -> list[Generated]:
    """Make full grids of ``order``, or puzzles carved from them."""

def check(
    puzzle: PuzzleInput, solution: PuzzleInput | None = None, *, variant: str = "classic"
) -> Check:
    """Check a puzzle's givens, and a solution against it."""

def rate(
    puzzle: PuzzleInput,
    *,
    rules: str = "all",
    subset_max: int = 4,
    hall: bool = True,
    variant: str = "classic",
    time_limit: float = 60.0,
) -> Rating:
    """Rate one puzzle with the rule solver."""

def explain(
    puzzle: PuzzleInput,
    *,
    rules: str = "all",
    subset_max: int = 4,
    hall: bool = True,
    variant: str = "classic",
    time_limit: float = 60.0,
) -> Explanation:
    """Every step of the rule solver on one puzzle."""

def convert(
    puzzles: PuzzlesInput, to: str, params: Params = None, *, variant: str = "classic"
) -> str:
    """Puzzles as line, grid-block or DIMACS text."""

def run(
    experiment: Union[str, os.PathLike[str], Mapping[str, Any]],
    out: Union[str, os.PathLike[str], None] = None,
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
    """Run an experiment as ``sudoku-bench run`` does."""

def load(folder: Union[str, os.PathLike[str]]) -> tuple[pd.DataFrame, dict[str, Any] | None]:
    """A results folder's trials as a typed DataFrame, and its meta.json."""

def findings(folder: Union[str, os.PathLike[str]]) -> list[dict[str, Any]]:
    """A results folder's verdicts, one record per group of instances."""

def compare(
    a: Union[str, os.PathLike[str]], b: Union[str, os.PathLike[str]], threshold: float = 0.1
) -> list[dict[str, Any]]:
    """Run B against the baseline A, one record per configuration and group."""

def plot(folder: Union[str, os.PathLike[str]], *, progress: Progress = True) -> list[Path]:
    """Draw a results folder's summaries and charts again from its rows."""
