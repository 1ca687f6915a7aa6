"""The columnar path: an .xlsx sheet's rows checked as columns (see batches.py).

``open_columnar`` says whether a job's sheet can be read so, and opens it; None: the
row-at-a-time path reads it (another format, a form the checks do not cover, a layout with
rows that are not data, a sheet that cannot be cut).
"""

from __future__ import annotations

import zipfile

from importer.columnar.checks import unsupported
from importer.columnar.sheet import ColumnarSheet, NotAligned
from importer.forms.definition import Form

__all__ = ["ColumnarSheet", "NotAligned", "open_columnar", "unsupported"]


def open_columnar(
    content: bytes, *, sheet: str, file_name: str, form: Form, after_row: int
) -> ColumnarSheet | None:
    """The job's sheet as pieces of columns, or None when the row path must read it."""
    import os

    from importer.errors import InputError
    from importer.excel.calamine_pieces import PiecewiseReader
    from importer.excel.sniff import make_source
    from importer.excel.xlsx_parts import read_xlsx_info
    from importer.excel.xlsx_pieces import CannotCut, plan_pieces

    # Not yet the default: it stores exactly what the row path stores but is not yet faster
    # end to end (docs/ARCHITECTURE.md, "The columnar path"); tests and the bench turn it on.
    if not os.environ.get("IMPORTER_TEST_COLUMNAR"):
        return None
    if unsupported(form) is not None or not file_name.lower().endswith((".xlsx", ".xlsm")):
        return None
    source = make_source(content, file_name)
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, file_name)
        part = next((s.path for s in info.sheets if s.name == sheet), None)
        if part is None:
            return None
        from importer.columnar.sheet import PIECE_BYTES

        plan = plan_pieces(source, part, PIECE_BYTES)
        # The header as the row path finds it, from the first piece.
        names = [s.name for s in info.sheets]
        with PiecewiseReader(source, sheet, info, plan, names) as first:
            header, header_row = list(first.header), first.header_row
        return ColumnarSheet(
            source,
            info,
            plan,
            sheet_name=sheet,
            header=header,
            header_row=header_row,
            after_row=after_row,
        )
    except (CannotCut, InputError, zipfile.BadZipFile, OSError):
        return None
