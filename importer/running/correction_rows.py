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
from importer.excel.values import Row, RowBatch
from importer.report.row_keys import read_row_key
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
    secret = corrections.signing_key(conn)
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
                key = read_row_key(secret, cell)
                if key is None or key.origin != job.origin_job_id:
                    # The submit checked these very bytes: the database's key has changed.
                    raise PermanentFailure(
                        f"row {number}'s key no longer matches this database's; submit the"
                        " file again"
                    )
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
