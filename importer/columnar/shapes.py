"""The shapes of texts the columnar checks (checks.py) settle, and the forms they cover,
without polars: the choice of a sheet's path (choice.py, sample.py) weighs them before
anything loads it.
"""

from __future__ import annotations

import re

from importer.fields.cells import EMAIL
from importer.forms.definition import Form

COVERED = ("integer", "decimal", "string", "email", "enum", "date", "boolean")
# fastexcel's text of a float (Rust's Display: no exponent), at most 15 digits: exact
PLAIN_NUMBER = r"^[+-]?[0-9]+(?:\.[0-9]+)?$"
COMMA_NUMBER = r"^[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?$"
# A text that a number cell would give too, and that the tool's text of that number
# (values.number_text) writes alike: 1 to 15 digits, no leading zero, no "-0", no exponent
# the tool would write (below 0.1).
SAME_AS_NUMBER = r"^(?:-?[1-9][0-9]*(?:\.[0-9]*[1-9])?|0|-?0\.[1-9][0-9]*)$"
# What fastexcel makes of a number cell (Rust's shortest form): no "+", no leading or
# trailing zero, no exponent. A text of another shape was typed as text.
NUMBER_SHAPED = r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?$"
# What a date, time or boolean cell gives as text: never taken for typed text.
CELL_TEXT = (
    r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}|[0-9]+:[0-9]{2}:[0-9]{2}|true$|false$)"
)
_EMAIL = EMAIL.pattern.replace("++", "+").replace("*+", "*").replace(r"\s", r"\s\x1c-\x1f")
EMAIL_RUST = f"^(?:{_EMAIL})$"
# A date format the columnar checks read: these directives, as the texts they settle and
# as every text strptime reads (its %d takes " 5" too), between these separators.
_DIRECTIVES = {
    "%d": ("[0-9]{2}", r"(?:\d{1,2}| \d)"),
    "%m": ("[0-9]{2}", r"\d{1,2}"),
    "%Y": ("[0-9]{4}", r"\d{4}"),
}
_SEPARATORS = frozenset("/.-_ ,")


def unsupported(form: Form) -> str | None:
    """Why the form's rows cannot be checked as columns, or None."""
    from importer.fields.patterns import unsupported as unsupported_pattern

    if form.has_stages:
        return "the form has rules, lookups or cleaning beyond trimming"
    if form.key:
        return "the form has a key (its rows are upserted)"
    if not form.rules.trim:
        return "the form does not trim text"
    for f in form.sheet_fields:
        if f.type not in COVERED:
            return f"field {f.name!r} is of type {f.type}"
        if f.trim is False or f.fill_merged or f.unique:
            return f"field {f.name!r} has options the columnar checks do not cover"
        if f.type == "date" and (f.min is not None or f.max is not None):
            return f"field {f.name!r} has date bounds"
        if f.pattern is not None and unsupported_pattern(f.pattern) is not None:
            return f"field {f.name!r}'s pattern is not one the pattern engine runs"
    return None


def format_shapes(fmt: str) -> tuple[str, str] | None:
    """A strptime format of two-digit days and months and four-digit years between
    separators, the day or the month first (no text it reads is an ISO date, which the
    coercer tries first), as two patterns: the texts settled by it (two digits for a day
    or a month, nothing around) and every text strptime could read with it (one or two
    digits, a day after a space, any run of white space where the format has some).
    None: another format, never settled here."""
    parts = [p for p in re.split(r"(%.)", fmt) if p]
    if not parts or parts[0] not in ("%d", "%m"):
        return None
    strict, loose = ["^"], ["^"]
    for part in parts:
        if part in _DIRECTIVES:
            strict.append(_DIRECTIVES[part][0])
            loose.append(_DIRECTIVES[part][1])
        elif part.startswith("%") or not set(part) <= _SEPARATORS:
            return None
        else:
            strict.append("".join(f"[{c}]" for c in part))
            loose.append(re.sub(r"(?:\[ \])+", r"\\s+", strict[-1]))
    return "".join(strict) + "$", "".join(loose) + "$"
