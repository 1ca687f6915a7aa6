"""Rejected rows' cells as typed JSON, so that the error workbook gives each value back as
the sender wrote it: a number as a number, a date as a date.

``import_rejected_rows.row_values`` keeps every cell as text (what messages quote);
``row_cells`` (migration 0007) keeps the same cells typed, one JSON value per cell:

    null                                   an empty cell
    "text"                                 a text cell
    12.5, true                             a number, a TRUE/FALSE cell
    {"date": "2024-08-19"}                 also "datetime" (ISO 8601) and "time"
    {"duration": 5400.0}                   seconds
    {"number": 123.0, "text": "00123"}     a number shown with leading zeros
    {"error": "#DIV/0!"}                   an error cell ("" for a formula never calculated)

Rows rejected before 0007 have texts only: a text that reads back as exactly the same number
is given back as that number, any other text as text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from importer.excel.values import CellError, NumberText, display_text, number_text


@dataclass(frozen=True, slots=True)
class TypedCell:
    """A value as the error workbook writes it: openpyxl's value and its number format."""

    value: str | float | bool | date | datetime | time | timedelta | None
    number_format: str | None = None  # None: General
    error: bool = False  # value is an error code such as #DIV/0!


DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
TIME_FORMAT = "hh:mm:ss"
DURATION_FORMAT = "[h]:mm:ss"
_DIGITS_ONLY = frozenset("0123456789")


def _storable(text: str) -> str:
    # PostgreSQL's jsonb holds no NUL: the same replacement the texts get (validate.py).
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


def encode_cell(value: object) -> Any:
    """One normalized cell value (see excel/values.py) as its typed JSON value."""
    kind = type(value)
    if value is None:
        return None
    if kind is str:
        return _storable(value)  # type: ignore[arg-type]
    if kind is bool:
        return value
    if kind is float or kind is int:
        number = float(value)  # type: ignore[arg-type]
        return number if math.isfinite(number) else display_text(value)
    if kind is datetime:
        return {"datetime": value.isoformat()}  # type: ignore[attr-defined]
    if kind is date:
        return {"date": value.isoformat()}  # type: ignore[attr-defined]
    if kind is time:
        return {"time": value.isoformat()}  # type: ignore[attr-defined]
    if kind is timedelta:
        return {"duration": value.total_seconds()}  # type: ignore[attr-defined]
    if kind is NumberText:
        return {"number": value.value, "text": _storable(value.text)}  # type: ignore[attr-defined]
    if kind is CellError:
        return {"error": value.code}  # type: ignore[attr-defined]
    text = display_text(value)
    return None if text is None else _storable(text)


def encode_cells(values: Sequence[object]) -> list[Any]:
    return [encode_cell(value) for value in values]


def decode_cell(stored: Any) -> TypedCell:
    """A stored typed JSON value back as the cell to write."""
    if stored is None or isinstance(stored, str | bool):
        return TypedCell(stored)
    if isinstance(stored, int | float):
        return TypedCell(float(stored))
    if isinstance(stored, dict):
        try:
            return _decode_tagged(stored)
        except (KeyError, TypeError, ValueError):
            pass
    return TypedCell(str(stored))  # not written by encode_cell: keep what it says


def _decode_tagged(stored: dict[str, Any]) -> TypedCell:
    if "date" in stored:
        return TypedCell(date.fromisoformat(stored["date"]), DATE_FORMAT)
    if "datetime" in stored:
        return TypedCell(datetime.fromisoformat(stored["datetime"]), DATETIME_FORMAT)
    if "time" in stored:
        return TypedCell(time.fromisoformat(stored["time"]), TIME_FORMAT)
    if "duration" in stored:
        return TypedCell(timedelta(seconds=float(stored["duration"])), DURATION_FORMAT)
    if "number" in stored:
        text = str(stored["text"])
        padded = "0" * len(text) if text and set(text) <= _DIGITS_ONLY else None
        return TypedCell(float(stored["number"]), padded)
    if "error" in stored:
        code = str(stored["error"])
        return TypedCell(code or None, error=bool(code))
    raise KeyError("no known tag")


def decode_text(text: str | None) -> TypedCell:
    """A cell kept as text only (rows rejected before typed cells were stored, CSV files):
    a number when the text is exactly how that number shows, otherwise the text."""
    if text is None or text == "":
        return TypedCell(None)
    number = number_from_text(text)
    return TypedCell(text) if number is None else TypedCell(number)


def number_from_text(text: str) -> float | None:
    """The number a text shows exactly ("42", "-3.5"), or None ("00123", "1e5", "4,000")."""
    if not text or not (text[0].isdigit() or text[0] in "+-.") or not text.isascii():
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) and number_text(number) == text else None


def cell_text(cell: TypedCell) -> str | None:
    """What the cell shows, as text (CSV, the terminal, column widths)."""
    value = cell.value
    if cell.number_format and isinstance(value, float):
        return f"{value:0{len(cell.number_format)}.0f}"
    return display_text(value)
