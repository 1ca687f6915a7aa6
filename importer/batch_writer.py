"""One batch = one transaction: form_data rows, rejected rows and their errors, the cursor
advance, heartbeat and lease extension, all fenced by (job, lease owner, status 'running').

Rows go in with COPY (append forms) or one INSERT ... ON CONFLICT over arrays (forms with a
``key``: upsert on (form, record_key)), never a statement per row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from importer import jobs
from importer.config import ImportSettings
from importer.db import Connection, queries
from importer.errors import LeaseLost
from importer.excel.values import display_text
from importer.forms import Form
from importer.jobs import Job
from importer.validate import BatchResult, RejectedRow, RowError, ValidRow

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


@dataclass(frozen=True)
class Committed:
    job: Job  # counters as committed
    cancelled: bool = False


def _copy_text(value: str) -> str:
    # COPY text format: JSON already escapes control characters, only backslashes remain.
    return value.replace("\\", "\\\\")


class BatchWriter:
    def __init__(
        self,
        conn: Connection,
        job: Job,
        owner: str,
        form: Form,
        header: Sequence[str],
        settings: ImportSettings,
    ) -> None:
        self.conn = conn
        self.job = job
        self.owner = owner
        self.form = form
        self.header = list(header)
        self.settings = settings
        self._fence = {"id": job.id, "owner": owner, "lease_seconds": settings.lease_seconds}
        self._form_text = _copy_text(form.name).replace("\t", "\\t").replace("\n", "\\n")
        self._key_column = self._column_of(form.key[0]) if form.key else None

    def _column_of(self, field_name: str) -> str:
        """The sheet's header text for a field (for error messages)."""
        from importer.forms import normalize_header

        wanted = set(self.form.field(field_name).match_keys)
        for text in self.header:
            if normalize_header(text) in wanted:
                return text
        return self.form.field(field_name).header

    # --- the batch transaction ---------------------------------------------------------------

    def write(
        self, rows: Sequence[Any], result: BatchResult, *, pause: Callable[[], None]
    ) -> Committed:
        q = queries()
        conn = self.conn
        with conn.transaction():
            fenced = conn.execute(q.fence_import_batch, self._fence).fetchone()
            if fenced is None:
                raise LeaseLost(f"import job {self.job.id}: lease lost; nothing written")
            if fenced["success_rows"] + fenced["failed_rows"] != self.job.cursor:
                raise LeaseLost(f"import job {self.job.id}: its cursor moved under this run")
            if fenced["cancel_requested"]:
                self.job = jobs.finish(conn, self.job.id, self.owner, cancelled=True)
                return Committed(self.job, cancelled=True)
            valid = list(result.valid)
            rejected = list(result.rejected)
            if self.form.key:
                valid, duplicates = self._upsert(rows, valid)
                rejected += duplicates
            elif valid:
                self._copy_form_data(valid)
            if rejected:
                self._copy_rejected(rejected)
            counters = conn.execute(
                q.advance_import_cursor,
                {**self._fence, "good": len(valid), "bad": len(rejected)},
            ).fetchone()
            if counters is None:  # cannot happen: the row is locked by the fence above
                raise LeaseLost(f"import job {self.job.id}: lease lost; nothing written")
            pause()
        self.job = replace(
            self.job, success_rows=counters["success_rows"], failed_rows=counters["failed_rows"]
        )
        return Committed(self.job)

    def finish(self, *, pause: Callable[[], None]) -> Job:
        with self.conn.transaction():
            self.job = jobs.finish(self.conn, self.job.id, self.owner)
            pause()
        return self.job

    def set_total_rows(self, total: int) -> None:
        row = self.conn.execute(
            queries().set_import_total_rows, {**self._fence, "total_rows": total}
        ).fetchone()
        if row is None:
            raise LeaseLost(f"import job {self.job.id}: lease lost")
        self.job = replace(self.job, total_rows=total)

    # --- rows --------------------------------------------------------------------------------

    def _copy_form_data(self, valid: Sequence[ValidRow]) -> None:
        prefix = f"{self.job.id}\t"
        middle = f"\t{self._form_text}\t"
        block = "".join(
            f"{prefix}{row.number}{middle}{_copy_text(_encode(row.data))}\n" for row in valid
        )
        with self.conn.cursor().copy(
            "COPY form_data (import_job_id, row_number, form, data) FROM STDIN"
        ) as copy:
            copy.write(block)

    def _copy_rejected(self, rejected: Sequence[RejectedRow]) -> None:
        job_id = self.job.id
        with self.conn.cursor().copy(
            "COPY import_rejected_rows (import_job_id, row_number, row_values) FROM STDIN"
        ) as copy:
            for row in rejected:
                copy.write_row((job_id, row.number, _encode(list(row.values))))
        with self.conn.cursor().copy(
            "COPY import_row_errors (import_job_id, row_number, column_name, raw_value, message)"
            " FROM STDIN"
        ) as copy:
            for row in rejected:
                for error in row.errors:
                    copy.write_row((job_id, row.number, error.column, error.raw, error.message))

    def _record_key(self, data: dict[str, Any]) -> str:
        return _encode([data.get(name) for name in self.form.key])

    def _upsert(
        self, rows: Sequence[Any], valid: list[ValidRow]
    ) -> tuple[list[ValidRow], list[RejectedRow]]:
        """Insert or update on (form, key). A key seen earlier in the same file (this batch
        or a committed one of this job) makes the later row a row error."""
        first_row: dict[str, int] = {}
        unique: list[tuple[ValidRow, str]] = []
        duplicates: dict[int, int] = {}  # row number -> the earlier row with that key
        for row in valid:
            key = self._record_key(row.data)
            if key in first_row:
                duplicates[row.number] = first_row[key]
            else:
                first_row[key] = row.number
                unique.append((row, key))
        accepted: set[int] = set()
        if unique:
            returned = self.conn.execute(
                queries().upsert_form_data,
                {
                    "job_id": self.job.id,
                    "form": self.form.name,
                    "row_numbers": [row.number for row, _ in unique],
                    "record_keys": [key for _, key in unique],
                    "data": [_encode(row.data) for row, _ in unique],
                },
            ).fetchall()
            accepted = {r["row_number"] for r in returned}
        earlier_in_file = [(row, key) for row, key in unique if row.number not in accepted]
        if earlier_in_file:
            holders = self.conn.execute(
                queries().rows_holding_keys,
                {
                    "form": self.form.name,
                    "job_id": self.job.id,
                    "record_keys": [key for _, key in earlier_in_file],
                },
            ).fetchall()
            holder_of = {h["record_key"]: h["row_number"] for h in holders}
            for row, key in earlier_in_file:
                duplicates[row.number] = holder_of.get(key, 0)
        kept = [row for row in valid if row.number not in duplicates]
        by_number = {getattr(r, "number", None): r for r in rows}
        rejected = [
            self._duplicate(number, earlier, by_number.get(number))
            for number, earlier in sorted(duplicates.items())
        ]
        return kept, rejected

    def _duplicate(self, number: int, earlier: int, source: Any) -> RejectedRow:
        values = [display_text(v) for v in getattr(source, "values", ())]
        names = ", ".join(self.form.key)
        where = f"row {earlier}" if earlier else "an earlier row"
        raw = None
        if self._key_column is not None and self._key_column in self.header:
            position = self.header.index(self._key_column)
            raw = values[position] if position < len(values) else None
        error = RowError(
            column=self._key_column or names,
            raw=raw,
            message=f"duplicate {names}: the same key is already in {where} of this file",
        )
        return RejectedRow(number=number, values=values, errors=[error])
