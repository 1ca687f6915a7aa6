"""The columnar path: an .xlsx sheet's rows checked as columns (see batches.py).

A big sheet (MIN_SHEET_BYTES of XML and more) of a form the checks cover, its header where
the row path would find it by itself, runs so; ``open_columnar`` opens it, or gives None
when the row-at-a-time path must read it (a sheet that cannot be cut, a header not among
its first rows). Below that size the row path is as fast and holds ~100 MB less (polars,
fastexcel and the shared strings in both): 60,000 rows took 2.8-3.2 s either way here,
200,000 rows 12% less in columns. ``IMPORTER_TEST_COLUMNAR`` overrides the size for the
tests and the bench: 1, every .xlsx sheet; 0, none.
"""

from __future__ import annotations

import io
import os
import zipfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polars, fastexcel and numpy load only where a sheet is read so
    from importer.columnar.sheet import ColumnarSheet
    from importer.forms.definition import Form

__all__ = [
    "MIN_SHEET_BYTES",
    "SWITCH",
    "columnar_may_read",
    "open_columnar",
    "runs_as_columns",
]


MIN_SHEET_BYTES = 24 << 20  # of the sheet's XML: about 75,000 rows of ten columns
SWITCH = "IMPORTER_TEST_COLUMNAR"


def columnar_may_read(file_name: str, content: bytes) -> bool:
    """Whether a job of this file may run as columns (its form decides: runs_as_columns)."""
    switch = os.environ.get(SWITCH)
    if switch == "0" or not file_name.lower().endswith((".xlsx", ".xlsm")):
        return False
    return switch == "1" or _largest_sheet_bytes(content) >= MIN_SHEET_BYTES


def _largest_sheet_bytes(content: bytes) -> int:
    """The largest worksheet part's XML, as the zip's directory gives it (0: none where
    Excel puts them, or not a zip)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return max(
                (
                    i.file_size
                    for i in archive.infolist()
                    if i.filename.lower().startswith("xl/worksheets/")
                ),
                default=0,
            )
    except (zipfile.BadZipFile, OSError, ValueError):
        return 0


def runs_as_columns(form: Form, file_name: str, content: bytes, sheet_layout: object) -> bool:
    """Whether a job of this form and file, its header where ``sheet_layout`` (the job's)
    says, runs as columns when no sheet is handed to its run."""
    if not columnar_may_read(file_name, content):
        return False
    from importer.columnar.checks import unsupported

    return (
        unsupported(form) is None and sheet_layout is None and not form.layout.excel(None).filters
    )


def open_columnar(
    content: bytes, *, sheet: str, file_name: str, form: Form, after_row: int
) -> ColumnarSheet | None:
    """The job's sheet as pieces of columns, or None when the row path must read it (the
    caller checked runs_as_columns)."""
    from importer.columnar.sheet import ColumnarSheet
    from importer.errors import InputError
    from importer.excel.sniff import make_source
    from importer.excel.xlsx_parts import read_xlsx_info
    from importer.excel.xlsx_pieces import CannotCut

    source = make_source(content, file_name)
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, file_name)
        part = next((s.path for s in info.sheets if s.name == sheet), None)
        if part is None:
            return None
        return ColumnarSheet(source, info, part, sheet_name=sheet, after_row=after_row)
    except (CannotCut, InputError, zipfile.BadZipFile, OSError):
        return None
