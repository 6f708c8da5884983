#!/usr/bin/env python3
"""Counts the flags of the compare-duet study (docs/notes/compare-duet.md) into counts.md.

Reads every compare.md under results/studies/compare-duet/ (separate/ and duet/), and writes
results/studies/compare-duet/counts.md: the false alarms of the A/A pairs per line, and the
share of the lines of a method made slower on purpose (test-only slowdown) that are flagged,
in the direction of the slowdown. Standard library only; run from the top of the checkout.
docs/report.md shows its tables as generated blocks (docs/blocks.toml).
"""

import pathlib
import re
import sys

ROOT = pathlib.Path("results/studies/compare-duet")
KINDS = [("separate", "separate runs"), ("duet", "duets")]


def read(path):
    """(shift, slowed, lines) of one compare.md: the run-wide shift (or None), the slowed
    configuration as (run, label, percent) (or None), and each line as (config, set, change,
    median A ms, median B ms, median ratio B/A)."""
    text = path.read_text()
    m = re.search(r"B's whole run is ([0-9.]+)× A's", text)
    shift = float(m.group(1)) if m else None
    slowed = None
    m = re.search(r"TEST ONLY: run ([AB]) made configurations slower on purpose \(`([^`]*)`\)", text)
    if m:
        spec = m.group(2).removeprefix("baseline:")
        label, pct = spec.rsplit("=", 1)
        slowed = (m.group(1), label, float(pct))
    lines, group = [], None
    for row in text.splitlines():
        if not row.startswith("| ") or row.startswith("| ---") or row.startswith("| Configuration"):
            continue
        cells = [c.strip() for c in row.strip("|").split("|")]
        if cells[0].startswith("**"):
            group = cells[0].strip("*")
            continue
        change = cells[-1].strip("*")
        medians = [float(c.split()[0]) if c[:1].isdigit() else None for c in cells[4:7]]
        lines.append((cells[0], group, change, *medians))
    return shift, slowed, lines


def flag(change):
    """The flag's direction: 'regression', 'improvement', or None (unchanged, too few)."""
    for word in ("regression", "improvement"):
        if change.startswith(word):
            return word
    return None


def main():
    pairs = {}
    for kind, _ in KINDS:
        for path in sorted((ROOT / kind).glob("*/compare.md")):
            pairs.setdefault(kind, []).append((path.parent.name, *read(path)))
    if not pairs:
        sys.exit(f"no compare.md under {ROOT}/separate or {ROOT}/duet: run scripts/studies/compare-duet.sh")
    out = [
        "# compare-duet: counts",
        "",
        "Written by `python3 scripts/studies/compare-duet-counts.py` from the compare.md files beside it "
        "(docs/notes/compare-duet.md). A line is flagged when `compare` calls it a regression or an "
        "improvement; judged lines are those with an interval (6 paired instances or more).",
        "",
        "## False alarms: two runs of one build (A/A)",
        "",
        "| pairs of | pairs | lines judged | lines flagged | per line | pairs with a flag | run-wide shift |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    summary = {}
    for kind, name in KINDS:
        aa = [p for p in pairs.get(kind, []) if p[0].startswith("aa-")]
        if not aa:
            continue
        judged = sum(1 for p in aa for l in p[3] if not l[2].startswith("too few"))
        flagged = sum(1 for p in aa for l in p[3] if flag(l[2]))
        with_flag = sum(1 for p in aa if any(flag(l[2]) for l in p[3]))
        shifts = [p[1] for p in aa if p[1] is not None]
        span = f"{min(shifts):.2f}–{max(shifts):.2f}" if shifts else "–"
        out.append(
            f"| {name} | {len(aa)} | {judged} | {flagged} | {100 * flagged / judged:.1f} % | {with_flag} | {span} |"
        )
        summary[(kind, "aa")] = (flagged, judged, len(aa))
    out += [
        "",
        "## Power: one method made slower on purpose",
        "",
        "Pairs flagged: pairs in which one of the slowed method's lines at least is flagged in the",
        "direction of the slowdown. Slowed lines: the slowed method's lines (one per instance set);",
        "flagged: in the direction of the slowdown (a regression when B is slowed, an improvement when",
        "A is). Other lines: every other line of those pairs, flagged either way.",
        "",
        "| pairs of | slowdown | pairs | pairs flagged | slowed lines | flagged | share | other lines | flagged |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    per_method = {}
    for kind, name in KINDS:
        slow = [p for p in pairs.get(kind, []) if p[2] is not None]
        for pct in sorted({p[2][2] for p in slow}):
            these = [p for p in slow if p[2][2] == pct]
            hit = total = other = other_flagged = pairs_hit = 0
            for _, _, (run, label, _), lines in these:
                want = "regression" if run == "B" else "improvement"
                pairs_hit += any(c == label and flag(ch) == want for c, _, ch, *_ in lines)
                for config, _, change, *_ in lines:
                    if config == label:
                        total += 1
                        ok = flag(change) == want
                        hit += ok
                        if pct == 25:
                            m = per_method.setdefault((kind, label), [0, 0])
                            m[0] += ok
                            m[1] += 1
                    else:
                        other += 1
                        other_flagged += bool(flag(change))
            out.append(
                f"| {name} | {pct:g} % | {len(these)} | {pairs_hit} | {total} | {hit} | {100 * hit / total:.0f} % | {other} | {other_flagged} |"
            )
            summary[(kind, pct)] = (hit, total, len(these))
    out += [
        "",
        "## Power at 25 % per method",
        "",
        "| method | " + " | ".join(name for _, name in KINDS) + " |",
        "| --- | " + " | ".join("---:" for _ in KINDS) + " |",
    ]
    for label in sorted({l for (_, l) in per_method}):
        cells = []
        for kind, _ in KINDS:
            h, t = per_method.get((kind, label), (0, 0))
            cells.append(f"{h}/{t}" if t else "–")
        out.append(f"| `{label}` | " + " | ".join(cells) + " |")
    out += [
        "",
        "## What moves between two runs of one build",
        "",
        "Per line (method and instance set), over the A/A pairs: the range of its medians (µs a",
        "puzzle, both runs of every pair, as compare.md rounds them), which says how fast the",
        "machine ran it at the time, and the range of its median ratios B/A, which says how far the",
        "two runs of a pair disagreed.",
        "",
        "| method | instance set | pairs of | medians, µs | median ratios B/A |",
        "| --- | --- | --- | --- | --- |",
    ]
    keys = sorted({l[:2] for kind, _ in KINDS for p in pairs.get(kind, []) for l in p[3]})
    for key in keys:
        for kind, name in KINDS:
            lines = [l for p in pairs.get(kind, []) if p[0].startswith("aa-") for l in p[3] if l[:2] == key]
            meds = [1000 * m for l in lines for m in l[3:5] if m is not None]
            ratios = [l[5] for l in lines if l[5] is not None]
            if meds and ratios:
                out.append(
                    f"| `{key[0]}` | {key[1].split(' · ')[-1]} | {name} | {min(meds):.0f}–{max(meds):.0f} | {min(ratios):.2f}–{max(ratios):.2f} |"
                )
    (ROOT / "counts.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
