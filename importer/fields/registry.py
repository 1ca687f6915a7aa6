"""The field types a form may declare: one registry entry says everything a type is.

An entry names the rules a form may set on a field of the type, how its min/max are read,
how a cell becomes its stored value (and, optionally, how a whole column does so faster),
what `forms infer` looks for to propose it, and its PostgreSQL type. The form parser, the
coercers and inference look types up here rather than keeping their own per-type tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Literal, TypeAlias, get_args

from importer.errors import FormError
from importer.fields.cells import (
    Coercer,
    boolean_coercer,
    date_coercer,
    datetime_coercer,
    decimal_coercer,
    email_coercer,
    enum_coercer,
    integer_coercer,
    string_coercer,
)
from importer.fields.columns import (
    ColumnCoercer,
    boolean_column,
    datetime_moments,
    decimal_floats,
    email_column,
    integer_column,
    memoized_column,
    text_column,
)

if TYPE_CHECKING:  # field.py imports this registry: Field is only named in annotations here
    from importer.fields.field import Field

# mypy checks every registry entry's name against this; a test checks the converse.
FieldType = Literal["string", "integer", "decimal", "date", "datetime", "boolean", "email", "enum"]
# The form keys that only some types allow (min/max and min_length/max_length go in pairs).
Rule = Literal["min", "max", "min_length", "max_length", "pattern", "choices", "formats"]
RULES: tuple[Rule, ...] = get_args(Rule)
# What `forms infer` calls a filled sampled cell (see form_infer._kind); "text_date" counts
# the texts like 19/08/2024 that the proposed date formats read.
CellKind = Literal[
    "bool", "int", "decimal", "date", "datetime", "email", "padded", "shaped", "text", "text_date"
]

Bound = int | Decimal | date | datetime
# (value in the form, its key, how to refuse it) -> the bound; refusals are FormErrors
BoundParser = Callable[[object, str, Callable[[str], FormError]], Bound]
# Quoted: Field exists for type checking only (see the import above).
CellBuilder: TypeAlias = "Callable[[Field, bool], Coercer]"  # (field, date1904) -> coercer
ColumnBuilder: TypeAlias = "Callable[[Field, Coercer], ColumnCoercer]"


@dataclass(frozen=True)
class Inference:
    """How `forms infer` proposes a type: when the sampled cells of the `kinds` make up 90%
    of a column's filled cells. Of several that fit, the lowest `rank` wins; its misfits
    are noted as fitting `wider` when they all do."""

    rank: int
    kinds: frozenset[CellKind]
    wider: FieldType | None = None


@dataclass(frozen=True)
class FieldTypeSpec:
    name: FieldType
    pg_type: str  # the column type of typed views over the stored JSON values
    coercer: CellBuilder
    rules: frozenset[Rule] = frozenset()
    parse_bound: BoundParser | None = None  # reads min/max; None where they do not apply
    column: ColumnBuilder | None = None  # a batch column fast path; None: cell by cell
    infer: Inference | None = None  # None: never proposed from cell kinds

    def __post_init__(self) -> None:
        # A misstated entry fails on import rather than as a confusing form error later.
        if ("min" in self.rules) != (self.parse_bound is not None):
            raise ValueError(f"{self.name}: the min/max rules and a bounds parser go together")
        for pair in (("min", "max"), ("min_length", "max_length")):
            if len(self.rules.intersection(pair)) == 1:
                raise ValueError(f"{self.name}: rules {pair[0]} and {pair[1]} go together")


# --- bounds (min/max) -----------------------------------------------------------------------


def _whole_bound(value: object, key: str, fail: Callable[[str], FormError]) -> Bound:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise fail(f"{key!r} must be a whole number")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise fail(f"{key!r} must be a whole number") from None
    if number != number.to_integral_value():
        raise fail(f"{key!r} must be a whole number")
    return int(number)


def _number_bound(value: object, key: str, fail: Callable[[str], FormError]) -> Bound:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise fail(f"{key!r} must be a number")
    try:
        number = Decimal(repr(value) if isinstance(value, float) else str(value).strip())
    except InvalidOperation:
        raise fail(f"{key!r} must be a number") from None
    if not number.is_finite():
        raise fail(f"{key!r} must be a finite number")
    return number


def _date_bound(value: object, key: str, fail: Callable[[str], FormError]) -> Bound:
    if isinstance(value, datetime):
        raise fail(f"{key!r} must be a date (YYYY-MM-DD), not a date and time")
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise fail(f"{key!r} must be a date (YYYY-MM-DD)")


def _datetime_bound(value: object, key: str, fail: Callable[[str], FormError]) -> Bound:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime.combine(value, time())
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.strip())
        except ValueError:
            pass
    raise fail(f"{key!r} must be a date and time (YYYY-MM-DDTHH:MM:SS)")


# --- the registry -----------------------------------------------------------------------------

_TEXT_RULES: frozenset[Rule] = frozenset({"min_length", "max_length", "pattern"})
_BOUNDS: frozenset[Rule] = frozenset({"min", "max"})
_DATED_RULES: frozenset[Rule] = _BOUNDS | {"formats"}

# In the order forms list them (the parser's refusal of an unknown type names them so).
FIELD_TYPE_SPECS: dict[FieldType, FieldTypeSpec] = {
    spec.name: spec
    for spec in (
        FieldTypeSpec(
            name="string",
            pg_type="text",
            coercer=string_coercer,
            rules=_TEXT_RULES,
            column=text_column,
        ),
        FieldTypeSpec(
            name="integer",
            pg_type="bigint",
            coercer=integer_coercer,
            rules=_BOUNDS,
            parse_bound=_whole_bound,
            column=integer_column,
            infer=Inference(rank=30, kinds=frozenset({"int"}), wider="decimal"),
        ),
        FieldTypeSpec(
            name="decimal",
            pg_type="numeric",
            coercer=decimal_coercer,
            rules=_BOUNDS,
            parse_bound=_number_bound,
            column=memoized_column(decimal_floats),
            infer=Inference(rank=40, kinds=frozenset({"int", "decimal"})),
        ),
        FieldTypeSpec(
            name="date",
            pg_type="date",
            coercer=date_coercer,
            rules=_DATED_RULES,
            parse_bound=_date_bound,
            column=memoized_column(),
            infer=Inference(rank=50, kinds=frozenset({"date", "text_date"}), wider="datetime"),
        ),
        FieldTypeSpec(
            name="datetime",
            pg_type="timestamptz",
            coercer=datetime_coercer,
            rules=_DATED_RULES,
            parse_bound=_datetime_bound,
            column=memoized_column(datetime_moments),
            infer=Inference(rank=60, kinds=frozenset({"date", "datetime", "text_date"})),
        ),
        FieldTypeSpec(
            name="boolean",
            pg_type="boolean",
            coercer=boolean_coercer,
            column=boolean_column,
            infer=Inference(rank=20, kinds=frozenset({"bool"})),
        ),
        FieldTypeSpec(
            name="email",
            pg_type="text",
            coercer=email_coercer,
            rules=_TEXT_RULES,
            column=email_column,
            infer=Inference(rank=10, kinds=frozenset({"email"})),
        ),
        FieldTypeSpec(
            name="enum",
            pg_type="text",
            coercer=enum_coercer,
            rules=frozenset({"choices"}),  # required where allowed: a field's only answers
            column=memoized_column(),
        ),
    )
}
FIELD_TYPES: tuple[FieldType, ...] = tuple(FIELD_TYPE_SPECS)
