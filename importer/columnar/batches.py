"""The columnar path's batches: a piece's rows checked as columns, the unsettled few by the
tool's own reader and Validator, each batch ready for BatchWriter as CSV.

Per piece (sheet.py): the form's checks (checks.py) settle most rows at once; a row with
any cell not settled, or with a special cell (an error, an uncalculated formula), is
validated by the row path's Validator, its cells as the row-at-a-time reader gives them
(rebuilt from their texts and their XML's types, rebuilt.py, or read again exactly), so
stored values, rejected rows, their messages and their cells are that path's. Batches hold
``size`` rows of the sheet in order (the last of a piece fewer); the valid rows go to the
writer as CSV written by polars, the rejected ones as the usual JSON.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import polars as pl

from importer.columnar.checks import blank, field_check
from importer.columnar.sheet import ROW, ColumnarSheet, LoadedPiece
from importer.excel.values import RowBatch
from importer.forms.definition import Form
from importer.forms.validation import RejectedRow, Validator, ValidRows, typed_column
from importer.repositories.batches import BatchWriter, Prepared, rejected_json_of
from importer.repositories.form_tables import JOB_COLUMN, ROW_COLUMN, FormTable

_POLARS_TYPES: dict[str, pl.DataType] = {
    "integer": pl.Int64(),
    "decimal": pl.Float64(),
    "string": pl.String(),
    "email": pl.String(),
    "enum": pl.String(),
    "date": pl.Date(),
    "boolean": pl.Boolean(),
}


class ColumnarBatches:
    """Prepared batches of a sheet, for BatchWriter.write."""

    def __init__(
        self,
        sheet: ColumnarSheet,
        form: Form,
        validator: Validator,
        writer: BatchWriter,
        size: int,
    ) -> None:
        self.sheet = sheet
        self.form = form
        self.validator = validator
        self.writer = writer
        self.size = size
        self.table: FormTable = writer.table
        # The sheet's column of each field the header matched, in the form's order.
        self.fields = [(self.form.field(c.name), c.index) for c in validator.columns]
        self.columns = [self.table.column(f.name).name for f, _ in self.fields]

    def __iter__(self) -> Iterator[tuple[Prepared, int]]:
        """(the batch, how many rows of the sheet it covers)."""
        for loaded in self.sheet.pieces():
            yield from self._piece(loaded)

    # --- one piece ------------------------------------------------------------------------

    def _piece(self, loaded: LoadedPiece) -> Iterator[tuple[Prepared, int]]:
        frame = loaded.frame
        width = len(self.sheet.header)
        texts = [f"c{i}" for i in range(width)]
        frame = frame.filter(pl.col(ROW) > self.sheet.after_row)
        frame = frame.filter(~pl.all_horizontal([blank(pl.col(c)) for c in texts]))
        frame = with_pads(frame, loaded)
        values: list[pl.Expr] = []
        settled: list[pl.Expr] = [pl.lit(True)]
        for f, index in self.fields:
            pad = f"__pad{index}"
            padded = pl.col(pad).is_not_null() if pad in frame.columns else None
            pad_width = pl.col(pad) if pad in frame.columns else None
            value, ok = field_check(f, pl.col(f"c{index}"), padded, pad_width)
            values.append(value.cast(_POLARS_TYPES[f.type]).alias(self.table.column(f.name).name))
            settled.append(ok)
        # A special cell (an error, an uncalculated formula) in a column the form reads: the
        # row goes to the Validator (elsewhere it changes nothing the row stores).
        read = {index for _, index in self.fields}
        odd = sorted({row for row, column in loaded.scan.overrides if column in read})
        ok_all = pl.all_horizontal(settled)
        if odd:
            ok_all = ok_all & ~pl.col(ROW).is_in(odd)
        checked = frame.lazy().with_columns(*values, ok_all.alias("__ok")).collect()
        rows = checked[ROW].to_numpy()
        good = checked.filter(pl.col("__ok")).select(ROW, *self.columns)
        pads = [c for c in frame.columns if c.startswith("__pad")]
        hard = checked.filter(~pl.col("__ok")).select(ROW, *texts, *pads)
        # The batches below need only `good` and `hard` (and the piece's XML):
        # the frames of texts go before a batch waits for the writer, not after.
        del frame, checked
        loaded.frame = loaded.frame.clear()
        good, rejected = self._settle(loaded, hard, good)
        good_rows = good[ROW].to_numpy()
        rejected_rows = np.array([r.number for r in rejected], dtype=np.int64)
        start = 0
        while start < len(rows):
            end = min(start + self.size, len(rows))
            span = [int(rows[start]), int(rows[end - 1]) + 1]
            g0, g1 = (int(i) for i in np.searchsorted(good_rows, span))
            r0, r1 = (int(i) for i in np.searchsorted(rejected_rows, span))
            batch = self._batch(loaded, good.slice(g0, g1 - g0), rejected[r0:r1], span[1] - 1)
            yield batch, (g1 - g0) + (r1 - r0)
            start = end

    def _settle(
        self, loaded: LoadedPiece, hard: pl.DataFrame, good: pl.DataFrame
    ) -> tuple[pl.DataFrame, list[RejectedRow]]:
        """The unsettled rows of the whole piece, validated at once: the good rows with
        those the Validator took, and the rejected ones."""
        if not hard.height:
            return good, []
        result = self.validator.validate(self.sheet.unsettled(loaded, hard))
        rejected = sorted(result.rejected, key=lambda r: r.number)
        if len(result.valid):
            rescued = self._frame_of(result.valid, good.schema)
            good = pl.concat([good, rescued]).sort(ROW)
        return good, rejected

    def _batch(
        self, loaded: LoadedPiece, good: pl.DataFrame, rejected: list[RejectedRow], last_row: int
    ) -> Prepared:
        numbers: list[int] = good[ROW].to_list()
        out = good.with_columns(
            pl.lit(self.writer.job.id, dtype=pl.Int64).alias(JOB_COLUMN),
            pl.col(ROW).alias(ROW_COLUMN),
        ).select(*self.columns, JOB_COLUMN, ROW_COLUMN)
        buffer = io.BytesIO()
        out.write_csv(buffer, include_header=False)
        rejected_json, errors_json = rejected_json_of(rejected)
        return Prepared(
            rows=LazyRows(numbers, lambda wanted: self.sheet.exact(loaded, wanted)),
            last_row=last_row,
            valid=[],
            rejected=rejected,
            columns=self.columns,
            numbers=numbers,
            records=[],
            rejected_json=rejected_json,
            errors_json=errors_json,
            csv=buffer.getvalue(),
        )

    def _frame_of(self, valid: ValidRows, schema: pl.Schema) -> pl.DataFrame:
        """The rows the Validator took, as the checked frame's columns and types."""
        data: dict[str, pl.Series] = {ROW: pl.Series(ROW, list(valid.numbers), dtype=pl.Int64)}
        given = dict(zip(valid.names, valid.columns, strict=True))
        for f, _ in self.fields:
            column = self.table.column(f.name)
            values: Sequence[Any] = given.get(f.name, [None] * len(valid))
            if column.pg_type == "date":
                values = typed_column(values, "date", self.writer.zone)
            dtype = schema[column.name]
            data[column.name] = pl.Series(column.name, list(values), dtype=dtype, strict=False)
        return pl.DataFrame(data).select(list(schema)).cast(schema)


def with_pads(frame: pl.DataFrame, loaded: LoadedPiece) -> pl.DataFrame:
    """Per column holding numbers in a 00000 format: their width on those rows. In
    array steps: a column of ZIP codes beside texts holds thousands of runs a piece."""
    runs = loaded.piece.padded
    if not runs or frame.height == 0:
        return frame
    first = int(loaded.piece.anchor)
    rows = frame[ROW].to_numpy() - first
    length = int(loaded.piece.last_row) - first + 2
    # column, first, last, width: the piece's runs one after the other (xlsx_split.Piece)
    table = np.frombuffer(runs, dtype=np.int64).reshape(-1, 4)
    extra = []
    for column in np.unique(table[:, 0]):
        mine = table[table[:, 0] == column]
        # A column's runs never overlap: +width where one starts, -width after its end.
        steps = np.zeros(length, np.int64)
        np.add.at(steps, mine[:, 1] - first, mine[:, 3])
        np.add.at(steps, mine[:, 2] - first + 1, -mine[:, 3])
        found = np.cumsum(steps)[rows]
        extra.append(pl.Series(f"__pad{int(column)}", found).replace(0, None))
    return frame.with_columns(extra)


class LazyRows(Sequence[Any]):
    """A batch's source rows, read only when the writer needs them (a row its table's
    constraints refused is recorded with its cells): those of the refused rows alone
    (``only``: read again, all of them in one small workbook), or every one."""

    def __init__(self, numbers: list[int], load: Callable[[Sequence[int]], RowBatch]) -> None:
        self._numbers = numbers
        self._load = load
        self._rows: RowBatch | None = None

    def only(self, numbers: Sequence[int]) -> RowBatch:
        return self._load(sorted(numbers))

    def _batch(self) -> RowBatch:
        if self._rows is None:
            self._rows = self._load(self._numbers)
        return self._rows

    def __len__(self) -> int:
        return len(self._batch())

    def __getitem__(self, index: Any) -> Any:
        return self._batch()[index]

    def __iter__(self) -> Iterator[Any]:
        batch = self._batch()
        return (batch[i] for i in range(len(batch)))
