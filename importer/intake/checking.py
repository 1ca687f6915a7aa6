"""`importer check`: read and validate a whole sheet exactly as an import would, and write
nothing (no stored file, no job, no rows).

The same reading and validation code as the import (open_sheet, header_match, Validator),
so a file that checks clean imports clean. For a keyed form it also says how many rows an
import would insert, update or leave unchanged, by reading the stored rows with those keys.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from importer.database import Connection
from importer.excel.values import display_text
from importer.forms.definition import Form
from importer.forms.operations import RejectLimit
from importer.forms.validation import RejectedRow, RowError, Validator, ValidRows, typed_column
from importer.repositories.form_tables import live_table
from importer.repositories.records import stored_records

TOP_REASONS = 3
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'")
_LEADING_VALUE = re.compile(r"'(?:[^'\\]|\\.)*': ")
# A repeat within the file ("duplicate email 'a@b.com': already in row 12") counts as its
# set's repeats; a lookup's miss without its suggestions ("; did you mean 'ACME Ltd.'?").
_DUPLICATE = re.compile(r"^(duplicate [^'(]+?) (?:'(?:[^'\\]|\\.)*'|\(.*\)): already in row \d+$")
_SUGGESTION = re.compile(r"; did you mean .*\?$")


@dataclass
class CheckReport:
    file_name: str
    form: str
    form_version: int
    sheet: str
    header: list[str]
    total_rows: int = 0
    good: int = 0
    rejected: list[RejectedRow] = field(default_factory=list)
    reasons: Counter[tuple[str | None, str]] = field(default_factory=Counter)
    extra_columns: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # how the workbook was read
    warnings: list[str] = field(default_factory=list)  # what only the operator can fix
    keyed: bool = False
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    layout: dict[str, object] | None = None  # where the header is (SheetReader.layout_json)
    max_rejected: RejectLimit | None = None  # the form's (or the check's --max-rejected)
    rows_not_read: list[dict[str, object]] = field(default_factory=list)  # never silently

    @property
    def over_limit(self) -> str | None:
        """Why an import of this file would fail on its reject threshold (None: it would not)."""
        if self.max_rejected is None:
            return None
        rejected = len(self.rejected)
        return self.max_rejected.crossed(rejected, self.total_rows, self.total_rows, final=True)

    def top_reasons(self, count: int = TOP_REASONS) -> list[tuple[str | None, str, int]]:
        """(column, reason, rows) most common first; values are left out of the reason."""
        return [(col, why, n) for (col, why), n in self.reasons.most_common(count)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file_name": self.file_name,
            "form": self.form,
            "form_version": self.form_version,
            "sheet": self.sheet,
            "total_rows": self.total_rows,
            "good_rows": self.good,
            "rejected_rows": len(self.rejected),
            "top_reasons": [
                {"column": col, "reason": why, "rows": n} for col, why, n in self.top_reasons()
            ],
            "ignored_columns": self.extra_columns,
        }
        if self.keyed:
            out |= {"inserted": self.inserted, "updated": self.updated, "unchanged": self.unchanged}
        if self.max_rejected is not None:
            out |= {"max_rejected": str(self.max_rejected), "over_limit": self.over_limit}
        if self.warnings:
            out["warnings"] = self.warnings
        out["rows_not_read"] = self.rows_not_read
        return out


def reason_of(error: RowError) -> str:
    """The message without the cell's own value, so equal mistakes count together: a
    message that starts with the value (``'31/02/2024': February 2024 has no day 31``)
    without it, another with "the value" in its place."""
    duplicate = _DUPLICATE.match(error.message)
    if duplicate is not None:
        return f"{duplicate.group(1)}: already in an earlier row"
    if error.raw is None:
        return error.message
    if error.message.startswith("'") and _SUGGESTION.search(error.message):
        return _QUOTED.sub("the value", _SUGGESTION.sub("", error.message), count=1)
    leading = _LEADING_VALUE.match(error.message)
    if leading is not None:
        return error.message[leading.end() :]
    return _QUOTED.sub("the value", error.message, count=1)


def check_workbook(
    conn: Connection,
    path: Path | bytes,
    *,
    form_name: str | None,
    sheet: str | None = None,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    rows_per_batch: int = 1000,
    column_map: Mapping[str, str] | None = None,
    on_rows: Callable[[int], None] | None = None,
    hooks_allowed: Sequence[str] = (),
    header_row: int | None = None,
    file_name: str | None = None,
    only: Collection[str] | None = None,
) -> CheckReport:
    """Validate every row; InputError (exit 2) as a submit would refuse the file.
    ``on_rows``: called with the rows read so far, after each batch. ``path``: the workbook,
    or its bytes with ``file_name``; ``only``: the forms it may be for (an account's)."""
    from importer.excel import open_sheet
    from importer.forms.hooks import load_hook
    from importer.intake.submission import choose_for_header, read_workbook_bytes, sheet_layout
    from importer.repositories.forms import get_form
    from importer.repositories.lookups import TableLookups

    named = get_form(conn, form_name) if form_name is not None else None
    content = path if isinstance(path, bytes) else read_workbook_bytes(path)
    name = file_name or (path.name if isinstance(path, Path) else "upload")
    mapping = dict(column_map or {})
    layout = sheet_layout(conn, named, mapping, header_row, name, only)
    with open_sheet(
        content,
        sheet=sheet,
        engine=engine,
        memory_budget_mb=memory_budget_mb,
        file_name=name,
        layout=layout,
    ) as reader:
        form, version = named or choose_for_header(conn, reader.header, mapping, only)
        report = CheckReport(
            name,
            form.name,
            version,
            reader.sheet_name,
            list(reader.header),
            keyed=bool(form.key),
            max_rejected=form.operations.max_rejected,
        )
        validator = Validator(
            form,
            reader.header,
            date1904=reader.date1904,
            mapping=mapping,
            lookups=TableLookups(conn, form),
            hook=load_hook(form, hooks_allowed),
            today=date.today(),  # what a job submitted now would take as today()
            on_warning=report.warnings.append,
        )
        report.extra_columns = list(validator.extra_columns)
        report.layout = reader.layout_json()
        report.notes = list(reader.notes)
        keys = _KeyTally(conn, form, validator) if form.key else None
        for batch in reader.batches(rows_per_batch):
            result = validator.validate(batch)
            rejected = list(result.rejected)
            if keys is not None:
                rejected += keys.add(batch, result.valid)
            report.total_rows += len(batch)
            report.good += len(result.valid) - (len(rejected) - len(result.rejected))
            for row in rejected:
                report.rejected.append(row)
                for error in row.errors:
                    report.reasons[(error.column, reason_of(error))] += 1
            if on_rows is not None:
                on_rows(report.total_rows)
        if keys is not None:
            report.inserted, report.updated, report.unchanged = keys.counts()
        report.rows_not_read = reader.rows_not_read()  # complete: every row was read
    report.rejected.sort(key=lambda row: row.number)
    return report


class _KeyTally:
    """A keyed form: later rows repeating a key of the file are rejected (as the import does);
    the others are compared with what is stored under their key in the form's table, as the
    values of its columns' types (what the import would write)."""

    def __init__(self, conn: Connection, form: Form, validator: Validator) -> None:
        self.conn = conn
        self.form = form
        self.table = live_table(conn, form)
        self.zone = conn.info.timezone
        self.first: dict[tuple[Any, ...], int] = {}  # key -> the row that has it
        self.data: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # key -> the row's values
        position = {c.name: c.index for c in validator.columns}
        self.key_column = next(
            (validator.header[position[n]] for n in form.key if n in position), form.key[0]
        )
        self.key_index = position.get(form.key[0])

    def _typed_rows(self, valid: ValidRows) -> list[tuple[int, tuple[Any, ...]]]:
        """(row number, the values of every table column) of the valid rows."""
        given = dict(zip(valid.names, valid.columns, strict=True))
        absent = [None] * len(valid.numbers)
        columns = [
            typed_column(given[c.field], c.pg_type, self.zone) if c.field in given else absent
            for c in self.table.columns
        ]
        return list(zip(valid.numbers, zip(*columns, strict=True), strict=True))

    def add(self, batch: Any, valid: ValidRows) -> list[RejectedRow]:
        by_number = {getattr(r, "number", None): r for r in batch}
        duplicates = []
        names = [c.name for c in self.table.columns]
        at = [names.index(k) for k in self.table.key]
        for number, values in self._typed_rows(valid):
            key = tuple(values[i] for i in at)
            earlier = self.first.get(key)
            if earlier is None:
                self.first[key] = number
                self.data[key] = values
                continue
            source = by_number.get(number)
            texts = [display_text(v) for v in getattr(source, "values", ())]
            raw = texts[self.key_index] if self.key_index is not None else None
            shown = ", ".join(self.form.key)
            message = f"duplicate {shown}: the same key is already in row {earlier} of this file"
            cells = list(getattr(source, "values", ()))
            duplicates.append(
                RejectedRow(number, texts, [RowError(self.key_column, raw, message)], cells)
            )
        return duplicates

    def counts(self) -> tuple[int, int, int]:
        stored = stored_records(self.conn, self.table, list(self.data))
        inserted = updated = unchanged = 0
        for key, values in self.data.items():
            if key not in stored:
                inserted += 1
            elif stored[key] == values:
                unchanged += 1
            else:
                updated += 1
        return inserted, updated, unchanged
