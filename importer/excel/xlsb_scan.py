"""Excel binary workbooks (.xlsb): the sheet's area measured before calamine reads it.

calamine reads an .xlsb sheet's cells sparsely but then lays them out densely over their
bounding box; a cell's column is a 32-bit number it does not check, so one stray (or
forged) cell far to the right asks for more memory than any machine has, and the process
aborts. This pass walks the sheet part's records once (row headers and cell records only)
and measures the box, which is then held to the memory budget.
"""

from __future__ import annotations

import posixpath
import struct
import zipfile
from collections.abc import Iterator

from defusedxml import ElementTree as SafeET

from importer.errors import InputError
from importer.excel.base import MAX_COLS, MAX_ROWS, first_with_header, sheet_candidates
from importer.excel.calamine_engine import (
    CalamineReader,
    calamine_charts,
    calamine_sheets,
    open_calamine_workbook,
)
from importer.excel.sniff import Source
from importer.excel.xlsx_parts import UNPACK_ERRORS

# calamine's Data value per cell of the area.
BYTES_PER_CELL = 32
_ROW_HEADER = 0x0000
_CELL_TYPES = frozenset(range(0x0002, 0x000C))  # BrtCellRk .. BrtFmlaError (not blanks)
_BUNDLE_SHEET = 0x009C
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


def sheet_area(data: bytes) -> tuple[int, int]:
    """(rows, columns) of the bounding box of the sheet part's non-blank cells."""
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
        elif kind == _END_SHEET_DATA:
            break
    if first_row is None or first_col is None:
        return 0, 0
    return last_row - first_row + 1, last_col - first_col + 1


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
                areas = {
                    sheet: sheet_area(archive.read(parts[sheet]))
                    for sheet in candidates
                    if parts.get(sheet) in archive.NameToInfo
                }
        except UNPACK_ERRORS as exc:
            raise InputError(f"{source.name}: the file is damaged ({exc})") from None
    except BaseException:
        workbook.close()
        raise

    def open_one(chosen: str) -> CalamineReader:
        rows, cols = areas.get(chosen, (0, 0))
        if cols > MAX_COLS or rows * cols * BYTES_PER_CELL > budget:
            if opened:
                opened.pop().close()
            raise InputError(
                f"{source.name}: sheet {chosen!r} spans {rows:,} rows x {cols:,} columns, "
                "too large to load at once; delete stray cells far from the data"
            )
        workbook = opened.pop() if opened else None
        return CalamineReader(source, "xlsb", chosen, workbook=workbook)

    return first_with_header(candidates, open_one)
