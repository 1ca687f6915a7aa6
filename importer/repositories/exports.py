"""A form's rows read out of its table for export: which columns, and the rows as CSV batches.

``export_source(conn, form)`` says what an export of the form holds: its fields' columns (named
by the field), then ``import_job_id``, ``row_number`` and ``written_at`` where the table has
them, each with the kind of value it holds as the table types it now (a user's int4 column
is an integer, a widened column its new type). ``reading(conn, source, rows)`` opens one
REPEATABLE READ, READ ONLY snapshot in which ``survey`` (how many rows, the decimals' scales)
and ``batches`` (the rows) see the same rows.

The rows come by one ``COPY (SELECT ...) TO STDOUT`` as CSV, cut into batches of whole rows
(the server sends each row as one message): text parsing by polars is several times faster
than turning fetched rows into Python objects first. Dates go as days since 1970-01-01 and
timestamps as microseconds since the epoch, the values polars' Date and Datetime hold, so no
date text (DateStyle, time zones, BC years) is ever parsed; a NULL is an empty field and an
empty text a quoted one (``""``), which the CSV reader tells apart.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from enum import StrEnum

from psycopg import sql

from importer.database import Connection, queries
from importer.errors import FormError, UsageError
from importer.forms.definition import Form
from importer.repositories.form_tables import (
    JOB_COLUMN,
    ROW_COLUMN,
    WRITTEN_COLUMN,
    FormTable,
    table_for,
    table_info,
)

BATCH_ROWS = 100_000  # rows per batch: ~10-30 MB of CSV, bounded whatever the table's size


class ValueKind(StrEnum):
    """What a column's values are, and how its batches give them."""

    INTEGER = "integer"  # int2, int4, int8: digits
    DECIMAL = "decimal"  # numeric: its text (1.50)
    FLOAT = "float"  # float4, float8: the shortest exact text, NaN, Infinity
    BOOLEAN = "boolean"  # t or f
    DATE = "date"  # days since 1970-01-01
    TIMESTAMPTZ = "timestamptz"  # microseconds since the epoch
    TIMESTAMP = "timestamp"  # microseconds since 1970-01-01 00:00 on its own clock
    TEXT = "text"  # text, varchar, char, and any other type in PostgreSQL's text form


_KINDS = {
    "int2": ValueKind.INTEGER,
    "int4": ValueKind.INTEGER,
    "int8": ValueKind.INTEGER,
    "numeric": ValueKind.DECIMAL,
    "float4": ValueKind.FLOAT,
    "float8": ValueKind.FLOAT,
    "bool": ValueKind.BOOLEAN,
    "date": ValueKind.DATE,
    "timestamptz": ValueKind.TIMESTAMPTZ,
    "timestamp": ValueKind.TIMESTAMP,
}


@dataclass(frozen=True)
class ExportColumn:
    name: str  # in the export: the field's name, or import_job_id / row_number / written_at
    column: str  # in the table
    kind: ValueKind
    shown: str  # its type as PostgreSQL shows it: numeric(12,2)
    precision: int | None = None  # numeric: what its type fixes (None: unconstrained)
    scale: int | None = None


@dataclass(frozen=True)
class ExportSource:
    form: str
    table: FormTable
    columns: tuple[ExportColumn, ...]
    order: tuple[str, ...]  # the table's columns the rows come in the order of


@dataclass(frozen=True)
class RowFilter:
    """Which rows: those a job wrote (the table's job column), those written since."""

    job: int | None = None
    since: timedelta | None = None


def export_source(conn: Connection, form: Form) -> ExportSource:
    """The columns an export of ``form`` holds, typed as its table has them now."""
    table = table_for(form)
    info = table_info(conn, table.schema, table.name)
    if info is None:
        raise FormError(
            f"form {form.name!r}: its table {table.shown} does not exist", form=form.name
        )
    found = {
        r["name"]: r for r in conn.execute(queries().export_columns, {"oid": info.oid}).fetchall()
    }
    own = [
        (export, column)
        for export, column in (
            (JOB_COLUMN, table.job_column),
            (ROW_COLUMN, table.row_column),
            (WRITTEN_COLUMN, table.written_column),
        )
        if column is not None
    ]
    taken = {export for export, _ in own}
    # A field named like one of the tool's columns keeps its table column's name (_field).
    wanted = [(f"{c.field}_field" if c.field in taken else c.field, c.name) for c in table.columns]
    columns = []
    for export, name in wanted + own:
        row = found.get(name)
        if row is None:
            raise FormError(
                f"form {form.name!r}: {table.shown} has no column {name}; add the form again "
                "(importer forms add) to bring its table up to date",
                form=form.name,
            )
        columns.append(
            ExportColumn(
                name=export,
                column=name,
                kind=_KINDS.get(str(row["base"]), ValueKind.TEXT),
                shown=str(row["shown"]),
                precision=row["numeric_precision"],
                scale=row["numeric_scale"],
            )
        )
    if table.job_column is not None and table.row_column is not None:
        order: tuple[str, ...] = (
            table.job_column,
            table.row_column,
        )  # the tool's unique index gives it
    else:
        order = table.key  # a user's table: its key's unique index, else as stored
    return ExportSource(form.name, table, tuple(columns), order)


def _where(source: ExportSource, rows: RowFilter) -> tuple[sql.Composable, dict[str, object]]:
    q = queries()
    table = source.table
    conditions: list[sql.Composable] = []
    params: dict[str, object] = {}
    if rows.job is not None:
        if table.job_column is None:
            raise UsageError(
                f"form {source.form!r} writes into {table.shown}, which has no column for the "
                "job, so --job cannot find a job's rows there; add a bigint column and name it "
                'with job_column = "..." in the form'
            )
        conditions.append(
            sql.SQL(q.export_where_job).format(column=sql.Identifier(table.job_column))
        )
        params["job"] = rows.job
    if rows.since is not None:
        if table.written_column is None:
            raise UsageError(
                f"form {source.form!r} writes into {table.shown}, a table of yours with no "
                "written_at column, so --since cannot tell when its rows were written"
            )
        conditions.append(
            sql.SQL(q.export_where_since).format(column=sql.Identifier(table.written_column))
        )
        params["since"] = rows.since.total_seconds()
    if not conditions:
        return sql.SQL(""), params
    if len(conditions) == 1:
        return sql.SQL(q.export_where).format(condition=conditions[0]), params
    first, second = conditions
    return sql.SQL(q.export_where_both).format(first=first, second=second), params


def _value(column: ExportColumn) -> sql.Composable:
    """The column as its batches give it (see ValueKind)."""
    q = queries()
    name = sql.Identifier(column.column)
    if column.kind is ValueKind.DATE:
        return sql.SQL(q.export_as_days).format(column=name)
    if column.kind in (ValueKind.TIMESTAMPTZ, ValueKind.TIMESTAMP):
        return sql.SQL(q.export_as_microseconds).format(column=name)
    return name


@dataclass(frozen=True)
class Survey:
    rows: int
    # column name -> (its largest scale, its largest absolute value); None: no values
    decimals: dict[str, tuple[int | None, Decimal | None]]


class ExportReader:
    """The snapshot's reads (see ``reading``)."""

    def __init__(
        self,
        conn: Connection,
        source: ExportSource,
        where: sql.Composable,
        params: dict[str, object],
    ) -> None:
        self.conn = conn
        self.source = source
        self._where = where
        self._params = params

    def survey(self, decimals: tuple[ExportColumn, ...] = ()) -> Survey:
        """How many rows there are, and the scale and magnitude of these numeric columns."""
        q = queries()
        parts = [
            sql.SQL(q.export_survey_decimal).format(
                column=sql.Identifier(c.column),
                scale=sql.Identifier(f"s{i}"),
                magnitude=sql.Identifier(f"m{i}"),
            )
            for i, c in enumerate(decimals)
        ]
        statement = sql.SQL(q.export_survey).format(
            decimals=sql.Composed(parts), table=self.source.table.identifier, where=self._where
        )
        row = self.conn.execute(statement, self._params).fetchone()
        assert row is not None  # an aggregate gives one row
        found = {c.name: (row[f"s{i}"], row[f"m{i}"]) for i, c in enumerate(decimals)}
        return Survey(int(row["rows"]), found)

    def batches(self, rows_per_batch: int = BATCH_ROWS) -> Generator[bytes]:
        """The rows as CSV without a header, in the source's order, ``rows_per_batch`` whole
        rows at a time. Left early, the COPY is cancelled."""
        q = queries()
        source = self.source
        order: sql.Composable = sql.SQL("")
        if source.order:
            order = sql.SQL(q.export_order).format(
                columns=sql.SQL(", ").join(sql.Identifier(c) for c in source.order)
            )
        statement = sql.SQL(q.export_rows).format(
            columns=sql.SQL(", ").join(_value(c) for c in source.columns),
            table=source.table.identifier,
            where=self._where,
            order=order,
        )
        with self.conn.cursor() as cursor, cursor.copy(statement, self._params) as copy:
            pending: list[bytes] = []
            for data in copy:  # one row per message
                pending.append(bytes(data))
                if len(pending) >= rows_per_batch:
                    yield b"".join(pending)
                    pending = []
            if pending:
                yield b"".join(pending)


@contextmanager
def reading(conn: Connection, source: ExportSource, rows: RowFilter) -> Iterator[ExportReader]:
    """One read-only snapshot of the rows ``rows`` picks (UsageError when the table cannot
    tell them: no job column for ``job``, no written_at for ``since``)."""
    where, params = _where(source, rows)
    with conn.transaction():
        conn.execute(queries().export_snapshot)
        yield ExportReader(conn, source, where, params)
