"""An .xlsx package is found as Excel finds it: the workbook part through the package's
relationships (wherever it lies, whatever it is called), part names matched without regard
to case. Such a package reads exactly like the workbook it was made from."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from importer.errors import InputError
from importer.excel import open_sheet
from tests.conftest import Cli

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
ORIGINAL = SAMPLES / "orders.xlsx"
# The workbook's parts moved out of xl/ and renamed, as another writer may lay them out.
MOVED = {
    "xl/workbook.xml": "book/main.xml",
    "xl/_rels/workbook.xml.rels": "book/_rels/main.xml.rels",
    "xl/worksheets/sheet1.xml": "book/sheets/orders.xml",
    "xl/sharedStrings.xml": "book/strings.xml",
    "xl/styles.xml": "book/look.xml",
    "xl/theme/theme1.xml": "book/theme/theme1.xml",
}
TARGETS = {  # each relationship's target, as the moved package says it
    "xl/workbook.xml": "book/main.xml",
    "worksheets/sheet1.xml": "sheets/orders.xml",
    "sharedStrings.xml": "strings.xml",
    "styles.xml": "look.xml",
}


def _moved(path: Path) -> Path:
    with zipfile.ZipFile(ORIGINAL) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".rels"):
                for old, new in TARGETS.items():
                    data = data.replace(f'Target="{old}"'.encode(), f'Target="{new}"'.encode())
            elif info.filename == "[Content_Types].xml":
                for old, new in MOVED.items():
                    data = data.replace(f'"/{old}"'.encode(), f'"/{new}"'.encode())
            name = MOVED.get(info.filename, info.filename)
            out.writestr(zipfile.ZipInfo(name, info.date_time), data, zipfile.ZIP_DEFLATED)
    with zipfile.ZipFile(path) as written:  # the package says only the new names
        assert not any(n.startswith("xl/") for n in written.namelist())
        assert b"xl/" not in written.read("_rels/.rels") + written.read("[Content_Types].xml")
    return path


def _upper_case(path: Path) -> Path:
    """Every part name in capitals; the relationships still spell them in lower case."""
    with zipfile.ZipFile(ORIGINAL) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            name = info.filename.upper()
            out.writestr(zipfile.ZipInfo(name, info.date_time), source.read(info), 8)
    return path


def _read(path: Path, engine: str) -> tuple[list[str], list[tuple[int, tuple[object, ...]]]]:
    with open_sheet(path, engine=engine) as reader:
        assert reader.sheet_name == "Orders"
        return list(reader.header), [(r.number, tuple(r.values)) for r in reader.rows()]


@pytest.mark.parametrize("make", [_moved, _upper_case], ids=["moved", "upper case"])
@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_the_package_reads_exactly_like_the_original(
    make: Callable[[Path], Path], engine: str, tmp_path: Path
) -> None:
    header, rows = _read(make(tmp_path / "orders.xlsx"), engine)
    original_header, original_rows = _read(ORIGINAL, engine)
    assert header == original_header
    assert header[:4] == ["Order ID", "Customer", "Email", "Order Date"]
    assert len(rows) == 300 and rows == original_rows


def test_a_package_without_a_workbook_part_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    with zipfile.ZipFile(ORIGINAL) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            if info.filename != "xl/workbook.xml":  # the relationship points at nothing
                out.writestr(info, source.read(info))
    with pytest.raises(InputError, match=r"^orders\.xlsx: a zip archive that is not a workbook$"):
        open_sheet(path)


def _check(cli: Cli, path: Path) -> list[str]:
    result = cli("check", str(path), "--form", "orders")
    assert result.exit_code == 3, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_check_reads_them_as_the_original(cli: Cli, tmp_path: Path) -> None:
    assert cli("forms", "add", str(SAMPLES / "orders.form.toml")).exit_code == 0
    expected = _check(cli, ORIGINAL)
    assert expected[0] == (
        "orders.xlsx, sheet 'Orders' -> form orders (version 1): 300 rows, 285 good, "
        "15 would be rejected"
    )
    for folder, make in (("moved", _moved), ("upper", _upper_case)):
        (tmp_path / folder).mkdir()
        path = make(tmp_path / folder / "orders.xlsx")
        got = _check(cli, path)
        assert [re.sub(r"\S*orders\.xlsx", "orders.xlsx", line) for line in got] == [
            re.sub(r"\S*orders\.xlsx", "orders.xlsx", line) for line in expected
        ]
