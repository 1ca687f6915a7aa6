"""The package's functions stay short: none over LIMIT lines (its signature, docstring and
body, end_lineno - lineno + 1), read from the source with ast."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "importer"
LIMIT = 80
# Functions over the limit for now, each to be split, with why ("path:Class.name"): the test
# fails once one is no longer over it, so that the list cannot go stale. None today.
ALLOWED: set[str] = set()


def long_functions() -> dict[str, int]:
    """Each function or method over LIMIT lines ("path:Class.name") and its length."""
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(PACKAGE).as_posix()
        for name, node in _functions(tree.body, ""):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > LIMIT:
                found[f"{where}:{name}"] = length
    return found


def _functions(
    body: list[ast.stmt], prefix: str
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((prefix + node.name, node))
            found += _functions(node.body, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            found += _functions(node.body, f"{prefix}{node.name}.")
        elif isinstance(node, ast.If | ast.Try | ast.With):  # defined under a condition
            found += _functions([*node.body, *getattr(node, "orelse", [])], prefix)
    return found


def test_no_function_is_over_the_limit() -> None:
    over = {name: n for name, n in long_functions().items() if name not in ALLOWED}
    assert not over, f"functions over {LIMIT} lines (split them): " + ", ".join(
        f"{name} ({n} lines)" for name, n in sorted(over.items())
    )


def test_every_allowed_function_is_still_over_the_limit() -> None:
    # A function split since: its entry goes, so that the list cannot go stale.
    stale = sorted(ALLOWED - set(long_functions()))
    assert not stale, f"no longer over {LIMIT} lines, remove from ALLOWED: {', '.join(stale)}"


def test_a_long_function_is_found_wherever_it_is_defined() -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    source = "\n".join(
        [
            "class A:",
            "    def f(self) -> None:",
            body,
            "if True:",
            "    def g() -> None:",
            "        def h() -> None:",
            "            pass",
        ]
    )
    found = dict(_functions(ast.parse(source).body, ""))
    assert set(found) == {"A.f", "g", "g.h"}
    lengths = {name: (n.end_lineno or 0) - n.lineno + 1 for name, n in found.items()}
    assert lengths == {"A.f": LIMIT + 1, "g": 3, "g.h": 2}
