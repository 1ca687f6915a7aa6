"""A form's rows as polars DataFrames: the export's schema, and its batches typed.

Types, by the column's type in the table: int2/int4/int8 -> Int64; numeric -> Decimal(38, s);
float4/float8 -> Float64; boolean -> Boolean; date -> Date; timestamptz -> Datetime("us",
"UTC"); timestamp -> Datetime("us") (no zone, as the table has none); anything else (text,
varchar, json, arrays, ...) -> String, in PostgreSQL's text form.

A decimal's scale: the one its type fixes (numeric(12,2) -> 2) when its precision fits in
38 digits; else (the tool's own columns are plain numeric) the largest scale among the rows
exported, found by one survey of the snapshot before the first row is read. When that scale
and the largest integer part do not fit in 38 digits together, the scale gives way (values
rounded half up to it); an integer part of more than 37 digits, NaN or Infinity cannot be a
decimal and is refused.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal

import polars as pl

from importer.database import Connection
from importer.errors import UsageError
from importer.repositories.exports import (
    BATCH_ROWS,
    ExportColumn,
    ExportReader,
    ExportSource,
    RowFilter,
    ValueKind,
    export_source,
    reading,
)
from importer.repositories.forms import get_form
from importer.repositories.jobs import get_job

PRECISION = 38  # polars' (and Parquet's 16-byte) decimal holds 38 digits

# How each kind is read from its CSV field, and what it becomes.
_READ: dict[ValueKind, pl.DataType] = {
    ValueKind.INTEGER: pl.Int64(),
    ValueKind.FLOAT: pl.Float64(),
    ValueKind.BOOLEAN: pl.String(),  # t / f
    ValueKind.DATE: pl.Int32(),  # days since 1970-01-01
    ValueKind.TIMESTAMPTZ: pl.Int64(),  # microseconds since the epoch
    ValueKind.TIMESTAMP: pl.Int64(),
    ValueKind.TEXT: pl.String(),
}
_TYPED: dict[ValueKind, pl.DataType] = {
    ValueKind.INTEGER: pl.Int64(),
    ValueKind.FLOAT: pl.Float64(),
    ValueKind.BOOLEAN: pl.Boolean(),
    ValueKind.DATE: pl.Date(),
    ValueKind.TIMESTAMPTZ: pl.Datetime("us", "UTC"),
    ValueKind.TIMESTAMP: pl.Datetime("us"),
    ValueKind.TEXT: pl.String(),
}


def declared_scale(column: ExportColumn) -> int | None:
    """The scale a numeric column's type fixes, when its values surely fit in 38 digits."""
    if column.precision is None or column.scale is None:
        return None
    if column.precision > PRECISION or column.scale < 0:
        return None
    return column.scale


def integer_digits(magnitude: Decimal) -> int:
    """The digits of the integer part of a value >= 0 (0 for 0.5)."""
    return max(magnitude.adjusted() + 1, 0) if magnitude else 0


def surveyed_scale(column: str, scale: int | None, magnitude: Decimal | None) -> int:
    """The scale for a numeric column whose rows have at most ``scale`` decimals and no
    absolute value above ``magnitude`` (see the module docstring)."""
    if magnitude is None:
        return 0  # no values (or only NULLs)
    if not magnitude.is_finite():
        raise UsageError(
            f"column {column} holds {'NaN' if magnitude.is_nan() else 'Infinity'}, which a "
            "decimal column cannot hold (Parquet, polars)"
        )
    digits = integer_digits(magnitude)
    wanted = max(scale or 0, 0)
    if digits + wanted <= PRECISION:
        return wanted
    if digits >= PRECISION:
        raise UsageError(
            f"column {column} holds a value of {digits} digits before the point, more than a "
            f"{PRECISION}-digit decimal can hold"
        )
    return PRECISION - digits - 1  # a digit of room: rounding may carry into it


@dataclass(frozen=True)
class ExportPlan:
    """The export's columns and types, decided before the first row."""

    source: ExportSource
    schema: dict[str, pl.DataType]  # the export's column -> its type
    read_as: dict[str, pl.DataType]  # the CSV field -> how it is read
    rows: int | None  # counted by the survey (None: not counted)

    @property
    def form(self) -> str:
        return self.source.form

    def typed(self, data: bytes) -> pl.DataFrame:
        """One batch of the reader's CSV as the export's typed frame."""
        raw = pl.read_csv(data, has_header=False, schema=self.read_as, raise_if_empty=False)
        conversions = []
        for column in self.source.columns:
            value = pl.col(column.name)
            if column.kind is ValueKind.BOOLEAN:
                value = value == "t"
            elif column.kind in (ValueKind.DATE, ValueKind.TIMESTAMPTZ, ValueKind.TIMESTAMP):
                value = value.cast(self.schema[column.name])
            conversions.append(value.alias(column.name))
        return raw.select(conversions)

    def empty(self) -> pl.DataFrame:
        return pl.DataFrame(schema=self.schema)


def _plan(reader: ExportReader, *, count: bool) -> ExportPlan:
    source = reader.source
    undeclared = tuple(
        c for c in source.columns if c.kind is ValueKind.DECIMAL and declared_scale(c) is None
    )
    survey = reader.survey(undeclared) if count or undeclared else None
    schema: dict[str, pl.DataType] = {}
    read_as: dict[str, pl.DataType] = {}
    for column in source.columns:
        if column.kind is ValueKind.DECIMAL:
            scale = declared_scale(column)
            if scale is None:
                assert survey is not None
                scale = surveyed_scale(column.column, *survey.decimals[column.name])
            schema[column.name] = read_as[column.name] = pl.Decimal(PRECISION, scale)
        else:
            schema[column.name] = _TYPED[column.kind]
            read_as[column.name] = _READ[column.kind]
    return ExportPlan(source, schema, read_as, survey.rows if survey is not None else None)


class FrameStream:
    """What ``export_frames`` gives: the plan, and the rows as typed frames."""

    def __init__(self, plan: ExportPlan, reader: ExportReader, rows_per_batch: int) -> None:
        self.plan = plan
        self._reader = reader
        self._rows_per_batch = rows_per_batch
        self._open: list[Generator[bytes]] = []

    def frames(self) -> Iterator[pl.DataFrame]:
        batches = self._reader.batches(self._rows_per_batch)
        self._open.append(batches)
        try:
            for data in batches:
                yield self.plan.typed(data)
        finally:
            batches.close()

    def close(self) -> None:
        """End any COPY a consumer left unfinished (a sink that failed half-way drops its
        source without closing it) before the snapshot's transaction ends."""
        for batches in self._open:
            batches.close()


@contextmanager
def export_frames(
    conn: Connection,
    form_name: str,
    rows: RowFilter,
    *,
    count: bool = False,
    rows_per_batch: int = BATCH_ROWS,
) -> Iterator[FrameStream]:
    """The form's rows (those ``rows`` picks) in one snapshot, as typed frames of at most
    ``rows_per_batch`` rows; ``count``: count them before the first (``plan.rows``).
    NotFoundError for an unknown form or job; UsageError for a job of another form or a
    filter the table cannot apply."""
    form, _ = get_form(conn, form_name, retired=True)  # a retired form's rows stay
    source = export_source(conn, form)
    with reading(conn, source, rows) as reader:  # refuses a filter the table cannot apply
        if rows.job is not None:
            job = get_job(conn, rows.job)
            if job.form != form.name:
                raise UsageError(f"import job {job.id} is of form {job.form!r}, not {form.name!r}")
        stream = FrameStream(_plan(reader, count=count), reader, rows_per_batch)
        try:
            yield stream
        finally:
            stream.close()


def form_frame(conn: Connection, form_name: str, rows: RowFilter) -> pl.DataFrame:
    """The form's rows as one DataFrame (in memory: for a table that fits; export streams)."""
    with export_frames(conn, form_name, rows) as stream:
        frames = list(stream.frames())
        return pl.concat(frames, rechunk=True) if frames else stream.plan.empty()
