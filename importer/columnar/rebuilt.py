"""Rows the checks did not settle, rebuilt as the row path's reader gives them from what the
columnar path already holds: each cell's text (fastexcel's column) and its type (the ``t``
attribute in the row's XML), so the Validator decides them without a second read.

The row path's reader (python-calamine) gives a number cell as a float (a number in a
00000 format as its padded text, special_cells.number_with_format), a text cell as its
text, a boolean cell as a bool, a date cell at midnight as a date (from March 1900), an
empty cell or an empty text as None, and the scan's special cells (errors, formulas never
calculated) as the scan found them. A row with any other cell (an ISO date cell, a date
with a time, a time, a duration, a cell written otherwise than CellTypes reads) is not
rebuilt: the caller reads it again exactly (sheet.py ``exact``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date

from importer.excel.special_cells import number_with_format
from importer.excel.values import RowBatch
from importer.excel.xlsx_scan import column_index

# Rust's Display of an f64 (fastexcel's text of a number cell): no exponent, shortest form.
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_MIDNIGHT = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2}) 00:00:00")
_FIRST_DAY = date(1900, 3, 1)
_TEXT_TYPES = frozenset((b"s", b"str", b"inlineStr"))


class CellTypes:
    """The cells' types in rows' XML: ``cells(xml)`` gives, per 0-based column, the ``t``
    of each cell (b"" for none: a number), or None when a cell is written otherwise than
    this pattern reads (no reference, other attributes first)."""

    def __init__(self, prefix: bytes) -> None:
        p = re.escape(prefix)
        self._cell = re.compile(
            rb"<" + p + rb'c r="([A-Z]{1,3})[0-9]+"(?: s="[0-9]+")?(?: t="([A-Za-z]+)")?[ />]'
        )
        self._any_cell = b"<" + prefix + b"c "
        self._letters: dict[bytes, int] = {}

    def cells(self, xml: bytes) -> dict[int, bytes] | None:
        found = self._cell.findall(xml)
        if len(found) != xml.count(self._any_cell):
            return None
        letters = self._letters
        out = {}
        for ref, kind in found:
            column = letters.get(ref)
            if column is None:
                column = letters[ref] = column_index(ref.decode()) - 1
            out[column] = kind
        return out


def rebuilt_rows(
    rows_xml: Sequence[tuple[int, bytes]],
    texts: Sequence[Sequence[str | None] | None],
    pads: Mapping[int, Sequence[int | None]],
    types: CellTypes,
    special: Mapping[int, Sequence[tuple[int, object]]],
) -> tuple[RowBatch, list[int]]:
    """The rows (number, XML) whose cells can be told from ``texts`` (per 0-based column,
    the rows' texts in the same order; None: a column fastexcel did not give) and their
    XML's types, as the reader's RowBatch; and the numbers of the others. ``pads``: per
    column in a 00000 format, each row's width (None: not padded there). ``special``: per
    row, the scan's cells calamine cannot give (column, value), which the reader puts in
    their place."""
    numbers: list[int] = []
    cells: list[Sequence[object]] = []
    others: list[int] = []
    for at, (number, xml) in enumerate(rows_xml):
        kinds = types.cells(xml)
        fixes = special.get(number, ())
        if kinds is not None:
            for column, _ in fixes:
                kinds[column] = b"str"  # its text is not looked at: the value replaces it
        row = None if kinds is None else _row(at, kinds, texts, pads)
        if row is None:
            others.append(number)
            continue
        if fixes:
            values = list(row)
            for column, value in fixes:
                if column < len(values):
                    values[column] = value
            row = tuple(values)
        if any(v is not None for v in row):
            numbers.append(number)
            cells.append(row)
    return RowBatch(numbers, cells), others


def _row(
    at: int,
    kinds: Mapping[int, bytes],
    columns: Sequence[Sequence[str | None] | None],
    pads: Mapping[int, Sequence[int | None]],
) -> tuple[object, ...] | None:
    """Row ``at``'s cells, or None when one of them is not told apart from the text."""
    row: list[object] = []
    for column, texts in enumerate(columns):
        text = texts[at] if texts is not None else None
        kind = kinds.get(column)
        if not text:  # an empty text is an empty cell for the reader
            if kind not in (None, b"", b"s", b"str", b"inlineStr"):
                return None  # a cell fastexcel shows as empty that the reader may not
            row.append(None)
        elif kind is None:
            return None  # a text without a cell of its own in the XML: not this pattern
        elif kind in _TEXT_TYPES:
            row.append(text)
        elif kind == b"b":
            if text not in ("true", "false"):
                return None
            row.append(text == "true")
        elif kind not in (b"", b"n"):
            return None  # an error, an ISO date cell, ...
        else:
            value = _number(text, pads.get(column), at)
            if value is None:
                return None
            row.append(value)
    return tuple(row)


def _number(text: str, pad: Sequence[int | None] | None, at: int) -> object:
    """A number cell's value as the reader gives it, or None when the text is not one."""
    if _NUMBER.fullmatch(text):
        number = float(text)
        width = pad[at] if pad is not None else None
        return number_with_format(number, width) if width else number
    day = _MIDNIGHT.fullmatch(text)
    if day is None:
        return None
    value = date(int(day[1]), int(day[2]), int(day[3]))
    # Before March 1900 a serial may be a time of day or a duration (the reader's time or
    # timedelta), which fastexcel shows as a date too.
    return value if value >= _FIRST_DAY else None
