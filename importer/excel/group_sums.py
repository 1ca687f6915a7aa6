"""Rows that hold the sums of the rows under them: a group's subtotal written above its
rows, as a pivot table lays out ``January | 141`` over ``Iran | 7``, ``Pakistan | 121``,
``Other | 13``.

A row is one when the rows right under it (two or more with numbers other than zero) sum,
column by column, to its numbers up to the next such row, and the run of such groups ends
at a blank row, a total row or the end of the data (rows of data that merely add up by
chance seldom run on to where the data ends). The rows are read in order through a window
of at most ``WINDOW`` rows (fewer on a wide sheet: ``WINDOW_CELLS``): a row is told once
the rows under it are in the window, so memory stays bounded; groups that end farther down
than the window reaches are read as data. Each row costs about the same whatever the
window: the running total of every number (in millionths, exact) tells where the rows
under a row may sum to it, and only there are its columns compared.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from importer.excel.total_rows import is_total_row
from importer.excel.values import Row

WINDOW = 1_000  # the rows held at most: group rows and the rows under them ...
WINDOW_CELLS = 250_000  # ... and their cells at most (a wide sheet holds fewer rows)
_MIN_WINDOW = 16
_MIN_ROWS = 2  # the rows under a group row that it sums (with numbers other than zero)
_SCALE = 1_000_000  # the running total counts millionths


@dataclass(eq=False)
class _Held:
    row: Row
    at: int  # its place in the stream
    numbers: dict[int, float]  # its numbers by column
    total: bool  # a row labelled as a total: the end of a group
    own: int  # the total of its numbers, in millionths
    running: int  # the running total of every number, in millionths, this row's in
    summed_at: list[int] = field(default_factory=list)  # where the rows under it sum to it
    closed: bool = False  # its group and those after it run on to where the data ends

    @property
    def awaits(self) -> int:
        """The running total at the last row of those under it that sum to it."""
        return self.running + self.own

    @property
    def sums_rows(self) -> bool:
        """Whether it may sum rows under it: numbers other than zero, no total's label."""
        return not self.total and any(self.numbers.values())


def _numbers(row: Row) -> dict[int, float]:
    numbers: dict[int, float] = {}
    for index, value in enumerate(row.values):
        # A number, not a yes/no (bool) nor a code (NumberText); told by type: every row.
        if type(value) is int or (type(value) is float and math.isfinite(value)):
            numbers[index] = float(value)
    return numbers


def _millionths(numbers: dict[int, float]) -> int:
    return sum(round(value * _SCALE) for value in numbers.values())


def _equal(sums: dict[int, float], numbers: dict[int, float]) -> bool:
    return all(
        math.isclose(sums.get(i, 0.0), numbers.get(i, 0.0), rel_tol=1e-9, abs_tol=1e-6)
        for i in sums.keys() | numbers.keys()
    )


def window_rows(width: int) -> int:
    """The rows a window holds over a sheet ``width`` columns wide."""
    return max(_MIN_WINDOW, min(WINDOW, WINDOW_CELLS // max(1, width)))


class GroupSums:
    """The rows of a stream without its group rows; ``left(number)`` is told each one left
    out."""

    def __init__(self, left: Callable[[int], None], window: int = WINDOW) -> None:
        self.left = left
        self.size = window
        self.window: deque[_Held] = deque()
        # A row that may sum rows under it, by the running total at their last row.
        self.awaited: dict[int, list[_Held]] = {}
        self.count = 0

    def rows(self, source: Iterator[Row]) -> Iterator[Row]:
        for row in source:
            if self.window and row.number > self.window[-1].row.number + 1:
                yield from self._told(ended=True)  # a blank row ends every group
            self._add(row)
            if len(self.window) > self.size:
                yield from self._told(ended=False, keep=self.size)
        yield from self._told(ended=True)

    def _add(self, row: Row) -> None:
        numbers = _numbers(row)
        own = _millionths(numbers)
        before = self.window[-1].running if self.window else 0
        held = _Held(row, self.count, numbers, is_total_row(row.values), own, before + own)
        self.count += 1
        self.window.append(held)
        for above in self.awaited.get(held.running, ()):
            if self._sums_down_to(above, held):
                above.summed_at.append(held.at)
        if held.sums_rows:
            self.awaited.setdefault(held.awaits, []).append(held)

    def _sums_down_to(self, head: _Held, last: _Held) -> bool:
        """Whether the rows under ``head`` down to ``last`` (two or more with numbers other
        than zero, no total row among them) sum to its numbers."""
        first = self.window[0].at
        under = [self.window[at - first] for at in range(head.at + 1, last.at + 1)]
        if any(h.total for h in under) or sum(any(h.numbers.values()) for h in under) < _MIN_ROWS:
            return False
        sums: dict[int, float] = {}
        for held in under:
            for index, value in held.numbers.items():
                sums[index] = sums.get(index, 0.0) + value
        return _equal(sums, head.numbers)

    def _closed(self, head: _Held, ended: bool) -> bool:
        """Whether ``head`` sums the rows under it up to the next such row, and so on to a
        total row, or to the end of the window when ``ended`` (no row follows its last in
        this run of rows: a blank row or the end of the data)."""
        if head.closed:
            return True
        first = self.window[0].at
        for at in head.summed_at:
            if at + 1 - first == len(self.window):
                head.closed = ended
            else:
                after = self.window[at + 1 - first]
                head.closed = after.total or bool(after.summed_at and self._closed(after, ended))
            if head.closed:
                return True
        return False

    def _told(self, *, ended: bool, keep: int = 0) -> Iterator[Row]:
        """The rows at the window's head told, until ``keep`` rows are left in it."""
        while len(self.window) > keep:
            head = self.window[0]
            if self._closed(head, ended):
                self.left(head.row.number)
            else:
                yield head.row
            if head.sums_rows:
                awaited = self.awaited[head.awaits]
                awaited.remove(head)
                if not awaited:
                    del self.awaited[head.awaits]
            self.window.popleft()
        if not self.window:
            self.awaited.clear()
