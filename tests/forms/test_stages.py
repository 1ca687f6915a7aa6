"""The business stages of a batch (forms/stages.py) through Validator.validate on rows built
by hand: cleaning, defaults, computed fields, row rules, today(), uniqueness within the file
(across batches and a resume) and the hook. Lookups need PostgreSQL: they are tested in
tests/running/test_business_rules.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from importer.errors import RowError as HookRowError
from importer.excel.values import Row
from importer.forms.definition import Form, parse_form_text
from importer.forms.stages import Hook
from importer.forms.validation import BatchResult, Validator

Problems = list[tuple[str | None, str | None, str]]


def valid(result: BatchResult) -> dict[int, dict[str, Any]]:
    return {row.number: row.data for row in result.valid.rows()}


def rejected(result: BatchResult) -> dict[int, Problems]:
    return {r.number: [(e.column, e.raw, e.message) for e in r.errors] for r in result.rejected}


def written(result: BatchResult) -> dict[int, list[str | None]]:
    return {r.number: r.values for r in result.rejected}


def rows(*cells: Sequence[object], start: int = 2) -> list[Row]:
    return [Row(number, tuple(values)) for number, values in enumerate(cells, start=start)]


def run(
    form: Form,
    header: list[str],
    *cells: Sequence[object],
    hook: Hook | None = None,
    today: date | None = None,
) -> BatchResult:
    return Validator(form, header, hook=hook, today=today).validate(rows(*cells))


# --- cleaning: trim, missing, replace, case ---------------------------------------------------

TEXTS = parse_form_text(
    """
name = "texts"
[[fields]]
name = "name"
header = "Name"
required = true
[[fields]]
name = "email"
header = "Email"
type = "email"
[[fields]]
name = "status"
type = "enum"
choices = ["new", "paid"]
[[fields]]
name = "code"
trim = false
"""
)


def test_text_fields_are_trimmed_by_default() -> None:
    result = run(
        TEXTS,
        ["Name", "Email", "status", "code"],
        ["  Ada Lovelace \t", " ada@example.com ", " paid ", "  A1 "],
    )
    assert rejected(result) == {}
    assert valid(result) == {
        2: {"name": "Ada Lovelace", "email": "ada@example.com", "status": "paid", "code": "  A1 "}
    }


def test_a_cell_of_spaces_is_empty_once_trimmed() -> None:
    result = run(TEXTS, ["Name", "Email", "status", "code"], ["   ", "  ", None, None])
    assert rejected(result) == {2: [("Name", "   ", "a value is required but the cell is empty")]}


def test_a_fields_trim_overrides_the_forms() -> None:
    form = parse_form_text(
        """
name = "untrimmed"
trim = false
[[fields]]
name = "kept"
[[fields]]
name = "trimmed"
trim = true
"""
    )
    result = run(form, ["kept", "trimmed"], [" a ", " b "])
    assert valid(result) == {2: {"kept": " a ", "trimmed": "b"}}


MISSING = parse_form_text(
    """
name = "missing"
missing = ["N/A", "-"]
[[fields]]
name = "name"
required = true
[[fields]]
name = "note"
[[fields]]
name = "qty"
type = "integer"
[[fields]]
name = "day"
type = "date"
[[fields]]
name = "literal"
missing = []
[[fields]]
name = "own"
missing = ["?"]
"""
)
MISSING_HEADER = ["name", "note", "qty", "day", "literal", "own"]


def test_the_forms_missing_texts_are_empty_cells_in_every_type() -> None:
    result = run(
        MISSING,
        MISSING_HEADER,
        ["Ada", "N/A", "-", " N/A ", "x", "y"],
        ["N/A", "a", 1, None, "", ""],
    )
    assert valid(result) == {
        2: {"name": "Ada", "note": None, "qty": None, "day": None, "literal": "x", "own": "y"}
    }
    # A required cell that says "N/A" is empty: it is told what it held and which setting
    # empties it, and shown as written.
    said = """'N/A' counts as empty here (the form's missing = ["N/A", "-"])"""
    assert rejected(result) == {3: [("name", "N/A", f"{said} and a value is required")]}


def test_a_required_cell_a_fields_own_missing_text_empties_names_that_field() -> None:
    form = parse_form_text(
        """
name = "own"
missing = ["N/A"]
[[fields]]
name = "qty"
type = "integer"
required = true
missing = ["?", "none", "nil", "null", "na", "tbd", "unknown"]
"""
    )
    result = run(form, ["qty"], [" tbd "], ["   "], ["N/A"])
    own = """field qty's missing = ["?", "none", "nil", "null", "na", "tbd", ...]"""
    assert rejected(result) == {
        2: [("qty", " tbd ", f"'tbd' counts as empty here ({own}) and a value is required")],
        3: [("qty", "   ", "a value is required but the cell is empty")],  # spaces only
        4: [("qty", "N/A", "'N/A' is not a whole number")],  # the form's texts are replaced
    }


def test_a_fields_missing_texts_replace_the_forms() -> None:
    result = run(
        MISSING,
        MISSING_HEADER,
        ["Ada", None, None, None, "N/A", "?"],
        ["Bo", *[None] * 3, "-", "N/A"],
    )
    assert rejected(result) == {}
    assert valid(result)[2]["literal"] == "N/A"
    assert valid(result)[2]["own"] is None
    assert valid(result)[3]["literal"] == "-"
    assert valid(result)[3]["own"] == "N/A"


def test_replace_ignores_case_then_case_is_applied() -> None:
    form = parse_form_text(
        """
name = "countries"
[[fields]]
name = "country"
replace = { USA = "United States", "U.S." = "United States" }
case = "upper"
[[fields]]
name = "city"
case = "title"
[[fields]]
name = "code"
case = "lower"
"""
    )
    result = run(
        form,
        ["country", "city", "code"],
        [" usa ", "new york", "AB-12"],
        ["U.s.", "LOS ANGELES", "x"],
        ["Canada", "paris", None],
        ["United States", "rome", "Zz"],
    )
    assert rejected(result) == {}
    assert valid(result) == {
        2: {"country": "UNITED STATES", "city": "New York", "code": "ab-12"},
        3: {"country": "UNITED STATES", "city": "Los Angeles", "code": "x"},
        4: {"country": "CANADA", "city": "Paris", "code": None},
        5: {"country": "UNITED STATES", "city": "Rome", "code": "zz"},
    }


def test_a_rejected_row_shows_what_the_sender_wrote_not_the_cleaned_text() -> None:
    form = parse_form_text(
        """
name = "written"
missing = ["N/A"]
[[fields]]
name = "country"
replace = { usa = "US" }
case = "lower"
[[fields]]
name = "qty"
type = "integer"
required = true
"""
    )
    result = run(form, ["country", "qty"], ["  usa ", "N/A"], [" USA", " x "])
    assert written(result) == {2: ["  usa ", "N/A"], 3: [" USA", " x "]}
    assert rejected(result) == {
        2: [
            (
                "qty",
                "N/A",
                """'N/A' counts as empty here (the form's missing = ["N/A"]) """
                "and a value is required",
            )
        ],
        3: [("qty", " x ", "'x' is not a whole number")],
    }
    assert [r.cells for r in result.rejected] == [("  usa ", "N/A"), (" USA", " x ")]


# --- defaults ---------------------------------------------------------------------------------

DEFAULTS = parse_form_text(
    """
name = "defaults"
[[fields]]
name = "name"
required = true
[[fields]]
name = "country"
default = "US"
[[fields]]
name = "qty"
type = "integer"
default = 1
[[fields]]
name = "price"
type = "decimal"
default = 0.5
[[fields]]
name = "day"
type = "date"
default = 2024-01-31
[[fields]]
name = "gift"
type = "boolean"
default = false
"""
)
DEFAULTED = {"country": "US", "qty": 1, "price": 0.5, "day": "2024-01-31", "gift": False}


def test_a_default_fills_an_empty_optional_cell_only() -> None:
    header = ["name", "country", "qty", "price", "day", "gift"]
    result = run(
        DEFAULTS,
        header,
        ["Ada", None, None, None, None, None],
        ["Bo", "  ", None, None, None, None],  # a text cell of spaces is empty once trimmed
        ["Cy", "FR", 3, 2.25, "2024-05-06", True],
    )
    assert rejected(result) == {}
    assert valid(result) == {
        2: {"name": "Ada", **DEFAULTED},
        3: {"name": "Bo", **DEFAULTED},
        4: {
            "name": "Cy",
            "country": "FR",
            "qty": 3,
            "price": 2.25,
            "day": "2024-05-06",
            "gift": True,
        },
    }


def test_a_default_fills_an_absent_optional_column() -> None:
    result = run(DEFAULTS, ["name"], ["Ada"], ["Bo"])
    assert valid(result) == {2: {"name": "Ada", **DEFAULTED}, 3: {"name": "Bo", **DEFAULTED}}


def test_a_default_does_not_fill_a_required_cell() -> None:
    result = run(DEFAULTS, ["name", "country"], [None, None])
    assert rejected(result) == {2: [("name", None, "a value is required but the cell is empty")]}


def test_a_default_fills_a_number_or_date_cell_of_spaces() -> None:
    result = run(DEFAULTS, ["name", "qty", "day"], ["Ada", "   ", " "])
    assert rejected(result) == {}
    assert valid(result)[2]["qty"] == 1
    assert valid(result)[2]["day"] == "2024-01-31"


# --- computed fields --------------------------------------------------------------------------

COMPUTED = parse_form_text(
    """
name = "computed"
[[fields]]
name = "qty"
type = "integer"
[[fields]]
name = "price"
type = "decimal"
[[fields]]
name = "total"
type = "decimal"
compute = "qty * price"
[[fields]]
name = "halves"
header = "Half boxes"
type = "integer"
compute = "qty / 2"
[[fields]]
name = "doubled"
type = "decimal"
compute = "total * 2"
"""
)


def test_a_computed_decimal_is_exact() -> None:
    result = run(COMPUTED, ["qty", "price"], [4, 0.1], [2, "0.7"], [10, 0.3])
    assert rejected(result) == {}
    assert valid(result) == {
        2: {"qty": 4, "price": 0.1, "total": 0.4, "halves": 2, "doubled": 0.8},
        3: {"qty": 2, "price": 0.7, "total": 1.4, "halves": 1, "doubled": 2.8},
        4: {"qty": 10, "price": 0.3, "total": 3.0, "halves": 5, "doubled": 6.0},
    }


def test_three_times_a_tenth_is_three_tenths() -> None:
    assert 3 * 0.1 != 0.3  # what floats would store
    result = run(COMPUTED, ["qty", "price"], [6, 0.1])
    assert valid(result)[2]["total"] == 0.6
    form = parse_form_text(
        'name = "x"\n[[fields]]\nname = "price"\ntype = "decimal"\n'
        '[[fields]]\nname = "total"\ntype = "decimal"\ncompute = "3 * price"\n'
    )
    assert valid(run(form, ["price"], [0.1]))[2]["total"] == 0.3


def test_a_computed_integer_that_is_not_whole_is_an_error_on_that_field() -> None:
    result = run(COMPUTED, ["qty", "price"], [3, 1], [4, 1])
    assert rejected(result) == {2: [("Half boxes", None, "'1.5' is not a whole number")]}
    assert written(result) == {2: ["3", "1"]}
    assert valid(result) == {3: {"qty": 4, "price": 1, "total": 4, "halves": 2, "doubled": 8}}


def test_a_computed_field_of_an_invalid_or_empty_cell_is_empty_not_an_error() -> None:
    result = run(COMPUTED, ["qty", "price"], ["many", 0.5], [None, 0.5], [4, None])
    # The row is refused for its cell alone: nothing is said of the fields computed from it.
    assert rejected(result) == {2: [("qty", "many", "'many' is not a whole number")]}
    assert valid(result) == {
        3: {"qty": None, "price": 0.5, "total": None, "halves": None, "doubled": None},
        4: {"qty": 4, "price": None, "total": None, "halves": 2, "doubled": None},
    }


def test_a_computed_field_may_come_from_a_default() -> None:
    form = parse_form_text(
        'name = "x"\n[[fields]]\nname = "qty"\ntype = "integer"\ndefault = 2\n'
        '[[fields]]\nname = "price"\ntype = "decimal"\n'
        '[[fields]]\nname = "total"\ntype = "decimal"\ncompute = "qty * price"\n'
    )
    assert valid(run(form, ["price"], [1.25]))[2]["total"] == 2.5
    assert valid(run(form, ["qty", "price"], [None, 1.25]))[2]["total"] == 2.5


def test_today_is_the_day_given() -> None:
    form = parse_form_text(
        """
name = "dated"
[[fields]]
name = "day"
type = "date"
[[fields]]
name = "checked_on"
type = "date"
compute = "today()"
[[rules]]
check = "day <= today()"
message = "the day cannot be in the future"
"""
    )
    today = date(2001, 2, 3)
    result = run(form, ["day"], ["2001-02-03"], [date(2001, 2, 4)], ["2001-02-02"], today=today)
    assert valid(result) == {
        2: {"day": "2001-02-03", "checked_on": "2001-02-03"},
        4: {"day": "2001-02-02", "checked_on": "2001-02-03"},
    }
    assert rejected(result) == {3: [("day", "2001-02-04", "the day cannot be in the future")]}


# --- row rules --------------------------------------------------------------------------------

RULES = parse_form_text(
    """
name = "rules"
missing = ["N/A"]
[[fields]]
name = "qty"
header = "Quantity"
type = "integer"
[[fields]]
name = "price"
header = "Price"
type = "decimal"
[[fields]]
name = "country"
header = "Country"
[[fields]]
name = "zip"
header = "Zip"
[[rules]]
name = "worth it"
check = "qty * price >= 10"
columns = ["qty", "price"]
message = "an order is worth 10 or more"
[[rules]]
when = "country == 'US'"
require = ["zip"]
"""
)
RULES_HEADER = ["Quantity", "Price", "Country", "Zip"]
US_ZIP = "zip must be filled when country == 'US'"


def test_a_broken_check_is_an_error_on_each_of_its_columns() -> None:
    result = run(RULES, RULES_HEADER, [2, 4.5, None, None], [2, 5, None, None])
    assert rejected(result) == {
        2: [
            ("Quantity", "2", "an order is worth 10 or more"),
            ("Price", "4.5", "an order is worth 10 or more"),
        ]
    }
    assert list(valid(result)) == [3]


def test_a_check_is_not_decided_on_an_empty_or_invalid_operand() -> None:
    result = run(
        RULES, RULES_HEADER, [None, 1, None, None], [1, "N/A", None, None], [1, "cheap", None, None]
    )
    assert list(valid(result)) == [2, 3]
    assert rejected(result) == {4: [("Price", "cheap", "'cheap' is not a number")]}


def test_when_require_fires_only_when_true_and_the_cell_is_empty() -> None:
    result = run(
        RULES,
        RULES_HEADER,
        [1, 10, "US", None],  # 2: fires
        [1, 10, "US", "N/A"],  # 3: "N/A" is missing: empty
        [1, 10, "US", "   "],  # 4: spaces are empty once trimmed
        [1, 10, "US", "02134"],  # 5: filled
        [1, 10, "FR", None],  # 6: not the condition
        [1, 10, None, None],  # 7: undecided: no rule applies
    )
    assert rejected(result) == {
        2: [("Zip", None, US_ZIP), ("Country", "US", US_ZIP)],
        3: [("Zip", "N/A", US_ZIP), ("Country", "US", US_ZIP)],
        4: [("Zip", "   ", US_ZIP), ("Country", "US", US_ZIP)],
    }
    assert list(valid(result)) == [5, 6, 7]


def test_a_rule_names_a_column_absent_from_the_sheet_by_its_header() -> None:
    result = run(RULES, ["Quantity", "Price", "Country"], [1, 10, "US"])
    assert rejected(result) == {2: [("Zip", None, US_ZIP), ("Country", "US", US_ZIP)]}


def test_every_problem_of_a_row_is_told() -> None:
    result = run(RULES, RULES_HEADER, [1, 1, "US", None])
    assert [message for _, _, message in rejected(result)[2]] == [
        "an order is worth 10 or more",
        "an order is worth 10 or more",
        US_ZIP,
        US_ZIP,
    ]


# --- uniqueness within the file ---------------------------------------------------------------

UNIQUE = parse_form_text(
    """
name = "unique"
unique = [["customer", "day"]]
[[fields]]
name = "email"
header = "Email"
type = "email"
unique = true
[[fields]]
name = "customer"
header = "Customer"
[[fields]]
name = "day"
header = "Day"
type = "date"
[[fields]]
name = "qty"
header = "Qty"
type = "integer"
"""
)
UNIQUE_HEADER = ["Email", "Customer", "Day", "Qty"]


def dup(email: str, row: int) -> str:
    return f"duplicate email {email!r}: already in row {row}"


def test_a_repeated_value_is_refused_naming_the_first_row() -> None:
    result = run(
        UNIQUE,
        UNIQUE_HEADER,
        ["a@b.com", None, None, 1],
        ["c@d.com", None, None, 1],
        [" a@b.com ", None, None, 1],  # the same once trimmed
        ["a@b.com", None, None, 1],
        [None, None, None, 1],  # empty cells take nothing
        [None, None, None, 1],
    )
    assert rejected(result) == {
        4: [("Email", " a@b.com ", dup("a@b.com", 2))],
        5: [("Email", "a@b.com", dup("a@b.com", 2))],
    }
    assert list(valid(result)) == [2, 3, 6, 7]


def test_a_compound_set_is_unique_together() -> None:
    result = run(
        UNIQUE,
        UNIQUE_HEADER,
        [None, "acme", "2024-01-02", 1],
        [None, "acme", "2024-01-03", 1],
        [None, "other", "2024-01-02", 1],
        [None, "acme", date(2024, 1, 2), 1],
        [None, "acme", None, 1],
        [None, "acme", None, 1],
    )
    assert rejected(result) == {
        5: [
            (
                "Customer",
                "acme",
                "duplicate customer and day ('acme', '2024-01-02'): already in row 2",
            )
        ]
    }
    assert list(valid(result)) == [2, 3, 4, 6, 7]


def test_uniqueness_holds_across_batches() -> None:
    validator = Validator(UNIQUE, UNIQUE_HEADER)
    first = validator.validate(rows(["a@b.com", "acme", "2024-01-02", 1], start=2))
    assert rejected(first) == {}
    second = validator.validate(
        rows(["a@b.com", "zed", None, 1], [None, "acme", "2024-01-02", 1], start=1002)
    )
    assert rejected(second) == {
        1002: [("Email", "a@b.com", dup("a@b.com", 2))],
        1003: [
            (
                "Customer",
                "acme",
                "duplicate customer and day ('acme', '2024-01-02'): already in row 2",
            )
        ],
    }


def test_a_row_refused_for_another_reason_claims_nothing_but_is_told_of_its_repeat() -> None:
    result = run(
        UNIQUE,
        UNIQUE_HEADER,
        ["a@b.com", None, None, "x"],  # 2: refused for its quantity: takes nothing
        ["a@b.com", None, None, 1],  # 3: so this one is the first
        ["a@b.com", None, None, "y"],  # 4: refused, and told of its repeat too
        ["a@b.com", None, None, 1],  # 5: a repeat of row 3
    )
    assert rejected(result) == {
        2: [("Qty", "x", "'x' is not a whole number")],
        4: [("Qty", "y", "'y' is not a whole number"), ("Email", "a@b.com", dup("a@b.com", 3))],
        5: [("Email", "a@b.com", dup("a@b.com", 3))],
    }
    assert [(name, row) for name, _, row in result.claims] == [("email", 3)]


def test_a_row_repeating_one_set_claims_none_of_the_others() -> None:
    result = run(
        UNIQUE,
        UNIQUE_HEADER,
        ["a@b.com", "acme", "2024-01-02", 1],
        ["a@b.com", "acme", "2024-01-03", 1],  # refused for its email: takes no (acme, 01-03)
        ["c@d.com", "acme", "2024-01-03", 1],
    )
    assert list(rejected(result)) == [3]
    assert list(valid(result)) == [2, 4]


def test_the_batch_says_what_its_valid_rows_claimed() -> None:
    validator = Validator(UNIQUE, UNIQUE_HEADER)
    result = validator.validate(
        rows(["a@b.com", "acme", "2024-01-02", 1], ["x@y.com", None, None, 1])
    )
    assert [(name, row) for name, _, row in result.claims] == [
        ("email", 2),
        ("customer,day", 2),
        ("email", 3),
    ]
    assert validator.claims is not None
    assert sorted(
        (name, row) for name, taken in validator.claims.taken.items() for row in taken.values()
    ) == [("customer,day", 2), ("email", 2), ("email", 3)]
    assert Validator(TEXTS, ["Name"]).claims is None


def test_seeded_claims_decide_as_the_run_that_made_them() -> None:
    batch_one = rows(["a@b.com", "acme", "2024-01-02", 1], ["c@d.com", None, None, "x"], start=2)
    batch_two = rows(
        ["a@b.com", None, None, 1],
        ["c@d.com", "acme", "2024-01-02", 1],  # refused for its pair: takes no email
        ["c@d.com", None, None, 1],
        ["c@d.com", None, None, 1],
        start=4,
    )
    uninterrupted = Validator(UNIQUE, UNIQUE_HEADER)
    stored = uninterrupted.validate(batch_one).claims
    expected = uninterrupted.validate(batch_two)
    assert rejected(expected) == {
        4: [("Email", "a@b.com", dup("a@b.com", 2))],
        5: [
            (
                "Customer",
                "acme",
                "duplicate customer and day ('acme', '2024-01-02'): already in row 2",
            )
        ],
        7: [("Email", "c@d.com", dup("c@d.com", 6))],
    }
    assert list(valid(expected)) == [6]
    # A resumed run: a fresh Validator given the committed batch's claims.
    resumed = Validator(UNIQUE, UNIQUE_HEADER)
    assert resumed.claims is not None
    resumed.claims.seed(list(stored))
    again = resumed.validate(batch_two)
    assert rejected(again) == rejected(expected)
    assert valid(again) == valid(expected)
    assert again.claims == expected.claims
    # Without them it would decide otherwise.
    assert rejected(Validator(UNIQUE, UNIQUE_HEADER).validate(batch_two)) != rejected(expected)


def test_a_set_named_twice_is_one_set() -> None:
    form = parse_form_text(
        'name = "x"\nunique = ["email"]\n[[fields]]\nname = "email"\ntype = "email"\n'
        "unique = true\n"
    )
    result = run(form, ["email"], ["a@b.com"], ["a@b.com"])
    assert rejected(result) == {3: [("email", "a@b.com", dup("a@b.com", 2))]}
    assert Counter((name, key) for name, key, _ in result.claims) == {("email", '["a@b.com"]'): 1}


# --- the hook ---------------------------------------------------------------------------------

HOOKED = parse_form_text(
    """
name = "hooked"
hook = "tests.hooks:check_row"
[[fields]]
name = "email"
header = "E-mail"
type = "email"
unique = true
[[fields]]
name = "qty"
header = "Qty"
type = "integer"
required = true
[[fields]]
name = "note"
header = "Note"
"""
)
HOOKED_HEADER = ["E-mail", "Qty", "Note"]


def check_row(row: dict[str, Any]) -> Mapping[str, Any] | None:
    """Lower-cases the email; refuses a quantity of 13 (on its email cell), fails on 0,
    doubles a quantity over 100 as text, and gives back a quantity no integer field takes
    for 7."""
    qty = row["qty"]
    if qty == 13:
        raise HookRowError("email", "unlucky orders need another email")
    if qty == 0:
        raise ValueError("nothing ordered")
    if qty == 7:
        return {"qty": "seven"}
    if qty == 99:
        raise HookRowError(None, "the whole row is wrong")
    out = dict(row)
    if isinstance(row["email"], str):
        out["email"] = row["email"].lower()
    if qty > 100:
        out["qty"] = str(qty * 2)
    return out


def test_a_hook_changes_what_is_stored() -> None:
    result = run(
        HOOKED, HOOKED_HEADER, ["Ada@Example.COM", 1, "a"], [None, 101, None], hook=check_row
    )
    assert rejected(result) == {}
    assert valid(result) == {
        2: {"email": "ada@example.com", "qty": 1, "note": "a"},
        3: {"email": None, "qty": 202, "note": None},
    }


def test_a_hook_refuses_a_row_on_a_column_or_as_a_whole() -> None:
    result = run(
        HOOKED,
        HOOKED_HEADER,
        ["a@b.com", 13, None],
        ["c@d.com", 99, None],
        ["e@f.com", 0, None],
        ["g@h.com", 7, None],
        ["i@j.com", 2, None],
        hook=check_row,
    )
    assert rejected(result) == {
        2: [("E-mail", "a@b.com", "unlucky orders need another email")],
        3: [(None, None, "the whole row is wrong")],
        4: [(None, None, "hook: ValueError: nothing ordered")],
        5: [("Qty", "7", "hook: 'seven' is not a whole number")],
    }
    assert list(valid(result)) == [6]


def test_a_hook_sees_only_rows_valid_so_far_and_runs_before_uniqueness() -> None:
    seen: list[dict[str, Any]] = []

    def hook(row: dict[str, Any]) -> Mapping[str, Any] | None:
        seen.append(dict(row))
        return check_row(row)

    result = run(
        HOOKED,
        HOOKED_HEADER,
        ["A@B.com", 1, None],
        ["a@b.com", None, None],  # refused before the hook: required
        ["a@B.COM", 2, " n "],  # the same email once the hook lower-cases it
        hook=hook,
    )
    assert seen == [
        {"email": "A@B.com", "qty": 1, "note": None},
        {"email": "a@B.COM", "qty": 2, "note": "n"},
    ]
    assert rejected(result) == {
        # Told of its repeat as well, though the hook never saw it.
        3: [
            ("Qty", None, "a value is required but the cell is empty"),
            ("E-mail", "a@b.com", dup("a@b.com", 2)),
        ],
        4: [("E-mail", "a@B.COM", dup("a@b.com", 2))],
    }
    assert valid(result) == {2: {"email": "a@b.com", "qty": 1, "note": None}}


def test_a_hook_returning_nothing_changes_nothing() -> None:
    result = run(HOOKED, HOOKED_HEADER, ["A@B.com", 1, " x "], hook=lambda row: None)
    assert valid(result) == {2: {"email": "A@B.com", "qty": 1, "note": "x"}}
