"""The layering rules of docs/ARCHITECTURE.md, checked on the source itself."""

from __future__ import annotations

import ast
import re
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
