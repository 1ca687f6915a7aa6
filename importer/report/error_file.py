"""The rejected rows of a job as a file the sender can fix and submit again (.xlsx or .csv).

Columns: the sheet's own header in its order, each value in its original type, then
"Problems" (every reason of the row in words) and "Source row" (the row in the submitted
file). The .xlsx keeps the sheet's name, marks each bad cell (fill and comment, see
xlsx.py) and has an "About" sheet; the .csv has the same columns. A header that ends
in exactly "Problems", "Source row" is an error file sent back: those two columns are never
data (validate.data_width), so a second round trip has the same columns.

A job's rows are those still open: rejected, and imported by no correction since, each as
last sent (a correction that rejected it again is newer than the import); ``every``: each
rejected row of the job, whatever became of it. In the .xlsx each row carries the key of the
import it belongs to (row_keys.py), so that the fixed file comes back as a correction.

Text that a spreadsheet would run as a formula (= + - @ ...) is written so that it stays text.
The file appears at exactly the path given, whole or not at all (written to a temporary file
in the same folder first).
"""

from __future__ import annotations

import contextlib
import csv
import os
import secrets
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import IO

from importer.database import Connection
from importer.errors import UsageError
from importer.excel.cell_json import TypedCell, cell_text, decode_cell, decode_text, encode_cell
from importer.fields.field import normalize_header
from importer.forms.validation import PROBLEMS_COLUMN, SOURCE_ROW_COLUMN, data_width
from importer.intake.checking import CheckReport
from importer.report.book import (
    ErrorBook,
    ErrorRow,
    looks_like_formula,
    problem_text,
    rows_above,
)
from importer.report.row_keys import row_key, workbook_signature
from importer.report.xlsx import Signer, write_books, write_xlsx
from importer.repositories.corrections import (
    Family,
    RowFate,
    family_of,
    headers_of,
    open_rows,
    row_fates,
    signing_key,
)
from importer.repositories.jobs import Job, get_job
from importer.repositories.rejected_rows import (
    RowProblem,
    StoredRejectedRow,
    rejected_row_width,
    rejected_rows,
)

FORMATS = (".xlsx", ".csv")


@dataclass(frozen=True)
class ExportSummary:
    path: Path
    rows: int
    format: str


def csv_safe(value: str | None) -> str:
    if value is None:
        return ""
    return "'" + value if looks_like_formula(value) else value


def columns_of(header: Sequence[str] | None, width: int) -> list[str]:
    """The data columns of an error file: the header's own (never a returned error file's
    Problems and Source row), or as many as the widest row when the header is shorter."""
    names = list(header or [])
    own = data_width(names)
    if own < len(names):
        return names[:own]
    return names + [f"Column {i + 1}" for i in range(len(names), width)]


# --- the job's rows --------------------------------------------------------------------------


def _typed_cells(row: StoredRejectedRow, width: int, *, from_csv: bool) -> list[TypedCell]:
    if row.cells is not None and len(row.cells) == len(row.texts):
        cells = [decode_cell(stored) for stored in row.cells[:width]]
        if from_csv:  # every CSV value is text: a number as it was typed reads as a number
            cells = [decode_text(c.value) if isinstance(c.value, str) else c for c in cells]
    else:  # rejected before typed cells were stored: texts, numbers where exactly so
        cells = [decode_text(text) for text in row.texts[:width]]
    return cells + [TypedCell(None)] * (width - len(cells))


def job_rows(
    conn: Connection, job: Job, header: list[str], *, every: bool, family: Family
) -> Iterator[ErrorRow]:
    """The rows of the job's error file, keyed as rows of its family's origin."""
    secret = signing_key(conn)
    width = len(header)
    if every:
        fates = row_fates(conn, job.id, family)
        for row in rejected_rows(conn, job.id):
            cells = _typed_cells(row, width, from_csv=job.engine == "csv")
            problems = [*row.problems, *_fate(fates.get(row.number), job.id)]
            yield ErrorRow(row.number, cells, problems, row_key(secret, family.origin, row.number))
        return
    headers = headers_of(conn, family)
    engines = {job.id: job.engine}
    for found in open_rows(conn, family):
        row = found.row
        if found.job_id not in engines:
            engines[found.job_id] = get_job(conn, found.job_id).engine
        cells = _typed_cells(row, len(row.texts), from_csv=engines[found.job_id] == "csv")
        cells = _reordered(cells, columns_of(headers.get(found.job_id), len(cells)), header)
        yield ErrorRow(row.number, cells, row.problems, row_key(secret, family.origin, row.number))


def _reordered(cells: list[TypedCell], given: list[str], wanted: list[str]) -> list[TypedCell]:
    """A row read under another header (a correction whose sender moved columns) in the
    columns of ``wanted``, matched by their text; a column it lacks is empty."""
    if given[: len(wanted)] == wanted:
        return (cells + [TypedCell(None)] * len(wanted))[: len(wanted)]
    where = {normalize_header(text): i for i, text in reversed(list(enumerate(given)))}
    picked = [where.get(normalize_header(text)) for text in wanted]
    return [cells[i] if i is not None and i < len(cells) else TypedCell(None) for i in picked]


def _fate(fate: RowFate | None, job_id: int) -> list[RowProblem]:
    """``errors --all``: what became of a row, as a line of its Problems."""
    if fate is None:
        return []
    if fate.fixed_by is not None:
        said = f"fixed later: imported by job {fate.fixed_by}"
    elif fate.last_tried is not None and fate.last_tried != job_id:
        said = f"still open: rejected again by job {fate.last_tried}"
    else:
        said = "still open"
    return [RowProblem(fate.row, None, None, said)]


def sheet_name_for(job: Job) -> str:
    """The original sheet's name; a CSV file's name without its suffix."""
    name = job.sheet if job.sheet and job.engine != "csv" else Path(job.file_name).stem
    return name or "Sheet1"


def _not_in_this_file(job: Job) -> list[tuple[str, str]]:
    if not job.taken_back:
        return [("", f"The {job.kept_rows:,} rows already imported are not in this file.")]
    # Over its reject limit nothing was kept: fixing only these rows would leave the good
    # ones out, so the whole workbook comes again (a correction of it is refused).
    return [
        ("", "None of the workbook's rows were imported: more were rejected than its limit"),
        ("", "allows. Make these fixes in the original workbook and send all of it again."),
    ]


def _about_job(job: Job, target: Path, *, every: bool = False) -> list[tuple[str, str]]:
    def when(moment: datetime | None) -> str:
        return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z") if moment else "-"

    total = "not counted" if job.total_rows is None else f"{job.total_rows:,}"
    imported = f"{job.kept_rows:,} imported, {job.failed_rows:,} rejected"
    if every:
        where = "every rejected row is in this file, with what became of it"
    elif job.fixed_rows:
        where = (
            f"{job.fixed_rows:,} fixed later; the {job.still_open:,} still open are in this file"
        )
    else:
        where = "the rejected rows are in this file"
    correcting = f"a correction of job {job.origin_job_id}: " if job.origin_job_id else ""
    return [
        ("Import job", f"{job.id}" + (f" ({correcting.rstrip(': ')})" if correcting else "")),
        ("Form", f"{job.form} (version {job.form_version})"),
        ("File", job.file_name + (f", sheet {job.sheet!r}" if job.engine != "csv" else "")),
        ("Submitted", when(job.created_at)),
        ("Rows", f"{total} rows read: {imported} ({where})"),
        ("", ""),
        # In the sender's words; the command is for whoever runs importer, on its own line.
        ("How to resubmit", "1. Fix each cell filled red: its comment says what is wrong, and the"),
        ("", f"   {PROBLEMS_COLUMN} column lists every problem of the row."),
        ("", f"2. The {PROBLEMS_COLUMN} and {SOURCE_ROW_COLUMN} columns may stay as they are,"),
        ("", "   or be deleted. Keep the header row."),
        ("", "   Delete a row you cannot fix; add new rows at the end if you have any."),
        ("", "3. Save the file, keeping it an Excel workbook (.xlsx)."),
        ("", "4. Send the file back to whoever sent it to you."),
        *_not_in_this_file(job),
        ("", ""),
        ("For the operator", "Whoever runs importer imports the returned file with:"),
        ("", f"importer submit {target.name}"),
        (
            "",
            f"(a correction of job {job.origin_job_id or job.id}: each fixed row joins that"
            " import, once; --as-new imports the rows as a new job instead)",
        ),
    ]


# What a reader of the file is told of each problem (the page's senders: a lookup's
# suggestions only where the form shows them, forms/senders.py); None: every message whole.
Reword = Callable[[RowProblem], RowProblem] | None


def _reworded(rows: Iterable[ErrorRow], reword: Reword) -> Iterable[ErrorRow]:
    if reword is None:
        return rows
    return (replace(row, problems=[reword(p) for p in row.problems]) for row in rows)


def export_rejected_rows(
    conn: Connection, job_id: int, target: Path, *, every: bool = False, reword: Reword = None
) -> ExportSummary:
    """Write the job's rejected rows still open (``every``: all of them) to ``target`` (.xlsx
    or .csv), atomically."""
    check_target(target)
    book = _job_book(conn, get_job(conn, job_id), target, every=every)
    book = replace(book, rows=_reworded(book.rows, reword))
    return write_error_file(book, target, _signer(conn))


def export_group_rows(
    conn: Connection, job_ids: list[int], target: Path, *, every: bool = False
) -> ExportSummary:
    """A group's rejected rows (several sheets submitted together): one .xlsx, a sheet per
    job under its sheet's own name, so that the fixed file resubmits with --all-sheets, a
    correction of each job."""
    if check_target(target) != ".xlsx":
        raise UsageError(f"cannot write {target}: a group's rows need .xlsx (a sheet per job)")
    group = [get_job(conn, job_id) for job_id in job_ids]
    books = [_job_book(conn, job, target, every=every) for job in group]
    about = _about_group(group, target)
    books[0] = replace(books[0], about=about)
    sign = _signer(conn)
    return _write_atomically(target, lambda temp: write_books(temp, books, sign), ".xlsx")


def _about_group(group: list[Job], target: Path) -> list[tuple[str, str]]:
    """The About sheet of a group's error workbook: its jobs, a sheet each."""
    first = group[0]
    lines = [
        ("Import jobs", ", ".join(f"{j.id} (sheet {sheet_name_for(j)!r}, form {j.form})"
                                  for j in group)),
        ("Group", f"g{first.group_id}" if first.group_id is not None else "-"),
        ("File", first.file_name),
        ("Rows", "; ".join(f"job {j.id}: {j.failed_rows:,} rejected"
                           + (f", {j.fixed_rows:,} fixed later" if j.fixed_rows else "")
                           for j in group)),
    ]  # fmt: skip
    single = _about_job(first, target)
    steps = single[single.index(("", "")) :]
    steps[-2:] = [
        ("", f"importer submit {target.name} --all-sheets"),
        ("", "(a correction of each sheet's job: each fixed row joins its import, once)"),
    ]
    return [*lines, *steps]


def _signer(conn: Connection) -> Signer:
    secret = signing_key(conn)
    return lambda jobs, about: workbook_signature(secret, jobs, about)


def _job_book(conn: Connection, job: Job, target: Path, *, every: bool = False) -> ErrorBook:
    family = family_of(conn, job)
    # As wide as the job's own rows (a correction's rows are put in its columns by name).
    header = columns_of(job.header, rejected_row_width(conn, job.id))
    return ErrorBook(
        sheet_name=sheet_name_for(job),
        header=header,
        rows=job_rows(conn, job, header, every=every, family=family),
        about=_about_job(job, target, every=every),
        above=rows_above(job.sheet_layout),
        origin=family.origin,
    )


def export_checked_rows(check: CheckReport, target: Path, reword: Reword = None) -> ExportSummary:
    """The rows `importer check` would reject, as the same error file an import gives."""
    check_target(target)
    header = columns_of(check.header, len(check.header))
    width = len(header)

    def rows() -> Iterator[ErrorRow]:
        for row in check.rejected:
            typed = list(row.cells) or list(row.values)
            cells = [decode_cell(encode_cell(value)) for value in typed[:width]]
            cells += [TypedCell(None)] * (width - len(cells))
            problems = [RowProblem(row.number, e.column, e.raw, e.message) for e in row.errors]
            yield ErrorRow(row.number, cells, [reword(p) for p in problems] if reword else problems)

    about = [
        ("Checked", f"{check.file_name}, sheet {check.sheet!r}: nothing was imported"),
        ("Form", f"{check.form} (version {check.form_version})"),
        ("Rows", f"{check.total_rows:,} rows read: {check.good:,} good, {len(check.rejected):,}"
         " would be rejected (they are in this file)"),
        ("", ""),
        ("What next", "Nothing from the file was imported yet; this one lists its bad rows only."),
        ("", "1. In the original file, fix each cell filled red here: its comment says"),
        ("", f"   what is wrong, and the {PROBLEMS_COLUMN} column lists every problem of the row."),
        ("", "2. Save the original file and send it back to whoever sent you this one."),
        ("", ""),
        ("For the operator", "Whoever runs importer checks the returned file again or imports it:"),
        ("", f"importer submit {check.file_name} --form {check.form}"),
    ]  # fmt: skip
    book = ErrorBook(check.sheet, header, rows(), about, above=rows_above(check.layout))
    return write_error_file(book, target)


# --- writing -----------------------------------------------------------------------------------


def check_target(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"cannot write {path}: the file name must end in .xlsx or .csv")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder")
    return suffix


def _write_csv(stream: IO[str], book: ErrorBook) -> int:
    writer = csv.writer(stream, lineterminator="\r\n")
    for texts in book.above:
        writer.writerow([csv_safe(t) for t in texts])
    writer.writerow([csv_safe(c) for c in [*book.header, PROBLEMS_COLUMN, SOURCE_ROW_COLUMN]])
    count = 0
    for row in book.rows:
        problems = "; ".join(problem_text(p) for p in row.problems)
        cells = [csv_safe(cell_text(cell)) for cell in row.cells]
        writer.writerow([*cells, csv_safe(problems), row.number])
        count += 1
    return count


def write_error_file(book: ErrorBook, target: Path, sign: Signer | None = None) -> ExportSummary:
    """Write ``book`` to ``target`` (.xlsx or .csv): whole, or not at all. ``sign``: the
    .xlsx names the import its rows' keys belong to, signed (a .csv has no keys)."""
    suffix = check_target(target)
    if suffix == ".csv":
        return _write_atomically(target, lambda temp: _csv_file(temp, book), suffix)
    return _write_atomically(target, lambda temp: write_xlsx(temp, book, sign), suffix)


def _csv_file(temp_name: str, book: ErrorBook) -> int:
    # utf-8-sig: Excel opens it as UTF-8 instead of guessing a code page.
    with open(temp_name, "w", encoding="utf-8-sig", newline="") as stream:
        count = _write_csv(stream, book)
        stream.flush()
        os.fsync(stream.fileno())
    return count


def _write_atomically(target: Path, write: Callable[[str], int], suffix: str) -> ExportSummary:
    """``write(temp file)`` then the temp file moved over ``target``: whole, or not at all."""
    fd, temp_name = _create_temp(target.parent if str(target.parent) else Path("."), target.name)
    try:
        os.close(fd)
        count = write(temp_name)
        os.replace(temp_name, target)
    except OSError as exc:
        _discard(temp_name)
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from exc
    except BaseException:
        _discard(temp_name)
        raise
    return ExportSummary(path=target, rows=count, format=suffix.lstrip("."))


def _create_temp(folder: Path, name: str) -> tuple[int, str]:
    """Like mkstemp, but not private: created with mode 0o666, so the kernel applies the umask
    as for any new file. (Widening mkstemp's 0o600 needs the umask, which can only be read by
    setting it, for every thread at once.)"""
    for _ in range(tempfile.TMP_MAX):
        path = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666), str(path)
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name for {name} in {folder}")


def _discard(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)
