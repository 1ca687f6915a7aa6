"""Naming a column by its letter with --ignore and --map, and the duplicate-column advice
that says which column is kept and works without --form."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.database import Connection
from importer.forms.header_match import letter_index
from importer.repositories import jobs
from tests.conftest import Cli
from tests.support.jobs import add_form, counts, data_rows, only_job_id, write_book

HEADER = ["Order ID", "Customer", "Amount", "Notes", "Amount"]
ROW = [1, "Ann", 3, "n", 4]


@pytest.fixture
def twice(conn: Connection, tmp_path: Path) -> Path:
    add_form(conn)
    book = tmp_path / "twice.xlsx"
    write_book(book, [ROW], header=HEADER)
    return book


def test_the_duplicate_advice_names_the_kept_column_and_the_letter_to_skip(
    cli: Cli, conn: Connection, cli_env: dict[str, str], twice: Path
) -> None:
    result = cli("submit", str(twice))  # no --form: the automatic choice
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: duplicate columns: columns C ('Amount') and E ('Amount') both match field"
        " 'amount': to keep C, skip E with --ignore E (or keep E with --ignore C)"
    )
    assert counts(conn)["jobs"] == 0


@pytest.mark.parametrize(
    ("args", "amount"),
    [
        (("--ignore", "E"), 3),  # the advice, as given
        (("--ignore", "C"), 4),  # the other way round
        (("--ignore", "Amount"), 4),  # by header: the first Amount is skipped
        (("--map", "E=amount", "--ignore", "C"), 4),
    ],
)
def test_the_advice_works_without_form(
    cli: Cli,
    conn: Connection,
    cli_env: dict[str, str],
    twice: Path,
    args: tuple[str, ...],
    amount: int,
) -> None:
    result = cli("submit", str(twice), *args, "--quiet")
    assert result.exit_code == 0, result.stderr
    job_id = only_job_id(conn)
    assert jobs.get_job(conn, job_id).form == "orders"
    assert [float(d["amount"]) for d in data_rows(conn, job_id).values()] == [amount]


def test_a_letter_beyond_the_header_is_refused_naming_the_letters(
    cli: Cli, conn: Connection, cli_env: dict[str, str], twice: Path
) -> None:
    result = cli("submit", str(twice), "--form", "orders", "--ignore", "Z")
    assert result.exit_code == 2
    assert (
        "--ignore 'Z': the sheet has no column 'Z' (name one by its header or its letter,"
        " A to E)" in result.stderr
    )


def test_a_column_with_no_header_can_be_mapped_by_its_letter(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "blank.xlsx"
    write_book(book, [[1, "Ann", 7]], header=["Order ID", "", "Amount"])
    result = cli("submit", str(book), "--map", "B=customer", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert [d["customer"] for d in data_rows(conn, only_job_id(conn)).values()] == ["Ann"]


def test_letters_count_like_excels() -> None:
    assert [letter_index(t) for t in ("A", "j", "Z", "AA", "AZ", "XFD")] == [
        0, 9, 25, 26, 51, 16383,
    ]  # fmt: skip
    assert [letter_index(t) for t in ("", "A1", "ABCD", "Ä")] == [None] * 4
