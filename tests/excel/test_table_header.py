"""The header a person would pick among a sheet's first rows (excel/table_header.py), on
the leading rows as the engines keep them."""

from __future__ import annotations

import datetime as dt

from importer.excel.layout import Leading
from importer.excel.table_header import cell_kind, guess_header

DAY = dt.date(2026, 11, 2)


def rows(*lines: tuple[object, ...], first: int = 1) -> Leading:
    """Leading rows numbered from ``first``; a line () is a blank row (left out)."""
    return [(first + n, line) for n, line in enumerate(lines) if line]


def people(count: int = 8) -> list[tuple[object, ...]]:
    return [(f"Person {n}", "actor", 40 + n, n % 2 == 0, DAY) for n in range(count)]


def found(leading: Leading) -> tuple[int, int] | None:
    guess = guess_header(leading)
    return None if guess is None else (guess.row, guess.row + guess.rows - 1)


def test_a_plain_table_has_its_header_on_the_first_row() -> None:
    header = ("Name", "Profession", "Age", "Has kids", "Born")
    assert found(rows(header, *people())) == (1, 1)


def test_prose_split_across_cells_above_the_header_and_notes_below_are_not_it() -> None:
    leading = rows(
        ("Lots of people",),
        ("simply cannot resist writing", None, None, None, "some notes"),
        ("at", "the", "top", None, "of their spreadsheets"),
        ("or", "merging", None, None, "cells"),
        ("Name", "Profession", "Age", "Has kids", "Born"),
        *people(10),
        ("Some", None, None, None, None),
        (None, "also like to write stuff", None, None, None),
        (None, None, "at the", "bottom,", None),
    )
    assert found(leading) == (5, 5)


def test_label_value_pairs_are_not_a_header() -> None:
    leading = rows(
        ("PROGRAM/CHANNEL:", "Rewards+", "LETTERSHOP:", "FGS"),
        ("DROP DATE:", "2024-03-01", "QTY:", "12000"),
        (),
        ("Customer ID", "Name", "Segment", "Spend"),
        *[(1001 + n, "Ann", "gold", 12.5 * n) for n in range(10)],
    )
    assert found(leading) == (4, 4)


def test_a_pivot_tables_page_filter_is_not_a_header() -> None:
    leading = rows(
        ("Country", "(All)"),
        (),
        ("Region", "Q1", "Q2", "Q3"),
        *[(region, 1.0, 2.0, 3.0) for region in ("North", "South", "East")],
        ("Grand Total", 3.0, 6.0, 9.0),
    )
    assert found(leading) == (3, 3)


def test_column_letters_above_the_names_are_not_the_header() -> None:
    leading = rows(
        tuple("ABCDE"),
        ("Order ID", "Customer", "Region", "Qty", "Paid"),
        *[(5001 + n, "Ann", "North", n, n % 2 == 0) for n in range(10)],
    )
    assert found(leading) == (2, 2)


def test_letters_with_no_names_under_them_are_the_header() -> None:
    leading = rows(tuple("ABC"), ("stuff", "more stuff"), ("things", "more", "even more"))
    assert found(leading) == (1, 1)


def test_the_larger_table_below_a_small_one_is_the_table() -> None:
    leading = rows(
        ("Customer", "Region", "Amount", "Filter"),
        ("*", "North", ">= 10", "open orders"),
        ("*", "South", ">= 10", "open orders"),
        (),
        ("Customer", "Region", "Amount"),
        *[("Ann", "North", 10.0 + n) for n in range(12)],
    )
    assert found(leading) == (5, 5)


def test_a_group_row_over_the_names_is_part_of_the_header() -> None:
    leading = rows(
        ("Order ID", "Customer", "Q1", None, "Q2", None),
        (None, None, "Units", "Amount", "Units", "Amount"),
        *[(7001 + n, "Ann", n, 4.5 * n, n + 2, 3.25 * n) for n in range(10)],
    )
    assert found(leading) == (1, 2)


def test_group_titles_written_over_each_column_and_a_blank_row_under_the_header() -> None:
    leading = rows(
        ("Title of the report",),
        (),
        (None, "ISO", "Country", "National", "National", "Region 1", "Region 1"),
        (None, None, None, "Estimate", "Sample", "Estimate", "Sample"),
        (),
        *[(n, "AFG", "Afghanistan", 3.5 + n, 900.0 + n, 2.5, 100.0) for n in range(6)],
    )
    assert found(leading) == (3, 4)


def test_names_over_their_units() -> None:
    leading = rows(
        ("name", "species", "death", "weight"),
        ("(at birth)", "(office supply type)", "(date is approximate)", "(in grams)"),
        ("Clippy", "paperclip", DAY, 0.9),
    )
    assert found(leading) == (1, 2)


def test_a_title_merged_over_the_whole_table_is_not_a_group_row() -> None:
    leading = rows(
        ("ACME Corp - Orders export", None, None),
        ("Order ID", "Customer", "Qty"),
        *[(n, "Ann", n) for n in range(6)],
    )
    assert found(leading) == (2, 2)


def test_a_row_inside_a_table_is_not_its_header() -> None:
    """A table of descriptions and values of any kind: a row down it whose value column
    happens to hold texts over numbers is a row of it."""
    leading = rows(
        ("Description", "Data"),
        ("Unary operation", -7.0),
        ("Single param sum", 4.0),
        ("If function", "b"),
        ("Choose function", "C"),
        ("Binary operation", True),
        ("Comparison", 1.0),
        ("Division", 2.5),
    )
    assert found(leading) == (1, 1)


def test_cells_holding_their_own_addresses_read_as_no_header() -> None:
    leading = rows((None, "B3", "C3", "D3"), (None, "B4", "C4", "D4"), (None, "B5", "C5", "D5"))
    assert guess_header(leading) is None


def test_values_alone_read_as_no_header() -> None:
    assert guess_header(rows((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))) is None


def test_what_a_cell_holds() -> None:
    assert [cell_kind(v) for v in (None, "  ", " 41", "1,234.5", "12%", "2024-03-01")] == [
        None,
        None,
        "number",
        "number",
        "number",
        "date",
    ]
    assert [cell_kind(v) for v in (True, 3.0, DAY, "Name")] == ["bool", "number", "date", "text"]
