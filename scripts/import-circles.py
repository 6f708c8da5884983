#!/usr/bin/env python3
"""Counts import circles at two grains, and exits 1 when there is one.

- Files: the modules of each crate (under crates/ and examples/) that reach each other through
  `crate::`, `super::` and `self::` paths (a `use` or a path in the code), each a strongly
  connected component of more than one module. A name the crate root (or a `mod.rs`)
  re-exports is followed to the module that defines it; re-exports and `mod` lines are not
  uses, nor are `#[cfg(test)]` modules (a test may reach anywhere). Comments are dropped and
  string and character literals emptied by a lexer that knows Rust's raw strings (`r#"…"#`),
  byte strings, escapes and lifetimes, so no path inside a literal counts and no path after one
  is lost.
- Crates: the packages under crates/ and examples/ that depend on each other by path (normal,
  dev, build and target-specific dependencies, and `workspace = true` ones through the
  workspace's table), each a strongly connected component of more than one package.

Usage: scripts/import-circles.py [TOP]   (default: the checkout this script is in)
       scripts/import-circles.py --self-test
"""

import os
import re
import sys
import tempfile
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
GROUPS = ("crates", "examples")


def strip_comments(text):
    """`text` without comments, each string literal as `""` and each character literal as
    `' '`; lifetimes and everything else kept."""
    out = []
    i, n = 0, len(text)
    ident = re.compile(r"[A-Za-z0-9_]")
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "/" and nxt == "*":
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif c in "rb" and (i == 0 or not ident.match(text[i - 1])):
            # r"…", r#"…"#, b"…", br"…", br#"…"#, b'…' (or just an identifier starting so)
            m = re.compile(r'(b?r)(#*)"|b"|b\'').match(text, i)
            if not m:
                out.append(c)
                i += 1
            elif m.group(0) == "b'":
                i = skip_char(text, i + 1)
                out.append("' '")
            elif m.group(0) == 'b"':
                i = skip_string(text, i + 2)
                out.append('""')
            else:
                close = '"' + m.group(2)
                j = text.find(close, m.end())
                i = n if j < 0 else j + len(close)
                out.append('""')
        elif c == '"':
            i = skip_string(text, i + 1)
            out.append('""')
        elif c == "'":
            # A character literal ('x', '\n', '\u{1b}', '\''), else a lifetime or label.
            if nxt == "\\" or (i + 2 < n and text[i + 2] == "'"):
                i = skip_char(text, i)
                out.append("' '")
            else:
                out.append(c)
                i += 1
        elif ident.match(c):
            m = re.compile(r"[A-Za-z0-9_]+").match(text, i)
            out.append(m.group(0))
            i = m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(text, i):
    """The index after the closing quote of a string whose text starts at `i`."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return i


def skip_char(text, i):
    """The index after a character literal whose opening quote is at `i`."""
    i += 1
    if i < len(text) and text[i] == "\\":
        i += 2
    else:
        i += 1
    j = text.find("'", i)
    return len(text) if j < 0 else j + 1


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
        for w in sorted(graph[v]):
            if w not in graph:
                continue
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


def packages(top):
    """Every package folder under the groups: (group, folder name, path)."""
    for group in GROUPS:
        base = os.path.join(top, group)
        if not os.path.isdir(base):
            continue
        for name in sorted(os.listdir(base)):
            path = os.path.join(base, name)
            if os.path.isfile(os.path.join(path, "Cargo.toml")):
                yield group, name, path


def crate_graph(top):
    """Package name -> the package names it depends on by path (any kind of dependency)."""
    workspace = {}
    root = os.path.join(top, "Cargo.toml")
    if os.path.exists(root):
        with open(root, "rb") as f:
            table = tomllib.load(f).get("workspace", {}).get("dependencies", {})
        for dep, spec in table.items():
            if isinstance(spec, dict) and "path" in spec:
                workspace[dep] = os.path.normpath(os.path.join(top, spec["path"]))
    names, deps = {}, {}
    for _, _, path in packages(top):
        with open(os.path.join(path, "Cargo.toml"), "rb") as f:
            manifest = tomllib.load(f)
        name = manifest.get("package", {}).get("name")
        if not name:
            continue
        names[os.path.normpath(path)] = name
        tables = [manifest]
        tables += list(manifest.get("target", {}).values())
        targets = set()
        for t in tables:
            for kind in ("dependencies", "dev-dependencies", "build-dependencies"):
                for dep, spec in t.get(kind, {}).items():
                    if not isinstance(spec, dict):
                        continue
                    if "path" in spec:
                        targets.add(os.path.normpath(os.path.join(path, spec["path"])))
                    elif spec.get("workspace") and dep in workspace:
                        targets.add(workspace[dep])
        deps[name] = targets
    return {n: {names[p] for p in ps if p in names} for n, ps in deps.items()}


def count(top, say=print):
    """Prints every circle under `top` (via `say`); returns how many there are."""
    total = 0
    for group, name, path in packages(top):
        src = os.path.join(path, "src")
        if not os.path.isdir(src):
            continue
        for comp in circles(Crate(src).edges()):
            total += 1
            names = ["::".join(m) or "(root)" for m in comp]
            say(f"{group}/{name}: {' <-> '.join(names)}")
    files = total
    for comp in circles(crate_graph(top)):
        total += 1
        say(f"crates: {' <-> '.join(comp)}")
    crates = total - files
    say(
        f"{files} import circle{'' if files == 1 else 's'} between files, "
        f"{crates} between crates"
    )
    return total


def self_test():
    """A crate whose circle hides behind literals, comments and a raw string that ends in `r"`
    (as a help text ending in `counter` did) is seen; the same crate without the circle is
    not; two packages that depend on each other by path are a circle."""
    with tempfile.TemporaryDirectory() as top:
        src = os.path.join(top, "crates", "a", "src")
        os.makedirs(src)
        with open(os.path.join(top, "crates", "a", "Cargo.toml"), "w") as f:
            f.write('[package]\nname = "a"\n[dev-dependencies]\nb = { path = "../b" }\n')
        os.makedirs(os.path.join(top, "crates", "b", "src"))
        with open(os.path.join(top, "crates", "b", "Cargo.toml"), "w") as f:
            f.write('[package]\nname = "b"\n[dependencies]\na = { path = "../a" }\n')
        with open(os.path.join(top, "crates", "b", "src", "lib.rs"), "w") as f:
            f.write("//! b\n")

        def write(name, text):
            with open(os.path.join(src, name), "w") as f:
                f.write(text)

        write("lib.rs", "mod x;\nmod y;\n")
        write(
            "x.rs",
            'const H: &str = "the sequential counter";\n'
            "/* a /* nested */ comment: crate::nothing */\n"
            "fn f<'a>(c: &'a str) -> char { let _ = c; '\"' }\n"
            'const R: &str = r#"a "quoted" crate::nowhere"#;\n'
            "fn g() { crate::y::h() }\n",
        )
        write("y.rs", "pub fn h() { let _ = b\"r\"; crate::x::i() }\npub fn i() {}\n")
        said = []
        n = count(top, said.append)
        assert n == 2, said
        assert "crates/a: x <-> y" in said and "crates: a <-> b" in said, said
        write("y.rs", "pub fn h() {}\n")
        with open(os.path.join(top, "crates", "a", "Cargo.toml"), "w") as f:
            f.write('[package]\nname = "a"\n')
        said = []
        assert count(top, said.append) == 0, said
    print("self-test: ok")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..")
    return 1 if count(top) else 0


if __name__ == "__main__":
    sys.exit(main())
