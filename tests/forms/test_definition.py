"""Form definitions: parsing and checking, storage with versions, and the forms commands."""

from __future__ import annotations

import csv
import tomllib
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from importer.database import Connection
from importer.errors import FormError, NotFoundError
from importer.excel import open_sheet
from importer.fields.field import normalize_header
from importer.forms.definition import Form, form_to_toml, load_form_file, parse_form_text
from importer.forms.inference import infer_form
from importer.forms.validation import BatchResult, Validator
from importer.repositories.forms import get_form, list_forms, save_form
from tests.conftest import Cli

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
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


# --- a table of the user's: table, job_column, a field's column -------------------------------

OWN_TABLE = """
name = "orders"
table = "sales.orders"
job_column = "import_job_id"
key = ["order_id"]
[[fields]]
name = "order_id"
column = "order_no"
type = "integer"
required = true
[[fields]]
name = "customer"
"""


def test_a_form_names_its_own_table_job_column_and_columns() -> None:
    form = parse_form_text(OWN_TABLE)
    assert (form.table, form.job_column) == ("sales.orders", "import_job_id")
    assert [f.column for f in form.fields] == ["order_no", None]
    assert Form.from_json(form.to_json()) == form
    assert parse_form_text(form_to_toml(form)) == form
    assert form.to_json()["table"] == "sales.orders"
    assert form.to_json()["fields"][0]["column"] == "order_no"
    assert "table" not in parse_form_text(MINIMAL).to_json()  # the tool's own: not stored


def test_a_table_without_a_schema_is_in_public() -> None:
    form = parse_form_text('name = "x"\ntable = "orders"\n[[fields]]\nname = "a"\n')
    assert form.table == "public.orders" and form.job_column is None


BAD_TABLE_KEYS = [
    ('name = "x"\ntable = "a.b.c"\n[[fields]]\nname = "a"\n', "'table' must name a table"),
    ('name = "x"\ntable = 5\n[[fields]]\nname = "a"\n', "'table' must name a table"),
    ('name = "x"\njob_column = "j"\n[[fields]]\nname = "a"\n', "'job_column' goes with 'table'"),
    (
        'name = "x"\n[[fields]]\nname = "a"\ncolumn = "b"\n',
        "field 'a': 'column' goes with 'table'",
    ),
    (
        'name = "x"\ntable = "t"\n[[fields]]\nname = "a"\ncolumn = "b c"\n',
        "field 'a': 'column' must be a column name",
    ),
    (
        'name = "x"\ntable = "t"\njob_column = "1j"\n[[fields]]\nname = "a"\n',
        "'job_column' must be a column name",
    ),
    (
        'name = "x"\ntable = "t"\n[[fields]]\nname = "a"\n[[fields]]\nname = "b"\ncolumn = "a"\n',
        "field 'b': column 'a' is already field 'a''s",
    ),
    (
        'name = "x"\ntable = "t"\njob_column = "a"\n[[fields]]\nname = "a"\n',
        "'job_column' 'a' is already field 'a''s column",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_TABLE_KEYS)
def test_bad_table_keys_are_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(FormError) as caught:
        parse_form_text(text, source="f.toml")
    assert str(caught.value).startswith("f.toml: ")
    assert message in str(caught.value)


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
    assert save_form(conn, first).version == 1
    assert save_form(conn, first).version == 1  # unchanged: same version
    changed = parse_form_text(MINIMAL.replace("required = true", "required = false"))
    assert save_form(conn, changed).version == 2
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


def test_forms_add_list_show(cli: Cli, tmp_path: Path) -> None:
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
def test_forms_add_bad_toml_exit_2(cli: Cli, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    result = cli("forms", "add", str(path))
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_forms_show_unknown_exit_2(cli: Cli) -> None:
    result = cli("forms", "show", "nope")
    assert result.exit_code == 2
    assert "no form named 'nope'" in result.stderr


def test_forms_infer_writes_a_form_that_loads(cli: Cli, tmp_path: Path) -> None:
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


def test_forms_infer_orders_types(cli: Cli) -> None:
    result = cli("forms", "infer", str(SAMPLES / "orders.csv"), "--name", "orders")
    assert result.exit_code == 0, result.stderr
    form = parse_form_text(result.stdout)
    types = {f.header: f.type for f in form.fields}
    assert types["Order ID"] == "integer"
    assert types["Gift Wrap"] == "boolean"
    assert types["Zip Code"] == "string"
    assert form.field("order_id").required


# --- forms infer: the type most cells fit, with notes on the rest ------------------------------


def _notes(toml_text: str) -> dict[str, str]:
    """Field name -> the comment written just above its [[fields]] table."""
    notes: dict[str, str] = {}
    lines = toml_text.splitlines()
    for index, line in enumerate(lines):
        if line == "[[fields]]" and lines[index - 1].startswith("# "):
            notes[tomllib.loads(lines[index + 1])["name"]] = lines[index - 1][2:]
    return notes


def _infer_csv(tmp_path: Path, columns: dict[str, list[str]]) -> tuple[Form, dict[str, str], Path]:
    """infer_form over a CSV of these columns; the form is read back from the TOML written."""
    path = tmp_path / "sample.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(zip(*columns.values(), strict=True))
    with open_sheet(path) as reader:
        form, notes = infer_form(reader, "sample")
    text = form_to_toml(form, comments=notes)
    assert _notes(text) == notes
    return parse_form_text(text), notes, path


def _validated(form: Form, path: Path) -> BatchResult:
    with open_sheet(path) as reader:
        return Validator(form, reader.header).validate(list(reader.rows()))


def _first_seen(path: Path, header: str) -> tuple[str, ...]:
    with open_sheet(path) as reader:
        index = reader.header.index(header)
        return tuple(dict.fromkeys(str(row.values[index]) for row in reader.rows()))


def test_forms_infer_orders_xlsx_proposes_the_real_form(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "orders.toml"
    result = cli("forms", "infer", str(SAMPLES / "orders.xlsx"), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    form, real = load_form_file(out), load_form_file(ORDERS_FORM)
    inferred = {f.header: f for f in form.fields}
    assert {f.header: f.type for f in real.fields} == {
        f.header: inferred[f.header].type for f in real.fields
    }
    assert inferred["Order Date"].formats == real.field("order_date").formats
    # 'pending' is seen once among 300: a mistake, not a choice
    assert set(inferred["Status"].choices) == set(real.field("status").choices)
    seen = _first_seen(SAMPLES / "orders.xlsx", "Status")
    assert inferred["Status"].choices == tuple(text for text in seen if text != "pending")
    assert inferred["Notes"].type == "string"  # half empty: notes, not categories

    notes = _notes(out.read_text())
    assert notes == {
        "order_id": "no value repeats in 300 sampled rows: unique = true",
        "customer": "3 of 300 sampled rows leave it empty: required = true would reject them",
        "email": "2 of 300 sampled values do not fit email (e.g. 'edsger.hopper10 at example.com',"
        " 'tim.liskov31 at example.com'): such rows will be rejected",
        "order_date": "3 of 300 sampled values do not fit date (e.g. '31/02/2024'): such rows "
        "will be rejected",
        "status": "few values, each repeated: check the choices; 1 of 300 sampled values are not "
        "among the choices (e.g. 'pending'): such rows will be rejected",
        "qty": "2 of 300 sampled values do not fit integer (e.g. '10.5', '18.5'): such rows will "
        "be rejected (decimal would accept them)",
        "unit_price": "2 of 300 sampled values do not fit decimal (e.g. '#N/A'): such rows will be "
        "rejected",
        "zip_code": "numbers with leading zeros: kept as text",
    }
    # The notes are honest: validating the sheet with the inferred form rejects those cells.
    checked = _validated(form, SAMPLES / "orders.xlsx")
    errors = Counter(error.column for row in checked.rejected for error in row.errors)
    assert errors == {"Email": 2, "Order Date": 3, "Status": 1, "Qty": 2, "Unit Price": 2}
    added = cli("forms", "add", str(out))
    assert added.exit_code == 0, added.stderr
    assert "form 'orders' created: version 1, 10 fields" in added.stdout


def test_forms_infer_orders_csv_imports_the_good_rows(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    out = tmp_path / "guess.toml"
    result = cli("forms", "infer", str(SAMPLES / "orders.csv"), "--name", "guess", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    form, real = load_form_file(out), load_form_file(ORDERS_FORM)
    inferred = {f.header: f for f in form.fields}
    assert {f.header: f.type for f in real.fields} == {
        f.header: inferred[f.header].type for f in real.fields
    }
    assert inferred["Order Date"].formats == ("%d/%m/%Y",)  # 19/08/2024: day first
    assert inferred["Status"].choices == ("paid", "new", "shipped", "cancelled")  # first seen
    assert _notes(out.read_text()) == {
        "order_id": "no value repeats in 60 sampled rows: unique = true",
        "email": "1 of 60 sampled values do not fit email (e.g. 'donald.turing18 at example.com'"
        "): such rows will be rejected; no value repeats in 60 sampled rows: unique = true",
        "status": "few values, each repeated: check the choices",
        "zip_code": "numbers with leading zeros: kept as text",
    }
    assert cli("forms", "add", str(out)).exit_code == 0
    submitted = cli("submit", str(SAMPLES / "orders.csv"), "--form", "guess", "--json", "-q")
    assert submitted.exit_code == 3, submitted.stderr  # finished with a rejected row
    job = conn.execute("SELECT success_rows, failed_rows FROM import_jobs").fetchone()
    assert job == {"success_rows": 59, "failed_rows": 1}
    errors = conn.execute("SELECT row_number, column_name FROM import_row_errors").fetchall()
    assert errors == [{"row_number": 20, "column_name": "Email"}]
    first = conn.execute(
        "SELECT order_date, status, qty FROM forms.guess WHERE row_number = 2"
    ).fetchone()
    assert first is not None
    assert first["order_date"] == date(2024, 8, 19)  # written 19/08/2024
    assert first["status"] == "paid" and first["qty"] == 6


def test_infer_dominant_type_notes_and_required(tmp_path: Path) -> None:
    ints = [str(n) for n in range(1, 41)]
    form, notes, _ = _infer_csv(
        tmp_path,
        {
            "Id": ints,
            "Count": [*ints[:36], "n/a", "2.5", "y" * 50, "later"],
            "Zip": ["94103", "10001", "30301", "60614"] * 9 + ["02134"] * 4,
            "Mixed": [*ints[:34], "one", "two", "three", "four", "five", "six"],
            "Name": [f"person {n}" for n in ints],
            "Ratio": [f"{n / 7:.3f}" for n in range(1, 41)],
            "Optional": [*ints[:38], "", " "],
            "Sparse": ints[:10] + [""] * 30,
        },
    )
    assert form.rules.missing == ("n/a",)
    types = {f.name: f.type for f in form.fields}
    assert types == {
        "id": "integer",
        "count": "integer",
        "zip": "string",
        "mixed": "string",
        "name": "string",
        "ratio": "decimal",
        "optional": "integer",
        "sparse": "integer",
    }
    assert {f.name for f in form.fields if f.required} == {
        "id",
        "zip",
        "mixed",
        "name",
        "ratio",
    }
    assert notes == {
        "id": "no value repeats in 40 sampled rows: unique = true",
        # at most 3 distinct examples, each shortened; "n/a" is an empty cell (missing)
        "count": f"3 of 39 sampled values do not fit integer (e.g. '2.5', '{'y' * 29}...', "
        "'later'): such rows will be rejected; 1 of 40 sampled rows leave it empty: "
        "required = true would reject them",
        "zip": "numbers with leading zeros: kept as text",
        "mixed": "mixed kinds of values: 34 of 40 sampled values fit integer, below the 90% "
        "needed to propose it: check the type",
        "optional": "2 of 40 sampled rows leave it empty: required = true would reject them",
    }


@pytest.mark.parametrize(
    ("texts", "ftype", "formats", "guessed", "stored"),
    [
        (["19/08/2024", "1/2/2024"], "date", ("%d/%m/%Y",), False, ["2024-08-19", "2024-02-01"]),
        (["8/19/2024", "01/02/2024"], "date", ("%m/%d/%Y",), False, ["2024-08-19", "2024-01-02"]),
        (["03/04/2024", "1/2/2024"], "date", ("%d/%m/%Y",), True, ["2024-04-03", "2024-02-01"]),
        (["19.08.24", "1.2.24"], "date", ("%d.%m.%y",), False, ["2024-08-19", "2024-02-01"]),
        (["08-19-2024", "12-01-2024"], "date", ("%m-%d-%Y",), False, ["2024-08-19", "2024-12-01"]),
        (["2024-08-19", "2024-02-01"], "date", (), False, ["2024-08-19", "2024-02-01"]),
        (
            ["2024-08-19T10:30:00", "2024-02-01 08:00"],
            "datetime",
            (),
            False,
            ["2024-08-19T10:30:00", "2024-02-01T08:00:00"],
        ),
    ],
)
def test_infer_text_dates_propose_formats_the_coercer_reads(
    tmp_path: Path,
    texts: list[str],
    ftype: str,
    formats: tuple[str, ...],
    guessed: bool,
    stored: list[str],
) -> None:
    form, notes, path = _infer_csv(tmp_path, {"When": texts * 10})
    [when] = form.fields
    assert (when.type, when.formats) == (ftype, formats)
    assert ("day-first order is a guess" in notes.get("when", "")) is guessed
    assert ("when" in notes) is guessed  # every text fits: no other note
    checked = _validated(form, path)
    assert not checked.rejected
    assert [row.data["when"] for row in checked.valid][:2] == stored


def test_infer_text_dates_that_disagree_keep_the_more_common_order(tmp_path: Path) -> None:
    form, notes, _ = _infer_csv(tmp_path, {"When": ["19/08/2024"] * 19 + ["8/20/2024"]})
    assert form.fields[0].formats == ("%d/%m/%Y",)
    assert notes["when"] == (
        "text dates in the sample disagree on day/month order: the more common is used; "
        "1 of 20 sampled values do not fit date (e.g. '8/20/2024'): such rows will be rejected"
    )


def test_infer_enum_choices_and_their_limits(tmp_path: Path) -> None:
    status = ["new", " Paid", "paid", "PAID", "shipped", "paid"] * 6 + ["new", "pendng", "new", ""]
    assert len(status) == 40
    form, notes, path = _infer_csv(
        tmp_path,
        {
            "Status": status,
            "Answer": ["yes", "no", "maybe", "no"] * 10,  # not boolean: a category
            "Thirteen": [f"kind {n % 13}" for n in range(40)],  # too many distinct values
            "Remark": ["call first", "fragile"] * 4 + [""] * 32,  # mostly empty: notes
            "Code": [f"c{n}" for n in range(40)],
        },
    )
    by_name = {f.name: f for f in form.fields}
    assert by_name["status"].type == "enum"
    assert by_name["status"].choices == ("new", "paid", "shipped")  # most frequent spelling
    assert by_name["answer"].choices == ("yes", "no", "maybe")
    assert [by_name[n].type for n in ("thirteen", "remark", "code")] == ["string"] * 3
    assert notes == {
        "status": "few values, each repeated: check the choices; 1 of 39 sampled values are not "
        "among the choices (e.g. 'pendng'): such rows will be rejected; 1 of 40 sampled rows "
        "leave it empty: required = true would reject them",
        "answer": "few values, each repeated: check the choices",
        "code": "no value repeats in 40 sampled rows: unique = true",
    }
    assert by_name["code"].unique and not by_name["thirteen"].unique
    checked = _validated(form, path)
    assert [row.number for row in checked.rejected] == [39]  # 'pendng'
    assert {row.data["status"] for row in checked.valid} == {"new", "paid", "shipped", None}


def test_infer_proposes_the_missing_texts_it_saw_and_unique_key_like_columns(
    tmp_path: Path,
) -> None:
    form, _notes, path = _infer_csv(
        tmp_path,
        {
            "Order ID": [str(n) for n in range(1, 41)],
            "Email": [f"u{n}@example.com" for n in range(40)],
            "Qty": ["3", "N/A", "5", "-"] * 10,  # numbers, "no value" written two ways
            "Name": [f"Person {n}" for n in range(40)],  # distinct, but not key-like
            "Team": ["red", "blue"] * 20,
        },
    )
    by_name = {f.name: f for f in form.fields}
    assert form.rules.missing == ("N/A", "-")
    assert by_name["qty"].type == "integer" and not by_name["qty"].required
    assert [n for n, f in by_name.items() if f.unique] == ["order_id", "email"]
    again = parse_form_text(form_to_toml(form))  # what `forms infer` writes loads back
    assert again == form
    checked = _validated(again, path)
    assert not checked.rejected
    assert [row.data["qty"] for row in checked.valid[:4]] == [3, None, 5, None]


def test_infer_enum_needs_twenty_filled_cells(tmp_path: Path) -> None:
    form, notes, _ = _infer_csv(tmp_path, {"Status": ["new", "paid"] * 9 + ["new"]})
    assert form.fields[0].type == "string" and notes == {}
    form, notes, _ = _infer_csv(tmp_path, {"Status": ["new", "paid"] * 10})
    assert form.fields[0].choices == ("new", "paid")
