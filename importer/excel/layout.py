"""Sheets as people lay them out: a header below row 1 (a title, a date line above it), a
header over two rows, total rows and notes that are not data.

Every engine keeps the sheet's first non-blank rows (``LEADING_ROWS``) as it finds its
header (the first of them with text); ``SheetReader.rehead`` then moves the header to
another of those rows, or over several, and the engine reads the rows after it. Which row
is the header is decided above this layer (a form's fields, ``--header-row N``): here it
is given as a HeaderLayout, with ``choose`` for the automatic choice.

The rows that are not data (after a blank row, totals, ...) are left out, and counted, by
row_filter.FilteredReader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from importer.errors import InputError
from importer.excel.values import display_text

LEADING_ROWS = 30  # the non-blank rows a header may be found among
Leading = list[tuple[int, tuple[object, ...]]]  # (Excel row, cells) of the first rows
Candidate = tuple[int, list[str]]  # (Excel row of its first row, header texts)
# A merged range: (first Excel row, first column, last Excel row, last column); columns
# 0-based as a row's cells are.
Merge = tuple[int, int, int, int]


@dataclass(frozen=True)
class HeaderLayout:
    """Where a sheet's header is: ``row`` (its first Excel row), or what ``choose`` makes
    of the leading rows; written over ``rows`` rows. Then the rows that are not data."""

    row: int | None = None
    rows: int = 1
    # Given the leading rows and their merged ranges, the layout to take (its row set), or
    # None: the first row.
    choose: Callable[[Leading, Sequence[Merge]], HeaderLayout | None] | None = None
    stop_at_blank_row: bool = False
    skip_column: str | None = None  # skip_rows_where: the header text of the column ...
    skip_matches: str | None = None  # ... and the pattern its cell's text matches
    skip_rows: tuple[str, ...] = ()  # kinds of rows that are not data (row_filter.SKIP_KINDS)
    # fill_merged: the columns (header texts; () for every one) whose merged cells give
    # their value to every cell they cover; None: none.
    fill_columns: tuple[str, ...] | None = None

    @property
    def filters(self) -> bool:
        return (
            self.stop_at_blank_row
            or self.skip_column is not None
            or self.fill_columns is not None
            or bool(self.skip_rows)
        )

    @property
    def reads_every_row(self) -> bool:
        """Whether a row's fate depends on the rows above it (a blank row ending the data,
        a merged cell's value): a resume then reads the sheet from its header."""
        return self.stop_at_blank_row or self.fill_columns is not None


def texts_of(values: Sequence[object]) -> list[str]:
    """A row's cells as header texts, trailing empty cells dropped (ghost columns)."""
    texts = [(display_text(v) or "").strip() if v is not None else "" for v in values]
    while texts and not texts[-1]:
        texts.pop()
    return texts


def joined(rows: Sequence[Sequence[object]], merges: Sequence[Merge] = ()) -> list[str]:
    """A header written over several rows as one: each column's texts joined with a space,
    top down. ``merges``: the merged ranges over these rows (row 0 is the first; None where
    the reader cannot tell, and a group's title then names the columns right of it that are
    empty in its row with a text below, up to the next title)."""
    lines = [texts_of(r) for r in rows]
    width = max([len(line) for line in lines] + [m[3] + 1 for m in merges], default=0)
    lines = [line + [""] * (width - len(line)) for line in lines]
    last = len(lines) - 1
    below = [
        [any(line[i] for line in lines[level + 1 :]) for i in range(width)]
        for level in range(last + 1)
    ]
    if merges:
        for top, first, _bottom, end in merges:
            if not 0 <= top <= last or not lines[top][first]:
                continue
            if top == last or end == first:
                for column in range(first + 1, end + 1):
                    lines[last][column] = ""  # one column, written wide: the rest are not
                continue
            # The title names the columns of its span with a text below it; a column of
            # the span with none is the title written wide, not a column.
            for column in range(first + 1, end + 1):
                if below[top][column]:
                    lines[top][column] = lines[top][first]
            # The title's own column, with nothing under it while its group's columns have:
            # no column of its own.
            if not below[top][first] and any(below[top][first + 1 : end + 1]):
                lines[top][first] = ""
                for line in lines[top + 1 :]:
                    line[first] = ""
    else:
        for level, upper in enumerate(lines[:-1]):
            title, start = "", -1
            for index in range(width):
                if upper[index]:
                    title, start = upper[index], index
                elif title and below[level][index]:
                    if start >= 0 and not below[level][start]:
                        # A title over the sub-headers right of it, nothing under its own
                        # cell: a group's title, not a column.
                        for line in lines[level:]:
                            line[start] = ""
                    start = -1
                    upper[index] = title
    out = [" ".join(t for t in column if t) for column in zip(*lines, strict=True)]
    while out and not out[-1]:
        out.pop()
    return out


def _over(leading: Leading, number: int, rows: int) -> list[Sequence[object]]:
    """The cells of Excel rows ``number`` to ``number + rows - 1`` (a blank one: none)."""
    by_row = dict(leading)
    return [by_row.get(n, ()) for n in range(number, number + rows)]


def _merges_over(merges: Sequence[Merge], number: int, rows: int) -> list[Merge]:
    """The merged ranges that start within those rows, their rows counted from ``number``."""
    return [
        (top - number, first, bottom - number, end)
        for top, first, bottom, end in merges
        if number <= top < number + rows
    ]


def candidates(leading: Leading, rows: int = 1, merges: Sequence[Merge] = ()) -> list[Candidate]:
    """Each leading row with text as a header's first row: its texts (over ``rows`` rows)."""
    found = []
    for number, values in leading:
        if texts_of(values):
            texts = (
                joined(_over(leading, number, rows), _merges_over(merges, number, rows))
                if rows > 1
                else texts_of(values)
            )
            found.append((number, texts))
    return found


def header_at(
    leading: Leading, number: int, rows: int, where: str, merges: Sequence[Merge] = ()
) -> tuple[list[str], int]:
    """(texts, Excel row of its last row) of the header written over Excel rows ``number``
    to ``number + rows - 1`` (blank ones among them too)."""
    if not any(n == number for n, _ in leading):
        shown = ", ".join(str(n) for n, _ in leading[:8])
        beyond = number > leading[-1][0] if leading else True
        raise InputError(
            f"{where}: row {number} is "
            + (f"beyond the first {LEADING_ROWS} rows with values" if beyond else "empty")
            + f"; a header row must be one of the first rows with values ({shown}, ...)"
        )
    over = _over(leading, number, rows)
    texts = joined(over, _merges_over(merges, number, rows)) if rows > 1 else texts_of(over[0])
    if not texts:
        raise InputError(f"{where}: row {number} holds no text to be a header")
    return texts, number + rows - 1
