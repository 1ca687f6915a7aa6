"""Row validation, a batch at a time: header matching once, then coercion of every cell.

Validator(form, header) matches the sheet's columns to the form's fields (refusing a
sheet that lacks required columns before any job exists); validate(rows) returns the
valid rows as JSON-ready dicts and the rejected ones with every error of each row.

Speed: a batch is transposed into columns and each column is coerced in a few C-level
passes (column_coerce.py); only rows with a failed cell are walked again, field by field,
to collect all of their errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter
from typing import Any, NamedTuple

from importer.coerce import Coercer, build_coercer
from importer.column_coerce import ColumnCoercer, column_coercer
from importer.errors import InputError
from importer.excel.values import Row, display_text
from importer.forms import Form, normalize_header


class ValidRow(NamedTuple):
    """A row that passed: (a named tuple, built once per row, cheaper than a dataclass)."""

    number: int
    data: dict[str, Any]  # JSON-ready, keyed by field name


@dataclass(slots=True)
class RowError:
    column: str  # the sheet's header text
    raw: str | None  # the cell as text
    message: str


@dataclass(slots=True)
class RejectedRow:
    number: int
    values: list[str | None]  # every cell of the row as text, in the sheet's column order
    errors: list[RowError]


@dataclass
class BatchResult:
    valid: list[ValidRow] = field(default_factory=list)
    rejected: list[RejectedRow] = field(default_factory=list)


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@dataclass(frozen=True)
class _Column:
    name: str  # field name
    index: int  # column index in the sheet
    header: str  # the sheet's header text
    coerce: Coercer  # one cell
    bulk: ColumnCoercer  # the batch's cells of this column


def _fit(values: tuple[object, ...], width: int) -> tuple[object, ...]:
    return (values + (None,) * width)[:width]


class Validator:
    def __init__(self, form: Form, header: list[str], *, date1904: bool = False) -> None:
        self.form = form
        self.header = list(header)
        by_key: dict[str, str] = {}
        for f in form.fields:
            for key in f.match_keys:
                by_key[key] = f.name
        matched: dict[str, int] = {}
        extra: list[str] = []
        duplicates: list[str] = []
        for index, text in enumerate(self.header):
            key = normalize_header(text)
            name = by_key.get(key) if key else None
            if name is None:
                if text.strip():
                    extra.append(text)
                continue
            if name in matched:
                first = matched[name]
                duplicates.append(
                    f"columns {column_letter(first)} ({self.header[first]!r}) and "
                    f"{column_letter(index)} ({text!r}) both match field {name!r}"
                )
                continue
            matched[name] = index
        self.extra_columns = extra
        if duplicates:
            raise InputError("duplicate columns: " + "; ".join(duplicates))
        missing = [f for f in form.fields if f.required and f.name not in matched]
        if missing:
            wanted = ", ".join(repr(f.header) for f in missing)
            present = ", ".join(repr(h) for h in self.header if h.strip()) or "(none)"
            raise InputError(
                f"missing required column{'s' if len(missing) > 1 else ''} {wanted} "
                f"for form {form.name!r}; the sheet's header has: {present}"
            )
        self.columns = []
        for f in form.fields:
            if f.name in matched:
                coerce = build_coercer(f, date1904=date1904)
                index = matched[f.name]
                self.columns.append(
                    _Column(f.name, index, self.header[index], coerce, column_coercer(f, coerce))
                )
        self.absent = [f.name for f in form.fields if f.name not in matched]
        self._build = self._builder()

    def _builder(self) -> Callable[[Iterable[tuple[object, ...]]], list[ValidRow]]:
        """(number, value, value, ...) tuples -> ValidRows, the data dict written as a literal
        (twice as fast as dict(zip(names, values)))."""
        names = [f"x{i}" for i in range(len(self.columns))]
        items = [f"{c.name!r}: {x}" for c, x in zip(self.columns, names, strict=True)]
        items += [f"{name!r}: None" for name in self.absent]
        source = (
            f"def build(rows):\n    return [new(ValidRow, (n, {{{', '.join(items)}}}))"
            f" for n, {''.join(x + ', ' for x in names)}in rows]\n"
        )
        env: dict[str, Any] = {"new": tuple.__new__, "ValidRow": ValidRow}
        # Field names are identifiers (forms.py checks them): safe to write into code.
        exec(compile(source, "<validator>", "exec"), env)
        build: Callable[[Iterable[tuple[object, ...]]], list[ValidRow]] = env["build"]
        return build

    def validate(self, rows: Sequence[Row]) -> BatchResult:
        """Coerce a batch column by column (see column_coerce); rows with any failed cell
        are walked again, field by field, to collect all of their errors."""
        result = BatchResult()
        count = len(rows)
        if not count:
            return result
        width = len(self.header)
        cells = list(map(itemgetter(1), rows))
        try:
            columns = list(zip(*cells, strict=True))
        except ValueError:  # readers give rows as wide as the header; rows built by hand may not
            cells = [_fit(values, width) for values in cells]
            columns = list(zip(*cells, strict=True))
        if len(columns) != width:
            cells = [_fit(values, width) for values in cells]
            columns = list(zip(*cells, strict=True))
        stored: list[Sequence[Any]] = []
        problems: dict[int, list[RowError]] = {}
        for col in self.columns:
            values, failed = col.bulk(columns[col.index])
            stored.append(values)
            for index, message in failed:
                cell = cells[index][col.index]
                error = RowError(col.header, _storable(display_text(cell)), message)
                problems.setdefault(index, []).append(error)
        numbered: Iterator[tuple[object, ...]] = zip(map(itemgetter(0), rows), *stored, strict=True)
        if problems:
            keep = [True] * count
            for index in problems:
                keep[index] = False
            numbered = compress(numbered, keep)
            for index in sorted(problems):
                values = [_storable(display_text(v)) for v in cells[index]]
                result.rejected.append(RejectedRow(rows[index][0], values, problems[index]))
        result.valid.extend(self._build(numbered))
        return result


def _storable(text: str | None) -> str | None:
    """Text PostgreSQL can hold: a NUL character becomes U+FFFD (the replacement mark)."""
    if text is not None and "\x00" in text:
        return text.replace("\x00", "\ufffd")
    return text
