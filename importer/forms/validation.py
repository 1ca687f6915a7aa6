"""Row validation, a batch at a time: header matching once, then coercion of every cell.

Validator(form, header) matches the sheet's columns to the form's fields (refusing a
sheet that lacks required columns before any job exists); validate(rows) returns the
valid rows as JSON-ready dicts and the rejected ones with every error of each row. The
batch writer takes the valid rows' columns as the values of its table's column types
(``typed_column``).

Speed: a batch is transposed into columns and each column is coerced in a few C-level
passes (column_coerce.py); only rows with a failed cell are walked again, field by field,
to collect all of their errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from decimal import Decimal
from operator import itemgetter
from typing import Any, NamedTuple, overload

from importer.excel.values import Row, RowBatch, display_texts
from importer.fields.cells import Coercer, build_coercer
from importer.fields.columns import ColumnCoercer, column_coercer
from importer.forms.definition import Form
from importer.forms.header_match import match_header
from importer.forms.row_json import RowTemplate
from importer.forms.stages import Hook, LookupSource, Stages, UniqueClaims, cleaner


class ValidRow(NamedTuple):
    """A row that passed: (a named tuple, built once per row, cheaper than a dataclass)."""

    number: int
    data: dict[str, Any]  # JSON-ready, keyed by field name


@dataclass(slots=True)
class RowError:
    column: str | None  # the sheet's header text; None: the row as a whole
    raw: str | None  # the cell as text
    message: str


@dataclass(slots=True)
class RejectedRow:
    number: int
    values: list[str | None]  # every cell of the row as text, in the sheet's column order
    errors: list[RowError]
    cells: Sequence[object] = ()  # the same cells as read (typed), for the error workbook


# The columns the error workbook adds after the sheet's own (report.py). A header ending in
# exactly these two texts, in this order, is an error workbook sent back: they are not data.
# Its hidden last column, the rows' keys (report/row_keys.py), is not data either: a header
# ending in it is a correction of the import the workbook came from (intake/corrections.py).
PROBLEMS_COLUMN = "Problems"
SOURCE_ROW_COLUMN = "Source row"
OWN_COLUMNS = (PROBLEMS_COLUMN, SOURCE_ROW_COLUMN)
ROW_KEY_COLUMN = "Row key"


def has_row_keys(header: Sequence[str]) -> bool:
    """The header ends with the error workbook's column of row keys."""
    return bool(header) and str(header[-1]).strip() == ROW_KEY_COLUMN


def data_width(header: Sequence[str]) -> int:
    """How many of the header's columns are the sheet's data: all but the error workbook's
    own trailing columns (Problems and Source row, or neither; then its row keys), when the
    header ends with them."""
    width = len(header) - 1 if has_row_keys(header) else len(header)
    tail = [str(text).strip() for text in header[max(width - len(OWN_COLUMNS), 0) : width]]
    return width - len(OWN_COLUMNS) if tuple(tail) == OWN_COLUMNS else width


Builder = Callable[[Iterable[tuple[object, ...]]], list[ValidRow]]


class ValidRows(Sequence[ValidRow]):
    """A batch's valid rows, kept as the validated columns: the writer encodes them to JSON
    from there (row_json), and a ValidRow with its dict is only built when asked for."""

    def __init__(
        self,
        numbers: list[int],
        columns: Sequence[Sequence[Any]],
        build: Builder | None = None,
        template: RowTemplate | None = None,
        names: Sequence[str] = (),
    ) -> None:
        self.numbers = numbers
        self.columns = columns
        self.names = tuple(names)  # the field of each column (the form's others are absent)
        self._build = build
        self._template = template
        self._rows: list[ValidRow] | None = None

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> ValidRow: ...
    @overload
    def __getitem__(self, index: slice) -> list[ValidRow]: ...
    def __getitem__(self, index: int | slice) -> ValidRow | list[ValidRow]:
        return self.rows()[index]

    def __iter__(self) -> Iterator[ValidRow]:
        return iter(self.rows())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ValidRows):
            return self.rows() == other.rows()
        if isinstance(other, list):
            return self.rows() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking sequence: like a list

    def __repr__(self) -> str:
        return f"ValidRows({self.rows()!r})"

    def rows(self) -> list[ValidRow]:
        if self._rows is None:
            assert self._build is not None or not self.numbers
            built = (
                self._build(zip(self.numbers, *self.columns, strict=True)) if self._build else []
            )
            self._rows = built
        return self._rows

    def json_document(self) -> str:
        """``[[row_number, {field: value, ...}], ...]`` as JSON text."""
        if not self.numbers:
            return "[]"
        if self._template is None:
            raise TypeError("these rows have no JSON template")
        return self._template.document(self.numbers, self.columns)


@dataclass
class BatchResult:
    valid: ValidRows = field(default_factory=lambda: ValidRows([], []))
    rejected: list[RejectedRow] = field(default_factory=list)
    # Values the valid rows took of the form's unique sets: (set, key text, row), written
    # with the batch (see forms/stages.py).
    claims: list[tuple[str, str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class _Column:
    name: str  # field name
    index: int  # column index in the sheet
    header: str  # the sheet's header text
    coerce: Coercer  # one cell
    bulk: ColumnCoercer  # the batch's cells of this column


def _fit(values: Sequence[object], width: int) -> tuple[object, ...]:
    return (tuple(values) + (None,) * width)[:width]


class Validator:
    def __init__(
        self,
        form: Form,
        header: list[str],
        *,
        date1904: bool = False,
        mapping: Mapping[str, str] | None = None,
        ignored: Iterable[str] = (),
        lookups: LookupSource | None = None,
        hook: Hook | None = None,
        today: date | None = None,
        on_warning: Callable[[str], None] | None = None,
    ) -> None:
        self.form = form
        self.header = list(header)
        # InputError here: the header does not fit the form (see header_match). The
        # columns an error file adds (Problems, Source row) are not data.
        data = self.header[: data_width(self.header)]
        match = match_header(form, data, mapping=mapping, ignored=ignored)
        matched = match.columns
        self.extra_columns = match.extra
        self.columns = []
        for f in form.fields:
            if f.name in matched:
                coerce = build_coercer(f, date1904=date1904)
                index = matched[f.name]
                self.columns.append(
                    _Column(f.name, index, self.header[index], coerce, column_coercer(f, coerce))
                )
        self.stages: Stages | None = None
        if form.has_stages or any(cleaner(form, f) for f in form.fields):
            coercers = {}
            for f in form.fields:
                one = build_coercer(f, date1904=date1904)
                coercers[f.name] = (one, column_coercer(f, one))
            self.stages = Stages(
                form,
                {c.name: c.header for c in self.columns},
                coercers=coercers,
                lookups=lookups,
                hook=hook,
                today=today,
                on_warning=on_warning,
            )
        self.names = [c.name for c in self.columns] + (self.stages.added if self.stages else [])
        self.absent = [f.name for f in form.fields if f.name not in self.names]
        self._positions = {c.header: c.index for c in self.columns}
        self._build = self._builder()
        self._template = RowTemplate(self.names, self.absent)

    @property
    def claims(self) -> UniqueClaims | None:
        """The values of the form's unique sets taken so far (None: the form has none)."""
        return self.stages.claims if self.stages is not None and self.form.unique else None

    def _builder(self) -> Builder:
        """(number, value, value, ...) tuples -> ValidRows, the data dict written as a literal
        (twice as fast as dict(zip(names, values)))."""
        names = [f"x{i}" for i in range(len(self.names))]
        items = [f"{name!r}: {x}" for name, x in zip(self.names, names, strict=True)]
        items += [f"{name!r}: None" for name in self.absent]
        source = (
            f"def build(rows):\n    return [new(ValidRow, (n, {{{', '.join(items)}}}))"
            f" for n, {''.join(x + ', ' for x in names)}in rows]\n"
        )
        env: dict[str, Any] = {"new": tuple.__new__, "ValidRow": ValidRow}
        # Field names are identifiers (forms.py checks them): safe to write into code.
        exec(compile(source, "<validator>", "exec"), env)
        build: Builder = env["build"]
        return build

    def validate(self, rows: Sequence[Row]) -> BatchResult:
        """Coerce a batch column by column (see column_coerce); rows with any failed cell
        are walked again, field by field, to collect all of their errors."""
        result = BatchResult()
        count = len(rows)
        if not count:
            return result
        width = len(self.header)
        if isinstance(rows, RowBatch):  # a reader's batch: its cells as they are
            numbers, cells = rows.numbers, rows.cells
        else:
            numbers, cells = list(map(itemgetter(0), rows)), list(map(itemgetter(1), rows))
        try:
            columns = list(zip(*cells, strict=True))
        except ValueError:  # readers give rows as wide as the header; rows built by hand may not
            cells = [_fit(values, width) for values in cells]
            columns = list(zip(*cells, strict=True))
        if len(columns) != width:
            cells = [_fit(values, width) for values in cells]
            columns = list(zip(*cells, strict=True))
        stored: list[list[Any]] = []
        # index -> (header text, its position in the sheet or None, message)
        problems: dict[int, list[tuple[str | None, int | None, str]]] = {}
        stages = self.stages
        cleaned: dict[str, Sequence[object]] = {}
        failures: set[tuple[int, str]] = set()
        for col in self.columns:
            given: Sequence[object] = columns[col.index]
            looked: dict[int, str] = {}
            if stages is not None:
                cleaned[col.name], given, looked = stages.before(col.name, given)
            values, failed = col.bulk(given)
            if stages is not None:
                failed = stages.explain_empty(col.name, columns[col.index], failed)
            if looked:  # a cell not found is that, not the empty cell its coercer saw
                failed = [(i, m) for i, m in failed if i not in looked] + sorted(looked.items())
            stored.append(values)
            for index, message in failed:
                problems.setdefault(index, []).append((col.header, col.index, message))
                failures.add((index, col.name))
        if stages is not None:
            extra = stages.after(
                numbers,
                dict(zip((c.name for c in self.columns), stored, strict=True)),
                cleaned,
                failures,
                set(problems),
            )
            stored += extra.columns
            for index, header, message in extra.problems:
                where = self._positions.get(header) if header is not None else None
                problems.setdefault(index, []).append((header, where, message))
            result.claims = extra.claims
        if problems:
            bad = sorted(problems)
            texts = _rows_as_texts([cells[index] for index in bad])
            result.rejected = [
                RejectedRow(
                    numbers[index],
                    row_texts,
                    [
                        RowError(header, row_texts[where] if where is not None else None, msg)
                        for header, where, msg in problems[index]
                    ],
                    cells[index],
                )
                for index, row_texts in zip(bad, texts, strict=True)
            ]
            # The coercers' lists are this batch's own: drop the rejected rows in place
            # (a few memmoves instead of a copy of every column).
            numbers = list(numbers)
            bad.reverse()
            for column in (numbers, *stored):
                for index in bad:
                    del column[index]
        result.valid = ValidRows(numbers, stored, self._build, self._template, self.names)
        return result


# --- the values of the table's column types ---------------------------------------------------


def _decimal(value: object) -> object:
    # A float's shortest repr is the number validation settled on (15 digits at most).
    if type(value) is float:
        return Decimal(float.__repr__(value))
    return value  # an int (numeric takes it as it is) or None


def _float(value: object) -> object:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _whole(value: object) -> object:
    # A decimal field's whole number into an integer column (a fraction stays a float: the
    # column's type refuses it).
    return int(value) if type(value) is float and value.is_integer() else value


def _day(value: object) -> object:
    return date.fromisoformat(value) if type(value) is str else value


def _text(value: object) -> object:
    # A column widened to text takes the values of the older types as their JSON text.
    if value is None or type(value) is str:
        return value
    if type(value) is bool:
        return "true" if value else "false"
    return repr(value) if type(value) is float else str(value)


_INTEGERS = frozenset({"bigint", "int8", "integer", "int4", "smallint", "int2"})
_FLOATS = frozenset({"float8", "float4", "double precision", "real"})
_TEXTS = frozenset({"text", "varchar", "bpchar", "character varying", "character"})


def typed_column(values: Sequence[Any], pg_type: str, zone: tzinfo) -> Sequence[Any]:
    """A validated column as the values its table column's type takes in binary COPY:
    Decimal (or int) for numeric, float for float8, date, datetime with a zone for
    timestamptz (a naive one is in ``zone``, the session's, as a cast of its text would take
    it) and without one for timestamp, int, bool and str. Validation's values are ints,
    floats, bools, strs and ISO texts of dates and moments."""
    kinds = set(map(type, values))
    if pg_type == "numeric":
        if kinds == {float}:
            return list(map(Decimal, map(float.__repr__, values)))
        return list(map(_decimal, values))
    if pg_type in _INTEGERS:
        return values if float not in kinds else list(map(_whole, values))
    if pg_type in _FLOATS:
        return values if kinds <= {float, type(None)} else list(map(_float, values))
    if pg_type == "date":
        return list(map(_day, values))
    if pg_type in ("timestamptz", "timestamp"):
        aware = pg_type == "timestamptz"

        def moment(value: object) -> object:
            if type(value) is str:
                value = datetime.fromisoformat(value)
            if isinstance(value, datetime):
                if aware and value.tzinfo is None:
                    return value.replace(tzinfo=zone)
                if not aware and value.tzinfo is not None:
                    return value.astimezone(zone).replace(tzinfo=None)
            return value

        return list(map(moment, values))
    if pg_type in _TEXTS:
        return values if kinds <= {str, type(None)} else list(map(_text, values))
    return values  # boolean, and whatever else a user's column is: validation's values


def _rows_as_texts(rows: list[Sequence[object]]) -> list[list[str | None]]:
    """Rows' cells as storable texts (display_text of each, NUL replaced), a column at a
    time: a column of one common type takes a C-level pass or two."""
    columns = [_column_texts(column) for column in zip(*rows, strict=True)]
    return list(map(list, zip(*columns, strict=True)))


def _column_texts(cells: Sequence[object]) -> Sequence[str | None]:
    texts = display_texts(cells)
    if "\x00" in "".join(filter(None, texts)):
        return list(map(_storable, texts))
    return texts


def _storable(text: str | None) -> str | None:
    """Text PostgreSQL can hold: a NUL character becomes U+FFFD (the replacement mark)."""
    if text is not None and "\x00" in text:
        return text.replace("\x00", "\ufffd")
    return text
