"""The exceptions of sudoku_bench.

Every failure of the package is one of these, carrying the message ``sudoku-bench`` prints for
the same failure on the command line (the file, line and what is wrong, or the flag or key to
change). Results are not exceptions: an infeasible puzzle, a timeout or a wrong answer is a
status of the answer, as in ``trials.csv``.
"""


class SudokuBenchError(Exception):
    """The base class: also what a file that cannot be written or read raises."""


class InputError(SudokuBenchError, ValueError):
    """Bad input: a malformed puzzle (file, line and column), a digit out of range, an unknown
    method or parameter or a value out of its range, an experiment file that does not parse or
    validate, a results folder holding other settings than a resumed run."""


class FolderInUseError(SudokuBenchError):
    """A results folder another process (or another call) is writing: wait for it, or write
    elsewhere (``out=``)."""


class MethodError(SudokuBenchError):
    """A method that could not run or answer (it failed, or panicked inside): the message
    names the puzzle and the configuration."""
