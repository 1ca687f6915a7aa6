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

This process inflates and cuts. Each piece is looked at (its rows' checks, measures and
special cells) on a worker process (piece_workers) and written on a thread of its own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import zipfile
from array import array
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from pathlib import Path
from typing import IO

from importer.excel.piece_workers import PieceWork, usable_cores
from importer.excel.sniff import Source
from importer.excel.xlsx_parts import UNPACK_ERRORS, calamine_strings_part, part_named
from importer.excel.xlsx_piece_facts import FactsAsked, PieceFacts, take_measures
from importer.excel.xlsx_pieces import (
    CannotCut,
    Cut,
    SheetPlan,
    Survey,
    sheet_chunks,
    start_plan,
    survey_sheet,
)
from importer.excel.xlsx_scan import SheetScan
from importer.thread_names import name_os_thread

# The split of a sheet from this size of XML looks at its pieces on worker processes
# (piece_workers): 3 pieces, where the workers' start (~0.1 s) is won back.
WORKERS_FROM = 24 << 20
MAX_WORKERS = 4
WORKERS_SWITCH = "IMPORTER_TEST_SPLIT_WORKERS"  # how many, whatever the size (tests)
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
    special: SheetScan  # its error cells and uncalculated formulas (its ``padded`` empty)
    # Its numbers in a 00000 format: the runs' (column, first, last, width) one after the
    # other. 1,000,000 rows of a ZIP column that changes type row by row make 250,000 runs,
    # 47 MB as tuples held for the whole run, 8 MB so.
    padded: array[int] = field(default_factory=lambda: array("q"))


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
    workers: int | None = None,
) -> SplitSheet:
    """One pass over the sheet's XML: the cuts of ``plan`` (xlsx_pieces' survey, with its
    checks) and, for the pieces holding rows after ``after_row`` (the header's row, or the
    last committed one), each as a sheet of a new workbook. CannotCut: not so. Given
    ``measures``, the same pass takes the safety pass's measures of the rows it reads into
    it (bytes not checked before: no second pass over them). ``on_piece`` hears how many
    bytes of the sheet's XML are read, as each piece is written. Each piece is looked at
    on one of ``workers`` processes (piece_workers; None: as many as suit the sheet's size
    and the machine's cores; 0: here), with the same outcome."""
    scratch = ScratchFile(directory)
    asked = FactsAsked(plan.prefix, zero_styles, after_row, measures is not None)
    work: PieceWork[tuple[int, int]] | None = None
    try:
        work = PieceWork(asked, _workers_for(source, plan.part) if workers is None else workers)
        with zipfile.ZipFile(scratch.path, "w", zipfile.ZIP_STORED, allowZip64=True) as out:
            writer = _PieceWriter(out, plan, after_row)
            try:
                writer.shared_parts(source)
                pieces = work

                def splitter(_: SheetPlan, at: int) -> _Splitter:
                    return _Splitter(plan, piece_bytes, at, writer, measures, on_piece, pieces)

                survey_sheet(source, plan.part, splitter)
                if not writer.pieces:
                    raise CannotCut("no rows after the header")
                writer.package(date1904)
            finally:
                writer.close()
    except BaseException:
        scratch.close()
        raise
    finally:
        if work is not None:
            work.close()
    return SplitSheet(scratch, writer.pieces)


def _workers_for(source: Source, part: str) -> int:
    """Worker processes for the split of this sheet: none for a sheet of a few pieces (a
    worker takes ~0.1 s to start), one per core for a big one (the reading process needs
    a fifth of a core to inflate and write)."""
    chosen = os.environ.get(WORKERS_SWITCH, "")
    if chosen.isdigit():
        return int(chosen)
    cores = usable_cores()
    if cores < 2:
        return 0
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            size = archive.getinfo(part).file_size
    except (KeyError, *UNPACK_ERRORS):
        return 0
    return min(cores, MAX_WORKERS) if size >= WORKERS_FROM else 0


class _Splitter(Survey):
    """xlsx_pieces' survey, each piece's rows looked at (piece_workers) as it closes and
    handed to the writer in the sheet's order."""

    def __init__(
        self,
        plan: SheetPlan,
        piece_bytes: int,
        rows_start: int,
        writer: _PieceWriter,
        measures: SheetScan | None,
        on_piece: Callable[[int], None] | None,
        work: PieceWork[tuple[int, int]],
    ) -> None:
        super().__init__(plan, piece_bytes, rows_start)
        self.writer = writer
        self.measures = measures
        self.on_piece = on_piece
        self.work = work
        self.parts: list[bytes] = []
        self.first_piece = True  # the next piece put holds the XML before the rows
        self.kept = False

    def _segment(self, xml: bytes) -> None:
        last = self._last_row(xml)
        if last is not None and last <= self.writer.after_row:
            # Rows a resumed run does not read (they were checked when the job was
            # submitted): neither surveyed nor kept, which halves a half-way resume's pass.
            if self.kept:
                raise CannotCut("rows out of order")
            self.last_seen = last
            self.first_piece = False  # the XML before the rows went with them
            return
        self.kept = True
        self.parts.append(xml)

    def _last_row(self, xml: bytes) -> int | None:
        """The number of the segment's last row, found from its end (None: not so)."""
        # From the end, where the last row begins: one search for both spellings of the
        # tag (each alone would search the whole segment when the other is the one used).
        at = xml.rfind(self.row_tags[0][:-1])
        if at >= 0 and xml[at : at + len(self.row_tags[0])] not in self.row_tags:
            at = max(xml.rfind(tag) for tag in self.row_tags)  # a longer name (<rowX)
        found = self.row_number.match(xml, at) if at >= 0 else None
        return int(found[1]) if found else None

    def _close(self, end: int) -> None:
        start, self.piece_start = self.piece_start, end
        if not self.parts:
            return  # a piece of skipped rows: the next is measured from its end
        parts, self.parts = self.parts, []
        first, self.first_piece = self.first_piece, False
        for where, rows, facts in self.work.put((start, end), parts, first):
            self._settle(where, rows, facts)

    def finish(self) -> SheetPlan:
        self._close(self.offset)
        for where, rows, facts in self.work.drain():
            self._settle(where, rows, facts)
        return self.plan

    def _settle(self, where: tuple[int, int], rows: list[bytes], facts: PieceFacts) -> None:
        """A piece's facts taken in the sheet's order: its cut, its measures, its rows
        written."""
        if facts.refusal is not None:
            raise CannotCut(facts.refusal)
        if not facts.first_row:
            return
        if facts.first_row <= self.last_seen:
            raise CannotCut("rows out of order")
        self.last_seen = facts.last_row
        cut = Cut(where[0], where[1], facts.first_row, facts.last_row, facts.valued)
        self.plan.cuts.append(cut)
        if self.measures is not None and facts.measures is not None:
            take_measures(self.measures, facts.measures)
        self.writer.add(cut, rows, facts)
        if self.on_piece is not None:
            self.on_piece(where[1])


class _PieceWriter:
    """The split workbook, written on a thread of its own: writing to a file (and the
    CRC) waits on the system, not on the interpreter, and overlaps the inflating of the
    next piece (1,000,000 rows: 360 MB of pieces, ~0.9 s of writing). At most two
    pieces wait to be written."""

    def __init__(self, out: zipfile.ZipFile, plan: SheetPlan, after_row: int) -> None:
        self.out = out
        self.plan = plan
        self.after_row = after_row
        self.prefix = plan.prefix
        self.pieces: list[Piece] = []
        self._thread = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="split-write", initializer=name_os_thread
        )
        self._writes: deque[Future[None]] = deque()

    def _submit(self, write: Callable[[], None]) -> None:
        while len(self._writes) >= 2:
            self._writes.popleft().result()  # a write's error (a full disk) raised here
        self._writes.append(self._thread.submit(write))

    def close(self) -> None:
        """Every write done or cancelled (before the package is closed)."""
        self._thread.shutdown(wait=True, cancel_futures=True)

    def shared_parts(self, source: Source) -> None:
        """The styles and the shared strings, as they are."""
        self._submit(partial(self._copy_shared, source))

    def _copy_shared(self, source: Source) -> None:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            for name, info in (
                ("xl/styles.xml", part_named(archive, "xl/styles.xml")),
                ("xl/sharedStrings.xml", calamine_strings_part(archive)),
            ):
                if info is not None:  # streamed: the strings are 70 MB at 1,000,000 rows
                    with archive.open(info) as part, self.out.open(name, "w") as copy:
                        shutil.copyfileobj(part, copy, 1 << 20)

    def add(self, cut: Cut, rows: list[bytes], facts: PieceFacts) -> None:
        """The piece's rows (its XML, in parts) after ``after_row`` (the first piece's
        without the XML before its rows), as a sheet of their own, with their special
        cells (``facts``). Written part by part: joined, 8 MB would be copied twice."""
        if facts.kept_from < 0 or facts.special is None:
            return
        index = len(self.pieces)
        part = f"xl/worksheets/piece{index}.xml"
        first = facts.first_kept
        anchor = _anchor(self.prefix, first - 1)
        self._submit(partial(self._write_piece, part, anchor, rows, facts.kept_from))
        special, padded = facts.special, array("q", chain.from_iterable(facts.special.padded))
        special.padded = []
        self.pieces.append(
            Piece(index, part, first - 1, cut.last_row, cut.rows_with_values, special, padded)
        )

    def _write_piece(self, part: str, anchor: bytes, rows: list[bytes], skip: int) -> None:
        with self.out.open(part, "w") as sheet:
            sheet.write(self.plan.head)
            sheet.write(anchor)
            for xml in rows:
                if skip < len(xml):
                    sheet.write(xml[skip:] if skip else xml)
                skip = max(skip - len(xml), 0)
            sheet.write(self.plan.tail)

    def package(self, date1904: bool) -> None:
        while self._writes:
            self._writes.popleft().result()
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
