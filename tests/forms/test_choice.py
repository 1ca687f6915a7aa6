"""Choosing the form without --form: a header no form fits gets the closest form's own
diagnosis when one form clearly is the closest."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.database import Connection
from importer.errors import InputError
from importer.forms.choice import choose_form
from importer.forms.definition import parse_form_text
from tests.conftest import Cli
from tests.support.jobs import ORDERS_FORM, PEOPLE_FORM, add_form, counts, write_book


def test_a_misspelled_required_header_gets_the_closest_forms_diagnosis(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    add_form(conn, PEOPLE_FORM)
    book = tmp_path / "misspelled.xlsx"
    write_book(book, [[1, "Ann", 3]], header=["Order ID", "Custmer", "Amount"])
    result = cli("submit", str(book))
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1
    assert line.startswith(
        "error: no form fits this header; the closest is 'orders' (2 of 3 columns matched):"
        " missing required column 'Customer' for form 'orders' (column 'Custmer' looks like"
        " 'Customer': did you mean --map 'Custmer=customer'?)"
    ), line
    assert counts(conn)["jobs"] == 0

    fixed = cli("submit", str(book), "--map", "Custmer=customer", "--quiet")
    assert fixed.exit_code == 0, fixed.stderr


def test_a_map_to_a_field_that_does_not_exist_names_the_forms_fields(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "misspelled.xlsx"
    write_book(book, [[1, "Ann", 3]], header=["Order ID", "Custmer", "Amount"])
    result = cli("submit", str(book), "--map", "Custmer=cust")
    assert result.exit_code == 2
    assert (
        "--map Custmer=cust: form 'orders' has no field 'cust'"
        " (its fields: amount, customer, order_id)" in result.stderr
    ), result.stderr


def test_no_clear_closest_keeps_the_list_of_candidates() -> None:
    # Both forms match one column of two: neither stands out, so the list is what helps.
    other = ORDERS_FORM.replace('name = "orders"', 'name = "orders_b"', 1)
    with pytest.raises(InputError) as refused:
        choose_form(
            [(parse_form_text(ORDERS_FORM), 1), (parse_form_text(other), 1)],
            ["Order ID", "Custmer"],
        )
    text = str(refused.value)
    assert text.startswith("no form fits this header (each lacks a required column)")
    assert "orders (1 of 3), orders_b (1 of 3)" in text


def test_a_form_matching_under_half_its_fields_is_not_called_the_closest() -> None:
    with pytest.raises(InputError) as refused:
        choose_form([(parse_form_text(ORDERS_FORM), 1)], ["Order ID", "Notes"])
    assert "the closest" not in str(refused.value)
    assert "(columns matched: orders (1 of 3))" in str(refused.value)
