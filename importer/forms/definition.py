"""Form definitions: the fields a workbook must provide, their types and rules.

A form is written by a person in TOML (see README, "Forms") and stored as JSON in the
database. Both paths go through one parser, so a stored definition is as strictly checked
as a file; every refusal is a FormError naming the field (and key) at fault.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from importer.errors import FormError
from importer.fields.field import Field, normalize_header
from importer.fields.patterns import unsupported as unsupported_pattern
from importer.fields.registry import (
    FIELD_TYPE_SPECS,
    FIELD_TYPES,
    RULES,
    Bound,
    FieldTypeSpec,
    Rule,
)
from importer.forms.layout import LAYOUT_KEYS, SheetLayout, parse_layout
from importer.forms.operations import OPERATION_KEYS, FormOperations, parse_operations
from importer.forms.rules import (
    FIELD_RULE_KEYS,
    FORM_RULE_KEYS,
    FormRules,
    RowRule,
    parse_field_rules,
    parse_form_rules,
    unique_sets,
)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_FORM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")

# "message" goes with "pattern": what a sender is told when a cell does not match it.
_FIELD_KEYS = {
    "name", "header", "aliases", "type", "required", "description", "message", "column", *RULES,
    *FIELD_RULE_KEYS,
}  # fmt: skip
_FORM_KEYS = {
    "name", "key", "fields", "description", "table", "job_column", *FORM_RULE_KEYS, *LAYOUT_KEYS,
    *OPERATION_KEYS,
}  # fmt: skip
# A table of the user's: "schema.table" or "table" (schema public), each part a name as the
# catalog spells it; columns likewise.
_PG_NAME = r"[A-Za-z_][A-Za-z0-9_$]{0,62}"
_TABLE = re.compile(rf"^(?:({_PG_NAME})\.)?({_PG_NAME})$")
_COLUMN = re.compile(rf"^{_PG_NAME}$")


@dataclass(frozen=True)
class Form:
    name: str
    fields: tuple[Field, ...]
    key: tuple[str, ...] = ()
    description: str | None = None
    table: str | None = None  # "schema.table" of the user's own table; None: forms.<name>
    job_column: str | None = None  # the user's table's column for the job, if it has one
    # What the business means beyond one cell (forms/rules.py, applied by forms/stages.py).
    rules: FormRules = field(default_factory=FormRules)
    layout: SheetLayout = field(default_factory=SheetLayout)  # where the header is (layout.py)
    # The imports as a whole: reject threshold, notices (forms/operations.py).
    operations: FormOperations = field(default_factory=FormOperations)
    _by_name: dict[str, Field] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_name.update({f.name: f for f in self.fields})

    def field(self, name: str) -> Field:
        return self._by_name[name]

    @property
    def sheet_fields(self) -> tuple[Field, ...]:
        """The fields a sheet's columns give: all but the computed ones."""
        return tuple(f for f in self.fields if f.compute is None)

    @property
    def row_rules(self) -> tuple[RowRule, ...]:
        return self.rules.rules

    @property
    def unique(self) -> list[tuple[str, ...]]:
        """Every set of fields unique within the file (a field's own ``unique`` first)."""
        return unique_sets(self.fields, self.rules.unique)

    @property
    def has_stages(self) -> bool:
        """Whether anything runs besides each cell's type and rules (forms/stages.py)."""
        r = self.rules
        return bool(
            r.missing or r.rules or r.hook or self.unique
            or any(
                f.missing or f.replace or f.case or f.default is not None or f.lookup or f.compute
                for f in self.fields
            )
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        if self.key:
            out["key"] = list(self.key)
        if self.table:
            out["table"] = self.table
        if self.job_column:
            out["job_column"] = self.job_column
        if not self.rules.trim:
            out["trim"] = False
        if self.rules.missing:
            out["missing"] = list(self.rules.missing)
        if self.rules.unique:
            out["unique"] = [list(u) for u in self.rules.unique]
        if self.rules.hook:
            out["hook"] = self.rules.hook
        out |= self.layout.to_json()
        out |= self.operations.to_json()
        out["fields"] = [f.to_json() for f in self.fields]
        if self.rules.rules:
            out["rules"] = [r.to_json() for r in self.rules.rules]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Form:
        return parse_form(data, source="stored form")


def load_form_file(path: Path) -> Form:
    """Read and check a TOML form definition; FormError names the field at fault."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FormError(f"{path}: file not found") from None
    except UnicodeDecodeError:
        raise FormError(f"{path}: not a text file (expected UTF-8 TOML)") from None
    except OSError as exc:
        raise FormError(f"{path}: {exc.strerror or exc}") from None
    return parse_form_text(text, source=str(path))


def parse_form_text(text: str, *, source: str = "form") -> Form:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormError(f"{source}: not valid TOML ({exc})") from None
    return parse_form(data, source=source)


# --- parsing and checking ---------------------------------------------------------------------


def parse_form(data: Mapping[str, Any], *, source: str = "form") -> Form:
    def fail(message: str) -> FormError:
        return FormError(f"{source}: {message}")

    if not isinstance(data, Mapping):
        raise fail("a form definition must be a table")
    unknown = sorted(set(data) - _FORM_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_FORM_KEYS))})")
    name = data.get("name")
    if not isinstance(name, str) or not _FORM_NAME.match(name):
        raise fail(
            "'name' must be a short name of letters, digits, '_', '-' or '.' "
            '(e.g. name = "orders")'
        )
    description = _optional_str(data.get("description"), "description", fail)
    raw_fields = data.get("fields")
    if not isinstance(raw_fields, list) or not raw_fields:
        raise fail("at least one [[fields]] entry is required")

    fields: list[Field] = []
    seen_names: set[str] = set()
    # key -> (field, whether it is that field's header). Fields may share a header (a
    # sheet that repeats one: they take its columns by position); any other overlap of
    # headers, aliases and names would make matching ambiguous.
    seen_keys: dict[str, tuple[str, bool]] = {}
    for index, raw in enumerate(raw_fields, start=1):
        parsed = _parse_field(raw, index, source)
        if parsed.name in seen_names:
            raise fail(f"field {parsed.name!r} is defined twice")
        seen_names.add(parsed.name)
        header_key = normalize_header(parsed.header)
        for key in parsed.match_keys:
            other = seen_keys.get(key)
            if other is not None and not (other[1] and key == header_key):
                raise fail(
                    f"field {parsed.name!r}: header or alias matching {key!r} is already "
                    f"used by field {other[0]!r}"
                )
            seen_keys.setdefault(key, (parsed.name, key == header_key))
        fields.append(parsed)

    raw_key = data.get("key", [])
    if isinstance(raw_key, str):
        raw_key = [raw_key]
    if not isinstance(raw_key, list) or not all(isinstance(k, str) for k in raw_key):
        raise fail("'key' must be a list of field names")
    by_name = {f.name: f for f in fields}
    for k in raw_key:
        if k not in by_name:
            raise fail(f"key field {k!r} is not one of the form's fields")
        if not by_name[k].required:
            raise fail(f"key field {k!r} must be required (required = true)")
    if len(set(raw_key)) != len(raw_key):
        raise fail("'key' names a field twice")
    table, job_column = _parse_table(data, fields, fail)
    layout = parse_layout(data, fail)
    filled = tuple(f.header for f in fields if f.fill_merged)
    if filled:
        layout = replace(layout, fill_columns=filled)
    if layout.skip_column is not None:
        wanted = normalize_header(layout.skip_column)
        if not any(wanted in f.match_keys for f in fields):
            raise fail(
                f"skip_rows_where: column {layout.skip_column!r} is not the header of any of "
                "the form's fields"
            )
    return Form(
        name=name,
        fields=tuple(fields),
        key=tuple(raw_key),
        description=description,
        table=table,
        job_column=job_column,
        rules=parse_form_rules(data, fields, fail),
        layout=layout,
        operations=parse_operations(data, fail),
    )


def _parse_table(
    data: Mapping[str, Any], fields: list[Field], fail: Any
) -> tuple[str | None, str | None]:
    """``table``, ``job_column`` and the fields' ``column``: a user's table, named as the
    catalog spells it; each column taken by one field (or the job) only."""
    table = data.get("table")
    job_column = data.get("job_column")
    if table is None:
        if job_column is not None:
            raise fail("'job_column' goes with 'table' (a table of your own)")
        mapped = next((f for f in fields if f.column is not None), None)
        if mapped is not None:
            raise fail(f"field {mapped.name!r}: 'column' goes with 'table' (a table of your own)")
        return None, None
    if not isinstance(table, str) or not _TABLE.match(table):
        raise fail("'table' must name a table as schema.table (e.g. table = \"public.orders\")")
    if "." not in table:
        table = f"public.{table}"
    if job_column is not None and (
        not isinstance(job_column, str) or not _COLUMN.match(job_column)
    ):
        raise fail("'job_column' must be a column name (e.g. job_column = \"import_job_id\")")
    taken: dict[str, str] = {}
    for f in fields:
        column = f.column or f.name
        if column in taken:
            raise fail(f"field {f.name!r}: column {column!r} is already field {taken[column]!r}'s")
        taken[column] = f.name
    if job_column in taken:
        raise fail(f"'job_column' {job_column!r} is already field {taken[job_column]!r}'s column")
    return table, job_column


def _optional_str(value: object, key: str, fail: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise fail(f"{key!r} must be text")
    return value


def _parse_field(raw: object, index: int, source: str) -> Field:
    label = f"field #{index}"

    def fail(message: str) -> FormError:
        return FormError(f"{source}: {label}: {message}")

    if not isinstance(raw, Mapping):
        raise fail("must be a table ([[fields]])")
    name = raw.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise fail("'name' must be an identifier (letters, digits, '_'; e.g. order_id)")
    label = f"field {name!r}"
    unknown = sorted(set(raw) - _FIELD_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_FIELD_KEYS))})")

    ftype = raw.get("type", "string")
    if ftype not in FIELD_TYPES:
        raise fail(f"type {ftype!r} is not one of {', '.join(FIELD_TYPES)}")
    spec = FIELD_TYPE_SPECS[ftype]
    header = raw.get("header", name)
    if not isinstance(header, str) or not normalize_header(header):
        raise fail("'header' must be text with at least one letter or digit")
    aliases = raw.get("aliases", [])
    if isinstance(aliases, str):
        aliases = [aliases]
    if not isinstance(aliases, list) or not all(
        isinstance(a, str) and normalize_header(a) for a in aliases
    ):
        raise fail("'aliases' must be a list of header texts")
    required = raw.get("required", False)
    if not isinstance(required, bool):
        raise fail("'required' must be true or false")
    column = raw.get("column")
    if column is not None and (not isinstance(column, str) or not _COLUMN.match(column)):
        raise fail("'column' must be a column name (e.g. column = \"order_no\")")

    min_length, max_length = _lengths(raw, spec, fail)
    pattern, message = _pattern(raw, spec, fail)
    choices = _choices(raw, spec, fail)
    formats = _formats(raw, spec, fail)

    lo = _bound(raw.get("min"), "min", spec, fail)
    hi = _bound(raw.get("max"), "max", spec, fail)
    if lo is not None and hi is not None and lo > hi:  # type: ignore[operator]
        raise fail("'min' is greater than 'max'")

    plain = Field(
        name=name,
        header=header.strip(),
        type=spec.name,
        aliases=tuple(a.strip() for a in aliases),
        required=required,
        min=lo,
        max=hi,
        min_length=min_length,
        max_length=max_length,
        pattern=pattern,
        message=message,
        choices=choices,
        formats=formats,
        description=_optional_str(raw.get("description"), "description", fail),
        column=column,
    )
    return replace(plain, **parse_field_rules(raw, plain, fail))


def _lengths(
    raw: Mapping[str, Any], spec: FieldTypeSpec, fail: Any
) -> tuple[int | None, int | None]:
    """A text field's min_length and max_length."""
    min_length = _length(raw.get("min_length"), "min_length", fail)
    max_length = _length(raw.get("max_length"), "max_length", fail)
    if min_length is not None and max_length is not None and min_length > max_length:
        raise fail("'min_length' is greater than 'max_length'")
    if (min_length is not None or max_length is not None) and "min_length" not in spec.rules:
        raise fail(
            f"'min_length'/'max_length' apply to {_types_allowing('min_length')} fields, "
            f"not {spec.name}"
        )
    return min_length, max_length


def _pattern(
    raw: Mapping[str, Any], spec: FieldTypeSpec, fail: Any
) -> tuple[str | None, str | None]:
    """A text field's pattern (one the linear-time engine runs) and its message."""
    pattern = raw.get("pattern")
    if pattern is not None:
        if not isinstance(pattern, str):
            raise fail("'pattern' must be a regular expression in a string")
        if "pattern" not in spec.rules:
            raise fail(f"'pattern' applies to {_types_allowing('pattern')} fields, not {spec.name}")
        refused = unsupported_pattern(pattern)
        if refused is not None:
            raise fail(f"'pattern' {refused}")
    message = raw.get("message")
    if message is not None:
        if not isinstance(message, str) or not message.strip():
            raise fail("'message' must be text (what the sender is told when 'pattern' fails)")
        if pattern is None:
            raise fail("'message' goes with 'pattern': it is the reason given when it fails")
        message = message.strip()
    return pattern, message


def _choices(raw: Mapping[str, Any], spec: FieldTypeSpec, fail: Any) -> tuple[str, ...]:
    """A choice field's choices, distinct ignoring case (none for other types)."""
    choices = raw.get("choices")
    if "choices" not in spec.rules:
        if choices is not None:
            raise fail(f"'choices' applies to {_types_allowing('choices')} fields only")
        return ()
    if not isinstance(choices, list) or not choices:
        raise fail(f"{_a(spec.name)} field needs a non-empty 'choices' list")
    if not all(isinstance(c, str) and c.strip() for c in choices):
        raise fail("'choices' must be non-empty texts")
    folded = [c.strip().casefold() for c in choices]
    if len(set(folded)) != len(folded):
        raise fail("'choices' repeats a value (choices are matched ignoring case)")
    return tuple(c.strip() for c in choices)


def _formats(raw: Mapping[str, Any], spec: FieldTypeSpec, fail: Any) -> tuple[str, ...]:
    """A date field's formats, each one strftime can write."""
    formats = raw.get("formats", [])
    if isinstance(formats, str):
        formats = [formats]
    if not isinstance(formats, list) or not all(isinstance(f, str) and f for f in formats):
        raise fail("'formats' must be a list of date formats such as \"%d/%m/%Y\"")
    if formats and "formats" not in spec.rules:
        raise fail(f"'formats' applies to {_types_allowing('formats')} fields only")
    for fmt in formats:
        if "%" not in fmt:
            raise fail(f'format {fmt!r} has no % directive (e.g. "%d/%m/%Y")')
        try:
            datetime(2001, 2, 3, 4, 5, 6).strftime(fmt)
        except ValueError:
            raise fail(f"format {fmt!r} is not a valid date format") from None
    return tuple(formats)


def _length(value: object, key: str, fail: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(f"{key!r} must be a whole number >= 0")
    return value


def _bound(value: object, key: str, spec: FieldTypeSpec, fail: Any) -> Bound | None:
    if value is None:
        return None
    if spec.parse_bound is None:
        raise fail(
            f"{key!r} does not apply to {spec.name} fields (use min_length/max_length for text)"
        )
    return spec.parse_bound(value, key, fail)


def _types_allowing(rule: Rule) -> str:
    """The types a rule applies to, for messages: "string and email"."""
    names = [name for name, spec in FIELD_TYPE_SPECS.items() if rule in spec.rules]
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


# --- TOML output (forms infer, forms show) ----------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    text = str(value)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    escaped = escaped.replace("\t", "\\t").replace("\r", "\\r")
    return f'"{escaped}"'


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def form_to_toml(form: Form, *, comments: Mapping[str, str] | None = None) -> str:
    """The form as a TOML file a person can edit (load_form_file reads it back unchanged)."""
    data = form.to_json()
    lines = [f"name = {_toml_value(data['name'])}"]
    if "description" in data:
        lines.append(f"description = {_toml_value(data['description'])}")
    if "key" in data:
        lines.append(f"key = {_toml_value(data['key'])}")
    tops = ("table", "job_column", "trim", "missing", "unique", "hook", *sorted(LAYOUT_KEYS))
    for top in tops:
        if top in data:
            lines.append(f"{top} = {_toml_value(data[top])}")
    for entry in data["fields"]:
        lines.append("")
        note = (comments or {}).get(entry["name"])
        if note:
            lines.append(f"# {note}")
        lines.append("[[fields]]")
        for key, value in entry.items():
            lines.append(f"{key} = {_toml_value(value)}")
    for rule in data.get("rules", []):
        lines += ["", "[[rules]]", *(f"{k} = {_toml_value(v)}" for k, v in rule.items())]
    return "\n".join(lines) + "\n"
