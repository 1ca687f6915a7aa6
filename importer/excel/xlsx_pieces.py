"""A big .xlsx sheet cut into pieces calamine can load one at a time.

calamine parses a whole sheet into memory before it yields a row: a million rows with a
million unique texts took 1.2 GB. Streaming it with openpyxl instead was five times slower.
Cut at row boundaries, the sheet becomes a series of small workbooks, each holding the same
parts (styles, shared strings) and a slice of the rows. calamine reads each at its own speed,
and the next one while the rows of this one are checked (its parse releases the GIL).

Rows keep their ``r`` numbers, so row numbers, error cells and number formats stay where
they were; the header lives in the first piece only. A piece's workbook leaves out what
calamine does not read for cell values (other sheets' rows, media) and the ``<dimension>``
(calamine sizes its buffers by it). The survey that plans the cuts checks that row numbers
ascend from piece to piece; a sheet where they do not (or rows without numbers) is not cut.
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from importer.excel.sniff import Source
from importer.excel.xlsx_parts import UNPACK_ERRORS, calamine_strings_part
from importer.excel.xlsx_scan import MAX_ROW_BYTES
from importer.excel.xlsx_strings import StringsTable

CHUNK = 4 << 20
_ROOT = re.compile(rb"<((?:\w+:)?)worksheet\b")
_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\b[^>]*/>")
_EMPTY_SHEET = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    b"<sheetData/></worksheet>"
)
_SKIPPED_FOLDERS = ("xl/media/", "xl/embeddings/", "xl/printerSettings/")


class CannotCut(Exception):
    """The sheet's XML is not laid out so that it can be cut safely: read it whole."""


@dataclass(frozen=True)
class Cut:
    """One piece: bytes [start, end) of the sheet's decompressed XML, rows first..last."""

    start: int
    end: int
    first_row: int
    last_row: int
    rows_with_values: int  # rows holding a value: what the piece may yield (an estimate)


@dataclass
class SheetPlan:
    """Where to cut the sheet; the XML before its rows, and how to close a piece."""

    part: str
    head: bytes  # the XML up to and including <sheetData>, without <dimension>
    tail: bytes  # what closes a piece: </sheetData></worksheet>
    cuts: list[Cut] = field(default_factory=list)

    @property
    def prefix(self) -> bytes:
        """The namespace prefix of the sheet's elements ("x:"), or b""."""
        return self.tail[2 : self.tail.index(b"sheetData")]

    def rows_after(self, row: int) -> int:
        """About how many non-blank rows come after Excel row ``row`` (the pieces' counts of
        rows holding a value; exact for sheets without value-less or blank-text rows)."""
        return sum(c.rows_with_values for c in self.cuts if c.first_row > row) + sum(
            _rows_after_in(c, row) for c in self.cuts if c.first_row <= row < c.last_row
        )


def _rows_after_in(cut: Cut, row: int) -> int:
    span = cut.last_row - cut.first_row + 1
    return round(cut.rows_with_values * (cut.last_row - row) / span)


def sheet_chunks(source: Source, part: str) -> Iterator[bytes]:
    with source.open() as handle, zipfile.ZipFile(handle) as archive, archive.open(part) as xml:
        while data := xml.read(CHUNK):
            yield data


def plan_pieces(source: Source, part: str, piece_bytes: int) -> SheetPlan:
    """Survey the sheet's XML once and plan cuts about ``piece_bytes`` apart."""
    return survey_sheet(source, part, lambda plan, at: Survey(plan, piece_bytes, at))


def survey_sheet(
    source: Source, part: str, survey_for: Callable[[SheetPlan, int], Survey]
) -> SheetPlan:
    """One pass over the sheet's XML, complete rows at a time, through the survey that
    ``survey_for(plan, offset of the first row)`` makes once the rows begin."""
    survey: Survey | None = None
    carry = b""
    try:
        for data in sheet_chunks(source, part):
            buffer = carry + data
            if survey is None:
                plan, at = start_plan(part, buffer)
                if plan is None:
                    carry = buffer
                    continue
                survey = survey_for(plan, at)
            cut = buffer.rfind(survey.row_end)
            if cut < 0:
                if len(buffer) > MAX_ROW_BYTES:  # the safety pass refuses such a row
                    raise CannotCut("a row larger than the safety pass takes")
                carry = buffer
                continue
            cut += len(survey.row_end)
            survey.take(buffer[:cut])
            carry = buffer[cut:]
    except UNPACK_ERRORS as exc:
        raise CannotCut(f"cannot unpack the sheet ({exc})") from None
    if survey is None:
        raise CannotCut("no rows")
    return survey.finish()


@dataclass(frozen=True)
class RowPatterns:
    """How a sheet's rows are found, for its namespace prefix ("x:", or b"")."""

    number: re.Pattern[bytes]  # a row's tag up to its number (group 1)
    tags: tuple[bytes, bytes]  # every row tag begins with one of these
    end: bytes
    valueless: re.Pattern[bytes]  # self-closing, or only self-closing (styled) cells
    opening: bytes  # what both tags begin with
    valued_end: bytes  # the end of a row whose last cell holds something

    @classmethod
    def for_prefix(cls, raw_ns: bytes) -> RowPatterns:
        ns = re.escape(raw_ns)
        return cls(
            re.compile(rb"<" + ns + rb'row\b[^>]*?\br="(\d+)"'),
            (b"<" + raw_ns + b"row ", b"<" + raw_ns + b"row>"),
            b"</" + raw_ns + b"row>",
            re.compile(
                rb"<" + ns + rb"row\b[^>]*?(?:/>|>(?:\s*<" + ns + rb"c\b[^>]*/>)*\s*</"
                + ns + rb"row>)"
            ),
            b"<" + raw_ns + b"row",
            b"</" + raw_ns + b"c></" + raw_ns + b"row>",
        )  # fmt: skip


def rows_in(xml: bytes | bytearray, rows: RowPatterns) -> tuple[list[int], int]:
    """The numbers of these whole rows of XML, ascending (CannotCut: rows without numbers,
    or out of order), and how many of them hold a value."""
    numbers = list(map(int, rows.number.findall(xml)))
    # Each number was found at a "<row": as many of those as numbers, and every row tag
    # has one (a count instead of one per spelling of the tag; 8 MB: 6 ms against 10).
    if xml.count(rows.opening) != len(numbers) and sum(map(xml.count, rows.tags)) != len(numbers):
        raise CannotCut("rows without numbers")
    if not numbers:
        return numbers, 0
    if any(a >= b for a, b in pairwise(numbers)):
        raise CannotCut("rows out of order")
    # Every row ending in a cell that holds something: none is valueless (a count instead
    # of the pattern tried at every row; 8 MB: 3 ms against 12).
    if xml.count(rows.valued_end) == len(numbers):
        return numbers, len(numbers)
    return numbers, len(numbers) - len(rows.valueless.findall(xml))


class Survey:
    """The cuts, taken from complete rows of XML as they stream past."""

    def __init__(self, plan: SheetPlan, piece_bytes: int, rows_start: int) -> None:
        self.plan = plan
        self.piece_bytes = piece_bytes
        self.patterns = RowPatterns.for_prefix(plan.prefix)
        self.row_number = self.patterns.number
        self.row_tags = self.patterns.tags
        self.row_end = self.patterns.end
        self.offset = 0  # decompressed offset of the next body's first byte
        self.piece_start = rows_start
        self.rows: list[int] = []  # first and last row numbers of each segment so far
        self.valued = 0
        self.last_seen = 0

    def take(self, body: bytes) -> None:
        """Complete rows (the first body also holds what comes before them)."""
        pos = 0
        while pos < len(body):
            need = self.piece_start + self.piece_bytes - (self.offset + pos)
            cut = body.find(self.row_end, pos + max(need - len(self.row_end), 0))
            if need > len(body) - pos or cut < 0:
                self._segment(body[pos:])
                break
            cut += len(self.row_end)
            self._segment(body[pos:cut])
            self._close(self.offset + cut)
            pos = cut
        self.offset += len(body)

    def _segment(self, xml: bytes) -> None:
        numbers, valued = rows_in(xml, self.patterns)
        if not numbers:
            return
        if numbers[0] <= self.last_seen:
            raise CannotCut("rows out of order")
        self.last_seen = numbers[-1]
        self.rows += (numbers[0], numbers[-1])
        self.valued += valued

    def _close(self, end: int) -> None:
        if self.rows:
            cut = Cut(self.piece_start, end, self.rows[0], self.rows[-1], self.valued)
            self.plan.cuts.append(cut)
            self.piece_start, self.rows, self.valued = end, [], 0

    def finish(self) -> SheetPlan:
        self._close(self.offset)
        return self.plan


def start_plan(part: str, buffer: bytes) -> tuple[SheetPlan | None, int]:
    """The plan's head and tail, once the buffer reaches past <sheetData>."""
    root = _ROOT.search(buffer)
    if root is None:
        if len(buffer) > 1 << 20:
            raise CannotCut("no worksheet element")
        return None, 0
    ns = root.group(1)
    opened = re.search(rb"<" + re.escape(ns) + rb"sheetData\b[^>]*?(/?)>", buffer)
    if opened is None:
        if len(buffer) > 16 << 20:
            raise CannotCut("no sheetData element")
        return None, 0
    if opened.group(1):
        raise CannotCut("no rows")
    head = _DIMENSION.sub(b"", buffer[: opened.end()])
    tail = b"</" + ns + b"sheetData></" + ns + b"worksheet>"
    return SheetPlan(part, head, tail), opened.end()


def rows_of(source: Source, plan: SheetPlan, cuts: list[Cut]) -> Iterator[tuple[Cut, bytes]]:
    """Each cut's rows of XML (ascending cuts), from one pass over the sheet's part."""
    chunks = sheet_chunks(source, plan.part)
    buffer, at = b"", 0  # at: decompressed offset of buffer[0]
    for cut in cuts:
        while at + len(buffer) < cut.end:
            data = next(chunks, b"")
            if not data:
                break
            buffer += data
        rows = buffer[max(cut.start - at, 0) : cut.end - at]
        buffer, at = buffer[cut.end - at :], cut.end
        yield cut, rows


class PieceMaker:
    """Builds each piece's workbook: the original's parts, the sheet replaced by a slice."""

    def __init__(self, source: Source, plan: SheetPlan, sheet_parts: list[str]) -> None:
        self.plan = plan
        self.source = source
        self._parts: list[tuple[str, bytes]] = []
        self._strings: tuple[str, StringsTable] | None = None
        # The package stays open while the shared strings are read, as far as the cells
        # asked for need (a header's first rows: the table's first strings only).
        held = contextlib.ExitStack()
        try:
            archive = held.enter_context(zipfile.ZipFile(held.enter_context(source.open())))
            strings = calamine_strings_part(archive)
            for member in archive.infolist():
                name = member.filename
                if name == plan.part or name.endswith("/") or name.startswith(_SKIPPED_FOLDERS):
                    continue
                if strings is None or name != strings.filename:
                    data = _EMPTY_SHEET if name in sheet_parts else archive.read(name)
                    self._parts.append((name, data))
            if strings is not None:  # last: once read, it lets the package go
                part = held.enter_context(archive.open(strings))
                self._strings = (strings.filename, StringsTable.streamed(part, held.close))
        except BaseException:
            self.close()
            held.close()
            raise
        if self._strings is None:
            held.close()

    def read_strings(self) -> None:
        """The whole shared-strings table read, and the package let go (its bytes may be
        freed: pieces made after this need only the maker)."""
        if self._strings is not None:
            self._strings[1].complete()

    def close(self) -> None:
        if self._strings is not None:
            self._strings[1].close()

    def pieces(self, after_row: int = 0) -> Iterator[tuple[Cut, bytes]]:
        """(cut, workbook bytes) for each piece holding rows after ``after_row``; the first
        piece of the sheet carries everything before the rows (the header among them)."""
        wanted = [c for c in self.plan.cuts if c.last_row > after_row]
        if not wanted:
            return
        for cut, rows in rows_of(self.source, self.plan, wanted):
            yield cut, self.workbook(rows)

    def workbook(self, rows: bytes) -> bytes:
        """A workbook holding these rows of the sheet (and the parts they need)."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as piece:
            for name, data in self._parts:
                piece.writestr(name, data)
            if self._strings is not None:
                name, table = self._strings
                strings, rows = table.for_cells(rows)
                piece.writestr(name, strings)
            piece.writestr(self.plan.part, self.plan.head + rows + self.plan.tail)
        return out.getvalue()
