"""run, load, findings, compare and plot: a quick experiment end to end (the same folder and
files as `sudoku-bench run`), the DataFrame's dtypes and columns, a folder in use, Ctrl-C
between trials and a resume."""

from __future__ import annotations

import csv
import fcntl
import json
import os
import signal

import pandas as pd
import pytest

import sudoku_bench as sb
from conftest import ROOT, cli

EXPERIMENT = {
    "name": "py-smoke",
    "seed": 11,
    "trials": 2,
    "budget": {"time_limit": 2.0},
    "method": [{"name": "prop"}, {"name": "dlx"}, {"name": "tabu"}],
    "instances": [
        {"file": str(ROOT / "datasets/seeds/000_unicamp_ilp.txt"), "limit": 6},
        {"generate": {"order": 2, "puzzle": "minimal", "count": 6}},
    ],
}

DTYPES = {
    "task": "int64", "experiment": "string", "kind": "string", "method": "string",
    "params": "string", "variant": "string", "order": "int64", "instance_set": "string",
    "instance": "string", "givens": "int64", "trial": "int64", "seed": "uint64",
    "status": "category", "verified": "boolean", "wall_ms": "float64", "cpu_ms": "float64",
    "build_ms": "float64", "nodes": "uint64", "guesses": "uint64", "iterations": "uint64",
    "restarts": "uint64", "best_cost": "UInt64", "objective": "float64",
    "time_to_best_ms": "float64", "count": "UInt64", "limit": "string", "extra": "string",
    "message": "string", "commit": "string", "repeats": "int64", "rules_needed": "string",
    "lp_integral": "boolean", "lp_unique": "boolean", "peak_rss_kb": "UInt64",
    "threads": "int64", "solve_ms": "float64", "config": "string",
}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "a"
    events = []
    summary = sb.run(EXPERIMENT, out, progress=events.append)
    return out, summary, events


def test_a_run_writes_the_commands_files(smoke):
    out, s, events = smoke
    assert s.experiment == "py-smoke" and s.out == out
    assert s.planned == s.ran == 3 * 12 * 2 and s.clean and s.succeeded == s.ran
    names = {p.name for p in s.files}
    for f in ("trials.csv", "meta.json", "summary.md", "findings.md", "report.html"):
        assert (out / f).exists() and f in names
    kinds = [e["event"] for e in events]
    assert kinds[0] == "planning" and "planned" in kinds and "started" in kinds
    assert kinds.count("trial") == s.ran and "trials_done" in kinds


def test_load_types_every_column(smoke):
    out, s, _ = smoke
    trials, meta = sb.load(out)
    assert len(trials) == s.ran
    assert {c: str(t) for c, t in trials.dtypes.items()} == DTYPES
    with open(out / "trials.csv", newline="") as f:
        header = next(csv.reader(f))
    assert list(trials.columns) == header + ["config"]
    assert list(trials["status"].cat.categories) == [
        "solved", "infeasible", "multiple", "timeout", "failed", "stuck", "unverified",
        "wrong", "error"]
    assert (trials["status"] == "solved").all() and trials["verified"].all()
    assert trials["params"].eq("").sum() == len(trials)  # no parameters: "", never NaN
    assert trials["limit"].isna().all() and trials["message"].isna().all()
    assert set(trials["config"]) == {"prop", "dlx", "tabu"}
    assert meta["experiment"] == "py-smoke" and meta["settings"] is not None
    # The same rows as the file, value for value where pandas reads them alike.
    raw = pd.read_csv(out / "trials.csv")
    assert trials["wall_ms"].tolist() == raw["wall_ms"].tolist()
    assert trials["seed"].astype(str).tolist() == raw["seed"].astype(str).tolist()


def test_findings_compare_and_plot(smoke, tmp_path):
    out, _, _ = smoke
    found = sb.findings(out)
    assert {(f["order"], f["instance_set"]) for f in found} >= {(3, "000_unicamp_ilp.txt")}
    for f in found:
        assert f["first"] in {"prop", "dlx", "tabu"} and f["sentence"]
        assert f["decided"] in {"solves more", "faster", "tie", "untested", "unscored", "alone"}
    lines = sb.compare(out, out)
    assert lines and all(l["change"] in {"unchanged", "too few to judge"} for l in lines)
    assert all(l["median_ratio"] == pytest.approx(1.0) for l in lines if l["median_ratio"])
    (out / "report.html").unlink()
    files = sb.plot(out, progress=False)
    assert (out / "report.html").exists() and out / "report.html" in files


def test_the_same_run_as_the_command_line(tmp_path):
    """A file run by the package and by the command: the same tasks, seeds and statuses."""
    rel = ".ci/report-smoke.toml"
    ours = sb.run(ROOT / rel, tmp_path / "py", quick=True, no_plots=True, progress=False)
    cli("run", rel, "--out", str(tmp_path / "cli"), "--quick", "--no-plots")
    a, _ = sb.load(ours.out)
    b, _ = sb.load(tmp_path / "cli")
    cols = ["task", "method", "params", "instance", "trial", "seed", "status", "givens"]
    pd.testing.assert_frame_equal(
        a[cols].sort_values("task").reset_index(drop=True),
        b[cols].sort_values("task").reset_index(drop=True),
    )


def test_errors_of_a_run(tmp_path):
    with pytest.raises(sb.InputError, match="unknown method `nope`"):
        sb.run({**EXPERIMENT, "method": [{"name": "nope"}]}, tmp_path / "x", progress=False)
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nseed = 1\ntrials = 0\n')
    with pytest.raises(sb.InputError, match=str(bad)):
        sb.run(bad, tmp_path / "y", progress=False)
    with pytest.raises(sb.InputError, match="not found: `load` needs a results folder"):
        sb.load(tmp_path)
    # A folder another process holds: its lock file, taken as the runner takes it.
    held = tmp_path / "held"
    held.mkdir()
    with open(held / ".sudoku-bench.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(sb.FolderInUseError, match="is in use"):
            sb.run(EXPERIMENT, held, progress=False)


def test_ctrl_c_stops_a_run_between_trials_and_resume_goes_on(tmp_path, sigint):
    exp = {**EXPERIMENT, "name": "py-stop", "trials": 10,
           "method": [{"name": "tabu"}, {"name": "sa"}]}
    out = tmp_path / "stop"
    seen = []

    def progress(e):
        # Ctrl-C as a person presses it, once some trials have ended.
        if e["event"] == "trial":
            seen.append(e)
            if len(seen) == 5:
                os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        sb.run(exp, out, progress=progress, no_plots=True)
    with open(out / "trials.csv") as f:
        kept = sum(1 for _ in f) - 1
    assert 5 <= kept < 2 * 12 * 10
    meta = json.loads((out / "meta.json").read_text())
    assert meta["finished"] is None
    s = sb.run(exp, out, resume=True, progress=False, no_plots=True)
    assert s.skipped == kept and s.skipped + s.ran == s.planned == 2 * 12 * 10
    trials, _ = sb.load(out)
    assert len(trials) == s.planned and trials["task"].is_unique
