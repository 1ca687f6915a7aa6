"""The columnar path (importer/columnar) stores exactly what the row path stores: the same
rows and values, the same rejected rows with the same messages and typed cells, the same
counters; on a workbook whose columns change cell type row by row (numbers in a 00000 format
beside texts, date cells beside ISO texts, booleans beside "Yes"/"no"), and on a table of
the user's whose constraints refuse rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import importer.columnar
from bench.workbooks import FORM, _write
from importer.database import Connection
from tests.conftest import Cli
from tests.running.test_constraint_rows import rows_and_refusals, shop
from tests.support.jobs import add_form, write_book

FIELDS = "order_id, customer_no, customer, email, order_date, zip, amount, status, paid"


def opened(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each run read its sheet as columns (open_columnar gave a sheet)."""
    seen: list[bool] = []
    original = importer.columnar.open_columnar

    def recording(*args: Any, **kwargs: Any) -> Any:
        sheet = original(*args, **kwargs)
        seen.append(sheet is not None)
        return sheet

    monkeypatch.setattr(importer.columnar, "open_columnar", recording)
    return seen


def run_both(cli: Cli, monkeypatch: pytest.MonkeyPatch, book: Path, form: str) -> list[int]:
    """The job of each path: the row path's, then the columnar path's."""
    seen = opened(monkeypatch)
    ids: list[int] = []
    for columnar in (False, True):
        if columnar:
            monkeypatch.setenv("IMPORTER_TEST_COLUMNAR", "1")
        else:
            monkeypatch.delenv("IMPORTER_TEST_COLUMNAR", raising=False)
        submitted = cli("submit", str(book), "--form", form, "--detach", "--force", "--quiet")
        assert submitted.exit_code == 0, submitted.stderr
        worked = cli("worker", "--once", "--concurrency", "1")
        assert worked.exit_code == 0, worked.stderr
        ids.append(len(ids) + 1)
    assert seen == [False, True]
    return ids


def rows_of(conn: Connection, query: str, job: int) -> list[tuple[Any, ...]]:
    return [tuple(r.values()) for r in conn.execute(query, {"job": job}).fetchall()]


def same_outcome(conn: Connection, table: str, columns: str, jobs: list[int]) -> None:
    row_path, columnar = jobs
    queries = [
        f"SELECT {columns}, row_number FROM {table} WHERE import_job_id = %(job)s"
        " ORDER BY row_number",
        "SELECT row_number, row_values, row_cells FROM import_rejected_rows"
        " WHERE import_job_id = %(job)s ORDER BY row_number",
        "SELECT row_number, column_name, raw_value, message FROM import_row_errors"
        " WHERE import_job_id = %(job)s ORDER BY row_number, id",
        "SELECT status, total_rows, success_rows, failed_rows, last_row FROM import_jobs"
        " WHERE id = %(job)s",
    ]
    for query in queries:
        expected = rows_of(conn, query, row_path)
        assert expected, query
        assert rows_of(conn, query, columnar) == expected, query


@pytest.mark.slow
def test_a_sheet_of_mixed_cell_types_is_stored_alike(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "orders.xlsx"
    _write(book, 3_000, 0.05, 0.0)
    add_form(conn, FORM)
    jobs = run_both(cli, monkeypatch, book, "bench_orders")
    same_outcome(conn, "forms.bench_orders", FIELDS, jobs)
    rejected = conn.execute("SELECT count(*) AS n FROM import_rejected_rows").fetchone()
    assert rejected is not None and rejected["n"] > 100  # both paths rejected the flawed rows


def test_rows_a_users_table_refuses_are_rejected_alike(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop(conn)
    rows, refused = rows_and_refusals(40)
    book = tmp_path / "shop.xlsx"
    write_book(book, rows, ["Order", "Customer", "Amount", "Code"])
    seen = opened(monkeypatch)
    monkeypatch.setenv("IMPORTER_TEST_COLUMNAR", "1")
    assert cli("submit", str(book), "--form", "shop", "--detach", "--quiet").exit_code == 0
    assert cli("worker", "--once").exit_code == 0
    found = conn.execute(
        "SELECT row_number, message FROM import_row_errors ORDER BY row_number"
    ).fetchall()
    assert {r["row_number"] for r in found} == set(refused)
    for r in found:
        assert refused[r["row_number"]] in r["message"]
    assert seen == [True]
    stored = conn.execute("SELECT count(*) AS n FROM shop_orders").fetchone()
    assert stored is not None and stored["n"] == len(rows) - len(refused)
