"""A columnar submit's safety pass: the peek measures the sheet's first rows, the split
measures the rest in its own pass over them (one pass over the sheet, not two). Whatever
the whole pass refuses beyond the first rows is refused as the row path refuses it, before
any job exists; a sheet the pass would have streamed is streamed."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import importer.excel.xlsx_scan
from bench.workbooks import FORM, _write
from importer.columnar import SWITCH
from importer.database import Connection
from tests.conftest import Cli
from tests.running.test_columnar_path import opened
from tests.support.jobs import add_form

ROWS = 3_000  # ~1 MB of sheet XML: its last rows lie far past the peek's first 256 KB
PART = "xl/worksheets/sheet1.xml"


def _last_row(xml: bytes, change: Callable[[bytes], bytes]) -> bytes:
    start = xml.rindex(b"<row ")
    return xml[:start] + change(xml[start:])


def _bad_reference(row: bytes) -> bytes:
    return row.replace(b'<c r="A', b'<c r="!!', 1)


def _string_past_the_table(row: bytes) -> bytes:
    return re.sub(rb'(t="s"><v>)\d+', rb"\g<1>99999999", row, count=1)


def _stray_far_cell(row: bytes) -> bytes:
    # A cell at XFD1048575: 17 billion cells for calamine; streamed instead.
    return row.replace(b"</row>", b'<c r="XFD1048575"><v>1</v></c></row>')


def _book(path: Path, change: Callable[[bytes], bytes] | None) -> Path:
    _write(path, ROWS, 0.0, 0.0)
    if change is None:
        return path
    with zipfile.ZipFile(path) as archive:
        parts = {info: archive.read(info) for info in archive.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in parts.items():
            archive.writestr(info, _last_row(data, change) if info.filename == PART else data)
    return path


def _whole_passes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each whole-sheet safety pass open_sheet or peek_sheet runs (its part), not the
    special cells' scan beside calamine's parse."""
    passes: list[str] = []
    original = importer.excel.xlsx_scan.scan_sheet

    def recording(archive: Any, part: str, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("bounds", True):
            passes.append(part)
        return original(archive, part, *args, **kwargs)

    monkeypatch.setattr("importer.excel.reader.scan_sheet", recording)
    return passes


def _jobs(conn: Connection) -> int:
    row = conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone()
    assert row is not None
    return int(row["n"])


def test_a_columnar_submit_passes_over_the_sheet_once(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = _book(tmp_path / "orders.xlsx", None)
    add_form(conn, FORM)
    passes = _whole_passes(monkeypatch)
    monkeypatch.setenv(SWITCH, "1")
    seen = opened(monkeypatch)
    assert cli("submit", str(book), "--form", "bench_orders", "--quiet").exit_code == 0
    assert (seen, passes) == ([True], [])  # the split measured the rows the peek did not
    monkeypatch.setenv(SWITCH, "0")
    assert cli("submit", str(book), "--form", "bench_orders", "--force", "--quiet").exit_code == 0
    assert passes == [PART]  # the row path: its own whole pass
    stored = conn.execute("SELECT count(*) AS n FROM forms.bench_orders").fetchone()
    assert stored is not None and stored["n"] == 2 * ROWS


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (_bad_reference, "has a cell reference that is not one ('!!"),
        (_string_past_the_table, "pointing at shared string 99,999,999"),
    ],
    ids=["bad-reference", "string-past-the-table"],
)
def test_damage_past_the_first_rows_is_refused_as_the_row_path_refuses_it(
    cli: Cli,
    conn: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    change: Callable[[bytes], bytes],
    refusal: str,
) -> None:
    book = _book(tmp_path / "damaged.xlsx", change)
    add_form(conn, FORM)
    said = []
    for switch in ("0", "1"):
        monkeypatch.setenv(SWITCH, switch)
        result = cli("submit", str(book), "--form", "bench_orders", "--quiet")
        said.append((result.exit_code, result.stderr))
    (code, message), columnar = said
    assert code not in (0, 3) and refusal in message, message
    assert columnar == said[0]
    assert _jobs(conn) == 0  # refused before any job exists


def test_a_far_stray_cell_past_the_first_rows_is_streamed_as_the_row_path_streams_it(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = _book(tmp_path / "stray.xlsx", _stray_far_cell)
    add_form(conn, FORM)
    monkeypatch.setenv(SWITCH, "1")
    seen = opened(monkeypatch)
    result = cli("submit", str(book), "--form", "bench_orders", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert seen == [False]  # the split's measures sent it to the row path
    job = conn.execute("SELECT engine, success_rows FROM import_jobs").fetchone()
    assert job is not None and (job["engine"], job["success_rows"]) == ("openpyxl", ROWS)
