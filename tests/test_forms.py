"""Form definitions: parsing and checking, storage with versions, and the forms commands."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from importer.db import Connection
from importer.errors import FormError, NotFoundError
from importer.forms import Form, form_to_toml, load_form_file, normalize_header, parse_form_text
from importer.forms_repo import get_form, list_forms, save_form

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
ORDERS_FORM = SAMPLES / "orders.form.toml"

MINIMAL = """
name = "people"
[[fields]]
name = "full_name"
header = "Full Name"
type = "string"
required = true
"""


def test_orders_form_loads_with_every_rule() -> None:
    form = load_form_file(ORDERS_FORM)
    assert form.name == "orders"
    assert form.key == ("order_id",)
    by_name = {f.name: f for f in form.fields}
    assert by_name["order_id"].aliases == ("Order No", "Order #")
    assert by_name["order_date"].min == date(2020, 1, 1)
    assert by_name["order_date"].formats == ("%d/%m/%Y",)
    assert by_name["status"].choices == ("new", "paid", "shipped", "cancelled")
    assert by_name["unit_price"].min == Decimal(0)
    assert by_name["zip"].pattern == r"^\d{5}$"
    assert by_name["customer"].max_length == 100


def test_json_and_toml_round_trips() -> None:
    form = load_form_file(ORDERS_FORM)
    assert Form.from_json(form.to_json()) == form
    assert parse_form_text(form_to_toml(form)) == form


def test_defaults_header_is_the_name_and_type_string() -> None:
    form = parse_form_text('name = "x"\n[[fields]]\nname = "city"\n')
    assert form.fields[0].header == "city"
    assert form.fields[0].type == "string"
    assert not form.fields[0].required


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Order ID", "orderid"),
        ("  order_id ", "orderid"),
        ("ORDER-ID", "orderid"),
        ("Order   Id.", "orderid"),
        ("Prix (€)", "prix"),
        ("Straße", "strasse"),
        ("\uff26\uff55\uff4c\uff4c Width", "fullwidth"),
    ],
)
def test_header_normalisation_ignores_case_spaces_and_punctuation(text: str, expected: str) -> None:
    assert normalize_header(text) == expected


BAD_FORMS = [
    ("name = 'x'\n[[fields]\n", "not valid TOML"),
    ('name = "x"\n[[fields]]\nname = "a"\ntype = "number"\n', "field 'a': type 'number'"),
    ('name = "x"\n[[fields]]\nname = "s"\ntype = "enum"\n', "field 's': an enum field needs"),
    (
        'name = "x"\n[[fields]]\nname = "s"\ntype = "enum"\nchoices = ["a", "A"]\n',
        "field 's': 'choices' repeats",
    ),
    ('name = "x"\n[[fields]]\nname = "a"\n[[fields]]\nname = "a"\n', "field 'a' is defined twice"),
    (
        'name = "x"\n[[fields]]\nname = "a"\npattern = "(["\n',
        "field 'a': 'pattern' is not a valid regular expression",
    ),
    ('name = "x"\n[[fields]]\nname = "a"\nrequried = true\n', "field 'a': unknown key 'requried'"),
    (
        'name = "x"\n[[fields]]\nname = "n"\ntype = "integer"\nmin = 5\nmax = 1\n',
        "field 'n': 'min'",
    ),
    (
        'name = "x"\n[[fields]]\nname = "n"\ntype = "integer"\nmin = 1.5\n',
        "field 'n': 'min' must be",
    ),
    (
        'name = "x"\n[[fields]]\nname = "d"\ntype = "date"\nmin = "soon"\n',
        "field 'd': 'min' must be",
    ),
    ('name = "x"\n[[fields]]\nname = "s"\nmin = 3\n', "field 's': 'min' does not apply"),
    ('name = "x"\n[[fields]]\nname = "s"\nformats = ["%d/%m"]\n', "field 's': 'formats' applies"),
    (
        'name = "x"\n[[fields]]\nname = "d"\ntype = "date"\nformats = ["dd/mm"]\n',
        "field 'd': format 'dd/mm'",
    ),
    ('name = "x"\nkey = ["a"]\n[[fields]]\nname = "a"\n', "key field 'a' must be required"),
    ('name = "x"\nkey = ["b"]\n[[fields]]\nname = "a"\n', "key field 'b' is not one"),
    (
        'name = "x"\n[[fields]]\nname = "a"\nheader = "Code"\n[[fields]]\nname = "b"\n'
        'aliases = ["CODE"]\n',
        "field 'b': header or alias matching 'code' is already used by field 'a'",
    ),
    ('name = "x"\n[[fields]]\nname = "2nd"\n', "field #1: 'name' must be an identifier"),
    ('name = "x"\nfields = []\n', "at least one [[fields]]"),
    ('name = "bad name!"\n[[fields]]\nname = "a"\n', "'name' must be a short name"),
    ('name = "x"\n[[fields]]\nname = "a"\nrequired = "yes"\n', "field 'a': 'required' must be"),
    ('name = "x"\n[[fields]]\nname = "a"\nmax_length = -1\n', "field 'a': 'max_length'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FORMS)
def test_malformed_definitions_are_refused_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(FormError) as caught:
        parse_form_text(text, source="f.toml")
    assert str(caught.value).startswith("f.toml: ")
    assert message in str(caught.value)


def test_load_form_file_errors(tmp_path: Path) -> None:
    with pytest.raises(FormError, match="file not found"):
        load_form_file(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(FormError, match="not a text file"):
        load_form_file(binary)


# --- storage ---------------------------------------------------------------------------------


def test_save_form_versions(conn: Connection) -> None:
    first = parse_form_text(MINIMAL)
    assert save_form(conn, first) == 1
    assert save_form(conn, first) == 1  # unchanged: same version
    changed = parse_form_text(MINIMAL.replace("required = true", "required = false"))
    assert save_form(conn, changed) == 2
    assert get_form(conn, "people") == (changed, 2)
    assert get_form(conn, "people", 1) == (first, 1)  # jobs keep the version they started with
    [summary] = list_forms(conn)
    assert (summary.name, summary.version, summary.fields) == ("people", 2, 1)


def test_get_form_unknown(conn: Connection) -> None:
    with pytest.raises(NotFoundError, match="no form named 'nope'"):
        get_form(conn, "nope")
    save_form(conn, parse_form_text(MINIMAL))
    with pytest.raises(NotFoundError, match="has no version 7"):
        get_form(conn, "people", 7)


# --- commands ----------------------------------------------------------------------------------


def test_forms_add_list_show(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    added = cli("forms", "add", str(ORDERS_FORM))
    assert added.exit_code == 0, added.stderr
    assert "form 'orders' created: version 1, 9 fields" in added.stdout
    again = cli("forms", "add", str(ORDERS_FORM))
    assert "unchanged: version 1" in again.stdout

    listed = cli("forms", "list")
    assert listed.exit_code == 0
    assert "orders" in listed.stdout and "v1" in listed.stdout

    shown = cli("forms", "show", "orders")
    assert shown.exit_code == 0
    edited = tmp_path / "edited.toml"
    edited.write_text(shown.stdout.replace("max_length = 100", "max_length = 80"))
    assert load_form_file(edited).field("customer").max_length == 80
    updated = cli("forms", "add", str(edited))
    assert "updated: version 2" in updated.stdout
    old = cli("forms", "show", "orders", "--version", "1", "--json")
    assert '"version": 1' in old.stdout and '"max_length": 100' in old.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("name = [\n", "not valid TOML"),
        ('name = "x"\n[[fields]]\nname = "a"\ntype = "money"\n', "type 'money' is not one of"),
    ],
)
def test_forms_add_bad_toml_exit_2(cli, tmp_path: Path, content: str, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.toml"
    path.write_text(content)
    result = cli("forms", "add", str(path))
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_forms_show_unknown_exit_2(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("forms", "show", "nope")
    assert result.exit_code == 2
    assert "no form named 'nope'" in result.stderr


def test_forms_infer_writes_a_form_that_loads(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "inferred.toml"
    result = cli("forms", "infer", str(SAMPLES / "types_openpyxl.xlsx"), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    form = load_form_file(out)
    assert form.name == "types_openpyxl"
    types = {f.header: f.type for f in form.fields}
    assert types["Zip"] == "string"  # numbers with leading zeros stay text
    assert types["Flag"] == "string"  # mixed booleans and words in this sample
    again = cli("forms", "infer", str(SAMPLES / "orders.xlsx"), "-o", str(out))
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_forms_infer_orders_types(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("forms", "infer", str(SAMPLES / "orders.csv"), "--name", "orders")
    assert result.exit_code == 0, result.stderr
    form = parse_form_text(result.stdout)
    types = {f.header: f.type for f in form.fields}
    assert types["Order ID"] == "integer"
    assert types["Gift Wrap"] == "boolean"
    assert types["Zip Code"] == "string"
    assert form.field("order_id").required
