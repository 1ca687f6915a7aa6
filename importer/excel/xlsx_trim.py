"""A resume reads only what is left: the workbook without the rows already committed.

calamine parses a whole sheet before it yields a row, so a job resumed half-way would parse
the committed half again. ``without_rows`` cuts the sheet's XML between the header row and
the last committed row and hands back a workbook calamine reads in the time of the rest.
Rows keep their numbers (their ``r`` attributes), so row numbers, error cells and number
formats stay where they were.

The cut is found by bisection over byte offsets, which assumes rows in ascending order (as
Excel requires). Nothing here is trusted for correctness: the caller checks that the cut
workbook has exactly the uncommitted rows (their count is known) and reads the whole
sheet otherwise.
"""

from __future__ import annotations

import io
import re
import zipfile

from importer.errors import ImporterError
from importer.excel.xlsx_parts import sheet_part

# A row's start tag and its number (optionally namespace-prefixed, as some writers do).
_ROW = re.compile(rb'<(?:\w+:)?row\b[^>]*?\sr="(\d+)"')
_SHEET_DATA_END = re.compile(rb"</(?:\w+:)?sheetData>")


def _first_row_above(xml: bytes, number: int, start: int, end: int) -> int:
    """Byte offset of the first row tag in xml[start:end] whose number is above ``number``
    (``end`` when there is none); every row tag before ``lo`` is at or below it."""
    lo, hi = start, end
    while lo < hi:
        mid = (lo + hi) // 2
        found = _ROW.search(xml, mid, end)
        if found is None or int(found.group(1)) > number:
            hi = mid
        else:
            lo = found.end()
    found = _ROW.search(xml, lo, end)
    return found.start() if found is not None else end


def _sheet_data_end(xml: bytes) -> int | None:
    """Offset of </sheetData>, searched from the end (it closes the rows)."""
    tail = xml.rfind(b"sheetData>")
    if tail < 0:
        return None
    found = _SHEET_DATA_END.search(xml, max(0, tail - 64), tail + 10)
    return found.start() if found is not None else None


def without_rows(content: bytes, sheet: str, keep_through: int, drop_through: int) -> bytes | None:
    """The .xlsx workbook ``content`` with the rows keep_through+1 .. drop_through of
    ``sheet`` left out, every part stored uncompressed (calamine then skips inflating too).
    None when the sheet cannot be cut that way: the caller reads it whole."""
    if drop_through <= keep_through:
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            part = sheet_part(archive, sheet)
            if part is None:
                return None
            xml = archive.read(part)
            end = _sheet_data_end(xml)
            if end is None:
                return None
            cut_from = _first_row_above(xml, keep_through, 0, end)
            cut_to = _first_row_above(xml, drop_through, cut_from, end)
            if cut_to <= cut_from:
                return None  # nothing to leave out
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as trimmed:
                for member in archive.infolist():
                    if member.filename == part:
                        data = xml[:cut_from] + xml[cut_to:]
                    else:
                        data = archive.read(member)
                    trimmed.writestr(member.filename, data)
            return out.getvalue()
    except (zipfile.BadZipFile, OSError, ValueError, KeyError, ImporterError):
        return None  # not an .xlsx package after all (.xlsb, .ods): read it whole
