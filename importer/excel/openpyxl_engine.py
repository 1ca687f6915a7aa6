"""The streaming engine: constant memory on any sheet size (.xlsx/.xlsm only).

openpyxl (read-only, XML parsed through defusedxml) provides the workbook: sheets,
shared strings, date styles and the 1900/1904 date system. The sheet itself is parsed
here, row by row, so that every cell is normalized exactly as the calamine engine does
(see values.py) and nothing is padded: ghost rows and columns cost nothing.
"""

from __future__ import annotations

import re
import warnings
import zipfile
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any, BinaryIO
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from importer.errors import InputError
from importer.excel.base import (
    MAX_COLS,
    MAX_ROWS,
    SheetReader,
    choose_sheet,
    first_row_header,
)
from importer.excel.sniff import Source
from importer.excel.special_cells import number_with_format
from importer.excel.values import CellError, Row, normalize_moment, serial_to_value
from importer.excel.xlsx_scan import column_index

_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_ROW, _C, _V, _F, _IS, _T = (f"{_NS}{t}" for t in ("row", "c", "v", "f", "is", "t"))
_SHEET_DATA = f"{_NS}sheetData"
_STRICT_NS = "{http://purl.oclc.org/ooxml/spreadsheetml/main}"

_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _unescape(text: str) -> str:
    """OOXML's _xHHHH_ escapes (characters XML cannot hold, and _x005F_ for "_")."""
    if "_x" not in text:
        return text
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


def open_openpyxl_workbook(source: Source, handle: BinaryIO) -> Any:
    import openpyxl  # here: a calamine-only process never pays for importing it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about unsupported extensions
            return openpyxl.load_workbook(handle, read_only=True, data_only=True, keep_links=False)
    except zipfile.BadZipFile:
        raise InputError(f"{source.name}: the file is damaged or truncated") from None
    except Exception as exc:  # openpyxl raises many types for damaged or unsafe parts
        if _unsafe(exc):
            raise InputError(
                f"{source.name}: the workbook declares XML entities or a DTD, refused as unsafe"
            ) from None
        raise InputError(
            f"{source.name}: the workbook cannot be read ({type(exc).__name__}: {str(exc)[:150]})"
        ) from None


def _unsafe(exc: BaseException) -> bool:
    """defusedxml refused the XML (possibly wrapped by openpyxl)."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            return False
        if isinstance(seen, DefusedXmlException):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class OpenpyxlReader(SheetReader):
    engine = "openpyxl"
    file_format = "xlsx"

    def __init__(
        self, source: Source, wanted_sheet: str | None, *, zero_styles: dict[int, int]
    ) -> None:
        self._name = source.name
        self._handle = source.open()  # ours to close: openpyxl leaves a passed file open
        try:
            self._workbook = open_openpyxl_workbook(source, self._handle)
        except BaseException:
            self._handle.close()
            raise
        try:
            wb = self._workbook
            sheets = [(ws.title, ws.sheet_state == "visible") for ws in wb.worksheets]
            self.sheet_names = [name for name, _ in sheets]
            charts = [chart.title for chart in wb.chartsheets]
            self.sheet_name = choose_sheet(source.name, wanted_sheet, sheets, charts)
            self._ws = wb[self.sheet_name]
            self.date1904 = wb.epoch.year == 1904
            self._strings = self._ws._shared_strings
            self._date_styles: set[int] = set(wb._date_formats)
            self._duration_styles: set[int] = set(wb._timedelta_formats)
            self._zero_styles = zero_styles
            self._count: int | None = None
            self._find_header()
        except BaseException:
            self.close()
            raise

    def _find_header(self) -> None:
        self.header, self.header_row, self.leading = first_row_header(
            self._iter_sheet(None), self._name, self.sheet_name
        )

    def reheaded(self) -> None:
        self._count = None

    def _iter_sheet(self, width: int | None) -> Iterator[tuple[int, list[object]]]:
        """(row number, values) of each non-blank row; values cut to `width` columns."""
        try:
            source = self._ws._get_source()
        except KeyError:
            raise InputError(f"{self._name}: the sheet's part is missing from the file") from None
        row_counter = 0
        sheet_data: Element | None = None
        try:
            with source:
                for event, element in iterparse(source, events=("start", "end")):
                    if event == "start":
                        if element.tag == _SHEET_DATA or element.tag == f"{_STRICT_NS}sheetData":
                            sheet_data = element
                        continue
                    if element.tag != _ROW:
                        continue
                    ref = element.get("r")
                    row_counter = int(ref) if ref else row_counter + 1
                    if not 0 < row_counter <= MAX_ROWS:
                        raise InputError(
                            f"{self._name}: row number {row_counter} is beyond Excel's limit "
                            f"({MAX_ROWS}); refusing an absurd file"
                        )
                    values = self._row_values(element, row_counter, width)
                    if sheet_data is not None:
                        sheet_data.clear()  # keep memory constant: processed rows go
                    if values is not None:
                        yield row_counter, values
        except InputError:
            raise
        except (zipfile.BadZipFile, EOFError, OSError) as exc:
            raise InputError(f"{self._name}: the file is damaged or truncated ({exc})") from None
        except Exception as exc:  # XML errors, defusedxml refusals
            if _unsafe(exc):
                raise InputError(
                    f"{self._name}: sheet {self.sheet_name!r} declares XML entities or a DTD, "
                    "refused as unsafe"
                ) from None
            raise InputError(
                f"{self._name}: the sheet {self.sheet_name!r} cannot be read "
                f"({type(exc).__name__}: {str(exc)[:150]})"
            ) from None

    def _row_values(self, row: Element, number: int, width: int | None) -> list[object] | None:
        values: list[object] = []
        col = 0
        for cell in row:
            if cell.tag != _C:
                continue
            ref = cell.get("r")
            if ref:
                letters = ref.rstrip("0123456789")
                col = column_index(letters) if letters else col + 1
            else:
                col += 1
            if col > MAX_COLS or col < 1:
                raise InputError(
                    f"{self._name}: cell reference {ref!r} is beyond Excel's limit; "
                    "refusing an absurd file"
                )
            if width is not None and col > width:
                break  # ghost columns beyond the header
            value = self._cell_value(cell)
            if value is None:
                continue
            if col > len(values):
                values.extend([None] * (col - len(values)))
            values[col - 1] = value
        if not values:
            return None
        if width is not None and len(values) < width:
            values.extend([None] * (width - len(values)))
        return values

    def _cell_value(self, cell: Element) -> object:
        kind = cell.get("t", "n")
        text: str | None = None
        formula: Element | None = None
        inline: Element | None = None
        has_value = False
        for child in cell:
            tag = child.tag
            if tag == _V:
                text = child.text
                has_value = True
            elif tag == _F:
                formula = child
            elif tag == _IS:
                inline = child
        if kind == "n":
            if not text:
                return CellError("", formula.text or None) if formula is not None else None
            number = float(text)
            style = int(cell.get("s", "0"))
            if style in self._date_styles:
                if style in self._duration_styles:
                    return timedelta(milliseconds=round(number * 86_400_000))
                try:
                    return serial_to_value(number, self.date1904)
                except (OverflowError, ValueError):
                    return number
            if style in self._zero_styles:
                return number_with_format(number, self._zero_styles[style])
            return number
        if kind == "s":
            if text is None:
                return None
            index = int(text)
            if not 0 <= index < len(self._strings):
                # A negative index would silently read from the end of the table.
                raise InputError(
                    f"{self._name}: cell {cell.get('r') or '?'} points at shared string "
                    f"{index}, which does not exist; the file is damaged"
                )
            value = self._strings[index]
            return _unescape(value) if value != "" else None
        if kind == "inlineStr":
            if inline is None:
                return None
            joined = "".join(t.text or "" for t in inline.iter(_T))
            return _unescape(joined) or None
        if kind == "str":
            if formula is not None and not has_value:
                return CellError("", formula.text or None)
            return _unescape(text) if text else None
        if kind == "b":
            return None if not text else text.strip() in ("1", "true")
        if kind == "e":
            return CellError((text or "").strip() or "#VALUE!")
        if kind == "d":
            if not text:
                return None
            try:
                return normalize_moment(datetime.fromisoformat(text))
            except ValueError:
                return text
        return text or None

    def rows(self) -> Iterator[Row]:
        width = len(self.header)
        for number, values in self._iter_sheet(width):
            if number <= self.header_row:
                continue
            yield Row(number, tuple(values))

    def count_rows(self) -> int:
        if self._count is None:
            width = len(self.header)
            self._count = sum(1 for n, _ in self._iter_sheet(width) if n > self.header_row)
        return self._count

    def close(self) -> None:
        workbook, self._workbook = self._workbook, None
        if workbook is not None:
            workbook.close()
        self._handle.close()
