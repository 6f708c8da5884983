#!/usr/bin/env python3
"""Counts the import circles between the modules of each crate under crates/: groups of modules
that reach each other through `crate::`, `super::` and `self::` paths (a `use` or a path in the
code), each a strongly connected component of more than one module. A name the crate root (or a
`mod.rs`) re-exports is followed to the module that defines it; re-exports and `mod` lines are
not uses, nor are `#[cfg(test)]` modules (a test may reach anywhere). Prints each circle and the
count; exits 1 when there is one.

Usage: scripts/import-circles.py [CRATES_DIR]   (default: crates/ beside this script)
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:[^"]|"(?!#))*"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def strip_test_modules(text):
    """The text without `#[cfg(test)] mod NAME { ... }` blocks."""
    out = []
    i = 0
    pat = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j


def expand_use(tree):
    """`a::{b, c::{d, e}}` as ['a::b', 'a::c::d', 'a::c::e']."""
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for k, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:k])
                start = k + 1
        parts.append(s[start:])
        for p in filter(None, parts):
            b = p.find("{")
            if b >= 0:
                walk(prefix + p[:b], p[b + 1 : p.rfind("}")])
            else:
                out.append(prefix + re.sub(r"\bas\b.*$", "", p))

    walk("", tree)
    return out


class Crate:
    def __init__(self, src):
        self.src = src
        self.modules = {}  # path tuple -> file text (comments and test modules removed)
        self.reexports = {}  # (module, name) -> list of segments relative to module
        root = next(
            (f for f in ("lib.rs", "main.rs") if os.path.exists(os.path.join(src, f))), None
        )
        if root:
            self.load((), os.path.join(src, root))

    def load(self, path, file):
        with open(file, encoding="utf-8") as f:
            text = strip_test_modules(strip_comments(f.read()))
        self.modules[path] = text
        base = os.path.dirname(file)
        if path and not file.endswith("mod.rs"):
            base = os.path.join(base, path[-1])
        for m in re.finditer(
            r"^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, re.M
        ):
            name = m.group(1)
            for cand in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
                if os.path.exists(cand):
                    self.load(path + (name,), cand)
                    break
        for m in re.finditer(r"^\s*pub(?:\([^)]*\))?\s+use\s+([^;]+);", text, re.M):
            for p in expand_use(m.group(1)):
                segs = p.split("::")
                self.reexports[(path, segs[-1])] = segs

    def resolve(self, here, segs):
        """The module a path used in module `here` lands in, or None outside the crate."""
        if segs[0] == "crate":
            at, rest = (), segs[1:]
        elif segs[0] == "super":
            at, rest = here, segs
            while rest and rest[0] == "super":
                at, rest = at[:-1], rest[1:]
        elif segs[0] == "self":
            at, rest = here, segs[1:]
        else:
            return None
        for _ in range(8):  # re-export chains are short
            while rest and at + (rest[0],) in self.modules:
                at, rest = at + (rest[0],), rest[1:]
            target = self.reexports.get((at, rest[0])) if rest else None
            if not target:
                return at
            inner = self.resolve(at, target) if target[0] in ("crate", "super", "self") else None
            if inner is None:
                inner_segs = target[:-1]
                nxt = at
                for s in inner_segs:
                    if nxt + (s,) in self.modules:
                        nxt = nxt + (s,)
                    else:
                        return at
                return nxt
            return inner
        return at

    def edges(self):
        out = {m: set() for m in self.modules}
        for m, text in self.modules.items():
            # Re-exports and module declarations are not uses.
            body = re.sub(r"^\s*pub(?:\([^)]*\))?\s+use\s+[^;]+;", "", text, flags=re.M)
            paths = []
            for u in re.finditer(r"\buse\s+((?:crate|super|self)\b[^;]*);", body):
                paths += expand_use(u.group(1))
            body = re.sub(r"\buse\s+[^;]+;", "", body)
            paths += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", body)
            for p in paths:
                t = self.resolve(m, p.split("::"))
                if t is not None and t != m:
                    out[m].add(t)
        return out


def circles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def main():
    crates = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "crates")
    total = 0
    for name in sorted(os.listdir(crates)):
        src = os.path.join(crates, name, "src")
        if not os.path.isdir(src):
            continue
        crate = Crate(src)
        graph = crate.edges()
        for comp in circles(graph):
            total += 1
            names = ["::".join(m) or "(root)" for m in comp]
            print(f"{name}: {' <-> '.join(names)}")
    print(f"{total} import circle{'' if total == 1 else 's'}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
