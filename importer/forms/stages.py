"""The business stages of a batch, around each cell's coercion (validation.py calls them):

cleaning (trim, missing, replace, case) -> defaults for empty cells -> lookups -> [type
coercion and the cell rules] -> computed fields -> row rules -> the hook -> uniqueness.

Each stage works on whole columns of the batch. The cells the sender wrote are never
changed: the rejected rows (and so the error workbook) show them as written.

Uniqueness within the file holds across batches and across a resume: every value a valid
row claims is kept (UniqueClaims), the batch's new claims are written in the batch
transaction with its rows, and a resumed run starts from the job's stored claims, so that
a resumed job decides every row as the uninterrupted run would have.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from itertools import repeat
from operator import is_, methodcaller
from typing import Any, Protocol

from importer.errors import ImporterError, RowError
from importer.excel.values import display_texts
from importer.fields.cells import EMPTY_REQUIRED, Coercer, Invalid
from importer.fields.columns import ColumnCoercer
from importer.fields.field import Field, Lookup
from importer.forms.definition import Form
from importer.forms.expressions import Expression
from importer.forms.rules import KIND_OF, compile_rule, computed_fields, kinds_of

Hook = Callable[[dict[str, Any]], Mapping[str, Any] | None]
# (index in the batch, the column's header text (None: the row as a whole), the message)
Problem = tuple[int, str | None, str]
_key_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode


class LookupSource(Protocol):
    """Where lookups are resolved (repositories/lookups.py: one query per batch, cached)."""

    def find(self, lookup: Lookup, texts: Sequence[str]) -> Mapping[str, Sequence[object]]:
        """For each text (lower-cased when the lookup ignores case) that matches, the
        ``returns`` value of every row matching it."""
        ...

    def suggest(self, lookup: Lookup, texts: Sequence[str]) -> Mapping[str, Sequence[str]]:
        """A few known ``match`` values close to each text (bounded work per text)."""
        ...


_TEXT_TYPES = frozenset({"string", "email", "enum"})
# What `trim` strips: spaces (every Unicode space, the no-break one too), tabs and line
# breaks; not the control separators U+001C-U+001F, NEL, U+2028 and U+2029, which Python's
# str.strip also takes but a sender types only on purpose.
SPACES = "".join(
    c
    for c in map(chr, range(0x3001))
    if c.isspace() and c not in "\x1c\x1d\x1e\x1f\x85\u2028\u2029"
)
_strip = methodcaller("strip", SPACES)


def cleaner(form: Form, f: Field) -> Callable[[Sequence[object]], Sequence[object]] | None:
    """The function cleaning a column of this field's cells, or None when nothing would.
    Trimming matters to text (the other types' coercers read a number or a date past the
    spaces already), and to a lookup's cells."""
    textual = f.type in _TEXT_TYPES or f.lookup is not None
    trim = (form.rules.trim if f.trim is None else f.trim) and textual
    missing = frozenset(form.rules.missing if f.missing is None else f.missing)
    replace = {k.casefold(): v for k, v in f.replace}  # "usa" is "USA" too
    case = {"lower": str.lower, "upper": str.upper, "title": str.title}.get(f.case or "")
    default = f.default
    texts = bool(trim or missing or replace or case)
    if not texts and default is None:
        return None

    def clean_text(text: str) -> object:
        if trim:
            text = text.strip(SPACES)
            if not text:
                return None
        if text in missing or text.strip(SPACES) in missing:
            return None
        if replace:
            text = replace.get(text.casefold(), text)
        return case(text) if case is not None else text

    def clean(cells: Sequence[object]) -> Sequence[object]:
        values: Sequence[object] = cells
        if texts:
            kinds = set(map(type, cells))
            if kinds == {str} and not (missing or replace or case):
                stripped = list(map(_strip, cells))
                values = [t or None for t in stripped] if "" in stripped else stripped
            elif str in kinds:
                values = [clean_text(v) if type(v) is str else v for v in cells]
        if default is not None:
            # An empty cell, or one of spaces only (what every type's coercer reads as empty).
            values = [
                default if v is None or (type(v) is str and not v.strip()) else v for v in values
            ]
        return values

    return clean


@dataclass(frozen=True)
class MissingTexts:
    """A field's `missing` texts and where they are set: what a required cell holding one
    is told instead of being called empty (the sender wrote something)."""

    texts: frozenset[str]
    setting: str  # `the form's missing = ["N/A", "-"]`

    @classmethod
    def of(cls, form: Form, f: Field) -> MissingTexts | None:
        own = f.missing is not None
        texts = f.missing if f.missing is not None else form.rules.missing
        if not texts:
            return None
        listed = ", ".join(json.dumps(t, ensure_ascii=False) for t in texts[:6])
        more = ", ..." if len(texts) > 6 else ""
        whose = f"field {f.name}'s" if own else "the form's"
        return cls(frozenset(texts), f"{whose} missing = [{listed}{more}]")

    def explain(self, cell: object, message: str) -> str:
        if message != EMPTY_REQUIRED or type(cell) is not str:
            return message
        text = cell if cell in self.texts else cell.strip(SPACES)
        if text not in self.texts:
            return message  # empty or spaces only: truly empty
        return f"{text!r} counts as empty here ({self.setting}) and a value is required"


@dataclass
class UniqueClaims:
    """Each unique set's values taken so far in the file: key text -> the row with it."""

    taken: dict[str, dict[str, int]] = field(default_factory=dict)

    def seed(self, stored: Sequence[tuple[str, str, int]]) -> None:
        """A resumed job's stored claims: (set name, key text, row)."""
        for name, key, row in stored:
            self.taken.setdefault(name, {})[key] = row


@dataclass
class Extra:
    """What the stages add to a batch: the columns of fields without a sheet column, the
    problems found, and the claims of uniqueness the batch's valid rows make."""

    names: list[str] = field(default_factory=list)
    columns: list[list[Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    claims: list[tuple[str, str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class _Computed:
    field: Field
    expression: Expression
    bulk: ColumnCoercer


class Stages:
    """The stages of one form against one sheet's columns (built once per job)."""

    def __init__(
        self,
        form: Form,
        present: Mapping[str, str],  # field name -> its sheet header text
        *,
        coercers: Mapping[str, tuple[Coercer, ColumnCoercer]],  # every field's
        lookups: LookupSource | None = None,
        hook: Hook | None = None,
        today: date | None = None,
        on_warning: Callable[[str], None] | None = None,  # what only the operator can fix
    ) -> None:
        self.form = form
        self.on_warning = on_warning
        self.warned: set[str] = set()  # the fields whose lookup table's duplicates were told
        self.present = dict(present)
        self.headers = {f.name: present.get(f.name, f.header) for f in form.fields}
        self.cleaners = {f.name: cleaner(form, f) for f in form.fields}
        self.missing = {
            f.name: texts for f in form.fields if (texts := MissingTexts.of(form, f)) is not None
        }
        self.lookups = lookups
        self.hook = hook
        self.today = today or date.today()
        self.coercers = coercers
        # Absent optional fields with a default: a constant column.
        self.defaulted = [
            f for f in form.sheet_fields if f.name not in present and f.default is not None
        ]
        self.computed = [
            _Computed(f, expression, coercers[f.name][1])
            for f, expression in computed_fields(form.fields)
        ]
        kinds = kinds_of(form.fields)
        self.rules = [(rule, compile_rule(rule, kinds)) for rule in form.row_rules]
        self.unique = form.unique
        self.claims = UniqueClaims()

    @property
    def added(self) -> list[str]:
        """The fields whose columns these stages add (no sheet column of their own)."""
        return [f.name for f in self.defaulted] + [c.field.name for c in self.computed]

    # --- before coercion --------------------------------------------------------------------

    def before(
        self, name: str, cells: Sequence[object]
    ) -> tuple[Sequence[object], Sequence[object], dict[int, str]]:
        """A column's cells cleaned and defaulted; then looked up: what its coercer is
        given; and the lookups' failures by index."""
        clean = self.cleaners.get(name)
        values = clean(cells) if clean is not None else cells
        lookup = self.form.field(name).lookup
        if lookup is None:
            return values, values, {}
        found, failed = self._look_up(name, lookup, values)
        return values, found, failed

    def explain_empty(
        self, name: str, cells: Sequence[object], failed: list[tuple[int, str]]
    ) -> list[tuple[int, str]]:
        """The failures of a column's cells, a required cell the sender filled with one of
        the `missing` texts told what it held and which setting empties it."""
        missing = self.missing.get(name)
        if missing is None or not failed:
            return failed
        return [(index, missing.explain(cells[index], message)) for index, message in failed]

    def _look_up(
        self, name: str, lookup: Lookup, values: Sequence[object]
    ) -> tuple[list[object], dict[int, str]]:
        if self.lookups is None:
            raise ImporterError(f"form {self.form.name!r} has lookups: they need the database")
        texts = display_texts(values)  # a column of one type in a C-level pass or two
        keys = (
            [t.lower() if t is not None else None for t in texts] if lookup.ignore_case else texts
        )
        wanted: set[str] = {key for key in keys if key is not None}
        found = self.lookups.find(lookup, sorted(wanted)) if wanted else {}
        one: dict[str | None, object] = {k: rows[0] for k, rows in found.items() if len(rows) == 1}
        out: list[object] = list(map(one.get, keys))  # None for an empty cell and a miss
        failed: dict[int, str] = {}
        if len(one) == len(wanted):
            return out, failed
        misses = wanted - one.keys()
        near = self.lookups.suggest(lookup, sorted(k for k in misses if not found.get(k)))
        noun = lookup.noun
        for index, key in enumerate(keys):
            if key is None or key not in misses:
                continue
            text, rows = texts[index], found.get(key, ())
            if rows:
                # The sender's words; the table's duplicates are the operator's to fix.
                failed[index] = (
                    f"{text!r} is ambiguous: {len(rows)} {noun}s go by it and the import "
                    f"cannot choose; write a value that only one {noun} goes by"
                )
                self._warn_duplicates(name, lookup, text, len(rows))
            else:
                close = near.get(key, ())
                hint = f"; did you mean {' or '.join(map(repr, close[:3]))}?" if close else ""
                failed[index] = f"{text!r} is not a known {noun}{hint}"
        return out, failed

    def _warn_duplicates(self, name: str, lookup: Lookup, text: object, count: int) -> None:
        """Tell the operator, once per field, that the lookup's table has duplicates: only
        they can make its match column unique."""
        if self.on_warning is None or name in self.warned:
            return
        self.warned.add(name)
        where = lookup.table if lookup.table is not None else f"form {lookup.form}'s table"
        case = " (ignoring case)" if lookup.ignore_case else ""
        self.on_warning(
            f"lookup of field {name!r}: {count} rows of {where} have {lookup.match} "
            f"{text!r}{case}: the lookup table has duplicates, and each row naming one is "
            f"rejected as ambiguous until {where} has one row per {lookup.match}"
        )

    # --- after coercion ---------------------------------------------------------------------

    def after(
        self,
        numbers: Sequence[int],
        stored: Mapping[str, list[Any]],  # every sheet field's coerced column
        cleaned: Mapping[str, Sequence[object]],  # what each was coerced from
        failed: set[tuple[int, str]],  # (index, field) of the cells that did not coerce
        bad_rows: set[int],
    ) -> Extra:
        count = len(numbers)
        extra = Extra()
        columns: dict[str, list[Any]] = dict(stored)
        for f in self.defaulted:
            given: Sequence[object] = [f.default] * count
            looked: dict[int, str] = {}
            if f.lookup is not None:  # a lookup's default is a text to look up
                given, looked = self._look_up(f.name, f.lookup, given)
            values, problems = self.coercers[f.name][1](given)
            for index, message in [*problems, *looked.items()]:
                extra.problems.append((index, self.headers[f.name], message))
                failed.add((index, f.name))
            extra.names.append(f.name)
            extra.columns.append(values)
            columns[f.name] = values
        required = {name for rule, _ in self.rules for name in rule.require}
        empty = {
            name: list(map(is_, values, repeat(None)))
            for name, values in cleaned.items()
            if name in required
        }
        typed = _Typed(self.form, columns, failed)
        for computed in self.computed:
            results = computed.expression.evaluate(typed, count, today=self.today)
            values, problems = computed.bulk([_as_cell(v) for v in results])
            for index, message in problems:
                extra.problems.append((index, self.headers[computed.field.name], message))
                failed.add((index, computed.field.name))
            extra.names.append(computed.field.name)
            extra.columns.append(values)
            columns[computed.field.name] = values
            typed.forget(computed.field.name)
        for rule, expression in self.rules:
            decided = expression.evaluate(typed, count, today=self.today)
            if rule.check is not None:
                broken = [i for i, ok in enumerate(decided) if ok is False]
            else:
                broken = [
                    i
                    for i, ok in enumerate(decided)
                    if ok is True and any(_is_empty(empty, columns, n, i) for n in rule.require)
                ]
            for index in broken:
                for name in rule.columns:
                    extra.problems.append((index, self.headers[name], rule.message))
        refused = bad_rows | {p[0] for p in extra.problems}
        if self.hook is not None:
            self._run_hook(count, columns, typed, refused, extra)
            refused |= {p[0] for p in extra.problems}
        if self.unique:
            self._claim(numbers, columns, refused, failed, extra)
        return extra

    def _run_hook(
        self,
        count: int,
        columns: dict[str, list[Any]],
        typed: _Typed,
        refused: set[int],
        extra: Extra,
    ) -> None:
        """The hook on each row valid so far, given its typed values (a date as a date)."""
        assert self.hook is not None
        names = [f.name for f in self.form.fields]
        given = {name: typed[name] for name in names if name in columns}
        for index in range(count):
            if index in refused:
                continue
            row = {name: given[name][index] if name in given else None for name in names}
            try:
                result = self.hook(dict(row))
            except RowError as exc:
                header = self.headers.get(exc.column or "", exc.column) if exc.column else None
                extra.problems.append((index, header, exc.message))
                continue
            except Exception as exc:
                extra.problems.append((index, None, f"hook: {type(exc).__name__}: {exc}"))
                continue
            for name, value in (result or {}).items():
                if name not in row or value == row[name] or name not in columns:
                    continue
                try:
                    columns[name][index] = self.coercers[name][0](_as_cell(value))
                except Invalid as exc:
                    extra.problems.append((index, self.headers[name], f"hook: {exc}"))

    def _claim(
        self,
        numbers: Sequence[int],
        columns: dict[str, list[Any]],
        refused: set[int],
        failed: set[tuple[int, str]],
        extra: Extra,
    ) -> None:
        """A row that repeats any set's values is refused and claims none: a row takes its
        values of every set only when it is valid and unique in all of them. A row refused
        already is told of its repeats too (the sender sees all of its problems)."""
        sets = [(",".join(names), names, [columns.get(n) for n in names]) for names in self.unique]
        for index, number in enumerate(numbers):
            keys: list[tuple[str, str]] = []
            duplicate = False
            for label, names, values in sets:
                key = [column[index] if column is not None else None for column in values]
                if any(v is None for v in key) or any((index, n) in failed for n in names):
                    continue  # an empty or invalid cell takes nothing
                text = _key_text(key)
                earlier = self.claims.taken.get(label, {}).get(text)
                if earlier is None:
                    keys.append((label, text))
                    continue
                duplicate = True
                shown = (
                    f"{names[0]} {_shown(key[0])}"
                    if len(names) == 1
                    else f"{' and '.join(names)} ({', '.join(map(_shown, key))})"
                )
                extra.problems.append(
                    (index, self.headers[names[0]], f"duplicate {shown}: already in row {earlier}")
                )
            if duplicate or index in refused:
                refused.add(index)
                continue
            for label, text in keys:
                self.claims.taken.setdefault(label, {})[text] = number
                extra.claims.append((label, text, number))


class _Typed(Mapping[str, Sequence[object]]):
    """The batch's columns as expressions see them: dates as dates, a cell that did not
    coerce as empty; converted once per column, when an expression first reads it."""

    def __init__(
        self, form: Form, columns: Mapping[str, list[Any]], failed: set[tuple[int, str]]
    ) -> None:
        self.form = form
        self.columns = columns
        self.failed = failed
        self.cache: dict[str, list[object]] = {}

    def forget(self, name: str) -> None:
        self.cache.pop(name, None)

    def __getitem__(self, name: str) -> list[object]:
        if name not in self.cache:
            values = self.columns.get(name)
            if values is None:
                raise KeyError(name)
            kind = KIND_OF[self.form.field(name).type]
            out = list(values)
            if kind == "date":
                out = _dates(out, date.fromisoformat)
            elif kind == "datetime":
                out = _dates(out, datetime.fromisoformat)
            for index, failed_name in self.failed:
                if failed_name == name:
                    out[index] = None
            self.cache[name] = out
        return self.cache[name]

    def __iter__(self) -> Any:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)


def _dates(values: list[Any], parse: Callable[[str], object]) -> list[object]:
    """Validation's ISO texts of dates (or moments) as dates: one C-level pass for a column
    of texts only."""
    if set(map(type, values)) == {str}:
        return list(map(parse, values))
    return [parse(v) if type(v) is str else v for v in values]


def _is_empty(
    empty: Mapping[str, list[bool]], columns: Mapping[str, list[Any]], name: str, index: int
) -> bool:
    if name in empty:
        return empty[name][index]
    column = columns.get(name)
    return column is None or column[index] is None


def _as_cell(value: object) -> object:
    """An expression's or a hook's value as a cell its field's coercer reads: a number as
    a spreadsheet's cell holds it (the coercers' fast paths take a column of those)."""
    if type(value) is Decimal:
        if not value.is_finite():
            return str(value)  # refused by the coercer, naming it
        whole = value == value.to_integral_value()
        return int(value) if whole and abs(value) < 1 << 63 else float(value)
    if value is None or isinstance(value, bool | int | float | str | date):
        return value
    return str(value)


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value)
