"""One batch = one transaction: form_data rows, rejected rows and their errors, the cursor
advance, heartbeat and lease extension, all fenced by (job, lease owner, status 'running').

Rows go in with COPY (append forms) or one INSERT ... ON CONFLICT over arrays (forms with a
``key``: upsert on (form, record_key)), never a statement per row. prepare() does the Python
work (JSON, COPY text) so that write() — on the writer thread — mostly waits on PostgreSQL.
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


@dataclass(frozen=True)
class Prepared:
    """A validated batch, encoded for the database."""

    rows: Sequence[Any]  # the source rows (for rows the writer itself rejects)
    good: int
    bad: int
    data_block: str  # COPY text for form_data (append forms)
    keyed: list[tuple[ValidRow, str]]  # (row, record_key) for upsert forms
    rejected_block: str
    errors_block: str


def _copy_json(value: str) -> str:
    # COPY text format: JSON already escapes control characters, only backslashes remain.
    return value.replace("\\", "\\\\")


def _copy_field(value: str | None) -> str:
    if value is None:
        return "\\N"
    return (
        value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    )


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
        self._form_text = _copy_field(form.name)
        self._key_column = self._column_of(form.key[0]) if form.key else None

    def _column_of(self, field_name: str) -> str:
        """The sheet's header text for a field (for error messages)."""
        from importer.forms import normalize_header

        wanted = set(self.form.field(field_name).match_keys)
        for text in self.header:
            if normalize_header(text) in wanted:
                return text
        return self.form.field(field_name).header

    # --- the batch -------------------------------------------------------------------------

    def prepare(self, rows: Sequence[Any], result: BatchResult) -> Prepared:
        """Encode a validated batch (caller's thread; touches no connection)."""
        job_id = self.job.id
        keyed: list[tuple[ValidRow, str]] = []
        data_block = ""
        if self.form.key:
            keyed = [(row, self._record_key(row.data)) for row in result.valid]
        else:
            prefix = f"{job_id}\t"
            middle = f"\t{self._form_text}\t"
            data_block = "".join(
                f"{prefix}{row.number}{middle}{_copy_json(_encode(row.data))}\n"
                for row in result.valid
            )
        rejected_block, errors_block = self._rejected_blocks(result.rejected)
        return Prepared(
            rows=rows,
            good=len(result.valid),
            bad=len(result.rejected),
            data_block=data_block,
            keyed=keyed,
            rejected_block=rejected_block,
            errors_block=errors_block,
        )

    def write(self, batch: Prepared, *, pause: Callable[[], None]) -> Committed:
        """The batch transaction: fence, rows, rejections, cursor; or a cancel at the fence."""
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
            good, bad = batch.good, batch.bad
            rejected_block, errors_block = batch.rejected_block, batch.errors_block
            if batch.keyed:
                duplicates = self._upsert(batch.rows, batch.keyed)
                if duplicates:
                    more_rejected, more_errors = self._rejected_blocks(duplicates)
                    rejected_block += more_rejected
                    errors_block += more_errors
                    good, bad = good - len(duplicates), bad + len(duplicates)
            elif batch.data_block:
                self._copy(
                    "COPY form_data (import_job_id, row_number, form, data) FROM STDIN",
                    batch.data_block,
                )
            if rejected_block:
                self._copy(
                    "COPY import_rejected_rows (import_job_id, row_number, row_values) FROM STDIN",
                    rejected_block,
                )
                self._copy(
                    "COPY import_row_errors (import_job_id, row_number, column_name,"
                    " raw_value, message) FROM STDIN",
                    errors_block,
                )
            counters = conn.execute(
                q.advance_import_cursor, {**self._fence, "good": good, "bad": bad}
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

    def _copy(self, statement: str, block: str) -> None:
        if block:
            with self.conn.cursor().copy(statement) as copy:
                copy.write(block)

    def _rejected_blocks(self, rejected: Sequence[RejectedRow]) -> tuple[str, str]:
        job_id = self.job.id
        rows = "".join(
            f"{job_id}\t{row.number}\t{_copy_json(_encode(list(row.values)))}\n" for row in rejected
        )
        errors = "".join(
            f"{job_id}\t{row.number}\t{_copy_field(e.column)}\t{_copy_field(e.raw)}"
            f"\t{_copy_field(e.message)}\n"
            for row in rejected
            for e in row.errors
        )
        return rows, errors

    def _record_key(self, data: dict[str, Any]) -> str:
        return _encode([data.get(name) for name in self.form.key])

    def _upsert(self, rows: Sequence[Any], keyed: list[tuple[ValidRow, str]]) -> list[RejectedRow]:
        """Insert or update on (form, key). A key seen earlier in the same file (this batch
        or a committed one of this job) makes the later row a row error: returned."""
        first_row: dict[str, int] = {}
        unique: list[tuple[ValidRow, str]] = []
        duplicates: dict[int, int] = {}  # row number -> the earlier row with that key
        for row, key in keyed:
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
        by_number = {getattr(r, "number", None): r for r in rows}
        return [
            self._duplicate(number, earlier, by_number.get(number))
            for number, earlier in sorted(duplicates.items())
        ]

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
