"""Corrections in the engine: a workbook whose rows carry the keys of an earlier job's
rejected rows is imported as a correction of that job, under its row numbers, each row at
most once; anything that cannot be one is refused before anything is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from importer.api.facade import Importer
from importer.api.requests import SubmitRequest
from importer.config import Settings
from importer.database import Connection
from importer.errors import InputError
from importer.states import JobStatus
from tests.conftest import Cli
from tests.support.corrections import claims, job_row, keyed_book, stored
from tests.support.jobs import Book, add_form, counts, orders_book


@pytest.fixture
def origin(conn: Connection, settings: Settings, tmp_path: Path) -> tuple[int, Book]:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 40, bad_every=8)  # rows 9, 17, 25, 33, 41
    job = Importer(settings=settings).submit(book.path, form="orders")
    assert job.status is JobStatus.PARTIALLY_SUCCEEDED
    return job.id, book


def fixed(book: Book, rows: list[int], amount: float = 12.5) -> list[tuple[int | None, list[Any]]]:
    """The book's rows of these numbers with their amount fixed."""
    return [(n, [*book.rows[n - 2][:2], amount]) for n in rows]


def submit(settings: Settings, path: Path, **options: object) -> int:
    outcome = Importer(settings=settings).submit_workbook(SubmitRequest(path, **options))  # type: ignore[arg-type]
    return outcome.job.id


def test_the_fixed_rows_join_their_import_under_its_row_numbers_and_added_rows_after_it(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    rows = [*fixed(book, [9, 17, 25]), (None, [900, "a new customer", 3])]
    correction = submit(settings, keyed_book(conn, tmp_path / "fix.xlsx", origin_id, rows))

    job = job_row(conn, correction)
    assert job["origin_job_id"] == origin_id and job["status"] == "succeeded"
    assert (job["success_rows"], job["failed_rows"], job["total_rows"]) == (4, 0, 4)
    # The origin's last row is 41: the added row is numbered after it.
    assert job["correction"]["first_new_row"] == 42
    assert stored(conn, correction) == {
        9: (8, "customer 7", 12.5),
        17: (16, "customer 15", 12.5),
        25: (24, "customer 23", 12.5),
        42: (900, "a new customer", 3.0),
    }
    # Every row stored is taken (a number is stored once), but the origin counts as fixed
    # only its own rows.
    assert claims(conn, origin_id) == {
        9: correction,
        17: correction,
        25: correction,
        42: correction,
    }
    assert job_row(conn, origin_id)["fixed_rows"] == 3


def test_the_same_fixed_workbook_twice_stores_nothing_the_second_time(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    path = keyed_book(conn, tmp_path / "fix.xlsx", origin_id, fixed(book, [9, 17]))
    first = submit(settings, path)
    before = counts(conn)

    # The same bytes: the same correction, found again.
    assert submit(settings, path) == first
    # Saved again (other bytes), or forced: every row was imported already: refused.
    again = keyed_book(conn, tmp_path / "fix again.xlsx", origin_id, fixed(book, [17, 9], 99))
    for request in (SubmitRequest(again), SubmitRequest(path, force=True)):
        with pytest.raises(InputError, match=r"nothing to correct: its 2 rows of job \d+ were"):
            Importer(settings=settings).submit_workbook(request)
    assert counts(conn) == before
    assert stored(conn, first) == {9: (8, "customer 7", 12.5), 17: (16, "customer 15", 12.5)}
    assert job_row(conn, origin_id)["fixed_rows"] == 2


def test_a_row_fixed_already_is_rejected_in_a_later_correction_and_the_others_imported(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    first = submit(settings, keyed_book(conn, tmp_path / "a.xlsx", origin_id, fixed(book, [9])))
    second = submit(
        settings, keyed_book(conn, tmp_path / "b.xlsx", origin_id, fixed(book, [9, 17], 7))
    )
    job = job_row(conn, second)
    assert (job["success_rows"], job["failed_rows"]) == (1, 1)
    assert stored(conn, first) == {9: (8, "customer 7", 12.5)}
    assert stored(conn, second) == {17: (16, "customer 15", 7.0)}
    error = conn.execute(
        "SELECT row_number, message FROM import_row_errors WHERE import_job_id = %s", (second,)
    ).fetchall()
    assert [(e["row_number"], e["message"]) for e in error] == [
        (9, f"imported already, by job {first} (a correction of job {origin_id}):"
            " not imported again")
    ]  # fmt: skip
    assert job_row(conn, origin_id)["fixed_rows"] == 2


def test_a_row_still_wrong_stays_open_and_a_later_correction_fixes_it(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    still_wrong = [(25, [24, "customer 23", -1])]
    path = keyed_book(conn, tmp_path / "a.xlsx", origin_id, [*fixed(book, [9]), *still_wrong])
    first = submit(settings, path)
    assert (job_row(conn, first)["success_rows"], job_row(conn, first)["failed_rows"]) == (1, 1)
    assert job_row(conn, origin_id)["fixed_rows"] == 1
    rejected = conn.execute(
        "SELECT row_number FROM import_rejected_rows WHERE import_job_id = %s", (first,)
    ).fetchall()
    assert [r["row_number"] for r in rejected] == [25]  # under the origin's number

    second = submit(settings, keyed_book(conn, tmp_path / "b.xlsx", origin_id, fixed(book, [25])))
    assert stored(conn, second) == {25: (24, "customer 23", 12.5)}
    assert claims(conn, origin_id) == {9: first, 25: second}
    assert job_row(conn, origin_id)["fixed_rows"] == 2


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("{origin}-9-0000000000000000", r"row 2's key \(the hidden 'Row key' column\) was changed"),
        ("{origin}-10-{sig}", r"row 2's key .* was changed"),  # another row's number
        ("banana", r"row 2's key .* was changed"),
    ],
)
def test_a_changed_key_is_refused_and_nothing_is_stored(
    conn: Connection,
    settings: Settings,
    origin: tuple[int, Book],
    tmp_path: Path,
    key: str,
    why: str,
) -> None:
    origin_id, book = origin
    from importer.report.row_keys import row_key
    from importer.repositories.corrections import signing_key

    real = row_key(signing_key(conn), origin_id, 9)
    text = key.format(origin=origin_id, sig=real.rsplit("-", 1)[1])
    path = keyed_book(
        conn, tmp_path / "fix.xlsx", origin_id, fixed(book, [9, 17]), key_text={9: text}
    )
    before = counts(conn)
    with pytest.raises(InputError, match=why):
        submit(settings, path)
    assert counts(conn) == before
    assert claims(conn, origin_id) == {}


def test_a_copied_row_with_its_key_is_refused(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    path = keyed_book(conn, tmp_path / "fix.xlsx", origin_id, fixed(book, [9, 17, 9]))
    with pytest.raises(InputError, match=r"rows 2 and 4 carry the same key \(row 9 of job"):
        submit(settings, path)


def test_the_error_workbook_of_an_undone_job_is_refused(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    path = keyed_book(conn, tmp_path / "fix.xlsx", origin_id, fixed(book, [9]))
    Importer(settings=settings).undo(origin_id)
    before = counts(conn)
    with pytest.raises(InputError, match=rf"job {origin_id} was undone on .*: its rejected rows"):
        submit(settings, path)
    assert counts(conn) == before

    # As new rows, it is a plain import.
    job = job_row(conn, submit(settings, path, as_new=True))
    assert job["origin_job_id"] is None and job["success_rows"] == 1


def test_undoing_a_correction_opens_its_rows_again_and_the_origin_goes_only_with_cascade(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    from importer.repositories.undo import LaterJobsChanged

    origin_id, book = origin
    importer = Importer(settings=settings)
    first = submit(settings, keyed_book(conn, tmp_path / "a.xlsx", origin_id, fixed(book, [9])))
    importer.undo(first)
    assert claims(conn, origin_id) == {} and stored(conn, first) == {}
    assert job_row(conn, origin_id)["fixed_rows"] == 0
    # Open again: the same workbook (its job undone, its key released) corrects it anew.
    second = submit(
        settings, keyed_book(conn, tmp_path / "b.xlsx", origin_id, fixed(book, [9, 17]))
    )
    assert claims(conn, origin_id) == {9: second, 17: second}

    with pytest.raises(
        LaterJobsChanged, match=rf"corrections imported its rejected rows since: {second};"
    ):
        importer.undo(origin_id)
    report = importer.undo(origin_id, cascade=True)
    assert [j.job_id for j in report.jobs] == [second, origin_id]
    assert stored(conn, second) == {} and stored(conn, origin_id) == {}
    assert claims(conn, origin_id) == {}
    assert {job_row(conn, j)["status"] for j in (first, second, origin_id)} == {"reverted"}


def test_the_error_workbook_of_a_purged_job_is_refused(
    conn: Connection, settings: Settings, origin: tuple[int, Book], tmp_path: Path
) -> None:
    from datetime import timedelta

    origin_id, book = origin
    path = keyed_book(conn, tmp_path / "fix.xlsx", origin_id, fixed(book, [9]))
    Importer(settings=settings).purge(timedelta(0))
    before = counts(conn)
    with pytest.raises(InputError, match=rf"job {origin_id} was purged by retention on "):
        submit(settings, path)
    assert counts(conn) == before


def test_form_version_latest_validates_by_the_forms_current_version(
    conn: Connection, cli: Cli, origin: tuple[int, Book], tmp_path: Path
) -> None:
    from tests.support.jobs import ORDERS_FORM

    origin_id, book = origin
    add_form(conn, ORDERS_FORM.replace("min = 0", "min = -10"))  # version 2: -5 is fine
    rows = [(n, book.rows[n - 2]) for n in (9, 17)]  # sent back unchanged: amount -5
    path = keyed_book(conn, tmp_path / "fix.xlsx", origin_id, rows)
    assert cli("submit", str(path), "-q").exit_code == 4  # the job's version 1: still wrong
    latest = cli("submit", str(path), "--force", "--form-version", "latest")
    assert latest.exit_code == 0, latest.stderr
    assert "validated by form orders version 2 (the latest)" in latest.stderr
    job = job_row(conn, 3)
    assert (job["form_version"], job["success_rows"]) == (2, 2)
    assert stored(conn, 3) == {9: (8, "customer 7", -5.0), 17: (16, "customer 15", -5.0)}
