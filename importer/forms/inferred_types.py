"""The type `forms infer` proposes for a column, from its filled sampled cells.

The sheets this is run on are the ones people fill in by hand, so they hold a few mistakes:
a column's type is the one that fits at least 90% of its filled sampled cells, and a note
(a TOML comment next to the field) says how many sampled values the proposed field would
reject, with examples. Those counts come from the very coercers an import uses, so a note
never claims a rejection the import would not make, and proposed date formats are ones the
date coercer reads.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache

from importer.excel.values import CellError, NumberText, display_text
from importer.fields.cells import Coercer, Invalid, build_coercer
from importer.fields.field import Field
from importer.fields.registry import FIELD_TYPE_SPECS, CellKind, FieldType, Inference

EXAMPLES = 3  # misfit values quoted in a note
EXAMPLE_WIDTH = 32
# Enum: a column is a short list of categories when, in its sample, it has at least
# ENUM_MIN_FILLED filled cells, at most 10% of the sampled rows empty (sparse columns of
# repeated phrases are usually notes, not categories), and 2..ENUM_MAX_CHOICES distinct
# texts (trimmed, ignoring case) that each appear at least twice and together cover at least
# 90% of the filled cells. A text seen once is then taken for a mistake, and noted.
ENUM_MIN_FILLED = 20
ENUM_MAX_CHOICES = 12

_PADDED = re.compile(r"[+-]?0\d+")  # "00501": a code (zip, account), not a number
_NUMBERISH = re.compile(r"[+-]?[\d.]")  # how every text the number coercers accept begins
_ISOISH = re.compile(r"\d{4}-")  # how ISO dates and date-times as people write them begin
# 19/08/2024, 8.19.24, 19-08-2024: day and month in either order, then the year.
_SHAPED_DATE = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})")
_BOOL_TEXT = frozenset({"true", "false", "yes", "no", "y", "n"})
# The types inferred from cell kinds, in order of preference: a type is proposed when it
# fits 90% of the filled cells, and the narrower of two number (or date) types wins, its
# misfits noted with the wider type.
_CANDIDATES: dict[FieldType, Inference] = dict(
    sorted(
        ((spec.name, spec.infer) for spec in FIELD_TYPE_SPECS.values() if spec.infer is not None),
        key=lambda candidate: candidate[1].rank,
    )
)


@dataclass
class Guess:
    """The type proposed for a column, its formats or choices, and the notes on it."""

    type: FieldType
    formats: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


@cache
def _coercer(ftype: FieldType, formats: tuple[str, ...] = ()) -> Coercer:
    return build_coercer(Field(name="sample", header="sample", type=ftype, formats=formats))


def _accepts(coerce: Coercer, value: object) -> bool:
    try:
        coerce(value)
    except Invalid:
        return False
    return True


def _kind(value: object) -> CellKind:
    """What a filled cell is: bool, int, decimal, date, datetime, email, padded, shaped (a
    text like 19/08/2024, judged with its column) or text (anything else, errors too)."""
    kind = type(value)
    if kind is bool:
        return "bool"
    if kind is NumberText:
        return "padded"
    if kind is float or kind is int:
        return "int" if float(value).is_integer() else "decimal"  # type: ignore[arg-type]
    if kind is datetime:
        return "datetime"
    if kind is date:
        return "date"
    if kind is not str:
        return "text"  # times of day, durations, error cells
    text = value.strip()  # type: ignore[attr-defined]
    if _NUMBERISH.match(text):
        if _PADDED.fullmatch(text):
            return "padded"
        if _accepts(_coercer("integer"), text):
            return "int"
        if _accepts(_coercer("decimal"), text):
            return "decimal"
    if text.casefold() in _BOOL_TEXT:
        return "bool"
    if "@" in text and _accepts(_coercer("email"), text):
        return "email"
    if _ISOISH.match(text):
        if _accepts(_coercer("date"), text):
            return "date"
        if _accepts(_coercer("datetime"), text):
            return "datetime"
    if _SHAPED_DATE.fullmatch(text):
        return "shaped"
    return "text"


def _text_date_formats(texts: list[str]) -> tuple[tuple[str, ...], int, str | None]:
    """The formats for texts like 19/08/2024, how many of the texts they read, and a note
    when the day/month order is a guess.

    The order and the formats come from the texts' shapes (31/02/2024 is day-first even
    though no such day exists); whether a text is read is the date coercer's answer.
    """
    shapes: Counter[tuple[str, str]] = Counter()  # (separator, year directive)
    day_only = month_only = 0
    for text in texts:
        match = _SHAPED_DATE.fullmatch(text.strip())
        if match is None:
            continue
        first, second = int(match[1]), int(match[3])
        by_day = 1 <= first <= 31 and 1 <= second <= 12
        by_month = 1 <= first <= 12 and 1 <= second <= 31
        if by_day or by_month:  # 45/67/2024 tells nothing
            shapes[match[2], "%Y" if len(match[4]) == 4 else "%y"] += 1
            day_only += not by_month
            month_only += not by_day
    if not shapes:
        return (), 0, None
    day_first = day_only >= month_only  # day-first too when the sample cannot tell
    note = None
    if not day_only and not month_only:
        note = "no text date in the sample has a day above 12: day-first order is a guess"
    elif day_only and month_only:
        note = "text dates in the sample disagree on day/month order: the more common is used"
    day, month = ("%d", "%m") if day_first else ("%m", "%d")
    # strptime reads 1- or 2-digit days and months: 8/19/2024 is read by %m/%d/%Y.
    formats = tuple(f"{day}{sep}{month}{sep}{year}" for (sep, year), _ in shapes.most_common())
    coerce = _coercer("date", formats)
    return formats, sum(_accepts(coerce, text) for text in texts), note


def _enum_choices(values: list[object], kinds: list[CellKind], empty: int) -> tuple[str, ...]:
    """The choices of a column of categories (see ENUM_MIN_FILLED), or () when it is not."""
    filled = len(values)
    if filled < ENUM_MIN_FILLED or empty * 10 > (filled + empty):
        return ()
    spellings: dict[str, Counter[str]] = {}  # folded text -> its spellings, first seen first
    for value, kind in zip(values, kinds, strict=True):
        if type(value) is str and kind in ("text", "bool"):  # yes/no/maybe is a category
            text = value.strip()
            spellings.setdefault(text.casefold(), Counter())[text] += 1
            if len(spellings) > ENUM_MAX_CHOICES + filled // 10:
                return ()  # more distinct texts than choices and misfits together
    repeated = [seen for seen in spellings.values() if seen.total() >= 2]
    covered = sum(seen.total() for seen in repeated)
    if not 2 <= len(repeated) <= ENUM_MAX_CHOICES or covered * 10 < filled * 9:
        return ()
    # The most frequent spelling of each (the first seen on a tie): "paid" over "PAID".
    choices = tuple(seen.most_common(1)[0][0] for seen in repeated)
    # A choice is written in the TOML as it is: control characters would break the file.
    return choices if all(choice.isprintable() for choice in choices) else ()


def _example(value: object) -> str:
    if type(value) is CellError and not value.code:
        return "a formula without a value"
    text = (display_text(value) or "").strip()
    if len(text) > EXAMPLE_WIDTH:
        text = text[: EXAMPLE_WIDTH - 3] + "..."
    return repr(text)  # repr escapes line breaks: a note stays one TOML comment line


def _misfit_note(guess: Guess, values: list[object]) -> str | None:
    """How many sampled values the proposed field rejects, by the import's own coercer."""
    proposed = Field(
        name="sample",
        header="sample",
        type=guess.type,
        choices=guess.choices,
        formats=guess.formats,
    )
    coerce = build_coercer(proposed)
    misfits = [value for value in values if not _accepts(coerce, value)]
    if not misfits:
        return None
    examples = list(dict.fromkeys(_example(value) for value in misfits))[:EXAMPLES]
    if "choices" in proposed.spec.rules:
        what = "are not among the choices"
    else:
        what = f"do not fit {guess.type}"
    note = (
        f"{len(misfits)} of {len(values)} sampled values {what} "
        f"(e.g. {', '.join(examples)}): such rows will be rejected"
    )
    inference = _CANDIDATES.get(guess.type)
    wider = inference.wider if inference is not None else None
    if wider and all(_accepts(_coercer(wider, guess.formats), value) for value in misfits):
        note += f" ({wider} would accept them)"
    return note


def guess_type(values: list[object], empty: int) -> Guess:
    """The type (and formats or choices) for a column from its filled sampled cells."""
    filled = len(values)
    if not filled:
        return Guess("string", notes=["no values in the sample: type is a guess"])
    kinds = [_kind(value) for value in values]
    counts = Counter(kinds)
    if counts["padded"]:  # even one: zip codes are mostly digits without a leading zero
        return Guess("string", notes=["numbers with leading zeros: kept as text"])
    shaped = [str(v) for v, k in zip(values, kinds, strict=True) if k == "shaped"]
    formats, text_dates, order_note = _text_date_formats(shaped)
    counts["text_date"] = text_dates
    fits = {
        ftype: sum(counts[kind] for kind in inference.kinds)
        for ftype, inference in _CANDIDATES.items()
    }
    guess: Guess | None = None
    for ftype in _CANDIDATES:
        if fits[ftype] * 10 >= filled * 9:
            dated = "formats" in FIELD_TYPE_SPECS[ftype].rules
            guess = Guess(ftype, formats=formats if dated else ())
            if dated and order_note:
                guess.notes.append(order_note)
            break
    if guess is None:
        choices = _enum_choices(values, kinds, empty)
        if choices:
            guess = Guess(
                "enum", choices=choices, notes=["few values, each repeated: check the choices"]
            )
    if guess is None:
        best = max(_CANDIDATES, key=lambda ftype: fits[ftype])  # the first of equals
        typed = filled - counts["text"]
        if fits[best] and typed * 2 >= filled:  # mostly typed values, but no type dominates
            return Guess(
                "string",
                notes=[
                    f"mixed kinds of values: {fits[best]} of {filled} sampled values fit {best},"
                    " below the 90% needed to propose it: check the type"
                ],
            )
        return Guess("string")
    misfits = _misfit_note(guess, values)
    if misfits:
        guess.notes.append(misfits)
    return guess
