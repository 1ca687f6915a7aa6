""".xls (BIFF, Excel 97-2003 and older) read by xlrd, with its formatting records.

Why xlrd and not calamine for this format (measured on a 65,536 x 10 .xls written by
LibreOffice, the largest a sheet of this format can be): calamine parses it in 0.09 s but
(a) reserves memory for every sheet's claimed DIMENSIONS and dense bounding box when the
workbook is opened, so a 41 KB file can make it take gigabytes or abort the process, and
(b) gives no number formats (zip code 00501 arrives as 501) and reads error cells (#N/A)
as empty. Bounding it safely needs a walk over every record of every sheet, which in Python
costs 0.54 s; xlrd's whole parse of that sheet costs 0.58 s, keeps memory proportional to
the file (ragged rows, no padding) and gives every cell's format and error code. So xlrd
reads every .xls: as fast as a safe calamine, and exact.

Cells are normalized exactly as the other engines do (see values.py): numbers as float,
date formats as date/datetime/time (durations for [h]:mm formats), zero-padded formats as
NumberText, error cells as CellError.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import xlrd

from importer.errors import InputError
from importer.excel.base import (
    SheetReader,
    first_row_header,
    first_with_header,
    sheet_candidates,
)
from importer.excel.guard import failure_text
from importer.excel.sniff import Source
from importer.excel.special_cells import number_with_format
from importer.excel.values import (
    CellError,
    Row,
    serial_to_value,
    zero_padded_width,
)

_EMPTY, _TEXT, _NUMBER, _DATE, _BOOLEAN, _ERROR, _BLANK = range(7)
# xlrd's memory for a workbook, measured: 62 MB for a 12 MB .xls (650,000 cells), the file
# itself included; 8x leaves room for files that pack cells tighter (MULRK, MULBLANK).
FILE_FACTOR = 8
# Elapsed-time formats ([h]:mm:ss): durations, as the other engines give them.
_ELAPSED = re.compile(r"\[(?:h+|m+|s+)\]", re.IGNORECASE)


def open_xls_book(source: Source) -> Any:
    """The workbook's globals (sheets, formats, date system); sheets load when asked."""
    with source.open() as handle:
        content = handle.read()
    log = io.StringIO()  # xlrd writes its warnings to a log file; nothing here prints
    try:
        try:
            return xlrd.open_workbook(
                file_contents=content,
                formatting_info=True,
                on_demand=True,
                ragged_rows=True,
                logfile=log,
            )
        except NotImplementedError:  # formatting records of the oldest BIFF versions
            return xlrd.open_workbook(
                file_contents=content, on_demand=True, ragged_rows=True, logfile=log
            )
    except Exception as exc:  # xlrd asserts, or fails on a struct, as well as refusing
        text = failure_text(exc)
        if isinstance(exc, xlrd.XLRDError) and "encrypted" in text.lower():
            raise InputError(
                f"{source.name}: the workbook is password-protected; remove the password "
                "and try again"
            ) from None
        raise XlrdCannotParse(
            f"{source.name}: the workbook cannot be read ({text})", reason=text
        ) from None


class XlrdCannotParse(InputError):
    """xlrd could not parse the workbook; another reader may (see xls_scan.py)."""

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason  # xlrd's own words, one line


def xlrd_sheets(book: Any) -> list[tuple[str, bool]]:
    """(name, visible) of the workbook's worksheets, as xlrd lists them."""
    names = list(book.sheet_names())
    visibility = list(book._sheet_visibility) + [0] * len(names)
    return [(name, visibility[i] == 0) for i, name in enumerate(names)]


class XlrdReader(SheetReader):
    """A sheet read by xlrd, from bytes the safety pass checked (xls_scan.check_xls), which
    ``hold`` checks once more for the sheet chosen, before xlrd lays it out."""

    engine = "xlrd"
    file_format = "xls"

    def __init__(
        self, source: Source, wanted_sheet: str | None, hold: Callable[[str], None]
    ) -> None:
        self._name = source.name
        self._hold = hold
        self._book: Any = None
        self._book = open_xls_book(source)
        try:
            book = self._book
            sheets = xlrd_sheets(book)
            self.sheet_names = [name for name, _ in sheets]
            self.date1904 = book.datemode == 1
            self._formats = _cell_formats(book)
            self._count: int | None = None
            first_with_header(sheet_candidates(source.name, wanted_sheet, sheets), self._load)
        except BaseException:
            self.close()
            raise

    def _load(self, sheet: str) -> None:
        self.sheet_name = sheet
        self._hold(sheet)
        self._sheet = self._book.sheet_by_name(sheet)
        try:
            self._find_header()
        except BaseException:
            self._book.unload_sheet(sheet)
            raise

    def _find_header(self) -> None:
        self.header, self.header_row, self.leading = first_row_header(
            self._rows(None), self._name, self.sheet_name
        )
        # xlrd's merged ranges (read with the formatting records): half-open, 0-based.
        self.merges = [
            (top + 1, left, bottom, right - 1)
            for top, bottom, left, right in (getattr(self._sheet, "merged_cells", None) or ())
        ]

    def reheaded(self) -> None:
        self._count = None

    def _rows(self, width: int | None) -> Iterator[tuple[int, list[object]]]:
        """(Excel row number, normalized values) of each non-blank row, cut to `width`."""
        sheet = self._sheet
        formats = self._formats
        xf_rows = sheet._cell_xf_indexes if formats else None
        for index in range(sheet.nrows):
            types = sheet._cell_types[index]
            if width is not None:
                types = types[:width]
            if not any(t not in (_EMPTY, _BLANK) for t in types):
                continue
            cells = sheet._cell_values[index]
            xfs = xf_rows[index] if xf_rows else None
            values: list[object] = []
            for col, kind in enumerate(types):
                values.append(self._value(kind, cells[col], formats.get(xfs[col]) if xfs else None))
            if not any(v is not None for v in values):
                continue
            if width is not None and len(values) < width:
                values.extend([None] * (width - len(values)))
            yield index + 1, values

    def _value(self, kind: int, value: Any, shown: tuple[str, int] | None) -> object:
        if kind == _TEXT:
            return value if value != "" else None
        if kind == _NUMBER:
            if shown is not None and shown[0] == "zero":
                return number_with_format(float(value), shown[1])
            return float(value)
        if kind == _DATE:
            number = float(value)
            if shown is not None and shown[0] == "elapsed":
                return timedelta(milliseconds=round(number * 86_400_000))
            try:
                return serial_to_value(number, self.date1904)
            except (OverflowError, ValueError):
                return number
        if kind == _BOOLEAN:
            return bool(value)
        if kind == _ERROR:
            return CellError(xlrd.error_text_from_code.get(value, "#VALUE!"))
        return None

    def rows(self) -> Iterator[Row]:
        width = len(self.header)
        for number, values in self._rows(width):
            if number > self.header_row:
                yield Row(number, tuple(values))

    def count_rows(self) -> int:
        if self._count is None:
            self._count = sum(1 for _ in self.rows())
        return self._count

    def close(self) -> None:
        book, self._book = self._book, None
        if book is not None:
            book.release_resources()


def _cell_formats(book: Any) -> dict[int, tuple[str, int]]:
    """XF index -> ("zero", digits) for zero-padded number formats, ("elapsed", 0) for
    duration formats: the formats that change what a cell is, beyond what xlrd gives."""
    out: dict[int, tuple[str, int]] = {}
    format_map = getattr(book, "format_map", {}) or {}
    for index, xf in enumerate(getattr(book, "xf_list", []) or []):
        fmt = format_map.get(xf.format_key)
        if fmt is None:
            continue
        text = fmt.format_str or ""
        width = zero_padded_width(text)
        if width is not None:
            out[index] = ("zero", width)
        elif _ELAPSED.search(text):
            out[index] = ("elapsed", 0)
    return out
