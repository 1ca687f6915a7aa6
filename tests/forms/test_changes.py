"""describe_losses: what a new version of a form loses against the stored one (no server)."""

from __future__ import annotations

import pytest

from importer.forms.changes import describe_losses
from importer.forms.definition import Form, parse_form_text

BASE = """
name = "orders"
key = ["order_id"]
[[fields]]
name = "order_id"
type = "integer"
required = true
min = 1
max = 1000
[[fields]]
name = "customer"
required = true
min_length = 2
max_length = 100
pattern = "^[A-Z]"
[[fields]]
name = "status"
type = "enum"
choices = ["open", "closed"]
[[fields]]
name = "placed"
type = "date"
formats = ["%d/%m/%Y"]
"""


def form(text: str = BASE) -> Form:
    return parse_form_text(text)


def changed(old: str, new: str, count: int = 1) -> Form:
    assert BASE.count(old) == count, old
    return form(BASE.replace(old, new))


@pytest.mark.parametrize(
    ("new", "losses"),
    [
        (lambda: form(), []),
        # adding and tightening loses nothing
        (lambda: form(BASE + '[[fields]]\nname = "note"\n'), []),
        (lambda: changed("min = 1\n", "min = 5\n"), []),
        (lambda: changed("max = 1000\n", "max = 10\n"), []),
        (lambda: changed("min_length = 2\n", "min_length = 3\n"), []),
        (lambda: changed("max_length = 100\n", "max_length = 50\n"), []),
        (lambda: changed('choices = ["open", "closed"]', 'choices = ["open"]'), []),
        (lambda: changed('name = "status"\n', 'name = "status"\nrequired = true\n'), []),
        # the key
        (lambda: changed('key = ["order_id"]\n', ""), ["drop the key order_id"]),
        (
            lambda: changed('key = ["order_id"]\n', 'key = ["order_id", "customer"]\n'),
            ["change the key from order_id to order_id, customer"],
        ),
        # fields and requirements
        (
            lambda: changed(
                '[[fields]]\nname = "placed"\ntype = "date"\nformats = ["%d/%m/%Y"]\n', ""
            ),
            ["remove field 'placed'"],
        ),
        (
            lambda: changed("required = true\nmin_length", "min_length"),
            ["no longer require 'customer'"],
        ),
        # bounds
        (lambda: changed("min = 1\n", "min = 0\n"), ["lower the min of 'order_id' from 1 to 0"]),
        (lambda: changed("min = 1\n", ""), ["drop the min of 'order_id' (was 1)"]),
        (
            lambda: changed("max = 1000\n", "max = 1001\n"),
            ["raise the max of 'order_id' from 1000 to 1001"],
        ),
        (lambda: changed("max = 1000\n", ""), ["drop the max of 'order_id' (was 1000)"]),
        (
            lambda: changed("min_length = 2\n", "min_length = 1\n"),
            ["lower the min_length of 'customer' from 2 to 1"],
        ),
        (lambda: changed("min_length = 2\n", ""), ["drop the min_length of 'customer' (was 2)"]),
        (
            lambda: changed("max_length = 100\n", "max_length = 200\n"),
            ["raise the max_length of 'customer' from 100 to 200"],
        ),
        (
            lambda: changed("max_length = 100\n", ""),
            ["drop the max_length of 'customer' (was 100)"],
        ),
        # pattern, choices, formats
        (lambda: changed('pattern = "^[A-Z]"\n', ""), ["drop the pattern of 'customer'"]),
        (
            lambda: changed('pattern = "^[A-Z]"\n', 'pattern = "^[A-Za-z]"\n'),
            ["change the pattern of 'customer'"],
        ),
        (
            lambda: changed('choices = ["open", "closed"]', 'choices = ["open", "closed", "void"]'),
            ["allow more choices for 'status': 'void'"],
        ),
        (
            lambda: changed('choices = ["open", "closed"]', 'choices = ["OPEN", "Closed"]'),
            [],  # choices match ignoring case: the same two
        ),
        (
            lambda: changed('type = "enum"\nchoices = ["open", "closed"]\n', ""),
            ["drop the choices of 'status'"],
        ),
        (
            lambda: changed('formats = ["%d/%m/%Y"]', 'formats = ["%d/%m/%Y", "%m/%d/%Y"]'),
            ["accept more date formats for 'placed': '%m/%d/%Y'"],
        ),
        (lambda: changed('formats = ["%d/%m/%Y"]', "formats = []"), []),
        # the table
        (
            lambda: changed('key = ["order_id"]\n', 'key = ["order_id"]\ntable = "sales.orders"\n'),
            ["move its rows' table from forms.orders to sales.orders"],
        ),
    ],
)
def test_each_loss_is_named_and_nothing_else(new: object, losses: list[str]) -> None:
    assert callable(new)
    assert describe_losses(form(), new()) == losses


def test_a_form_inferred_over_a_curated_one_loses_all_of_it_in_order() -> None:
    inferred = form('name = "orders"\n[[fields]]\nname = "order_id"\ntype = "integer"\n')
    assert describe_losses(form(), inferred) == [
        "drop the key order_id",
        "no longer require 'order_id'",
        "drop the min of 'order_id' (was 1)",
        "drop the max of 'order_id' (was 1000)",
        "remove field 'customer'",
        "remove field 'status'",
        "remove field 'placed'",
    ]


def test_a_bound_of_another_type_counts_as_changed() -> None:
    as_date = changed(
        'type = "integer"\nrequired = true\nmin = 1\nmax = 1000\n',
        'type = "date"\nrequired = true\nmin = 2020-01-01\n',
    )
    assert describe_losses(form(), as_date) == [
        "change the min of 'order_id' from 1 to 2020-01-01",
        "drop the max of 'order_id' (was 1000)",
    ]
