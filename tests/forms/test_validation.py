"""Validation: header matching, every type's coercion and rules, all errors of a row."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest

from importer.errors import FormError, InputError
from importer.excel import CellError, NumberText, open_sheet
from importer.excel.values import Row, display_text
from importer.fields.cells import EMAIL, Coercer, Invalid, build_coercer
from importer.fields.columns import _BOOL_TEXTS, _EMAIL_LINES
from importer.fields.field import Field
from importer.fields.registry import FIELD_TYPE_SPECS
from importer.forms.definition import Form, form_to_toml, load_form_file, parse_form_text
from importer.forms.rules import FormRules
from importer.forms.validation import Validator, _rows_as_texts

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
TYPES = load_form_file(SAMPLES / "types.form.toml")
ORDERS = load_form_file(SAMPLES / "orders.form.toml")

TYPES_VALID = {
    2: {
        "text": "Alpha",
        "whole": 12,
        "amount": 19.99,
        "day": "2024-03-05",
        "moment": "2024-03-05T13:45:00",
        "flag": True,
        "email": "ada@example.com",
        "status": "paid",
        "zip": "00123",
    },
    3: {
        "text": "padded text",  # trim = true, the default
        "whole": 1234,
        "amount": 0.5,
        "day": "2024-03-06",
        "moment": "2024-03-06T08:00:00",
        "flag": True,
        "email": "Grace@Example.COM",
        "status": "paid",
        "zip": "00456",
    },
    4: {
        "text": "42",
        "whole": 12,
        "amount": 0.3,
        "day": "2024-03-06",
        "moment": "2024-03-06T12:00:00",
        "flag": True,
        "email": "b@example.org",
        "status": "new",
        "zip": "00007",
    },
    10: {
        "text": "dmy",
        "whole": -7,
        "amount": 1000.0,
        "day": "2024-03-05",
        "moment": "2024-03-05T23:59:59",
        "flag": False,
        "email": None,
        "status": "cancelled",
        "zip": None,
    },
}
TYPES_REJECTED: dict[int, list[tuple[str, str | None, str]]] = {
    5: [
        ("Text", "#N/A", "the cell shows the error #N/A (value not available)"),
        ("Whole", "#DIV/0!", "the cell shows the error #DIV/0! (division by zero)"),
        ("Amount", "#VALUE!", "the cell shows the error #VALUE!"),
        ("Day", "#REF!", "the cell shows the error #REF!"),
        ("Email", "#NAME?", "the cell shows the error #NAME?"),
        ("Status", None, "a value is required but the cell is empty"),
    ],
    6: [
        ("Whole", "12.5", "'12.5' is not a whole number"),
        ("Amount", "12,5", "'12,5' is not a number"),
        ("Day", "31/02/2024", "'31/02/2024': February 2024 has no day 31"),
        ("Moment", "soon", "'soon' is not a date and time"),
        ("Flag", "maybe", "'maybe' is not yes/no"),
        ("Email", "not-an-email", "'not-an-email' is not a valid email address"),
        ("Status", "pending", "'pending' is not one of: new, paid, shipped, cancelled"),
        ("Zip", "123", "'123' is not in the expected format"),
    ],
    8: [
        ("Text", None, "a value is required but the cell is empty"),
        ("Whole", None, "a value is required but the cell is empty"),
    ],
    9: [("Whole", None, "the cell holds a formula that was never calculated")],
}


@pytest.mark.parametrize("name", ["types_xlsxwriter.xlsx", "types_openpyxl.xlsx"])
@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_types_sample_every_rule(name: str, engine: str) -> None:
    with open_sheet(SAMPLES / name, engine=engine) as reader:
        validator = Validator(TYPES, reader.header, date1904=reader.date1904)
        result = validator.validate(list(reader.rows()))
    assert {v.number: v.data for v in result.valid} == TYPES_VALID
    got = {r.number: r for r in result.rejected}
    assert sorted(got) == sorted(TYPES_REJECTED)
    for number, expected in TYPES_REJECTED.items():
        errors = got[number].errors
        assert [(e.column, e.raw) for e in errors] == [(c, raw) for c, raw, _ in expected]
        for error, (_, _, message) in zip(errors, expected, strict=True):
            assert error.message.startswith(message), (number, error.message)
    # every cell of a rejected row, as text, in sheet order (for the errors export)
    assert got[6].values == [
        "ok",
        "12.5",
        "12,5",
        "31/02/2024",
        "soon",
        "maybe",
        "not-an-email",
        "pending",
        "123",
    ]


@pytest.mark.parametrize("name", ["dates_1904_xlsxwriter.xlsx", "dates_1904_openpyxl.xlsx"])
def test_raw_serials_use_the_workbook_date_system(name: str) -> None:
    form = parse_form_text('name = "d"\n[[fields]]\nname = "day"\nheader = "Day"\ntype = "date"\n')
    with open_sheet(SAMPLES / name) as reader:
        result = Validator(form, reader.header, date1904=reader.date1904).validate(
            list(reader.rows())
        )
    assert [v.data["day"] for v in result.valid] == ["2024-03-05", "2024-03-05"]


def test_orders_demo_has_about_five_percent_errors() -> None:
    with open_sheet(SAMPLES / "orders.xlsx") as reader:
        validator = Validator(ORDERS, reader.header)
        result = validator.validate(list(reader.rows()))
    assert len(result.valid) + len(result.rejected) == 300
    assert 5 <= len(result.rejected) <= 30
    assert validator.extra_columns == ["Notes"]
    messages = {e.message.split(" (")[0] for r in result.rejected for e in r.errors}
    assert "the cell shows the error #N/A" in messages


# --- header matching ---------------------------------------------------------------------------


def test_header_matching_ignores_case_spaces_punctuation_and_accepts_aliases() -> None:
    header = [" order no ", "CUSTOMER", "order-date", "status", "Quantity", "unit price", "Extra"]
    validator = Validator(ORDERS, header)
    assert {c.name: c.index for c in validator.columns} == {
        "order_id": 0,
        "customer": 1,
        "order_date": 2,
        "status": 3,
        "quantity": 4,
        "unit_price": 5,
    }
    assert validator.extra_columns == ["Extra"]
    row = Row(2, (7.0, "Ada", "2024-01-02", "Paid", 2.0, 3.5, "x"))
    [valid] = validator.validate([row]).valid
    assert valid.data["email"] is None  # optional column absent from the sheet
    assert valid.data["status"] == "paid"  # canonical spelling


def test_missing_required_columns_listed_with_the_sheet_header() -> None:
    with pytest.raises(InputError) as caught:
        Validator(ORDERS, ["Order ID", "Customer", "Notes"])
    message = str(caught.value)
    assert "missing required columns 'Order Date', 'Status', 'Qty', 'Unit Price'" in message
    assert "the sheet's header has: 'Order ID', 'Customer', 'Notes'" in message


def test_duplicate_headers_for_one_field() -> None:
    header = ["Order ID", "Order No", "Customer", "Order Date", "Status", "Qty", "Unit Price"]
    with pytest.raises(InputError, match=r"columns A \('Order ID'\) and B \('Order No'\) both"):
        Validator(ORDERS, header)


# --- coercion, type by type --------------------------------------------------------------------


def coerce(spec: str, value: object) -> Any:
    form = parse_form_text(f'name = "t"\n[[fields]]\nname = "f"\n{spec}\n')
    return build_coercer(form.fields[0])(value)


OK_CASES = [
    ('type = "integer"', 12.0, 12),
    ('type = "integer"', "9223372036854775807", 2**63 - 1),
    ('type = "integer"', "-9,223,372,036,854,775,808", -(2**63)),
    ('type = "integer"', "+00000000000000000000000012", 12),
    ('type = "integer"', " 1,234 ", 1234),
    ('type = "integer"', "-5.00", -5),
    ('type = "integer"', NumberText(7.0, "00007"), 7),
    ('type = "decimal"', 0.1 + 0.2, 0.3),
    ('type = "decimal"', "1,234.50", 1234.5),
    ('type = "decimal"', "-.5", -0.5),
    ('type = "string"', 42.0, "42"),
    ('type = "string"', 0.1 + 0.2, "0.3"),
    ('type = "string"', 1e20, "1E+20"),
    ('type = "string"', NumberText(123.0, "00123"), "00123"),
    ('type = "string"', True, "TRUE"),
    ('type = "string"', date(2024, 1, 2), "2024-01-02"),
    ('type = "boolean"', "Y", True),
    ('type = "boolean"', " no ", False),
    ('type = "boolean"', 0.0, False),
    ('type = "date"', datetime(2024, 1, 2), "2024-01-02"),
    ('type = "date"', "2024-01-02", "2024-01-02"),
    ('type = "date"\nformats = ["%d.%m.%Y", "%b %d %Y"]', "Jan 02 2024", "2024-01-02"),
    ('type = "datetime"', date(2024, 1, 2), "2024-01-02T00:00:00"),
    ('type = "datetime"', "2024-01-02T03:04:05+02:00", "2024-01-02T03:04:05+02:00"),
    ('type = "datetime"', 45356.25, "2024-03-05T06:00:00"),
    ('type = "email"', " a.b+c@sub.example.co.uk ", "a.b+c@sub.example.co.uk"),
    ('type = "enum"\nchoices = ["Low", "High"]', " HIGH ", "High"),
    ('type = "enum"\nchoices = ["1", "2"]', 2.0, "2"),
    ('type = "string"\nmax_length = 3', "abc", "abc"),
    ('type = "integer"\nmin = 1\nmax = 3', 3.0, 3),
    ('type = "date"\nmin = 2024-01-01', date(2024, 1, 1), "2024-01-01"),
    ('type = "string"', "   ", None),
]


@pytest.mark.parametrize(("spec", "value", "expected"), OK_CASES)
def test_coercion_accepts(spec: str, value: object, expected: object) -> None:
    assert coerce(spec, value) == expected


BAD_CASES = [
    ('type = "integer"', "9223372036854775808", "is too large a whole number to store"),
    ('type = "integer"', "1" * 5000, "is too large a whole number to store"),
    ('type = "integer"', 2.0**70, "'1.18059162071741E+21' is too large a whole number to store"),
    ('type = "integer"', -1e300, "is too large a whole number to store"),
    ('type = "integer"', 12.5, "'12.5' is not a whole number"),
    ('type = "integer"', "12a", "'12a' is not a whole number"),
    ('type = "integer"', True, "'TRUE' is a TRUE/FALSE value, not a whole number"),
    ('type = "integer"', date(2024, 1, 2), "is a date, not a whole number"),
    ('type = "decimal"', "1.2.3", "is not a number"),
    ('type = "decimal"', "12345678901234567.5", "more than 15 significant digits"),
    ('type = "decimal"\nmin = 0', -0.01, "'-0.01' is less than the minimum 0"),
    ('type = "decimal"', 1.7976931348623157e308, "too large a number to store"),
    ('type = "decimal"', "1e400", "too large a number to store"),
    ('type = "integer"\nmax = 10', 11.0, "11 is more than the maximum 10"),
    ('type = "date"', datetime(2024, 1, 2, 13, 30), "has a time of day"),
    ('type = "date"', time(12, 0), "is a time of day, not a date"),
    ('type = "date"', -5.0, "is a number, not a date"),
    ('type = "date"', datetime(1899, 12, 30), "is not a valid Excel date"),
    ('type = "date"\nmax = 2020-12-31', date(2021, 1, 1), "after the latest allowed date"),
    ('type = "datetime"', timedelta(hours=3), "is a duration, not a date and time"),
    ('type = "boolean"', 2.0, "is not yes/no"),
    ('type = "email"', "a@b", "is not a valid email address"),
    ('type = "email"', 5.0, "is a number, not an email address"),
    ('type = "enum"\nchoices = ["a"]', "b", "'b' is not one of: a"),
    ('type = "string"\nmax_length = 3', "abcd", "is 4 characters long; at most 3"),
    ('type = "string"\nmin_length = 2', "a", "at least 2 are required"),
    ('type = "string"\npattern = "^[A-Z]{2}$"', "abc", "'abc' is not in the expected format"),
    ('type = "string"', "nul\x00inside", "NUL character"),
    ('type = "string"\nrequired = true', None, "a value is required"),
    ('type = "integer"\nrequired = true', " ", "a value is required"),
    ('type = "decimal"', CellError("#NUM!"), "the cell shows the error #NUM! (invalid number)"),
]


@pytest.mark.parametrize(("spec", "value", "message"), BAD_CASES)
def test_coercion_refuses_with_a_message(spec: str, value: object, message: str) -> None:
    with pytest.raises(Invalid) as caught:
        coerce(spec, value)
    assert message in caught.value.message


# --- the unrolled fast path gives exactly what the coercers give --------------------------------

ALL_TYPES = parse_form_text(
    """
name = "all"
[[fields]]
name = "s"
max_length = 5
[[fields]]
name = "i"
type = "integer"
min = 0
max = 100
[[fields]]
name = "d"
type = "decimal"
min = 0
[[fields]]
name = "day"
type = "date"
min = 2000-01-01
[[fields]]
name = "dt"
type = "datetime"
[[fields]]
name = "b"
type = "boolean"
[[fields]]
name = "e"
type = "email"
[[fields]]
name = "n"
type = "enum"
choices = ["x", "Y"]
"""
)
SAMPLE_VALUES: list[object] = [
    None,
    "",
    " ",
    "x",
    "Y",
    "y",
    "abcdef",
    "12",
    "1,000",
    "0.5",
    "-1",
    "2024-01-02",
    "yes",
    "a@b.co",
    "bad@",
    "\x00",
    0.0,
    1.0,
    12.5,
    100.0,
    101.0,
    -3.0,
    0.1 + 0.2,
    45356.0,
    True,
    False,
    date(2024, 1, 2),
    date(1999, 1, 1),
    datetime(2024, 1, 2, 3, 4),
    time(1, 2),
    timedelta(1),
    CellError("#N/A"),
    CellError(""),
    NumberText(7.0, "007"),
    float("nan"),
]


def _one_by_one(coercers: list[Coercer], value: object) -> tuple[dict[str, object], list[str]]:
    """What each field's own coercer makes of `value`: the stored values, or the messages."""
    expected: dict[str, object] = {}
    failed: list[str] = []
    for f, fn in zip(ALL_TYPES.fields, coercers, strict=True):
        try:
            expected[f.name] = fn(value)
        except Invalid as exc:
            failed.append(exc.message)
    return expected, failed


def test_batch_of_mixed_values_matches_the_coercers() -> None:
    validator = Validator(ALL_TYPES, [f.name for f in ALL_TYPES.fields])
    coercers = [build_coercer(f) for f in ALL_TYPES.fields]
    rows = [Row(n, (v,) * len(coercers)) for n, v in enumerate(SAMPLE_VALUES * 2, start=2)]
    result = validator.validate(rows)
    valid = {r.number: r.data for r in result.valid}
    rejected = {r.number: [e.message for e in r.errors] for r in result.rejected}
    assert len(valid) + len(rejected) == len(rows)
    # What the writer sends: the same rows, encoded from the columns.
    assert json.loads(result.valid.json_document()) == [[n, d] for n, d in valid.items()]
    # Rejected rows keep every cell as text PostgreSQL can store (NUL replaced).
    texts = [t for r in result.rejected for t in r.values if t is not None]
    assert not any("\x00" in t for t in texts)
    assert "\ufffd" in texts  # the "\x00" cell, stored as the replacement mark
    for row in rows:
        value = row.values[0]
        expected, failed = _one_by_one(coercers, value)
        if failed:
            assert rejected[row.number] == failed, value
        else:
            assert valid[row.number] == expected, value


def test_fast_path_matches_the_coercers() -> None:
    validator = Validator(ALL_TYPES, [f.name for f in ALL_TYPES.fields])
    coercers = [build_coercer(f) for f in ALL_TYPES.fields]
    for value in SAMPLE_VALUES:
        for _ in range(2):  # the second time, memoized answers are used
            row = Row(2, (value,) * len(coercers))
            result = validator.validate([row])
            expected, failed = _one_by_one(coercers, value)
            if failed:
                [rejected] = result.rejected
                assert [e.message for e in rejected.errors] == failed, value
            else:
                [valid] = result.valid
                assert valid.data == expected, value


@pytest.mark.parametrize(
    ("spec", "first", "then"),
    [
        ('type = "decimal"', 1.0, True),
        ('type = "decimal"', 0.0, False),
        ('type = "date"', 1.0, True),
        ('type = "enum"\nchoices = ["1", "TRUE"]', 1.0, True),
        ('type = "enum"\nchoices = ["1", "TRUE"]', True, 1.0),
    ],
)
def test_remembered_answers_never_mix_true_and_one(spec: str, first: object, then: object) -> None:
    form = parse_form_text(f'name = "t"\n[[fields]]\nname = "f"\n{spec}\n')
    validator = Validator(form, ["f"])
    fresh = Validator(form, ["f"])
    validator.validate([Row(2, (first,))])
    assert validator.validate([Row(3, (then,))]) == fresh.validate([Row(3, (then,))])


def _as_stored(text: str | None) -> str | None:
    return None if text is None else text.replace("\x00", "\ufffd")


def _mostly_clean_column(rng: random.Random, common: list[object], rows: int) -> list[object]:
    """A column of a batch as imports see it: one kind of value with a few odd cells."""
    return [
        rng.choice(SAMPLE_VALUES) if rng.random() < 0.08 else rng.choice(common)
        for _ in range(rows)
    ]


@pytest.mark.parametrize("seed", range(12))
def test_mostly_clean_batches_match_the_coercers(seed: int) -> None:
    """The column fast paths (whole numbers with a few 'n/a' or 1.5, addresses with a few
    bad ones, ...) store and refuse exactly what each field's own coercer does."""
    rng = random.Random(seed)
    common: dict[str, list[object]] = {
        "s": ["ab", "abcde", "abcdef", " x "],
        "i": [0.0, 7.0, 100.0, 101.0, -1.0, 1e16, -0.0],
        "d": [0.5, 19.99, 0.1 + 0.2, -0.01, 1.7976931348623157e308, float("inf"), 1e-7],
        "day": [date(2024, 1, 2), 45356.0],
        "dt": [datetime(2024, 1, 2, 3, 4), date(2024, 1, 2)],
        "b": [True, False],
        "e": ["a@b.co", "x.y@mail-host.example.org", "bad@-host.com", "two@@x.io"],
        "n": ["x", "Y", "y", "z"],
    }
    fields = ALL_TYPES.fields
    names = [f.name for f in fields]
    # The coercers see the cells as they are: no trimming before them (trim = false).
    validator = Validator(dataclasses.replace(ALL_TYPES, rules=FormRules(trim=False)), names)
    coercers = [build_coercer(f) for f in fields]
    for _ in range(3):  # later batches meet remembered answers
        columns = [_mostly_clean_column(rng, common[f.name], 400) for f in fields]
        rows = [Row(n, cells) for n, cells in enumerate(zip(*columns, strict=True), start=2)]
        result = validator.validate(rows)
        valid = {r.number: r.data for r in result.valid}
        rejected = {r.number: r for r in result.rejected}
        assert len(valid) + len(rejected) == len(rows)
        assert json.loads(result.valid.json_document()) == [[n, d] for n, d in valid.items()]
        for row in rows:
            expected: dict[str, object] = {}
            failed: list[tuple[str, str]] = []
            for f, fn, value in zip(fields, coercers, row.values, strict=True):
                try:
                    expected[f.name] = fn(value)
                except Invalid as exc:
                    failed.append((f.name, exc.message))
            if failed:
                errors = rejected[row.number].errors
                assert [(e.column, e.message) for e in errors] == failed, row
                texts = [_as_stored(display_text(value)) for value in row.values]
                assert rejected[row.number].values == texts
                assert [e.raw for e in errors] == [texts[names.index(n)] for n, _ in failed]
            else:
                assert valid[row.number] == expected, row


# The address pattern as first written (with backtracking); the one in use must match the
# same strings.
_EMAIL_AS_WRITTEN = re.compile(
    r"[^@\s<>(),;:\"\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"
)


def test_email_pattern_matches_what_it_did_before() -> None:
    rng = random.Random(3)
    alphabet = "aZ09-.@ \n<_é"
    texts = ["a@b.co", "a@b-.co", "a@-b.co", "a@b..co", "a@b.c-o", "é@x.io", "a b@x.io"]
    texts += ["".join(rng.choices(alphabet, k=rng.randrange(1, 14))) for _ in range(30_000)]
    texts += [
        "".join(rng.choices("ab-", k=3)) + "@" + "".join(rng.choices("a0-.", k=rng.randrange(1, 9)))
        for _ in range(30_000)
    ]
    matched = 0
    for text in texts:
        expected = _EMAIL_AS_WRITTEN.fullmatch(text) is not None
        assert (EMAIL.fullmatch(text) is not None) == expected, text
        assert (_EMAIL_LINES.fullmatch(text + "\n") is not None) == expected, text
        matched += expected
    assert matched > 1_000  # the samples reach both answers


@pytest.mark.parametrize(
    "column",
    [
        [0.0, -0.0, 12.0, 12.5, 0.1 + 0.2, 1e14, 123456789012345.0, 1e15, 1e16, 1e-5, -2.5e-7],
        [float("nan"), float("inf"), -float("inf"), 3.0],
        [1.0, 2.0, 999999999999999.0],
        [0.25, -0.0],
        [date(2024, 1, 2), date(1900, 3, 1)],
        [datetime(2024, 1, 2, 3, 4, 5), datetime(2024, 1, 2, 3, 4, 5, 120000)],
        [time(1, 2), time(23, 59, 59, 500000)],
        [True, False],
        [7, -12, 10**20],
        [None, None],
        ["a", "", "b\x00c"],
        ["a", 1.5, None, date(2024, 1, 2), CellError("#N/A"), NumberText(7.0, "007"), "\x00"],
    ],
)
def test_rejected_rows_texts_are_what_each_cell_displays(column: list[object]) -> None:
    rows: list[Sequence[object]] = [(value,) for value in column]
    assert _rows_as_texts(rows) == [[_as_stored(display_text(value))] for value in column]


def test_unique_amounts_settled_in_bulk_match_the_coercer() -> None:
    """Amounts that are all different miss the remembered answers: the decimal column
    rounds and bounds them in bulk, exactly as the coercer does one by one."""
    form = parse_form_text(
        'name = "t"\n[[fields]]\nname = "f"\ntype = "decimal"\nmin = -5\nmax = 1e6\n'
    )
    rng = random.Random(5)
    cents: list[object] = [round(rng.uniform(-6, 1.1e6), 2) for _ in range(3000)]  # short reprs
    noisy: list[object] = [rng.uniform(-6, 1.1e6) for _ in range(3000)]  # 17-digit reprs
    noisy += [x / 7 for x in range(1, 500)] + [0.1 * x for x in range(500)]
    sixteen: list[object] = [round(rng.uniform(1e5, 9e5), 10) for _ in range(3000)]  # 16 digits
    odd: list[object] = [-5.0000000000000001, 1e6, 1e6 + 1e-9, float("nan"), float("inf")]
    odd += [0.0, 1.0, "12.5", "n/a", True, None, 3, date(2024, 1, 2), NumberText(4.0, "004")]
    for cells in (cents, noisy, sixteen, cents + noisy + sixteen + odd):
        cells = cells[:]
        rng.shuffle(cells)
        valid, rejected = _one_column_as_its_coercer_says(form, cells)
        assert valid > 2000
    assert rejected > 50  # the mixed batch reaches both answers


def _one_column_as_its_coercer_says(form: Form, cells: list[object]) -> tuple[int, int]:
    """Validate a one-field form's column as one batch; every cell must come out as the
    field's coercer says. Returns how many rows were valid and rejected."""
    fn = build_coercer(form.fields[0])
    result = Validator(form, ["f"]).validate(
        [Row(n, (cell,)) for n, cell in enumerate(cells, start=2)]
    )
    valid = {r.number: r.data["f"] for r in result.valid}
    rejected = {r.number: r.errors[0].message for r in result.rejected}
    for number, cell in enumerate(cells, start=2):
        try:
            expected = fn(cell)
        except Invalid as exc:
            assert rejected[number] == exc.message, cell
        else:
            assert valid[number] == expected, cell
    return len(valid), len(rejected)


@pytest.mark.parametrize("bounds", ["", "min = 2020-01-01T00:00:00\nmax = 2030-01-01T00:00:00"])
def test_unique_timestamps_settled_in_bulk_match_the_coercer(bounds: str) -> None:
    form = parse_form_text(f'name = "t"\n[[fields]]\nname = "f"\ntype = "datetime"\n{bounds}\n')
    rng = random.Random(8)
    start = datetime(2019, 6, 1)
    moments: list[object] = [
        start + timedelta(seconds=rng.randrange(400_000_000), milliseconds=rng.randrange(1000))
        for _ in range(3000)
    ]
    aware = datetime(2024, 1, 2, 3, 4, tzinfo=UTC)
    odd: list[object] = [datetime(1899, 12, 31, 1), aware, date(2024, 1, 2), "2024-01-02 10:00"]
    odd += ["n/a", 45356.5, None, True]
    for cells in (moments, moments + odd, [*moments, aware], moments + odd[:1]):
        cells = cells[:]
        rng.shuffle(cells)
        valid, _ = _one_column_as_its_coercer_says(form, cells)
        assert valid > 1000


CSV_LIKE = parse_form_text(
    """
name = "csv"
[[fields]]
name = "u"
type = "integer"
[[fields]]
name = "i"
type = "integer"
min = -5
max = 100
[[fields]]
name = "b"
type = "boolean"
"""
)


_CSV_COMMON: dict[str, list[object]] = {
    "u": ["0", "7", "0012", "123456789012345678", "999999999999999999"],
    "i": ["0", "5", "100", "007"],
    "b": ["TRUE", "FALSE", "true", "Yes", "n", "1", "0", "F"],
}
_CSV_STRANGE: list[object] = [
    "101",
    "-6",
    " 5 ",
    "-3",
    "+4",
    "1,000",
    "12.0",
    "9223372036854775808",
    "1" * 5000,
    "",
    "1234567890123456789",
    "\u0661\u0662",
    "\u00b2",
    "maybe",
    "yes ",
    "TrUe",
    None,
    3.0,
    True,
    "n/a",
]


def _csv_batches() -> list[list[Row]]:
    """Batches of clean text columns, each with one strange cell in one column (where a
    fast path must see that its common case does not hold), then random mixes."""
    fields = CSV_LIKE.fields
    clean = [
        [_CSV_COMMON[f.name][n % len(_CSV_COMMON[f.name])] for n in range(300)] for f in fields
    ]
    batches = [clean]
    for column in range(len(fields)):
        for value in _CSV_STRANGE:
            columns = [cells[:] for cells in clean]
            columns[column][137] = value
            batches.append(columns)
    rng = random.Random(4)
    for odd in (0.002, 0.05):
        for _ in range(4):
            batches.append(
                [
                    [
                        rng.choice(_CSV_STRANGE)
                        if rng.random() < odd
                        else rng.choice(_CSV_COMMON[f.name])
                        for _ in range(300)
                    ]
                    for f in fields
                ]
            )
    return [
        [Row(n, cells) for n, cells in enumerate(zip(*columns, strict=True), start=2)]
        for columns in batches
    ]


def test_text_columns_as_a_csv_gives_them_match_the_coercers() -> None:
    """A CSV's cells are all text: digit columns and yes/no columns take their own fast
    paths, which must store and refuse exactly what the coercers do."""
    fields = CSV_LIKE.fields
    validator = Validator(CSV_LIKE, [f.name for f in fields])
    coercers = [build_coercer(f) for f in fields]
    for rows in _csv_batches():
        result = validator.validate(rows)
        valid = {r.number: r.data for r in result.valid}
        rejected = {r.number: [e.message for e in r.errors] for r in result.rejected}
        assert len(valid) + len(rejected) == len(rows)
        for row in rows:
            expected: dict[str, object] = {}
            failed: list[str] = []
            for f, fn, value in zip(fields, coercers, row.values, strict=True):
                try:
                    expected[f.name] = fn(value)
                except Invalid as exc:
                    failed.append(exc.message)
            if failed:
                assert rejected[row.number] == failed, row
            else:
                assert valid[row.number] == expected, row


def test_every_yes_no_spelling_the_column_knows_means_what_the_coercer_says() -> None:
    coerce_bool = build_coercer(CSV_LIKE.fields[2])
    assert len(_BOOL_TEXTS) >= 20
    for text, truth in _BOOL_TEXTS.items():
        assert coerce_bool(text) is truth, text


# --- messages in plain words ------------------------------------------------------------------

_REGEX = r"^(?:[A-Z]{2}\d+|x_y)$"
_REGEX_BITS = ("\\d", "[A-Z]", "(?:", "{2}", "^", "$")


def _pattern_field(ftype: str, extra: str = "") -> Field:
    text = f'name = "t"\n[[fields]]\nname = "f"\ntype = "{ftype}"\npattern = \'{_REGEX}\'\n'
    return parse_form_text(text + extra).fields[0]


def test_a_declared_message_replaces_the_default() -> None:
    declared = _pattern_field("string", 'message = "two capitals, then digits: AB12"\n')
    with pytest.raises(Invalid) as caught:
        build_coercer(declared)("ABCDE")
    assert caught.value.message == "two capitals, then digits: AB12"
    email = _pattern_field("email", 'message = "a company address"\n')
    with pytest.raises(Invalid) as caught:
        build_coercer(email)("ada@example.com")
    assert caught.value.message == "a company address"
    with pytest.raises(Invalid) as caught:
        build_coercer(_pattern_field("string"))("ABCDE")
    assert caught.value.message == "'ABCDE' is not in the expected format"
    stored = Form(name="t", fields=(declared,))
    assert parse_form_text(form_to_toml(stored)).fields[0] == declared  # forms show, edit
    assert Form.from_json(stored.to_json()).fields[0] == declared  # kept in the database
    with pytest.raises(FormError, match="'message' goes with 'pattern'"):
        parse_form_text('name = "t"\n[[fields]]\nname = "f"\nmessage = "no pattern"\n')
    with pytest.raises(FormError, match="'message' must be text"):
        _pattern_field("string", "message = 5\n")


def test_no_default_message_shows_a_regex() -> None:
    """Every type's refusals of a spread of bad cells, with every rule it allows set."""
    cells: list[object] = ["ABCDE", "", " ", "12.5x", "nul\x00", "31/02/2024", "maybe", -5.0]
    cells += [1e300, 2.5, True, date(1800, 1, 1), datetime(2024, 1, 1, 5), CellError("#N/A")]
    cells += [CellError(""), timedelta(hours=1), NumberText(5.0, "00005"), "x" * 300]
    messages = []
    for ftype, spec in FIELD_TYPE_SPECS.items():
        extra = "required = true\n"
        if "pattern" in spec.rules:
            extra += f"pattern = '{_REGEX}'\nmax_length = 20\nmin_length = 3\n"
        if "choices" in spec.rules:
            extra += 'choices = ["a(b)", "c"]\n'
        if "min" in spec.rules:
            extra += {"integer": "min = 1\nmax = 9\n", "decimal": "min = 0\nmax = 9\n"}.get(
                ftype, "min = 2020-01-01\nmax = 2030-01-01\n"
            )
        text = f'name = "t"\n[[fields]]\nname = "f"\ntype = "{ftype}"\n{extra}'
        coerce = build_coercer(parse_form_text(text).fields[0])
        for cell in cells:
            try:
                coerce(cell)
            except Invalid as exc:
                messages.append(exc.message)
    assert len(messages) > 100
    shown = [m for m in messages if any(bit in m for bit in _REGEX_BITS)]
    assert not shown, shown
