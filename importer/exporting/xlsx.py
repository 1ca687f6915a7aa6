"""An export's rows as one Excel sheet, written row by row in constant memory (xlsxwriter).

The sheet is named after the form; the header (the export's column names) is bold, frozen
and filtered. Values keep their kind: numbers as numbers (a decimal with its scale's
format: 0.00), dates and date-times as Excel dates (date-times in UTC: Excel has no time
zones), booleans as TRUE/FALSE, texts as text (never run as a formula or made a link). What
an Excel cell would change is written as text instead: an integer beyond 2^53 (an Excel
number would round it) as its digits, a date before 1900 as its ISO text; NaN and Infinity
become Excel's errors. A text longer than a cell holds (32,767
characters) is refused: the file is never written with a cut value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import Any

import polars as pl
import xlsxwriter

from importer.errors import UsageError
from importer.exporting.frames import ExportPlan

MAX_ROWS = 1_048_575  # a sheet's 1,048,576 rows, less the header
MAX_CELL_CHARS = 32_767
_EXACT = 2**53  # integers an Excel number (a double) holds exactly
_FIRST_YEAR = 1900  # Excel's dates start on 1900-01-01
_SHEET_NAME = re.compile(r"[\[\]:*?/\\]")

Write = Callable[[int, int, Any], None]


def sheet_name(form: str) -> str:
    """The form's name as Excel allows a sheet's: at most 31 characters, none of []:*?/\\."""
    name = _SHEET_NAME.sub("_", form)[:31].strip("'")
    return name or "rows"


def _decimal_format(scale: int) -> str:
    return "0" if scale <= 0 else "0." + "0" * min(scale, 30)


def write_sheet(temp: str, plan: ExportPlan, frames: Iterable[pl.DataFrame]) -> int:
    """Write the frames below a header into ``temp``; the rows written."""
    book = xlsxwriter.Workbook(
        temp,
        {
            "constant_memory": True,  # each row goes to disk once the next one starts
            "strings_to_formulas": False,
            "strings_to_urls": False,
            "strings_to_numbers": False,
            "nan_inf_to_errors": True,
        },
    )
    try:
        sheet = book.add_worksheet(sheet_name(plan.form))
        bold = book.add_format({"bold": True})
        names = list(plan.schema)
        writers = [_writer(book, sheet, plan.schema[n]) for n in names]
        for column, name in enumerate(names):
            sheet.write_string(0, column, name, bold)
            sheet.set_column(column, column, _width(name, plan.schema[name]))
        sheet.freeze_panes(1, 0)
        row = 0
        for frame in frames:
            _check_texts(frame)
            for values in _excel_values(frame).iter_rows():
                row += 1
                for column, value in enumerate(values):
                    if value is not None:
                        writers[column](row, column, value)
        sheet.autofilter(0, 0, max(row, 1), max(len(names) - 1, 0))
    finally:
        book.close()
    return row


def _width(name: str, dtype: pl.DataType) -> float:
    least = 20 if isinstance(dtype, pl.Datetime) else 12 if dtype in (pl.Date, pl.Decimal) else 10
    return float(min(max(len(name) + 3, least), 40))


def _excel_values(frame: pl.DataFrame) -> pl.DataFrame:
    """Date-times as Excel's naive UTC, decimals as Excel numbers (doubles)."""
    changes = []
    for name, dtype in frame.schema.items():
        if isinstance(dtype, pl.Datetime) and dtype.time_zone is not None:
            changes.append(pl.col(name).dt.convert_time_zone("UTC").dt.replace_time_zone(None))
        elif isinstance(dtype, pl.Decimal):
            changes.append(pl.col(name).cast(pl.Float64))
    return frame.with_columns(changes) if changes else frame


def _check_texts(frame: pl.DataFrame) -> None:
    for name, dtype in frame.schema.items():
        if dtype == pl.String:
            longest = frame.get_column(name).str.len_chars().max()
            if isinstance(longest, int) and longest > MAX_CELL_CHARS:
                raise UsageError(
                    f"column {name} holds a text of {longest:,} characters, more than an "
                    f"Excel cell holds ({MAX_CELL_CHARS:,}); write .parquet or .csv instead"
                )


def _writer(book: Any, sheet: Any, dtype: pl.DataType) -> Write:
    """How a value of this column goes into its cell."""
    if isinstance(dtype, pl.Decimal):
        number = book.add_format({"num_format": _decimal_format(dtype.scale or 0)})
        return lambda r, c, v: sheet.write_number(r, c, v, number)
    if isinstance(dtype, pl.Datetime):
        moment = book.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})

        def write_moment(r: int, c: int, v: datetime) -> None:
            if v.year < _FIRST_YEAR:
                sheet.write_string(r, c, v.isoformat(sep=" "))
            else:
                sheet.write_datetime(r, c, v, moment)

        return write_moment
    if dtype == pl.Date:
        day = book.add_format({"num_format": "yyyy-mm-dd"})

        def write_day(r: int, c: int, v: date) -> None:
            if v.year < _FIRST_YEAR:
                sheet.write_string(r, c, v.isoformat())
            else:
                sheet.write_datetime(r, c, v, day)

        return write_day
    if dtype == pl.Int64:

        def write_integer(r: int, c: int, v: int) -> None:
            if -_EXACT <= v <= _EXACT:
                sheet.write_number(r, c, v)
            else:
                sheet.write_string(r, c, str(v))

        return write_integer
    if dtype == pl.Float64:
        return lambda r, c, v: sheet.write_number(r, c, v)
    if dtype == pl.Boolean:
        return lambda r, c, v: sheet.write_boolean(r, c, v)
    return lambda r, c, v: sheet.write_string(r, c, v)
