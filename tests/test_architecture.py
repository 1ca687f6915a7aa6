"""The layering rules of docs/ARCHITECTURE.md, checked on the source itself.

The import graph is read from the source (ast), never by importing it: every import
statement counts, at module level or inside a function, except those under
`if TYPE_CHECKING:`, which Python never runs.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from importer.database import Connection
from importer.states import JobStatus, TimerStatus

PACKAGE = Path(__file__).resolve().parent.parent / "importer"
DATABASE_LAYER = ("database", "repositories")
# A string that starts like a statement: SQL belongs in sql/, not in Python.
SQL_TEXT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|LISTEN|NOTIFY)\s")


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def layer_of(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0]


def test_only_the_database_layer_imports_psycopg() -> None:
    offenders = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            psycopg = any(n == "psycopg" or n.startswith("psycopg.") for n in names)
            if psycopg and layer_of(path) not in DATABASE_LAYER:
                offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def test_no_sql_text_outside_the_sql_folder() -> None:
    offenders = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # Identifiers composed with psycopg.sql.SQL(...) are allowed: they are not statements.
        composed = {
            id(arg)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "SQL"
            for arg in node.args
        }
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings | composed
                and SQL_TEXT.match(node.value)
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


def test_nothing_below_the_cli_prints() -> None:
    offenders = []
    for path in modules():
        if layer_of(path) == "cli":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


@pytest.mark.parametrize(
    ("table", "enum"), [("import_jobs", JobStatus), ("timer_jobs", TimerStatus)]
)
def test_the_status_enums_are_what_the_schema_allows(
    conn: Connection, table: str, enum: type[JobStatus] | type[TimerStatus]
) -> None:
    row = conn.execute(
        "SELECT pg_get_constraintdef(c.oid) AS check FROM pg_constraint c"
        " WHERE c.conrelid = %s::regclass AND c.contype = 'c'"
        " AND pg_get_constraintdef(c.oid) LIKE '%%status%%'",
        (table,),
    ).fetchone()
    assert row is not None
    allowed = set(re.findall(r"'([a-z_]+)'::text", row["check"]))
    assert allowed == {status.value for status in enum}


# --- the import graph ------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported: X.Y for `from X import Y` when X.Y is a module
    line: int
    type_only: bool  # under `if TYPE_CHECKING:`


def module_names(package: Path) -> dict[str, Path]:
    """Each module of the package by its dotted name (a package by its __init__.py)."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(
    node: ast.AST, type_only: bool = False
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement under `node`, wherever it is, and whether only a type checker
    runs it."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node, type_only
    elif isinstance(node, ast.If) and _is_type_checking(node.test):
        for statement in node.body:
            yield from _statements(statement, True)
        for statement in node.orelse:
            yield from _statements(statement, type_only)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _statements(child, type_only)


def imports_of(name: str, path: Path, known: Mapping[str, Path]) -> list[Import]:
    """The modules `name` imports; names outside the package are kept as written."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node, type_only in _statements(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            # `from X import Y` imports the module X.Y when there is one, else a name of X.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        found += [Import(name, target, node.lineno, type_only) for target in targets]
    return found


def all_imports(package: Path = PACKAGE) -> list[Import]:
    known = module_names(package)
    return [found for name, path in known.items() for found in imports_of(name, path, known)]


def import_graph(package: Path) -> dict[str, set[str]]:
    """module -> the modules of the package it imports when it runs (TYPE_CHECKING aside).

    Importing a.b.c also runs the __init__ of a and a.b, but that is no edge here: the
    package's own imports are its __init__'s edges, and counting the implied ones would
    make every package that re-exports its modules a cycle with each of them.
    """
    known = module_names(package)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for found in all_imports(package):
        if not found.type_only and found.target in known and found.target != found.source:
            graph[found.source].add(found.target)
    return graph


def _reachable(graph: Mapping[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


CYCLES_SHOWN = 50  # a tangle has very many; the first ones say where it is


def _cycles_from(
    graph: Mapping[str, set[str]], path: list[str], mates: set[str], found: list[list[str]]
) -> None:
    """Extend `path` by each of `mates` not on it yet; record it when it closes."""
    for nxt in sorted(graph[path[-1]]):
        if nxt == path[0]:
            found.append([*path, nxt])
        elif nxt in mates and nxt not in path and len(found) < CYCLES_SHOWN:
            _cycles_from(graph, [*path, nxt], mates, found)


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The graph's elementary cycles (the first CYCLES_SHOWN), each once, from its first
    module in sorted order: ["a", "b", "a"]. Only modules that reach each other are walked."""
    reach = {name: _reachable(graph, name) for name in graph}
    found: list[list[str]] = []
    for start in sorted(graph):
        # The modules on a cycle through `start` that sort after it (earlier ones began theirs).
        mates = {other for other in reach[start] if start in reach[other] and other > start}
        if start in reach[start]:
            _cycles_from(graph, [start], mates, found)
    return found[:CYCLES_SHOWN]


def _cycle_lines(cycles: list[list[str]]) -> str:
    return "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_package_has_no_import_cycle() -> None:
    cycles = import_cycles(import_graph(PACKAGE))
    assert not cycles, f"import cycles (function-level imports count):\n{_cycle_lines(cycles)}"


def _write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_cycle_detector_finds_a_cycle_through_a_function_level_import(
    tmp_path: Path,
) -> None:
    package = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",  # the module pkg.b
            "pkg/b.py": "def later():\n    from .c import thing\n",
            "pkg/c.py": "import pkg.a\nthing = 1\n",
            "pkg/d.py": "from pkg.c import thing\n",  # on no cycle
        },
    )
    cycles = import_cycles(import_graph(package))
    assert _cycle_lines(cycles) == "pkg.a -> pkg.b -> pkg.c -> pkg.a"


def test_the_cycle_detector_leaves_out_type_checking_and_implied_package_imports(
    tmp_path: Path,
) -> None:
    package = _write(
        tmp_path,
        {
            # A package that re-exports its module: the module's own imports do not go
            # through the package's __init__ ...
            "pkg/__init__.py": "from pkg.a import A\n",
            "pkg/a.py": "from pkg.sub.b import B\nA = B\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg.a import A\n"
                "else:\n    from pkg.sub import c\n"
                "B = 1\n"
            ),
            "pkg/sub/c.py": "from . import b\n",  # ... but this closes a cycle: b -> c -> b
        },
    )
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.sub.c"}  # the TYPE_CHECKING import is no edge
    assert _cycle_lines(import_cycles(graph)) == "pkg.sub.b -> pkg.sub.c -> pkg.sub.b"


# --- who may import what ---------------------------------------------------------------------


def _top(module: str) -> str:
    """The part of the tool a module is in: importer.forms.validation -> "forms"; the root
    package's own __init__ is "importer"."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_only_the_cli_imports_rich_or_typer() -> None:
    offenders = [
        f"{found.source}:{found.line} imports {found.target}"
        for found in all_imports()
        if found.target.split(".")[0] in ("rich", "typer") and _top(found.source) != "cli"
    ]
    assert offenders == []


WEB_FRAMEWORK = ("starlette", "uvicorn", "jinja2", "multipart", "python_multipart", "fastapi")


def test_only_the_web_front_end_imports_the_web_framework() -> None:
    offenders = [
        f"{found.source}:{found.line} imports {found.target}"
        for found in all_imports()
        if found.target.split(".")[0] in WEB_FRAMEWORK and _top(found.source) != "web"
    ]
    assert offenders == []


def test_the_web_front_end_holds_no_sql_and_no_engine() -> None:
    # A front end over the facade, as the command line is: what it needs of the services
    # comes through importer.api (a type it only names, under TYPE_CHECKING, may be from below).
    below = {"database", "excel", "columnar", "running", "intake", "daemons", "fields"}
    offenders = [
        f"{found.source}:{found.line} imports {found.target}"
        for found in all_imports()
        if _top(found.source) == "web"
        and not found.type_only
        and found.target.split(".")[0] == "importer"
        and _top(found.target) in below
    ]
    assert offenders == []


# What importer/database may use of the tool: the shared vocabulary below it, and the SQL
# (importer.sql, its queries and migrations, is data that ships in the package).
DATABASE_MAY_USE = {"errors", "states", "config", "identity", "database"}


def test_the_database_layer_imports_nothing_of_the_tool_above_it() -> None:
    offenders = [
        f"{found.source}:{found.line} imports {found.target}"
        for found in all_imports()
        if _top(found.source) == "database"
        and found.target.split(".")[0] == "importer"
        and _top(found.target) not in DATABASE_MAY_USE
    ]
    assert offenders == []


def test_no_string_in_the_database_layer_names_a_module_above_it() -> None:
    # A module named in a string is imported all the same (importlib), out of the graph's sight.
    named = re.compile(r"\bimporter\.(\w+)")
    offenders = []
    for path in sorted((PACKAGE / "database").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
            if id(node) not in docstrings and any(
                match.group(1) not in DATABASE_MAY_USE | {"sql"}
                for match in named.finditer(node.value)
            ):
                offenders.append(f"{where} {node.value!r}")
    assert offenders == []


def test_no_module_imports_a_private_name_of_another() -> None:
    offenders = []
    known = module_names(PACKAGE)
    for name, path in known.items():
        for node, _ in _statements(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("importer"):
                private = [
                    alias.name
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
                if private and node.module != name:
                    offenders.append(f"{name}:{node.lineno} {node.module} {private}")
    assert offenders == []


# The layers, bottom up: a module imports only from its own layer or lower ones (type-only
# imports count: a signature names what it depends on). Each part sits where the import
# graph puts it; parts of one layer may import each other (fields reads excel's values,
# intake fires timers, report takes intake's check report).
LAYERS: dict[str, int] = {
    # what everything shares: errors, states, settings, ids, the retry schedule, thread names
    "errors": 0,
    "version": 0,
    "states": 0,
    "identity": 0,
    "retry_policy": 0,
    "thread_names": 0,
    "config": 0,
    # cells: reading workbooks, and what a typed field makes of a cell
    "excel": 1,
    "fields": 1,
    # forms: their definitions, header matching and row validation (no database)
    "forms": 2,
    # the connector, its errors, named queries, migrations
    "database": 3,
    # the only SQL callers: jobs, forms, batches, timers, the fleet
    "repositories": 4,
    # the services: take a file in, give rejected rows back, run jobs, fire timers, export
    "intake": 5,
    "report": 5,
    "exporting": 5,
    "running": 5,
    "timers": 5,
    "columnar": 5,  # the columnar path's batches (beside running's)
    # the long-running processes over the services
    "daemons": 6,
    # the services in one object; the root package hands it out lazily
    "api": 7,
    "importer": 7,
    # parse, call, render: the command line, and the web page with its JSON API
    "cli": 8,
    "web": 8,
    "__main__": 8,
}
# Imports that break the layers, each with why. The test also fails when one is gone, so
# the list can only shrink.
LAYER_BREAKS: dict[tuple[str, str], str] = {}


def test_each_module_imports_only_from_its_layer_or_below() -> None:
    imports = [found for found in all_imports() if found.target.split(".")[0] == "importer"]
    parts = {_top(found.source) for found in imports} | {_top(found.target) for found in imports}
    assert sorted(parts - set(LAYERS)) == [], "give each part of the tool a layer"
    upward = {
        (found.source, found.target)
        for found in imports
        if LAYERS[_top(found.target)] > LAYERS[_top(found.source)]
    }
    new = [f"{source} -> {target}" for source, target in sorted(upward - LAYER_BREAKS.keys())]
    mended = [f"{source} -> {target}" for source, target in sorted(LAYER_BREAKS.keys() - upward)]
    assert new == [], "imports from a higher layer:\n" + "\n".join(new)
    assert mended == [], "gone, take them out of LAYER_BREAKS:\n" + "\n".join(mended)


def _loaded_by(*args: str) -> tuple[str, list[str]]:
    """What ``importer ARGS`` prints last, and the modules it loaded."""
    shown = (
        "import sys\n"
        "from importer.cli import run\n"
        f"run({list(args)!r})\n"
        "print()\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", shown],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = result.stdout.splitlines()
    return "\n".join(lines[:-2]), lines[-1].split()


def test_importer_help_loads_no_database_layer() -> None:
    # Why the CLI's and the api's imports of the services are function-level: start-up.
    shown, loaded = _loaded_by("--help")
    assert "Usage:" in shown
    heavy = ("psycopg", "importer.database", "importer.repositories", "openpyxl")
    found = [name for name in loaded if name.startswith(heavy)]
    named = [name for name in found if name.startswith("importer") or "." not in name]
    assert found == [], "--help loads " + " ".join(named)


def test_importer_version_loads_no_workbook_reader() -> None:
    # --version reads the database's schema version: the database layer, and nothing more.
    shown, loaded = _loaded_by("--version")
    assert shown.startswith("importer ") and "database:" in shown
    heavy = ("openpyxl", "python_calamine", "polars", "fastexcel", "numpy", "xlrd")
    found = [name for name in loaded if name.startswith(heavy)]
    assert found == [], "--version loads " + " ".join(found)
