"""The normalized cell values both engines yield, and Excel's number/date conventions.

Normalized values: None (empty), str, float (every number; Excel stores doubles),
bool, datetime.date / datetime.datetime / datetime.time / datetime.timedelta (cells
formatted as dates or durations), CellError (error cells and formulas with no saved
value) and NumberText (a number whose format changes what the user sees, such as
zip code 00123 shown by format 00000).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import partial
from itertools import repeat
from operator import methodcaller
from typing import Any, NamedTuple, cast, overload

CellValue = object  # one of the types listed above

_EPOCH_1900 = datetime(1899, 12, 30)
_MS_PER_DAY = 86_400_000
# Excel's last date, 9999-12-31, as a 1900-system serial.
MAX_SERIAL = 2_958_465


class Row(NamedTuple):
    """One data row. (A named tuple rather than a frozen dataclass: same fields and
    immutability, but built ~3x faster, and readers build one per row.)"""

    number: int  # the Excel row number (1-based), as the user sees it
    values: tuple[object, ...]  # one normalized value per header column


new_row = partial(tuple.__new__, Row)  # new_row((number, values)): skips NamedTuple.__new__


class RowBatch(Sequence[Row]):
    """Consecutive data rows read together, kept as their numbers and cell sequences: the
    validator transposes the cells as they are, and a Row is only built when asked for."""

    __slots__ = ("cells", "numbers")

    def __init__(self, numbers: list[int], cells: list[Sequence[object]]) -> None:
        self.numbers = numbers
        self.cells = cells

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return new_row((self.numbers[index], tuple(self.cells[index])))

    def __iter__(self) -> Iterator[Row]:
        return map(new_row, zip(self.numbers, map(tuple, self.cells), strict=True))


ERROR_MEANINGS = {
    "#DIV/0!": "division by zero",
    "#N/A": "value not available",
    "#NAME?": "unknown function or name",
    "#NULL!": "empty intersection of ranges",
    "#NUM!": "invalid number",
    "#REF!": "reference to a deleted cell",
    "#VALUE!": "wrong type of value",
    "#SPILL!": "spilled result blocked",
    "#CALC!": "calculation error",
    "#GETTING_DATA": "data still loading",
}


@dataclass(frozen=True, slots=True)
class CellError:
    """A cell whose value is an error (#DIV/0!, #N/A, ...) or a formula never calculated."""

    code: str  # "#DIV/0!", ... or "" for a formula with no saved value
    formula: str | None = None

    @property
    def text(self) -> str:
        """What the cell shows: the error code; nothing for an uncalculated formula (its
        text is never passed on as a value)."""
        return self.code

    def describe(self) -> str:
        if self.code:
            meaning = ERROR_MEANINGS.get(self.code)
            return f"the cell shows the error {self.code}" + (f" ({meaning})" if meaning else "")
        return (
            "the cell holds a formula that was never calculated, so it has no value "
            "(open the file in Excel or LibreOffice and save it again)"
        )

    def __str__(self) -> str:
        return self.text


class NumberText(NamedTuple):
    """A number displayed with a format that matters for text fields (leading zeros).

    A tuple, not a frozen dataclass: a column of ZIP codes makes one per cell, and a frozen
    dataclass took 0.9 s to make and 0.4 s to hash (its __init__ and __hash__ run in Python)
    for 1,000,000 of them. Code tells it apart by ``type(v) is NumberText``."""

    value: float
    text: str

    def __str__(self) -> str:
        return self.text


def serial_to_datetime(serial: float, date1904: bool = False) -> datetime:
    """An Excel serial number as a datetime, rounded to the millisecond (as calamine does)."""
    days = serial + 1462 if date1904 else serial
    if days < 60:
        # Excel's fictional 1900-02-29 (serial 60): serials below it count from 1899-12-31.
        days += 1
    return _EPOCH_1900 + timedelta(milliseconds=round(days * _MS_PER_DAY))


def serial_to_value(serial: float, date1904: bool) -> date | datetime | time:
    """A date-formatted number as calamine presents it: time (< 1 day), date (whole), datetime."""
    moment = serial_to_datetime(serial, date1904)
    if serial < 1:
        return moment.time()
    if moment.hour == moment.minute == moment.second == moment.microsecond == 0:
        return moment.date()
    return moment


def normalize_moment(value: datetime) -> date | datetime | time:
    """A datetime read from a date cell, presented by the same rule as serial_to_value."""
    value = value.replace(microsecond=round(value.microsecond / 1000) * 1000 % 1_000_000)
    if value.hour == value.minute == value.second == value.microsecond == 0:
        return value.date()
    return value


def number_text(value: float) -> str:
    """A number as Excel's General format shows it: 42.0 -> "42", 15 significant digits."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.15g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}E{exponent[0]}{exponent[1:].lstrip('0') or '0'}"
    return text


def display_text(value: object) -> str | None:
    """A normalized value as text, for error reports and the rejected-rows export."""
    if value is None:
        return None
    if type(value) is str:
        return value
    text_of = _TEXT_OF.get(type(value))
    return text_of(value) if text_of is not None else str(value)


def display_texts(values: Sequence[object]) -> list[str | None]:
    """display_text of each value; a column of one type takes a C-level pass or two."""
    kinds = set(map(type, values))
    if len(kinds) == 1:
        kind = kinds.pop()
        if kind is str:
            return list(cast(Sequence[str], values))
        if kind is float:
            # number_text is format ".15g" unless that gives an exponent or "-0".
            texts = list(map(format, cast(Sequence[float], values), repeat(".15g")))
            if "e" not in "".join(texts) and "-0" not in texts:
                return cast(list[str | None], texts)
        elif (text_of := _TEXT_OF.get(kind)) is not None:
            return list(map(text_of, values))
    return list(map(display_text, values))


def _duration_text(value: timedelta) -> str:
    seconds = int(value.total_seconds())
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


# How each value type shows as text (display_text; str and None are handled before).
_TEXT_OF: dict[type, Callable[[Any], str | None]] = {
    float: number_text,
    bool: {True: "TRUE", False: "FALSE"}.__getitem__,
    int: int.__repr__,
    datetime: methodcaller("isoformat", " "),
    date: date.isoformat,
    time: time.isoformat,
    CellError: lambda error: error.code or None,
    timedelta: _duration_text,
    type(None): lambda _: None,
}


def zero_padded_width(format_code: str) -> int | None:
    """For formats like "00000" (zip codes), the digit count a number is padded to.

    Only plain zero-padding is recognised: that is what turns 123 into "00123". Other
    formats (currency, thousands separators, percentages) do not change a stored text
    value in a way a form would want to keep.
    """
    code = format_code.split(";", 1)[0].replace('"', "").replace("\\", "")
    if len(code) >= 2 and code.startswith("00") and set(code) == {"0"}:
        return len(code)
    return None


_NOT_ALNUM = re.compile(r"[\W_]+")


def normalize_header(text: object) -> str:
    """The matching key of a header: case, spaces and punctuation do not count.

    "Order ID", "order_id", " ORDER-id " all give "orderid".
    """
    folded = unicodedata.normalize("NFKC", str(text)).casefold()
    return _NOT_ALNUM.sub("", folded)
