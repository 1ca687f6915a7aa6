"""The business rules of a form definition (forms/rules.py): every new key is checked as
strictly as the rest, each refusal one line naming the field or the rule at fault (and, for
an expression, the position in it), and a form with every key survives TOML and JSON."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from importer.errors import FormError
from importer.fields.field import Lookup
from importer.forms.definition import Form, form_to_toml, parse_form, parse_form_text
from importer.forms.rules import FormRules, RowRule


def form_text(
    *,
    top: str = "",
    country: str = "",
    qty: str = "",
    fields: str = "",
    rules: str = "",
) -> str:
    """A small form with room for the keys under test: ``top`` at the form's level,
    ``country`` and ``qty`` in those fields, ``fields`` after them, ``rules`` at the end."""
    return f"""
name = "orders"
{top}

[[fields]]
name = "name"
header = "Name"

[[fields]]
name = "country"
header = "Country"
{country}

[[fields]]
name = "qty"
header = "Quantity"
type = "integer"
{qty}

[[fields]]
name = "price"
type = "decimal"

[[fields]]
name = "day"
type = "date"
{fields}
{rules}
"""


def refusal(text: str) -> str:
    with pytest.raises(FormError) as caught:
        parse_form_text(text)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


def test_the_base_form_parses() -> None:
    form = parse_form_text(form_text())
    assert [f.name for f in form.fields] == ["name", "country", "qty", "price", "day"]
    assert form.rules == FormRules()
    assert not form.has_stages


# --- each new key misspelled ------------------------------------------------------------------

MISSPELLED = [
    # a field's keys
    pytest.param({"country": "trmi = false"}, ["field 'country'", "unknown key 'trmi'"], id="trim"),
    pytest.param(
        {"country": 'missng = ["-"]'}, ["field 'country'", "unknown key 'missng'"], id="missing"
    ),
    pytest.param(
        {"country": 'replcae = { USA = "US" }'},
        ["field 'country'", "unknown key 'replcae'"],
        id="replace",
    ),
    pytest.param(
        {"country": 'csae = "upper"'}, ["field 'country'", "unknown key 'csae'"], id="case"
    ),
    pytest.param(
        {"country": 'defualt = "US"'}, ["field 'country'", "unknown key 'defualt'"], id="default"
    ),
    pytest.param(
        {"country": "uniqe = true"}, ["field 'country'", "unknown key 'uniqe'"], id="unique"
    ),
    pytest.param(
        {"country": 'lookpu = { table = "countries", match = "name", returns = "code" }'},
        ["field 'country'", "unknown key 'lookpu'"],
        id="lookup",
    ),
    pytest.param(
        {"qty": 'comptue = "price * 2"'}, ["field 'qty'", "unknown key 'comptue'"], id="compute"
    ),
    # a lookup's keys
    pytest.param(
        {
            "country": 'lookup = { table = "countries", match = "name", returns = "code", '
            "ignorecase = true }"
        },
        ["field 'country'", "lookup: unknown key 'ignorecase'"],
        id="lookup.ignore_case",
    ),
    pytest.param(
        {"country": 'lookup = { tabel = "countries", match = "name", returns = "code" }'},
        ["field 'country'", "lookup: unknown key 'tabel'"],
        id="lookup.table",
    ),
    pytest.param(
        {"country": 'lookup = { table = "countries", mtach = "name", returns = "code" }'},
        ["field 'country'", "lookup: unknown key 'mtach'"],
        id="lookup.match",
    ),
    pytest.param(
        {"country": 'lookup = { table = "countries", match = "name", return = "code" }'},
        ["field 'country'", "lookup: unknown key 'return'"],
        id="lookup.returns",
    ),
    # a rule's keys: the first rule is #1, a named rule is named
    pytest.param(
        {"rules": '[[rules]]\nchekc = "qty > 0"'}, ["rule #1", "unknown key 'chekc'"], id="check"
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\n[[rules]]\nchekc = "qty < 9"'},
        ["rule #2", "unknown key 'chekc'"],
        id="check-second-rule",
    ),
    pytest.param(
        {"rules": '[[rules]]\nwehn = "qty > 0"\nrequire = ["name"]'},
        ["rule #1", "unknown key 'wehn'"],
        id="when",
    ),
    pytest.param(
        {"rules": '[[rules]]\nname = "named"\nwhen = "qty > 0"\nrequrie = ["name"]'},
        ["rule 'named'", "unknown key 'requrie'"],
        id="require",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\ncolums = ["qty"]'},
        ["rule #1", "unknown key 'colums'"],
        id="columns",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\nmesage = "no"'},
        ["rule #1", "unknown key 'mesage'"],
        id="message",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\nnmae = "positive"'},
        ["rule #1", "unknown key 'nmae'"],
        id="name",
    ),
    # the form's keys: the key is named
    pytest.param({"top": "trimm = false"}, ["unknown key 'trimm'"], id="form.trim"),
    pytest.param({"top": 'missin = ["-"]'}, ["unknown key 'missin'"], id="form.missing"),
    pytest.param({"top": 'uniqe = ["name"]'}, ["unknown key 'uniqe'"], id="form.unique"),
    pytest.param({"top": 'hokk = "a.b:c"'}, ["unknown key 'hokk'"], id="form.hook"),
    pytest.param({"rules": '[[rule]]\ncheck = "qty > 0"'}, ["unknown key 'rule'"], id="form.rules"),
]


@pytest.mark.parametrize(("parts", "expected"), MISSPELLED)
def test_a_misspelled_key_is_refused_naming_where(
    parts: dict[str, str], expected: list[str]
) -> None:
    message = refusal(form_text(**parts))
    for fragment in expected:
        assert fragment in message, message


def test_a_misspelled_rule_key_lists_the_allowed_ones() -> None:
    message = refusal(form_text(rules='[[rules]]\nchekc = "qty > 0"'))
    assert "allowed: check, columns, message, name, require, when" in message


# --- each wrong value -------------------------------------------------------------------------

LOOKUP = 'lookup = { table = "countries", match = "name", returns = "code" }'

WRONG_VALUES = [
    pytest.param(
        {"country": 'trim = "yes"'},
        ["field 'country'", "'trim' must be true or false"],
        id="trim-text",
    ),
    pytest.param(
        {"country": "missing = 3"},
        ["field 'country'", "'missing' must be a list of texts"],
        id="missing-number",
    ),
    pytest.param(
        {"country": "missing = [1, 2]"},
        ["field 'country'", "'missing' must be a list of texts"],
        id="missing-numbers",
    ),
    pytest.param(
        {"country": "replace = []"},
        ["field 'country'", "'replace' must be a table"],
        id="replace-list",
    ),
    pytest.param(
        {"country": "replace = {}"},
        ["field 'country'", "'replace' must be a table"],
        id="replace-empty",
    ),
    pytest.param(
        {"country": "replace = { USA = 1 }"},
        ["field 'country'", "'replace' must map texts"],
        id="replace-to-number",
    ),
    pytest.param(
        {"country": 'case = "camel"'},
        ["field 'country'", "'case' must be one of lower, upper, title"],
        id="case-camel",
    ),
    pytest.param(
        {"country": 'unique = "x"'},
        ["field 'country'", "'unique' must be true or false"],
        id="unique-text",
    ),
    pytest.param(
        {"country": 'required = true\ndefault = "US"'},
        ["field 'country'", "'default' is for an optional field"],
        id="default-on-required",
    ),
    pytest.param(
        {"country": 'default = ["US"]'},
        ["field 'country'", "'default' must be one value"],
        id="default-list",
    ),
    pytest.param(
        {"qty": 'default = "many"'},
        ["field 'qty'", "'default' 'many' is not a valid integer"],
        id="default-text-for-integer",
    ),
    pytest.param(
        {"qty": "default = 1.5"},
        ["field 'qty'", "'default' 1.5 is not a valid integer"],
        id="default-fraction-for-integer",
    ),
    pytest.param(
        {
            "fields": '[[fields]]\nname = "total"\ntype = "decimal"\nrequired = true\n'
            'compute = "qty * price"'
        },
        ["field 'total'", "a computed field has no cell to require"],
        id="compute-on-required",
    ),
    pytest.param(
        {
            "fields": f'[[fields]]\nname = "total"\ntype = "decimal"\n{LOOKUP}\n'
            'compute = "qty * price"'
        },
        ["field 'total'", "a computed field takes no 'lookup' or 'default'"],
        id="compute-with-lookup",
    ),
    pytest.param(
        {
            "fields": '[[fields]]\nname = "total"\ntype = "decimal"\ndefault = 1\n'
            'compute = "qty * price"'
        },
        ["field 'total'", "a computed field takes no 'lookup' or 'default'"],
        id="compute-with-default",
    ),
    pytest.param(
        {"fields": '[[fields]]\nname = "total"\ntype = "decimal"\ncompute = 3'},
        ["field 'total'", "'compute' must be an expression in a string"],
        id="compute-not-text",
    ),
    pytest.param(
        {"country": 'lookup = { table = "countries", returns = "code" }'},
        ["field 'country'", "lookup: 'match' must name a column"],
        id="lookup-without-match",
    ),
    pytest.param(
        {"country": 'lookup = { table = "countries", match = "name" }'},
        ["field 'country'", "lookup: 'returns' must name a column"],
        id="lookup-without-returns",
    ),
    pytest.param(
        {
            "country": 'lookup = { table = "countries", form = "countries", match = "name", '
            'returns = "code" }'
        },
        ["field 'country'", "lookup: name either 'table' or 'form'"],
        id="lookup-table-and-form",
    ),
    pytest.param(
        {"country": 'lookup = { match = "name", returns = "code" }'},
        ["field 'country'", "lookup: name either 'table' or 'form'"],
        id="lookup-neither-table-nor-form",
    ),
    pytest.param(
        {"country": 'lookup = { table = "a b", match = "name", returns = "code" }'},
        ["field 'country'", "lookup: 'table' must name a table"],
        id="lookup-bad-table",
    ),
    pytest.param(
        {
            "country": 'lookup = { table = "countries", match = "name", returns = "code", '
            'ignore_case = "yes" }'
        },
        ["field 'country'", "lookup: 'ignore_case' must be true or false"],
        id="lookup-ignore-case-not-boolean",
    ),
    pytest.param(
        {"country": 'lookup = "countries"'},
        ["field 'country'", "'lookup' must be a table"],
        id="lookup-text",
    ),
    # the form's keys
    pytest.param({"top": 'trim = "no"'}, ["'trim' must be true or false"], id="form-trim"),
    pytest.param({"top": "missing = 3"}, ["'missing' must be a list of texts"], id="form-missing"),
    pytest.param(
        {"top": 'hook = "a.b"'},
        ["'hook' must name a function as module:function"],
        id="hook-without-function",
    ),
    pytest.param(
        {"top": 'hook = "a b:c"'},
        ["'hook' must name a function as module:function"],
        id="hook-bad-module",
    ),
    pytest.param(
        {"top": "hook = 3"}, ["'hook' must name a function as module:function"], id="hook-number"
    ),
    pytest.param(
        {"top": 'unique = ["emial"]'},
        ["unique: 'emial' is not one of the form's fields"],
        id="unique-unknown-field",
    ),
    pytest.param(
        {"top": 'unique = [["name", "cuntry"]]'},
        ["unique: 'cuntry' is not one of the form's fields"],
        id="unique-compound-unknown-field",
    ),
    pytest.param(
        {"top": "unique = [[]]"}, ["'unique' must list fields or field lists"], id="unique-empty"
    ),
    pytest.param(
        {"top": 'unique = "name"'},
        ["'unique' must list fields or field lists"],
        id="form-unique-text",
    ),
    # the rules
    pytest.param(
        {"top": 'rules = "qty > 0"'}, ["'rules' must be [[rules]] tables"], id="rules-text"
    ),
    pytest.param(
        {"rules": '[[rules]]\nmessage = "something"'},
        ["rule #1", "needs 'check' (what must hold) or 'when' with 'require'"],
        id="rule-neither-check-nor-when",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\nrequire = ["name"]'},
        ["rule #1", "'check' stands alone"],
        id="check-with-require",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\nwhen = "qty > 1"'},
        ["rule #1", "'check' stands alone"],
        id="check-with-when",
    ),
    pytest.param(
        {"rules": '[[rules]]\nname = "big orders"\nwhen = "qty > 100"'},
        ["rule 'big orders'", "'when' needs 'require'"],
        id="when-without-require",
    ),
    pytest.param(
        {"rules": '[[rules]]\nwhen = "qty > 100"\nrequire = ["nmae"]'},
        ["rule #1", "require: 'nmae' is not one of the form's fields"],
        id="require-unknown-field",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\ncolumns = ["qyt"]'},
        ["rule #1", "columns: 'qyt' is not one of the form's fields"],
        id="columns-unknown-field",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\nmessage = "  "'},
        ["rule #1", "'message' must be text"],
        id="message-blank",
    ),
    pytest.param(
        {"rules": '[[rules]]\nname = ""\ncheck = "qty > 0"'},
        ["rule #1", "'name' must be text"],
        id="name-blank",
    ),
    pytest.param(
        {"rules": "[[rules]]\ncheck = true"},
        ["rule #1", "'check' must be an expression in a string"],
        id="check-not-text",
    ),
]


@pytest.mark.parametrize(("parts", "expected"), WRONG_VALUES)
def test_a_wrong_value_is_refused_naming_where(parts: dict[str, str], expected: list[str]) -> None:
    message = refusal(form_text(**parts))
    for fragment in expected:
        assert fragment in message, message


def test_a_lookups_default_is_a_text_to_look_up_not_a_value_of_the_type() -> None:
    # An integer field's lookup stores the id found: its default names what to look up.
    form = parse_form_text(form_text(qty=f'{LOOKUP}\ndefault = "none"'))
    assert form.field("qty").default == "none"
    assert form.field("qty").lookup == Lookup(
        match="name", returns="code", table="public.countries"
    )


# --- expression errors: the rule or field, and the position -----------------------------------

EXPRESSION_ERRORS = [
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qyt > 0"'},
        ["rule #1", "check 'qyt > 0'", "unknown field 'qyt' (did you mean 'qty'?)"],
        0,
        id="unknown-field",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "price > 0 and Qty > 1"'},
        ["rule #1", "unknown field 'Qty' (did you mean 'qty'?)"],
        14,
        id="unknown-field-case",
    ),
    pytest.param(
        {"rules": '[[rules]]\nname = "soon"\nwhen = "day + name > day"\nrequire = ["qty"]'},
        ["rule 'soon'", "when 'day + name > day'", "cannot add date and text"],
        4,
        id="date-plus-text",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0"\n[[rules]]\ncheck = "qty >"'},
        ["rule #2", "expected a value, found end of expression"],
        5,
        id="bad-syntax-end",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty > 0)"'},
        ["rule #1", "')' has no matching '('"],
        7,
        id="bad-syntax-paren",
    ),
    pytest.param(
        {"rules": '[[rules]]\ncheck = "qty * 2"'},
        ["rule #1", "a rule must be true or false, this is a number"],
        0,
        id="check-is-a-number",
    ),
    pytest.param(
        {"rules": '[[rules]]\nwhen = "name"\nrequire = ["qty"]'},
        ["rule #1", "a rule must be true or false, this is a text"],
        0,
        id="when-is-a-text",
    ),
    pytest.param(
        {"fields": '[[fields]]\nname = "total"\ntype = "decimal"\ncompute = "name + \'x\'"'},
        ["field 'total'", "compute \"name + 'x'\"", "the field takes a number, this is a text"],
        0,
        id="compute-text-into-decimal",
    ),
    pytest.param(
        {"fields": '[[fields]]\nname = "total"\ntype = "decimal"\ncompute = "qty * prise"'},
        ["field 'total'", "unknown field 'prise' (did you mean 'price'?)"],
        6,
        id="compute-unknown-field",
    ),
    pytest.param(
        # A computed field reads the fields above it only.
        {
            "fields": '[[fields]]\nname = "double"\ntype = "decimal"\ncompute = "total * 2"\n'
            '[[fields]]\nname = "total"\ntype = "decimal"\ncompute = "qty * price"'
        },
        ["field 'double'", "'total' is computed below this field"],
        0,
        id="compute-reads-a-later-computed-field",
    ),
]


@pytest.mark.parametrize(("parts", "expected", "position"), EXPRESSION_ERRORS)
def test_an_expression_error_names_the_rule_or_field_and_the_position(
    parts: dict[str, str], expected: list[str], position: int
) -> None:
    message = refusal(form_text(**parts))
    for fragment in expected:
        assert fragment in message, message
    assert re.search(rf"\bat {position}: ", message), message


def test_a_computed_field_may_read_one_above_it() -> None:
    form = parse_form_text(
        form_text(
            fields='[[fields]]\nname = "total"\ntype = "decimal"\ncompute = "qty * price"\n'
            '[[fields]]\nname = "double"\ntype = "decimal"\ncompute = "total * 2"'
        )
    )
    assert [f.name for f in form.sheet_fields] == ["name", "country", "qty", "price", "day"]
    assert form.field("double").compute == "total * 2"


def test_a_rules_defaults_columns_and_message() -> None:
    form = parse_form_text(
        form_text(
            rules='[[rules]]\ncheck = "qty > 0 and price > 0"\n'
            '[[rules]]\nwhen = "country == \'US\'"\nrequire = ["day", "name"]'
        )
    )
    check, when = form.row_rules
    assert check == RowRule(
        message="the row breaks the rule qty > 0 and price > 0",
        columns=("qty", "price"),
        check="qty > 0 and price > 0",
    )
    assert when == RowRule(
        message="day, name must be filled when country == 'US'",
        columns=("day", "name", "country"),
        when="country == 'US'",
        require=("day", "name"),
    )


def test_the_default_message_shows_the_check_as_stored() -> None:
    form = parse_form_text(form_text(rules='[[rules]]\ncheck = "  qty > 0 "'))
    (rule,) = form.row_rules
    assert rule.check == "qty > 0"
    assert rule.message == "the row breaks the rule qty > 0"


# --- a form with every key, through TOML and JSON ---------------------------------------------

EVERY_KEY = """
name = "sales"
trim = false
missing = ["N/A", "-"]
unique = ["order_id", ["customer_id", "order_date"]]
hook = "mypackage.rules:clean_row"

[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true

[[fields]]
name = "customer_id"
header = "Customer"
type = "integer"
lookup = { table = "customers", match = "name", returns = "id", ignore_case = true }
default = "Walk-in"

[[fields]]
name = "region"
type = "integer"
lookup = { form = "regions", match = "code", returns = "id" }

[[fields]]
name = "email"
type = "email"
trim = true
unique = true

[[fields]]
name = "country"
header = "Country"
missing = []
replace = { USA = "US", "United States" = "US", "u.s." = "US" }
case = "upper"
default = "US"

[[fields]]
name = "order_date"
type = "date"
default = 2024-01-31

[[fields]]
name = "quantity"
type = "integer"
default = 1

[[fields]]
name = "unit_price"
type = "decimal"
default = 0.1

[[fields]]
name = "gift"
type = "boolean"
default = false

[[fields]]
name = "total"
type = "decimal"
compute = "quantity * unit_price"

[[fields]]
name = "boxes"
type = "integer"
compute = "round(quantity / 10)"

[[rules]]
name = "positive quantity"
check = "quantity > 0"
columns = ["quantity"]
message = "the quantity must be at least 1"

[[rules]]
when = "country == 'US'"
require = ["email"]

[[rules]]
check = "order_date <= today()"
"""


def test_a_form_with_every_key_is_read_as_written() -> None:
    form = parse_form_text(EVERY_KEY)
    assert form.rules.trim is False
    assert form.rules.missing == ("N/A", "-")
    assert form.rules.unique == (("order_id",), ("customer_id", "order_date"))
    assert form.unique == [("email",), ("order_id",), ("customer_id", "order_date")]
    assert form.rules.hook == "mypackage.rules:clean_row"
    customer = form.field("customer_id")
    assert customer.lookup == Lookup(
        match="name", returns="id", table="public.customers", ignore_case=True
    )
    assert customer.default == "Walk-in"
    assert form.field("region").lookup == Lookup(match="code", returns="id", form="regions")
    email = form.field("email")
    assert (email.trim, email.unique) == (True, True)
    country = form.field("country")
    assert country.missing == ()
    assert country.replace == (("USA", "US"), ("United States", "US"), ("u.s.", "US"))
    assert (country.case, country.default) == ("upper", "US")
    assert form.field("order_date").default == "2024-01-31"
    assert form.field("quantity").default == 1
    assert form.field("unit_price").default == 0.1
    assert form.field("gift").default is False
    assert form.field("total").compute == "quantity * unit_price"
    assert [f.name for f in form.sheet_fields if f.name in ("total", "boxes")] == []
    assert [r.name for r in form.row_rules] == ["positive quantity", None, None]
    assert form.row_rules[2].columns == ("order_date",)
    assert form.has_stages


def test_a_form_with_every_key_round_trips_through_toml_and_json() -> None:
    form = parse_form_text(EVERY_KEY)
    text = form_to_toml(form)
    again = parse_form_text(text)
    assert again == form
    assert form_to_toml(again) == text
    stored = json.loads(json.dumps(form.to_json()))  # as the database keeps it
    assert Form.from_json(stored) == form
    assert parse_form(stored) == form
    # Nothing was dropped on the way: the equality above is of everything.
    assert again.field("country").replace == form.field("country").replace
    assert again.rules == form.rules
    assert stored["rules"][0] == {
        "name": "positive quantity",
        "check": "quantity > 0",
        "columns": ["quantity"],
        "message": "the quantity must be at least 1",
    }


def test_a_default_keeps_its_type_through_json() -> None:
    form = Form.from_json(json.loads(json.dumps(parse_form_text(EVERY_KEY).to_json())))
    assert form.field("quantity").default == 1
    assert type(form.field("quantity").default) is int
    assert form.field("gift").default is False
    unit_price = form.field("unit_price").default
    assert isinstance(unit_price, float)
    assert Decimal(repr(unit_price)) == Decimal("0.1")


def test_a_stored_form_is_checked_like_a_file() -> None:
    stored = parse_form_text(EVERY_KEY).to_json()
    stored["fields"][4]["case"] = "camel"
    with pytest.raises(FormError, match=r"^stored form: field 'country': 'case' must be one of"):
        Form.from_json(stored)
    stored = parse_form_text(EVERY_KEY).to_json()
    stored["rules"][1]["require"] = ["emial"]
    with pytest.raises(FormError, match=r"^stored form: rule #2: require: 'emial' is not one"):
        Form.from_json(stored)
