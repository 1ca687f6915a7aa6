"""The rejected rows of a job as a file the sender can fix and submit again (.xlsx or .csv).

Columns: the Excel row number, the sheet's original columns in their original order with the
original values, then one column with every error of the row. Text that a spreadsheet would
run as a formula (= + - @ ...) is written so that it stays text. The file appears at exactly
the path given, whole or not at all (written to a temporary file in the same folder first).
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import secrets
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from importer.database import Connection
from importer.errors import UsageError
from importer.repositories.jobs import get_job
from importer.repositories.rejected_rows import rejected_row_width, rejected_rows

FORMATS = (".xlsx", ".csv")
ROW_COLUMN = "Excel row"
ERRORS_COLUMN = "Errors"

# A spreadsheet treats a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class ExportSummary:
    path: Path
    rows: int
    format: str


def looks_like_formula(text: str) -> bool:
    """True when a spreadsheet would evaluate the text; plain numbers such as -12 are fine."""
    return text.startswith(_FORMULA_START) and _PLAIN_NUMBER.fullmatch(text) is None


def csv_safe(value: str | None) -> str:
    if value is None:
        return ""
    return "'" + value if looks_like_formula(value) else value


def _columns(header: list[str] | None, width: int) -> list[str]:
    names = list(header or [])
    names += [f"Column {i + 1}" for i in range(len(names), width)]
    taken = {name.strip().casefold() for name in names}

    def unique(name: str) -> str:
        while name.casefold() in taken:
            name += " (importer)"
        taken.add(name.casefold())
        return name

    row_name = unique(ROW_COLUMN)
    return [row_name, *names, unique(ERRORS_COLUMN)]


def _check_target(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"cannot write {path}: the file name must end in .xlsx or .csv")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder")
    return suffix


def _write_csv(
    stream: IO[str], columns: list[str], rows: Iterator[tuple[int, list[Any], str]]
) -> int:
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow([csv_safe(c) for c in columns])
    count = 0
    width = len(columns) - 2
    for number, values, errors in rows:
        cells = [_text(v) for v in values][:width]
        cells += [None] * (width - len(cells))
        writer.writerow([number, *(csv_safe(c) for c in cells), csv_safe(errors)])
        count += 1
    return count


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _write_xlsx(path: str, columns: list[str], rows: Iterator[tuple[int, list[Any], str]]) -> int:
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Rejected rows")
    count = 0

    def text_cell(value: str | None) -> WriteOnlyCell | None:
        if value is None or value == "":
            return None
        cell = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("", value))
        cell.data_type = "s"  # never a formula, whatever the text starts with
        if looks_like_formula(value):
            cell.quotePrefix = True  # and editing the cell in Excel keeps it text
        return cell

    sheet.append([text_cell(c) for c in columns])
    width = len(columns) - 2
    for number, values, errors in rows:
        cells = [text_cell(_text(v)) for v in values][:width]
        cells += [None] * (width - len(cells))
        sheet.append([number, *cells, text_cell(errors)])
        count += 1
    book.save(path)
    return count


def export_rejected_rows(conn: Connection, job_id: int, target: Path) -> ExportSummary:
    """Write the job's rejected rows to ``target`` (.xlsx or .csv), atomically."""
    suffix = _check_target(target)
    job = get_job(conn, job_id)
    columns = _columns(job.header, rejected_row_width(conn, job_id))

    fd, temp_name = _create_temp(target.parent if str(target.parent) else Path("."), target.name)
    try:
        rows = rejected_rows(conn, job_id)
        if suffix == ".csv":
            # utf-8-sig: Excel opens it as UTF-8 instead of guessing a code page.
            with os.fdopen(fd, "w", encoding="utf-8-sig", newline="") as stream:
                count = _write_csv(stream, columns, rows)
                stream.flush()
                os.fsync(stream.fileno())
        else:
            os.close(fd)
            count = _write_xlsx(temp_name, columns, rows)
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
