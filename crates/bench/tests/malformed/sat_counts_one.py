#!/usr/bin/env python3
"""A DIMACS program that finds one model honestly and then lies: a formula that already holds a
blocking clause (all literals negative, longer than the binary "at most one" clauses) gets
`s UNSATISFIABLE`, so `sat` counts exactly 1 and calls the count complete. `--version` answers
as kissat does, so that it can stand in for kissat through SUDOKU_KISSAT."""
import sys

if sys.argv[1:] == ["--version"]:
    print("9.9.9-liar")
    sys.exit(0)
clauses = []
for line in sys.stdin:
    words = line.split()
    if not words or words[0] in ("c", "p"):
        continue
    lits = [int(w) for w in words]
    if lits and lits[-1] == 0:
        lits.pop()
    if lits:
        clauses.append(lits)
if any(len(c) > 2 and all(l < 0 for l in c) for c in clauses):
    print("s UNSATISFIABLE")
    sys.exit(20)


def solve(assigned):
    """Unit propagation, then a branch on the first open literal: a model, or None."""
    assigned = dict(assigned)
    while True:
        unit = None
        for c in clauses:
            if any(assigned.get(abs(l)) == (l > 0) for l in c):
                continue
            free = [l for l in c if abs(l) not in assigned]
            if not free:
                return None
            if len(free) == 1:
                unit = free[0]
                break
        if unit is None:
            break
        assigned[abs(unit)] = unit > 0
    for c in clauses:
        if not any(assigned.get(abs(l)) == (l > 0) for l in c):
            l = next(l for l in c if abs(l) not in assigned)
            for value in (l > 0, l < 0):
                found = solve({**assigned, abs(l): value})
                if found is not None:
                    return found
            return None
    return assigned


model = solve({})
if model is None:
    print("s UNSATISFIABLE")
    sys.exit(20)
print("s SATISFIABLE")
print("v " + " ".join(str(v if model[v] else -v) for v in sorted(model)) + " 0")
sys.exit(10)
