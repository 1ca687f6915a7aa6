"""The columnar path: an .xlsx sheet's rows checked as columns (see batches.py).

Not yet the default: it stores exactly what the row path stores, faster on big sheets
(200,000 rows: 6% less time; 1,000,000 rows: 19% less) but holding more there (524 MB
against 414 MB at 1,000,000 rows), and slower below ~60,000 rows (docs/ARCHITECTURE.md,
"The columnar path"). ``IMPORTER_TEST_COLUMNAR=1`` turns it on for every .xlsx sheet of a
form its checks cover, its header where the row path finds it by itself: the tests and
the bench run it so. ``open_columnar`` gives None when the row path must read the sheet
after all (a sheet that cannot be cut, a header not among its first rows).
"""

from __future__ import annotations

import os
import zipfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polars, fastexcel and numpy load only where a sheet is read so
    from importer.columnar.sheet import ColumnarSheet
    from importer.forms.definition import Form

__all__ = [
    "SWITCH",
    "columnar_may_read",
    "open_columnar",
    "runs_as_columns",
]


SWITCH = "IMPORTER_TEST_COLUMNAR"


def columnar_may_read(file_name: str) -> bool:
    """Whether a job of this file may run as columns (its form decides: runs_as_columns)."""
    return os.environ.get(SWITCH) == "1" and file_name.lower().endswith((".xlsx", ".xlsm"))


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
