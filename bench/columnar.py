"""A prototype of a columnar import path, run as a peer of the import bench (bench/imports.py,
case "columnar"); NOT the tool's import path, whose pieces it borrows.
``python -m bench.columnar URL WORKBOOK [--form NAME] [--batch N] [--direct] [--no-overlap]``
prints one JSON line: rows, stored, rejected, the job's id and a breakdown in seconds.

An append form into its own table ``forms.<name>`` (bench_orders by default): fastexcel reads
the first sheet with every column as text (calamine -> Arrow, no Python object per cell) while
a thread runs the tool's scan of the sheet XML (zero-padded formats, error cells); polars
expressions coerce and check each field's column at once; the few rows they leave unsettled
(invalid ones, odd cells) are rebuilt as the tool's reader gives them and go through the tool's
Validator, for exactly its values and messages; then per 10,000 source rows one transaction,
in a writer thread while the next batch is made: CSV COPY of the valid rows into a session
staging table, the tool's fence on the job row, INSERT ... SELECT into the typed table, the
rejected rows and their errors (the tool's statement), COMMIT.

Covers integer, decimal, string, email and enum (trimmed), date (no formats or bounds) and
boolean fields, with required, min/max, lengths, pattern and choices; one zero-padded width per
sheet. Other fields are refused. Does not cover the cell types lost by reading every column as
text: a number in an e-mail column (refused, but not with the tool's message), a date serial
with no date format (refused; the tool takes the date), a date or boolean cell in a text column
(stored as "2024-01-02 00:00:00" or "true", not "2024-01-02" or "TRUE"), a number typed as text
in a number column (taken as the number: a 17-digit text stored rounded, not refused; a
rejected row's cells keep a number). Nor header detection (row 1 is the header), pieces,
resume, the queue or progress (its job row is its own); and the whole sheet is held in memory.
On the bench's 200,000 x 10 workbook (5% invalid; best of 3, shared 2-core machine) it stored
exactly the tool's rows in 2.7 s against the tool's 5.4-5.8 s, (a)'s 3.3-3.5 s and (c)'s 1.8 s,
at a peak of 315 MB against the tool's 277 MB.

--direct: COPY into the typed table itself after the fence, no staging table (as fast);
--no-overlap: the scan before the read, not beside it (0.5-0.8 s slower at 200,000 rows).
"""

# ruff: noqa: E402  (the clock starts before the imports, to time them)
from __future__ import annotations

import time

STARTED = time.perf_counter()

import argparse
import io
import json
import os
import queue
import re
import sys
import threading
import zipfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
import psycopg
from psycopg import sql

from importer.database import queries
from importer.excel.special_cells import number_with_format
from importer.excel.values import RowBatch
from importer.excel.xlsx_scan import SheetScan
from importer.fields.cells import EMAIL, FALSE_WORDS, TRUE_WORDS
from importer.fields.field import Field
from importer.forms.definition import Form
from importer.forms.stages import SPACES
from importer.forms.validation import RejectedRow, Validator, ValidRows, typed_column
from importer.repositories.batches import _rejected_json
from importer.repositories.form_tables import FormTable, table_for

IMPORTED = time.perf_counter()

PLAIN_NUMBER = r"^[+-]?[0-9]+(?:\.[0-9]+)?$"  # fastexcel's text of a float (no exponent)
COMMA_NUMBER = r"^[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?$"
# The tool's e-mail regex for Rust's engine: no possessive quantifiers (the classes never
# overlap, so the same matches), and Python's \s also holds U+001C..U+001F.
_EMAIL = EMAIL.pattern.replace("++", "+").replace("*+", "*").replace(r"\s", r"\s\x1c-\x1f")
EMAIL_RUST = f"^(?:{_EMAIL})$"
_PLAIN = re.compile(PLAIN_NUMBER[1:-1])
_MOMENT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?")
HEADER_ROW = 1  # fastexcel's header: the first row (the tool finds it: excel/layout.py)
LEASE_SECONDS = 300
FINISH = """
UPDATE import_jobs
   SET status = CASE WHEN failed_rows > 0 THEN 'partially_succeeded' ELSE 'succeeded' END,
       finished_at = now(), lease_owner = NULL
 WHERE id = %s AND lease_owner = %s
"""


@dataclass(frozen=True)
class Options:
    form: str = "bench_orders"
    batch: int = 10_000  # source rows per transaction
    direct: bool = False  # COPY into the typed table itself (no staging table)
    overlap: bool = True  # the XML scan in a thread during fastexcel's read


class Clock:
    """Seconds per named step, summed."""

    def __init__(self) -> None:
        self.parts: dict[str, float] = {}

    def add(self, name: str, since: float) -> float:
        now = time.perf_counter()
        self.parts[name] = self.parts.get(name, 0.0) + now - since
        return now


@dataclass
class Sheet:
    header: list[str]
    frame: pl.DataFrame  # every column as text, and __row (the Excel row number)
    scanned: SheetScan
    width: int  # the zero-padded width (one per sheet in this prototype)


# --- reading -------------------------------------------------------------------------------


def scan(path: str) -> SheetScan:
    """The tool's own pass over the first sheet's XML: zero-padded number runs, odd cells."""
    from importer.excel.xlsx_parts import read_xlsx_info
    from importer.excel.xlsx_scan import scan_sheet

    with zipfile.ZipFile(path) as archive:
        info = read_xlsx_info(archive, path)
        part = info.sheets[0].path
        if part is None:
            raise SystemExit(f"prototype: {path}: the first sheet's part is missing")
        return scan_sheet(archive, part, path, info.zero_padded_styles, bounds=False)


def read(path: str) -> tuple[list[str], pl.DataFrame]:
    import fastexcel

    frame = fastexcel.read_excel(path).load_sheet(0, dtypes="string").to_polars()
    return [str(c) for c in frame.columns], frame


def load(path: str, overlap: bool, clock: Clock) -> Sheet:
    t = time.perf_counter()
    if overlap:
        with ThreadPoolExecutor(1) as pool:
            pending = pool.submit(scan, path)
            header, frame = read(path)
            t = clock.add("read", t)
            scanned = pending.result()
        clock.add("scan", t)
    else:
        scanned = scan(path)
        t = clock.add("scan", t)
        header, frame = read(path)
        clock.add("read", t)
    widths = {r.width for r in scanned.padded}
    if len(widths) > 1:
        raise SystemExit("prototype: one zero-padded width per sheet only")
    rows = np.arange(HEADER_ROW + 1, HEADER_ROW + 1 + frame.height, dtype=np.int32)
    frame = frame.with_columns(pl.Series("__row", rows))
    return Sheet(header, frame, scanned, widths.pop() if widths else 5)


# --- the fast paths: a (value, settled) pair of polars expressions per field ----------------

Fast = tuple[pl.Expr, pl.Expr]  # the stored value where settled; settled


def blank(e: pl.Expr) -> pl.Expr:
    return e.is_null() | (e == "")


def fast(empty: pl.Expr, value: pl.Expr, ok: pl.Expr, required: bool) -> Fast:
    settled = pl.when(empty).then(pl.lit(not required)).otherwise(ok.fill_null(False))
    return pl.when(empty).then(None).otherwise(value), settled


def as_float(bound: object) -> float:
    """A number field's bound (an int or a Decimal) as polars compares it."""
    if not isinstance(bound, int | Decimal):
        raise SystemExit(f"prototype: {bound!r} is not a number's bound")
    return float(bound)


def number(f: Field, raw: pl.Expr) -> Fast:
    # No strip: a cell with spaces fails the shape and goes to the tool's coercer.
    plain = raw.str.contains(PLAIN_NUMBER)
    short = raw.str.len_bytes() <= 15  # at most 15 digits: exact as a float
    if f.type == "decimal":
        comma = raw.str.contains(COMMA_NUMBER)
        unsep = raw.str.replace_all(",", "", literal=True)
        value = pl.when(plain).then(raw).when(comma).then(unsep).otherwise(None)
        value = value.cast(pl.Float64, strict=False)
        ok = (plain | comma) & short
    else:
        value = pl.when(plain).then(raw).otherwise(None).cast(pl.Float64, strict=False)
        ok = plain & short & (value == value.floor())
    if f.min is not None:
        ok = ok & (value >= as_float(f.min))
    if f.max is not None:
        ok = ok & (value <= as_float(f.max))
    if f.type == "integer":
        value = value.cast(pl.Int64, strict=False)
    return fast(blank(raw), value, ok, f.required)


def text(f: Field, raw: pl.Expr, padded: pl.Expr | None, width: int) -> Fast:
    # The cleaner trims text fields (rules.trim, the default) and makes blanks empty.
    value = raw.str.strip_chars(SPACES)
    if padded is not None:
        # A number shown by a 00000 format: the text Excel shows (number_with_format).
        pad = padded & raw.str.contains(r"^[0-9]+$") & (raw.str.len_chars() <= width)
        value = pl.when(pad).then(raw.str.zfill(width)).otherwise(value)
    ok = ~value.str.contains("\x00", literal=True)
    if f.max_length is not None:
        ok = ok & (value.str.len_chars() <= f.max_length)
    if f.min_length is not None:
        ok = ok & (value.str.len_chars() >= f.min_length)
    if f.pattern is not None:
        ok = ok & value.str.contains(f.pattern)  # Rust's dialect: a reject goes to Python
    if f.type == "email":
        ok = ok & value.str.contains(EMAIL_RUST)
        if padded is not None:
            ok = ok & ~padded  # a number cell: the tool refuses it
    if f.type == "enum":
        ok = ok & value.is_in(list(f.choices))  # other spellings ("Paid "): the coercer
    return fast(blank(value), value, ok, f.required)


def day(f: Field, raw: pl.Expr, padded: pl.Expr | None) -> Fast:
    shaped = raw.str.contains(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?: 00:00:00)?$")
    value = raw.str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False)
    ok = shaped & value.is_not_null() & (value.dt.year() >= 1900)
    if padded is not None:
        ok = ok & ~padded
    return fast(blank(raw), value, ok, f.required)


def spellings(words: frozenset[str]) -> list[str]:
    return [v for w in words for v in (w, w.upper(), w.capitalize())]


def boolean(f: Field, raw: pl.Expr, padded: pl.Expr | None) -> Fast:
    # The usual spellings (as importer/fields/columns.py _BOOL_TEXTS); others: the coercer.
    value = raw.is_in(spellings(TRUE_WORDS))
    ok = value | raw.is_in(spellings(FALSE_WORDS))
    if padded is not None:
        ok = ok & ~padded
    return fast(blank(raw), value, ok, f.required)


def fast_column(f: Field, raw: pl.Expr, padded: pl.Expr | None, width: int) -> Fast:
    """A row with any field not settled goes to the tool's Validator."""
    if f.type in ("integer", "decimal"):
        return number(f, raw)
    if f.type in ("string", "email", "enum") and f.trim is not False:
        return text(f, raw, padded, width)
    if f.type == "date" and not f.formats and f.min is None and f.max is None:
        return day(f, raw, padded)
    if f.type == "boolean":
        return boolean(f, raw, padded)
    raise SystemExit(f"prototype: field {f.name} ({f.type}) is not covered")


@dataclass
class Split:
    good: pl.DataFrame  # __row and the settled rows' values, a column per field
    hard: pl.DataFrame  # __row, the sheet's texts and the pad masks of the other rows
    pads: dict[int, str]  # sheet column -> its pad mask's column


def pad_masks(sheet: Sheet, frame: pl.DataFrame) -> tuple[pl.DataFrame, dict[int, str]]:
    """A boolean column per zero-padded sheet column: the rows in one of its runs."""
    masks: dict[int, npt.NDArray[np.bool_]] = {}
    for r in sheet.scanned.padded:
        mask = masks.setdefault(r.column, np.zeros(HEADER_ROW + 2 + len(sheet.frame), bool))
        mask[r.first : r.last + 1] = True
    rows = frame["__row"].to_numpy()
    pads = {col: f"__pad{col}" for col in masks}
    return frame.with_columns(pl.Series(pads[c], m[rows]) for c, m in masks.items()), pads


def split(form: Form, validator: Validator, sheet: Sheet) -> Split:
    """The rows every field's expression settles, and the others (blank rows left out)."""
    header, frame = sheet.header, sheet.frame
    empty_row = pl.all_horizontal([blank(pl.col(c)) for c in header])
    if frame.select(empty_row.any()).item():
        frame = frame.filter(~empty_row)  # as the tool's reader does
    frame, pads = pad_masks(sheet, frame)
    where = {c.name: c.index for c in validator.columns}
    exprs: list[pl.Expr] = []
    oks: list[pl.Expr] = []
    for f in form.fields:
        if f.name not in where:
            exprs.append(pl.lit(None).alias(f.name))
            continue
        col = where[f.name]
        padded = pl.col(pads[col]) if col in pads else None
        value, ok = fast_column(f, pl.col(header[col]), padded, sheet.width)
        exprs.append(value.alias(f.name))
        oks.append(ok)
    ok_all = pl.all_horizontal(oks)
    odd_rows = sorted({row for row, _col in sheet.scanned.overrides})
    if odd_rows:
        ok_all = ok_all & ~pl.col("__row").is_in(odd_rows)
    # Lazy: common sub-expressions (each column's stripped text) computed once.
    checked = frame.lazy().with_columns(*exprs, ok_all.alias("__ok")).collect()
    good = checked.filter(pl.col("__ok")).select("__row", *[f.name for f in form.fields])
    hard = checked.filter(~pl.col("__ok")).select("__row", *header, *pads.values())
    return Split(good, hard, pads)


# --- the rows the tool's Validator decides -------------------------------------------------


def cell_of(kind: str | None, text: str | None, padded: bool, width: int) -> object:
    """A cell rebuilt from fastexcel's text: what calamine + the scan would have given."""
    if text is None or text == "":
        return None
    if padded:
        try:
            return number_with_format(float(text), width)
        except ValueError:
            return text
    if kind in ("integer", "decimal") and _PLAIN.fullmatch(text):
        number = float(text)
        shown = str(int(number)) if number.is_integer() else repr(number)
        # fastexcel writes a float's shortest digits: "447.10" or "007" was typed as text
        return number if shown == text.lstrip("+") or "e" in shown else text
    if kind in ("date", "datetime") and _MOMENT.fullmatch(text):
        moment = datetime.fromisoformat(text)
        return moment.date() if moment.time() == datetime.min.time() else moment
    if kind == "boolean" and text in ("true", "false"):
        return text == "true"
    return text


class Fallback:
    """A batch's unsettled rows, through the tool's Validator."""

    def __init__(self, form: Form, validator: Validator, sheet: Sheet, pads: dict[int, str]):
        self.validator, self.sheet, self.pads = validator, sheet, pads
        types = {f.name: f.type for f in form.fields}
        self.kinds = {c.index: types[c.name] for c in validator.columns}
        self.odd: dict[int, list[tuple[int, object]]] = {}  # error cells, by row
        for (r, c), value in sheet.scanned.overrides.items():
            self.odd.setdefault(r, []).append((c, value))
        self.rows = 0  # how many it decided

    def __call__(self, hard: pl.DataFrame) -> tuple[ValidRows, list[RejectedRow]]:
        header, width = self.sheet.header, self.sheet.width
        cols = [hard[x].to_list() for x in header]
        pads = {c: hard[name].to_list() for c, name in self.pads.items()}
        numbers: list[int] = hard["__row"].to_list()
        cells: list[Sequence[object]] = []
        for i, row in enumerate(numbers):
            values = [
                cell_of(self.kinds.get(c), cols[c][i], c in pads and pads[c][i], width)
                for c in range(len(header))
            ]
            for c, value in self.odd.get(row, ()):
                values[c] = value
            cells.append(values)
        self.rows += len(numbers)
        result = self.validator.validate(RowBatch(numbers, cells))
        return result.valid, sorted(result.rejected, key=lambda r: r.number)


def rescued_frame(rows: ValidRows, table: FormTable, schema: pl.Schema, job: int) -> pl.DataFrame:
    """The rows the Validator took, with the COPY frame's columns and types."""
    assert table.row_column and table.job_column
    data = {"__row": pl.Series(list(rows.numbers), dtype=pl.Int32)}
    for name, values in zip(rows.names, rows.columns, strict=True):
        column = table.column(name)
        typed = values
        if column.pg_type != "numeric":  # (the zone is for timestamptz: not covered)
            typed = typed_column(values, column.pg_type, UTC)
        dtype = schema[column.name]
        data[column.name] = pl.Series(column.name, list(typed), dtype=dtype, strict=False)
    data[table.row_column] = data["__row"]
    data[table.job_column] = pl.Series([job] * len(rows), dtype=pl.Int64)
    return pl.DataFrame(data).select(list(schema)).cast(schema)


# --- writing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    csv: bytes  # the valid rows
    good: int
    bad: int
    end: int  # the last source row it covers
    rejected: str  # the rejected rows and their errors, as the tool's statement takes them
    errors: str


def new_job(conn: psycopg.Connection[Any], form: Form, version: int, path: str, n: int) -> int:
    """A running job of this process's, outside the tool's queue."""
    conn.execute(
        "INSERT INTO import_files (sha256, size_bytes, content) VALUES ('proto', 0, '')"
        " ON CONFLICT DO NOTHING"
    )
    row = conn.execute(
        "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts, status,"
        " lease_owner, started_at, total_rows) VALUES (%s, %s, 'proto', %s, 1, 'running',"
        " %s, now(), %s) RETURNING id",
        (form.name, version, os.path.basename(path), f"proto-{os.getpid()}", n),
    ).fetchone()
    assert row is not None
    return int(row[0])


class Writer:
    """The batches' transactions, on one connection."""

    def __init__(self, conn: psycopg.Connection[Any], table: FormTable, job: int, direct: bool):
        assert table.job_column and table.row_column
        self.conn, self.job, self.direct = conn, job, direct
        self.owner = f"proto-{os.getpid()}"  # as new_job wrote it
        self.stats: dict[str, float] = {"server": 0.0, "fallback": 0.0, "encode": 0.0}
        self.cursor = self.written = self.rejected = 0
        self.names = [c.name for c in table.columns] + [table.job_column, table.row_column]
        columns = sql.SQL(", ").join(map(sql.Identifier, self.names))
        staging = sql.Identifier("proto_staging")
        if not direct:
            types = [c.pg_type for c in table.columns] + ["bigint", "integer"]
            typed = sql.SQL(", ").join(
                sql.SQL("{} {}").format(sql.Identifier(name), sql.SQL(pg_type))
                for name, pg_type in zip(self.names, types, strict=True)
            )
            create = "CREATE TEMP TABLE {} ({}) ON COMMIT DELETE ROWS"
            conn.execute(sql.SQL(create).format(staging, typed))
        into = table.identifier if direct else staging
        self.copy = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT csv)").format(into, columns)
        self.move = sql.SQL("INSERT INTO {} ({}) SELECT {} FROM {}").format(
            table.identifier, columns, columns, staging
        )

    def lap(self, name: str, since: float) -> float:
        now = time.perf_counter()
        self.stats[name] = self.stats.get(name, 0.0) + now - since
        self.stats["server"] += now - since
        return now

    def copy_rows(self, data: bytes, s: float) -> float:
        with self.conn.cursor().copy(self.copy) as copy:
            copy.write(data)
        return self.lap("copy", s)

    def fence(self, batch: Batch) -> None:
        """The tool's fence: the cursor advances by the whole batch, or nothing is written."""
        args: dict[str, Any] = {"good": batch.good, "bad": batch.bad, "header_row": HEADER_ROW}
        args |= {"last_row": batch.end, "lease_seconds": LEASE_SECONDS, "cursor": self.cursor}
        args |= {"id": self.job, "owner": self.owner}
        if self.conn.execute(queries().fence_import_batch, args).fetchone() is None:
            raise SystemExit("prototype: the job is no longer ours (fence)")

    def __call__(self, batch: Batch) -> None:
        s = time.perf_counter()
        with self.conn.transaction():
            if not self.direct:
                s = self.copy_rows(batch.csv, s)
            self.fence(batch)
            s = self.lap("fence", s)
            if self.direct:
                s = self.copy_rows(batch.csv, s)
            else:
                self.conn.execute(self.move)
                s = self.lap("insert_select", s)
            if batch.bad:
                args = {"id": self.job, "rejected": batch.rejected, "errors": batch.errors}
                self.conn.execute(queries().write_rejected_rows, args)
                s = self.lap("rejected", s)
        self.lap("commit", s)
        self.cursor += batch.good + batch.bad
        self.written += batch.good
        self.rejected += batch.bad


def pipelined(write: Callable[[Batch], None]) -> tuple[Callable[[Batch], None], Callable[[], None]]:
    """(send, close): `write` in a thread of its own, two batches queued at most, so that
    the next batch's Python work overlaps the server's; close waits and raises its failure."""
    failure: list[BaseException] = []
    work: queue.Queue[Batch | None] = queue.Queue(maxsize=2)

    def writer() -> None:
        while (item := work.get()) is not None:
            if not failure:
                try:
                    write(item)
                except BaseException as exc:
                    failure.append(exc)

    def send(batch: Batch) -> None:
        if failure:
            raise failure[0]
        work.put(batch)

    def close() -> None:
        work.put(None)
        thread.join()
        if failure:
            raise failure[0]

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    return send, close


# --- the import ----------------------------------------------------------------------------


def run(url: str, path: str, options: Options) -> dict[str, Any]:
    from importer.database import connect
    from importer.repositories.forms import get_form

    clock = Clock()
    t = time.perf_counter()
    with connect(url) as tool_conn:
        form, version = get_form(tool_conn, options.form)
    table = table_for(form)
    clock.add("form", t)
    sheet = load(path, options.overlap, clock)
    t = time.perf_counter()
    validator = Validator(form, sheet.header)  # header matching, the coercers (fallback)
    parts = split(form, validator, sheet)
    n = len(sheet.frame)
    sheet.frame = sheet.frame.clear()  # the sheet's texts: only the unsettled rows' are kept
    t = clock.add("validate", t)
    with psycopg.connect(url, autocommit=True) as conn:
        job = new_job(conn, form, version, path, n)
        writer = Writer(conn, table, job, options.direct)
        t = clock.add("job_setup", t)
        fallback = Fallback(form, validator, sheet, parts.pads)
        send, close = pipelined(writer)
        try:
            write_batches(parts, table, fallback, writer, send, HEADER_ROW + n, options.batch)
        finally:
            close()
        s = time.perf_counter()
        conn.execute(FINISH, (job, writer.owner))
    writer.lap("finish", s)
    clock.add("write", t)
    return report(clock, writer, job, n, fallback.rows)


def write_batches(
    parts: Split,
    table: FormTable,
    fallback: Fallback,
    writer: Writer,
    send: Callable[[Batch], None],
    last: int,
    size: int,
) -> None:
    """Per `size` source rows: the unsettled rows through the Validator, then the batch."""
    assert table.row_column and table.job_column
    out = parts.good.rename({c.field: c.name for c in table.columns}).with_columns(
        pl.col("__row").alias(table.row_column),
        pl.lit(writer.job, dtype=pl.Int64).alias(table.job_column),
    )
    hard = parts.hard
    out_rows, hard_rows = out["__row"].to_numpy(), hard["__row"].to_numpy()
    first = HEADER_ROW + 1
    while first <= last:
        end = min(first + size - 1, last)
        e = time.perf_counter()
        lo, hi = np.searchsorted(out_rows, [first, end + 1])
        part = out.slice(int(lo), int(hi - lo))
        h_lo, h_hi = np.searchsorted(hard_rows, [first, end + 1])
        bad: list[RejectedRow] = []
        if h_hi > h_lo:
            rescued, bad = fallback(hard.slice(int(h_lo), int(h_hi - h_lo)))
            if len(rescued):
                extra = rescued_frame(rescued, table, out.schema, writer.job)
                part = pl.concat([part, extra]).sort("__row")
        f = time.perf_counter()
        writer.stats["fallback"] += f - e
        buf = io.BytesIO()
        part.select(writer.names).write_csv(buf, include_header=False)
        rejected, errors = _rejected_json(bad)
        writer.stats["encode"] += time.perf_counter() - f
        send(Batch(buf.getvalue(), len(part), len(bad), end, rejected, errors))
        first = end + 1


def report(clock: Clock, writer: Writer, job: int, n: int, decided: int) -> dict[str, Any]:
    stats = writer.stats
    seconds = {k: round(v, 3) for k, v in clock.parts.items()}
    seconds["fallback (in write loop)"] = round(stats["fallback"], 3)
    seconds["write.encode"] = round(stats["encode"], 3)
    seconds["write.server_wait"] = round(stats["server"], 3)
    for k in ("copy", "fence", "insert_select", "rejected", "commit", "finish"):
        if k in stats:
            seconds["write.server_wait." + k] = round(stats[k], 3)
    seconds["imports"] = round(IMPORTED - STARTED, 3)
    seconds["total_in_process"] = round(time.perf_counter() - STARTED, 3)
    return {
        "job": job,
        "rows": n,
        "stored": writer.written,
        "rejected": writer.rejected,
        "python_decided_rows": decided,
        "seconds": seconds,
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.columnar")
    p.add_argument("url")
    p.add_argument("path")
    p.add_argument("--form", default=Options.form)
    p.add_argument("--batch", type=int, default=Options.batch)
    p.add_argument("--direct", action="store_true", help="no staging table")
    p.add_argument("--no-overlap", action="store_true", help="the scan before the read")
    a = p.parse_args(argv)
    options = Options(a.form, a.batch, a.direct, overlap=not a.no_overlap)
    print(json.dumps(run(a.url, a.path, options)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
