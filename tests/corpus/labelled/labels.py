"""The labels of the labelled corpus (labels.json): for each sheet, what a person sees.

A label says whether the sheet holds a table at all; if it does, the Excel rows of its header
(first..last), the Excel rows that are data, and the rows with values that are not data,
by what they are ("title", "notes below", "totals", "repeated header", ...). A sheet that
holds no table has no header and no data rows: every row with values is "not a table",
and the right answer is a refusal (or nothing imported).

Rows are written as inclusive ranges, [[first, last], ...], in Excel's numbering.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"
LABELS = HERE / "labels.json"

Ranges = tuple[tuple[int, int], ...]


def rows_of(ranges: Iterable[Sequence[int]]) -> frozenset[int]:
    """The Excel rows of inclusive ranges."""
    return frozenset(n for first, last in ranges for n in range(first, last + 1))


def ranges_of(rows: Iterable[int]) -> Ranges:
    """Rows as the fewest inclusive ranges, in order."""
    out: list[tuple[int, int]] = []
    for n in sorted(set(rows)):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return tuple(out)


def shown(rows: Iterable[int]) -> str:
    """Rows as a person reads them: "3-7, 9"."""
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges_of(rows)) or "-"


@dataclass(frozen=True)
class Label:
    file: str  # under files/
    sheet: str
    table: bool
    layout: tuple[str, ...]  # what the sheet shows: "title", "pivot", "non-English", ...
    header: tuple[int, int] | None  # first..last Excel row of the header
    data: Ranges
    not_data: dict[str, Ranges]  # what the rows are -> their ranges
    sees: str  # one line: what a person sees

    @property
    def key(self) -> str:
        return f"{self.file}:{self.sheet}"

    @property
    def path(self) -> Path:
        return FILES / self.file

    @property
    def data_rows(self) -> frozenset[int]:
        return rows_of(self.data)

    @property
    def header_rows(self) -> frozenset[int]:
        return rows_of([self.header]) if self.header is not None else frozenset()

    @property
    def not_data_rows(self) -> frozenset[int]:
        """The labelled rows that are not data, the header's among them."""
        return rows_of(r for ranges in self.not_data.values() for r in ranges) | self.header_rows

    @property
    def first_row(self) -> int:
        """The first row with values (a table's labels name every row with values)."""
        return min(self.data_rows | self.not_data_rows)

    @property
    def business_like(self) -> bool:
        """A sheet laid out as people lay them out: anything but a plain table."""
        return "plain" not in self.layout


def _ranges(raw: Any) -> Ranges:
    return tuple((int(first), int(last)) for first, last in raw)


def _label(raw: dict[str, Any]) -> Label:
    header = raw["header"]
    return Label(
        file=str(raw["file"]),
        sheet=str(raw["sheet"]),
        table=bool(raw["table"]),
        layout=tuple(str(x) for x in raw["layout"]),
        header=(int(header[0]), int(header[1])) if header is not None else None,
        data=_ranges(raw["data"]),
        not_data={str(k): _ranges(v) for k, v in raw["not_data"].items()},
        sees=str(raw["sees"]),
    )


def load_labels(path: Path = LABELS) -> list[Label]:
    return [_label(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]
