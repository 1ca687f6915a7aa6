"""What a form says beyond one cell's type: cleaning, defaults, lookups, computed fields, row
rules, uniqueness within the file and a Python hook; read from the form's TOML here, checked
as strictly as the rest (every refusal names its field or rule), applied by forms/stages.py.

Expressions (``check``, ``when``, ``compute``) are compiled by forms/expressions.py, against
the kinds of the form's fields, when the form is parsed: ``forms add`` refuses an unknown
field, a type mismatch or bad syntax with the rule and the position.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from importer.errors import FormError
from importer.fields.cells import Invalid, build_coercer
from importer.fields.field import Case, Field, Lookup
from importer.fields.registry import FieldType
from importer.forms.expressions import Expression, ExpressionError, Kind, compile_expression

Fail = Callable[[str], FormError]

# The kind of value an expression sees for a field of each type.
KIND_OF: dict[FieldType, Kind] = {
    "string": "text",
    "email": "text",
    "enum": "text",
    "integer": "number",
    "decimal": "number",
    "date": "date",
    "datetime": "datetime",
    "boolean": "boolean",
}
CASES: tuple[Case, ...] = ("lower", "upper", "title")
FIELD_RULE_KEYS = frozenset(
    {"trim", "missing", "replace", "case", "default", "unique", "lookup", "compute", "fill_merged"}
)
FORM_RULE_KEYS = frozenset({"trim", "missing", "unique", "rules", "hook"})
_RULE_KEYS = {"check", "when", "require", "columns", "message", "name"}
_LOOKUP_KEYS = {"table", "form", "match", "returns", "ignore_case", "show_to_senders"}
_PG_NAME = r"[A-Za-z_][A-Za-z0-9_$]{0,62}"
_TABLE = re.compile(rf"^(?:{_PG_NAME}\.)?{_PG_NAME}$")
_COLUMN = re.compile(rf"^{_PG_NAME}$")
_HOOK = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")


@dataclass(frozen=True)
class RowRule:
    """A rule over a row: ``check`` must hold, or, when ``when`` holds, the ``require``
    fields must be filled. ``columns``: the fields whose cells are marked for the sender."""

    message: str
    columns: tuple[str, ...]
    check: str | None = None
    when: str | None = None
    require: tuple[str, ...] = ()
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name} if self.name else {}
        if self.check is not None:
            out["check"] = self.check
        if self.when is not None:
            out["when"] = self.when
        if self.require:
            out["require"] = list(self.require)
        out["columns"] = list(self.columns)
        out["message"] = self.message
        return out

    @property
    def label(self) -> str:
        return repr(self.name) if self.name else repr(self.check or self.when or "require")


# --- the fields' keys -------------------------------------------------------------------------


def parse_field_rules(raw: Mapping[str, Any], field: Field, fail: Fail) -> dict[str, Any]:
    """The cleaning, default, uniqueness, lookup and compute keys of one field, as Field's
    keyword arguments (checked against its type)."""
    out: dict[str, Any] = {}
    if "trim" in raw:
        if not isinstance(raw["trim"], bool):
            raise fail("'trim' must be true or false")
        out["trim"] = raw["trim"]
    if "missing" in raw:
        out["missing"] = _texts(raw["missing"], "missing", fail)
    if "replace" in raw:
        table = raw["replace"]
        if not isinstance(table, Mapping) or not table:
            raise fail('\'replace\' must be a table of texts, e.g. replace = { "USA" = "US" }')
        if not all(isinstance(v, str) for v in table.values()):
            raise fail('\'replace\' must map texts to texts (e.g. "USA" = "US")')
        out["replace"] = tuple((str(k), str(v)) for k, v in table.items())
    if "case" in raw:
        if raw["case"] not in CASES:
            raise fail(f"'case' must be one of {', '.join(CASES)}")
        out["case"] = raw["case"]
    if "fill_merged" in raw:
        if not isinstance(raw["fill_merged"], bool):
            raise fail("'fill_merged' must be true or false")
        out["fill_merged"] = raw["fill_merged"]
    if "unique" in raw:
        if not isinstance(raw["unique"], bool):
            raise fail("'unique' must be true or false (unique within the file)")
        out["unique"] = raw["unique"]
    if "lookup" in raw:
        out["lookup"] = _lookup(raw["lookup"], fail)
    if "compute" in raw:
        text = raw["compute"]
        if not isinstance(text, str) or not text.strip():
            raise fail("'compute' must be an expression in a string, e.g. \"quantity * price\"")
        if field.required:
            raise fail("a computed field has no cell to require: drop 'required'")
        if "lookup" in raw or "default" in raw:
            raise fail("a computed field takes no 'lookup' or 'default' (it has no cell)")
        out["compute"] = text.strip()
    if "default" in raw:
        # A lookup's default is a text to look up, not a value of the field's type.
        out["default"] = _default(raw["default"], field, fail, typed="lookup" not in out)
    return out


def _texts(value: object, key: str, fail: Fail) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(f'{key!r} must be a list of texts, e.g. {key} = ["N/A", "-"]')
    return tuple(value)


def _lookup(value: object, fail: Fail) -> Lookup:
    example = 'e.g. lookup = { table = "public.customers", match = "name", returns = "id" }'
    if not isinstance(value, Mapping):
        raise fail(f"'lookup' must be a table ({example})")
    unknown = sorted(set(value) - _LOOKUP_KEYS)
    if unknown:
        raise fail(
            f"lookup: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_LOOKUP_KEYS))})"
        )
    table, form = value.get("table"), value.get("form")
    if (table is None) == (form is None):
        raise fail(f"lookup: name either 'table' or 'form' ({example})")
    if table is not None and (not isinstance(table, str) or not _TABLE.match(table)):
        raise fail("lookup: 'table' must name a table as schema.table")
    if form is not None and not isinstance(form, str):
        raise fail("lookup: 'form' must be a form's name")
    names = {}
    for key in ("match", "returns"):
        column = value.get(key)
        if not isinstance(column, str) or not _COLUMN.match(column):
            raise fail(f"lookup: {key!r} must name a column ({example})")
        names[key] = column
    ignore_case = value.get("ignore_case", False)
    if not isinstance(ignore_case, bool):
        raise fail("lookup: 'ignore_case' must be true or false")
    shown = value.get("show_to_senders", False)
    if not isinstance(shown, bool):
        raise fail("lookup: 'show_to_senders' must be true or false")
    if isinstance(table, str) and "." not in table:
        table = f"public.{table}"
    return Lookup(
        match=names["match"],
        returns=names["returns"],
        table=table,
        form=form,
        ignore_case=ignore_case,
        show_to_senders=shown,
    )


def _default(value: object, field: Field, fail: Fail, *, typed: bool) -> object:
    if field.required:
        raise fail("'default' is for an optional field's empty cell: drop 'required' or it")
    if isinstance(value, list | dict):
        raise fail("'default' must be one value")
    if isinstance(value, datetime | date):
        value = value.isoformat()
    if not typed:
        return value
    try:
        build_coercer(field)(value)
    except Invalid as exc:
        raise fail(f"'default' {value!r} is not a valid {field.type}: {exc}") from None
    return value


# --- the form's keys --------------------------------------------------------------------------


@dataclass(frozen=True)
class FormRules:
    """The form-level keys, parsed."""

    trim: bool = True
    missing: tuple[str, ...] = ()
    unique: tuple[tuple[str, ...], ...] = ()  # compound sets only; a field's `unique` apart
    rules: tuple[RowRule, ...] = ()
    hook: str | None = None


def parse_form_rules(data: Mapping[str, Any], fields: Sequence[Field], fail: Fail) -> FormRules:
    by_name = {f.name: f for f in fields}
    trim = data.get("trim", True)
    if not isinstance(trim, bool):
        raise fail("'trim' must be true or false")
    missing = _texts(data.get("missing", []), "missing", fail)
    raw_unique = data.get("unique", [])
    if isinstance(raw_unique, list):
        # A text is one field unique on its own; a list, fields unique together.
        raw_unique = [[u] if isinstance(u, str) else u for u in raw_unique]
    if not isinstance(raw_unique, list) or not all(
        isinstance(u, list) and u and all(isinstance(n, str) for n in u) for u in raw_unique
    ):
        raise fail(
            "'unique' must list fields or field lists, "
            'e.g. unique = ["email", ["customer_id", "order_date"]]'
        )
    for names in raw_unique:
        for name in names:
            if name not in by_name:
                raise fail(f"unique: {name!r} is not one of the form's fields")
    hook = data.get("hook")
    if hook is not None and (not isinstance(hook, str) or not _HOOK.match(hook)):
        raise fail(
            "'hook' must name a function as module:function (e.g. \"mypackage.rules:clean_row\")"
        )
    kinds = {f.name: KIND_OF[f.type] for f in fields}
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list):
        raise fail("'rules' must be [[rules]] tables")
    rules = tuple(_rule(raw, index, kinds, fail) for index, raw in enumerate(raw_rules, start=1))
    computed_fields(fields, fail)  # the computed fields compile (and are refused here if not)
    return FormRules(
        trim=trim,
        missing=missing,
        unique=tuple(tuple(u) for u in raw_unique),
        rules=rules,
        hook=hook,
    )


def _rule(raw: object, index: int, kinds: Mapping[str, Kind], fail: Fail) -> RowRule:
    if not isinstance(raw, Mapping):
        raise fail(f"rule #{index}: must be a table ([[rules]])")
    label = f"rule #{index}"
    name = raw.get("name")
    if name is not None:
        if not isinstance(name, str) or not name.strip():
            raise fail(f"{label}: 'name' must be text")
        label = f"rule {name!r}"

    def refuse(message: str) -> FormError:
        return fail(f"{label}: {message}")

    unknown = sorted(set(raw) - _RULE_KEYS)
    if unknown:
        raise refuse(f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_RULE_KEYS))})")
    check, when = raw.get("check"), raw.get("when")
    check = check.strip() if isinstance(check, str) else check
    when = when.strip() if isinstance(when, str) else when
    require = _texts(raw.get("require", []), "require", refuse)
    if check is None and when is None:
        raise refuse("needs 'check' (what must hold) or 'when' with 'require'")
    if check is not None and (when is not None or require):
        raise refuse("'check' stands alone; 'when' goes with 'require'")
    if when is not None and not require:
        raise refuse("'when' needs 'require' (the fields that must then be filled)")
    named: list[str] = []
    for key, text in (("check", check), ("when", when)):
        if text is None:
            continue
        if not isinstance(text, str) or not text.strip():
            raise refuse(f"{key!r} must be an expression in a string")
        named += _compiled(text, kinds, "boolean", refuse, key).names
    for field_name in require:
        if field_name not in kinds:
            raise refuse(f"require: {field_name!r} is not one of the form's fields")
    columns = _texts(raw.get("columns", []), "columns", refuse) or tuple(
        dict.fromkeys([*require, *named])
    )
    for field_name in columns:
        if field_name not in kinds:
            raise refuse(f"columns: {field_name!r} is not one of the form's fields")
    message = raw.get("message")
    if message is not None and (not isinstance(message, str) or not message.strip()):
        raise refuse("'message' must be text (what the sender is told)")
    if message is None:
        message = (
            f"the row breaks the rule {check}"
            if check is not None
            else f"{', '.join(require)} must be filled when {when}"
        )
    return RowRule(
        message=message.strip(),
        columns=columns,
        check=check.strip() if isinstance(check, str) else None,
        when=when.strip() if isinstance(when, str) else None,
        require=require,
        name=name.strip() if isinstance(name, str) else None,
    )


def _compiled(
    text: str, kinds: Mapping[str, Kind], expect: Kind, refuse: Fail, key: str
) -> Expression:
    try:
        return compile_expression(text, kinds, expect=expect)
    except ExpressionError as exc:
        raise refuse(f"{key} {text!r}: {exc}") from None


def compile_rule(rule: RowRule, kinds: Mapping[str, Kind]) -> Expression:
    """The rule's check or when, compiled (a parsed form's rules compile: FormError never)."""
    text = rule.check if rule.check is not None else rule.when
    assert text is not None
    return compile_expression(text, kinds, expect="boolean")


def computed_fields(
    fields: Sequence[Field], fail: Fail | None = None
) -> list[tuple[Field, Expression]]:
    """The computed fields with their expressions, in the form's order. An expression reads
    the sheet's fields and computed fields defined above it."""
    kinds: dict[str, Kind] = {f.name: KIND_OF[f.type] for f in fields if f.compute is None}
    every = kinds_of(fields)
    out: list[tuple[Field, Expression]] = []
    for f in fields:
        if f.compute is None:
            continue
        try:
            expression = compile_expression(f.compute, every, expect=KIND_OF[f.type])
            later = next((n for n in expression.names if n not in kinds), None)
            if later is not None:
                raise ExpressionError(
                    f.compute,
                    max(0, f.compute.find(later)),
                    f"{later!r} is computed below this field: move its [[fields]] entry above",
                )
        except ExpressionError as exc:
            if fail is None:
                raise
            raise fail(f"field {f.name!r}: compute {f.compute!r}: {exc}") from None
        out.append((f, expression))
        kinds[f.name] = KIND_OF[f.type]
    return out


def kinds_of(fields: Sequence[Field]) -> dict[str, Kind]:
    return {f.name: KIND_OF[f.type] for f in fields}


def unique_sets(
    fields: Sequence[Field], compound: Sequence[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """Every set of fields unique within the file: each field's own, then the compounds."""
    # A set named twice (a field's `unique` and the form's) is one set.
    return list(dict.fromkeys([*((f.name,) for f in fields if f.unique), *compound]))
