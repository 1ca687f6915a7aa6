"""A resumed read of an .xlsx sheet: only the rows after the last committed one are parsed.

calamine parses a whole sheet before it gives a row, so a job resumed half-way would parse
its committed half again. A sheet read in pieces starts at the piece holding the next row by
itself; any other is cut (xlsx_trim) and the cut workbook read instead. Either is used only
when it provably holds exactly the rows still to import; otherwise the caller reads the
whole sheet and skips the committed rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from importer.config import Engine
from importer.errors import ImporterError
from importer.excel.base import SheetReader
from importer.excel.layout import HeaderLayout
from importer.excel.reader import open_sheet, reads_in_pieces
from importer.excel.xlsx_trim import without_rows


def open_rows_after(
    content: bytes,
    *,
    sheet: str,
    engine: str,
    header: Sequence[str],
    header_row: int,
    last_row: int,
    rows_left: int,
    file_name: str,
    memory_budget_mb: int = 512,
    layout: HeaderLayout | None = None,
) -> SheetReader | None:
    """The sheet of the workbook ``content`` (bytes that passed open_sheet before) giving
    only its rows after Excel row ``last_row``: the same header at ``header_row`` as the
    first read found, and ``rows_left`` rows after ``last_row``. None when that cannot be
    proven, or gains nothing: a streaming read (``engine`` other than calamine) parses no
    row ahead of the one it gives."""
    if engine != Engine.CALAMINE:
        return None
    if reads_in_pieces(content, sheet, memory_budget_mb):
        reader = _calamine(content, sheet, file_name, memory_budget_mb, layout)
        if reader is None:
            return None
        # Read in pieces, the sheet starts at the piece holding the next row by itself.
        if reader.reads_in_pieces and (reader.header, reader.header_row) == (
            list(header),
            header_row,
        ):
            return reader
        reader.close()
        return None
    trimmed = without_rows(content, sheet, header_row, last_row)
    if trimmed is None:
        return None
    reader = _calamine(trimmed, sheet, file_name, memory_budget_mb, layout)
    if reader is None:
        return None
    if (
        reader.engine == Engine.CALAMINE
        and reader.header == list(header)
        and reader.header_row == header_row
        # Rows out of order in the XML (Excel never writes them so) would be cut wrongly.
        and reader.count_rows_after(last_row) == rows_left
    ):
        return reader
    reader.close()
    return None


def _calamine(
    content: bytes,
    sheet: str,
    file_name: str,
    memory_budget_mb: int,
    layout: HeaderLayout | None,
) -> SheetReader | None:
    try:
        return open_sheet(
            content,
            sheet=sheet,
            engine=Engine.CALAMINE,
            file_name=file_name,
            memory_budget_mb=memory_budget_mb,
            checked=True,
            layout=layout,
        )
    except ImporterError:
        return None
