"""Excel binary workbooks (.xlsb): the sheet measured, and its special cells found, before
calamine reads it.

calamine reads an .xlsb sheet's cells sparsely but then lays them out densely over their
bounding box; a cell's column is a 32-bit number it does not check, so one stray (or
forged) cell far to the right asks for more memory than any machine has, and the process
aborts. It also reads error cells (#N/A) as empty and gives no number formats (zip code
00501 arrives as 501). This pass walks the sheet part's records once (row headers and cell
records only): it measures the box, which is then held to the memory budget, and notes the
error cells and the numbers in zero-padded formats (from styles.bin) as overrides.
"""

from __future__ import annotations

import posixpath
import struct
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field

from defusedxml import ElementTree as SafeET

from importer.errors import InputError
from importer.excel.base import MAX_COLS, MAX_ROWS, first_with_header, sheet_candidates
from importer.excel.calamine_engine import CalamineReader
from importer.excel.calamine_workbook import (
    calamine_charts,
    calamine_sheets,
    open_calamine_workbook,
)
from importer.excel.sniff import Source
from importer.excel.special_cells import SpecialCells, number_with_format
from importer.excel.values import CellError, zero_padded_width
from importer.excel.xlsx_parts import UNPACK_ERRORS

# calamine's memory per cell of the area: the dense Data value (32 bytes), plus the sparse
# cell it was laid out from and a text's own copy on the heap.
BYTES_PER_CELL = 64
_ROW_HEADER = 0x0000
_CELL_TYPES = frozenset(range(0x0002, 0x000C))  # BrtCellRk .. BrtFmlaError (not blanks)
_BUNDLE_SHEET = 0x009C
_WORKBOOK_PROPERTIES = 0x0099
_END_SHEET_DATA = 0x0092
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_U32 = struct.Struct("<I")


def _records(data: bytes) -> Iterator[tuple[int, int, int]]:
    """(record type, data start, data end) of each record: both numbers are stored 7 bits
    a byte, the high bit saying another byte follows (MS-XLSB 2.1.4)."""
    at, end = 0, len(data)
    while at < end:
        kind = data[at]
        at += 1
        if kind & 0x80:
            if at >= end:
                return
            kind = (kind & 0x7F) | ((data[at] & 0x7F) << 7)
            at += 1
        size = shift = 0
        for _ in range(4):
            if at >= end:
                return
            byte = data[at]
            at += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        yield kind, at, min(at + size, end)
        at += size


def _sheet_parts(archive: zipfile.ZipFile, name: str) -> dict[str, str]:
    """Sheet name -> its part, from workbook.bin and its relationships."""
    try:
        rels_root = SafeET.fromstring(archive.read("xl/_rels/workbook.bin.rels"))
    except KeyError:
        return {}
    except Exception as exc:  # defusedxml's refusals and ParseError
        raise InputError(
            f"{name}: the workbook is damaged or unsafe (workbook.bin.rels: {type(exc).__name__})"
        ) from None
    targets = {
        rel.get("Id", ""): posixpath.normpath(posixpath.join("xl", rel.get("Target", "")))
        for rel in rels_root.iter(_REL)
    }
    try:
        workbook = archive.read("xl/workbook.bin")
    except KeyError:
        return {}
    parts: dict[str, str] = {}
    for kind, start, end in _records(workbook):
        if kind != _BUNDLE_SHEET or end - start < 12:
            continue
        texts = []
        at = start + 8  # hsState, iTabID
        for _ in range(2):  # strRelID, strName
            if at + 4 > end:
                break
            (count,) = _U32.unpack_from(workbook, at)
            at += 4
            if count == 0xFFFFFFFF:  # a null relationship id
                texts.append("")
                continue
            texts.append(workbook[at : at + 2 * count].decode("utf-16-le", "replace"))
            at += 2 * count
        if len(texts) == 2 and texts[0] in targets:
            parts[texts[1]] = targets[texts[0]]
    return parts


_ERROR_CODES = {
    0x00: "#NULL!",
    0x07: "#DIV/0!",
    0x0F: "#VALUE!",
    0x17: "#REF!",
    0x1D: "#NAME?",
    0x24: "#NUM!",
    0x2A: "#N/A",
    0x2B: "#GETTING_DATA",
}
_CELL_ERROR, _FORMULA_ERROR = 0x0003, 0x000B
_CELL_RK, _CELL_REAL, _FORMULA_NUMBER = 0x0002, 0x0005, 0x0009
_FORMAT, _XF, _BEGIN_CELL_XFS, _END_CELL_XFS = 0x002C, 0x002F, 0x0269, 0x026A
_F64 = struct.Struct("<d")
_I32 = struct.Struct("<i")


@dataclass
class XlsbScan:
    rows: int = 0  # the bounding box of the non-blank cells
    cols: int = 0
    # (row number, 0-based column) -> the value calamine cannot give: error cells (it
    # reads them as empty) and numbers in zero-padded formats (it gives no formats)
    overrides: dict[tuple[int, int], object] = field(default_factory=dict)


def zero_padded_styles(styles: bytes) -> dict[int, int]:
    """Cell XF index -> digits, for the cell formats that pad numbers with zeros (00000)."""
    formats: dict[int, int] = {}
    out: dict[int, int] = {}
    in_cell_xfs = False
    index = 0
    for kind, start, end in _records(styles):
        if kind == _FORMAT and end - start >= 6:
            number = int.from_bytes(styles[start : start + 2], "little")
            (count,) = _U32.unpack_from(styles, start + 2)
            code = styles[start + 6 : start + 6 + 2 * count].decode("utf-16-le", "replace")
            if (width := zero_padded_width(code)) is not None:
                formats[number] = width
        elif kind == _BEGIN_CELL_XFS:
            in_cell_xfs, index = True, 0
        elif kind == _END_CELL_XFS:
            in_cell_xfs = False
        elif kind == _XF and in_cell_xfs and end - start >= 4:
            number = int.from_bytes(styles[start + 2 : start + 4], "little")
            if number in formats:
                out[index] = formats[number]
            index += 1
    return out


def _rk(raw: int) -> float:
    value = float(_I32.unpack(_U32.pack(raw))[0] >> 2) if raw & 2 else _high_double(raw)
    return value / 100 if raw & 1 else value


def _high_double(raw: int) -> float:
    return float(_F64.unpack(b"\0\0\0\0" + _U32.pack(raw & 0xFFFFFFFC))[0])


def scan_xlsb_sheet(data: bytes, zero_styles: dict[int, int]) -> XlsbScan:
    """One walk over a sheet part's records: the area, and the overrides."""
    scan = XlsbScan()
    row = 0
    first_row = first_col = None
    last_row = last_col = -1
    for kind, start, end in _records(data):
        if end - start < 4:
            continue
        if kind == _ROW_HEADER:
            (row,) = _U32.unpack_from(data, start)
            if row > MAX_ROWS:
                break  # calamine stops at an invalid row too
        elif kind in _CELL_TYPES:
            (col,) = _U32.unpack_from(data, start)
            first_row = row if first_row is None else min(first_row, row)
            first_col = col if first_col is None else min(first_col, col)
            last_row, last_col = max(last_row, row), max(last_col, col)
            if end - start < 9:
                continue
            if kind in (_CELL_ERROR, _FORMULA_ERROR):
                code = _ERROR_CODES.get(data[start + 8], "#VALUE!")
                scan.overrides[(row + 1, col)] = CellError(code)
            elif zero_styles and kind in (_CELL_RK, _CELL_REAL, _FORMULA_NUMBER):
                style = int.from_bytes(data[start + 4 : start + 7], "little")
                width = zero_styles.get(style)
                if width is None:
                    continue
                if kind == _CELL_RK and end - start >= 12:
                    number = _rk(_U32.unpack_from(data, start + 8)[0])
                elif end - start >= 16:
                    (number,) = _F64.unpack_from(data, start + 8)
                else:
                    continue
                scan.overrides[(row + 1, col)] = number_with_format(number, width)
        elif kind == _END_SHEET_DATA:
            break
    if first_row is not None and first_col is not None:
        scan.rows, scan.cols = last_row - first_row + 1, last_col - first_col + 1
    return scan


def date1904(archive: zipfile.ZipFile) -> bool:
    """The workbook counts dates from 1904 (BrtWbProp's first flag, MS-XLSB 2.4.820)."""
    try:
        workbook = archive.read("xl/workbook.bin")
    except KeyError:
        return False
    for kind, start, end in _records(workbook):
        if kind == _WORKBOOK_PROPERTIES and end > start:
            return bool(workbook[start] & 1)
    return False


def open_xlsb(source: Source, wanted_sheet: str | None, budget: int) -> CalamineReader:
    workbook = open_calamine_workbook(source, "xlsb")
    opened = [workbook]  # the first sheet tried uses it; a later one opens its own
    try:
        candidates = sheet_candidates(
            source.name, wanted_sheet, calamine_sheets(workbook), calamine_charts(workbook)
        )
        try:
            with source.open() as handle, zipfile.ZipFile(handle) as archive:
                parts = _sheet_parts(archive, source.name)
                counts_from_1904 = date1904(archive)
                styles = (
                    archive.read("xl/styles.bin") if "xl/styles.bin" in archive.NameToInfo else b""
                )
                zero_styles = zero_padded_styles(styles)
                scans = {
                    sheet: scan_xlsb_sheet(archive.read(parts[sheet]), zero_styles)
                    for sheet in candidates
                    if parts.get(sheet) in archive.NameToInfo
                }
        except UNPACK_ERRORS as exc:
            raise InputError(f"{source.name}: the file is damaged ({exc})") from None
    except BaseException:
        workbook.close()
        raise

    def open_one(chosen: str) -> CalamineReader:
        scan = scans.get(chosen, XlsbScan())
        rows, cols = scan.rows, scan.cols
        if cols > MAX_COLS or rows * cols * BYTES_PER_CELL > budget:
            if opened:
                opened.pop().close()
            raise InputError(
                f"{source.name}: sheet {chosen!r} spans {rows:,} rows x {cols:,} columns, "
                "too large to load at once; delete stray cells far from the data"
            )
        workbook = opened.pop() if opened else None
        return CalamineReader.whole_sheet(
            source,
            "xlsb",
            chosen,
            SpecialCells(scan.overrides),
            workbook=workbook,
            date1904=counts_from_1904,
        )

    return first_with_header(candidates, open_one)
