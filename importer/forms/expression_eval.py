"""What a form expression does at run time, a whole column at a time (forms/expressions.py
compiles a parse tree into nested closures built from these).

Each closure maps the batch's columns (lists, ``count`` long) to a list. An empty value is
``None`` and propagates through every operation except ``is empty``, ``coalesce`` and the
three-valued ``and``/``or``. A row whose operation fails for its data (division by zero,
an overflow, a date out of range, an aware time compared with a naive one) gives ``None``
for that row alone: evaluation never raises for data reasons.

Speed: the common case (no empty value, nothing failing) is one C-level ``map`` per
operation; only a column holding an empty value takes a comprehension, and only a column
in which some row failed is walked again row by row under ``try``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Context, Decimal, DivisionByZero, InvalidOperation, Overflow
from itertools import repeat
from typing import Any

Column = list[Any]
Binary = Callable[[Any, Any], Any]
Unary = Callable[[Any], Any]

# What a row's data can make an operation raise (DivisionByZero, InvalidOperation and
# OverflowError are ArithmeticErrors): such a row gives None, never an exception.
DATA_ERRORS = (ArithmeticError, TypeError, ValueError)

# Numbers are Decimal with these traps on, whatever the caller's thread has set, so that
# a division by zero or an overflow raises (and becomes None) instead of giving Infinity.
DECIMALS = Context(prec=28, traps=[InvalidOperation, DivisionByZero, Overflow])

_MICROSECONDS_A_DAY = 86_400_000_000


class Env:
    """One evaluation: the batch's columns, each read (and its numbers made exact) once."""

    __slots__ = ("columns", "count", "read", "today")

    def __init__(self, columns: Mapping[str, Sequence[object]], count: int, today: date):
        self.columns = columns
        self.count = count
        self.today = today
        self.read: dict[str, Column] = {}

    def column(self, name: str, numbers: bool) -> Column:
        values = self.read.get(name)
        if values is None:
            raw = self.columns[name]
            if len(raw) != self.count:
                raise ValueError(f"column {name!r} has {len(raw)} values, not {self.count}")
            values = raw if type(raw) is list else list(raw)
            # One C-level pass finds whether there is a float to make exact at all.
            if numbers and float in set(map(type, values)):
                values = [exact(v) if type(v) is float else v for v in values]
            self.read[name] = values
        return values


Run = Callable[[Env], Column]


def exact(value: float) -> Decimal | None:
    """A float as the Decimal it reads as (0.1 -> Decimal('0.1')); NaN is no number: empty."""
    return None if value != value else Decimal(repr(value))


# --- mapping operations over columns -------------------------------------------------------


def has_empty(values: Column) -> bool:
    # Identity at C speed: ``None in values`` asks each Decimal's __eq__, ten times slower.
    return any(map(operator.is_, values, repeat(None)))


def _guarded2(fn: Binary, x: object, y: object) -> object:
    if x is None or y is None:
        return None
    try:
        return fn(x, y)
    except DATA_ERRORS:
        return None


def _guarded1(fn: Unary, x: object) -> object:
    if x is None:
        return None
    try:
        return fn(x)
    except DATA_ERRORS:
        return None


def map2(fn: Binary, a: Column, b: Column) -> Column:
    try:
        if has_empty(a) or has_empty(b):
            return [None if x is None or y is None else fn(x, y) for x, y in zip(a, b, strict=True)]
        return list(map(fn, a, b))
    except DATA_ERRORS:
        return [_guarded2(fn, x, y) for x, y in zip(a, b, strict=True)]


def map1(fn: Unary, a: Column) -> Column:
    try:
        if has_empty(a):
            return [None if x is None else fn(x) for x in a]
        return list(map(fn, a))
    except DATA_ERRORS:
        return [_guarded1(fn, x) for x in a]


def binary(fn: Binary, left: Run, right: Run) -> Run:
    return lambda env: map2(fn, left(env), right(env))


def unary(fn: Unary, operand: Run) -> Run:
    return lambda env: map1(fn, operand(env))


def constant(value: object) -> Run:
    return lambda env: [value] * env.count


def field(name: str, numbers: bool) -> Run:
    return lambda env: env.column(name, numbers)


def today() -> Run:
    return lambda env: [env.today] * env.count


# --- logic: SQL's three values ---------------------------------------------------------------


def _and(a: Column, b: Column) -> Column:
    if has_empty(a) or has_empty(b):
        return [
            False if x is False or y is False else None if x is None or y is None else True
            for x, y in zip(a, b, strict=True)
        ]
    return list(map(operator.and_, a, b))


def _or(a: Column, b: Column) -> Column:
    if has_empty(a) or has_empty(b):
        return [
            True if x is True or y is True else None if x is None or y is None else False
            for x, y in zip(a, b, strict=True)
        ]
    return list(map(operator.or_, a, b))


def and_(left: Run, right: Run) -> Run:
    return lambda env: _and(left(env), right(env))


def or_(left: Run, right: Run) -> Run:
    return lambda env: _or(left(env), right(env))


def not_(operand: Run) -> Run:
    return lambda env: [None if x is None else not x for x in operand(env)]


def is_empty(operand: Run, negate: bool) -> Run:
    if negate:
        return lambda env: [x is not None for x in operand(env)]
    return lambda env: [x is None for x in operand(env)]


def member(operand: Run, items: frozenset[object], negate: bool) -> Run:
    def run(env: Env) -> Column:
        values = operand(env)
        try:
            return [None if x is None else (x in items) is not negate for x in values]
        except TypeError:  # an unhashable value in a column of the wrong type
            return [_guarded1(lambda x: (x in items) is not negate, x) for x in values]

    return run


def coalesce(operands: Sequence[Run]) -> Run:
    def run(env: Env) -> Column:
        out = operands[0](env)
        for operand in operands[1:]:
            if not has_empty(out):
                break
            out = [x if x is not None else y for x, y in zip(out, operand(env), strict=True)]
        return out

    return run


# --- numbers ----------------------------------------------------------------------------------


def divide(x: int | Decimal, y: int | Decimal) -> Decimal:
    return Decimal(x) / y  # always Decimal: 7 / 2 is 3.5, and 1 / 0 raises (traps)


def round_half_up(x: int | Decimal, digits: int | Decimal = 0) -> int | Decimal:
    """Half away from zero, as people round (2.5 -> 3, -2.5 -> -3); to ``digits`` places,
    an int when there are none left."""
    if not isinstance(digits, int):
        if digits != digits.to_integral_value():
            raise ValueError("digits must be whole")
        digits = int(digits)
    if type(x) is int and digits >= 0:
        return x
    rounded = Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return int(rounded) if digits <= 0 else rounded


# --- dates and times --------------------------------------------------------------------------


def _days(n: int | Decimal, whole: bool) -> timedelta:
    if isinstance(n, int):
        return timedelta(days=n)
    if whole:
        if n != n.to_integral_value():
            raise ValueError("a date moves by whole days")
        return timedelta(days=int(n))
    microseconds = (Decimal(n) * _MICROSECONDS_A_DAY).to_integral_value(ROUND_HALF_UP)
    return timedelta(microseconds=int(microseconds))


def add_days(day: date, n: int | Decimal) -> date:
    # A date moves by whole days only (1.5 days from a date is no date); a datetime by any.
    return day + _days(n, whole=not isinstance(day, datetime))


def subtract_days(day: date, n: int | Decimal) -> date:
    return day - _days(n, whole=not isinstance(day, datetime))


def midnight(day: date, other: date) -> date:
    """A date beside a datetime, as that day's midnight (in the datetime's zone)."""
    if isinstance(other, datetime) and not isinstance(day, datetime):
        return datetime.combine(day, time(), other.tzinfo)
    return day


def days_between(a: date, b: date) -> int | Decimal:
    """a - b in days: whole days an int, else a Decimal fraction of a day."""
    span = midnight(a, b) - midnight(b, a)
    if span.seconds == 0 and span.microseconds == 0:
        return span.days
    rest = span.seconds * 1_000_000 + span.microseconds
    return span.days + Decimal(rest) / _MICROSECONDS_A_DAY


def compare_mixed(fn: Binary) -> Binary:
    """A comparison of a date with a datetime: the date as its midnight."""
    return lambda x, y: fn(midnight(x, y), midnight(y, x))
