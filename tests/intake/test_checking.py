"""`importer check FILE`: the import's own reading and validation, and nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import KEYED_FORM, add_form, orders_book, rejected_rows, write_book


def table_counts(conn: Connection) -> dict[str, int]:
    """Rows in every table of the schema: a check must leave each one as it was."""
    names = [
        row["relname"]
        for row in conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname"
        )
    ]
    counts = {}
    for name in names:
        row = conn.execute(f'SELECT count(*) AS n FROM "{name}"').fetchone()
        assert row is not None
        counts[name] = int(row["n"])
    return counts


def test_check_of_a_file_with_mistakes_changes_nothing_and_exits_3(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 45)
    before = table_counts(conn)
    result = cli("check", str(book.path))
    assert result.exit_code == 3, result.stderr
    assert table_counts(conn) == before
    assert (
        f"45 rows, {len(book.valid)} good, {len(book.invalid)} would be rejected" in result.stdout
    )
    assert "most common problems:" in result.stdout
    assert f"nothing was stored; to import it: importer submit {book.path}" in result.stdout

    checked = json.loads(cli("check", str(book.path), "--json").stdout)
    imported = cli("submit", str(book.path), "--quiet")
    assert imported.exit_code == 3
    # A file that checks with these rejected rows imports with exactly these.
    assert checked["rejected_rows"] == len(rejected_rows(conn, 1)) == len(book.invalid)
    assert checked["good_rows"] == len(book.valid)
    reasons = conn.execute(
        "SELECT count(*) AS n FROM import_row_errors WHERE import_job_id = 1"
    ).fetchone()
    assert reasons is not None
    assert sum(r["rows"] for r in checked["top_reasons"]) <= reasons["n"]


def test_a_clean_file_checks_with_exit_0(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "clean.xlsx", 12, bad_every=0)
    result = cli("check", str(book.path), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["total_rows"], data["good_rows"], data["rejected_rows"]) == (12, 12, 0)
    assert "inserted" not in data  # not a keyed form


def test_a_refused_header_is_exit_2_as_submit_would_say(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "typo.xlsx"
    write_book(book, [[1, "Ann", 3]], header=["Order ID", "Custmer", "Amount"])
    checked = cli("check", str(book), "--form", "orders")
    submitted = cli("submit", str(book), "--form", "orders")
    assert checked.exit_code == submitted.exit_code == 2
    assert checked.stderr == submitted.stderr
    fixed = cli("check", str(book), "--form", "orders", "--map", "Custmer=customer")
    assert fixed.exit_code == 0, fixed.stderr
    assert "--map Custmer=customer" in fixed.stdout  # the import command to run next


def test_a_keyed_form_says_what_an_import_would_insert_update_and_leave(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    first = orders_book(tmp_path / "first.xlsx", 20, bad_every=0)
    assert cli("submit", str(first.path), "--form", "ledger", "--quiet").exit_code == 0
    # Rows 1-10 again (5 of them changed), rows 21-25 new, and one key twice.
    rows = [list(r) for r in first.rows[:10]]
    for row in rows[:5]:
        row[2] = float(row[2]) + 1
    rows += [[i, f"new {i}", 1.5] for i in range(21, 26)]
    rows.append([21, "again", 2.5])
    second = tmp_path / "second.xlsx"
    write_book(second, rows)
    before = table_counts(conn)
    result = cli("check", str(second), "--form", "ledger", "--json")
    assert result.exit_code == 3, result.stderr
    data = json.loads(result.stdout)
    assert (data["inserted"], data["updated"], data["unchanged"]) == (5, 5, 5)
    assert data["rejected_rows"] == 1
    assert data["top_reasons"][0]["reason"].startswith("duplicate order_id")
    assert table_counts(conn) == before


def test_check_writes_the_rows_to_fix_as_the_import_would(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 45)
    before = table_counts(conn)
    target = tmp_path / "problems.xlsx"
    result = cli("check", str(book.path), "-o", str(target))
    assert result.exit_code == 3, result.stderr
    assert table_counts(conn) == before
    sheet = load_workbook(target).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == ["Order ID", "Customer", "Amount", "Problems", "Source row"]
    assert sorted(int(str(r[-1])) for r in rows[1:]) == sorted(book.invalid)
    assert all(isinstance(r[0], int) for r in rows[1:])  # typed, as submitted

    wrong = cli("check", str(book.path), "-o", str(tmp_path / "problems.txt"))
    assert wrong.exit_code == 2 and "must end in .xlsx or .csv" in wrong.stderr
