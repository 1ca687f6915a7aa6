"""What every engine shares: the SheetReader interface, header detection, sheet choice."""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from types import TracebackType
from typing import TypeVar

from importer.errors import InputError
from importer.excel.layout import LEADING_ROWS, Leading, Merge, header_at, texts_of
from importer.excel.values import Row, display_text

# Excel's own limits: references beyond them are refused as absurd.
MAX_ROWS = 1_048_576
MAX_COLS = 16_384

T = TypeVar("T")


class SheetReader:
    """One sheet of one workbook, read row by row. Close it (or use `with`)."""

    sheet_name: str
    engine: str  # "calamine" | "openpyxl" | "csv"
    file_format: str  # "xlsx" | "xlsb" | "xls" | "ods" | "csv"
    header: list[str]  # original header cells, in column order (column A first)
    header_row: int  # Excel row number of the header
    date1904: bool = False  # the workbook counts dates from 1904 (old Mac Excel)
    sheet_names: list[str]
    # Read a piece at a time (calamine_pieces): rows up to `after_row` cost nothing to skip.
    reads_in_pieces: bool = False
    # A peek's reader whose safety pass measured only the sheet's first rows: the pass over
    # the rest is the columnar split's (peek_sheet(head_safety=True)).
    safety_pending: bool = False
    # Which path reads the rows and why, where a submit chose it (importer.columnar): what
    # submit --debug says of the job's run.
    read_path: str | None = None
    # What the sender should know about how the file was read (one line each), e.g. that
    # another engine than the usual read it and what that engine does not see.
    notes: tuple[str, ...] = ()
    # The sheet's first non-blank rows, kept as the header was found (excel/layout.py), and
    # those above the header (a title, a date line): the error workbook gives them back.
    leading: Leading = []  # noqa: RUF012 - engines set their own; a reader without, empty
    above: Leading = []  # noqa: RUF012
    # The merged ranges of the sheet's first rows, where the engine can tell (calamine's
    # xlsx and xls): a header over several rows is joined by them.
    merges: list[Merge] = []  # noqa: RUF012
    header_rows: int = 1  # the rows the header is written over (the last is header_row)
    header_first_row: int | None = None  # the first of them, once moved (None: header_row)

    def rehead(self, number: int, rows: int = 1) -> None:
        """Take the header from Excel row ``number`` (over ``rows`` rows) of the leading
        rows: the rows after it are the data. InputError when it is not one of them."""
        where = f"sheet {self.sheet_name!r}"
        self.header, self.header_row = header_at(self.leading, number, rows, where, self.merges)
        self.header_rows, self.header_first_row = rows, number
        self.above = [(n, values) for n, values in self.leading if n < number]
        self.reheaded()

    def layout_json(self) -> dict[str, object] | None:
        """Where the header is, for the job (None: the first row with values, alone)."""
        if self.header_first_row is None:
            return None
        above = [[n, texts_of(values)] for n, values in self.above]
        return {"row": self.header_first_row, "rows": self.header_rows, "above": above}

    def reheaded(self) -> None:
        """What an engine recomputes once its header moved (counts it kept)."""

    def rows_not_read(self) -> list[dict[str, object]]:
        """The rows with values that are not read as data, rule by rule (row_filter's
        NotReadRows as JSON): those above the header here; a filtering reader adds what it
        left out (complete after a pass over every row: count_rows)."""
        above = [
            n for n, values in self.above if texts_of(values) or any(v is not None for v in values)
        ]
        if not above:
            return []
        return [
            {
                "why": "above_header",
                "rows": len(above),
                "first": above[0],
                "last": above[-1],
                "some": above[:5],
                "header_row": self.header_first_row or self.header_row,
            }
        ]

    def rows(self) -> Iterator[Row]:
        """Data rows after the header, in order; blank rows skipped."""
        raise NotImplementedError

    def batches(self, size: int, *, skip: int = 0, after_row: int = 0) -> Iterator[Sequence[Row]]:
        """rows() in batches of ``size`` (the last one shorter), leaving out the rows up to
        Excel row ``after_row`` and then ``skip`` more (those a previous run committed).
        Engines may yield RowBatch objects."""
        rows: Iterator[Row] = iter(self.rows())
        if after_row > 0:
            rows = itertools.dropwhile(lambda row: row.number <= after_row, rows)
        if skip > 0:
            collections.deque(islice(rows, skip), maxlen=0)
        while batch := list(islice(rows, size)):
            yield batch

    def count_rows(self) -> int:
        """How many rows rows() yields."""
        raise NotImplementedError

    def count_rows_after(self, row: int) -> int:
        """How many of those rows come after Excel row ``row``."""
        return sum(1 for r in self.rows() if r.number > row)

    def close(self) -> None:
        """Release the workbook."""

    def __enter__(self) -> SheetReader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def header_texts(values: Sequence[object]) -> list[str]:
    """A header row as texts, trailing empty cells dropped (they are ghost columns)."""
    texts = [(display_text(v) or "").strip() if v is not None else "" for v in values]
    while texts and not texts[-1]:
        texts.pop()
    return texts


def choose_sheet(
    name: str,
    wanted: str | None,
    sheets: Sequence[tuple[str, bool]],
    charts: Sequence[str] = (),
) -> str:
    """The sheet to read: the one asked for, else the first visible one.

    `sheets` is (name, visible) in workbook order; hidden sheets are never picked implicitly.
    `charts` names the chart sheets (no cells to read): asking for one is refused as such.
    """
    if not sheets:
        raise InputError(f"{name}: the workbook has no sheets")
    if wanted is not None:
        for sheet, _visible in sheets:
            if sheet == wanted:
                return sheet
        folded = [s for s, _ in sheets if s.strip().casefold() == wanted.strip().casefold()]
        if len(folded) == 1:
            return folded[0]
        listing = ", ".join(repr(s) for s, _ in sheets)
        if any(c.strip().casefold() == wanted.strip().casefold() for c in charts):
            raise InputError(
                f"{name}: sheet {wanted!r} is a chart sheet, with no cells to read "
                f"(the worksheets are: {listing})"
            )
        raise InputError(f"{name}: no sheet named {wanted!r} (the workbook has: {listing})")
    for sheet, visible in sheets:
        if visible:
            return sheet
    listing = ", ".join(repr(s) for s, _ in sheets)
    raise InputError(
        f"{name}: the workbook has no visible sheet (hidden: {listing}); "
        "name one with --sheet if it is really meant to be read"
    )


def first_row_header(
    rows: Iterator[tuple[int, Sequence[object]]], name: str, sheet: str
) -> tuple[list[str], int, Leading]:
    """(header texts, Excel row number) from the first of `rows` (non-blank rows, in
    order), and the first LEADING_ROWS of them (a header may be moved to one: rehead);
    a row of nothing but spaces is blank. EmptySheet when there is none."""
    shown = ((number, values) for number, values in rows if header_texts(values))
    leading: Leading = [(number, tuple(values)) for number, values in islice(shown, LEADING_ROWS)]
    if leading:
        texts = header_texts(leading[0][1])
        if texts:
            return texts, leading[0][0], leading
    raise no_header(name, sheet)


class EmptySheet(InputError):
    """The sheet has no header row (no cell holds a value)."""


def no_header(name: str, sheet: str) -> InputError:
    return EmptySheet(f"{name}: sheet {sheet!r} is empty (no header row found)")


def sheet_candidates(
    name: str,
    wanted: str | None,
    sheets: Sequence[tuple[str, bool]],
    charts: Sequence[str] = (),
) -> list[str]:
    """The sheets to try in turn: the one asked for; else every visible one, in order (the
    first that holds a header row is read: an empty cover sheet before the data is common)."""
    first = choose_sheet(name, wanted, sheets, charts)
    if wanted is not None:
        return [first]
    return [sheet for sheet, visible in sheets if visible]


def first_with_header(candidates: Sequence[str], open_one: Callable[[str], T]) -> T:
    """open_one(sheet) for the first candidate that is not empty; the first one's refusal
    when all are."""
    first: EmptySheet | None = None
    for candidate in candidates:
        try:
            return open_one(candidate)
        except EmptySheet as empty:
            first = first or empty
    assert first is not None, "no candidate sheets"
    raise first
