"""A form's checks as polars expressions over a piece's columns of text (fastexcel's).

Each field gives (value, settled): the value the tool stores where the row is settled, and
whether this expression is sure of it. A cell is settled only when its text means the same
whatever the cell's type was (fastexcel gives every cell as text: a number cell 12345 and a
text cell "12345" look alike) and the check says yes; anything else, an invalid cell among
them, leaves its row to the tool's own reader and Validator (exact.py), which decide it
exactly as the row-at-a-time path does. So this module may be cautious, never different.

``unsupported(form)`` says why a form cannot be checked so (None: it can).
"""

from __future__ import annotations

from decimal import Decimal

import polars as pl

from importer.columnar.shapes import (
    CELL_TEXT,
    COMMA_NUMBER,
    EMAIL_RUST,
    NUMBER_SHAPED,
    PLAIN_NUMBER,
    SAME_AS_NUMBER,
    format_shapes,
    unsupported,
)
from importer.fields.cells import FALSE_WORDS, TRUE_WORDS
from importer.fields.field import Field
from importer.forms.stages import SPACES

__all__ = ["field_check", "unsupported"]

Fast = tuple[pl.Expr, pl.Expr]  # (the stored value where settled, settled)


def blank(e: pl.Expr) -> pl.Expr:
    return e.is_null() | (e == "")


def _fast(empty: pl.Expr, value: pl.Expr, ok: pl.Expr, required: bool) -> Fast:
    settled = pl.when(empty).then(pl.lit(not required)).otherwise(ok.fill_null(False))
    return pl.when(empty).then(None).otherwise(value), settled


def _float(bound: object) -> float:
    assert isinstance(bound, int | Decimal | float)
    return float(bound)


def number(f: Field, raw: pl.Expr) -> Fast:
    # No strip: a cell with spaces fails the shape and goes to the tool's coercer.
    plain = raw.str.contains(PLAIN_NUMBER)
    short = raw.str.len_bytes() <= 15  # at most 15 digits: exact as a float
    if f.type == "decimal":
        comma = raw.str.contains(COMMA_NUMBER)
        unsep = raw.str.replace_all(",", "", literal=True)
        value = pl.when(plain).then(raw).when(comma).then(unsep).otherwise(None)
        value = value.cast(pl.Float64, strict=False)
        ok = (plain | comma) & short
    else:
        value = pl.when(plain).then(raw).otherwise(None).cast(pl.Float64, strict=False)
        ok = plain & short & (value == value.floor())
    if f.min is not None:
        ok = ok & (value >= _float(f.min))
    if f.max is not None:
        ok = ok & (value <= _float(f.max))
    if f.type == "integer":
        value = value.cast(pl.Int64, strict=False)
    return _fast(blank(raw), value, ok, f.required)


def text(f: Field, raw: pl.Expr, padded: pl.Expr | None, width: pl.Expr | None) -> Fast:
    value = raw.str.strip_chars(SPACES)  # the cleaner's trim
    numberish = raw.str.contains(NUMBER_SHAPED)
    ok = ~value.str.contains("\x00", literal=True) & ~raw.str.contains(CELL_TEXT)
    # A number-like text is settled where a number cell would read the same (15 digits
    # at most: beyond, the tool writes a number cell as 1.23456789012346E+15).
    same = value.str.contains(SAME_AS_NUMBER) & (value.str.len_bytes() <= 15)
    ok = ok & (~numberish | same)
    if padded is not None and width is not None:
        # A number shown by a 00000 format: the text Excel shows (number_with_format).
        pad = padded & raw.str.contains(r"^[0-9]+$") & (raw.str.len_chars() <= width)
        value = pl.when(pad).then(raw.str.zfill(width)).otherwise(value)
        ok = ok & (~padded | pad)
    if f.max_length is not None:
        ok = ok & (value.str.len_chars() <= f.max_length)
    if f.min_length is not None:
        ok = ok & (value.str.len_chars() >= f.min_length)
    if f.pattern is not None:
        # The engine of the row path's patterns (fields/patterns.py): the same answers.
        ok = ok & value.str.contains(f.pattern)
    if f.type == "email":
        ok = ok & value.str.contains(EMAIL_RUST)
        if padded is not None:
            ok = ok & ~padded  # a number cell: the tool refuses it
    if f.type == "enum":
        ok = ok & value.is_in(list(f.choices))  # other spellings ("Paid "): the coercer
    return _fast(blank(value), value, ok, f.required)


def day(f: Field, raw: pl.Expr, padded: pl.Expr | None) -> Fast:
    """A date cell (fastexcel: "2024-01-31 00:00:00"), an ISO text, or a text in one of
    the field's formats that no earlier format could read (the coercer tries ISO, then
    each format in turn: the first that reads it decides). The shapes exclude each other,
    so each text takes the value of the one it has."""
    shaped = raw.str.contains(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?: 00:00:00)?$")
    iso = raw.str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False)
    values = [pl.when(shaped).then(iso)]
    ok = shaped & iso.is_not_null()
    earlier: list[str] = []
    for fmt in f.formats:
        shapes = format_shapes(fmt)
        if shapes is None:
            break  # a later format might read what this one reads: none is settled
        strict, loose = shapes
        mine = raw.str.contains(strict)
        for before in earlier:
            mine = mine & ~raw.str.contains(before)
        parsed = raw.str.to_date(fmt, strict=False)
        values.append(pl.when(mine).then(parsed))
        ok = ok | (mine & parsed.is_not_null())
        earlier.append(loose)
    dated = pl.coalesce(values) if len(values) > 1 else values[0].otherwise(None)
    ok = ok & (dated.dt.year() >= 1900)
    if padded is not None:
        ok = ok & ~padded
    return _fast(blank(raw), dated, ok, f.required)


def _spellings(words: frozenset[str]) -> list[str]:
    return [v for w in words for v in (w, w.upper(), w.capitalize())]


def boolean(f: Field, raw: pl.Expr, padded: pl.Expr | None) -> Fast:
    value = raw.is_in(_spellings(TRUE_WORDS))
    ok = value | raw.is_in(_spellings(FALSE_WORDS))
    if padded is not None:
        ok = ok & ~padded
    return _fast(blank(raw), value, ok, f.required)


def field_check(f: Field, raw: pl.Expr, padded: pl.Expr | None, width: pl.Expr | None) -> Fast:
    if f.type in ("integer", "decimal"):
        return number(f, raw)
    if f.type in ("string", "email", "enum"):
        return text(f, raw, padded, width)
    if f.type == "date":
        return day(f, raw, padded)
    assert f.type == "boolean", f.type
    return boolean(f, raw, padded)
