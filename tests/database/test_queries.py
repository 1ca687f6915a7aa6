"""Named queries: statements are never formatted from values, and the SQL files' comments
name modules that exist.

Named queries are typed ``LiteralString`` and the connector's ``execute`` takes psycopg's
query types, so a checker that enforces PEP 675 (pyright) refuses a formatted statement.
mypy reads ``LiteralString`` as ``str`` and cannot, so the same rule is checked here on the
source: the statement given to ``execute``, ``executemany``, ``copy`` or ``sql.SQL`` is never
an f-string, ``%``/``+`` of strings, or ``.format()`` of one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from importer.database import queries

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "importer"
SQL = ROOT / "sql"
TAKES_A_STATEMENT = {"execute", "executemany", "copy", "SQL"}


def _formatted(node: ast.expr) -> bool:
    """A string made from values at run time (what a LiteralString parameter refuses)."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.FormattedValue) for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return _stringy(node.left) or _stringy(node.right)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and _stringy(node.func.value)
    )


def _stringy(node: ast.expr) -> bool:
    literal = isinstance(node, ast.Constant) and isinstance(node.value, str)
    return literal or isinstance(node, ast.JoinedStr) or _formatted(node)


def formatted_statements(source: str) -> list[int]:
    """Lines where a statement given to the database is formatted from values."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in TAKES_A_STATEMENT and _formatted(node.args[0]):
            found.append(node.lineno)
    return found


def test_the_check_finds_a_formatted_statement() -> None:
    snippet = (
        "conn.execute(f'SELECT * FROM {table}')\n"
        "conn.execute('SELECT %s' % value)\n"
        "cur.copy('COPY ' + table + ' FROM STDIN')\n"
        "sql.SQL('SELECT {}'.format(column))\n"
        "conn.execute(queries().get_import_job, {'id': job_id})\n"
        "conn.execute(sql.SQL('LISTEN {}').format(sql.Identifier(channel)))\n"
        "conn.execute(f'SELECT 1')\n"  # an f-string with nothing in it is a literal
    )
    assert formatted_statements(snippet) == [1, 2, 3, 4]


def test_no_statement_in_the_package_is_formatted_from_values() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in formatted_statements(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_a_named_query_is_the_text_of_its_block() -> None:
    text = (SQL / "queries" / "migrations.sql").read_text(encoding="utf-8")
    assert queries().applied_migrations == "SELECT version FROM schema_migrations;"
    assert queries().applied_migrations in text
    assert "applied_migrations" in queries() and "no_such_query" not in queries()


# importer/some/module.py or importer/some/package/ in a comment of a .sql file.
MODULE_PATH = re.compile(r"\bimporter/[\w/]+(?:\.py\b|/)")


def test_the_sql_files_name_modules_that_exist() -> None:
    named = {
        (path.relative_to(ROOT).as_posix(), match.group(0))
        for path in sorted(SQL.rglob("*.sql"))
        for match in MODULE_PATH.finditer(path.read_text(encoding="utf-8"))
    }
    assert named, "the SQL files name the modules that own them"
    missing = sorted((where, module) for where, module in named if not (ROOT / module).exists())
    assert missing == []


def test_each_query_file_names_a_module_that_runs_its_queries() -> None:
    """A query file's header names its owner; the owner (or a module it names) uses them."""
    for path in sorted((SQL / "queries").glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        owners = MODULE_PATH.findall(text.split("-- name:", 1)[0])
        names = re.findall(r"^--\s*name:\s*(\w+)", text, re.MULTILINE)
        if not owners:
            continue  # a file without an owner line (session settings, the embedded server)
        sources = " ".join((ROOT / owner).read_text(encoding="utf-8") for owner in owners)
        # Run as queries().name, or by name where a repository composes its statements
        # (batches.py's _statement("name")).
        unused = [n for n in names if not re.search(rf"\.{n}\b|[\"']{n}[\"']", sources)]
        assert unused == [], f"{path.name}: queries its named owners do not run"
