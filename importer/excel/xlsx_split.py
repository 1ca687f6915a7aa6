"""A big .xlsx sheet laid out as one workbook of many small sheets, for the columnar reader.

fastexcel (calamine into Arrow columns) parses a whole sheet at once, and the shared strings
once per workbook. Cut at row boundaries (xlsx_pieces plans the cuts), each piece of the
sheet becomes a sheet of its own in one new workbook beside the original's styles and shared
strings, untouched: the strings are parsed once, a piece's rows one piece at a time, and no
cell is rewritten. The package is written uncompressed to a temporary file (its rows are the
original's decompressed XML: on disk, not in memory).

Each piece begins with an anchor: one text cell in column A on the row just above its first
data row (a row the piece does not hold). calamine's range then starts at that row and at
column A, so the n-th row fastexcel gives is Excel row anchor + n and its k-th column is
column k + 1, whatever the piece's own first row or column is. Rows up to the header (the
first piece's) are left out.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from importer.excel.sniff import Source
from importer.excel.xlsx_parts import UNPACK_ERRORS, calamine_strings_part, part_named
from importer.excel.xlsx_pieces import CannotCut, Cut, SheetPlan, rows_of

ANCHOR_TEXT = "\u2063"  # an invisible separator: never a value the reader keeps
_CONTENT_TYPES = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    b'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    b'officedocument.spreadsheetml.sheet.main+xml"/>%s</Types>'
)
_SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)


@dataclass(frozen=True)
class Piece:
    """Sheet ``index`` of the split workbook: Excel rows ``anchor + 1`` .. ``last_row``."""

    index: int
    part: str
    anchor: int  # the Excel row of the anchor cell (fastexcel's row 0)
    last_row: int
    rows_with_values: int


class SplitSheet:
    """The split workbook on disk; remove() (or the context) deletes it."""

    def __init__(self, path: Path, pieces: list[Piece]) -> None:
        self.path = path
        self.pieces = pieces

    def __enter__(self) -> SplitSheet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()


def split_sheet(
    source: Source, plan: SheetPlan, *, after_row: int, date1904: bool, directory: str | None = None
) -> SplitSheet:
    """The pieces of ``plan`` holding rows after ``after_row`` (the header's row, or the last
    committed one), as sheets of a new workbook. CannotCut: the sheet cannot be split so."""
    cuts = [c for c in plan.cuts if c.last_row > after_row]
    if not cuts:
        raise CannotCut("no rows after the header")
    prefix = plan.tail[2 : plan.tail.index(b"sheetData")]
    handle, name = tempfile.mkstemp(suffix=".xlsx", prefix="importer-", dir=directory)
    os.close(handle)
    path = Path(name)
    try:
        pieces = _write(source, plan, cuts, after_row, prefix, date1904, path)
    except BaseException:
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    return SplitSheet(path, pieces)


def _write(
    source: Source,
    plan: SheetPlan,
    cuts: list[Cut],
    after_row: int,
    prefix: bytes,
    date1904: bool,
    path: Path,
) -> list[Piece]:
    pieces: list[Piece] = []
    row_start = re.compile(rb"<" + re.escape(prefix) + rb'row\b[^>]*?\br="(\d+)"')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True) as out:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            for wanted in ("xl/styles.xml",):
                info = part_named(archive, wanted)
                if info is not None:
                    out.writestr(wanted, archive.read(info))
            strings = calamine_strings_part(archive)
            if strings is not None:
                out.writestr("xl/sharedStrings.xml", archive.read(strings))
        for index, (cut, rows) in enumerate(_rows_of(source, plan, cuts)):
            if cut.first_row <= after_row:
                # The rows up to ``after_row`` (the header and above, or committed) go.
                later = next((m for m in row_start.finditer(rows) if int(m[1]) > after_row), None)
                rows = rows[later.start() :] if later is not None else b""
                first = int(later[1]) if later is not None else cut.last_row + 1
            else:
                first = cut.first_row
            anchor = first - 1
            part = f"xl/worksheets/piece{index}.xml"
            out.writestr(part, plan.head + _anchor(prefix, anchor) + rows + plan.tail)
            pieces.append(Piece(index, part, anchor, cut.last_row, cut.rows_with_values))
        out.writestr("[Content_Types].xml", _content_types(pieces))
        out.writestr("_rels/.rels", _ROOT_RELS)
        out.writestr("xl/workbook.xml", _workbook(pieces, date1904))
        out.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(pieces))
    return pieces


def _rows_of(source: Source, plan: SheetPlan, cuts: list[Cut]) -> Iterator[tuple[Cut, bytes]]:
    """Each cut's rows of XML, from one pass over the sheet's decompressed part."""
    try:
        yield from rows_of(source, plan, cuts)
    except UNPACK_ERRORS as exc:
        raise CannotCut(f"cannot unpack the sheet ({exc})") from None


def _anchor(prefix: bytes, row: int) -> bytes:
    if row < 1:
        raise CannotCut("data on the sheet's first row")
    p, r = prefix, str(row).encode()
    text = ANCHOR_TEXT.encode()
    return (
        b"<" + p + b'row r="' + r + b'"><' + p + b'c r="A' + r + b'" t="inlineStr"><' + p + b"is><"
        + p + b"t>" + text + b"</" + p + b"t></" + p + b"is></" + p + b"c></" + p + b"row>"
    )  # fmt: skip


def _content_types(pieces: list[Piece]) -> bytes:
    overrides = "".join(
        f'<Override PartName="/{p.part}" ContentType="{_SHEET_TYPE}"/>' for p in pieces
    )
    return _CONTENT_TYPES % overrides.encode()


def _workbook(pieces: list[Piece], date1904: bool) -> str:
    sheets = "".join(
        f'<sheet name="p{p.index}" sheetId="{p.index + 1}" r:id="rIdP{p.index}"/>' for p in pieces
    )
    flag = '<workbookPr date1904="1"/>' if date1904 else "<workbookPr/>"
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns='
        '"http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r='
        f'"{_REL}">{flag}<sheets>{sheets}</sheets></workbook>'
    )


def _workbook_rels(pieces: list[Piece]) -> str:
    rels = "".join(
        f'<Relationship Id="rIdP{p.index}" Type="{_REL}/worksheet"'
        f' Target="worksheets/piece{p.index}.xml"/>'
        for p in pieces
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'{rels}<Relationship Id="rIdS" Type="{_REL}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rIdT" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/>'
        "</Relationships>"
    )
