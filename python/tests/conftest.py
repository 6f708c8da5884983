"""Shared fixtures: the checkout's data sets and the `sudoku-bench` binary built beside it.

The package under test is the installed one (``pip install ./python`` into a virtual
environment, as .ci/python.sh does), never the source folder: the tests import
``sudoku_bench`` from wherever Python finds it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "datasets" / "seeds"
PUBLIC = ROOT / "datasets" / "public"


def binary() -> Path:
    """The command line built from the same checkout (`cargo build --release`): tests that
    compare the package with the command need it, and CI builds it before them."""
    path = Path(os.environ.get("SUDOKU_BENCH_BIN", ROOT / "target" / "release" / "sudoku-bench"))
    if not path.is_file():
        raise RuntimeError(
            f"{path} not found: build it with `cargo build --release -p sudoku-bench` "
            "(or set SUDOKU_BENCH_BIN)"
        )
    return path


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Runs the command line from the checkout's top folder."""
    return subprocess.run(
        [str(binary()), *args], cwd=ROOT, capture_output=True, text=True, check=check
    )


def puzzles_of(path: Path) -> list[str]:
    """The puzzle lines of a line-format file (comments and blank lines left out)."""
    return [
        line.strip()
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def sigint():
    """Ctrl-C raises KeyboardInterrupt, as in a terminal or a notebook: a process started in
    the background by a non-interactive shell (as CI may start it) inherits SIGINT ignored,
    and Python then installs no handler of its own."""
    import signal

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)
