"""The small sample files (test fixtures), each written by the program its name says.

`types_*.xlsx` hold the same cells written by xlsxwriter and by openpyxl: one row per
rule of the `types` form (sample_data/types.form.toml); tests/excel/test_reading.py and
tests/forms/test_validation.py check what each row must give.
"""

from __future__ import annotations

import csv
import zipfile
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import openpyxl
import xlsxwriter
from openpyxl.styles import PatternFill
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from sample_data.generate import ORDER_HEADER, order_rows, write_orders_xlsx

TYPES_HEADER = ["Text", "Whole", "Amount", "Day", "Moment", "Flag", "Email", "Status", "Zip"]


class Error(str):
    """An error cell (#DIV/0!, ...)."""


class Uncalculated(str):
    """A formula saved without its value."""


class Padded(int):
    """A number shown with format 00000."""


# One row per case; None = empty cell. Comments say what the `types` form must make of it.
TYPES_ROWS: list[list[Any]] = [
    # 2: the plain case of every type
    [
        "Alpha",
        12,
        19.99,
        date(2024, 3, 5),
        datetime(2024, 3, 5, 13, 45),
        True,
        "ada@example.com",
        "paid",
        Padded(123),
    ],
    # 3: text spellings of every type (and spaces around them)
    [
        "  padded text  ",
        "1,234",
        " 0.5 ",
        "2024-03-06",
        "2024-03-06 08:00",
        "yes",
        " Grace@Example.COM ",
        "PAID",
        "00456",
    ],
    # 4: numbers where text is declared; whole floats; binary noise; raw date serials
    [42, 12.0, 0.1 + 0.2, 45357, 45357.5, 1, "b@example.org", "New", Padded(7)],
    # 5: error cells: one per column kind
    [
        Error("#N/A"),
        Error("#DIV/0!"),
        Error("#VALUE!"),
        Error("#REF!"),
        None,
        None,
        Error("#NAME?"),
        None,
        None,
    ],
    # 6: wrong values for every type
    ["ok", 12.5, "12,5", "31/02/2024", "soon", "maybe", "not-an-email", "pending", "123"],
    # 7: a blank row: skipped, not counted
    [None] * 9,
    # 8: required cells empty (Text, Whole), optional ones empty too
    [None, None, 5, None, None, None, None, "shipped", None],
    # 9: a formula saved without its value (openpyxl never calculates)
    ["formula", Uncalculated("=2*3"), 1, None, None, None, None, "new", None],
    # 10: date given as day/month/year text (a format the form lists); bool as 0
    ["dmy", "-7", "1e3", "05/03/2024", "2024-03-05T23:59:59", 0, None, "cancelled", None],
]


def _cell_xlsxwriter(ws: Any, r: int, c: int, value: Any, fmt: dict[str, Any]) -> None:
    if value is None:
        return
    if isinstance(value, Error):
        ws.write_formula(r, c, "=1/0" if value == "#DIV/0!" else "=NA()", None, str(value))
    elif isinstance(value, Uncalculated):
        ws.write_formula(r, c, str(value), None, "")
    elif isinstance(value, Padded):
        ws.write_number(r, c, int(value), fmt["zip"])
    elif isinstance(value, bool):
        ws.write_boolean(r, c, value)
    elif isinstance(value, datetime):
        ws.write_datetime(r, c, value, fmt["moment"])
    elif isinstance(value, date):
        ws.write_datetime(r, c, datetime.combine(value, time()), fmt["day"])
    elif isinstance(value, int | float):
        ws.write_number(r, c, value)
    else:
        ws.write_string(r, c, value)


def write_types_xlsxwriter(path: Path) -> None:
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Types")
    fmt = {
        "zip": wb.add_format({"num_format": "00000"}),
        "day": wb.add_format({"num_format": "yyyy-mm-dd"}),
        "moment": wb.add_format({"num_format": "yyyy-mm-dd hh:mm"}),
    }
    ws.write_row(0, 0, TYPES_HEADER)
    for r, row in enumerate(TYPES_ROWS, start=1):
        for c, value in enumerate(row):
            _cell_xlsxwriter(ws, r, c, value, fmt)
    wb.close()


def write_types_openpyxl(path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Types"
    ws.append(TYPES_HEADER)
    for r, row in enumerate(TYPES_ROWS, start=2):
        for c, value in enumerate(row, start=1):
            if value is None:
                continue
            cell = ws.cell(row=r, column=c)
            if isinstance(value, Error):
                cell.value = str(value)
                cell.data_type = "e"
            elif isinstance(value, Uncalculated):
                cell.value = str(value)  # openpyxl writes the formula without a value
            elif isinstance(value, Padded):
                cell.value = int(value)
                cell.number_format = "00000"
            elif isinstance(value, datetime):
                cell.value = value
                cell.number_format = "yyyy-mm-dd hh:mm"
            elif isinstance(value, date):
                cell.value = value
                cell.number_format = "yyyy-mm-dd"
            else:
                cell.value = value
    # Ghost area: formatted but empty cells far below and to the right of the data.
    fill = PatternFill("solid", fgColor="FFFF00")
    for r in range(12, 400):
        ws.cell(row=r, column=1).fill = fill
    ws.cell(row=1, column=30).fill = fill
    wb.save(path)


def write_dates_1904(path: Path) -> None:
    """Old Mac date system: the same dates are stored as serials 1462 days smaller."""
    wb = xlsxwriter.Workbook(str(path), {"date_1904": True})
    ws = wb.add_worksheet("Dates")
    day = wb.add_format({"num_format": "yyyy-mm-dd"})
    ws.write_row(0, 0, ["Label", "Day"])
    ws.write_string(1, 0, "date cell")
    ws.write_datetime(1, 1, datetime(2024, 3, 5), day)
    ws.write_string(2, 0, "raw serial")
    ws.write_number(2, 1, 45356 - 1462)  # 2024-03-05 in the 1904 system, no date format
    wb.close()


def write_dates_1904_openpyxl(path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Dates"
    ws.append(["Label", "Day"])
    ws.append(["date cell", date(2024, 3, 5)])
    ws["B2"].number_format = "yyyy-mm-dd"
    ws.append(["raw serial", 45356 - 1462])
    wb.save(path)


def write_sheets_openpyxl(path: Path) -> None:
    """A hidden first sheet, a chart-free visible one, header below an empty row."""
    wb = openpyxl.Workbook()
    old = wb.active
    old.title = "Old"
    old.append(["Order ID", "Customer"])
    old.append([1, "hidden sheet: never read unless named"])
    old.sheet_state = "hidden"
    current = wb.create_sheet("Current")
    current.append([])  # row 1 empty: the header is the first non-empty row
    current.append(["order id", " CUSTOMER ", "Ignored column"])
    current.append([2, "Visible", "x"])
    current.append([])
    current.append([])
    current.append([3, "After blanks", None])
    wb.save(path)


def write_orders_csv(
    path: Path, count: int = 60, *, delimiter: str = ",", bom: bool = True
) -> None:
    with path.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(ORDER_HEADER)
        for row in order_rows(count, seed=11):
            out = []
            for column in ORDER_HEADER:
                value = row[column]
                if column == "Order Date" and not isinstance(value, str):
                    value = value.strftime("%d/%m/%Y")
                elif column == "Zip Code" and isinstance(value, int):
                    value = f"{value:05d}"
                elif isinstance(value, bool):
                    value = "yes" if value else "no"
                out.append(value)
            writer.writerow(out)


def write_orders_ods(path: Path, count: int = 40) -> None:
    """A minimal OpenDocument spreadsheet, written by hand (zip + content.xml)."""
    ns = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"'
    )

    def cell(value: Any) -> str:
        if value is None or value == "":
            return "<table:table-cell/>"
        if isinstance(value, bool):
            shown = "TRUE" if value else "FALSE"
            return (
                f'<table:table-cell office:value-type="boolean" office:boolean-value='
                f'"{str(value).lower()}"><text:p>{shown}</text:p></table:table-cell>'
            )
        if isinstance(value, date):
            return (
                f'<table:table-cell office:value-type="date" office:date-value='
                f'"{value.isoformat()}"><text:p>{value.isoformat()}</text:p></table:table-cell>'
            )
        if isinstance(value, int | float):
            return (
                f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>"
            )
        return (
            f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}'
            "</text:p></table:table-cell>"
        )

    rows = ["<table:table-row>" + "".join(cell(h) for h in ORDER_HEADER) + "</table:table-row>"]
    for row in order_rows(count, seed=5):
        values = [row[h] for h in ORDER_HEADER]
        values = [
            f"{v:05d}" if h == "Zip Code" and isinstance(v, int) else v
            for h, v in zip(ORDER_HEADER, values, strict=True)
        ]
        values = [None if v == "#N/A" else v for v in values]
        rows.append("<table:table-row>" + "".join(cell(v) for v in values) + "</table:table-row>")
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns}>'
        '<office:body><office:spreadsheet><table:table table:name="Orders">'
        + "".join(rows)
        + "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet"
        )
        archive.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)


def write_orders_xls(path: Path, count: int = 30) -> bool:
    """The legacy binary format (BIFF8), written by xlwt when it is installed (it is not a
    dependency: the committed orders.xls is enough for the tests)."""
    try:
        import xlwt  # type: ignore[import-not-found]
    except ImportError:
        return False
    book = xlwt.Workbook()
    sheet = book.add_sheet("Orders")
    day = xlwt.easyxf(num_format_str="yyyy-mm-dd")
    zip_code = xlwt.easyxf(num_format_str="00000")
    for c, name in enumerate(ORDER_HEADER):
        sheet.write(0, c, name)
    for r, row in enumerate(order_rows(count, seed=3), start=1):
        for c, column in enumerate(ORDER_HEADER):
            value = row[column]
            if value == "" or value == "#N/A":
                continue
            if column == "Order Date" and isinstance(value, date):
                sheet.write(r, c, value, day)
            elif column == "Zip Code" and isinstance(value, int):
                sheet.write(r, c, value, zip_code)
            else:
                sheet.write(r, c, value)
    book.save(str(path))
    return True


def write_all(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    writers = {
        "orders.xlsx": write_orders_xlsx,
        "orders.csv": write_orders_csv,
        "orders_semicolon.csv": lambda p: write_orders_csv(p, 25, delimiter=";", bom=False),
        "orders.ods": write_orders_ods,
        "types_xlsxwriter.xlsx": write_types_xlsxwriter,
        "types_openpyxl.xlsx": write_types_openpyxl,
        "dates_1904_xlsxwriter.xlsx": write_dates_1904,
        "dates_1904_openpyxl.xlsx": write_dates_1904_openpyxl,
        "sheets_openpyxl.xlsx": write_sheets_openpyxl,
    }
    written = []
    if write_orders_xls(out / "orders.xls"):
        written.append(out / "orders.xls")
    for name, write in writers.items():
        target = out / name
        write(target)
        written.append(target)
    return written
