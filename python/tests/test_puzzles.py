"""solve, solve_many, count, generate, check, rate, explain, convert and read: known
solutions, counts, infeasible puzzles, bad input, every input form, and agreement with the
command line on the same puzzles and seeds."""

from __future__ import annotations

import json
import os
import signal
import threading

import numpy as np
import pytest

import sudoku_bench as sb
from conftest import PUBLIC, ROOT, SEEDS, cli, puzzles_of

TAKANO = puzzles_of(SEEDS / "002_takano.txt")[0]
# The README's example: prop's answer to the puzzle above.
TAKANO_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# A carved grid with one given changed: no solution, though singles alone find no
# contradiction (sudoku-fixtures' UNSOLVABLE_PAST_SINGLES).
UNSOLVABLE = "1..45........8...37..1.3..6.3.56.89.5.7...2.....2......4..7.9126.89..3.7...34...."


def cells(text: str) -> np.ndarray:
    return np.array([int(c) for c in text.replace(".", "0")]).reshape(9, 9)


def test_known_solutions_of_the_papers_puzzles():
    puzzles = sb.read(SEEDS / "000_unicamp_ilp.txt")
    solutions = sb.read(SEEDS / "000_unicamp_ilp.solutions.txt")
    assert len(puzzles) == len(solutions) > 5
    for method in ("prop", "dlx", "sat", "gac"):
        answers = sb.solve_many(SEEDS / "000_unicamp_ilp.txt", method)
        for a, want in zip(answers, solutions):
            assert a.status == "solved" and a.verified is True, (method, a)
            np.testing.assert_array_equal(a.grid, want)
    a = sb.solve(TAKANO)
    np.testing.assert_array_equal(a.grid, cells(TAKANO_SOLUTION))
    assert a.solved and a.method == "prop" and a.puzzle == "<input>:1" and a.wall_ms >= 0


def test_diagonal_puzzles_with_their_variant():
    puzzles = SEEDS / "000_unicamp_ilp.diagonal.txt"
    solutions = sb.read(SEEDS / "000_unicamp_ilp.diagonal.solutions.txt")
    answers = sb.solve_many(puzzles, "prop", variant="diagonal")
    # The last is the empty grid, which has many solutions: the others have one.
    for a, want in zip(answers[:-1], solutions[:-1]):
        assert a.status == "solved"
        np.testing.assert_array_equal(a.grid, want)
    for a, p in zip(answers, sb.read(puzzles)):
        assert sb.check(p, a.grid, variant="diagonal").ok


def test_every_input_form_gives_the_same_answer(tmp_path):
    grid = cells(TAKANO)
    file = tmp_path / "one.txt"
    file.write_text("# a label\n" + TAKANO + "\n")
    block = sb.convert(TAKANO, "block")
    forms = [TAKANO, block, grid, grid.tolist(), grid.ravel().tolist(), file,
             [[None if v == 0 else v for v in row] for row in grid.tolist()],
             grid.astype(np.uint8)]
    for form in forms:
        np.testing.assert_array_equal(sb.solve(form).grid, cells(TAKANO_SOLUTION))
    many = sb.solve_many(np.stack([grid, grid]))
    assert [a.puzzle for a in many] == ["<array>[0]", "<array>[1]"]
    assert [a.status for a in sb.solve_many([TAKANO, grid])] == ["solved", "solved"]
    assert sb.solve(file).puzzle == f"{file}:2"


def test_orders_from_4x4_to_25x25():
    four = sb.generate(2, 1, seed=3, puzzle="unique")[0]
    assert four.grid.shape == (4, 4) and sb.count(four.puzzle).count == 1
    jump = sb.solve(SEEDS / "001_jump.25x25.txt", "sat")
    assert jump.status == "solved" and jump.grid.shape == (25, 25)
    assert sb.check(jump.grid).ok


def test_counts():
    empty4 = "." * 16
    c = sb.count(empty4, limit=1000)
    assert (c.status, c.count, c.exact) == ("multiple", 288, True)
    c = sb.count(empty4, limit=10)
    assert (c.count, c.exact) == (10, False)
    assert sb.count(TAKANO).count == 1 and sb.count(TAKANO).exact
    for a in [sb.count(p, "dlx") for p in puzzles_of(SEEDS / "000_unicamp_ilp.multiple.txt")]:
        assert a.status == "multiple" and a.count >= 2
    with pytest.raises(sb.InputError, match="needs a complete method; `tabu` cannot count"):
        sb.count(TAKANO, "tabu")


def test_infeasible_puzzles_are_outcomes():
    for method in ("prop", "dlx", "sat"):
        a = sb.solve(UNSOLVABLE, method)
        assert (a.status, a.grid) == ("infeasible", None), method
    twice = sb.solve("11" + "." * 79)
    assert twice.status == "infeasible"
    assert twice.message == "contradictory givens: row 1 has digit 1 twice (at r1c1 and r1c2)"
    assert sb.count(UNSOLVABLE).count == 0


def test_limits_stop_a_method():
    hard = sb.read(PUBLIC / "magictour_top1465.txt")[0]
    a = sb.solve(hard, "backtrack", node_limit=10)
    assert (a.status, a.limit) == ("failed", "nodes")
    # An incomplete method cannot prove there is no solution: it runs to its time limit.
    a = sb.solve(UNSOLVABLE, "tabu", time_limit=0.2)
    assert (a.status, a.limit, a.grid) == ("timeout", "time", None)


def test_bad_input_names_the_place(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(TAKANO + "\n\n" + TAKANO[:40] + "\n")
    with pytest.raises(sb.InputError) as e:
        sb.solve_many(bad)
    assert str(e.value).startswith(f"{bad}:3:1: a puzzle line has 40 cells")
    with pytest.raises(sb.InputError, match=r"^<input>:1:1: a puzzle line has 5 cells"):
        sb.solve("12345")
    with pytest.raises(sb.InputError, match=r"row 1, column 1 holds 13: a 9×9 grid holds 0"):
        sb.solve(cells(TAKANO) + 9)
    with pytest.raises(sb.InputError, match=r"9×8 array is not square"):
        sb.solve(np.zeros((9, 8), dtype=int))
    with pytest.raises(sb.InputError, match=r"an array of float64: cells are integers"):
        sb.solve(np.zeros((9, 9)))
    with pytest.raises(sb.InputError, match=r"^method: unknown method `nope` \(known: norvig, prop"):
        sb.solve(TAKANO, "nope")
    with pytest.raises(sb.InputError, match=r"^params: method `prop` has no parameter `bogus`"):
        sb.solve(TAKANO, params={"bogus": 1})
    with pytest.raises(sb.InputError, match=r"^params: parameter `encoding` is given twice"):
        sb.solve(TAKANO, "sat", "encoding=minimal encoding=extended")
    with pytest.raises(sb.InputError, match=r"^time_limit: "):
        sb.solve(TAKANO, time_limit=-1)
    with pytest.raises(sb.InputError, match=r"2 puzzles where one was expected \(`solve_many`"):
        sb.solve(TAKANO + "\n" + TAKANO)
    with pytest.raises(sb.InputError, match=r"^variant: "):
        sb.solve(TAKANO, variant="samurai")
    with pytest.raises(sb.InputError):
        sb.solve({"not": "a puzzle"})
    assert issubclass(sb.InputError, ValueError) and issubclass(sb.InputError, sb.SudokuBenchError)


def test_parameters_as_dict_or_text_mean_the_same():
    d = sb.solve(TAKANO, "sat", {"encoding": "extended", "preset": "sat"})
    t = sb.solve(TAKANO, "sat", "encoding=extended preset=sat")
    assert d.method == t.method == "sat encoding=extended preset=sat"
    assert sb.solve(TAKANO, "prop", {"naked_pairs": True}).method == "prop naked_pairs=true"
    names = {m["name"] for m in sb.methods()}
    assert {"prop", "dlx", "sat", "tabu", "ilp", "external", "prop-fill"} <= names
    listed = cli("list").stdout
    for m in sb.methods():
        assert f"  {m['name']} — {m['summary']}" in listed
        for p in m["params"]:
            assert f"      {p['name']}={p['default']} ({p['values']}) {p['help']}" in listed


def test_solve_agrees_with_the_command_line_seed_for_seed(tmp_path):
    """The same file, method, parameters and seed: the same answers as `sudoku-bench solve`,
    also for a randomized method (each puzzle's seed derives from its file and line)."""
    file = SEEDS / "000_unicamp_ilp.txt"
    rel = os.path.relpath(file, ROOT)
    for method, params in (("tabu", []), ("prop", []), ("sat", ["encoding=extended"])):
        args = ["solve", rel, "-m", method, "--seed", "7"] + [f"-p{p}" for p in params]
        lines = cli(*args).stdout.split()
        answers = sb.solve_many(ROOT / rel, method, " ".join(params), seed=7)
        assert [a.puzzle for a in answers][0].endswith(f"{rel}:{answers[0].puzzle.split(':')[-1]}")
        got = ["".join(map(str, a.grid.ravel())) for a in answers]
        assert got == lines, method
    # A randomized method's iterations follow the seed: equal for the same seed.
    one = sb.solve_many(file, "tabu", seed=7)
    two = sb.solve_many(file, "tabu", seed=7)
    assert [a.iterations for a in one] == [a.iterations for a in two]
    assert [a.seed for a in one] == [a.seed for a in two]


def test_jobs_keep_the_order_and_the_answers():
    puzzles = sb.read(PUBLIC / "magictour_top1465.txt")[:300]
    one = sb.solve_many(puzzles, "prop", jobs=1)
    two = sb.solve_many(puzzles, "prop", jobs=2)
    assert [a.puzzle for a in one] == [a.puzzle for a in two]
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a.grid, b.grid)


def test_generate_agrees_with_the_command_line():
    made = sb.generate(3, 3, seed=5, puzzle="unique")
    text = cli("generate", "--order", "3", "--count", "3", "--seed", "5", "--puzzle", "unique").stdout
    for g, line in zip(made, [l for l in text.splitlines() if not l.startswith("#")]):
        assert "".join(map(str, g.puzzle.ravel())).replace("0", ".") == line
        assert sb.check(g.puzzle, g.grid).ok
        assert sb.count(g.puzzle).count == 1 and g.clues == int((g.puzzle > 0).sum())
        assert g.carve_end == "minimal"
    grids = sb.generate(4, 2, "backtrack", seed=2)
    assert all(g.puzzle is None and sb.check(g.grid).ok and (g.grid > 0).all() for g in grids)
    with pytest.raises(sb.InputError, match="^puzzle: "):
        sb.generate(3, puzzle="nonsense")
    with pytest.raises(sb.InputError, match="^order: "):
        sb.generate(1)


def test_check():
    sol = cells(TAKANO_SOLUTION)
    assert sb.check(TAKANO).message == "givens consistent"
    assert sb.check(TAKANO, sol).message == "solution valid"
    wrong = sol.copy()
    wrong[0, 0], wrong[0, 1] = wrong[0, 1], wrong[0, 0]
    c = sb.check(TAKANO, wrong)
    assert not c and c.message.startswith("solution invalid: ")
    assert not sb.check("11" + "." * 79).ok


def test_rate_and_explain_agree_with_the_command_line():
    rel = "datasets/seeds/002_takano.txt"
    want = json.loads(cli("rate", rel, "--json").stdout.splitlines()[0])
    r = sb.rate(ROOT / rel)
    assert (r.end, r.hardest, r.steps, r.score, r.level) == (
        want["end"], want["hardest"], want["steps"], want["score"], want["level"])
    e = sb.explain(ROOT / rel)
    steps = json.loads(cli("explain", rel, "--json").stdout)["steps"]
    assert [s.text for s in e.steps] == [s["text"] for s in steps]
    assert [s.cells for s in e.steps] == [s["cells"] for s in steps]
    assert e.rating is not None and e.rating.score == r.score
    # No solution, several: no rating, and why.
    r = sb.rate(UNSOLVABLE)
    assert r.score is None and r.unrateable and "no solution" in r.unrateable
    several = puzzles_of(SEEDS / "000_unicamp_ilp.multiple.txt")[0]
    e = sb.explain(several)
    assert e.several_solutions and e.rating is None
    with pytest.raises(sb.InputError, match="^rules: "):
        sb.rate(TAKANO, rules="magic")


def test_convert_agrees_with_the_command_line(tmp_path):
    rel = "datasets/seeds/000_unicamp_ilp.txt"
    assert sb.convert(ROOT / rel, "block") == cli("convert", rel, "--to", "block").stdout
    assert sb.convert(ROOT / rel, "line") == cli("convert", rel, "--to", "line").stdout
    one = tmp_path / "one.txt"
    one.write_text(TAKANO + "\n")
    ours = sb.convert(one, "dimacs", "encoding=extended")
    theirs = cli("convert", str(one), "--to", "dimacs", "-p", "encoding=extended").stdout
    assert ours.split("\n", 1)[1] == theirs.split("\n", 1)[1]
    with pytest.raises(sb.InputError, match="DIMACS holds one formula"):
        sb.convert(ROOT / rel, "dimacs")


def test_ctrl_c_stops_a_long_call_between_puzzles(sigint):
    puzzles = sb.read(PUBLIC / "magictour_top1465.txt") * 40
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sb.solve_many(puzzles, "dlx")
    finally:
        timer.cancel()
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sb.solve_many(puzzles, "dlx", jobs=2)
    finally:
        timer.cancel()
    # The package still answers afterwards.
    assert sb.solve(TAKANO).solved


def test_the_gil_is_released_while_solving():
    """A Python thread keeps running while solve_many works: it counts while the call runs."""
    puzzles = sb.read(PUBLIC / "magictour_top1465.txt")[:400]
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    before = len(ticks)
    sb.solve_many(puzzles, "dlx")
    during = len(ticks) - before
    done.set()
    t.join()
    assert during > 5
