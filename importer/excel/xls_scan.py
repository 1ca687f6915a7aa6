"""The safety pass of an .xls, before any reader allocates, and the readers it lets run.

Both readers of this format trust what the file declares. calamine reserves memory for the
compound file's counts and sizes, follows every sector chain to its end (a directory chain
that loops made it grow a buffer until the machine ran out), loads every sheet when the
workbook opens, reserving each sheet's DIMENSIONS (a forged claim of four billion rows
aborts the process) and laying cells out densely over their box. xlrd stops at 65,536 rows
and 256 columns, but lays each row out as far as its last cell: a cell in column IV of every
row costs 14 bytes a column, 230 MB for a sheet of blanks a 660 KB file holds.

So check_xls, for every command that opens an .xls (open_sheet, peek_sheet, list_sheets):
1. refuses a file too large for xlrd's budget before reading it (FILE_FACTOR);
2. checks the compound file (xls_container: counts, sizes and chains) and walks the
   records once (xls_records: what each sheet really holds, the strings the shared-string
   table really holds), refusing what a reader would take more than the budget for, and a
   text cell pointing past the shared strings (xlrd: "list index out of range");
3. hands the readers the file with its declared sizes made true: the shared-string table's
   count is the strings it holds (as LibreOffice reads it: one claiming none, or too few,
   made xlrd fail, too many made it assert), and each DIMENSIONS record the cells' box.
xlrd reads the file; when it cannot parse it, calamine does, within the same bounds (the
error cells and zero-padded numbers it does not tell found by a second walk).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from importer.errors import InputError
from importer.excel.base import SheetReader, first_with_header, sheet_candidates
from importer.excel.calamine_engine import CalamineReader
from importer.excel.calamine_workbook import (
    calamine_charts,
    calamine_sheets,
    open_calamine_workbook,
)
from importer.excel.sniff import Source
from importer.excel.special_cells import SpecialCells
from importer.excel.xls_container import OLE_MAGIC, NotBounded, Stream, bare_stream, read_container
from importer.excel.xls_engine import (
    FILE_FACTOR,
    XlrdCannotParse,
    XlrdReader,
    open_xls_book,
    xlrd_sheets,
)
from importer.excel.xls_records import XlsScan, XlsSheet, scan_xls
from importer.excel.xlsb_scan import BYTES_PER_CELL

# xlrd's memory for a sheet's layout, measured: 272 bytes a row, 11.6 a column of a row.
XLRD_ROW_BYTES = 320
XLRD_SLOT_BYTES = 14


def workbook_stream(data: bytes) -> Stream:
    """The Workbook stream of a compound file (no budget: for tests and tools)."""
    return read_container(data)


@dataclass(frozen=True)
class CheckedXls:
    """An .xls the safety pass let through: the bytes the readers get, and what it found."""

    source: Source  # the file, its declared sizes made true (or as it was)
    scan: XlsScan | None  # None: a structure the pass does not know: xlrd alone may read it
    stream: bytes = b""  # the workbook stream, as the pass read it
    why: str = ""  # when scan is None: what the pass could not read

    def hold_sheet(self, budget: int) -> Callable[[str], None]:
        """A check xlrd's reader makes before it loads a sheet: its layout within budget."""
        sheets = {s.name: s for s in self.scan.sheets} if self.scan else {}
        base = self.source.size() * FILE_FACTOR

        def hold(sheet: str) -> None:
            found = sheets.get(sheet)
            if found is not None and base + xlrd_bytes(found) > budget:
                raise _too_wide(self.source.name, found, base + xlrd_bytes(found), budget)

        return hold


def xlrd_bytes(sheet: XlsSheet) -> int:
    """What xlrd takes to lay the sheet out (its rows, each as far as its last cell)."""
    rows = max(max(sheet.widths, default=-1) + 1, sheet.merged_rows)
    return rows * XLRD_ROW_BYTES + sum(sheet.widths.values()) * XLRD_SLOT_BYTES


def _too_wide(name: str, sheet: XlsSheet, need: int, budget: int) -> InputError:
    rows = max(max(sheet.widths, default=-1) + 1, sheet.merged_rows)
    last = max(sheet.widths.values(), default=1)
    return InputError(
        f"{name}: sheet {sheet.name!r} reaches column {_letters(last - 1)} over {rows:,} "
        f"rows, about {need >> 20} MB to read, over the reader's memory budget "
        f"({budget >> 20} MB, reader.memory_budget_mb); delete stray cells far from the "
        "data, or raise the budget"
    )


def _letters(col: int) -> str:
    out = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def check_xls(source: Source, budget: int) -> CheckedXls:
    """The safety pass (see the module's docstring); InputError for what it refuses."""
    name = source.name
    size = source.size()
    if size * FILE_FACTOR > budget:
        raise InputError(
            f"{name}: a {size >> 20} MB .xls would take about {size * FILE_FACTOR >> 20} MB "
            f"to read, over the reader's memory budget ({budget >> 20} MB, "
            "reader.memory_budget_mb); save it as .xlsx (read in constant memory) or raise "
            "the budget"
        )
    with source.open() as handle:
        data = handle.read()
    try:
        if data.startswith(OLE_MAGIC):
            stream = read_container(data, name, budget)
        else:
            stream = bare_stream(data)
        scan = scan_xls(stream.data, special=False)
    except (NotBounded, struct.error, IndexError, ValueError) as exc:
        return CheckedXls(source, None, why=str(exc) or type(exc).__name__)
    _hold_strings(name, scan)
    repaired = _repaired(data, stream, scan)
    checked = source if repaired == data else Source(None, repaired, name)
    return CheckedXls(checked, scan, stream.data)


def _hold_strings(name: str, scan: XlsScan) -> None:
    """A text cell pointing past the shared strings the table holds is refused."""
    held = scan.strings.held if scan.strings is not None else 0
    for sheet in scan.sheets:
        if sheet.largest_string is not None and sheet.largest_string[0] >= held:
            index, row, col = sheet.largest_string
            raise InputError(
                f"{name}: sheet {sheet.name!r} has a text cell ({_letters(col)}{row + 1}) "
                f"pointing at shared string {index:,}, but the shared-strings table holds "
                f"{f'only {held:,}' if held else 'none'}; the file is damaged"
            )


def _repaired(data: bytes, stream: Stream, scan: XlsScan) -> bytes:
    """The file with its declared sizes made true: the shared-string count, and each
    sheet's DIMENSIONS (the box of the cells calamine reads)."""
    out = bytearray(data)

    def put(at: int, record: bytes) -> None:
        for index, byte in enumerate(record):
            out[stream.file_offset(at + index)] = byte

    strings = scan.strings
    if strings is not None and strings.declared != strings.held:
        put(strings.at + 4, struct.pack("<I", strings.held))
    for sheet in scan.sheets:
        if sheet.dimensions is None:
            continue
        first_row, first_col = sheet.first or (0, 0)
        end_row, end_col = (sheet.last[0] + 1, sheet.last[1] + 1) if sheet.first else (0, 0)
        if sheet.dimensions_size == 14:
            put(sheet.dimensions, struct.pack("<IIHH", first_row, end_row, first_col, end_col))
        else:
            put(sheet.dimensions, struct.pack("<HHHH", first_row, end_row, first_col, end_col))
    return bytes(out)


def open_xls(source: Source, wanted_sheet: str | None, budget: int) -> SheetReader:
    """The sheet of an .xls, after the safety pass: read by xlrd, or by calamine when xlrd
    cannot parse the file (it says so in a note)."""
    checked = check_xls(source, budget)
    try:
        return XlrdReader(checked.source, wanted_sheet, hold=checked.hold_sheet(budget))
    except XlrdCannotParse as refused:
        # Files other readers open (a damaged directory entry, ...): calamine, bounded by
        # the pass, says what it lost.
        return open_xls_by_calamine(checked, wanted_sheet, budget, refused.reason)


def xls_sheets(source: Source, budget: int) -> list[tuple[str, bool]]:
    """(name, visible) of the worksheets, after the safety pass: as xlrd lists them, or as
    calamine would when xlrd cannot parse the file."""
    checked = check_xls(source, budget)
    try:
        book = open_xls_book(checked.source)
    except XlrdCannotParse as refused:
        if checked.scan is None:
            reason = refused.reason
            raise InputError(f"{source.name}: the workbook cannot be read ({reason})") from None
        return [(sheet.name, sheet.visible) for sheet in checked.scan.sheets]
    try:
        return xlrd_sheets(book)
    finally:
        book.release_resources()


def open_xls_by_calamine(
    checked: CheckedXls, wanted_sheet: str | None, budget: int, why: str
) -> SheetReader:
    """The sheet read by calamine, for an .xls xlrd cannot parse (`why`: xlrd's reason).
    InputError with that reason when the pass could not bound it or calamine fails too."""
    name = checked.source.name
    if checked.scan is None or checked.scan.old:
        raise InputError(f"{name}: the workbook cannot be read ({why})")
    scan = scan_xls(checked.stream)  # again, with the special cells calamine cannot tell
    held = sum(s.rows * s.cols for s in scan.sheets) * BYTES_PER_CELL
    if held > budget:  # calamine loads every sheet when the workbook opens
        largest = max(scan.sheets, key=lambda s: s.rows * s.cols)
        raise InputError(
            f"{name}: sheet {largest.name!r} spans {largest.rows:,} rows x "
            f"{largest.cols:,} columns, too large to load at once; delete stray cells far "
            "from the data"
        )
    try:
        workbook = open_calamine_workbook(checked.source, "xls")
    except InputError as also:
        raise InputError(
            f"{name}: the workbook cannot be read ({why}; nor by calamine: "
            f"{str(also).rsplit('(', 1)[-1].rstrip(')')})"
        ) from None
    return _calamine_sheet(checked.source, scan, workbook, wanted_sheet, why)


def _calamine_sheet(
    source: Source, scan: XlsScan, workbook: Any, wanted_sheet: str | None, why: str
) -> SheetReader:
    name = source.name
    opened = [workbook]
    try:
        candidates = sheet_candidates(
            name, wanted_sheet, calamine_sheets(workbook), calamine_charts(workbook)
        )
    except BaseException:
        workbook.close()
        raise
    by_name = {s.name: s for s in scan.sheets}
    note = f"{name}: read with calamine, since xlrd cannot parse this .xls ({why})"
    if not scan.formats_read:
        note += "; its number formats were not found: zero-padded numbers (00501) read as 501"

    def open_one(chosen: str) -> CalamineReader:
        sheet = by_name.get(chosen)
        reader = CalamineReader.whole_sheet(
            source,
            "xls",
            chosen,
            SpecialCells(dict(sheet.overrides) if sheet else {}),
            workbook=opened.pop() if opened else None,
            date1904=scan.date1904,
        )
        reader.notes = (note,)
        return reader

    return first_with_header(candidates, open_one)
