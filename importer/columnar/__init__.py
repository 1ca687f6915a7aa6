"""The columnar path: an .xlsx sheet's rows checked as columns (see batches.py).

It stores exactly what the row path stores. It is the default for big sheets, where it is
faster (1,000,000 rows: 13.1 s against 24.3 s in the last bench run; 200,000 rows 2.91 s
against 3.65 s); it holds ~70-80 MB more on small ones (docs/ARCHITECTURE.md, "The
columnar path"). ``IMPORTER_TEST_COLUMNAR=1`` turns it on for every .xlsx sheet, whatever
its size, and ``=0`` off: the tests and the bench run it so. Either way it reads only
sheets of a form its checks cover, its header where the row path finds it by itself;
``open_columnar`` gives None when the row path must read the sheet after all (a small sheet,
a sheet that cannot be cut, a header not among its first rows).
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polars, fastexcel and numpy load only where a sheet is read so
    from importer.columnar.sheet import ColumnarSheet
    from importer.forms.definition import Form

__all__ = [
    "SWITCH",
    "Safety",
    "columnar_may_read",
    "open_columnar",
    "runs_as_columns",
]


SWITCH = "IMPORTER_TEST_COLUMNAR"
# A sheet's XML from which the columnar path reads it by default: ~160,000 rows of ten
# columns as Excel writes them, between where the paths took the same time (120,000 rows,
# 40 MB) and where the columnar one was 11% faster (200,000 rows, 67 MB).
BIG_SHEET_BYTES = 56 << 20


def _switch() -> str | None:
    return os.environ.get(SWITCH)


def columnar_may_read(file_name: str, content: bytes | None = None) -> bool:
    """Whether a job of this file may run as columns: an .xlsx, the path not turned off,
    and (given the ``content``) a sheet big enough. Its form decides: runs_as_columns."""
    if _switch() == "0" or not file_name.lower().endswith((".xlsx", ".xlsm")):
        return False
    if content is None or _switch() == "1":
        return True
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return any(
                i.file_size >= BIG_SHEET_BYTES and i.filename.lower().startswith("xl/worksheets/")
                for i in archive.infolist()
            )
    except (zipfile.BadZipFile, OSError):
        return False


def runs_as_columns(form: Form, file_name: str, sheet_layout: object) -> bool:
    """Whether a job of this form and file, its header where ``sheet_layout`` (the job's)
    says, runs as columns when no sheet is handed to its run."""
    if not columnar_may_read(file_name):
        return False
    from importer.columnar.checks import unsupported

    return (
        unsupported(form) is None and sheet_layout is None and not form.layout.excel(None).filters
    )


def open_columnar(
    content: bytes,
    *,
    sheet: str,
    file_name: str,
    form: Form,
    after_row: int,
    safety: Safety | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> ColumnarSheet | None:
    """The job's sheet as pieces of columns, or None when the row path must read it (the
    caller checked runs_as_columns). ``safety``: bytes whose safety pass is still to come
    (a peek measured only their first rows): the split takes its measures and the pass's
    verdict follows, an InputError as the pass's own; None when the row path must read
    them (with checked=False). ``on_progress``: how much of the sheet's XML the split has
    read (0 to 1), as each piece is written."""
    from importer.errors import InputError
    from importer.excel.reader import calamine_may_read
    from importer.excel.sniff import make_source
    from importer.excel.xlsx_parts import read_xlsx_info
    from importer.excel.xlsx_pieces import CannotCut

    source = make_source(content, file_name)
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, file_name)
            part = next((s.path for s in info.sheets if s.name == sheet), None)
            held = archive.NameToInfo.get(part) if part is not None else None
            if held is None or (_switch() != "1" and held.file_size < BIG_SHEET_BYTES):
                return None  # a small sheet: the row path is the faster one
        assert part is not None
        from importer.columnar.sheet import ColumnarSheet  # polars: only for a sheet it reads

        size = max(held.file_size, 1)  # as the package declares it: a lie is only shown
        columns = ColumnarSheet(
            source,
            info,
            part,
            sheet_name=sheet,
            after_row=after_row,
            measured=safety is not None,
            on_piece=None if on_progress is None else lambda done: on_progress(min(done / size, 1)),
        )
    except (CannotCut, InputError, zipfile.BadZipFile, OSError):
        return None
    if safety is None or columns.measures is None:
        columns.read_ahead()
        return columns
    try:
        calamine_reads = calamine_may_read(
            content,
            sheet=sheet,
            measured=columns.measures,
            engine=safety.engine,
            memory_budget_mb=safety.memory_budget_mb,
            file_name=file_name,
        )
    except BaseException:
        columns.close()
        raise
    if not calamine_reads:
        columns.close()
        return None
    columns.read_ahead()
    return columns


@dataclass(frozen=True)
class Safety:
    """How open_sheet would have been asked for bytes not checked yet (open_columnar)."""

    engine: str = "auto"
    memory_budget_mb: int = 512
