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
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from importer.excel.sniff import Source
from importer.excel.xlsx_parts import UNPACK_ERRORS, calamine_strings_part, part_named
from importer.excel.xlsx_pieces import (
    CannotCut,
    Cut,
    SheetPlan,
    Survey,
    sheet_chunks,
    start_plan,
    survey_sheet,
)
from importer.excel.xlsx_scan import RowsScanner, SheetScan

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
    special: SheetScan  # its error cells, uncalculated formulas and numbers in a 00000 format


class SplitSheet:
    """The split workbook on disk, opened by ``path``; remove() lets it go (a reader that
    opened it already keeps reading)."""

    def __init__(self, scratch: ScratchFile, pieces: list[Piece]) -> None:
        self.scratch = scratch
        self.path = scratch.path
        self.pieces = pieces

    def remove(self) -> None:
        self.scratch.close()


class ScratchFile:
    """A temporary file that no end of this process leaves behind, kill -9 included: where
    the system has /proc (Linux), a file without a name from the start, opened again by its
    descriptor's path; elsewhere a named file that close() deletes."""

    def __init__(self, directory: str | None) -> None:
        self.held: IO[bytes] | None = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115
        self.path = Path(f"/proc/self/fd/{self.held.fileno()}")
        if not self.path.exists():
            self.held.close()
            self.held = None
            handle, name = tempfile.mkstemp(suffix=".xlsx", prefix="importer-", dir=directory)
            os.close(handle)
            self.path = Path(name)

    def close(self) -> None:
        if self.held is not None:
            self.held.close()
            self.held = None
        else:
            with contextlib.suppress(OSError):
                self.path.unlink()


def first_rows(source: Source, part: str, size: int) -> tuple[SheetPlan, bytes]:
    """The sheet's plan (its head and tail; no cuts yet) and about ``size`` bytes of its
    first rows, whole rows only: where the header is looked for."""
    buffer = b""
    try:
        for data in sheet_chunks(source, part):
            buffer += data
            plan, at = start_plan(part, buffer)
            if plan is None:
                continue
            end = buffer.find(b"</" + plan.prefix + b"row>", at + size)
            if end < 0 and len(buffer) - at < size:
                continue  # the next chunk may end the row
            if end < 0:
                end = buffer.rfind(b"</" + plan.prefix + b"row>")
            return plan, buffer[at : end + len(plan.prefix) + 6] if end >= 0 else b""
    except UNPACK_ERRORS as exc:
        raise CannotCut(f"cannot unpack the sheet ({exc})") from None
    plan, at = start_plan(part, buffer)
    if plan is None:
        raise CannotCut("no rows")
    end = buffer.rfind(b"</" + plan.prefix + b"row>")
    return plan, buffer[at : end + len(plan.prefix) + 6] if end >= at else b""


def split_sheet(
    source: Source,
    plan: SheetPlan,
    *,
    piece_bytes: int,
    after_row: int,
    date1904: bool,
    zero_styles: dict[int, int],
    directory: str | None = None,
    measures: SheetScan | None = None,
    on_piece: Callable[[int], None] | None = None,
) -> SplitSheet:
    """One pass over the sheet's XML: the cuts of ``plan`` (xlsx_pieces' survey, with its
    checks) and, for the pieces holding rows after ``after_row`` (the header's row, or the
    last committed one), each as a sheet of a new workbook. CannotCut: not so. Given
    ``measures``, the same pass takes the safety pass's measures of the rows it reads into
    it (bytes not checked before: no second pass over them). ``on_piece`` hears how many
    bytes of the sheet's XML are read, as each piece is written."""
    scratch = ScratchFile(directory)
    try:
        with zipfile.ZipFile(scratch.path, "w", zipfile.ZIP_STORED, allowZip64=True) as out:
            writer = _PieceWriter(out, plan, after_row, zero_styles)
            writer.shared_parts(source)
            survey_sheet(
                source,
                plan.part,
                lambda _, at: _Splitter(plan, piece_bytes, at, writer, measures, on_piece),
            )
            if not writer.pieces:
                raise CannotCut("no rows after the header")
            writer.package(date1904)
    except BaseException:
        scratch.close()
        raise
    return SplitSheet(scratch, writer.pieces)


class _Splitter(Survey):
    """xlsx_pieces' survey, handing each piece's rows to the writer as it closes."""

    def __init__(
        self,
        plan: SheetPlan,
        piece_bytes: int,
        rows_start: int,
        writer: _PieceWriter,
        measures: SheetScan | None,
        on_piece: Callable[[int], None] | None,
    ) -> None:
        super().__init__(plan, piece_bytes, rows_start)
        self.writer = writer
        self.measures = measures
        self.on_piece = on_piece
        self.parts: list[bytes] = []

    def _segment(self, xml: bytes) -> None:
        last = self._last_row(xml)
        if last is not None and last <= self.writer.after_row:
            # Rows a resumed run does not read (they were checked when the job was
            # submitted): neither surveyed nor kept, which halves a half-way resume's pass.
            self.last_seen = last
            return
        super()._segment(xml)
        if self.measures is not None:
            self.writer.scanner.measure(xml, self.measures)
        self.parts.append(xml)

    def _last_row(self, xml: bytes) -> int | None:
        """The number of the segment's last row, found from its end (None: not so)."""
        at = max(xml.rfind(tag) for tag in self.row_tags)
        found = self.row_number.match(xml, at) if at >= 0 else None
        return int(found[1]) if found else None

    def _close(self, end: int) -> None:
        if not self.rows:
            self.piece_start = end  # a piece of skipped rows: the next is measured from here
            return
        count = len(self.plan.cuts)
        super()._close(end)
        if len(self.plan.cuts) > count:
            self.writer.add(self.plan.cuts[-1], b"".join(self.parts))
            self.parts = []
            if self.on_piece is not None:
                self.on_piece(end)


class _PieceWriter:
    def __init__(
        self, out: zipfile.ZipFile, plan: SheetPlan, after_row: int, zero_styles: dict[int, int]
    ) -> None:
        self.out = out
        self.plan = plan
        self.after_row = after_row
        self.prefix = plan.prefix
        self.row_start = re.compile(rb"<" + re.escape(self.prefix) + rb'row\b[^>]*?\br="(\d+)"')
        self.pieces: list[Piece] = []
        # The special cells, found here, in the one pass (not beside the columns' checks,
        # where the scan's regular expressions would hold the interpreter they wait for).
        self.scanner = RowsScanner(self.prefix, zero_styles)

    def shared_parts(self, source: Source) -> None:
        """The styles and the shared strings, as they are."""
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            for name, info in (
                ("xl/styles.xml", part_named(archive, "xl/styles.xml")),
                ("xl/sharedStrings.xml", calamine_strings_part(archive)),
            ):
                if info is not None:  # streamed: the strings are 70 MB at 1,000,000 rows
                    with archive.open(info) as part, self.out.open(name, "w") as copy:
                        shutil.copyfileobj(part, copy, 1 << 20)

    def add(self, cut: Cut, rows: bytes) -> None:
        if cut.last_row <= self.after_row:
            return
        if cut.first_row <= self.after_row or not self.pieces:
            # The rows up to ``after_row`` go (and, in the sheet's first piece, the XML
            # before its rows).
            later = next(
                (m for m in self.row_start.finditer(rows) if int(m[1]) > self.after_row), None
            )
            if later is None:
                return
            rows, first = rows[later.start() :], int(later[1])
        else:
            first = cut.first_row
        index = len(self.pieces)
        part = f"xl/worksheets/piece{index}.xml"
        anchor = _anchor(self.prefix, first - 1)
        self.out.writestr(part, self.plan.head + anchor + rows + self.plan.tail)
        special = self.scanner.scan(rows)
        self.pieces.append(
            Piece(index, part, first - 1, cut.last_row, cut.rows_with_values, special)
        )

    def package(self, date1904: bool) -> None:
        self.out.writestr("[Content_Types].xml", _content_types(self.pieces))
        self.out.writestr("_rels/.rels", _ROOT_RELS)
        self.out.writestr("xl/workbook.xml", _workbook(self.pieces, date1904))
        self.out.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(self.pieces))


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
