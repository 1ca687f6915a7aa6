"""Reading workbooks: both engines give the same normalized rows; every refusal is clear."""

from __future__ import annotations

import io
import random
import re
import zipfile
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from openpyxl.worksheet.worksheet import Worksheet

from importer.errors import InputError
from importer.excel import CellError, NumberText, open_sheet, peek_sheet, xlsx_scan
from importer.excel.values import Row, display_text, serial_to_datetime
from tests.conftest import Cli

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
XLSX_SAMPLES = sorted(p.name for p in SAMPLES.glob("*.xlsx"))


def read(path: Path | bytes, **options: object) -> tuple[list[str], int, list[Row], int, str]:
    with open_sheet(path, **options) as reader:  # type: ignore[arg-type]
        rows = list(reader.rows())
        return reader.header, reader.header_row, rows, reader.count_rows(), reader.engine


@pytest.mark.parametrize("name", XLSX_SAMPLES)
def test_both_engines_give_identical_rows(name: str) -> None:
    fast = read(SAMPLES / name, engine="calamine")
    streaming = read(SAMPLES / name, engine="openpyxl")
    assert fast[4] == "calamine" and streaming[4] == "openpyxl"
    assert fast[:4] == streaming[:4]
    for a, b in zip(fast[2], streaming[2], strict=True):
        assert [type(v) for v in a.values] == [type(v) for v in b.values], a.number
    assert fast[3] == len(fast[2])


@pytest.mark.parametrize("name", [*XLSX_SAMPLES, "orders.csv", "orders.ods", "orders.xls"])
def test_peek_gives_what_open_sheet_gives(name: str) -> None:
    peek = peek_sheet(SAMPLES / name)
    with open_sheet(SAMPLES / name) as reader:
        assert (peek.sheet_name, peek.engine, peek.file_format) == (
            reader.sheet_name,
            reader.engine,
            reader.file_format,
        )
        assert (peek.header, peek.header_row, peek.date1904) == (
            reader.header,
            reader.header_row,
            reader.date1904,
        )


def test_peek_with_a_big_shared_strings_table_gives_what_open_sheet_gives(
    tmp_path: Path,
) -> None:
    from importer.excel.reader import PEEK_STRINGS_BYTES

    path = tmp_path / "strings.xlsx"
    book = xlsxwriter.Workbook(str(path))  # shared strings, as Excel writes them
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, ["Order ID", "Customer", "Note"])
    rows = PEEK_STRINGS_BYTES // 40 + 1000  # unique texts: the table outgrows the limit
    for r in range(1, rows + 1):
        sheet.write_row(r, 0, [r, f"customer number {r}", f"a note that is unique {r}"])
    book.close()
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo("xl/sharedStrings.xml").file_size > PEEK_STRINGS_BYTES
    peek = peek_sheet(path)
    with open_sheet(path) as reader:
        assert (peek.engine, peek.header, peek.header_row) == (
            reader.engine,
            reader.header,
            reader.header_row,
        )
    assert peek.header == ["Order ID", "Customer", "Note"]


def test_peek_refuses_like_open_sheet() -> None:
    def build(ws: Worksheet) -> None:
        ws.append(["Name"])
        ws["XFD1048576"] = "stray"

    assert peek_sheet(_workbook(build)).engine == "openpyxl"
    with pytest.raises(InputError, match="too large to load at once"):
        peek_sheet(_workbook(build), engine="calamine")
    with pytest.raises(InputError, match="the file is empty"):
        peek_sheet(b"")


@pytest.mark.parametrize("checked", [False, True])
def test_checked_reads_the_same(checked: bool) -> None:
    for name in XLSX_SAMPLES:
        assert (
            read(SAMPLES / name, engine="calamine", checked=checked)[:4]
            == read(SAMPLES / name, engine="calamine")[:4]
        )


@pytest.mark.parametrize("name", ["types_xlsxwriter.xlsx", "types_openpyxl.xlsx"])
@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_normalized_values(name: str, engine: str) -> None:
    header, header_row, rows, count, _ = read(SAMPLES / name, engine=engine)
    assert header == ["Text", "Whole", "Amount", "Day", "Moment", "Flag", "Email", "Status", "Zip"]
    assert header_row == 1
    by_number = {row.number: row.values for row in rows}
    # blank row 7 skipped; formatted empty rows down to 399 and column AD ignored
    assert sorted(by_number) == [2, 3, 4, 5, 6, 8, 9, 10] and count == 8
    assert all(len(values) == 9 for values in by_number.values())
    assert by_number[2] == (
        "Alpha",
        12.0,
        19.99,
        date(2024, 3, 5),
        datetime(2024, 3, 5, 13, 45),
        True,
        "ada@example.com",
        "paid",
        NumberText(123.0, "00123"),
    )
    assert by_number[3][0] == "  padded text  "  # text as is
    assert by_number[4][8] == NumberText(7.0, "00007")
    assert by_number[5][:4] == (
        CellError("#N/A"),
        CellError("#DIV/0!"),
        CellError("#VALUE!"),
        CellError("#REF!"),
    )
    assert by_number[5][6] == CellError("#NAME?")
    uncalculated = by_number[9][1]
    assert isinstance(uncalculated, CellError) and uncalculated.code == ""
    assert display_text(uncalculated) is None  # the formula text is never passed on


@pytest.mark.parametrize("name", ["dates_1904_xlsxwriter.xlsx", "dates_1904_openpyxl.xlsx"])
@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_1904_date_system(name: str, engine: str) -> None:
    with open_sheet(SAMPLES / name, engine=engine) as reader:
        assert reader.date1904
        rows = list(reader.rows())
    assert rows[0].values == ("date cell", date(2024, 3, 5))
    assert rows[1].values == ("raw serial", float(45356 - 1462))
    assert serial_to_datetime(45356 - 1462, date1904=True) == datetime(2024, 3, 5)
    assert serial_to_datetime(45356) == datetime(2024, 3, 5)


@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_sheet_choice_header_row_and_blank_rows(engine: str) -> None:
    with open_sheet(SAMPLES / "sheets_openpyxl.xlsx", engine=engine) as reader:
        assert reader.sheet_name == "Current"  # the hidden first sheet is never implicit
        assert reader.header_row == 2
        assert reader.header == ["order id", "CUSTOMER", "Ignored column"]
        rows = list(reader.rows())
        assert [r.number for r in rows] == [3, 6]
        assert reader.count_rows() == 2
    with open_sheet(SAMPLES / "sheets_openpyxl.xlsx", engine=engine, sheet="Old") as reader:
        assert reader.sheet_name == "Old"
        assert next(iter(reader.rows())).values == (1.0, "hidden sheet: never read unless named")


def test_unknown_sheet_lists_the_sheets() -> None:
    with pytest.raises(
        InputError, match=r"no sheet named 'Nope' \(the workbook has: 'Old', 'Current'\)"
    ):
        open_sheet(SAMPLES / "sheets_openpyxl.xlsx", sheet="Nope")


def _chart_first_workbook(path: Path) -> Path:
    """A workbook whose first sheet is a chart sheet, then a worksheet with the data."""
    from openpyxl.chart import BarChart, Reference

    wb = openpyxl.Workbook()
    data = wb.active
    assert data is not None
    data.title = "Data"
    data.append(["Qty"])
    data.append([3])
    data.append([5])
    chart_sheet = wb.create_chartsheet("Chart", 0)
    chart = BarChart()
    chart.add_data(Reference(data, min_col=1, min_row=1, max_row=3), titles_from_data=True)
    chart_sheet.add_chart(chart)
    wb.save(path)
    return path


@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_a_chart_sheet_first_is_passed_over(tmp_path: Path, engine: str) -> None:
    path = _chart_first_workbook(tmp_path / "chart-first.xlsx")
    with open_sheet(path, engine=engine) as reader:
        assert reader.sheet_name == "Data"
        assert reader.header == ["Qty"]
        assert [r.values for r in reader.rows()] == [(3.0,), (5.0,)]
    assert peek_sheet(path).sheet_name == "Data"
    with pytest.raises(InputError, match=r"sheet 'Chart' is a chart sheet, with no cells"):
        open_sheet(path, engine=engine, sheet="Chart")


def test_csv_with_bom_and_semicolons() -> None:
    header, _, rows, count, engine = read(SAMPLES / "orders.csv")
    assert engine == "csv"
    assert header[0] == "Order ID"  # BOM stripped
    assert count == len(rows) == 60
    assert rows[0].values[0] == "10001"
    semi_header, _, semi_rows, _, _ = read(SAMPLES / "orders_semicolon.csv")
    assert semi_header == header
    assert len(semi_rows) == 25 and len(semi_rows[0].values) == len(header)


def test_csv_blank_short_and_wide_records(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text(
        "\n"  # a blank line before the header
        "A,B,C\n"
        "1,2,3\n"
        "\n"  # blank line: skipped, not counted
        ",,\n"  # all cells empty: blank
        "4,,\n"  # trailing empties
        "5\n"  # short record
        ",,,beyond\n"  # content only past the header: blank under the header
        '6,"two\nlines",7,extra\n'  # a quoted line break, and a cell past the header
        " ,x, \n",  # spaces are values, not empties
        encoding="utf-8",
    )
    header, header_row, rows, count, _ = read(path)
    assert (header, header_row) == (["A", "B", "C"], 2)
    assert [(r.number, r.values) for r in rows] == [
        (3, ("1", "2", "3")),
        (6, ("4", None, None)),
        (7, ("5", None, None)),
        (9, ("6", "two\nlines", "7")),
        (10, (" ", "x", " ")),
    ]
    assert count == 5


def test_ods_through_calamine() -> None:
    header, _, rows, count, engine = read(SAMPLES / "orders.ods")
    assert engine == "calamine"
    assert header[:3] == ["Order ID", "Customer", "Email"]
    assert count == len(rows) == 40
    first = rows[0].values
    assert first[0] == 10001.0 and type(first[0]) is float  # ints normalized to float
    assert isinstance(first[3], date)
    with pytest.raises(InputError, match=r"streaming engine .* reads .xlsx and .xlsm only"):
        open_sheet(SAMPLES / "orders.ods", engine="openpyxl")


@pytest.mark.parametrize("engine", ["auto", "calamine"])
def test_xls_through_xlrd_with_its_number_formats(engine: str) -> None:
    # .xls is always read by xlrd (see excel/xls_engine.py), whichever engine is asked for.
    with open_sheet(SAMPLES / "orders.xls", engine=engine) as reader:
        assert (reader.engine, reader.file_format) == ("xlrd", "xls")
        rows = list(reader.rows())
        assert reader.count_rows() == len(rows) == 30
    first = rows[0].values
    assert first[:4] == (10001.0, "Edsger Turing", "edsger.turing0@example.com", date(2024, 7, 8))
    assert first[8] is False  # booleans stay booleans
    # the zip code 501 formatted 00000 arrives as the sender sees it
    assert first[7] == NumberText(501.0, "00501")


def test_bytes_source_and_file_name() -> None:
    data = (SAMPLES / "orders.xlsx").read_bytes()
    header, _, rows, _, _ = read(data, file_name="orders.xlsx")
    assert header[0] == "Order ID" and len(rows) == 300
    with pytest.raises(InputError, match=r"^upload\.xlsx: the file is empty"):
        open_sheet(b"", file_name="upload.xlsx")


# --- fidelity corners ---------------------------------------------------------------------------


def _workbook(build: Callable[[Worksheet], None]) -> bytes:
    wb = openpyxl.Workbook()
    build(wb.active)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_data_not_starting_in_column_a(engine: str) -> None:
    def build(ws: Worksheet) -> None:
        ws["C3"], ws["D3"] = "Code", "Qty"
        ws["C4"], ws["D4"] = "a", 1
        ws["B6"] = "left of the header"

    header, header_row, rows, count, _ = read(_workbook(build), engine=engine)
    assert header == ["", "", "Code", "Qty"] and header_row == 3
    assert [r.values for r in rows] == [
        (None, None, "a", 1.0),
        (None, "left of the header", None, None),
    ]
    assert count == 2


@pytest.mark.parametrize("engine", ["auto", "openpyxl"])
def test_stray_far_cell_reads_in_constant_memory(engine: str) -> None:
    def build(ws: Worksheet) -> None:
        ws.append(["Name"])
        ws.append(["a"])
        ws["XFD1048576"] = "stray"

    header, _, rows, count, used = read(_workbook(build), engine=engine)
    assert used == "openpyxl" and header == ["Name"]
    assert [r.values for r in rows] == [("a",)] and count == 1


def test_far_cell_refused_for_calamine() -> None:
    def build(ws: Worksheet) -> None:
        ws.append(["Name"])
        ws["XFD1048576"] = "stray"

    with pytest.raises(InputError, match="too large to load at once: use --engine openpyxl"):
        open_sheet(_workbook(build), engine="calamine")


# --- refusals: each its own message, via the CLI (exit 2, one line) ------------------------------


def _zip(parts: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _hidden_only() -> bytes:
    # openpyxl refuses to save such a workbook: hide its sheets in workbook.xml afterwards.
    source = zipfile.ZipFile(io.BytesIO(_workbook(lambda ws: ws.append(["a"]))))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/workbook.xml":
                data = data.replace(b'state="visible"', b'state="hidden"')
            archive.writestr(info.filename, data)
    return buffer.getvalue()


def _patched(part: str, change: Callable[[bytes], bytes]) -> bytes:
    """A small valid workbook with one part rewritten."""
    source = zipfile.ZipFile(io.BytesIO(_workbook(lambda ws: ws.append(["Name", "Qty"]))))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            data = source.read(info)
            archive.writestr(info.filename, change(data) if info.filename == part else data)
    return buffer.getvalue()


def _entities(data: bytes) -> bytes:
    doctype = b'<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
    data = data.replace(b"?>", b"?>" + doctype, 1)
    return data.replace(
        b"</sheetData>",
        b'<row r="2"><c r="A2" t="inlineStr"><is><t>&b;</t></is></c></row></sheetData>',
    )


def _negative_string(data: bytes) -> bytes:
    return data.replace(
        b"</sheetData>", b'<row r="2"><c r="A2" t="s"><v>-1</v></c></row></sheetData>'
    )


def _string_without_table(data: bytes) -> bytes:
    # openpyxl writes inline strings: this workbook has no shared-strings part at all.
    return data.replace(
        b"</sheetData>", b'<row r="2"><c r="A2" t="s"><v>0</v></c></row></sheetData>'
    )


def _encrypted() -> bytes:
    # An OLE2 container holding an EncryptedPackage stream is how Office stores a
    # password-protected .xlsx (the directory entry names are UTF-16).
    return (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 1000 + "EncryptedPackage".encode("utf-16-le")
    )


REFUSED: dict[str, tuple[Callable[[], bytes], str]] = {
    "empty.xlsx": (lambda: b"", "the file is empty"),
    "page.xlsx": (
        lambda: b"<!DOCTYPE html><html><table><tr><td>1</td></tr></table>",
        "web page (HTML)",
    ),
    "report.xlsx": (lambda: b"%PDF-1.7\n%\xe2\xe3\n", "PDF document"),
    "truncated.xlsx": (
        lambda: (SAMPLES / "orders.xlsx").read_bytes()[:5000],
        "damaged or truncated",
    ),
    "letter.xlsx": (lambda: _zip({"word/document.xml": b"<w/>"}), "Word document"),
    "archive.xlsx": (lambda: _zip({"readme.txt": b"hi"}), "a zip archive that is not a workbook"),
    "bomb.xlsx": (
        lambda: _zip(
            {"xl/workbook.xml": b"<workbook/>", "xl/worksheets/sheet1.xml": b" " * (80 << 20)}
        ),
        "refusing a possible zip bomb",
    ),
    "secret.xlsx": (_encrypted, "password-protected"),
    "hidden.xlsx": (_hidden_only, "no visible sheet"),
    "latin1.csv": (lambda: "Name,Qty\nJosé,1\n".encode("latin-1") + b"x" * 10, "not UTF-8"),
    "blank.xlsx": (lambda: _workbook(lambda ws: None), "is empty (no header row found)"),
    "entities.xlsx": (
        lambda: _patched("xl/worksheets/sheet1.xml", _entities),
        "declares XML entities",
    ),
    "negative.xlsx": (
        lambda: _patched("xl/worksheets/sheet1.xml", _negative_string),
        "negative shared-string number",
    ),
    "no_strings.xlsx": (
        lambda: _patched("xl/worksheets/sheet1.xml", _string_without_table),
        "but the shared-strings table holds none",
    ),
    "far.xlsx": (
        lambda: _patched(
            "xl/worksheets/sheet1.xml",
            lambda d: d.replace(
                b"</sheetData>", b'<row r="2"><c r="A1048577"><v>1</v></c></row></sheetData>'
            ),
        ),
        "beyond Excel's limits",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_inputs_exit_2_with_their_own_message(cli: Cli, tmp_path: Path, name: str) -> None:
    make, message = REFUSED[name]
    path = tmp_path / name
    path.write_bytes(make())
    result = cli("forms", "infer", str(path))
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_refused_paths(cli: Cli, tmp_path: Path) -> None:
    missing = cli("forms", "infer", str(tmp_path / "missing.xlsx"))
    assert missing.exit_code == 2 and "file not found" in missing.stderr
    folder = cli("forms", "infer", str(tmp_path))
    assert folder.exit_code == 2 and "is a folder" in folder.stderr
    (tmp_path / "null.xlsx").symlink_to("/dev/null")
    device = cli("forms", "infer", str(tmp_path / "null.xlsx"))
    assert device.exit_code == 2 and "not a regular file" in device.stderr


def test_refused_messages_are_distinct() -> None:
    messages = [message for _, message in REFUSED.values()]
    assert len(set(messages)) == len(messages)


# --- damaged parts ------------------------------------------------------------------------------


def _shared_book() -> bytes:
    """xlsxwriter writes shared strings, numbered in order of use: the last cell uses the last."""
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer)
    sheet = book.add_worksheet("Sheet1")
    for i, row in enumerate([["Name", "Qty"], ["alpha", 1], ["beta", 2], ["gamma", 3]]):
        sheet.write_row(i, 0, row)
    book.close()
    return buffer.getvalue()


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/sharedStrings.xml"])
def test_a_corrupt_deflate_stream_is_refused_as_damaged(
    cli: Cli, tmp_path: Path, part: str
) -> None:
    data = bytearray(_shared_book())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo(part)
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)  # the deflate data
    data[start + 10 : start + 50] = bytes(b ^ 0x5A for b in data[start + 10 : start + 50])
    path = tmp_path / "corrupt.xlsx"
    path.write_bytes(data)
    for check in (peek_sheet, open_sheet):
        with pytest.raises(InputError, match="the file is damaged"):
            check(path)
    result = cli("forms", "infer", str(path))
    assert result.exit_code == 2 and "the file is damaged" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# --- shared strings: an index past the table is refused before any row is read -----------------


def _rewritten(data: bytes, change: Callable[[str, bytes], tuple[str, bytes]]) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    return _zip(dict(change(info.filename, source.read(info)) for info in source.infolist()))


def _as_is(name: str, data: bytes) -> tuple[str, bytes]:
    return name, data


def _prefixed(name: str, data: bytes) -> tuple[str, bytes]:
    """The table as <x:sst><x:si><x:t>, a namespace prefix both engines accept."""
    if name == "xl/sharedStrings.xml":
        data = data.replace(b"<sst xmlns=", b"<x:sst xmlns:x=").replace(b"</sst>", b"</x:sst>")
        data = re.sub(rb"<(/?)(si|t)>", rb"<\1x:\2>", data)
    return name, data


def _moved(name: str, data: bytes) -> tuple[str, bytes]:
    """The table in another part, named by [Content_Types].xml: openpyxl reads it there."""
    if name == "xl/sharedStrings.xml":
        return "xl/strings/table.xml", data
    if name == "[Content_Types].xml":
        return name, data.replace(b"/xl/sharedStrings.xml", b"/xl/strings/table.xml")
    return name, data.replace(b'Target="sharedStrings.xml"', b'Target="strings/table.xml"')


def _understated(name: str, data: bytes) -> tuple[str, bytes]:
    """count and uniqueCount say 1 (of 5): the <si> elements are what counts."""
    if name == "xl/sharedStrings.xml":
        data = re.sub(rb'\b(count|uniqueCount)="\d+"', rb'\1="1"', data)
    return name, data


@pytest.mark.parametrize("change", [_as_is, _prefixed, _moved, _understated])
def test_the_last_shared_string_is_read(change: Callable[[str, bytes], tuple[str, bytes]]) -> None:
    data = _rewritten(_shared_book(), change)
    assert b"<v>4</v>" in zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    assert peek_sheet(data, file_name="book.xlsx").header == ["Name", "Qty"]
    _, _, rows, _, _ = read(data, file_name="book.xlsx")
    assert [r.values for r in rows] == [("alpha", 1.0), ("beta", 2.0), ("gamma", 3.0)]


@pytest.mark.parametrize("change", [_as_is, _prefixed, _understated])
def test_one_past_the_last_shared_string_is_refused(
    change: Callable[[str, bytes], tuple[str, bytes]],
) -> None:
    def past_the_end(name: str, data: bytes) -> tuple[str, bytes]:
        if name == "xl/worksheets/sheet1.xml":
            data = data.replace(b"<v>4</v>", b"<v>5</v>")
        return change(name, data)

    data = _rewritten(_shared_book(), past_the_end)
    for check in (peek_sheet, open_sheet):
        with pytest.raises(
            InputError, match="shared string 5, but the shared-strings table holds only 5"
        ):
            check(data, file_name="book.xlsx")


def _sheet_of_strings(indexes: list[int]) -> bytes:
    rows = b"".join(
        b'<row r="%d"><c r="A%d" t="s"><v>%d</v></c></row>' % (n, n, index)
        for n, index in enumerate(indexes, 1)
    )
    sheet = (
        b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/'
        b'spreadsheetml/2006/main"><sheetData>' + rows + b"</sheetData></worksheet>"
    )
    return _zip({"xl/worksheets/sheet1.xml": sheet})


@pytest.mark.parametrize("order", ["ascending", "descending", "shuffled", "largest_first"])
def test_scan_finds_the_largest_shared_string_index(order: str) -> None:
    # 300,000 rows make a sheet of several scan chunks; the largest index is anywhere.
    indexes = list(range(300_000))
    if order == "descending":
        indexes.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(indexes)
    elif order == "largest_first":
        indexes = [indexes[-1], *indexes[:-1]]
    archive = zipfile.ZipFile(io.BytesIO(_sheet_of_strings(indexes)))
    assert archive.getinfo("xl/worksheets/sheet1.xml").file_size > 2 * xlsx_scan.CHUNK
    scan = xlsx_scan.scan_sheet(archive, "xl/worksheets/sheet1.xml", "t.xlsx", {})
    assert scan.max_string_index == 299_999 and not scan.bad_string_index
