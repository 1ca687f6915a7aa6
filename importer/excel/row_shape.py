"""The shape of a table's data rows, to tell a line of notes from a row of the table.

A line below the data is a note when it is not of the table's shape: texts only, standing
in a column whose data hold one kind of values and no texts (numbers, dates, yes/no), or
(two cells or more) filling far fewer cells than the data rows do. A line right under the
header is a note when it is one text in a column whose data hold no text there (a remark
under one header cell).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from importer.excel.table_header import cell_kind

# A line is a note when it fills this many times fewer cells than the data rows usually do.
_FEWER = 3
_MIN_ROWS = 2  # the data rows seen before a line is judged by their shape


def _filled(values: Sequence[object]) -> list[tuple[int, str]]:
    return [(i, k) for i, k in enumerate(map(cell_kind, values)) if k is not None]


class DataShape:
    """The kinds of the data rows' cells by column, and how many cells they fill."""

    def __init__(self) -> None:
        self.kinds: dict[int, Counter[str]] = {}
        self.widths: Counter[int] = Counter()

    @property
    def rows(self) -> int:
        return self.widths.total()

    def add(self, values: Sequence[object]) -> None:
        filled = _filled(values)
        self.widths[len(filled)] += 1
        for index, kind in filled:
            self.kinds.setdefault(index, Counter())[kind] += 1

    def usual_width(self) -> int:
        """The median of the cells the data rows fill."""
        middle, seen = self.rows // 2, 0
        for width in sorted(self.widths):
            seen += self.widths[width]
            if seen > middle:
                return width
        return 0

    def off_shape(self, values: Sequence[object]) -> bool:
        """Whether ``values`` is no row of this table (see the module docstring)."""
        filled = _filled(values)
        if self.rows < _MIN_ROWS or not filled or any(k != "text" for _, k in filled):
            return False
        if any(self._one_kind(i) for i, _ in filled):
            return True
        return len(filled) > 1 and len(filled) * _FEWER <= self.usual_width()

    def _one_kind(self, index: int) -> bool:
        """Whether the data hold one kind in the column ``index``, and not texts."""
        kinds = self.kinds.get(index)
        return kinds is not None and len(kinds) == 1 and "text" not in kinds


def note_over(values: Sequence[object], data: Sequence[Sequence[object]]) -> bool:
    """Whether ``values``, right under the header, is a remark over the data rows
    ``data``: one text, in a column where none of them holds a text."""
    filled = _filled(values)
    if len(filled) != 1 or filled[0][1] != "text" or not data:
        return False
    index = filled[0][0]
    return all(cell_kind(row[index]) != "text" for row in data if index < len(row))
