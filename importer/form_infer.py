"""`forms infer`: a starting form definition from a sheet's header and the cells under it.

The result is a suggestion for a person to edit (types, required, rules), never used to
coerce data by itself: the declared form always decides.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from importer.excel.base import SheetReader
from importer.excel.values import CellError, NumberText
from importer.forms import Field, FieldType, Form, normalize_header

SAMPLE_ROWS = 2000
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_INT_TEXT = re.compile(r"[+-]?\d+")
_DEC_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")
_BOOL_TEXT = frozenset({"true", "false", "yes", "no", "y", "n"})


@dataclass
class _Seen:
    ints: int = 0
    decimals: int = 0
    dates: int = 0
    datetimes: int = 0
    bools: int = 0
    texts: int = 0
    emails: int = 0
    int_texts: int = 0
    padded: int = 0  # numbers shown with leading zeros, or digit texts starting with 0
    bool_texts: int = 0
    empty: int = 0
    longest: int = 0


def field_name(header: str, index: int) -> str:
    """An identifier for a header: "Order ID" -> "order_id", "Prix (€)" -> "prix"."""
    ascii_text = unicodedata.normalize("NFKD", header).encode("ascii", "ignore").decode()
    name = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")
    if not name:
        name = f"column_{index + 1}"
    if name[0].isdigit():
        name = f"f_{name}"
    return name[:60]


def _observe(seen: _Seen, value: object) -> None:
    kind = type(value)
    if value is None or (kind is str and not value.strip()):  # type: ignore[attr-defined]
        seen.empty += 1
    elif kind is bool:
        seen.bools += 1
    elif kind is NumberText:
        seen.padded += 1
    elif kind is float or kind is int:
        if float(value).is_integer():  # type: ignore[arg-type]
            seen.ints += 1
        else:
            seen.decimals += 1
    elif kind is datetime:
        seen.datetimes += 1
    elif kind is date:
        seen.dates += 1
    elif kind is time or kind is timedelta or kind is CellError:
        seen.texts += 1
    else:
        text = str(value).strip()
        seen.longest = max(seen.longest, len(text))
        if _EMAIL.fullmatch(text):
            seen.emails += 1
        elif _INT_TEXT.fullmatch(text):
            if len(text) > 1 and text.lstrip("+-").startswith("0"):
                seen.padded += 1
            else:
                seen.int_texts += 1
        elif _DEC_TEXT.fullmatch(text):
            seen.decimals += 1
        elif text.casefold() in _BOOL_TEXT:
            seen.bool_texts += 1
        else:
            seen.texts += 1


def _choose(seen: _Seen) -> tuple[FieldType, str | None]:
    """The type for a column, and a note when the choice is a guess worth checking."""
    filled = seen.ints + seen.decimals + seen.dates + seen.datetimes + seen.bools
    filled += seen.texts + seen.emails + seen.int_texts + seen.padded + seen.bool_texts
    if filled == 0:
        return "string", "no values in the sample: type is a guess"
    if seen.padded:
        return "string", "numbers with leading zeros: kept as text"
    if seen.texts:
        return "string", None
    if seen.emails == filled:
        return "email", None
    if seen.bools + seen.bool_texts == filled:
        return "boolean", None
    if seen.dates == filled:
        return "date", None
    if seen.dates + seen.datetimes == filled:
        return "datetime", None
    if seen.ints + seen.int_texts == filled:
        return "integer", None
    if seen.ints + seen.int_texts + seen.decimals == filled:
        return "decimal", None
    return "string", "mixed kinds of values: check the type"


def infer_form(reader: SheetReader, name: str) -> tuple[Form, dict[str, str]]:
    """A form for the reader's sheet, and notes per field name for the TOML comments."""
    header = reader.header
    seen = [_Seen() for _ in header]
    sampled = 0
    for row in reader.rows():
        for index, value in enumerate(row.values):
            _observe(seen[index], value)
        sampled += 1
        if sampled >= SAMPLE_ROWS:
            break

    fields: list[Field] = []
    notes: dict[str, str] = {}
    used_names: set[str] = set()
    used_keys: set[str] = set()
    all_keys = {normalize_header(text) for text in header}
    for index, text in enumerate(header):
        key = normalize_header(text)
        if not key:
            continue  # a column without a header is never imported
        if key in used_keys:
            notes.setdefault(
                fields[-1].name if fields else "", f"column {text!r} repeats an earlier header"
            )
            continue
        used_keys.add(key)
        name_ = field_name(text, index)
        while name_ in used_names or normalize_header(name_) in all_keys - {key}:
            name_ = f"{name_}_{index + 1}"
        used_names.add(name_)
        ftype, note = _choose(seen[index])
        required = sampled > 0 and seen[index].empty == 0
        fields.append(Field(name=name_, header=text, type=ftype, required=required))
        if note:
            notes[name_] = note
    if not fields:
        from importer.errors import InputError

        raise InputError("the header row has no usable column names")
    safe_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_.-") or "form"
    notes.pop("", None)
    return Form(name=safe_name[:63], fields=tuple(fields)), notes
