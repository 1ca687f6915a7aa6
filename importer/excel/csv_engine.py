"""CSV files (UTF-8 with or without BOM, or Excel's UTF-16 "Unicode text"): all values are text."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from itertools import islice
from typing import TextIO

from importer.errors import InputError
from importer.excel.base import SheetReader, no_header
from importer.excel.layout import LEADING_ROWS
from importer.excel.sniff import Source
from importer.excel.values import Row

_FIELD_LIMIT = 1 << 20  # one cell of 1 MB is already absurd
_DELIMITERS = ",;\t|"


class CsvReader(SheetReader):
    engine = "csv"
    file_format = "csv"

    def __init__(self, source: Source, wanted_sheet: str | None) -> None:
        self._source = source
        self._name = source.name
        self.sheet_name = "csv"
        self.sheet_names = ["csv"]
        if wanted_sheet is not None and wanted_sheet not in ("csv", ""):
            raise InputError(f"{source.name}: a CSV file has no sheets (drop --sheet)")
        head = source.head(4)
        self._encoding = "utf-16" if head[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
        self._dialect = self._sniff_dialect()
        self._count: int | None = None
        shown = ((n, v) for n, v in self._records(None) if any(c and c.strip() for c in v))
        self.leading = [(n, tuple(v)) for n, v in islice(shown, LEADING_ROWS)]
        for number, values in self.leading:
            texts = [v.strip() if v is not None else "" for v in values]  # type: ignore[attr-defined]
            while texts and not texts[-1]:
                texts.pop()
            self.header = texts
            self.header_row = number
            return
        raise no_header(self._name, "csv")

    def reheaded(self) -> None:
        self._count = None

    def _text(self) -> TextIO:
        raw = self._source.open()
        return io.TextIOWrapper(raw, encoding=self._encoding, newline="", errors="strict")

    def _sniff_dialect(self) -> type[csv.Dialect] | csv.Dialect:
        with self._text() as handle:
            try:
                sample = handle.read(65536)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{self._name}: the text is not valid {self._encoding.split('-sig')[0]} "
                    f"(byte {exc.start}); save the CSV as 'CSV UTF-8'"
                ) from None
        if self._encoding == "utf-16" and "\t" in sample.split("\n", 1)[0]:
            return csv.excel_tab
        try:
            return csv.Sniffer().sniff(sample.split("\n", 20)[0] if sample else ",", _DELIMITERS)
        except csv.Error:
            return csv.excel

    def _records(self, width: int | None) -> Iterator[tuple[int, list[str | None]]]:
        csv.field_size_limit(_FIELD_LIMIT)
        with self._text() as handle:
            reader = csv.reader(handle, self._dialect)
            number = 0
            try:
                for record in reader:
                    number += 1
                    if width is not None and len(record) > width:
                        record = record[:width]
                    values: list[str | None]
                    if "" not in record:  # the usual row: no empty cell, one C-level check
                        if not record:
                            continue  # a blank line
                        values = record  # type: ignore[assignment]
                    else:
                        values = [v if v != "" else None for v in record]
                        if values.count(None) == len(values):
                            continue
                    if width is not None and len(values) < width:
                        values.extend([None] * (width - len(values)))
                    yield number, values
            except csv.Error as exc:
                raise InputError(f"{self._name}: line {reader.line_num}: {exc}") from None
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{self._name}: the text is not valid UTF-8 near record {number + 1} "
                    f"({exc.reason}); save the CSV as 'CSV UTF-8'"
                ) from None

    def rows(self) -> Iterator[Row]:
        width = len(self.header)
        for number, values in self._records(width):
            if number > self.header_row:
                yield Row(number, tuple(values))

    def count_rows(self) -> int:
        if self._count is None:
            width = len(self.header)
            self._count = sum(1 for n, _ in self._records(width) if n > self.header_row)
        return self._count
