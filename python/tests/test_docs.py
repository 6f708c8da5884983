"""The package's documentation: docs/python.md's measured block equals the committed
measurement, its example is where .ci/python.sh finds it, and every public function and class
has a docstring and a stub."""

from __future__ import annotations

import ast
import importlib.util
import json

import sudoku_bench as sb
from conftest import ROOT

PAGE = ROOT / "docs" / "python.md"


def block(text: str, name: str) -> str:
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    assert start in text and end in text, f"docs/python.md has no {name} block"
    return text.split(start, 1)[1].split(end, 1)[0]


def overhead_module():
    spec = importlib.util.spec_from_file_location("overhead", ROOT / "python/bench/overhead.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_overhead_block_is_the_committed_measurement():
    mod = overhead_module()
    result = json.loads((ROOT / "python/bench/overhead.json").read_text())
    assert block(PAGE.read_text(), "python-overhead") == mod.render(result), (
        "docs/python.md's block differs from `python python/bench/overhead.py --render`"
    )
    # The measurement covers the bound the page states, set by set.
    assert {s["method"] for s in result["sets"]} >= {"prop"}
    for s in result["sets"]:
        assert s["overhead_us"] == round(s["call_median_us"] - s["binary_median_us"], 2)


def test_the_example_is_one_python_block():
    code = block(PAGE.read_text(), "python-example")
    assert code.startswith("```python\n") and code.endswith("```\n")
    ast.parse(code[len("```python\n"):-len("```\n")])


def test_every_public_name_has_a_docstring_and_a_stub():
    stub = ast.parse((ROOT / "python/sudoku_bench/__init__.pyi").read_text())
    stubbed = {
        n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
    } | {
        a.asname or a.name for n in stub.body if isinstance(n, ast.ImportFrom) for a in n.names
    } | {
        t.id for n in stub.body if isinstance(n, ast.AnnAssign) for t in [n.target]
    }
    for name in sb.__all__:
        obj = getattr(sb, name)
        assert name in stubbed, f"{name} has no stub in __init__.pyi"
        if callable(obj):
            assert (obj.__doc__ or "").strip(), f"{name} has no docstring"
    assert (ROOT / "python/sudoku_bench/py.typed").exists()
