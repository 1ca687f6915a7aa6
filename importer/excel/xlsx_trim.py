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
from typing import IO

from importer.errors import ImporterError
from importer.excel.xlsx_parts import sheet_part

# A row's start tag and its number (optionally namespace-prefixed, as some writers do).
_ROW = re.compile(rb'<(?:\w+:)?row\b[^>]*?\sr="(\d+)"')
_SHEET_DATA_END = re.compile(rb"</(?:\w+:)?sheetData>")
_CHUNK = 1 << 20


def _rows_end(xml: bytes, start: int = 0, end: int | None = None) -> int | None:
    """Offset of the first ``</sheetData>`` (any prefix) within xml[start:end]: a C-level
    find of its name first, since the pattern alone tries every closing tag."""
    stop = len(xml) if end is None else end
    at = xml.find(b"sheetData>", start, stop)
    while at >= 0:
        found = _SHEET_DATA_END.search(xml, max(start, at - 66), at + 10)
        if found is not None:
            return found.start()
        at = xml.find(b"sheetData>", at + 1, stop)
    return None


def _first_row_above(xml: bytes, number: int) -> int:
    """Byte offset of the first row tag in ``xml`` whose number is above ``number``
    (``len(xml)`` when there is none), by bisection: rows ascend, as Excel requires."""
    lo, hi = 0, len(xml)
    while lo < hi:
        mid = (lo + hi) // 2
        found = _ROW.search(xml, mid)
        if found is None or int(found.group(1)) > number:
            hi = mid
        else:
            lo = found.end()
    found = _ROW.search(xml, lo)
    return found.start() if found is not None else len(xml)


def without_rows(
    content: bytes, sheet: str, keep_through: int, drop_through: int, *, chunk: int = _CHUNK
) -> bytes | None:
    """The .xlsx workbook ``content`` with the rows keep_through+1 .. drop_through of
    ``sheet`` left out, every part stored uncompressed (calamine then skips inflating too).
    None when the sheet cannot be cut that way: the caller reads it whole.

    The sheet's XML is inflated ``chunk`` bytes at a time and what is kept is written out as
    it comes: the committed rows are never held (a whole 200,000-row sheet is 69 MB)."""
    if drop_through <= keep_through:
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            part = sheet_part(archive, sheet)
            if part is None:
                return None
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as trimmed:
                for member in archive.infolist():
                    stored = zipfile.ZipInfo(member.filename, member.date_time)  # uncompressed
                    if member.filename != part:
                        trimmed.writestr(stored, archive.read(member))
                        continue
                    with archive.open(member) as xml, trimmed.open(stored, "w") as kept:
                        if not _copy_without(xml, kept, keep_through, drop_through, chunk):
                            return None
            return out.getvalue()
    except (zipfile.BadZipFile, OSError, ValueError, KeyError, ImporterError):
        return None  # not an .xlsx package after all (.xlsb, .ods): read it whole


def _copy_without(
    xml: IO[bytes], kept: IO[bytes], keep_through: int, drop_through: int, chunk: int
) -> bool:
    """Copy the sheet's XML from ``xml`` to ``kept`` without its rows keep_through+1 ..
    drop_through; False when there is nothing to leave out or no end of the rows.

    What is not yet decided waits in ``buffer`` from its last ``<`` on: a tag cut by the
    chunk's end cannot be read yet (the row pattern needs its whole ``r="..."``)."""
    buffer, last = b"", b""
    skipping = dropped = ended = rest = False
    while piece := xml.read(chunk):
        if rest:  # past the cut: kept as it comes
            seam = last + piece[:16]  # "</sheetData>" may lie across the chunks' seam
            ended = ended or _rows_end(seam) is not None or _rows_end(piece) is not None
            kept.write(piece)
            last = seam[-16:] if len(piece) < 16 else piece[-16:]
            continue
        buffer += piece
        if not skipping:  # the header and what is above it
            cut = _first_row_above(buffer, keep_through)
            if _rows_end(buffer, 0, cut) is not None:
                return False  # no row after the header
            skipping = cut < len(buffer)  # the first row after the header begins at cut
            if not skipping:
                cut = max(buffer.rfind(b"<"), 0)
            kept.write(buffer[:cut])
            buffer = buffer[cut:]
            if not skipping:
                continue
        cut = _first_row_above(buffer, drop_through)
        end = _rows_end(buffer, 0, cut)
        if end is not None:
            cut = end
        elif cut == len(buffer):
            cut = max(buffer.rfind(b"<"), 0)
            dropped = dropped or cut > 0
            buffer = buffer[cut:]
            continue
        dropped = dropped or cut > 0
        kept.write(buffer[cut:])
        ended = _rows_end(buffer, cut) is not None
        last, buffer, rest = buffer[-16:], b"", True
    return dropped and ended
