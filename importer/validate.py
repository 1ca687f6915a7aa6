"""Row validation, a batch at a time: header matching once, then coercion of every cell.

Validator(form, header) matches the sheet's columns to the form's fields (refusing a
sheet that lacks required columns before any job exists); validate(rows) returns the
valid rows as JSON-ready dicts and the rejected ones with every error of each row.

Speed: per-field coercers are built once; the per-row work is generated as one Python
function with the fields unrolled (no loop, no per-cell dispatch), tried first; only a
row that fails it is walked again, field by field, to collect all of its errors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from importer.coerce import Coercer, Invalid, build_coercer, fast_expression
from importer.errors import InputError
from importer.excel.values import Row, display_text
from importer.forms import Form, normalize_header


@dataclass(slots=True)
class ValidRow:
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
    coerce: Coercer


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
        self.columns = [
            _Column(
                f.name,
                matched[f.name],
                self.header[matched[f.name]],
                build_coercer(f, date1904=date1904),
            )
            for f in form.fields
            if f.name in matched
        ]
        self.absent = [f.name for f in form.fields if f.name not in matched]
        self._fast = self._compile()

    def _compile(self) -> Callable[[tuple[object, ...]], dict[str, Any]]:
        """A function building a row's data dict in one expression (raises Invalid on any error)."""
        env: dict[str, Any] = {}
        items = [
            f"{col.name!r}: "
            + fast_expression(self.form.field(col.name), col.coerce, i, f"v[{col.index}]", env)
            for i, col in enumerate(self.columns)
        ]
        items += [f"{name!r}: None" for name in self.absent]
        source = "def row_data(v):\n    return {" + ", ".join(items) + "}\n"
        # Field names are identifiers (checked in forms.py) and indexes are ints.
        exec(compile(source, "<validator>", "exec"), env)
        fn: Callable[[tuple[object, ...]], dict[str, Any]] = env["row_data"]
        return fn

    def validate(self, rows: Sequence[Row]) -> BatchResult:
        result = BatchResult()
        valid, rejected = result.valid, result.rejected
        fast = self._fast
        for row in rows:
            try:
                valid.append(ValidRow(row.number, fast(row.values)))
            except Invalid:
                rejected.append(self._reject(row))
        return result

    def _reject(self, row: Row) -> RejectedRow:
        values = row.values
        errors: list[RowError] = []
        for col in self.columns:
            cell = values[col.index] if col.index < len(values) else None
            try:
                col.coerce(cell)
            except Invalid as exc:
                errors.append(RowError(col.header, _storable(display_text(cell)), exc.message))
        return RejectedRow(row.number, [_storable(display_text(v)) for v in values], errors)


def _storable(text: str | None) -> str | None:
    """Text PostgreSQL can hold: a NUL character becomes U+FFFD (the replacement mark)."""
    if text is not None and "\x00" in text:
        return text.replace("\x00", "\ufffd")
    return text
