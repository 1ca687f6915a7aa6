"""Rows that are not data, left out of an import, and every one of them counted.

``FilteredReader`` leaves out the rows after the first blank row (``stop_at_blank_row``),
those a column's text marks (``skip_rows_where``), and the kinds a form's ``skip_rows``
names: ``totals`` (a row labelled as a total, wherever the label stands, and the label/value
lines between two such rows; total_rows.py), ``sums`` (a row whose numbers are the sums of
the columns above it), ``group_sums`` (a row whose numbers are the sums of the rows under
it, a pivot table's subtotal above its group; group_sums.py), ``repeated_header`` (the
header again, as a long sheet printed page by page repeats it) and ``notes`` (lines of one
text below the table: a source, a footnote; lines below it not of its shape, row_shape.py;
a remark under one header cell, above the first data row). It counts, batches and resumes
alike, so a resume skips what the first run did. Whatever it leaves out that holds values
is tallied (``NotRead``): an import says how many rows it did not read, and where.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any

from importer.excel.group_sums import GroupSums, window_rows
from importer.excel.layout import HeaderLayout, Merge
from importer.excel.row_shape import DataShape, note_over
from importer.excel.total_rows import ColumnSums, is_total_row, under_total
from importer.excel.values import Row, display_text, normalize_header
from importer.fields.patterns import Pattern, compiled

if TYPE_CHECKING:
    from importer.excel.base import SheetReader

# The kinds of rows a form's ``skip_rows`` may name.
SKIP_KINDS = ("totals", "sums", "group_sums", "repeated_header", "notes")
# "notes": the rows of one text cell below the last data row (a source, a footnote) are held
# back until a data row follows (they were data after all) or the sheet ends; at most this
# many in a row, then they are data.
_HELD_NOTES = 1_000
_NAMED_ROWS = 5  # the rows a rule left out, named one by one
# skip_rows_where: the rows whose texts its pattern matches in one call (patterns.py)
_MATCHED_AT_ONCE = 1_024


def _is_note(values: Sequence[object]) -> bool:
    """A line of one text and nothing else."""
    filled = [v for v in values if v is not None and v != ""]
    return len(filled) == 1 and isinstance(filled[0], str)


def _is_note_line(values: Sequence[object], shape: DataShape) -> bool:
    """A line of notes if no data row follows it: one text, or not of the data's shape."""
    return _is_note(values) or shape.off_shape(values)


class _DataRows:
    """The rows the other rules leave in, and the lines among them that are notes (``notes``):
    a line that reads as one is held until a data row follows (then it was data), or the
    sheet ends (then it is counted as notes)."""

    def __init__(self, left: Callable[[str, int], None], *, notes: bool) -> None:
        self.left = left
        self.notes = notes
        self.held: list[Row] = []  # lines that are notes if no data row follows them
        self.shape = DataShape()  # the data rows' shape
        self.first = True  # no data row yet

    def kept(self, row: Row) -> tuple[Row, ...]:
        """The rows to read as data now that ``row`` came (none while it is held)."""
        if self.notes and len(self.held) < _HELD_NOTES and _is_note_line(row.values, self.shape):
            self.held.append(row)
            return ()
        held = self._under_header(row) if self.first else self.held
        self.held, self.first = [], False
        if self.notes:
            for kept in held:
                self.shape.add(kept.values)
            self.shape.add(row.values)
        return (*held, row)

    def _under_header(self, row: Row) -> list[Row]:
        """The lines above the first data row ``row`` that are rows of the table: the
        others, remarks under one header cell, are left out as notes."""
        kept: list[Row] = []
        for line in self.held:
            if note_over(line.values, [row.values]):
                self.left("notes", line.number)
            else:
                kept.append(line)
        return kept

    def end(self) -> None:
        for row in self.held:
            self.left("notes", row.number)


@dataclass
class NotReadRows:
    """Rows with values one rule left out: how many, the first and the last."""

    why: str  # stop_at_blank_row | skip_rows_where | one of SKIP_KINDS
    rows: int = 0
    first: int = 0
    last: int = 0
    blank_row: int | None = None  # stop_at_blank_row: the blank row the data ended at
    some: list[int] = field(default_factory=list)  # the first few, to name them

    def add(self, number: int) -> None:
        self.rows += 1
        self.first = self.first or number
        self.last = number
        if len(self.some) < _NAMED_ROWS:
            self.some.append(number)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "why": self.why,
            "rows": self.rows,
            "first": self.first,
            "last": self.last,
            "some": self.some,
        }
        if self.blank_row is not None:
            out["blank_row"] = self.blank_row
        return out


class FilteredReader:
    """Rows of a reader without those that are not data (see the module docstring). Its
    rows are what a job counts, imports and resumes: the filter runs every time."""

    def __init__(self, inner: SheetReader, layout: HeaderLayout) -> None:
        self.inner = inner
        self.layout = layout
        self.column: int | None = None
        self.pattern: Pattern | None = None
        if layout.skip_column is not None:
            wanted = normalize_header(layout.skip_column)
            self.column = next(
                (i for i, t in enumerate(inner.header) if normalize_header(t) == wanted), None
            )
            # No such column: the header does not fit the form (whose field the column is),
            # and the header check says so.
            self.pattern = compiled(layout.skip_matches or "")
        self.header_key = [normalize_header(t) for t in inner.header]
        # fill_merged: the merged ranges below the header, over the columns it fills.
        self.fills: list[Merge] = []
        self._anchors: dict[Merge, object] = {}
        if layout.fill_columns is not None:
            named = {normalize_header(t) for t in layout.fill_columns}
            columns = {
                i for i, t in enumerate(inner.header) if not named or normalize_header(t) in named
            }
            self.fills = [
                m
                for m in inner.merges
                if m[2] > inner.header_row and columns.intersection(range(m[1], m[3] + 1))
            ]
        self.not_read: dict[str, NotReadRows] = {}

    def _left(self, why: str, number: int) -> None:
        self.not_read.setdefault(why, NotReadRows(why)).add(number)

    def rows(self, source: Iterator[Row]) -> Iterator[Row]:
        """The data rows of ``source``; what is left out is tallied afresh in ``not_read``
        (complete once the rows are read to the end)."""
        self.not_read = {}
        kinds = self.layout.skip_rows
        if self.pattern is not None:
            source = self._matched(source, self.pattern)
        if self.layout.stop_at_blank_row:
            source = self._until_blank(source)
        if self.fills:
            source = map(self._filled, source)
        if "group_sums" in kinds:
            left = self._left
            window = window_rows(len(self.header_key))
            source = GroupSums(lambda number: left("group_sums", number), window).rows(source)
        data = _DataRows(self._left, notes="notes" in kinds and len(self.header_key) > 1)
        sums = ColumnSums() if "sums" in kinds else None
        total: Row | None = None  # the total row right above the lines in ``between``
        between: list[Row] = []  # label/value lines under it: totals if a total follows
        for row in source:
            why = self._not_data(row, sums)
            if why == "totals":
                for line in between:
                    self._left("totals", line.number)
                between.clear()
            if why is not None:
                self._left(why, row.number)
                total = row if why == "totals" else None
                continue
            if total is not None and under_total(total, between, row):
                between.append(row)
                continue
            total = None
            for line in (*between, row):
                yield from data.kept(line)
                if sums is not None:
                    sums.add(line.values)
            between.clear()
        for line in between:
            yield from data.kept(line)
        data.end()

    def _until_blank(self, source: Iterator[Row]) -> Iterator[Row]:
        """The rows of ``source`` up to the first blank row (stop_at_blank_row); the rows
        with values after it are not read as data, but counted."""
        previous = self.inner.header_row
        for row in source:
            if row.number > previous + 1:
                tally = NotReadRows("stop_at_blank_row", blank_row=previous + 1)
                tally.add(row.number)
                for rest in source:
                    tally.add(rest.number)
                self.not_read["stop_at_blank_row"] = tally
                return
            previous = row.number
            yield row

    def _not_data(self, row: Row, sums: ColumnSums | None) -> str | None:
        """Why ``row`` is not data (the rule that leaves it out), or None: it is data."""
        pattern, kinds = self.pattern, self.layout.skip_rows
        if pattern is not None:
            text = self._skip_text(row)
            if text is not None and pattern.search(text):
                return "skip_rows_where"
        if not kinds:
            return None
        if "repeated_header" in kinds and self._repeats_header(row.values):
            return "repeated_header"
        if sums is not None and sums.is_sums_row(row.values):
            sums.reset()
            return "sums"
        if "totals" in kinds and is_total_row(row.values):
            if sums is not None:
                sums.reset()
            return "totals"
        return None

    def _skip_text(self, row: Row) -> str | None:
        """The text of ``row`` that skip_rows_where matches (None: it has no such cell)."""
        column = self.column
        if column is None or column >= len(row.values):
            return None
        text = display_text(row.values[column])
        return None if text is None else text.strip()

    def _matched(self, source: Iterator[Row], pattern: Pattern) -> Iterator[Row]:
        """The rows of ``source``, their skip_rows_where texts matched a chunk at a time."""
        while chunk := list(islice(source, _MATCHED_AT_ONCE)):
            texts = [t for t in map(self._skip_text, chunk) if t is not None]
            with pattern.primed(texts):
                yield from chunk

    def _repeats_header(self, values: Sequence[object]) -> bool:
        keys = [normalize_header(display_text(v) or "") for v in values]
        while keys and not keys[-1]:
            keys.pop()
        return bool(keys) and keys == self.header_key[: len(keys)] and len(keys) > 1

    def _filled(self, row: Row) -> Row:
        """The row with each merged range's value in every cell of it the row holds (the
        anchor, the range's top left cell, is read first: rows come in order)."""
        values: list[object] | None = None
        for merge in self.fills:
            top, first, bottom, end = merge
            if not top <= row.number <= bottom:
                continue
            if row.number == top and first < len(row.values):
                self._anchors[merge] = row.values[first]
            value = self._anchors.get(merge)
            if value is None:
                continue
            values = values if values is not None else list(row.values)
            for index in range(first, min(end + 1, len(values))):
                values[index] = value
        return row if values is None else Row(row.number, tuple(values))

    def batches(self, size: int, *, skip: int, after_row: int) -> Iterator[Sequence[Row]]:
        # Every row from the header on goes through the filter (a blank row stops it even
        # before the resume's cut), then the committed ones are left out.
        rows = self.rows(iter(self.inner.rows()))
        kept = (row for row in rows if row.number > after_row)
        if skip:
            for _ in islice(kept, skip):
                pass
        while batch := list(islice(kept, size)):
            yield batch

    def count_after(self, row: int) -> int:
        return sum(1 for r in self.rows(iter(self.inner.rows())) if r.number > row)

    def rows_not_read(self) -> list[dict[str, object]]:
        """What the last full pass left out, rule by rule (see NotReadRows)."""
        return [tally.to_json() for tally in self.not_read.values() if tally.rows]


def _rows(count: int) -> str:
    return f"{count:,} row" + ("" if count == 1 else "s")


def _where(entry: Mapping[str, Any]) -> str:
    """The rows' Excel numbers: a span, or those named one by one (then "... last")."""
    first, last, count = int(entry["first"]), int(entry["last"]), int(entry["rows"])
    if first == last:
        return f"row {first:,}"
    some = [int(n) for n in entry.get("some") or ()]
    if entry["why"] in ("stop_at_blank_row", "above_header") or not some:
        return f"rows {first:,}-{last:,}"
    named = ", ".join(f"{n:,}" for n in some)
    return f"rows {named}" + (f" ... {last:,}" if count > len(some) else "")


def describe_not_read(entry: Mapping[str, Any]) -> str:
    """One line a person reads: how many rows with values were not read as data, where,
    and the rule that left them out (its key in the form, to look up or change)."""
    count, why, where = int(entry["rows"]), str(entry["why"]), _where(entry)
    if why == "stop_at_blank_row":
        return (
            f"{_rows(count)} with values after the blank row {int(entry['blank_row']):,}"
            f" ({where}) {'was' if count == 1 else 'were'} not read (stop_at_blank_row)"
        )
    if why == "above_header":
        return (
            f"{_rows(count)} with values above the header ({where}) "
            f"{'was' if count == 1 else 'were'} not read"
        )
    what = {
        "skip_rows_where": "matching skip_rows_where",
        "totals": "of totals (skip_rows: totals)",
        "sums": "of column sums (skip_rows: sums)",
        "group_sums": "of the sums of the rows under them (skip_rows: group_sums)",
        "repeated_header": "repeating the header (skip_rows: repeated_header)",
        "notes": "of notes below the table (skip_rows: notes)",
    }.get(why, f"({why})")
    return f"{_rows(count)} {what} {'was' if count == 1 else 'were'} left out ({where})"


def not_read_total(entries: Sequence[Mapping[str, Any]] | None) -> int:
    return sum(int(entry["rows"]) for entry in entries or ())
