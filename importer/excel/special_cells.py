"""The cells of a sheet whose value calamine cannot give, as the byte-level scans find them.

Two kinds: `cells`, each cell's own value (an error, an uncalculated formula, an odd
zero-padded number), few in a sheet; and `padded`, runs of rows in one column whose numbers
are shown in a zero-padded format (``00000``). A run costs nothing per cell until its rows
are read: the number calamine gives is then turned into its padded text (number_with_format),
which is what the cell shows. A column of ZIP codes is one run, not a value per cell
(200,000 cells took 0.55 s and 40 MB as separate values).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from operator import itemgetter, ne, setitem
from typing import Any, NamedTuple

from importer.excel.values import NumberText


class PaddedRun(NamedTuple):
    """Excel rows ``first``..``last`` (inclusive) of a 0-based column: numbers in a
    zero-padded format ``width`` digits wide."""

    column: int
    first: int
    last: int
    width: int


@dataclass
class SpecialCells:
    cells: dict[tuple[int, int], object] = field(default_factory=dict)  # (row, 0-based col)
    padded: list[PaddedRun] = field(default_factory=list)

    def by_row(self) -> dict[int, list[tuple[int, object]]]:
        """`cells` by Excel row: [(0-based column, value), ...]."""
        rows: dict[int, list[tuple[int, object]]] = {}
        for (row, col), value in self.cells.items():
            rows.setdefault(row, []).append((col, value))
        return rows


def number_with_format(number: float, width: int) -> object:
    """A number in a zero-padded format: NumberText when the padding shows, else the number."""
    if number.is_integer() and 0 <= number < 10**width:
        return NumberText(number, str(int(number)).zfill(width))
    if number.is_integer() and -(10 ** (width - 1)) < number < 0:
        return NumberText(number, "-" + str(int(-number)).zfill(width))
    return number


def runs_of(column: int, width: int, rows: Sequence[int]) -> list[PaddedRun]:
    """The runs of consecutive row numbers in ascending ``rows`` (C-level passes; a Python
    step per run, not per row)."""
    if not rows:
        return []
    # Positions where a row does not follow the one before: where a run starts.
    starts = [0, *compress(count(1), map(ne, rows[1:], map((1).__add__, rows)))]
    ends = [*starts[1:], len(rows)]
    return [
        PaddedRun(column, rows[a], rows[b - 1], width) for a, b in zip(starts, ends, strict=True)
    ]


class PaddedIndex:
    """The runs of a sheet by column, found for a block of rows by bisection."""

    def __init__(self, runs: Sequence[PaddedRun]) -> None:
        by_column: dict[int, list[PaddedRun]] = {}
        for run in sorted(runs):
            by_column.setdefault(run.column, []).append(run)
        # Within a column runs never overlap, so their last rows ascend with their first.
        self._columns = [(col, [r.last for r in rs], rs) for col, rs in by_column.items()]

    def __bool__(self) -> bool:
        return bool(self._columns)

    def pad(self, raws: Sequence[Any], numbers: Sequence[int], lead: int = 0) -> None:
        """Set the padded text in place in ``raws``, calamine's rows of Excel rows
        ``numbers`` (ascending; their cell 0 being 0-based column ``lead``). Only numbers
        change, so padding a row twice is harmless."""
        if not numbers:
            return
        low, high = numbers[0], numbers[-1]
        for col, lasts, runs in self._columns:
            pos = col - lead
            if pos < 0:
                continue
            # Indexes, not a slice: a slice copies every later run, per call (a resume's
            # header search calls this once per row above the cut: quadratic).
            for at in range(bisect_left(lasts, low), len(runs)):
                run = runs[at]
                if run.first > high:
                    break
                rows = raws[bisect_left(numbers, run.first) : bisect_right(numbers, run.last)]
                if not _pad_at_once(rows, pos, run.width):
                    for raw in rows:
                        if pos < len(raw):
                            value = raw[pos]
                            if type(value) is float:
                                raw[pos] = number_with_format(value, run.width)


def _pad_at_once(rows: Sequence[Any], pos: int, width: int) -> bool:
    """The common run, whole non-negative numbers that fit the width, padded in C-level
    passes (a function call per cell cost 0.4 s per 200,000 ZIP codes); False, nothing
    changed, for any other run (number_with_format decides cell by cell)."""
    if not rows or min(map(len, rows)) <= pos:
        return False
    values = list(map(itemgetter(pos), rows))
    if set(map(type, values)) != {float} or not all(map(float.is_integer, values)):
        return False
    if min(values) < 0 or max(values) >= 10**width:
        return False
    texts = map(f"%0{width}d".__mod__, values)
    cells = map(tuple.__new__, repeat(NumberText), zip(values, texts, strict=True))
    deque(map(setitem, rows, repeat(pos), cells), maxlen=0)
    return True
