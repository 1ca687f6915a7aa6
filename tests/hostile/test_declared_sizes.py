"""Files whose declared sizes lie (tests/hostile/xls_files.py), in-process: every entry point
that opens a workbook (open_sheet, peek_sheet, list_sheets) refuses the same ones with the
same line before a reader runs, and reads the others by what they hold; `submit` imports an
.xls whose shared-string table claims no string and an .xlsx whose zip entries are named
with backslashes, as LibreOffice (and Excel) read them.

tests/hostile/test_xls_bounds.py runs the same files through child processes and measures
their memory.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import xlsxwriter

from importer.errors import InputError
from importer.excel import list_sheets, open_sheet, peek_sheet
from importer.excel.sniff import Source
from importer.excel.xls_container import read_container
from importer.excel.xls_scan import check_xls
from tests.conftest import Cli
from tests.hostile import xls_files
from tests.hostile.generate import FORM_NAME, FORM_TOML
from tests.support.jobs import json_rows

BUDGET = 64 << 20


def _entry_points() -> dict[str, Callable[[bytes, str], object]]:
    return {
        "open_sheet": lambda data, name: open_sheet(data, file_name=name).close(),
        "peek_sheet": lambda data, name: peek_sheet(data, file_name=name),
        "list_sheets": lambda data, name: list_sheets(data, file_name=name),
    }


@pytest.mark.parametrize("entry", sorted(_entry_points()))
@pytest.mark.parametrize("name", sorted(xls_files.REFUSED))
def test_every_entry_point_refuses_a_lie_a_reader_would_pay_for(name: str, entry: str) -> None:
    build, message = xls_files.REFUSED[name]
    if entry == "list_sheets" and name == "string_past_the_table.xls":
        message = "sheet 'Sheet1' has a text cell (A602)"
    if entry == "list_sheets" and name == "far_corner_for_calamine.xls":
        assert list_sheets(build(), file_name=name) == [("Sheet1", True)]  # no sheet loaded
        return
    with pytest.raises(InputError) as refused:
        _entry_points()[entry](build(), name)
    assert str(refused.value).startswith(f"{name}: ") and message in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("name", sorted(xls_files.READ))
def test_a_lie_that_costs_nothing_is_read_by_what_the_file_holds(name: str) -> None:
    data = xls_files.READ[name]()
    with open_sheet(data, file_name=name) as reader:
        rows = [r.values for r in reader.rows()]
        assert (reader.engine, reader.header, reader.notes) == ("xlrd", xls_files.HEADER, ())
    assert len(rows) == xls_files.ROWS
    assert rows[0] == ("item 1", 1.0, None, None) and rows[-1][:2] == ("item 600", 600.0)


def test_the_shared_string_count_is_made_the_strings_the_table_holds() -> None:
    for claims in (0, 5, 0x7FFFFFFF):
        checked = check_xls(Source(None, xls_files.strings_claimed(claims), "s.xls"), BUDGET)
        assert checked.scan is not None and checked.scan.strings is not None
        assert (checked.scan.strings.declared, checked.scan.strings.held) == (claims, 604)
        again = check_xls(checked.source, BUDGET).scan
        assert again is not None and again.strings is not None
        assert again.strings.declared == again.strings.held == 604


def test_a_healthy_file_is_handed_to_the_readers_as_it_is() -> None:
    data = xls_files.healthy()[0]
    source = Source(None, data, "healthy.xls")
    assert check_xls(source, BUDGET).source is source


def test_a_chain_running_past_the_end_of_the_file_ends_there() -> None:
    """A stream's last sector pointing past the file: read as far as the file goes."""
    data, layout = xls_files.healthy()
    short = xls_files.fat_entry(data, layout, layout.stream_sectors - 1, 1 << 20)
    assert read_container(short, "short.xls", BUDGET).data == read_container(data).data


def test_the_budget_decides_which_claim_is_refused() -> None:
    claim = xls_files.stream_size_past_the_file(*xls_files.healthy())
    assert read_container(claim, "c.xls", BUDGET).data  # four times the file: read
    with pytest.raises(InputError, match=r"c\.xls: the file is damaged or crafted: its dir"):
        read_container(claim, "c.xls", 1 << 16)


def _backslashed(path: Path) -> None:
    with xlsxwriter.Workbook(str(path)) as book:
        sheet = book.add_worksheet("Data")
        for r, row in enumerate([xls_files.HEADER, ["w", 1, "windows"], ["x", 2]]):
            sheet.write_row(r, 0, row)
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name.replace("/", "\\"), data)


def test_backslashes_in_zip_entry_names_read_as_slashes(tmp_path: Path) -> None:
    path = tmp_path / "windows.xlsx"
    _backslashed(path)
    assert "xl\\worksheets\\sheet1.xml" in zipfile.ZipFile(path).namelist()
    assert list_sheets(path) == [("Data", True)]
    for engine in ("calamine", "openpyxl"):
        with open_sheet(path, engine=engine) as reader:
            assert [r.values for r in reader.rows()] == [
                ("w", 1.0, "windows", None),
                ("x", 2.0, None, None),
            ]


def test_backslashed_names_that_clash_as_slashes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "clash.xlsx"
    _backslashed(path)
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("xl/workbook.xml", b"<workbook/>")
    with pytest.raises(InputError, match="two parts of the archive have the same name"):
        open_sheet(path)


def test_submit_imports_what_other_readers_open(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "hostile.form.toml").write_text(FORM_TOML, encoding="utf-8")
    assert cli("forms", "add", str(tmp_path / "hostile.form.toml")).exit_code == 0
    (tmp_path / "none.xls").write_bytes(xls_files.strings_claimed(0))
    _backslashed(tmp_path / "windows.xlsx")
    for name, good in (("none.xls", xls_files.ROWS), ("windows.xlsx", 2)):
        done = cli("submit", str(tmp_path / name), "--form", FORM_NAME, "--quiet", "--json")
        assert done.exit_code == 0, done.stderr
        assert f'"success_rows": {good}' in done.stdout, done.stdout


def test_submitted_rows_are_the_cells(cli: Cli, tmp_path: Path, database_url: str) -> None:
    from importer.database import connect

    (tmp_path / "hostile.form.toml").write_text(FORM_TOML, encoding="utf-8")
    assert cli("forms", "add", str(tmp_path / "hostile.form.toml")).exit_code == 0
    (tmp_path / "few.xls").write_bytes(xls_files.strings_claimed(5))
    assert cli("submit", str(tmp_path / "few.xls"), "--form", FORM_NAME).exit_code == 0
    with connect(database_url, autocommit=True) as conn:
        job = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
        assert job is not None
        stored = json_rows(conn, int(job["id"]))
    assert (stored[2]["name"], stored[601]["name"], stored[601]["qty"]) == (
        "item 1",
        "item 600",
        600,
    )
