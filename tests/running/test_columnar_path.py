"""The columnar path (importer/columnar) stores exactly what the row path stores: the same
rows and values, the same rejected rows with the same messages and typed cells, the same
counters; on a workbook whose columns change cell type row by row (numbers in a 00000 format
beside texts, date cells beside ISO texts, booleans beside "Yes"/"no"), and on a table of
the user's whose constraints refuse rows."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

import importer.columnar
from bench import mixed_books
from bench.workbooks import FORM, _write
from importer.columnar import SWITCH
from importer.database import Connection
from tests.conftest import Cli
from tests.running.test_constraint_rows import rows_and_refusals, shop
from tests.support.jobs import add_form, killed_submit, write_book

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


def run_both(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, book: Path, form: str, *, detach: bool = True
) -> list[int]:
    """The job of each path: the row path's, then the columnar path's (submitted for the
    workers, or run by the submit itself)."""
    seen = opened(monkeypatch)
    ids: list[int] = []
    for columnar in (False, True):
        if columnar:
            monkeypatch.setenv(SWITCH, "1")
        else:
            monkeypatch.delenv(SWITCH, raising=False)
        how = ["--detach"] if detach else []
        submitted = cli("submit", str(book), "--form", form, *how, "--force", "--quiet")
        assert submitted.exit_code in (0, 3), submitted.stderr  # 3: rows were rejected
        if detach:
            worked = cli("worker", "--once", "--concurrency", "1")
            assert worked.exit_code == 0, worked.stderr
        ids.append(len(ids) + 1)
    assert seen == [True]  # the columnar run's (the row path's run never asks)
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
@pytest.mark.parametrize("detach", [True, False], ids=["worker", "foreground"])
def test_a_sheet_of_mixed_cell_types_is_stored_alike(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, detach: bool
) -> None:
    book = tmp_path / "orders.xlsx"
    _write(book, 3_000, 0.05, 0.0)
    add_form(conn, FORM)
    jobs = run_both(cli, monkeypatch, book, "bench_orders", detach=detach)
    same_outcome(conn, "forms.bench_orders", FIELDS, jobs)
    rejected = conn.execute("SELECT count(*) AS n FROM import_rejected_rows").fetchone()
    assert rejected is not None and rejected["n"] > 100  # both paths rejected the flawed rows


def test_a_sheet_split_on_worker_processes_is_stored_alike(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from importer.columnar import sheet
    from importer.excel.xlsx_split import WORKERS_SWITCH

    book = tmp_path / "orders.xlsx"
    _write(book, 1_500, 0.05, 0.0)
    add_form(conn, FORM)
    monkeypatch.setattr(sheet, "PIECE_BYTES", 16 << 10)  # ~50 rows a piece
    monkeypatch.setenv(WORKERS_SWITCH, "2")
    jobs = run_both(cli, monkeypatch, book, "bench_orders", detach=False)
    same_outcome(conn, "forms.bench_orders", FIELDS, jobs)


def test_rows_a_users_table_refuses_are_rejected_alike(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop(conn)
    rows, refused = rows_and_refusals(40)
    book = tmp_path / "shop.xlsx"
    write_book(book, rows, ["Order", "Customer", "Amount", "Code"])
    seen = opened(monkeypatch)
    monkeypatch.setenv(SWITCH, "1")
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


ODD_FORM = """
name = "odd"
[[fields]]
name = "label"
header = "Label"
type = "string"
max_length = 20
[[fields]]
name = "code"
header = "Code"
type = "string"
pattern = "^[A-Z0-9]+$"
[[fields]]
name = "count"
header = "Count"
type = "integer"
min = 0
[[fields]]
name = "price"
header = "Price"
type = "decimal"
[[fields]]
name = "day"
header = "Day"
type = "date"
[[fields]]
name = "flag"
header = "Flag"
type = "boolean"
[[fields]]
name = "mail"
header = "Mail"
type = "email"
[[fields]]
name = "kind"
header = "Kind"
type = "enum"
choices = ["a", "B", "1"]
"""

PLAIN_ROW: list[Any] = ["item", "C1", 3, 2.5, date(2024, 3, 4), "no", "c@d.ef", "a"]
# Per column, cells whose text reads alike whatever the cell's type was, and cells whose
# text does not: each goes into a plain row of its own, so that it alone decides the row.
ODD_CELLS: list[list[Any]] = [
    # Label
    [
        12345,
        "12345",
        1e20,
        1234567890123456,
        "1234567890123456",
        0.1 + 0.2,
        -0.0,
        0.00001,
        1.5,
        "1.5",
        date(2024, 1, 2),
        datetime(2024, 1, 2, 13, 45),
        True,
        False,
        "true",
        "2024-01-02 00:00:00",
        "12:30:00",
        "  padded  ",
        " ",
        "x" * 21,
        "007",
        "-5",
    ],
    # Code (a pattern)
    [12345, "AB1", "ab1", "AB 1", "AB\n1", "AB1\n", True, date(2024, 1, 2), "ÄB1", 1e20],
    # Count (integer, min 0)
    [
        "7",
        "1.0",
        "+5",
        1.5,
        "1.5",
        "1,234",
        -1,
        10**16,
        "12345678901234567",
        True,
        date(2024, 1, 2),
        "seven",
        " 7 ",
        "1e3",
    ],
    # Price (decimal)
    [
        "1.5",
        1e20,
        "1e3",
        0.1 + 0.2,
        "0.30000000000000004",
        "1,234.5",
        -0.0,
        True,
        "1.5.1",
        123456789012345.6,
        " 2 ",
    ],
    # Day (date)
    [
        "2024-01-02",
        45000,
        "45000",
        datetime(2024, 1, 2, 13, 45),
        "2024-02-30",
        "02/01/2024",
        date(1899, 12, 30),
        date(1900, 3, 1),
        True,
        "2024-01-02 00:00:00",
        " 2024-01-02",
    ],
    # Flag (boolean)
    [True, 1, 0, 2, "YES", "Yes", " yes", "yEs", "t", "1", 1.0, "maybe", date(2024, 1, 2)],
    # Mail (email)
    ["A@B.CO ", 12345, "x", "a@b", " a@b.co", True, date(2024, 1, 2), "a@b.co\n"],
    # Kind (enum: a, B, 1)
    [1, "1", "A", " B ", "b", True, 1.0, "c"],
]


def write_odd_book(path: Path) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Odd")
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    moment = book.add_format({"num_format": "yyyy-mm-dd hh:mm"})
    zeros = book.add_format({"num_format": "00000"})
    sheet.write_row(0, 0, ["Label", "Code", "Count", "Price", "Day", "Flag", "Mail", "Kind"])

    def put(row: int, column: int, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, datetime):
            sheet.write_datetime(row, column, value, moment)
        elif isinstance(value, date):
            sheet.write_datetime(row, column, value, day)
        elif isinstance(value, str):
            sheet.write_string(row, column, value)
        else:
            sheet.write(row, column, value)

    row = 1
    for column, values in enumerate(ODD_CELLS):
        for value in values:
            for c, plain in enumerate(PLAIN_ROW):
                put(row, c, value if c == column else plain)
            row += 1
            for _ in range(3):  # plain rows between the odd ones
                for c, plain in enumerate(PLAIN_ROW):
                    put(row, c, plain)
                row += 1
    sheet.write_number(row, 0, 501, zeros)  # a number shown 00501 in a text column
    sheet.write_number(row, 1, 501, zeros)
    row += 1
    sheet.write_formula(row, 0, "=1/0", None, "#DIV/0!")  # an error cell
    sheet.write_formula(row, 2, "=1+1")  # no saved value
    row += 2  # and a blank row
    sheet.write_string(row, 9, "beyond the header")  # a row with a cell under no header
    row += 1
    sheet.write_string(row, 0, "last")
    book.close()


def test_odd_cells_are_decided_as_the_row_path_decides_them(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "odd.xlsx"
    write_odd_book(book)
    add_form(conn, ODD_FORM)
    jobs = run_both(cli, monkeypatch, book, "odd")
    columns = "label, code, count, price, day, flag, mail, kind"
    same_outcome(conn, "forms.odd", columns, jobs)


def test_the_split_workbook_never_has_a_name_a_kill_could_leave_behind(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill -9 may come at any moment of the split pass: at no moment may the temporary
    folder hold the split workbook, and the import still reads it."""
    import tempfile

    from importer.excel import xlsx_split

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    seen: list[list[str]] = []
    package = xlsx_split._PieceWriter.package

    def packaging(self: Any, date1904: bool) -> None:
        seen.append(sorted(p.name for p in scratch.iterdir()))  # all pieces written
        package(self, date1904)
        seen.append(sorted(p.name for p in scratch.iterdir()))

    monkeypatch.setattr(xlsx_split._PieceWriter, "package", packaging)
    book = tmp_path / "orders.xlsx"
    _write(book, 500, 0.0, 0.0)
    add_form(conn, FORM)
    monkeypatch.setenv(SWITCH, "1")
    done = opened(monkeypatch)
    assert cli("submit", str(book), "--form", "bench_orders", "--quiet").exit_code == 0
    assert done == [True]
    assert seen == [[], []]
    assert list(scratch.iterdir()) == []
    stored = conn.execute("SELECT count(*) AS n FROM forms.bench_orders").fetchone()
    assert stored is not None and stored["n"] == 500


@pytest.mark.parametrize(
    ("switch", "weighed_from", "invalid", "columnar", "said", "weighed"),
    [
        # by default, a sheet the paths are weighed for: as columns where the estimate is
        # under the row path's time (the fixed costs left out: the sheet is small), row by
        # row where it is over (the fixed costs of 300 rows: many times their time)
        (None, 1, 0.0, True, "0% of the first 300 to read again exactly", True),
        (None, 1, 0.3, False, "to read again exactly", True),
        (None, 1 << 40, 0.0, False, "a small sheet", False),  # under the size worth weighing
        ("0", 1, 0.0, False, f"{SWITCH}=0", False),  # turned off
        ("1", 1 << 40, 0.5, True, f"{SWITCH}=1", True),  # turned on, whatever the sheet
    ],
)
def test_the_sheets_costs_choose_the_path_unless_the_switch_says(
    cli: Cli,
    conn: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    switch: str | None,
    weighed_from: int,
    invalid: float,
    columnar: bool,
    said: str,
    weighed: bool,
) -> None:
    from importer.columnar import choice

    monkeypatch.setattr(choice, "SAMPLE_FROM_BYTES", weighed_from)
    monkeypatch.setattr(importer.columnar, "SAMPLE_FROM_BYTES", weighed_from)
    if columnar:
        monkeypatch.setattr(choice, "FIXED_ROWS", 0)
    if switch is None:
        monkeypatch.delenv(SWITCH, raising=False)
    else:
        monkeypatch.setenv(SWITCH, switch)
    book = tmp_path / "orders.xlsx"
    _write(book, 300, invalid, 0.0)
    add_form(conn, FORM)
    seen = opened(monkeypatch)
    path = "columnar" if columnar else "row"
    for how in (["--detach"], []):  # a worker's run, then a foreground one
        done = cli("--debug", "submit", str(book), "--form", "bench_orders", *how, "--force")
        assert done.exit_code in (0, 3), done.stderr
        if how:
            assert cli("worker", "--once").exit_code == 0
        else:  # --debug: which path read the rows, and why
            job = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
            assert job is not None
            line = f"job {job['id']}: read by the {path} path: "
            assert line in done.stderr
            assert said in done.stderr.split(line, 1)[1].splitlines()[0]
    assert seen == ([columnar] * 2 if weighed else [])  # open_columnar's answers
    stored = conn.execute("SELECT count(*) AS n FROM forms.bench_orders").fetchone()
    assert stored is not None and stored["n"] > 0


def test_the_summary_says_nothing_of_the_path_without_debug(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    book = tmp_path / "orders.xlsx"
    _write(book, 50, 0.0, 0.0)
    add_form(conn, FORM)
    done = cli("submit", str(book), "--form", "bench_orders")
    assert done.exit_code == 0, done.stderr
    assert "read by the" not in done.stdout + done.stderr


@pytest.mark.slow
def test_a_sheet_whose_cells_change_type_row_by_row_is_stored_alike(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bench's mixed book: numbers beside texts, date cells beside dates typed in three
    formats, booleans beside words, error cells (in a column the form reads, and in one it
    does not), empty optional cells."""
    book = tmp_path / "orders.xlsx"
    mixed_books._write(book, 2_000, 0.1)
    add_form(conn, mixed_books.FORM)
    jobs = run_both(cli, monkeypatch, book, mixed_books.FORM_NAME, detach=False)
    columns = "order_id, customer_no, customer, email, order_date, zip, amount, status, paid"
    same_outcome(conn, f"forms.{mixed_books.FORM_NAME}", columns + ", region", jobs)


@pytest.mark.slow
def test_a_resumed_run_splits_only_the_rows_after_its_cursor(
    cli: Cli,
    cli_env: dict[str, str],
    conn: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed after the batch reaching 550 rows (the second), the job resumes in small
    pieces: the rows before the cursor are not surveyed again, each row after it is stored
    once, and the job's rows and rejections are the same as a run from the start."""
    from importer.columnar import sheet
    from importer.excel import xlsx_piece_facts, xlsx_pieces
    from importer.repositories import jobs

    book = tmp_path / "orders.xlsx"
    _write(book, 1200, 0.05, 0.0)
    add_form(conn, FORM)
    env = {
        **cli_env,
        SWITCH: "1",
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "300",
        "IMPORTER_TEST_PAUSE_AT": "rows:550",  # after the commit that reaches row 550
    }
    job_id = killed_submit(conn, [str(book), "--form", "bench_orders", "--quiet"], env)
    cursor = jobs.get_job(conn, job_id).cursor
    assert cursor == 600
    surveyed: list[int] = []
    rows_in = xlsx_pieces.rows_in

    def surveying(xml: bytes, rows: xlsx_pieces.RowPatterns) -> tuple[list[int], int]:
        numbers, valued = rows_in(xml, rows)
        surveyed.extend(numbers)
        return numbers, valued

    monkeypatch.setattr(xlsx_piece_facts, "rows_in", surveying)
    monkeypatch.setattr(sheet, "PIECE_BYTES", 16 << 10)  # ~50 rows a piece
    monkeypatch.setenv(SWITCH, "1")
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION", "300")
    seen = opened(monkeypatch)

    assert cli("resume", str(job_id), "--quiet").exit_code == 3  # rows were rejected
    assert seen == [True]
    assert surveyed and min(surveyed) > cursor - 60  # at most the piece holding the cursor
    assert cli("submit", str(book), "--form", "bench_orders", "--force", "--quiet").exit_code == 3
    same_outcome(conn, "forms.bench_orders", FIELDS, [job_id + 1, job_id])
