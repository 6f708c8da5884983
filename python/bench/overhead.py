"""What a `sudoku_bench.solve` call costs beside the method's own time: measured against the
command line's method time on the same puzzles, on the same machine, in the same minutes.

    python python/bench/overhead.py            # measures, writes python/bench/overhead.json
    python python/bench/overhead.py --render   # prints docs/python.md's block from that file

Each round runs, one after the other, ``sudoku-bench solve FILE --method M`` (the binary of
this checkout; its summary line gives the median wall time of the method call per puzzle),
then in this process one ``sudoku_bench.solve(text)`` call per puzzle of the same file, each
timed by ``time.perf_counter_ns`` around the whole call (parsing the text, building or
reusing the method, the solve, verifying the answer, making the Answer and its array).
Medians are over calls, then over rounds; the machine is shared, so medians, not means, are what is
compared. Nothing here times anything by itself: the binary times its method calls, and
Python's clock times Python's calls.

docs/python.md holds the rendered block; python/tests/test_docs.py checks that the block
equals what this file renders from the committed overhead.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULT = Path(__file__).with_name("overhead.json")
# Easy puzzles (the method's time is smallest, so the overhead weighs most) and hard ones.
SETS = [
    ("datasets/public/norvig_easy50.txt", "prop"),
    ("datasets/public/magictour_top1465.txt", "prop"),
    ("datasets/public/norvig_easy50.txt", "dlx"),
]
ROUNDS = 5
# Calls of solve per puzzle and round (the easy set is small: more calls each).
REPEATS = {"datasets/public/norvig_easy50.txt": 40, "datasets/public/magictour_top1465.txt": 2}

# The bound the issue sets: a call costs at most twice the binary's method time plus a few
# microseconds (here: 5).
FEW_US = 5.0


def puzzles(rel: str) -> list[str]:
    lines = (ROOT / rel).read_text().splitlines()
    return [l.strip() for l in lines if l.strip() and not l.startswith("#")]


def binary_median_us(binary: Path, rel: str, method: str) -> float:
    """The command's median wall time of the method call per puzzle (µs), from its summary."""
    done = subprocess.run(
        [str(binary), "solve", rel, "--method", method],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    m = re.search(r"median ([0-9.]+) ms wall per puzzle", done.stderr)
    if not m:
        raise SystemExit(f"no median in the command's summary: {done.stderr!r}")
    return float(m.group(1)) * 1000.0


def python_round(rel: str, method: str) -> tuple[float, float]:
    """Median call time and median method time inside the calls (µs)."""
    import sudoku_bench as sb

    ps = puzzles(rel)
    clock = time.perf_counter_ns
    calls, inside = [], []
    for _ in range(REPEATS[rel]):
        for p in ps:
            t0 = clock()
            a = sb.solve(p, method)
            calls.append(clock() - t0)
            inside.append(a.wall_ms)
            assert a.status == "solved", a
    return statistics.median(calls) / 1000.0, statistics.median(inside) * 1000.0


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def measure(binary: Path) -> dict:
    import sudoku_bench as sb

    sets = []
    for rel, method in SETS:
        rounds = []
        for _ in range(ROUNDS):
            b = binary_median_us(binary, rel, method)
            call, inside = python_round(rel, method)
            rounds.append({"binary_us": b, "call_us": call, "inside_us": inside})
        med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        sets.append({
            "file": rel,
            "method": method,
            "puzzles": len(puzzles(rel)),
            "calls_per_round": len(puzzles(rel)) * REPEATS[rel],
            "binary_median_us": round(med["binary_us"], 2),
            "call_median_us": round(med["call_us"], 2),
            "method_in_call_median_us": round(med["inside_us"], 2),
            "overhead_us": round(med["call_us"] - med["binary_us"], 2),
            "rounds": rounds,
        })
    return {
        "what": "sudoku_bench.solve per call against sudoku-bench solve's method time, same puzzles",
        "command": "python python/bench/overhead.py",
        "build": sb.BUILD,
        "python": platform.python_version(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load_average_at_start": os.getloadavg()[0],
        "rounds": ROUNDS,
        "bound": f"call <= 2 x binary + {FEW_US} us",
        "sets": sets,
    }


def within_bound(s: dict) -> bool:
    """The issue's bound on one set's medians."""
    return s["call_median_us"] <= 2 * s["binary_median_us"] + FEW_US


def render(result: dict) -> str:
    """docs/python.md's block: the table and the sentence, from the committed measurement."""
    lines = [
        f"_Written by `python python/bench/overhead.py --render` from `python/bench/overhead.json` "
        f"({result['rounds']} rounds on {result['cpu']}, {result['cores']} cores shared with "
        f"other work: load average {result['load_average_at_start']:.1f} at the start; "
        f"medians over calls, then over rounds)._",
        "",
        "| puzzles | method | binary: method time | `solve()`: whole call | of which the method | overhead | call / binary |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for s in result["sets"]:
        lines.append(
            f"| `{Path(s['file']).name}` ({s['puzzles']}) | `{s['method']}` | "
            f"{s['binary_median_us']:.2f} µs | {s['call_median_us']:.2f} µs | "
            f"{s['method_in_call_median_us']:.2f} µs | {s['overhead_us']:+.2f} µs | "
            f"{s['call_median_us'] / s['binary_median_us']:.2f}× |"
        )
    worst = max(result["sets"], key=lambda s: s["overhead_us"])
    ok = all(within_bound(s) for s in result["sets"])
    lines += [
        "",
        f"The largest overhead per call is {worst['overhead_us']:.2f} µs "
        f"(`{worst['method']}` on `{Path(worst['file']).name}`); every row is "
        + ("within" if ok else "**not** within")
        + f" the bound of twice the binary's method time plus {FEW_US:.0f} µs.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--render", action="store_true", help="print the docs block from overhead.json")
    ap.add_argument("--binary", type=Path, default=ROOT / "target" / "release" / "sudoku-bench")
    a = ap.parse_args()
    if a.render:
        sys.stdout.write(render(json.loads(RESULT.read_text())))
        return
    result = measure(a.binary)
    RESULT.write_text(json.dumps(result, indent=1) + "\n")
    sys.stdout.write(render(result))


if __name__ == "__main__":
    main()
