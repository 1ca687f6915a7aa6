"""Correcting rows without a workbook: ``Importer.correct`` and `importer correct`. The row
as last sent, with the cells named changed, goes in as a correction of its import, checked
by the form's rules (types, bounds, uniqueness with the import and its corrections); what
still fails is said row by row; a row imported already or never rejected, a column the
sheet lacks and an undone import are refused, nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.api.facade import Importer
from importer.config import Settings
from importer.database import Connection
from importer.errors import InputError, UsageError
from tests.conftest import Cli
from tests.support.corrections import claims, job_row, stored
from tests.support.jobs import KEYED_FORM, ORDERS_FORM, add_form, counts, orders_book

# Orders whose customer is unique across the import and its corrections.
UNIQUE_FORM = ORDERS_FORM.replace('type = "string"\n', 'type = "string"\nunique = true\n', 1)


@pytest.fixture
def origin(conn: Connection, cli: Cli, tmp_path: Path) -> int:
    add_form(conn, UNIQUE_FORM)
    book = orders_book(tmp_path / "orders.xlsx", 30, bad_every=6)  # rows 7, 13, 19, 25, 31
    assert cli("submit", str(book.path), "--form", "orders", "-q").exit_code == 3
    return 1


def test_rows_corrected_by_header_or_field_are_imported_and_what_still_fails_is_said(
    conn: Connection, settings: Settings, origin: int
) -> None:
    importer = Importer(settings=settings)
    result = importer.correct(
        origin,
        {
            7: {"Amount": "12"},  # the header, the value as typed
            13: {"amount": 4.5},  # the field, a number
            19: {"Amount": "twelve"},  # not a number
            25: {"Amount": 3, "Customer": "customer 0"},  # row 2 holds it already
        },
    )
    assert result.job.origin_job_id == origin and result.rows == [7, 13, 19, 25]
    assert result.imported == [7, 13]
    assert result.failing == {
        19: ["Amount: 'twelve' is not a number"],
        25: ["Customer: duplicate customer 'customer 0': already in row 2"],
    }
    assert stored(conn, result.job.id) == {7: (6, "customer 5", 12.0), 13: (12, "customer 11", 4.5)}
    assert (result.origin.fixed_rows, result.origin.still_open) == (2, 3)

    # Still open: corrected again, this time right; uniqueness holds with the corrections too.
    again = importer.correct(origin, {19: {"Amount": 1, "Customer": "customer 5"}})
    assert again.failing == {19: ["Customer: duplicate customer 'customer 5': already in row 7"]}
    # As last sent: the customers set above stay unless set again.
    fine = importer.correct(
        origin, {19: {"Customer": "customer 17"}, 25: {"Customer": "customer 23"}}
    )
    assert fine.failing == {} and fine.origin.still_open == 1
    assert claims(conn, origin) == {7: 2, 13: 2, 19: 4, 25: 4}


def test_rows_that_are_not_open_and_unknown_columns_are_refused_nothing_stored(
    conn: Connection, settings: Settings, origin: int
) -> None:
    importer = Importer(settings=settings)
    importer.correct(origin, {7: {"Amount": 1}})
    before = counts(conn)
    for changes, why in [
        ({7: {"Amount": 2}}, r"row 7 of job 1 was imported already, by job 2"),
        ({8: {"Amount": 2}}, r"row 8 is not one of job 1's rejected rows"),
        ({13: {"Price": 2}}, r"no column or field 'Price' in job 1's sheet \(its columns:"),
        ({}, r"say which rows to correct"),
    ]:
        with pytest.raises(UsageError, match=why):
            importer.correct(origin, changes)
    assert counts(conn) == before
    importer.undo(2)
    importer.undo(origin)
    with pytest.raises(InputError, match=r"job 1 was undone on .*: its rejected rows can no"):
        importer.correct(origin, {13: {"Amount": 2}})


def test_importer_correct_at_the_terminal(conn: Connection, cli: Cli, origin: int) -> None:
    done = cli("correct", "1", "--row", "7", "--set", "Amount=12")
    assert done.exit_code == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == [
        "row 7: imported by job 2 (a correction of job 1)",
        "job 1: rejected 5 · fixed later 1 · still open 4",
    ]
    wrong = cli("correct", "1", "--row", "13", "--set", "Amount=-3")
    assert wrong.exit_code == 4  # nothing imported: the one row still fails
    assert "row 13: still fails: Amount: '-3' is less than the minimum 0" in wrong.stdout
    bad = cli("correct", "1", "--row", "13", "--set", "Amount")
    assert bad.exit_code == 2 and '--set "Column=value"' in bad.stderr
    # Undone, the correction's row is open again, and counted so.
    assert cli("undo", "2").exit_code == 0
    assert "rejected 5 · fixed later" not in cli("status", "1").stdout
    assert job_row(conn, 1)["fixed_rows"] == 0


def test_history_names_the_import_a_corrected_row_belongs_to(
    conn: Connection, cli: Cli, settings: Settings, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    book = orders_book(tmp_path / "ledger.xlsx", 12, bad_every=4)  # rows 5, 9, 13
    assert cli("submit", str(book.path), "--form", "ledger", "-q").exit_code == 3
    Importer(settings=settings).correct(1, {5: {"Amount": 8}})
    shown = cli("history", "ledger", "4")
    assert shown.exit_code == 0, shown.stderr
    header, _rule, now = shown.stdout.splitlines()[1:4]
    assert "fixes job" in header
    assert now.split()[:4] == ["now", "2", "5", "1"]  # job 2 wrote it, as row 5 of job 1
    versions = Importer(settings=settings).history("ledger", ["4"])
    assert versions.current is not None and versions.current.corrects == 1


def test_a_keyed_forms_key_is_unique_within_the_import_and_its_corrections(
    conn: Connection, cli: Cli, settings: Settings, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    book = orders_book(tmp_path / "ledger.xlsx", 12, bad_every=4)  # rows 5, 9, 13
    assert cli("submit", str(book.path), "--form", "ledger", "-q").exit_code == 3
    importer = Importer(settings=settings)
    # Row 5 fixed with the key row 2 holds (order 1): a repeat in the import, not an update.
    first = importer.correct(1, {5: {"Order ID": 1, "Amount": 8}, 9: {"Amount": 8}})
    assert first.failing == {
        5: ["Order ID: duplicate order_id: the same key is already in row 2 of job 1"]
    }
    # And with the key a correction stored (row 9's, order 8).
    second = importer.correct(1, {5: {"Order ID": 8}})
    assert second.failing == {
        5: ["Order ID: duplicate order_id: the same key is already in row 9 of job 1"]
    }
    ledger = {
        r["order_id"]: (r["import_job_id"], r["row_number"], float(r["amount"]))
        for r in conn.execute("SELECT * FROM forms.ledger").fetchall()
    }
    assert ledger[1] == (1, 2, 1.0) and ledger[8] == (2, 9, 8.0)  # neither overwritten
    assert importer.correct(1, {5: {"Order ID": 4}}).failing == {}
