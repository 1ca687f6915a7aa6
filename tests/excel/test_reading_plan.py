"""The reading plan, one row per decision: which reader, whether special cells are found
early, whether calamine may fall back to streaming, or the refusal and its message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from importer.config import Engine
from importer.excel.reading_plan import (
    MAX_CALAMINE_CELLS,
    PEEK_STRINGS_BYTES,
    Reader,
    ReadingPlan,
    ReadRequest,
    Refusal,
    SafetyScan,
    WorkbookFacts,
    XlsxSheetFacts,
    plan_reading,
)

BUDGET = 512 << 20
CLEAN = SafetyScan(max_row=1_000, max_col=10, max_string_index=99, strings_held=100)
FAR_CELLS = SafetyScan(max_row=1_000_000, max_col=65)  # 65 million cells: over the limit

AUTO, CALAMINE, OPENPYXL = Engine.AUTO, Engine.CALAMINE, Engine.OPENPYXL


def sheet(**changes: object) -> XlsxSheetFacts:
    """A small sheet of new bytes, its safety pass clean; ``changes`` as the row says."""
    facts = XlsxSheetFacts(
        file_name="book.xlsx",
        sheet="Data",
        calamine_bytes=10 << 20,
        shared_strings_bytes=64 << 10,
        strings_claim_absurd=False,
        zero_padded_styles=False,
        bytes_checked=False,
        scan=CLEAN,
    )
    return replace(facts, **changes)  # type: ignore[arg-type]


def checked(**changes: object) -> XlsxSheetFacts:
    """The same sheet's bytes when they passed open_sheet before: no safety pass."""
    return sheet(bytes_checked=True, scan=None, **changes)


OVER = {"calamine_bytes": BUDGET + 1}


def read(engine: Engine) -> ReadRequest:
    return ReadRequest(engine, peek=False, memory_budget=BUDGET)


def peek(engine: Engine) -> ReadRequest:
    return ReadRequest(engine, peek=True, memory_budget=BUDGET)


def whole(*, eager: bool, fallback: bool) -> ReadingPlan:
    return ReadingPlan(
        Reader.CALAMINE_WHOLE,
        CALAMINE,
        eager_special=eager,
        fallback_to_streaming=fallback,
    )


def streaming(engine: Engine = OPENPYXL) -> ReadingPlan:
    return ReadingPlan(Reader.OPENPYXL_STREAMING, engine)


def head(uncut: ReadingPlan) -> ReadingPlan:
    return ReadingPlan(Reader.CALAMINE_HEAD, CALAMINE, if_uncut=uncut)


def pieces(uncut: ReadingPlan) -> ReadingPlan:
    return ReadingPlan(Reader.CALAMINE_PIECES, CALAMINE, if_uncut=uncut)


ABSURD = Refusal(
    "book.xlsx: the shared-strings table claims an absurd number of strings; "
    "use --engine openpyxl (streaming)"
)
TOO_LARGE = Refusal(
    "book.xlsx: sheet 'Data' spans up to 1,000,000 rows x 65 columns, too large to load at "
    "once: use --engine openpyxl (streaming), or delete stray cells far from the data"
)
NEGATIVE_STRING = Refusal(
    "book.xlsx: sheet 'Data' has a text cell pointing at a negative shared-string number; "
    "the file is damaged"
)
BAD_REF = Refusal(
    "book.xlsx: sheet 'Data' has a cell reference that is not one ('!!'); the file is damaged"
)


def past_strings(held: str) -> Refusal:
    return Refusal(
        "book.xlsx: sheet 'Data' has a text cell pointing at shared string 5, but the "
        f"shared-strings table holds {held}; the file is damaged"
    )


def beyond_limits(row: str, col: str) -> Refusal:
    return Refusal(
        f"book.xlsx: sheet 'Data' refers to cells beyond Excel's limits (row {row}, "
        f"column {col}); refusing an absurd file"
    )


def streaming_only(fmt: str) -> Refusal:
    return Refusal(
        f"book.{fmt}: the streaming engine (openpyxl) reads .xlsx and .xlsm only; this file "
        f"is .{fmt}: use --engine calamine or auto"
    )


Facts = XlsxSheetFacts | WorkbookFacts
Plan = ReadingPlan | Refusal

# One row a decision: (what it is, the facts, the request, the plan).
# fmt: off
ROWS: list[tuple[str, Facts, ReadRequest, Plan]] = [
    # --- a sheet within the budget ---------------------------------------------------------
    ("auto reads new bytes with calamine, special cells early, may stream instead",
     sheet(), read(AUTO), whole(eager=True, fallback=True)),
    ("calamine asked for does not fall back to streaming",
     sheet(), read(CALAMINE), whole(eager=True, fallback=False)),
    ("openpyxl asked for streams",
     sheet(), read(OPENPYXL), streaming()),
    ("checked bytes without zero-padded styles: no eager scan",
     checked(), read(CALAMINE), whole(eager=False, fallback=True)),
    ("checked bytes with zero-padded styles: their runs found early",
     checked(zero_padded_styles=True), read(CALAMINE), whole(eager=True, fallback=True)),
    ("checked bytes under auto: no eager scan, may stream instead",
     checked(), read(AUTO), whole(eager=False, fallback=True)),
    ("checked bytes asked of openpyxl stream",
     checked(zero_padded_styles=True), read(OPENPYXL), streaming()),
    ("at the budget exactly: still whole",
     sheet(calamine_bytes=BUDGET), read(AUTO), whole(eager=True, fallback=True)),
    # --- an absurd shared-strings claim ----------------------------------------------------
    ("absurd strings claim refused to calamine",
     sheet(strings_claim_absurd=True), read(CALAMINE), ABSURD),
    ("absurd strings claim under auto streams",
     sheet(strings_claim_absurd=True), read(AUTO), streaming()),
    ("absurd strings claim asked of openpyxl streams",
     sheet(strings_claim_absurd=True), read(OPENPYXL), streaming()),
    ("absurd strings claim over the budget streams under auto, never in pieces",
     sheet(strings_claim_absurd=True, **OVER), read(AUTO), streaming()),
    ("absurd strings claim refused before the safety pass",
     sheet(strings_claim_absurd=True, scan=None), read(CALAMINE), ABSURD),
    ("absurd strings claim refused before what the safety pass found",
     sheet(strings_claim_absurd=True, scan=replace(CLEAN, bad_ref="!!")), read(CALAMINE),
     ABSURD),
    ("absurd strings claim in a peek under auto streams",
     sheet(strings_claim_absurd=True), peek(AUTO), streaming()),
    # --- over the memory budget ------------------------------------------------------------
    ("over budget under auto: pieces, streamed when it cannot be cut",
     sheet(**OVER), read(AUTO), pieces(streaming())),
    ("over budget, checked, under auto: pieces, streamed when it cannot be cut",
     checked(**OVER), read(AUTO), pieces(streaming())),
    ("over budget asked of calamine: pieces, else whole with special cells early",
     sheet(**OVER), read(CALAMINE), pieces(whole(eager=True, fallback=False))),
    ("over budget, checked, no zero-padded styles: pieces, else whole, no eager scan",
     checked(**OVER), read(CALAMINE), pieces(whole(eager=False, fallback=True))),
    ("over budget, checked, zero-padded styles: pieces, else whole with eager scan",
     checked(zero_padded_styles=True, **OVER), read(CALAMINE),
     pieces(whole(eager=True, fallback=True))),
    ("over budget asked of openpyxl: streams, never in pieces",
     sheet(**OVER), read(OPENPYXL), streaming()),
    # --- a peek (the header only, at submit) -----------------------------------------------
    ("peek with small shared strings: openpyxl stands in for calamine",
     sheet(), peek(AUTO), streaming(CALAMINE)),
    ("peek with shared strings at the limit: openpyxl stands in",
     sheet(shared_strings_bytes=PEEK_STRINGS_BYTES), peek(AUTO), streaming(CALAMINE)),
    ("peek with big shared strings: calamine reads the first rows, else the whole sheet",
     sheet(shared_strings_bytes=PEEK_STRINGS_BYTES + 1), peek(AUTO),
     head(whole(eager=True, fallback=True))),
    ("peek with big shared strings asked of calamine: the first rows, else whole, no fallback",
     sheet(shared_strings_bytes=PEEK_STRINGS_BYTES + 1), peek(CALAMINE),
     head(whole(eager=True, fallback=False))),
    ("peek asked of openpyxl streams, whatever the shared strings",
     sheet(shared_strings_bytes=PEEK_STRINGS_BYTES + 1), peek(OPENPYXL), streaming()),
    ("peek over budget under auto: the first rows, else pieces, else streamed",
     sheet(**OVER), peek(AUTO), head(pieces(streaming()))),
    ("peek over budget asked of calamine: the first rows, else pieces, else openpyxl",
     sheet(shared_strings_bytes=PEEK_STRINGS_BYTES + 1, **OVER), peek(CALAMINE),
     head(pieces(streaming(CALAMINE)))),
    # --- too many cells for calamine (stray far cells) ------------------------------------
    ("too many cells under auto: streams",
     sheet(scan=FAR_CELLS), read(AUTO), streaming()),
    ("too many cells asked of calamine: refused",
     sheet(scan=FAR_CELLS), read(CALAMINE), TOO_LARGE),
    ("too many cells asked of openpyxl: streams",
     sheet(scan=FAR_CELLS), read(OPENPYXL), streaming()),
    ("too many cells over budget under auto: streams, not in pieces",
     sheet(scan=FAR_CELLS, **OVER), read(AUTO), streaming()),
    ("too many cells in a peek under auto: streams as openpyxl",
     sheet(scan=FAR_CELLS, shared_strings_bytes=PEEK_STRINGS_BYTES + 1), peek(AUTO),
     streaming()),
    ("too many cells in a peek asked of calamine: refused",
     sheet(scan=FAR_CELLS), peek(CALAMINE), TOO_LARGE),
    ("as many cells as calamine may hold: whole",
     sheet(scan=SafetyScan(max_row=MAX_CALAMINE_CELLS // 64, max_col=64)), read(CALAMINE),
     whole(eager=True, fallback=False)),
    ("checked bytes: a scan is not consulted",
     sheet(bytes_checked=True, scan=FAR_CELLS), read(CALAMINE),
     whole(eager=False, fallback=True)),
    ("before the safety pass: planned as if it were clean",
     sheet(scan=None), read(CALAMINE), whole(eager=True, fallback=False)),
    # --- what the safety pass proves damaged, whatever the engine --------------------------
    ("a negative shared-string number",
     sheet(scan=replace(CLEAN, bad_string_index=True)), read(OPENPYXL), NEGATIVE_STRING),
    ("a shared string past the table",
     sheet(scan=SafetyScan(10, 2, max_string_index=5, strings_held=5)), read(AUTO),
     past_strings("only 5")),
    ("a shared string and no table",
     sheet(scan=SafetyScan(10, 2, max_string_index=5, strings_held=0)), read(AUTO),
     past_strings("none")),
    ("the table's last string is fine",
     sheet(scan=SafetyScan(10, 2, max_string_index=5, strings_held=6)), read(AUTO),
     whole(eager=True, fallback=True)),
    ("a cell reference that is not one",
     sheet(scan=replace(CLEAN, bad_ref="!!")), read(AUTO), BAD_REF),
    ("a negative string number comes before a bad reference",
     sheet(scan=replace(CLEAN, bad_ref="!!", bad_string_index=True)), read(AUTO),
     NEGATIVE_STRING),
    ("a row beyond Excel's limits, even streamed",
     sheet(scan=SafetyScan(1_048_577, 3)), read(OPENPYXL),
     beyond_limits("1,048,577", "3")),
    ("a column beyond Excel's limits, under auto",
     sheet(scan=SafetyScan(5, 16_385)), read(AUTO), beyond_limits("5", "16,385")),
    # --- other formats: the format decides -------------------------------------------------
    ("csv whatever the engine, openpyxl too",
     WorkbookFacts("book.csv", "csv"), read(OPENPYXL), ReadingPlan(Reader.CSV)),
    ("xls through xlrd under auto",
     WorkbookFacts("book.xls", "xls"), read(AUTO), ReadingPlan(Reader.XLRD)),
    ("xls through xlrd when calamine is asked for",
     WorkbookFacts("book.xls", "xls"), read(CALAMINE), ReadingPlan(Reader.XLRD)),
    ("xls refused to openpyxl",
     WorkbookFacts("book.xls", "xls"), read(OPENPYXL), streaming_only("xls")),
    ("ods through calamine after its scan",
     WorkbookFacts("book.ods", "ods"), peek(AUTO), ReadingPlan(Reader.CALAMINE_ODS, CALAMINE)),
    ("ods refused to openpyxl",
     WorkbookFacts("book.ods", "ods"), peek(OPENPYXL), streaming_only("ods")),
    ("xlsb through calamine after its scan",
     WorkbookFacts("book.xlsb", "xlsb"), read(CALAMINE),
     ReadingPlan(Reader.CALAMINE_XLSB, CALAMINE)),
    ("xlsb refused to openpyxl",
     WorkbookFacts("book.xlsb", "xlsb"), read(OPENPYXL), streaming_only("xlsb")),
]
# fmt: on


@pytest.mark.parametrize(
    ("facts", "asked", "expected"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS]
)
def test_the_plan(facts: Facts, asked: ReadRequest, expected: Plan) -> None:
    assert plan_reading(facts, asked) == expected


def test_every_reader_has_a_row() -> None:
    plans = [row[3] for row in ROWS]
    readers = {p.reader for p in plans if isinstance(p, ReadingPlan)}
    readers |= {p.if_uncut.reader for p in plans if isinstance(p, ReadingPlan) and p.if_uncut}
    assert readers == set(Reader)
    assert len({row[0] for row in ROWS}) == len(ROWS)
