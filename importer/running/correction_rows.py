"""A correction's run (intake/corrections.py): its rows numbered as the origin's.

Each row read carries the key of the origin row it fixes (the hidden last column its submit
checked): it is validated, stored and rejected under that row's number. A row the sender
added has none: it is numbered after every row the origin and its corrections numbered
(``first_new_row``, fixed when the correction was made), in the sheet's order. A resumed run
reads the sheet from its start and passes over the rows the cursor counts, so that the
added rows are numbered alike.

The batch writer takes each stored row in the batch transaction (BatchWriter's ``origin``);
a unique key on (origin, row) makes a row imported by at most one correction.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from importer.database import Connection
from importer.errors import PermanentFailure
from importer.excel.base import SheetReader
from importer.excel.values import Row, RowBatch
from importer.report.row_keys import trusted_row_key
from importer.repositories import corrections
from importer.repositories.jobs import Job
from importer.repositories.lookups import job_claims


def claims_before(conn: Connection, job: Job) -> list[tuple[str, str, int]]:
    """The unique values taken before this run: a resumed job's own; for a correction, also
    its origin's and the other live corrections' (uniqueness holds across them)."""
    if job.origin_job_id is None:
        return job_claims(conn, job.id) if job.cursor else []
    family = [
        job.origin_job_id,
        *(c.id for c in corrections.live_corrections(conn, job.origin_job_id)),
    ]
    return corrections.family_claims(conn, sorted({*family, job.id}))


def origin_numbered(
    conn: Connection, job: Job, batches: Iterator[Sequence[Row]], *, skip: int, size: int
) -> Iterator[RowBatch]:
    """The sheet's batches (read from its first row) as batches of ``size`` rows numbered
    as the origin's, the first ``skip`` left out (those the cursor counts)."""
    plan: dict[str, Any] = job.correction or {}
    column = int(plan["key_column"])
    added = int(plan["first_new_row"])
    numbers: list[int] = []
    cells: list[Sequence[object]] = []
    for batch in batches:
        pairs: Iterable[tuple[int, Sequence[object]]]
        if isinstance(batch, RowBatch):
            pairs = zip(batch.numbers, batch.cells, strict=True)
        else:
            pairs = ((row.number, row.values) for row in batch)
        for number, values in pairs:
            cell = values[column] if column < len(values) else None
            if cell is None or (isinstance(cell, str) and not cell.strip()):
                number, added = added, added + 1
            else:
                # The submit checked the signatures of these very bytes (same sha256).
                key = trusted_row_key(cell)
                if key is None or key.origin != job.origin_job_id:
                    raise PermanentFailure(f"row {number}'s key is not the one its submit read")
                number = key.row
            if skip:
                skip -= 1
                continue
            numbers.append(number)
            cells.append(values)
            if len(numbers) == size:
                yield RowBatch(numbers, cells)
                numbers, cells = [], []
    if numbers:
        yield RowBatch(numbers, cells)


class NumberedSheet(SheetReader):
    """A correction's sheet as its submit read it whole (checking every row's key): its rows
    kept with the origin row each fixes (None: a row the sender added), for the run that
    follows in the same process, which then reads the sheet no second time. Everything else
    is the sheet's own."""

    def __init__(
        self, inner: SheetReader, keys: Sequence[int | None], cells: Sequence[Sequence[object]]
    ) -> None:
        self.inner = inner
        self.keys = keys
        self.cells = cells
        for name in _SHARED:
            if hasattr(inner, name):
                setattr(self, name, getattr(inner, name))

    def numbered_batches(self, job: Job, size: int, *, skip: int) -> Iterator[RowBatch]:
        """The rows from the ``skip``-th on, ``size`` at a time, numbered as the origin's
        (an added row after every row the origin and its corrections numbered)."""
        added = int((job.correction or {})["first_new_row"])
        numbers = []
        for key in self.keys:
            if key is None:
                key, added = added, added + 1
            numbers.append(key)
        for start in range(skip, len(numbers), size):
            yield RowBatch(numbers[start : start + size], list(self.cells[start : start + size]))

    def rows(self) -> Iterator[Row]:
        return self.inner.rows()

    def batches(self, size: int, *, skip: int = 0, after_row: int = 0) -> Iterator[Sequence[Row]]:
        return self.inner.batches(size, skip=skip, after_row=after_row)

    def count_rows(self) -> int:
        return len(self.keys)

    def layout_json(self) -> dict[str, object] | None:
        return self.inner.layout_json()

    def rows_not_read(self) -> list[dict[str, object]]:
        return self.inner.rows_not_read()

    def close(self) -> None:
        self.inner.close()


_SHARED = (
    "sheet_name", "engine", "file_format", "header", "header_row", "date1904", "sheet_names",
    "reads_in_pieces", "safety_pending", "notes", "leading", "above", "merges", "header_rows",
    "header_first_row",
)  # fmt: skip
