"""A fixed error workbook coming back: recognised by its row keys and made a correction of
the job it came from (its origin), before any job exists.

``importer errors JOB -o fix.xlsx`` gives each rejected row a key (report/row_keys.py) in a
hidden last column. A sheet whose header ends with that column is read whole here: every
key must be one this database signed, all of one origin, none twice; a row without a key is
a row the sender added. Anything else is refused in one line and nothing is stored: a key
changed by hand, an origin undone or purged, rows every one of which a correction imported
already. The correction is then a job like any other (same checks, batches, cursor, resume),
validated by the origin's form version (or the current one), whose run numbers each row as
the origin's row it fixes (running/correction_rows.py) and takes it in the batch transaction
(repositories/corrections.py): a row of an origin is imported by at most one correction.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from importer.database import Connection
from importer.errors import InputError, NotFoundError
from importer.excel.values import RowBatch
from importer.report.row_keys import ROW_KEY_COLUMN, RowKey, read_row_key
from importer.repositories import corrections
from importer.repositories.jobs import Job
from importer.states import JobStatus

if TYPE_CHECKING:
    from importer.excel.base import SheetReader
    from importer.forms.definition import Form

_UNDONE = "its rejected rows can no longer be corrected"
KEEP_ROWS = 100_000  # a correction's rows kept from its submit for its run (memory)
_AS_NEW = "submit it with --as-new to import every row as a new job"


@dataclass(frozen=True)
class CorrectionPlan:
    """What the submit found: the origin, the form to validate by, and the rows."""

    origin: Job
    form: Form
    version: int
    mapping: dict[str, str]  # the origin's --map, then this submit's
    key_column: int  # the sheet's column of the row keys
    keyed: list[int] = field(default_factory=list)  # the origin's rows, in the sheet's order
    added: int = 0  # rows without a key
    held: int = 0  # of the keyed rows, those corrections imported already (as planned)
    latest: bool = False  # validated by the form's current version
    # The rows as read (a sheet of at most KEEP_ROWS rows): the origin row each fixes, or
    # None for one added, and its cells; its run here reads them no second time.
    keys: list[int | None] = field(default_factory=list)
    cells: list[Sequence[object]] | None = None

    def sheet(self, reader: SheetReader) -> SheetReader:
        """The sheet for the correction's run here: the rows read, numbered by the run."""
        from importer.running.correction_rows import NumberedSheet

        return reader if self.cells is None else NumberedSheet(reader, self.keys, self.cells)

    def check_not_done(self, conn: Connection, file_name: str) -> None:
        """Refused when every keyed row was imported already by corrections, and none was
        added: nothing to do (a new job would reject every row)."""
        if self.added or not self.keyed or self.held < len(self.keyed):
            return
        held = corrections.held_by(conn, self.origin.id, self.keyed)
        if len(held) < len(self.keyed):  # an undo came in between
            return
        by = ", ".join(str(j) for j in sorted(set(held.values())))
        raise InputError(
            f"{file_name}: nothing to correct: its {len(self.keyed):,} rows of job"
            f" {self.origin.id} were imported already, by job {by}; nothing was stored"
            f" (importer errors {self.origin.id} lists the rows still open)",
            file=file_name,
        )

    def job_json(self) -> dict[str, Any]:
        """What the job keeps (migration 0018; first_new_row is set as the job is made)."""
        return {
            "key_column": self.key_column,
            "keyed": len(self.keyed),
            "added": self.added,
            "latest": self.latest,
        }


def plan_correction(
    conn: Connection,
    reader: SheetReader,
    file_name: str,
    *,
    named: tuple[Form, int] | None,
    mapping: Mapping[str, str],
    latest: bool,
) -> CorrectionPlan:
    """Read every row's key (the whole sheet) and check the origin; InputError when the
    workbook cannot be a correction, naming why."""
    from importer.repositories.forms import get_form

    secret = corrections.signing_key(conn)
    key_column = len(reader.header) - 1
    cells: list[Sequence[object]] = []
    keys = _row_keys(reader, secret, key_column, file_name, cells)
    origins = sorted({key.origin for _, key in keys if key is not None})
    if not origins:
        raise InputError(
            f"{file_name}: the {ROW_KEY_COLUMN!r} column holds no key: it cannot say which"
            f" import it corrects; {_AS_NEW}",
            file=file_name,
        )
    if len(origins) > 1:
        shown = ", ".join(map(str, origins))
        raise InputError(
            f"{file_name}: sheet {reader.sheet_name!r} holds rows of several imports ({shown});"
            " send each import's rows back in a workbook of its own",
            file=file_name,
        )
    keyed = [key.row for _, key in keys if key is not None]
    origin, held = _origin(conn, origins[0], keyed, file_name)
    if named is not None and named[0].name != origin.form:
        raise InputError(
            f"{file_name} corrects job {origin.id} of form {origin.form!r}, not"
            f" {named[0].name!r}; leave out --form (or use --as-new)",
            file=file_name,
        )
    form, version = get_form(conn, origin.form, None if latest else origin.form_version)
    kept = len(cells) == len(keys)
    return CorrectionPlan(
        origin=origin,
        form=form,
        version=version,
        mapping={**origin.column_map, **mapping},
        key_column=key_column,
        keyed=keyed,
        added=len(keys) - len(keyed),
        held=held,
        latest=latest,
        keys=[key.row if key is not None else None for _, key in keys] if kept else [],
        cells=cells if kept else None,
    )


def _row_keys(
    reader: SheetReader, secret: bytes, column: int, file_name: str, kept: list[Sequence[object]]
) -> list[tuple[int, RowKey | None]]:
    """(Excel row, its key or None for a row the sender added) of every data row; a key
    that is there but not this database's, or one found twice, is refused. The rows' cells
    go into ``kept``, up to KEEP_ROWS rows."""
    found: list[tuple[int, RowKey | None]] = []
    seen: dict[RowKey, int] = {}
    for number, values in _rows_of(reader):
        if len(kept) < KEEP_ROWS:
            kept.append(values)
        cell = values[column] if column < len(values) else None
        if cell is None or (isinstance(cell, str) and not cell.strip()):
            found.append((number, None))
            continue
        key = read_row_key(secret, cell)
        if key is None:
            raise InputError(
                f"{file_name}: row {number}'s key (the hidden {ROW_KEY_COLUMN!r} column)"
                " was changed, or was not written by this database's `importer errors`:"
                f" nothing was stored; send back the file as importer wrote it, or {_AS_NEW}",
                file=file_name,
            )
        if key in seen:
            raise InputError(
                f"{file_name}: rows {seen[key]} and {number} carry the same key (row"
                f" {key.row} of job {key.origin}): a row copied with its key? clear the hidden"
                f" {ROW_KEY_COLUMN!r} cell of the copy to send it as a new row; nothing was stored",
                file=file_name,
            )
        seen[key] = number
        found.append((number, key))
    return found


def _rows_of(reader: SheetReader) -> Iterator[tuple[int, Sequence[object]]]:
    """(Excel row, its cells) of every data row, in the sheet's order."""
    for batch in reader.batches(2_000):
        if isinstance(batch, RowBatch):
            yield from zip(batch.numbers, batch.cells, strict=True)
        else:
            yield from ((row.number, row.values) for row in batch)


def _origin(conn: Connection, origin_id: int, keyed: list[int], file_name: str) -> tuple[Job, int]:
    """The origin, checked, and how many of the keyed rows corrections imported already."""
    try:
        origin, held = corrections.origin_and_held(conn, origin_id, keyed)
    except NotFoundError:
        raise InputError(
            f"{file_name}: its rows come from job {origin_id}, which this database does not"
            f" have; {_AS_NEW}",
            file=file_name,
        ) from None
    check_origin(origin, file_name)
    return origin, held


def check_origin(origin: Job, file_name: str) -> None:
    """An origin whose rows may still be corrected: ended, neither undone nor purged."""
    which = f"{file_name}: job {origin.id}"
    if origin.status is JobStatus.REVERTED:
        when = f" on {origin.reverted_at:%Y-%m-%d}" if origin.reverted_at else ""
        raise InputError(f"{which} was undone{when}: {_UNDONE}; {_AS_NEW}", file=file_name)
    if origin.taken_back:
        raise InputError(
            f"{which} kept none of its rows (over its reject limit): fix the original"
            f" workbook and submit all of it again; {_AS_NEW}",
            file=file_name,
        )
    if origin.purged_at is not None:
        raise InputError(
            f"{which} was purged by retention on {origin.purged_at:%Y-%m-%d}: {_UNDONE}; {_AS_NEW}",
            file=file_name,
        )
    if not origin.terminal:
        raise InputError(
            f"{which} is {origin.status}: its rows can be corrected once it has ended",
            file=file_name,
        )


def reserve_numbers(conn: Connection, origin_id: int, plan: dict[str, Any]) -> dict[str, Any]:
    """In the transaction that makes the correction: the origin locked and checked again
    (an undo may have come in between), and the numbers of the rows the sender added."""
    origin, first_new_row = corrections.lock_origin(conn, origin_id)
    check_origin(origin, "the workbook")
    return {**plan, "first_new_row": first_new_row, "origin_last_row": origin.last_row or 0}
