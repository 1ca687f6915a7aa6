"""The field type registry: each type is one complete entry, and the form parser, the
coercers and `forms infer` take their types and rules from it."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any, get_args

import pytest
from psycopg import sql

from importer.database import Connection
from importer.errors import FormError
from importer.fields.cells import build_coercer
from importer.fields.columns import column_coercer
from importer.fields.field import Field
from importer.fields.registry import FIELD_TYPE_SPECS, FIELD_TYPES, RULES, FieldType, Rule
from importer.forms.definition import parse_form

# A cell of each type that its coercer accepts (a new type adds one).
CELLS: dict[str, object] = {
    "string": "hello",
    "integer": 42.0,
    "decimal": 12.5,
    "date": date(2024, 8, 19),
    "datetime": datetime(2024, 8, 19, 14, 30),
    "boolean": True,
    "email": "ada@example.com",
    "enum": "PAID",
}
# A valid value of each rule; min/max per type, as its bounds parser reads them (a new
# type with bounds adds one).
RULE_VALUES: dict[str, object] = {
    "min_length": 1,
    "max_length": 50,
    "pattern": "^.",
    "choices": ["paid", "new"],
    "formats": ["%d/%m/%Y"],
}
BOUNDS: dict[str, object] = {
    "integer": 0,
    "decimal": "0.5",
    "date": "2000-01-01",
    "datetime": "2000-01-01T00:00:00",
}


def _field(ftype: FieldType, **rules: object) -> dict[str, Any]:
    raw: dict[str, Any] = {"name": "f", "type": ftype}
    if "choices" in FIELD_TYPE_SPECS[ftype].rules:  # required where allowed
        raw["choices"] = RULE_VALUES["choices"]
    return raw | rules


def _parse(raw: dict[str, Any]) -> Field:
    return parse_form({"name": "t", "fields": [raw]}).fields[0]


def test_the_form_parser_accepts_exactly_the_registry_types() -> None:
    assert FIELD_TYPES == tuple(FIELD_TYPE_SPECS) == get_args(FieldType)
    for name, spec in FIELD_TYPE_SPECS.items():
        assert spec.name == name
        field = _parse(_field(name))
        assert field.type == name and field.spec is spec
    with pytest.raises(FormError) as caught:
        _parse({"name": "f", "type": "money"})
    assert str(caught.value) == (
        f"form: field 'f': type 'money' is not one of {', '.join(FIELD_TYPES)}"
    )


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("ftype", FIELD_TYPES)
def test_a_rule_is_accepted_exactly_where_the_type_allows_it(ftype: FieldType, rule: Rule) -> None:
    value = BOUNDS.get(ftype, 1) if rule in ("min", "max") else RULE_VALUES[rule]
    raw = _field(ftype, **{rule: value})
    if rule in FIELD_TYPE_SPECS[ftype].rules:
        assert getattr(_parse(raw), rule) not in (None, ())
    else:
        with pytest.raises(FormError, match=f"'{rule}'"):
            _parse(raw)


def test_messages_naming_the_types_a_rule_applies_to() -> None:
    """The parser words these from the registry; for today's types they read as before."""
    refusals: list[tuple[FieldType, str, str]] = [
        (
            "integer",
            "min_length",
            "'min_length'/'max_length' apply to string and email fields, not integer",
        ),
        ("date", "pattern", "'pattern' applies to string and email fields, not date"),
        ("string", "choices", "'choices' applies to enum fields only"),
        ("decimal", "formats", "'formats' applies to date and datetime fields only"),
        (
            "boolean",
            "min",
            "'min' does not apply to boolean fields (use min_length/max_length for text)",
        ),
    ]
    for ftype, rule, message in refusals:
        with pytest.raises(FormError) as caught:
            _parse(_field(ftype, **{rule: RULE_VALUES.get(rule, 1)}))
        assert str(caught.value) == f"form: field 'f': {message}"
    with pytest.raises(FormError) as caught:
        _parse({"name": "f", "type": "enum"})
    assert str(caught.value) == "form: field 'f': an enum field needs a non-empty 'choices' list"


@pytest.mark.parametrize("ftype", FIELD_TYPES)
def test_every_entry_is_complete(ftype: FieldType) -> None:
    spec = FIELD_TYPE_SPECS[ftype]
    assert spec.pg_type and set(spec.rules) <= set(RULES)
    assert ("min" in spec.rules) == (spec.parse_bound is not None) == (ftype in BOUNDS)
    assert set(CELLS) == set(FIELD_TYPES)
    field = _parse(_field(ftype))
    coerce = build_coercer(field)
    stored = coerce(CELLS[ftype])
    assert stored is not None and coerce(None) is None
    # The column path (a fast one or cell by cell) agrees with the cell coercer.
    assert column_coercer(field, coerce)([CELLS[ftype], None, CELLS[ftype]]) == (
        [stored, None, stored],
        [],
    )
    if spec.infer is not None:
        assert spec.infer.kinds
        assert spec.infer.wider is None or spec.infer.wider in FIELD_TYPE_SPECS


def test_inference_ranks_are_distinct() -> None:
    ranks = [spec.infer.rank for spec in FIELD_TYPE_SPECS.values() if spec.infer is not None]
    assert len(ranks) == len(set(ranks))


def test_each_stored_value_casts_to_its_postgresql_type(conn: Connection) -> None:
    """What a typed view will do: the stored JSON value, as text, cast to the type."""
    for ftype, spec in FIELD_TYPE_SPECS.items():
        stored = build_coercer(_parse(_field(ftype)))(CELLS[ftype])
        query = sql.SQL("SELECT (%s::jsonb #>> '{{}}')::{} AS value").format(sql.SQL(spec.pg_type))
        row = conn.execute(query, [json.dumps(stored)]).fetchone()
        assert row is not None and row["value"] is not None, ftype
