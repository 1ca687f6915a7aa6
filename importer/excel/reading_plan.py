"""Which reader reads a sheet: the facts about the file and the request in, a plan out.

Pure: reader.py gathers the facts (the I/O), asks plan_reading, and builds what the plan
says. Every engine choice, eager scan, fallback and refusal of open_sheet and peek_sheet is
decided here, so that one table of cases (tests/excel/test_reading_plan.py) pins them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from importer.config import Engine
from importer.excel.base import MAX_COLS, MAX_ROWS
from importer.excel.sniff import Format

# Bounding-box cells calamine may allocate (one slot each, ~32 bytes) when asked for
# explicitly: beyond it the sheet is refused (a stray cell at XFD1048576 would need 550 GB).
MAX_CALAMINE_CELLS = 64_000_000
# Above this, a peek reads the header with calamine rather than openpyxl: openpyxl loads the
# whole shared-strings table in Python before it gives the header row (~0.5 s per MB here).
PEEK_STRINGS_BYTES = 1 << 20


class Reader(StrEnum):
    """The reader a plan builds."""

    CALAMINE_WHOLE = "calamine, the whole sheet at once"
    CALAMINE_PIECES = "calamine, a piece of the sheet at a time"
    CALAMINE_HEAD = "calamine, the sheet's first rows only (a peek)"
    OPENPYXL_STREAMING = "openpyxl, streaming"
    CSV = "csv"
    XLRD = "xlrd"  # .xls, whatever the engine asked: see xls_engine.py
    CALAMINE_ODS = "calamine, within the bounds ods_scan found"
    CALAMINE_XLSB = "calamine, within the bounds xlsb_scan found"


@dataclass(frozen=True)
class ReadRequest:
    engine: Engine
    peek: bool  # only the header is wanted now (peek_sheet); a full read comes later
    memory_budget: int  # bytes
    # A peek whose caller takes the safety pass's measures of the rows in its own pass over
    # them (the columnar split): the peek's pass measures the first rows only, when they are
    # ordinary and it reads no more than them.
    head_safety: bool = False


@dataclass(frozen=True)
class WorkbookFacts:
    """A file of another format than .xlsx: its format decides."""

    file_name: str
    file_format: Format


@dataclass(frozen=True)
class SafetyScan:
    """What the safety pass over the sheet's XML found (run on bytes not checked before)."""

    max_row: int  # the largest row and column a cell refers to
    max_col: int
    bad_ref: str | None = None  # a cell reference that is not one
    bad_string_index: bool = False  # a text cell points at a negative shared string
    max_string_index: int = -1  # the largest shared string a text cell uses (-1: none)
    strings_held: int | None = None  # the table's strings, counted when a cell uses one


@dataclass(frozen=True)
class XlsxSheetFacts:
    """The chosen sheet of an .xlsx package."""

    file_name: str
    sheet: str
    calamine_bytes: int  # what calamine would hold for the sheet (reader.py estimates it)
    shared_strings_bytes: int  # the shared-strings part, unpacked (0: none)
    strings_claim_absurd: bool  # the table claims far more strings than it can hold
    zero_padded_styles: bool  # number formats like 00000: special cells a reader must know
    bytes_checked: bool  # these bytes passed open_sheet before: no safety pass
    scan: SafetyScan | None = None  # None: not run (yet)


@dataclass(frozen=True)
class ReadingPlan:
    reader: Reader
    # What a full read of the sheet uses; None for a format's own reader (csv, xlrd). A
    # streaming reader reports it as its engine: for a peek, openpyxl may stand in for
    # calamine up to the header (the job's full read then uses calamine).
    engine: Engine | None = None
    # calamine whole: find the special cells beside the parse, before the header is read.
    eager_special: bool = False
    # calamine whole: stream the sheet instead when calamine cannot read it.
    fallback_to_streaming: bool = False
    # calamine in pieces (or its first rows): the plan when the sheet cannot be cut after all.
    if_uncut: ReadingPlan | None = None


@dataclass(frozen=True)
class Refusal:
    message: str  # one line, the file's name first


def plan_reading(
    facts: WorkbookFacts | XlsxSheetFacts, request: ReadRequest
) -> ReadingPlan | Refusal:
    """How to read the sheet, or why it is refused. For .xlsx, a refusal that needs no
    safety pass comes whatever ``facts.scan`` is: ask with scan=None first, and run the
    pass (then ask again) only when that is not refused."""
    if isinstance(facts, WorkbookFacts):
        return _plan_other(facts, request.engine)
    return _plan_xlsx(facts, request)


def _plan_other(facts: WorkbookFacts, engine: Engine) -> ReadingPlan | Refusal:
    fmt = facts.file_format
    if fmt == "csv":
        return ReadingPlan(Reader.CSV)
    if engine is Engine.OPENPYXL:
        return Refusal(
            f"{facts.file_name}: the streaming engine (openpyxl) reads .xlsx and .xlsm only; "
            f"this file is .{fmt}: use --engine calamine or auto"
        )
    if fmt == "xls":
        return ReadingPlan(Reader.XLRD)
    if fmt == "ods":
        return ReadingPlan(Reader.CALAMINE_ODS, Engine.CALAMINE)
    return ReadingPlan(Reader.CALAMINE_XLSB, Engine.CALAMINE)


def _plan_xlsx(facts: XlsxSheetFacts, request: ReadRequest) -> ReadingPlan | Refusal:
    asked = engine = request.engine
    if facts.strings_claim_absurd:
        # calamine reserves memory for the claim up front, and aborts on a big lie.
        if asked is Engine.CALAMINE:
            return Refusal(
                f"{facts.file_name}: the shared-strings table claims an absurd number of "
                "strings; use --engine openpyxl (streaming)"
            )
        engine = Engine.OPENPYXL
    # Over the budget, calamine reads the sheet in pieces (calamine_pieces).
    in_pieces = engine is not Engine.OPENPYXL and facts.calamine_bytes > request.memory_budget
    if engine is Engine.AUTO:
        engine = Engine.CALAMINE
    if facts.scan is not None and not facts.bytes_checked:
        if (damaged := _damage(facts, facts.scan)) is not None:
            return damaged
        rows, cols = facts.scan.max_row, facts.scan.max_col
        if rows * cols > MAX_CALAMINE_CELLS:
            if asked is Engine.AUTO:
                engine = Engine.OPENPYXL  # stray far cells: streaming reads them in constant memory
            elif engine is Engine.CALAMINE:
                return Refusal(
                    f"{facts.file_name}: sheet {facts.sheet!r} spans up to {rows:,} rows x "
                    f"{cols:,} columns, too large to load at once: use --engine openpyxl "
                    "(streaming), or delete stray cells far from the data"
                )
    if engine is Engine.OPENPYXL:
        return _streaming(Engine.OPENPYXL)
    # calamine from here. New bytes may hold any special cell; checked ones only need the
    # zero-padded numbers found early (an error cell is looked for on first need).
    special_early = not facts.bytes_checked or facts.zero_padded_styles
    if in_pieces:  # each piece finds its own special cells
        if asked is Engine.AUTO:
            uncut = _streaming(Engine.OPENPYXL)  # streaming stays within the budget
        elif request.peek:
            uncut = _streaming(Engine.CALAMINE)
        else:  # read whole after all: as any calamine read
            uncut = _whole(special_early, fallback=facts.bytes_checked)
        pieces = ReadingPlan(Reader.CALAMINE_PIECES, Engine.CALAMINE, if_uncut=uncut)
        if request.peek:
            # The header from the first rows (below), not from a survey of the whole sheet
            # and its first piece: at 1,000,000 rows 5 s and ~150 MB of shared strings less.
            return ReadingPlan(Reader.CALAMINE_HEAD, Engine.CALAMINE, if_uncut=pieces)
        return pieces
    if request.peek and facts.shared_strings_bytes <= PEEK_STRINGS_BYTES:
        # openpyxl gives the header sooner, unless it must first load a big shared-strings
        # table in Python (seconds): calamine's parse of the first rows is sooner then.
        return _streaming(Engine.CALAMINE)
    if request.peek:
        # The first rows as a small workbook (xlsx_split.first_rows), read by calamine: 0.05 s
        # where the whole parse of 200,000 rows took 0.8 s. Whole when the header or a row
        # after it is not among them.
        whole = _whole(special_early, fallback=asked is Engine.AUTO or facts.bytes_checked)
        return ReadingPlan(Reader.CALAMINE_HEAD, Engine.CALAMINE, if_uncut=whole)
    return _whole(special_early, fallback=asked is Engine.AUTO or facts.bytes_checked)


def _streaming(engine: Engine) -> ReadingPlan:
    return ReadingPlan(Reader.OPENPYXL_STREAMING, engine)


def _whole(eager_special: bool, *, fallback: bool) -> ReadingPlan:
    return ReadingPlan(
        Reader.CALAMINE_WHOLE,
        Engine.CALAMINE,
        eager_special=eager_special,
        fallback_to_streaming=fallback,
    )


def _damage(facts: XlsxSheetFacts, scan: SafetyScan) -> Refusal | None:
    """What the safety pass proves damaged or absurd, whatever the engine."""
    name, sheet = facts.file_name, facts.sheet
    if scan.bad_string_index:
        return Refusal(
            f"{name}: sheet {sheet!r} has a text cell pointing at a negative shared-string "
            "number; the file is damaged"
        )
    held = scan.strings_held
    if held is not None and scan.max_string_index >= held:
        # Otherwise found only when the rows are read: after a detached submit, by the job.
        return Refusal(
            f"{name}: sheet {sheet!r} has a text cell pointing at shared string "
            f"{scan.max_string_index:,}, but the shared-strings table holds "
            f"{f'only {held:,}' if held else 'none'}; the file is damaged"
        )
    if scan.bad_ref is not None:
        return Refusal(
            f"{name}: sheet {sheet!r} has a cell reference that is not one "
            f"({scan.bad_ref!r}); the file is damaged"
        )
    if scan.max_row > MAX_ROWS or scan.max_col > MAX_COLS:
        return Refusal(
            f"{name}: sheet {sheet!r} refers to cells beyond Excel's limits "
            f"(row {scan.max_row:,}, column {scan.max_col:,}); refusing an absurd file"
        )
    return None
