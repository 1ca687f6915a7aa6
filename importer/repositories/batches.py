"""One batch = one transaction: form_data rows, rejected rows and their errors, the cursor
advance, heartbeat and lease extension, all fenced by (job, lease owner, status 'running').

For append forms the whole batch is ONE statement (write_import_batch): the fence is a CTE
every insert joins, so a writer that lost its lease writes nothing at all. On an autocommit
connection that statement is its own transaction (no BEGIN and COMMIT round trips). Rows
travel as one JSON document per batch, never a statement (or a round trip) per row. Forms with a
``key`` upsert on (form, record_key) first, then record the batch the same way.
prepare() does the Python work so that write() — on the writer thread — mostly waits on
PostgreSQL.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from importer.config import ImportSettings
from importer.database import Connection, queries
from importer.errors import LeaseLost
from importer.excel.cell_json import encode_cells
from importer.excel.values import RowBatch, display_text
from importer.fields.field import normalize_header
from importer.forms.definition import Form
from importer.forms.validation import BatchResult, RejectedRow, RowError, ValidRow
from importer.repositories import jobs
from importer.repositories.jobs import Job
from importer.retry_policy import retry_conflicts
from importer.states import JobStatus

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


@dataclass(frozen=True)
class Committed:
    job: Job  # counters as committed
    cancelled: bool = False


@dataclass(frozen=True)
class Prepared:
    """A validated batch, encoded for the database."""

    rows: Sequence[Any]  # the source rows (for rows the writer itself rejects)
    last_row: int  # the Excel row number of the batch's last row
    valid: Sequence[ValidRow]
    rejected: list[RejectedRow]
    rows_json: str  # [[row_number, data], ...] (append forms)
    rejected_json: str  # [[row_number, [texts...], [typed cells...]], ...]
    errors_json: str  # [[row_number, column, raw, message], ...]


def _rejected_json(rejected: Sequence[RejectedRow]) -> tuple[str, str]:
    rows = _encode([[row.number, row.values, encode_cells(row.cells)] for row in rejected])
    errors = _encode(
        [[row.number, e.column, e.raw, e.message] for row in rejected for e in row.errors]
    )
    return rows, errors


class BatchWriter:
    def __init__(
        self,
        conn: Connection,
        job: Job,
        owner: str,
        form: Form,
        header: Sequence[str],
        settings: ImportSettings,
        *,
        header_row: int,
    ) -> None:
        self.conn = conn
        self.header_row = header_row
        self.job = job
        self.owner = owner
        self.form = form
        self.header = list(header)
        self.settings = settings
        self._fence = {"id": job.id, "owner": owner, "lease_seconds": settings.lease_seconds}
        self._key_column = self._column_of(form.key[0]) if form.key else None

    def _column_of(self, field_name: str) -> str:
        """The sheet's header text for a field (for error messages)."""
        wanted = set(self.form.field(field_name).match_keys)
        for text in self.header:
            if normalize_header(text) in wanted:
                return text
        return self.form.field(field_name).header

    # --- the batch -------------------------------------------------------------------------

    def prepare(self, rows: Sequence[Any], result: BatchResult) -> Prepared:
        """Encode a validated batch (caller's thread; touches no connection)."""
        rows_json = "[]" if self.form.key else result.valid.json_document()
        rejected_json, errors_json = _rejected_json(result.rejected)
        last_row = rows.numbers[-1] if isinstance(rows, RowBatch) else rows[-1].number
        return Prepared(
            rows=rows,
            last_row=last_row,
            valid=result.valid,
            rejected=result.rejected,
            rows_json=rows_json,
            rejected_json=rejected_json,
            errors_json=errors_json,
        )

    def write(self, batch: Prepared, *, pause: Callable[[], None] | None = None) -> Committed:
        """The batch transaction; or, when a cancel is requested, the job's end there.
        ``pause``: a crash test's stop at the batch's last moment before it commits, on the
        path the batch takes without one: inside the open transaction (keyed forms, or any
        form on a connection that is not in autocommit mode), or just before the one
        statement that is the batch's transaction (append forms in autocommit mode).

        A deadlock or serialization failure rolled the transaction back and changed
        nothing: it is run again (retry_policy.retry_conflicts) rather than failing the
        attempt."""
        return retry_conflicts(lambda: self._write_once(batch, pause=pause))

    def _write_once(self, batch: Prepared, *, pause: Callable[[], None] | None) -> Committed:
        if not self.form.key and self.conn.autocommit:
            # Append forms: the batch is one statement, and in autocommit mode that statement
            # is its own transaction. BEGIN and COMMIT would be two more round trips, each
            # of which waits for the interpreter lock the reading thread holds (they cost
            # about 0.4 s per 200,000 rows). A crash test's pause does not change the path:
            # it stops here, before the statement, when nothing of the batch is sent yet.
            if pause is not None:
                pause()
            counters = self._record(
                batch,
                len(batch.valid),
                len(batch.rejected),
                Counter(),
                batch.rejected_json,
                batch.errors_json,
            )
            if counters is None:
                with self.conn.transaction():
                    return self._not_written()
            return self._committed(counters, batch)
        with self.conn.transaction():
            good, bad = len(batch.valid), len(batch.rejected)
            rejected_json, errors_json = batch.rejected_json, batch.errors_json
            outcomes: Counter[str] = Counter()
            if self.form.key:
                if not self._fence_first():
                    return self._not_written()
                duplicates = self._upsert(batch.rows, batch.valid, outcomes)
                if duplicates:
                    rejected_json, errors_json = _rejected_json([*batch.rejected, *duplicates])
                    good, bad = good - len(duplicates), bad + len(duplicates)
            counters = self._record(batch, good, bad, outcomes, rejected_json, errors_json)
            if counters is None:
                return self._not_written()
            if pause is not None:
                pause()
        return self._committed(counters, batch)

    def _record(
        self,
        batch: Prepared,
        good: int,
        bad: int,
        outcomes: Counter[str],
        rejected_json: str,
        errors_json: str,
    ) -> dict[str, Any] | None:
        """write_import_batch: the fenced cursor advance with the batch's rows; None when
        the fence let nothing through."""
        return self.conn.execute(
            queries().write_import_batch,
            {
                **self._fence,
                "cursor": self.job.cursor,
                "header_row": self.header_row,
                "last_row": batch.last_row,
                "good": good,
                "bad": bad,
                "inserted": outcomes["inserted"],
                "updated": outcomes["updated"],
                "unchanged": outcomes["unchanged"],
                "form": self.form.name,
                "rows": batch.rows_json,
                "rejected": rejected_json,
                "errors": errors_json,
            },
        ).fetchone()

    def _committed(self, counters: dict[str, Any], batch: Prepared) -> Committed:
        self.job = replace(
            self.job,
            success_rows=counters["success_rows"],
            failed_rows=counters["failed_rows"],
            inserted_rows=counters["inserted_rows"],
            updated_rows=counters["updated_rows"],
            unchanged_rows=counters["unchanged_rows"],
            header_row=self.header_row,
            last_row=batch.last_row,
        )
        return Committed(self.job)

    def _fence_first(self) -> bool:
        """Keyed forms: lock the job row before the upsert (nothing is sent if not ours)."""
        fenced = self.conn.execute(queries().fence_import_batch, self._fence).fetchone()
        return (
            fenced is not None
            and not fenced["cancel_requested"]
            and fenced["success_rows"] + fenced["failed_rows"] == self.job.cursor
        )

    def _not_written(self) -> Committed:
        """The fence let nothing through: a cancel to honour here, or the job is not ours."""
        row = self.conn.execute(queries().lock_import_job, {"id": self.job.id}).fetchone()
        ours = (
            row is not None
            and row["status"] == JobStatus.RUNNING
            and row["lease_owner"] == self.owner
        )
        if ours and row is not None and row["cursor"] != self.job.cursor:
            raise LeaseLost(
                f"import job {self.job.id}: its cursor moved under this run", job_id=self.job.id
            )
        if ours and row is not None and row["cancel_requested"]:
            self.job = jobs.finish(self.conn, self.job.id, self.owner, cancelled=True)
            return Committed(self.job, cancelled=True)
        raise LeaseLost(
            f"import job {self.job.id}: lease lost; nothing written", job_id=self.job.id
        )

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
            raise LeaseLost(f"import job {self.job.id}: lease lost", job_id=self.job.id)
        self.job = replace(self.job, total_rows=total)

    # --- forms with a key --------------------------------------------------------------------

    def _record_key(self, data: dict[str, Any]) -> str:
        return _encode([data.get(name) for name in self.form.key])

    def _upsert(
        self, rows: Sequence[Any], valid: Sequence[ValidRow], outcomes: Counter[str]
    ) -> list[RejectedRow]:
        """Insert or update on (form, key), counting in ``outcomes`` what each row did
        (inserted / updated / unchanged). A key seen earlier in the same file (this batch
        or a committed one of this job) makes the later row a row error: returned."""
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
                    "rows": _encode([[row.number, key, row.data] for row, key in unique]),
                },
            ).fetchall()
            accepted = {r["row_number"] for r in returned}
            outcomes.update(r["outcome"] for r in returned)
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
        cells = tuple(getattr(source, "values", ()))
        values = [display_text(v) for v in cells]
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
        return RejectedRow(number=number, values=values, errors=[error], cells=cells)
