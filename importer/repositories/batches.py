"""One batch = one transaction: the form's rows, rejected rows and their errors, the cursor
advance, heartbeat and lease extension, all fenced by (job, lease owner, status 'running').

The valid rows first go by binary COPY, typed as the table's columns (form_tables.FormTable:
no JSON for PostgreSQL to parse), into the session's staging table: a writer frozen while
its rows stream in (PostgreSQL does not time out a COPY that waits for its client) holds
nothing another process waits for. Then the fence (fence_import_batch), which also advances
the cursor by the whole batch: a writer that lost its lease writes nothing. Then one
statement moves the rows into the form's table (an append form's INSERT ... SELECT; a keyed
form's upsert, in key order, counting inserted / updated / unchanged); the rejected rows and
their errors, few, follow as JSON; COMMIT.

Rows the table's own constraints refuse (NOT NULL, CHECK, a foreign key, a unique index: a
user's table has them) do not fail the job: the batch transaction runs again isolating them,
and records those as rejected rows carrying the constraint's name and PostgreSQL's detail.
For an append form one call of a function of the session (pg_temp) inserts the staged batch,
halving the ranges a constraint refuses until each refused row stands alone: one round trip
(keyed forms upsert the parts under savepoints). Its first ranges come from a set-based guess
of the refused rows (refusal_suspects.py): at 1% refused, ~20 statements per 1,000 rows
rather than ~160. The batch without a refused row, the common
case, pays for none of it.

prepare() does the Python work (typed values, a key repeated inside the batch) on the
reader's thread so that write(), on the writer thread, mostly waits on PostgreSQL.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from psycopg import sql
from psycopg.types.json import Jsonb

from importer.config import ImportSettings
from importer.database import Connection, queries
from importer.errors import DatabaseError, LeaseLost, TransientConflict
from importer.excel.cell_json import encode_cells
from importer.excel.values import RowBatch, display_text
from importer.fields.field import normalize_header
from importer.forms.definition import Form
from importer.forms.validation import (
    BatchResult,
    RejectedRow,
    RowError,
    ValidRow,
    ValidRows,
    typed_column,
)
from importer.repositories import jobs
from importer.repositories.corrections import Origin, claim_rows, release_rows
from importer.repositories.form_tables import JOB_COLUMN, ROW_COLUMN, FormTable, live_table
from importer.repositories.history import history_identifier
from importer.repositories.jobs import Job
from importer.repositories.lookups import write_claims
from importer.repositories.refusal_suspects import row_checks, suspects_query
from importer.retry_policy import retry_conflicts
from importer.states import JobStatus

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_COPY_TYPES = {JOB_COLUMN: "bigint", ROW_COLUMN: "integer"}
_KEY_IN_DETAIL = re.compile(r"Key \(([^)]*)\)=")


@dataclass(frozen=True)
class Committed:
    job: Job  # counters as committed
    cancelled: bool = False


@dataclass(frozen=True)
class Prepared:
    """A validated batch, in the values its COPY sends."""

    rows: Sequence[Any]  # the source rows (for rows the writer itself rejects)
    last_row: int  # the Excel row number of the batch's last row
    valid: Sequence[ValidRow]
    rejected: list[RejectedRow]  # validation's, and (keyed forms) later repeats of a key
    columns: list[str]  # the table's columns of the sheet's fields (others stay NULL)
    numbers: list[int]  # the row number of each record
    records: list[tuple[Any, ...]]  # the COPY's rows: those columns, then job and row
    rejected_json: str  # [[row_number, [texts...], [typed cells...]], ...]
    errors_json: str  # [[row_number, column, raw, message], ...]
    claims: Sequence[tuple[str, str, int]] = ()  # uniqueness within the file (stages.py)
    # The same records as CSV (the columnar path: polars writes them, no Python per row);
    # ``records`` is then empty and ``numbers`` says how many there are.
    csv: bytes | None = None

    @property
    def size(self) -> int:
        """How many records the batch holds."""
        return len(self.numbers) if self.csv is not None else len(self.records)


@dataclass
class _Outcome:
    """What the database made of a batch's valid rows."""

    refused: list[RejectedRow] = field(default_factory=list)  # repeated keys, constraints
    counts: Counter[str] = field(default_factory=Counter)  # inserted / updated / unchanged
    accepted: set[int] = field(default_factory=set)  # row numbers the upsert wrote


class _Refused(Exception):
    """Inside the fast path: a constraint refused a row (the transaction is rolled back)."""


def rejected_json_of(rejected: Sequence[RejectedRow]) -> tuple[str, str]:
    rows = _encode([[row.number, row.values, encode_cells(row.cells)] for row in rejected])
    errors = _encode(
        [[row.number, e.column, e.raw, e.message] for row in rejected for e in row.errors]
    )
    return rows, errors


def _row_numbered(rows: Sequence[Any], number: int) -> Any:
    """The batch's row of that number: rows are in the sheet's order, so a bisection (a
    scan made every refused row cost a pass over its batch's rows)."""
    at = bisect.bisect_left(rows, number, key=lambda row: getattr(row, "number", -1))
    if at < len(rows) and getattr(rows[at], "number", None) == number:
        return rows[at]
    return next((r for r in rows if getattr(r, "number", None) == number), None)


@runtime_checkable
class RowsByNumber(Protocol):
    """A batch's source rows that are costly to have all (the columnar path reads them
    again): those of some numbers, read together."""

    def only(self, numbers: Sequence[int]) -> Sequence[Any]: ...


def _sources(rows: Sequence[Any], numbers: list[int]) -> dict[int, Any]:
    """The source rows of these numbers, by number (those the batch has)."""
    if numbers and isinstance(rows, RowsByNumber):
        return {r.number: r for r in rows.only(numbers)}
    return {n: r for n in numbers if (r := _row_numbered(rows, n)) is not None}


def is_constraint(exc: DatabaseError) -> bool:
    """SQLSTATE class 23: NOT NULL, CHECK, foreign key, unique, exclusion."""
    return bool(exc.sqlstate and exc.sqlstate.startswith("23"))


def constraint_message(exc: DatabaseError) -> str:
    """``violates check constraint "x": <PostgreSQL's detail>`` from the server's own words."""
    text = str(exc).split(": ", 1)[-1]  # without our "database error" prefix
    if exc.constraint and "violates " in text:
        text = text[text.index("violates ") :]
    return f"{text}: {exc.detail}" if exc.detail else text


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
        table: FormTable | None = None,
        origin: Origin | None = None,
    ) -> None:
        self.conn = conn
        # A correction (repositories/corrections.py): each stored row of its origin is taken
        # in the batch transaction; one another correction took already is not stored. A key
        # held by a row of its origin or of its corrections repeats in the import.
        self.origin = origin
        self._family = [job.id] if origin is None else sorted({*origin.family, job.id})
        self.header_row = header_row
        self.job = job
        self.owner = owner
        self.form = form
        self.header = list(header)
        self.settings = settings
        # The columns' types as the table has them now (a widened column, a user's types):
        # what the COPY sends each column's values as.
        self.table = table or live_table(conn, form)
        self._fence = {"id": job.id, "owner": owner, "lease_seconds": settings.lease_seconds}
        self._key_column = self._column_of(form.key[0]) if form.key else None
        self._zone = conn.info.timezone  # naive datetimes are in the session's zone
        self._statements: dict[str, sql.Composed] = {}
        # Every batch is copied into the session's staging table first (see the module
        # docstring): keyed forms upsert from it, append forms insert from it.
        self._staging = self._staging_identifier()
        self._keyed = bool(self.table.key)
        # The bench's measure of what history costs (bench/history.py) turns it off; jobs
        # run so cannot be undone exactly, which is why no setting offers it.
        self._history = self._keyed and not os.environ.get("IMPORTER_TEST_WITHOUT_HISTORY")
        self._inserts: dict[tuple[str, ...], sql.Composed] = {}
        self._staged = False
        # Append forms isolating refused rows: the same staging table, and this session's
        # isolating function for each list of copied columns (the sheet's).
        self._isolating: dict[tuple[str, ...], sql.Identifier] = {}
        # The last batch isolated had refused rows: the next one (of the same file, likely
        # alike) goes straight to isolating rather than sending its rows twice.
        self._refusing = 0

    @property
    def zone(self) -> Any:
        """The session's time zone (naive datetimes are in it)."""
        return self._zone

    def _column_of(self, field_name: str) -> str:
        """The sheet's header text for a field (for error messages)."""
        wanted = set(self.form.field(field_name).match_keys)
        for text in self.header:
            if normalize_header(text) in wanted:
                return text
        return self.form.field(field_name).header

    # --- the batch -------------------------------------------------------------------------

    def prepare(self, rows: Sequence[Any], result: BatchResult) -> Prepared:
        """The batch's records as COPY sends them (caller's thread; touches no connection)."""
        valid = result.valid
        names: Sequence[str] = valid.names if isinstance(valid, ValidRows) else ()
        numbers = list(valid.numbers) if isinstance(valid, ValidRows) else []
        columns: list[Sequence[Any]] = [
            typed_column(values, self.table.column(name).pg_type, self._zone)
            for name, values in zip(names, valid.columns if names else (), strict=True)
        ]
        rejected = list(result.rejected)
        if self.table.key and numbers:
            numbers, columns, repeats = self._first_of_each_key(rows, names, numbers, columns)
            rejected = sorted([*rejected, *repeats], key=lambda row: row.number)
        job, row = self._own_values()
        own: list[Sequence[Any]] = [[self.job.id] * len(numbers)] if job else []
        own += [numbers] if row else []
        every = [*columns, *own]
        records = list(zip(*every, strict=True)) if every else [() for _ in numbers]
        rejected_json, errors_json = rejected_json_of(rejected)
        last_row = rows.numbers[-1] if isinstance(rows, RowBatch) else rows[-1].number
        return Prepared(
            rows=rows,
            last_row=last_row,
            valid=valid,
            rejected=rejected,
            columns=[self.table.column(name).name for name in names],
            numbers=numbers,
            records=records,
            rejected_json=rejected_json,
            errors_json=errors_json,
            claims=result.claims,
        )

    def write(self, batch: Prepared, *, pause: Callable[[], None] | None = None) -> Committed:
        """The batch transaction; or, when a cancel is requested, the job's end there.
        ``pause``: a crash test's stop at the batch's last moment, inside its open
        transaction before the commit.

        A deadlock or serialization failure rolled the transaction back and changed
        nothing: it is run again (retry_policy.retry_conflicts) rather than failing the
        attempt. So is a batch with a row its table's constraints refuse, isolating it."""
        return retry_conflicts(lambda: self._write_once(batch, pause=pause))

    def _write_once(self, batch: Prepared, *, pause: Callable[[], None] | None) -> Committed:
        if not self._staged:
            with self.conn.transaction():
                self._run("create_staging_table")
            self._staged = True
        try:
            if self._refusing and tuple(batch.columns) in self._isolating:
                return self._transaction(batch, pause, isolate=True)
            return self._transaction(batch, pause, isolate=False)
        except _Refused:
            if not self._keyed:
                self._isolating_function(batch.columns)
            return self._transaction(batch, pause, isolate=True)

    def _transaction(
        self, batch: Prepared, pause: Callable[[], None] | None, *, isolate: bool
    ) -> Committed:
        with self.conn.transaction():
            if batch.size:
                # Before the fence: while the rows stream in, this transaction holds nothing
                # another process waits for (staging is the session's own). A writer frozen in
                # mid-COPY (SIGSTOP, a stalled client: the server does not time a COPY out
                # while it waits for its client) thus never keeps the job row locked or the
                # form's table's unique entries taken, and another process takes the job over
                # once its lease ends.
                self._copy(self._staging, [*batch.columns, JOB_COLUMN, ROW_COLUMN], batch)
            fenced = self.conn.execute(
                queries().fence_import_batch,
                {
                    **self._fence,
                    "cursor": self.job.cursor,
                    "header_row": self.header_row,
                    "last_row": batch.last_row,
                    "good": batch.size,
                    "bad": len(batch.rejected),
                },
            ).fetchone()
            if fenced is None:
                return self._not_written()
            outcome = _Outcome()
            taken = self._take_origin_rows(batch, outcome) if self.origin else set()
            if batch.size:
                self._store(batch, outcome, isolate=isolate)
            if self.origin and outcome.refused:  # refused by the table after all: open again
                refused = [row.number for row in outcome.refused if row.number not in taken]
                release_rows(self.conn, self.origin, self.job.id, refused)
            write_claims(self.conn, self.job.id, batch.claims)
            rejected_json, errors_json = batch.rejected_json, batch.errors_json
            if outcome.refused:
                rejected_json, errors_json = rejected_json_of([*batch.rejected, *outcome.refused])
            if rejected_json != "[]":
                self.conn.execute(
                    queries().write_rejected_rows,
                    {"id": self.job.id, "rejected": rejected_json, "errors": errors_json},
                )
            counters = fenced
            if outcome.refused or self.table.key:
                settled = self.conn.execute(
                    queries().settle_import_batch,
                    {
                        **self._fence,
                        "refused": len(outcome.refused),
                        "inserted": outcome.counts["inserted"],
                        "updated": outcome.counts["updated"],
                        "unchanged": outcome.counts["unchanged"],
                    },
                ).fetchone()
                assert settled is not None  # the fence locked the job row for us
                counters = settled
            if pause is not None:
                pause()
        return self._committed(counters, batch)

    # --- the rows --------------------------------------------------------------------------

    def _store(self, batch: Prepared, outcome: _Outcome, *, isolate: bool) -> None:
        """Copy (or stage and upsert) the records. The fast path lets a constraint's refusal
        abort the transaction (_Refused: the caller runs it again isolating); isolating, each
        part is tried under a savepoint and a refused part is halved down to its rows."""
        if not self._keyed and isolate:
            self._isolate_on_server(batch, outcome)
            return
        if self._history:
            # Until the commit, no other writer of the tool changes the form's rows: what
            # the upsert's snapshot reads of them is what it overwrites (upsert_kept_form_rows).
            self.conn.execute(queries().lock_form_writes, {"form": self.form.name})
        everything = list(range(batch.size))
        if not isolate:
            try:
                self._put(batch, everything, outcome)
            except DatabaseError as exc:
                if is_constraint(exc):
                    raise _Refused from exc
                raise
        else:
            for part in self._halves(everything):
                self._isolate(batch, part, outcome)
        if self._keyed:
            self._held_keys(batch, outcome)

    def _isolate_on_server(self, batch: Prepared, outcome: _Outcome) -> None:
        """Append forms: the batch copied once into staging, then inserted from there by the
        session's isolating function, which returns the rows a constraint refused."""
        # The records are staged already (before the fence), with their job and row numbers.
        size = batch.size
        function = self._isolating[tuple(batch.columns)]
        statement = sql.SQL(queries().isolate_rows).format(function=function)
        index = {number: i for i, number in enumerate(batch.numbers)}
        params = {"rows": batch.numbers, "width": self._width(size)}
        refused = self.conn.execute(statement, params).fetchall()
        sources = _sources(batch.rows, [found["refused_row"] for found in refused])
        for found in refused:
            refusal = DatabaseError(
                f"database error: {found['refused_message']}",
                sqlstate=found["refused_state"],
                constraint=found["refused_constraint"] or None,
                detail=found["refused_detail"] or None,
            )
            number = found["refused_row"]
            outcome.refused.append(
                self._refused_row(batch, index[number], refusal, sources.get(number))
            )
        self._refusing = len(outcome.refused)

    def _width(self, rows: int) -> int:
        """The first ranges' rows: for ``v`` refused among ``n``, retrying ~2w rows per
        refusal against starting ~n/w subtransactions costs least near sqrt(1.5 n / v)
        (taking a subtransaction's start as ~3 rows' insert). The first batch isolated: v
        unknown, taken as 1."""
        expected = max(1, self._refusing)
        return max(1, min(rows, round(math.sqrt(1.5 * rows / expected))))

    def _isolating_function(self, columns: list[str]) -> None:
        """Once per session and copied columns: the staging table, its index on the row
        numbers, and the function inserting from it (sql/queries/batches.sql)."""
        if tuple(columns) in self._isolating:
            return
        q = queries()
        staging = self._staging_identifier()
        digest = hashlib.sha1(f"{self._staging_name()}|{','.join(columns)}".encode())
        function = sql.Identifier(f"importer_isolate_{digest.hexdigest()[:16]}")
        own = [c for c in (self.table.job_column, self.table.row_column) if c is not None]
        staged_own = [JOB_COLUMN if c == self.table.job_column else ROW_COLUMN for c in own]
        body = sql.SQL(q.isolate_body).format(
            table=self.table.identifier,
            insert_columns=sql.SQL(", ").join(map(sql.Identifier, [*columns, *own])),
            select_columns=sql.SQL(", ").join(
                sql.Identifier("s", c) for c in [*columns, *staged_own]
            ),
            staging=staging,
            staged_row=sql.Identifier(ROW_COLUMN),
            suspects=self._suspects(columns, staging),
        )
        with self.conn.transaction():
            if not self._staged:
                self.conn.execute(self._statement("create_staging_table"))
                self._staged = True
            self.conn.execute(
                sql.SQL(q.staging_row_index).format(
                    index=sql.Identifier(f"{self._staging_name()}_rows"),
                    staging=staging,
                    staged_row=sql.Identifier(ROW_COLUMN),
                )
            )
            self.conn.execute(
                sql.SQL(q.isolate_function).format(
                    function=function, body=sql.Literal(body.as_string(self.conn))
                )
            )
        self._isolating[tuple(columns)] = function

    def _suspects(self, columns: list[str], staging: sql.Identifier) -> sql.Literal:
        """The query guessing the rows the table's own checks refuse, as the text the
        isolating function runs (NULL: no check is about the copied columns)."""
        query = suspects_query(
            row_checks(self.conn, self.table.schema, self.table.name), columns, staging
        )
        return sql.Literal(None if query is None else query.as_string(self.conn))

    def _isolate(self, batch: Prepared, part: list[int], outcome: _Outcome) -> None:
        try:
            with self.conn.transaction():  # a savepoint
                self._put(batch, part, outcome)
        except DatabaseError as exc:
            if not is_constraint(exc):
                raise
            if len(part) == 1:
                number = batch.numbers[part[0]]
                source = _sources(batch.rows, [number]).get(number)
                outcome.refused.append(self._refused_row(batch, part[0], exc, source))
                return
            for half in self._halves(part):
                self._isolate(batch, half, outcome)

    @staticmethod
    def _halves(part: list[int]) -> Iterator[list[int]]:
        middle = (len(part) + 1) // 2
        yield part[:middle]
        if part[middle:]:
            yield part[middle:]

    def _put(self, batch: Prepared, part: list[int], outcome: _Outcome) -> None:
        """The records at these positions into the table (append) or from staging (keyed)."""
        if not self._keyed:
            # The whole batch (isolating, append forms go to _isolate_on_server instead).
            assert len(part) == batch.size
            self.conn.execute(self._insert_from_staging(batch.columns))
            return
        numbers = None if len(part) == batch.size else [batch.numbers[i] for i in part]
        params = {"rows": numbers, "job_id": self.job.id, "family": self._family}
        if not self._history:  # the bench's measure of what history costs
            returned = self._run("upsert_form_rows", params).fetchall()
            outcome.counts.update(r["outcome"] for r in returned)
            outcome.accepted.update(r["row_number"] for r in returned)
            return
        # The rows it overwrites are kept for undo and `history` in the same statement.
        returned = self._run("upsert_kept_form_rows", params).fetchall()
        replaced = sum(1 for r in returned if not r["inserted"])
        unchanged = sum(1 for r in returned if r["unchanged"])
        if any(r["unchanged"] is None for r in returned):
            # A row its snapshot did not see was overwritten (inserted meanwhile by a writer
            # outside the tool): its values were not kept. Run the batch again.
            raise TransientConflict(
                f"import job {self.job.id}: a key of this batch was written meanwhile"
            )
        outcome.counts["inserted"] += len(returned) - replaced
        outcome.counts["unchanged"] += unchanged
        outcome.counts["updated"] += replaced - unchanged
        outcome.accepted.update(r["row_number"] for r in returned)

    def _insert_from_staging(self, columns: Sequence[str]) -> sql.Composed:
        """An append batch from staging into the table: the sheet's columns only (the
        others keep their DEFAULT), with the job and row where the table has them."""
        cached = self._inserts.get(tuple(columns))
        if cached is not None:
            return cached
        own = [c for c in (self.table.job_column, self.table.row_column) if c is not None]
        staged_own = [JOB_COLUMN if c == self.table.job_column else ROW_COLUMN for c in own]
        statement = sql.SQL(queries().insert_from_staging).format(
            table=self.table.identifier,
            insert_columns=sql.SQL(", ").join(map(sql.Identifier, [*columns, *own])),
            select_columns=sql.SQL(", ").join(map(sql.Identifier, [*columns, *staged_own])),
            staging=self._staging,
        )
        self._inserts[tuple(columns)] = statement
        return statement

    def _copy(self, target: sql.Identifier, columns: list[str], batch: Prepared) -> None:
        names = sql.SQL(", ").join(map(sql.Identifier, columns))
        if batch.csv is not None:
            csv = sql.SQL(queries().copy_form_rows_csv).format(table=target, columns=names)
            with self.conn.cursor() as cursor, cursor.copy(csv) as copy:
                copy.write(batch.csv)
            return
        records = batch.records
        statement = sql.SQL(queries().copy_form_rows).format(table=target, columns=names)
        types = [self._pg_type(name) for name in columns]
        with self.conn.cursor() as cursor, cursor.copy(statement) as copy:
            copy.set_types(types)
            write_row = copy.write_row
            for record in records:
                write_row(record)

    def _pg_type(self, column: str) -> str:
        for c in self.table.columns:
            if c.name == column:
                return c.pg_type
        if column == self.table.job_column:
            return "bigint"
        if column == self.table.row_column:
            return "integer"
        return _COPY_TYPES[column]  # staging's own

    def _own_values(self) -> tuple[bool, bool]:
        """Whether records carry the job, and the row number: always, for staging has both
        (the table may have neither)."""
        return True, True

    def _refused_row(
        self, batch: Prepared, index: int, exc: DatabaseError, source: Any
    ) -> RejectedRow:
        """A refused row as a rejected row, with its source row's cells (None: none)."""
        number = batch.numbers[index]
        cells = tuple(getattr(source, "values", ()))
        values = [display_text(v) for v in cells]
        column, raw = self._constraint_column(exc, values)
        error = RowError(column=column, raw=raw, message=constraint_message(exc))
        return RejectedRow(number=number, values=values, errors=[error], cells=cells)

    def _constraint_column(self, exc: DatabaseError, values: list[str | None]) -> tuple[str, Any]:
        """The sheet's column (and its cell) a refusal names in its detail, when one field's;
        else the constraint's name."""
        named = _KEY_IN_DETAIL.search(exc.detail or "")
        by_column = {c.name: c.field for c in self.table.columns}
        text = str(exc)
        quoted = re.search(r'null value in column "([^"]+)"', text)
        wanted = named.group(1) if named else (quoted.group(1) if quoted else None)
        if wanted in by_column:
            header = self._column_of(by_column[wanted])
            position = self.header.index(header) if header in self.header else None
            raw = values[position] if position is not None and position < len(values) else None
            return header, raw
        return exc.constraint or "", None

    def _take_origin_rows(self, batch: Prepared, outcome: _Outcome) -> set[int]:
        """A correction's rows taken for it (before they are stored); those another
        correction imported already are left out of the batch as rejected rows. Returns
        their numbers."""
        assert self.origin is not None
        if not batch.size:
            return set()
        held = claim_rows(self.conn, self.origin, self.job.id, batch.numbers)
        if not held:
            return set()
        self._run("unstage_rows", {"rows": sorted(held)})
        sources = _sources(batch.rows, sorted(held))
        for number, by in sorted(held.items()):
            cells = tuple(getattr(sources.get(number), "values", ()))
            error = RowError(
                column=None,
                raw=None,
                message=f"imported already, by job {by} (a correction of job"
                f" {self.origin.id}): not imported again",
            )
            row = RejectedRow(number, [display_text(v) for v in cells], [error], cells)
            outcome.refused.append(row)
        return set(held)

    # --- keyed forms -----------------------------------------------------------------------

    def _first_of_each_key(
        self,
        rows: Sequence[Any],
        names: Sequence[str],
        numbers: list[int],
        columns: list[Sequence[Any]],
    ) -> tuple[list[int], list[Sequence[Any]], list[RejectedRow]]:
        """A key seen earlier in the batch makes the later row a row error (the upsert could
        not touch one row twice). Keys compare as the typed values the table holds."""
        position = {name: index for index, name in enumerate(names)}
        key_fields = [c.field for c in self.table.columns if c.name in self.table.key]
        absent = [None] * len(numbers)  # a key field the sheet lacks (an optional one)
        keys = zip(
            *(columns[position[f]] if f in position else absent for f in key_fields), strict=True
        )
        first: dict[tuple[Any, ...], int] = {}
        keep: list[int] = []
        repeats: list[RejectedRow] = []
        by_number = {getattr(r, "number", None): r for r in rows}
        for index, (number, key) in enumerate(zip(numbers, keys, strict=True)):
            earlier = first.setdefault(key, number)
            if earlier == number:
                keep.append(index)
            else:
                repeats.append(self._duplicate(number, earlier, by_number.get(number)))
        if len(keep) == len(numbers):
            return numbers, columns, repeats
        return (
            [numbers[i] for i in keep],
            [[column[i] for i in keep] for column in columns],
            repeats,
        )

    def _held_keys(self, batch: Prepared, outcome: _Outcome) -> None:
        """Staged rows the upsert left alone: a row of this job already holds the key."""
        refused = {row.number for row in outcome.refused}
        left = [n for n in batch.numbers if n not in outcome.accepted and n not in refused]
        if not left:
            return
        earlier: dict[int, int] = {}
        if self.table.job_column is not None and self.table.row_column is not None:
            params = {"job_id": self.job.id, "rows": left, "family": self._family}
            held = self._run("staged_keys_held", params).fetchall()
            earlier = {r["row_number"]: r["earlier"] for r in held}
        by_number = {getattr(r, "number", None): r for r in batch.rows}
        for number in left:
            outcome.refused.append(
                self._duplicate(number, earlier.get(number, 0), by_number.get(number))
            )

    def _duplicate(self, number: int, earlier: int, source: Any) -> RejectedRow:
        cells = tuple(getattr(source, "values", ()))
        values = [display_text(v) for v in cells]
        names = ", ".join(self.form.key)
        where = f"row {earlier}" if earlier else "an earlier row"
        # A correction's rows are its origin's: a key one of them holds repeats in the import.
        where += f" of job {self.origin.id}" if self.origin else " of this file"
        raw = None
        if self._key_column is not None and self._key_column in self.header:
            position = self.header.index(self._key_column)
            raw = values[position] if position < len(values) else None
        error = RowError(
            column=self._key_column or names,
            raw=raw,
            message=f"duplicate {names}: the same key is already in {where}",
        )
        return RejectedRow(number=number, values=values, errors=[error], cells=cells)

    # --- statements of this table -------------------------------------------------------

    def _staging_identifier(self) -> sql.Identifier:
        return sql.Identifier(self._staging_name())

    def _staging_name(self) -> str:
        """One staging table per table shape and session (a later version has its own)."""
        shape = ",".join(f"{c.name}:{c.pg_type}" for c in self.table.columns)
        digest = hashlib.sha1(f"{self.table.schema}.{self.table.name}|{shape}".encode())
        return f"importer_staging_{digest.hexdigest()[:16]}"

    def _run(self, name: str, params: dict[str, Any] | None = None) -> Any:
        return self.conn.execute(self._statement(name), params)

    def _statement(self, name: str) -> sql.Composed:
        cached = self._statements.get(name)
        if cached is not None:
            return cached
        t = self.table
        q = queries()
        ident = sql.Identifier
        values = [c.name for c in t.columns]
        parts: dict[str, sql.Composable] = {"table": t.identifier}
        parts["staging"] = self._staging
        if name == "create_staging_table":
            parts["columns"] = sql.SQL(", ").join(
                sql.SQL(q.staging_column).format(column=ident(n), type=sql.SQL(self._pg_type(n)))
                for n in [*values, JOB_COLUMN, ROW_COLUMN]
            )
        elif name in ("upsert_form_rows", "upsert_kept_form_rows"):
            parts |= self._upsert_parts(values)
            if name == "upsert_kept_form_rows":
                parts |= self._history_parts(values)
        elif name == "unstage_rows":
            parts["staged_row"] = ident(ROW_COLUMN)
        elif name == "staged_keys_held":
            assert t.job_column is not None and t.row_column is not None
            parts |= {
                "staged_row": ident(ROW_COLUMN),
                "row": ident(t.row_column),
                "job": ident(t.job_column),
                "table_key": _listed(t.key, "t"),
                "staged_key": _listed(t.key, "s"),
            }
        text = getattr(q, name)
        if name == "staged_keys_held" and self.origin:
            text = q.staged_keys_held_family
        statement = sql.SQL(text).format(**parts)
        self._statements[name] = statement
        return statement

    def _upsert_parts(self, values: list[str]) -> dict[str, sql.Composable]:
        """The parts of a keyed form's upsert: the columns, what an update assigns, and the
        rows it may not overwrite."""
        t = self.table
        q = queries()
        ident = sql.Identifier
        own = [n for n in (t.job_column, t.row_column) if n is not None]
        assignments = [
            sql.SQL(q.upsert_assignment).format(column=ident(n)) for n in [*values, *own]
        ]
        if t.written_column is not None:
            assignments.append(
                sql.SQL(q.upsert_written_at).format(
                    column=ident(t.written_column),
                    old=_listed(values, "t"),
                    new=_listed(values, "excluded"),
                )
            )
        changed_job: sql.Composable = sql.SQL("")
        if t.job_column is not None:
            # A correction: no row of its origin or its corrections is overwritten.
            changed = q.upsert_changed_family if self.origin else q.upsert_changed_job
            changed_job = sql.SQL(changed).format(column=ident(t.job_column))
        # INSERT's column list names the table's own columns; the SELECT, staging's.
        staged_own = [JOB_COLUMN if n == t.job_column else ROW_COLUMN for n in own]
        return {
            "key_columns": _listed(t.key),
            "value_columns": _listed(values),
            "insert_columns": _listed([*values, *own]),
            "select_columns": _listed([*values, *staged_own]),
            "assignments": sql.SQL(", ").join(assignments),
            "changed_job": changed_job,
            "staged_row": ident(ROW_COLUMN),
            "staged_key": _listed(t.key, "s"),
            "returned_key": _listed(t.key, "u"),
            "stored_key": _listed(t.key, "o"),
        }

    def _history_parts(self, values: list[str]) -> dict[str, sql.Composable]:
        """What an upsert that keeps the rows it replaces adds: the history table's parts."""
        t = self.table
        tool = [c for c in (t.job_column, t.row_column, t.written_column) if c]

        def old(column: str | None) -> sql.Composable:
            return sql.Identifier("o", column) if column is not None else sql.SQL("NULL")

        return {
            "history": history_identifier(self.form.name),
            "every_column": _listed([*values, *tool]),
            "value_list": _listed(values),
            "old_values": _listed(values, "o"),
            "staged_values": _listed(values, "s"),
            "old_job": old(t.job_column),
            "old_row": old(t.row_column),
            "old_written": old(t.written_column),
            "first_key": sql.Identifier(t.key[0]),
        }

    # --- the end of a batch -----------------------------------------------------------------

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

    def set_total_rows(self, total: int, not_read: list[dict[str, Any]] | None = None) -> None:
        """The rows the job imports, and those with values it does not read (and why)."""
        params = {**self._fence, "total_rows": total, "rows_not_read": Jsonb(not_read or [])}
        row = self.conn.execute(queries().set_import_total_rows, params).fetchone()
        if row is None:
            raise LeaseLost(f"import job {self.job.id}: lease lost", job_id=self.job.id)
        self.job = replace(self.job, total_rows=total, rows_not_read=not_read or [])


def _listed(names: Sequence[str], prefix: str | None = None) -> sql.Composable:
    """Column names as a list, each qualified by ``prefix`` when given."""
    if prefix is None:
        return sql.SQL(", ").join(map(sql.Identifier, names))
    return sql.SQL(", ").join(sql.Identifier(prefix, n) for n in names)
