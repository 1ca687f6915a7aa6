"""Column-at-a-time coercion: one field's cells of a whole batch in a few C-level passes.

Per cell, Python costs ~50-100 ns per function call; a batch column checked with builtins
(`set(map(type, cells))`, `min`/`max`, `map(dict.get, ...)`) costs a fraction of that. Each
column coercer takes the batch's cells of one field and returns (values, failed): the
stored values (None where a cell failed) and each failed cell's position and message. When a
column's common case does not hold for every cell, it falls back to the field's full
coercer cell by cell, which gives exactly the same answers (tests check this).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from itertools import compress, count, repeat
from operator import ge, is_, is_not, le
from typing import TYPE_CHECKING, Any, cast

from importer.fields.cells import (
    BIGINT_LIMIT,
    EMAIL,
    FALSE_WORDS,
    FIRST_YEAR,
    TRUE_WORDS,
    Coercer,
    Invalid,
    email_text,
    string_text,
)
from importer.fields.patterns import compiled

if TYPE_CHECKING:  # field.py imports the registry, which imports these builders
    from importer.fields.field import Field

# (stored values, [(position, message) of each failed cell])
Outcome = tuple[list[Any], list[tuple[int, str]]]
ColumnCoercer = Callable[[Sequence[object]], Outcome]

_MEMO_LIMIT = 50_000


def _one_by_one(coerce: Coercer, cells: Sequence[object]) -> Outcome:
    values: list[Any] = []
    failed: list[tuple[int, str]] = []
    for index, cell in enumerate(cells):
        try:
            values.append(coerce(cell))
        except Invalid as exc:
            values.append(None)
            failed.append((index, exc.message))
    return values, failed


_LATER = object()  # a cell the common case did not settle: its coercer decides


def _where(values: list[Any], marker: object) -> list[int]:
    """Positions holding exactly `marker`, found in C-level passes (no Python loop)."""
    return list(compress(count(), map(is_, values, repeat(marker))))


def _finish(
    values: list[Any], cells: Sequence[object], coerce: Coercer, later: list[int] | None = None
) -> Outcome:
    """Run the full coercer on the cells at `later` (default: those marked _LATER)."""
    failed: list[tuple[int, str]] = []
    for index in _where(values, _LATER) if later is None else sorted(later):
        try:
            values[index] = coerce(cells[index])
        except Invalid as exc:
            values[index] = None
            failed.append((index, exc.message))
    return values, failed


def column_coercer(field: Field, coerce: Coercer) -> ColumnCoercer:
    """The batch-column version of `coerce` for this field."""
    build = field.spec.column
    return each_cell(coerce) if build is None else build(field, coerce)


def each_cell(coerce: Coercer) -> ColumnCoercer:
    """The column coercer without a fast path: the field's coercer on every cell."""
    return partial(_one_by_one, coerce)


def matched_first(
    field: Field, text_of: Callable[[object], str | None], bulk: ColumnCoercer
) -> ColumnCoercer:
    """``bulk`` with the field's pattern matched on the column's texts in one call first
    (each cell's check then looks its answer up: patterns.py)."""
    if field.pattern is None:
        return bulk
    pattern = compiled(field.pattern)

    def run(cells: Sequence[object]) -> Outcome:
        texts = [t for t in map(text_of, cells) if t is not None]
        with pattern.primed(texts):
            return bulk(cells)

    return run


def text_column(field: Field, coerce: Coercer) -> ColumnCoercer:
    if field.pattern is not None or field.min_length is not None:
        # checks the common case cannot settle in bulk
        return matched_first(field, string_text, each_cell(coerce))
    bounded = field.max_length is not None
    limit = field.max_length if field.max_length is not None else 1 << 62

    def run(cells: Sequence[object]) -> Outcome:
        # All text, none blank, no NUL, none too long: stored as they are.
        if (
            set(map(type, cells)) == {str}
            and all(map(str.strip, cells))  # type: ignore[arg-type]
            and "\x00" not in "".join(cells)  # type: ignore[arg-type]
            and (not bounded or max(map(len, cells)) <= limit)  # type: ignore[arg-type]
        ):
            return list(cells), []
        values: list[Any] = [
            c if type(c) is str and c.strip() and "\x00" not in c and len(c) <= limit else _LATER
            for c in cells
        ]
        return _finish(values, cells, coerce)

    return run


def _positions(flags: list[bool]) -> list[int]:
    """Where `flags` is False: a C-level scan per hit (few hits: the rare bad cells)."""
    found: list[int] = []
    index = -1
    try:
        while True:
            index = flags.index(False, index + 1)
            found.append(index)
    except ValueError:
        return found


def integer_column(field: Field, coerce: Coercer) -> ColumnCoercer:
    # The field's bounds within what a bigint holds (the coercer refuses beyond it too).
    lo = max(cast(int, field.min), -BIGINT_LIMIT) if field.min is not None else -BIGINT_LIMIT
    hi = min(cast(int, field.max), BIGINT_LIMIT - 1) if field.max is not None else BIGINT_LIMIT - 1
    stand_in = float(max(lo, min(0, hi)))  # a whole number within the bounds

    def run(cells: Sequence[object]) -> Outcome:
        # Excel stores every number as a float: the common column is whole floats within
        # the bounds, with perhaps a few other cells ("n/a", 1.5) that the coercer decides.
        kinds = set(map(type, cells))
        if kinds == {str}:
            return _digit_texts(cells)
        if int in kinds and kinds <= {int, type(None)}:
            return _whole_numbers(cells)
        if float not in kinds:
            return _one_by_one(coerce, cells)
        numbers: Sequence[Any] = cells
        later: list[int] = []
        if len(kinds) > 1:
            later = _positions(list(map(is_, map(type, cells), repeat(float))))
            numbers = _replaced(cells, later, stand_in, cells)
        odd = _positions(list(map(float.is_integer, numbers)))  # 1.5, NaN, infinities
        if odd:
            numbers = _replaced(numbers, odd, stand_in, cells)
            later += odd
        # min/max are exact here: NaN is gone, so one comparison settles the whole column.
        if min(numbers) < lo:
            below = _positions(list(map(le, repeat(lo), numbers)))
            numbers = _replaced(numbers, below, stand_in, cells)
            later += below
        if max(numbers) > hi:
            later += _positions(list(map(ge, repeat(hi), numbers)))
            numbers = _replaced(numbers, later, stand_in, cells)
        values: list[Any] = list(map(math.trunc, numbers))  # int() of a whole float, 2x faster
        if not later:
            return values, []
        return _finish(values, cells, coerce, later)

    def _whole_numbers(cells: Sequence[object]) -> Outcome:
        """Python ints (a lookup's ids, a computed whole number) and empty cells."""
        empty = _positions(list(map(is_not, cells, repeat(None))))
        numbers: list[Any] = _replaced(cells, empty, int(stand_in), cells)
        later = empty
        if min(numbers) < lo or max(numbers) > hi:
            later = sorted(set(later) | set(_positions(list(map(le, repeat(lo), numbers)))))
            later = sorted(set(later) | set(_positions(list(map(ge, repeat(hi), numbers)))))
        values = list(numbers)
        if not later:
            return values, []
        return _finish(values, cells, coerce, later)

    def _digit_texts(cells: Sequence[object]) -> Outcome:
        """A CSV's column: plain ASCII digits (18 at most) are what int() makes of them;
        the other cells ("n/a", "1,000", " 7") are left to the coercer."""
        texts = cast(Sequence[str], cells)
        later = _positions(list(map(str.isdigit, texts)))
        if len(later) > len(texts) // 4:
            return _one_by_one(coerce, cells)
        digits = _replaced(texts, later, str(int(stand_in)), cells)
        if not "".join(digits).isascii() or max(map(len, digits)) > 18:
            return _one_by_one(coerce, cells)  # other scripts' digits, huge numbers
        values: list[Any] = list(map(int, digits))
        if min(values) < lo or max(values) > hi:
            later += _positions(list(map(le, repeat(lo), values)))
            later += _positions(list(map(ge, repeat(hi), values)))
        if not later:
            return values, []
        return _finish(values, cells, coerce, sorted(set(later)))

    return run


def _replaced(
    values: Sequence[Any], positions: list[int], stand_in: object, cells: Sequence[object]
) -> list[Any]:
    """`values` with `stand_in` at `positions`: a copy while they are still the cells."""
    out = list(values) if values is cells or type(values) is not list else values
    for index in positions:
        out[index] = stand_in
    return out


# The usual spellings of yes/no texts (a CSV's TRUE/FALSE), each meaning what the coercer
# makes of it (it strips and case-folds, then looks the word up).
_BOOL_TEXTS: dict[object, bool] = {
    spelling: truth
    for words, truth in ((TRUE_WORDS, True), (FALSE_WORDS, False))
    for word in words
    for spelling in (word, word.upper(), word.capitalize())
}


def boolean_column(field: Field, coerce: Coercer) -> ColumnCoercer:
    def run(cells: Sequence[object]) -> Outcome:
        kinds = set(map(type, cells))
        if kinds == {bool}:
            return list(cells), []
        if kinds == {str}:
            values: list[Any] = list(map(_BOOL_TEXTS.get, cells))
            if None not in values:
                return values, []
        return _one_by_one(coerce, cells)

    return run


# Every cell of a column checked by one regex run over the cells joined by newlines (the
# address pattern cannot span a newline): ~2x faster than one fullmatch call per cell.
_EMAIL_LINES = re.compile(f"(?:(?:{EMAIL.pattern})\n)*+")


def email_column(field: Field, coerce: Coercer) -> ColumnCoercer:
    if field.pattern is not None or field.min_length is not None:
        # checks the common case cannot settle in bulk
        return matched_first(field, email_text, each_cell(coerce))
    limit = field.max_length if field.max_length is not None else 1 << 62
    match = EMAIL.fullmatch

    def run(cells: Sequence[object]) -> Outcome:
        if set(map(type, cells)) == {str}:
            joined = "\n".join(cells) + "\n"  # type: ignore[arg-type]
            if (
                joined.count("\n") == len(cells)
                and _EMAIL_LINES.fullmatch(joined) is not None
                and (field.max_length is None or max(map(len, cells)) <= limit)  # type: ignore[arg-type]
            ):
                return list(cells), []
        values: list[Any] = [
            c if type(c) is str and len(c) <= limit and match(c) else _LATER for c in cells
        ]
        return _finish(values, cells, coerce)

    return run


def memoized_column(
    bulk_settle: Callable[[Field], BulkSettle] | None = None,
) -> Callable[[Field, Coercer], ColumnCoercer]:
    """The column builder for few distinct values per column (dates, statuses, prices): a
    dict answers most cells; `bulk_settle`, when given, settles many new cells at once."""

    def build(field: Field, coerce: Coercer) -> ColumnCoercer:
        return _Memoized(field, coerce, bulk_settle(field) if bulk_settle is not None else None)

    return build


class _Memoized:
    """A column coercer that remembers answers: a dict answers most cells of a column of
    few distinct values. Only successful, non-empty answers are remembered; never for values
    equal to 0 or 1 (other than text), since True == 1 == 1.0 as dict keys. Messages of
    texts seen failing ("n/a", "pending") are remembered too."""

    def __init__(self, field: Field, coerce: Coercer, bulk: BulkSettle | None) -> None:
        self.coerce = coerce
        self.bulk = bulk
        self.memo: dict[object, Any] = {choice: choice for choice in field.choices}
        self.refused: dict[object, str] = {}

    def remember(self, cell: object, result: Any) -> None:
        memo = self.memo
        if (
            result is not None
            and len(memo) < _MEMO_LIMIT
            and (type(cell) is str or not (cell == 0 or cell == 1))
        ):
            memo[cell] = result

    def remember_all(self, cells: Sequence[object], results: Sequence[Any]) -> None:
        """remember() for numbers that all succeeded, in one C-level pass."""
        memo = self.memo
        if len(memo) < _MEMO_LIMIT:
            memo.update(zip(cells, results, strict=True))
            memo.pop(0, None)  # the 0/1 rule above (0.0 and -0.0 are the key 0)
            memo.pop(1, None)

    def __call__(self, cells: Sequence[object]) -> Outcome:
        values = list(map(self.memo.get, cells))
        failed: list[tuple[int, str]] = []
        if None not in values:
            return values, failed
        missing = _where(values, None)
        if self.bulk is not None:  # amounts, timestamps: often all different, settled in bulk
            values, missing = self._settle_in_bulk(cells, values, missing)
        self._coerce_each(cells, values, missing, failed)
        return values, failed

    def _settle_in_bulk(
        self, cells: Sequence[object], values: list[Any], missing: list[int]
    ) -> tuple[list[Any], list[int]]:
        assert self.bulk is not None
        settled, results = self.bulk(cells, missing)
        if len(settled) == len(values):  # the whole column (a batch of new amounts)
            self.remember_all(cells, results)
            return list(results), []
        if settled:
            for index, result in zip(settled, results, strict=True):
                values[index] = result
            self.remember_all([cells[index] for index in settled], results)
            done = set(settled)
            missing = [index for index in missing if index not in done]
        return values, missing

    def _coerce_each(
        self,
        cells: Sequence[object],
        values: list[Any],
        missing: list[int],
        failed: list[tuple[int, str]],
    ) -> None:
        coerce, refused, remember = self.coerce, self.refused, self.remember
        for index in missing:
            cell = cells[index]
            known = refused.get(cell) if type(cell) is str else None
            if known is not None:
                failed.append((index, known))
                continue
            try:
                result = coerce(cell)
            except Invalid as exc:
                failed.append((index, exc.message))
                if type(cell) is str and len(refused) < _MEMO_LIMIT:
                    refused[cell] = exc.message
                continue
            values[index] = result
            remember(cell, result)


# (cells, positions the memo did not answer) -> (positions settled, their stored values);
# the cells not settled are left to the coercer.
BulkSettle = Callable[[Sequence[object], list[int]], tuple[list[int], list[Any]]]


def decimal_floats(field: Field) -> BulkSettle:
    """Settle a decimal column's float cells at `missing` without a coercer call each: the
    coercer's own rounding (15 significant digits, format ".15g") as one C-level pass, then
    its bounds. Other types, NaN and out-of-bounds values are left to the coercer.

    Why the repr shortcut holds: if x's shortest repr d has k <= 15 significant digits, x
    is within 2**-53 * |x| of d, far less than half a unit in d's 15th digit, so rounding x
    to 15 digits gives d, and float(d) is x."""
    lo = float(cast(float, field.min)) if field.min is not None else -math.inf
    hi = float(cast(float, field.max)) if field.max is not None else math.inf

    def settle(cells: Sequence[object], missing: list[int]) -> tuple[list[int], list[Any]]:
        at = [index for index in missing if type(cells[index]) is float]
        if len(at) < 2:
            return [], []
        numbers = cast(list[float], [cells[index] for index in at])
        # A float whose shortest repr has at most 15 digits is its own rounding: checking
        # that costs half of formatting each one.
        if max(map(len, map(float.__repr__, numbers))) <= 15:
            rounded = numbers
        else:
            rounded = list(map(float, map(format, numbers, repeat(".15g"))))
        if all(map(math.isfinite, rounded)) and min(rounded) >= lo and max(rounded) <= hi:
            return at, rounded
        fits = [lo <= number <= hi and math.isfinite(number) for number in rounded]
        return list(compress(at, fits)), list(compress(rounded, fits))

    return settle


def datetime_moments(field: Field) -> BulkSettle:
    """Settle a datetime column's datetime cells at `missing` in one pass when the field
    has no bounds: the coercer would give each one's isoformat(), after refusing years
    before 1900 (checked here on the earliest)."""

    def settle(cells: Sequence[object], missing: list[int]) -> tuple[list[int], list[Any]]:
        if field.min is not None or field.max is not None:
            return [], []
        at = [index for index in missing if type(cells[index]) is datetime]
        if len(at) < 2:
            return [], []
        moments = cast(list[datetime], [cells[index] for index in at])
        try:
            earliest = min(moments)
        except TypeError:  # offsets on some, not on others: the coercer decides each
            return [], []
        if earliest.year < FIRST_YEAR:
            return [], []
        return at, list(map(datetime.isoformat, moments))

    return settle
