"""`forms add` refuses a pattern the linear-time engine cannot run (fields/patterns.py) in one
line naming what it uses, exit 2, nothing stored; a version stored before, in Python's
dialect, is refused when a job would read with it, and a new version takes its place."""

from __future__ import annotations

from pathlib import Path

from psycopg.types.json import Jsonb

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import write_book

FORM = """
name = "codes"
{skip}
[[fields]]
name = "code"
header = "Code"
pattern = '{pattern}'
"""


def form_file(tmp_path: Path, pattern: str, skip: str = "") -> Path:
    path = tmp_path / "codes.toml"
    path.write_text(FORM.format(pattern=pattern, skip=skip), encoding="utf-8")
    return path


def forms_stored(conn: Connection) -> int:
    row = conn.execute("SELECT count(*) AS n FROM forms").fetchone()
    assert row is not None
    return int(row["n"])


def test_forms_add_refuses_a_backreference_in_one_line(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    refused = cli("forms", "add", str(form_file(tmp_path, r"^(\d)\1$")))
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "field 'code': 'pattern' uses a backreference (\\1), which is not supported" in (
        refused.stderr
    )
    assert forms_stored(conn) == 0


def test_forms_add_refuses_look_around_in_skip_rows_where(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    skip = "skip_rows_where = { column = \"Code\", matches = '(?<!Sub)Total' }"
    refused = cli("forms", "add", str(form_file(tmp_path, "^[A-Z]+$", skip)))
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "skip_rows_where: 'matches' uses look-around" in refused.stderr
    assert forms_stored(conn) == 0


def test_a_version_stored_in_pythons_dialect_is_refused_until_replaced(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    assert cli("forms", "add", str(form_file(tmp_path, "^[A-Z]+$"))).exit_code == 0
    # What a version stored before looks like: a look-ahead Python's re ran.
    old = {"name": "codes", "fields": [{"name": "code", "header": "Code", "pattern": "^(?=A)"}]}
    conn.execute("UPDATE forms SET definition = %s", (Jsonb(old),))
    book = tmp_path / "codes.xlsx"
    write_book(book, [["ABC"], ["abc"]], ["Code"])
    refused = cli("submit", str(book), "--form", "codes", "--quiet")
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "field 'code': 'pattern' uses look-around" in refused.stderr
    assert conn.execute("SELECT id FROM import_jobs").fetchall() == []
    assert cli("forms", "add", str(form_file(tmp_path, "^A"))).exit_code == 0
    done = cli("submit", str(book), "--form", "codes", "--quiet")
    assert done.exit_code == 3, done.stderr  # "abc" does not begin with A
