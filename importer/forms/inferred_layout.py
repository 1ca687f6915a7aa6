"""What `forms infer` reads of a sheet and the layout keys it proposes: the sampled rows an
import would read, and the rows it would leave out.

The proposal imports its own file: every row of the data's own shape is read. Rows that are
not data are left out by what they are, wherever they stand (``skip_rows``): totals and
sums of the columns above (when one closes the data), the header repeated, notes below
the table after a blank row or right under it when not of its shape, a remark under one
header cell. A sheet that holds no table is refused (excel/no_table.py).
``stop_at_blank_row`` is proposed only when the rows after the first blank row under the
data (totals and notes aside) fit none of the table's columns and types and are fewer than
the rows above it: a stop never leaves rows of the data unread, the sheet empty or cut in
half. The header's row is written when the automatic choice would not find it where
`forms infer` did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from importer.errors import InputError
from importer.excel.base import SheetReader
from importer.excel.group_sums import GroupSums, window_rows
from importer.excel.layout import HeaderLayout, Leading, Merge
from importer.excel.no_table import why_no_table
from importer.excel.row_filter import SKIP_KINDS
from importer.excel.row_shape import DataShape, note_over
from importer.excel.table_header import cell_kind, fits, guess_header, shape_of
from importer.excel.total_rows import ColumnSums, is_total_row, under_total
from importer.excel.values import Row, display_text, normalize_header
from importer.forms.layout import SheetLayout, choose_layout

if TYPE_CHECKING:
    from importer.forms.definition import Form

SAMPLE_ROWS = 2000
# Sampled cells are kept until every column is judged: a very wide sheet samples fewer rows
# (16,384 columns: 61 rows) rather than holding millions of cells.
SAMPLE_CELLS = 1_000_000
# A row of column sums is proposed as not data when it sums this many rows or more, over two
# columns or more (a column of 1, 2, 3 holds its own sum by chance).
_SUMMED = 3
# A note below the table: a line of one text of this many words or characters.
_NOTE_WORDS = 2
_NOTE_CHARS = 12
# Texts people write for "no value" (compared folded, without spaces): proposed as the
# form's `missing` when a column has them, and counted as empty cells for its type.
MISSING_TOKENS = frozenset({"n/a", "na", "n.a.", "-", "--", "none", "null", "nil", "?", "tbd"})


@dataclass
class Sample:
    """The sampled data rows' cells by column, and the rows that are not data."""

    columns: list[list[object]]  # each column's filled cells
    empty: list[int]  # each column's empty cells
    rows: int  # the data rows sampled
    missing: list[str] = field(default_factory=list)  # MISSING_TOKENS seen, as written
    skip_rows: tuple[str, ...] = ()  # kinds of rows seen that are not data (skip_rows)
    stop_at_blank_row: bool = False


def sample_sheet(reader: SheetReader) -> Sample:
    """The first rows under the reader's header: what is data, and what is not."""
    width = len(reader.header)
    limit = max(1, min(SAMPLE_ROWS, SAMPLE_CELLS // max(1, width)))
    rows: list[Row] = []
    for row in reader.rows():
        rows.append(row)
        if len(rows) >= limit:
            break
    grouped, data = _group_sums(rows, width)
    kinds, data = _not_data(data, reader.header)
    kinds |= grouped
    notes = _trailing_notes(data, width) if len(rows) < limit else 0
    if notes:
        kinds.add("notes")
        data = data[: len(data) - notes]
    if width > 1 and (above := _notes_under_header(data, reader.header_row)):
        kinds.add("notes")
        data = data[above:]
    stop = _stop_at(data, reader.header_row)
    if stop is not None:
        data = data[:stop]
    if rows and not data:  # what reads as not data is all there is: it is the data
        kinds, data, stop = set(), rows, None
    found = _columns(data, width)
    found.skip_rows = tuple(k for k in SKIP_KINDS if k in kinds)
    found.stop_at_blank_row = stop is not None
    return found


def _not_data(rows: list[Row], header: Sequence[str]) -> tuple[set[str], list[Row]]:
    """The kinds of rows seen that are not data (as skip_rows names them), and the other
    rows. Totals and sums are proposed only when one of them closes the data (the last
    row, or the last before a blank row): a row of data may merely read like one."""
    kinds = _kinds(rows, header)
    seen = {kind for kind in kinds if kind == "repeated_header"}
    for index, kind in enumerate(kinds):
        after = index + 1
        if kind in ("totals", "sums") and (
            after == len(rows) or rows[after].number > rows[index].number + 1 or kinds[after]
        ):
            seen.add(kind)
    return seen, [row for row, kind in zip(rows, kinds, strict=True) if kind not in seen]


def _group_sums(rows: list[Row], width: int) -> tuple[set[str], list[Row]]:
    """``{"group_sums"}`` and the rows without them when rows over two columns of numbers
    or more sum the rows under them (group_sums.py); else nothing, and ``rows``."""
    grouped: set[int] = set()
    kept = list(GroupSums(grouped.add, window_rows(width)).rows(iter(rows)))
    if not any(_numbers(row.values) >= 2 for row in rows if row.number in grouped):
        return set(), rows
    return {"group_sums"}, kept


def _kinds(rows: list[Row], header: Sequence[str]) -> list[str | None]:
    """Each row's kind of not data (None: a row of data)."""
    keys = [normalize_header(t) for t in header]
    while keys and not keys[-1]:
        keys.pop()
    kinds: list[str | None] = []
    sums = ColumnSums()
    total: Row | None = None  # the total row above the lines in ``between``
    between: list[int] = []  # label/value lines under it: totals if a total follows
    for index, row in enumerate(rows):
        kind: str | None = None
        if len(keys) > 1 and _repeats(row.values, keys):
            kind = "repeated_header"
        elif sums.rows >= _SUMMED and _numbers(row.values) >= 2 and sums.is_sums_row(row.values):
            kind = "sums"
        elif is_total_row(row.values):
            kind = "totals"
            for line in between:
                kinds[line] = "totals"
        if (
            kind is None
            and total is not None
            and under_total(total, [rows[i] for i in between], row)
        ):
            between.append(index)
        else:
            total, between = (row if kind == "totals" else None), []
        kinds.append(kind)
        if kind in ("sums", "totals"):
            sums.reset()
        elif kind is None:
            sums.add(row.values)
    return kinds


def _numbers(values: Sequence[object]) -> int:
    return sum(cell_kind(v) == "number" and type(v) is not str for v in values)


def _repeats(values: Sequence[object], keys: list[str]) -> bool:
    """Whether a row reads as the header ``keys`` again (its first cell tells most rows)."""
    if not values or normalize_header(display_text(values[0]) or "") != keys[0]:
        return False
    row = [normalize_header(display_text(v) or "") for v in values]
    while row and not row[-1]:
        row.pop()
    return row == keys


def _is_note(values: Sequence[object]) -> bool:
    """A line of one text that reads as prose: a source, a footnote (not a lone value such
    as a pivot table's '(blank)')."""
    filled = [v for v in values if cell_kind(v) is not None]
    if len(filled) != 1 or type(filled[0]) is not str:
        return False
    text = filled[0].strip()
    return len(text.split()) >= _NOTE_WORDS or len(text) >= _NOTE_CHARS


def _trailing_notes(data: list[Row], width: int) -> int:
    """How many of the last rows are notes below the table (lines of one text after a
    blank row), when the table is wider than one column and some data is left above."""
    if width < 2:
        return 0
    count = 0
    while count < len(data) and _is_note(data[len(data) - 1 - count].values):
        count += 1
    first = len(data) - count
    if count and first and data[first].number > data[first - 1].number + 1:
        return count  # lines after a blank row under the data
    return _off_shape_lines(data)


def _off_shape_lines(data: list[Row]) -> int:
    """How many of the last rows are lines right under the data, no blank row between, that
    are not of its shape (row_shape.py), one such line among them at least (a line of one
    text in a column of texts alone reads as a row of the data); fewer than the rows above."""
    count = 0
    while count * 2 < len(data) - 2 and all(
        cell_kind(v) in (None, "text") for v in data[len(data) - 1 - count].values
    ):
        count += 1
    shape = DataShape()
    for row in data[: len(data) - count]:
        shape.add(row.values)
    lines = [row.values for row in data[len(data) - count :]]
    while lines and not (shape.off_shape(lines[0]) or _one_text(lines[0])):
        lines.pop(0)
    first = len(data) - len(lines)
    if not lines or data[first].number > data[first - 1].number + 1:
        return 0  # lines after a blank row: another block, which a stop leaves out
    return len(lines) if any(map(shape.off_shape, lines)) else 0


def _one_text(values: Sequence[object]) -> bool:
    filled = [v for v in values if cell_kind(v) is not None]
    return len(filled) == 1 and cell_kind(filled[0]) == "text"


def _notes_under_header(data: list[Row], header_row: int) -> int:
    """How many lines right under the header are remarks over the data (row_shape.py)."""
    count = 0
    while count < len(data) - 1 and data[count].number == header_row + 1 + count:
        if not note_over(data[count].values, [row.values for row in data[count + 1 :]]):
            break
        count += 1
    return count


def _stop_at(data: list[Row], header_row: int) -> int | None:
    """Where the data ends at a blank row, as stop_at_blank_row would end it (the index in
    ``data`` of the first row after it), when nothing after it fits the rows before it and
    it is fewer rows than they are; None: no stop."""
    if not data or data[0].number != header_row + 1:
        return None  # a blank row right under the header: the stop would read nothing
    for index in range(1, len(data)):
        if data[index].number > data[index - 1].number + 1:
            after = data[index:]
            shape = shape_of([row.values for row in data[:index]])
            if len(after) >= index or any(fits(row.values, shape) for row in after):
                return None
            return index
    return None


def _columns(data: list[Row], width: int) -> Sample:
    """Each column's filled and empty cells over ``data``."""
    found = Sample([[] for _ in range(width)], [0] * width, len(data))
    tokens: dict[str, None] = {}
    for row in data:
        for index, value in enumerate(row.values[:width]):
            if value is None or (type(value) is str and not value.strip()):
                found.empty[index] += 1
            elif type(value) is str and value.strip().casefold() in MISSING_TOKENS:
                found.empty[index] += 1
                tokens[value.strip()] = None
            else:
                found.columns[index].append(value)
        for index in range(len(row.values), width):
            found.empty[index] += 1
    found.missing = list(tokens)
    return found


# --- the header, and the layout proposed ------------------------------------------------------


def no_table(where: str, why: str) -> InputError:
    """The refusal of a sheet that holds no table to infer a form from, and why."""
    return InputError(
        f"{where}: no table to infer a form from: {why}; name the header's row with --header-row N"
    )


def infer_header(header_row: int | None, where: str) -> HeaderLayout:
    """The reader's layout for `forms infer`: the header at ``header_row`` (over the rows
    the header a person would pick is written over, when it starts there), else that
    header. ``where``: the file (and sheet) a refusal names."""

    def choose(leading: Leading, merges: Sequence[Merge]) -> HeaderLayout | None:
        guess = guess_header(leading, merges)
        if header_row is not None:
            rows = guess.rows if guess is not None and guess.row == header_row else 1
            return HeaderLayout(row=header_row, rows=rows)
        if (why := why_no_table(leading, guess)) is not None:
            raise no_table(where, why)
        if guess is not None:
            return HeaderLayout(row=guess.row, rows=guess.rows)
        if leading and not any(cell_kind(v) == "text" for v in leading[0][1]):
            raise InputError(
                f"{where}: no table to infer a form from: no row of column names over the values"
                f" (the first row with values, row {leading[0][0]}, holds no text);"
                " name the header's row with --header-row N"
            )
        return None  # the first row with values

    return HeaderLayout(choose=choose)


def proposed_layout(reader: SheetReader, sample: Sample, form: Form) -> SheetLayout:
    """The layout keys proposed for the reader's sheet: the rows not data (``sample``),
    the header's rows, and its row when the automatic choice would not find it there."""
    layout = SheetLayout(
        header_rows=reader.header_rows,
        stop_at_blank_row=sample.stop_at_blank_row,
        skip_rows=sample.skip_rows,
    )
    found = reader.header_first_row or reader.header_row
    if _auto_header(replace(form, layout=layout), reader) != (found, reader.header_rows):
        layout = replace(layout, header_row=found)
    return layout


def _auto_header(form: Form, reader: SheetReader) -> tuple[int, int] | None:
    """(first row, rows) of the header ``header_row = "auto"`` finds for ``form`` in the
    reader's sheet; None when it refuses (more than one row fits as well)."""
    if not reader.leading:
        return None
    choose = choose_layout([form], {}, row=None, where=f"sheet {reader.sheet_name!r}").choose
    assert choose is not None
    try:
        found = choose(reader.leading, reader.merges)
    except InputError:
        return None
    if found is None:
        return reader.leading[0][0], 1
    return found.row or reader.leading[0][0], found.rows
