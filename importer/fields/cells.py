"""Per-field coercers: one normalized cell value in, one JSON-ready value out (or Invalid).

The declared type decides, never a sample. Each coercer is built once per field with its
rules baked in, so that validating a cell is one function call.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from importer.excel.values import (
    MAX_SERIAL,
    CellError,
    NumberText,
    display_text,
    number_text,
    serial_to_datetime,
)
from importer.fields.patterns import compiled

if TYPE_CHECKING:  # field.py imports the registry, which imports these builders
    from importer.fields.field import Field

Coercer = Callable[[object], Any]

_INT_TEXT = re.compile(r"[+-]?(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.0*)?")
_DEC_TEXT = re.compile(r"[+-]?(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d*)?(?:[eE][+-]?\d+)?")
# local@label.label...: a label is letters and digits, with inner hyphens. Possessive
# quantifiers (the character classes never overlap) spare the regex engine backtracking:
# twice as fast, same matches.
_LABEL = r"[A-Za-z0-9]++(?:-++[A-Za-z0-9]++)*+"
EMAIL = re.compile(rf'[^@\s<>(),;:"\[\]]++@{_LABEL}(?:\.{_LABEL})++')
# Whole numbers are stored as what PostgreSQL's bigint holds: -2**63 .. 2**63 - 1.
BIGINT_LIMIT = 1 << 63
TRUE_WORDS = frozenset({"true", "yes", "y", "1", "t"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", "f"})
FIRST_YEAR = 1900  # cells holding earlier "dates" are garbage serials (0, negative, NaN)
_MAX_DIGITS = 15  # what a JSON number (a double) holds exactly, and what Excel shows


class Invalid(Exception):
    """A cell's value does not fit its field; the message is for the person who sent it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _quote(value: object) -> str:
    text = display_text(value) or ""
    return f"'{text}'" if len(text) <= 60 else f"'{text[:57]}...'"


def _kind(value: object) -> str:
    """What a cell holds, in words, for type mismatch messages."""
    kind = type(value)
    if kind is bool:
        return "a TRUE/FALSE value"
    if kind is datetime:
        return "a date and time"
    if kind is date:
        return "a date"
    if kind is time:
        return "a time of day"
    if kind is timedelta:
        return "a duration"
    if kind is float or kind is int or kind is NumberText:
        return "a number"
    return "text"


def _format_hint(formats: tuple[str, ...]) -> str:
    names = {"%d": "DD", "%m": "MM", "%Y": "YYYY", "%y": "YY", "%H": "hh", "%M": "mm", "%S": "ss"}
    names |= {"%b": "Mon", "%B": "Month", "%I": "hh", "%p": "AM/PM", "%f": "ffffff"}
    hints = []
    for fmt in formats:
        for code, name in names.items():
            fmt = fmt.replace(code, name)
        hints.append(fmt)
    return ", ".join(hints)


# What a required field's empty cell is told (forms/stages.py names a `missing` text instead).
EMPTY_REQUIRED = "a value is required but the cell is empty"


def build_coercer(field: Field, *, date1904: bool = False) -> Coercer:
    """The function that turns a cell into this field's stored value (or raises Invalid)."""
    base = field.spec.coercer(field, date1904)
    required = field.required

    def coerce(value: object) -> Any:
        if value is None:
            if required:
                raise Invalid(EMPTY_REQUIRED)
            return None
        if type(value) is CellError:
            raise Invalid(value.describe())
        return base(value)

    return coerce


def _empty_text(required: bool) -> Any:
    if required:
        raise Invalid(EMPTY_REQUIRED)
    return None


def string_text(value: object) -> str | None:
    """The text a string field's checks read in a cell (None: they read none)."""
    kind = type(value)
    if kind is str:
        return value if value.strip() else None  # type: ignore[attr-defined,return-value]
    if kind is NumberText:
        return value.text  # type: ignore[attr-defined,no-any-return]
    if kind is float:
        return number_text(value)  # type: ignore[arg-type]
    return None if value is None else display_text(value) or ""


def email_text(value: object) -> str | None:
    """The text an email field's checks read in a cell (None: they read none)."""
    return value.strip() if type(value) is str else None


# --- builders, one per type (importer.fields.registry names them) ------------------------------


def string_coercer(field: Field, date1904: bool) -> Coercer:
    required = field.required
    lo, hi = field.min_length, field.max_length
    pattern = compiled(field.pattern) if field.pattern else None
    # Never the regex itself: the sender is not expected to read one.
    declared = field.message

    def check(text: str) -> str:
        if "\x00" in text:
            raise Invalid("contains an invisible NUL character (U+0000), which cannot be stored")
        if hi is not None and len(text) > hi:
            raise Invalid(f"is {len(text)} characters long; at most {hi} are allowed")
        if lo is not None and len(text) < lo:
            raise Invalid(f"is {len(text)} characters long; at least {lo} are required")
        if pattern is not None and not pattern.search(text):  # linear time (patterns.py)
            raise Invalid(declared or f"{_quote(text)} is not in the expected format")
        return text

    def coerce(value: object) -> Any:
        text = string_text(value)
        return _empty_text(required) if text is None else check(text)

    return coerce


def integer_coercer(field: Field, date1904: bool) -> Coercer:
    lo, hi = field.min, field.max
    required = field.required

    def bounded(number: int) -> int:
        if not -BIGINT_LIMIT <= number < BIGINT_LIMIT:
            raise Invalid(f"{_quote(number)} is too large a whole number to store")
        if lo is not None and number < lo:  # type: ignore[operator]
            raise Invalid(f"{number} is less than the minimum {lo}")
        if hi is not None and number > hi:  # type: ignore[operator]
            raise Invalid(f"{number} is more than the maximum {hi}")
        return number

    def coerce(value: object) -> Any:
        kind = type(value)
        if kind is NumberText:
            value, kind = value.value, float  # type: ignore[attr-defined]
        if kind is float:
            if not value.is_integer():  # type: ignore[attr-defined]
                raise Invalid(f"{_quote(value)} is not a whole number")
            if not -BIGINT_LIMIT <= value < BIGINT_LIMIT:  # type: ignore[operator]
                # Quoted as Excel shows it (1.18059162071741E+21), not as 22 digits.
                raise Invalid(f"{_quote(value)} is too large a whole number to store")
            return bounded(int(value))  # type: ignore[call-overload]
        if kind is str:
            text = value.strip()  # type: ignore[attr-defined]
            if not text:
                return _empty_text(required)
            if _INT_TEXT.fullmatch(text):
                digits = text.replace(",", "").split(".")[0]
                if len(digits.lstrip("+-").lstrip("0")) > 19:  # past 2**63 (and int() refuses
                    # 4,300 digits and more)
                    raise Invalid(f"{_quote(text)} is too large a whole number to store")
                return bounded(int(digits))
            raise Invalid(f"{_quote(text)} is not a whole number")
        if kind is int:
            return bounded(value)  # type: ignore[arg-type]
        raise Invalid(f"{_quote(value)} is {_kind(value)}, not a whole number")

    return coerce


def decimal_coercer(field: Field, date1904: bool) -> Coercer:
    lo = float(field.min) if field.min is not None else None  # type: ignore[arg-type]
    hi = float(field.max) if field.max is not None else None  # type: ignore[arg-type]
    required = field.required

    def bounded(number: float, shown: object) -> float:
        if number - number != 0.0:  # beyond a double once rounded ("1e400"): JSON has no inf
            raise Invalid(f"{_quote(shown)} is too large a number to store")
        if lo is not None and number < lo:
            raise Invalid(f"{_quote(shown)} is less than the minimum {field.min}")
        if hi is not None and number > hi:
            raise Invalid(f"{_quote(shown)} is more than the maximum {field.max}")
        return number

    def coerce(value: object) -> Any:
        kind = type(value)
        if kind is NumberText:
            value, kind = value.value, float  # type: ignore[attr-defined]
        if kind is float:
            if value != value or value in (float("inf"), float("-inf")):
                raise Invalid(f"{_quote(value)} is not a number")
            # Excel shows 15 significant digits; beyond them is binary noise (0.1+0.2).
            return bounded(float(f"{value:.15g}"), value)
        if kind is str:
            text = value.strip()  # type: ignore[attr-defined]
            if not text:
                return _empty_text(required)
            if not _DEC_TEXT.fullmatch(text) or not any(c.isdigit() for c in text):
                raise Invalid(f"{_quote(text)} is not a number")
            try:
                number = Decimal(text.replace(",", ""))
            except InvalidOperation:
                raise Invalid(f"{_quote(text)} is not a number") from None
            digits = len(number.normalize().as_tuple().digits)
            if digits > _MAX_DIGITS:
                raise Invalid(
                    f"{_quote(text)} has more than {_MAX_DIGITS} significant digits "
                    "and cannot be stored exactly"
                )
            return bounded(float(number), text)
        if kind is int:
            return bounded(float(value), value)  # type: ignore[arg-type]
        raise Invalid(f"{_quote(value)} is {_kind(value)}, not a number")

    return coerce


# What a format's directives read, as regex groups: enough to find the year, month and day
# of a text that has a format's shape but names a day that does not exist (31/02/2024).
_SHAPES = {
    "%d": r"(?P<d>\d{1,2})",
    "%m": r"(?P<m>\d{1,2})",
    "%Y": r"(?P<Y>\d{4})",
    "%y": r"(?P<y>\d{2})",
    "%b": r"(?P<b>[^\W\d_]+\.?)",
    "%B": r"(?P<b>[^\W\d_]+)",
    "%H": r"\d{1,2}",
    "%I": r"\d{1,2}",
    "%M": r"\d{1,2}",
    "%S": r"\d{1,2}",
    "%f": r"\d{1,6}",
    "%p": r"[AaPp]\.?[Mm]\.?",
    "%%": "%",
}
_DIRECTIVE = re.compile(r"%.")
# The ISO shapes date.fromisoformat and datetime.fromisoformat read: the day first, any time
# of day after it (the day is what is checked here).
_ISO_SHAPES = (
    re.compile(r"(?P<Y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?:[T ].*)?", re.DOTALL),
    re.compile(r"(?P<Y>\d{4})(?P<m>\d{2})(?P<d>\d{2})(?:T.*)?", re.DOTALL),
)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip
_MONTH_NUMBERS = (
    {name.casefold(): n for n, name in enumerate(_MONTHS, 1)}
    | {name[:3].casefold(): n for n, name in enumerate(_MONTHS, 1)}
    | {"sept": 9}
)


def _shape(fmt: str) -> re.Pattern[str] | None:
    """The regex of a strptime format's shape; None when it has a directive not read here."""
    parts: list[str] = []
    at = 0
    for directive in _DIRECTIVE.finditer(fmt):
        parts.append(re.escape(fmt[at : directive.start()]))
        shape = _SHAPES.get(directive.group())
        if shape is None or (shape.startswith("(?P<") and shape[:6] in "".join(parts)):
            return None  # unknown, or the same field twice
        parts.append(shape)
        at = directive.end()
    parts.append(re.escape(fmt[at:]))
    # strptime reads any run of whitespace where the format has some.
    pattern = re.sub(r"(?:\\\s)+", r"\\s+", "".join(parts))
    return re.compile(pattern, re.IGNORECASE)


def _no_such_day(text: str, formats: tuple[str, ...]) -> str | None:
    """Why a text that has the shape of a date the coercer reads is still no date: the day
    or month it names does not exist. None when it has no such shape.

    The sender wrote the right format; the message says what is wrong with the day. With
    several formats, one that reads a real month wins (02/31/2024 as MM/DD/YYYY).
    """
    shapes = [*_ISO_SHAPES, *(s for s in map(_shape, formats) if s is not None)]
    found: list[tuple[int, str]] = []
    for shape in shapes:
        match = shape.fullmatch(text)
        if match is None:
            continue
        fields = match.groupdict()
        if fields.get("b") is not None:
            month = _MONTH_NUMBERS.get(fields["b"].rstrip(".").casefold())
            if month is None:
                continue  # not a month's name: not this format after all
        elif fields.get("m") is not None:
            month = int(fields["m"])
        else:
            continue
        if fields.get("Y") is not None:
            year = int(fields["Y"])
        elif fields.get("y") is not None:
            short = int(fields["y"])
            year = short + (2000 if short < 69 else 1900)  # what strptime makes of %y
        else:
            continue
        day = int(fields["d"]) if fields.get("d") is not None else 1
        quoted = _quote(text)
        if not 1 <= month <= 12:
            found.append((1, f"{quoted}: there is no month {month}"))
            continue
        if year < 1:
            found.append((1, f"{quoted}: there is no year {year}"))
            continue
        last = calendar.monthrange(year, month)[1]
        if day == 0:
            found.append((0, f"{quoted}: there is no day 0"))
        elif month == 2 and day == 29 and last == 28:
            found.append((0, f"{quoted}: {year} is not a leap year: February has 28 days"))
        elif day > last:
            found.append((0, f"{quoted}: {_MONTHS[month - 1]} {year} has no day {day}"))
        else:
            return None  # a real day: the text is wrong elsewhere (its time of day)
    return min(found)[1] if found else None


def _not_a_date(text: str, formats: tuple[str, ...], what: str, hint: str) -> Invalid:
    reason = _no_such_day(text, formats)
    return Invalid(reason or f"{_quote(text)} is not {what} (expected {hint})")


def _parse_text_moment(text: str, formats: tuple[str, ...]) -> datetime | date | None:
    try:
        if len(text) <= 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    for fmt in formats:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _serial(value: float, date1904: bool) -> datetime:
    if not 0 <= value <= MAX_SERIAL:
        raise Invalid(f"{_quote(value)} is a number, not a date")
    return serial_to_datetime(value, date1904)


def date_coercer(field: Field, date1904: bool) -> Coercer:
    lo, hi = field.min, field.max
    formats = field.formats
    hint = "YYYY-MM-DD" + (f" or {_format_hint(formats)}" if formats else "")
    required = field.required

    def bounded(day: date) -> str:
        if lo is not None and day < lo:  # type: ignore[operator]
            raise Invalid(f"{day.isoformat()} is before the earliest allowed date {lo}")
        if hi is not None and day > hi:  # type: ignore[operator]
            raise Invalid(f"{day.isoformat()} is after the latest allowed date {hi}")
        return day.isoformat()

    def from_moment(moment: datetime) -> str:
        if moment.year < FIRST_YEAR:
            raise Invalid(f"{_quote(moment)} is not a valid Excel date")
        if moment.time() != time():
            raise Invalid(f"{_quote(moment)} has a time of day; a date alone is expected")
        return bounded(moment.date())

    def coerce(value: object) -> Any:
        kind = type(value)
        if kind is date:
            if value.year < FIRST_YEAR:  # type: ignore[attr-defined]
                raise Invalid(f"{_quote(value)} is not a valid Excel date")
            return bounded(value)  # type: ignore[arg-type]
        if kind is datetime:
            return from_moment(value)  # type: ignore[arg-type]
        if kind is float or kind is int:
            return from_moment(_serial(value, date1904))  # type: ignore[arg-type]
        if kind is str:
            text = value.strip()  # type: ignore[attr-defined]
            if not text:
                return _empty_text(required)
            parsed = _parse_text_moment(text, formats)
            if parsed is None:
                raise _not_a_date(text, formats, "a date", hint)
            if type(parsed) is datetime:
                return from_moment(parsed)
            return bounded(parsed)
        raise Invalid(f"{_quote(value)} is {_kind(value)}, not a date")

    return coerce


def datetime_coercer(field: Field, date1904: bool) -> Coercer:
    lo, hi = field.min, field.max
    formats = field.formats
    hint = "YYYY-MM-DD hh:mm:ss" + (f" or {_format_hint(formats)}" if formats else "")
    required = field.required

    def bounded(moment: datetime) -> str:
        if lo is not None and _comparable(moment, lo) < lo:  # type: ignore[operator]
            raise Invalid(f"{moment.isoformat(sep=' ')} is before the earliest allowed {lo}")
        if hi is not None and _comparable(moment, hi) > hi:  # type: ignore[operator]
            raise Invalid(f"{moment.isoformat(sep=' ')} is after the latest allowed {hi}")
        return moment.isoformat()

    def coerce(value: object) -> Any:
        kind = type(value)
        if (kind is datetime or kind is date) and value.year < FIRST_YEAR:  # type: ignore[attr-defined]
            raise Invalid(f"{_quote(value)} is not a valid Excel date")
        if kind is datetime:
            return bounded(value)  # type: ignore[arg-type]
        if kind is date:
            return bounded(datetime.combine(value, time()))  # type: ignore[arg-type]
        if kind is float or kind is int:
            return bounded(_serial(value, date1904))  # type: ignore[arg-type]
        if kind is str:
            text = value.strip()  # type: ignore[attr-defined]
            if not text:
                return _empty_text(required)
            parsed = _parse_text_moment(text, formats)
            if parsed is None:
                raise _not_a_date(text, formats, "a date and time", hint)
            if type(parsed) is date:
                parsed = datetime.combine(parsed, time())
            return bounded(parsed)  # type: ignore[arg-type]
        raise Invalid(f"{_quote(value)} is {_kind(value)}, not a date and time")

    return coerce


def _comparable(moment: datetime, bound: object) -> datetime:
    """Compare aware and naive datetimes sensibly: drop the offset when the bound has none."""
    if isinstance(bound, datetime) and bound.tzinfo is None and moment.tzinfo is not None:
        return moment.replace(tzinfo=None)
    if isinstance(bound, datetime) and bound.tzinfo is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=bound.tzinfo)
    return moment


def boolean_coercer(field: Field, date1904: bool) -> Coercer:
    required = field.required

    def coerce(value: object) -> Any:
        kind = type(value)
        if kind is bool:
            return value
        if kind is str:
            text = value.strip().casefold()  # type: ignore[attr-defined]
            if not text:
                return _empty_text(required)
            if text in TRUE_WORDS:
                return True
            if text in FALSE_WORDS:
                return False
            raise Invalid(f"{_quote(value)} is not yes/no (use true/false, yes/no, y/n or 1/0)")
        if kind is float or kind is int:
            if value == 1:
                return True
            if value == 0:
                return False
        raise Invalid(f"{_quote(value)} is not yes/no (use true/false, yes/no, y/n or 1/0)")

    return coerce


def email_coercer(field: Field, date1904: bool) -> Coercer:
    text_check = string_coercer(field, date1904)

    def coerce(value: object) -> Any:
        if type(value) is not str:
            raise Invalid(f"{_quote(value)} is {_kind(value)}, not an email address")
        text = value.strip()
        if text and not EMAIL.fullmatch(text):
            raise Invalid(f"{_quote(text)} is not a valid email address")
        return text_check(text)

    return coerce


def enum_coercer(field: Field, date1904: bool) -> Coercer:
    canonical = {c.casefold(): c for c in field.choices}
    exact = {c: c for c in field.choices}
    listing = ", ".join(field.choices)
    if len(listing) > 200:
        listing = listing[:197] + "..."
    required = field.required

    def coerce(value: object) -> Any:
        found = exact.get(value) if type(value) is str else None
        if found is not None:
            return found
        shown = value.text if type(value) is NumberText else value
        text = (display_text(shown) or "").strip()
        if not text:
            return _empty_text(required)
        found = canonical.get(text.casefold())
        if found is None:
            raise Invalid(f"{_quote(text)} is not one of: {listing}")
        return found

    return coerce
