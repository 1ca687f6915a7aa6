"""A resume reads only the rows not yet committed (the workbook cut after the last committed
row), and falls back to reading the whole sheet whenever the cut cannot be proven right."""

from __future__ import annotations

import io
import re
import threading
import zipfile
from pathlib import Path

import pytest

from importer.database import Connection
from importer.excel import open_sheet
from importer.excel.xlsx_trim import without_rows
from importer.repositories import jobs
from importer.running.job_run import JobProgress, run_job
from tests.forms.test_row_json import ROWS, _tricky_workbook
from tests.running.test_job_run import SETTINGS, submit
from tests.support.jobs import add_form, assert_exactly_once, orders_book

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
TRIM_MESSAGE = re.compile(r"reading the rows after row ([\d,]+) only")


@pytest.mark.parametrize("padded", [False, True])  # error cells found lazily / up front
@pytest.mark.parametrize("last", [2, 999, 1000, 1001, 1002, 1699, 1700, 2400, ROWS + 1])
def test_the_cut_workbook_holds_exactly_the_rows_after_the_last(
    tmp_path: Path, last: int, padded: bool
) -> None:
    path = _tricky_workbook(tmp_path / "tricky.xlsx", padded=padded)
    with open_sheet(path, engine="calamine", checked=True) as reader:
        header, header_row = reader.header, reader.header_row
        expected = [row for row in reader.rows() if row.number > last]
    trimmed = without_rows(path.read_bytes(), "Data", header_row, last)
    assert trimmed is not None
    with open_sheet(trimmed, engine="calamine", checked=True) as reader:
        assert (reader.header, reader.header_row) == (header, header_row)
        assert reader.count_rows_after(last) == len(expected)
        assert list(reader.rows()) == expected  # the committed rows are gone, not blanked
        assert [r for b in reader.batches(100, after_row=last) for r in b] == expected
    assert len(trimmed) > 0


@pytest.mark.parametrize("chunk", [1, 7, 100, 4096])
@pytest.mark.parametrize("last", [2, 1000, ROWS + 1])
def test_the_cut_is_the_same_whatever_the_chunks_the_sheet_is_read_in(
    tmp_path: Path, chunk: int, last: int
) -> None:
    path = _tricky_workbook(tmp_path / "tricky.xlsx", padded=True)
    content = path.read_bytes()
    whole = without_rows(content, "Data", 1, last, chunk=len(content) * 100)
    assert whole is not None
    assert without_rows(content, "Data", 1, last, chunk=chunk) == whole
    with zipfile.ZipFile(io.BytesIO(whole)) as cut, zipfile.ZipFile(path) as source:
        xml = source.read("xl/worksheets/sheet1.xml")
        rows = [
            int(n) for n in re.findall(rb'<row r="(\d+)"', cut.read("xl/worksheets/sheet1.xml"))
        ]
        assert rows == [1, *(n for n in map(int, re.findall(rb'<row r="(\d+)"', xml)) if n > last)]
        assert cut.read("xl/worksheets/sheet1.xml").endswith(xml[xml.index(b"</sheetData>") :])


@pytest.mark.parametrize("name", ["orders.xls", "orders.ods", "orders.csv"])
def test_only_xlsx_packages_are_cut(name: str) -> None:
    assert without_rows((SAMPLES / name).read_bytes(), "Orders", 1, 10) is None


def test_nothing_to_cut_gives_none(tmp_path: Path) -> None:
    path = _tricky_workbook(tmp_path / "tricky.xlsx")
    content = path.read_bytes()
    assert without_rows(content, "Data", 1, 1) is None
    assert without_rows(content, "No such sheet", 1, 100) is None


def _interrupted(database_url: str, conn: Connection, path: Path, stop_at: int) -> jobs.Job:
    """Run a submitted job until ``stop_at`` rows are committed; the job back to pending."""
    job = submit(conn, path)
    stop = threading.Event()

    def stop_soon(event: JobProgress) -> None:
        if event.done_rows >= stop_at:
            stop.set()

    assert run_job(database_url, job, "me:1:a", SETTINGS, on_progress=stop_soon, stop=stop).result
    paused = jobs.get_job(conn, job.id)
    assert paused.status == "pending" and paused.cursor >= stop_at
    return paused


def _resume(database_url: str, conn: Connection) -> tuple[list[JobProgress], jobs.Job]:
    [claimed] = jobs.claim_jobs(conn, owner="other:2:b", limit=1, lease_seconds=30)
    events: list[JobProgress] = []
    outcome = run_job(database_url, claimed, "other:2:b", SETTINGS, on_progress=events.append)
    assert outcome.result == "finished"
    return events, claimed


def _trim_messages(events: list[JobProgress]) -> list[int]:
    found = [TRIM_MESSAGE.search(e.message or "") for e in events]
    return [int(m.group(1).replace(",", "")) for m in found if m]


def test_a_resume_reads_only_the_rows_left(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 64, bad_every=7)
    paused = _interrupted(database_url, conn, book.path, 30)
    # Every batch records where it ended: the header's row and the last row committed.
    assert (paused.header_row, paused.last_row) == (1, paused.cursor + 1)

    events, _ = _resume(database_url, conn)
    assert _trim_messages(events) == [paused.cursor + 1]
    assert events[-1].run_rows == 64 - paused.cursor
    assert_exactly_once(conn, paused.id, book)


def _rows_out_of_order(path: Path) -> None:
    """Move the sheet's last five rows to just after the header, in the XML only (Excel
    never writes this; calamine still reads the rows by their numbers)."""
    with zipfile.ZipFile(path) as archive:
        parts = {m.filename: archive.read(m) for m in archive.infolist()}
    name = "xl/worksheets/sheet1.xml"
    xml = parts[name].decode()
    rows = re.findall(r"<row .*?</row>", xml, flags=re.S)
    moved = rows[:1] + rows[-5:] + rows[1:-5]
    xml = xml.replace("".join(rows), "".join(moved))
    parts[name] = xml.encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for filename, data in parts.items():
            archive.writestr(filename, data)
    path.write_bytes(out.getvalue())


def test_rows_out_of_order_make_a_resume_read_the_whole_sheet(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 64, bad_every=7)
    _rows_out_of_order(book.path)
    paused = _interrupted(database_url, conn, book.path, 30)
    # The cut would drop rows 61-65 (moved up in the XML): the count check refuses it.
    trimmed = without_rows(book.path.read_bytes(), "Orders", 1, paused.last_row or 0)
    assert trimmed is not None
    with open_sheet(trimmed, engine="calamine", checked=True) as reader:
        assert reader.count_rows_after(paused.last_row or 0) != 64 - paused.cursor

    events, _ = _resume(database_url, conn)
    assert _trim_messages(events) == []
    assert_exactly_once(conn, paused.id, book)
