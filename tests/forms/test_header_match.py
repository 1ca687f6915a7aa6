"""Header matching on sheets as people write them: repeated headers, near misses, --map."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from importer.database import Connection
from importer.errors import InputError
from importer.forms.definition import parse_form_text
from importer.forms.header_match import match_header
from importer.repositories import jobs
from tests.conftest import Cli
from tests.support.jobs import add_form, counts, json_rows, only_job_id, write_book

CONTACTS_FORM = """
name = "contacts"
key = ["contact_id"]
[[fields]]
name = "contact_id"
header = "Contact ID"
type = "integer"
required = true
[[fields]]
name = "customer"
header = "Customer"
type = "string"
required = true
[[fields]]
name = "email"
header = "Email"
type = "email"
"""


def stored(conn: Connection, job_id: int) -> dict[int, dict[str, Any]]:
    return json_rows(conn, job_id)


@pytest.mark.parametrize(
    ("header", "rows"),
    [
        (["Month", "Amount", "Amount", "Amount"], [["Jan", 1, 2, 3], ["Feb", 4, 5, 6]]),
        (["Country Code", "Country code"], [["DE", "FR"], ["IT", "ES"]]),
        (["100", "-100", "Note"], [[1, 2, "a"], [3, 4, "b"]]),
    ],
    ids=["same header thrice", "differ by case", "differ by sign"],
)
def test_what_infer_accepts_submit_accepts_with_the_inferred_form(
    cli: Cli,
    conn: Connection,
    cli_env: dict[str, str],
    tmp_path: Path,
    header: list[str],
    rows: list[list[object]],
) -> None:
    book = tmp_path / "sheet.xlsx"
    write_book(book, rows, header=header)
    toml = tmp_path / "sheet.form.toml"
    inferred = cli("forms", "infer", str(book), "-o", str(toml), "--name", "sheet")
    assert inferred.exit_code == 0, inferred.stderr
    form = parse_form_text(toml.read_text(encoding="utf-8"))
    assert [f.header for f in form.fields] == header  # one field per column, repeats included
    assert cli("forms", "add", str(toml)).exit_code == 0
    result = cli("submit", str(book), "--quiet")
    assert result.exit_code == 0, result.stderr
    data = stored(conn, only_job_id(conn))
    # Each field holds its own column's values: equal headers are taken by position.
    for number, values in zip((2, 3), rows, strict=True):
        assert [data[number][f.name] for f in form.fields] == [
            str(v) if f.type == "string" else v for f, v in zip(form.fields, values, strict=True)
        ]


def test_a_form_with_one_field_for_a_repeated_header_is_refused_with_a_way_out(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "twice.xlsx"
    write_book(book, [[1, "Ann", 3, 4]], header=["Order ID", "Customer", "Amount", "Amount"])
    result = cli("submit", str(book), "--form", "orders")
    assert result.exit_code == 2
    assert "columns C ('Amount') and D ('Amount') both match field 'amount'" in result.stderr
    assert "--ignore" in result.stderr
    assert counts(conn)["jobs"] == 0


def test_a_misspelled_optional_header_is_refused_with_did_you_mean(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn, CONTACTS_FORM)
    first = tmp_path / "first.xlsx"
    write_book(first, [[1, "Ann", "ann@example.com"]], header=["Contact ID", "Customer", "Email"])
    assert cli("submit", str(first), "--quiet").exit_code == 0
    again = tmp_path / "again.xlsx"
    write_book(again, [[1, "Ann B", "ann@example.com"]], header=["Contact ID", "Customer", "Emial"])
    refused = cli("submit", str(again))
    assert refused.exit_code == 2
    assert "column 'Emial' looks like 'Email': did you mean --map 'Emial=email'?" in refused.stderr
    assert counts(conn)["jobs"] == 1  # nothing submitted; the stored email is intact

    mapped = cli("submit", str(again), "--map", "Emial=email", "--quiet")
    assert mapped.exit_code == 0, mapped.stderr
    job = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
    assert job is not None
    (data,) = json_rows(conn, int(job["id"])).values()
    assert data["customer"] == "Ann B" and data["email"] == "ann@example.com"


def test_ignore_lets_a_look_alike_column_go(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn, CONTACTS_FORM)
    book = tmp_path / "emails.xlsx"
    write_book(book, [[7, "Bo", "x"]], header=["Contact ID", "Customer", "Emails sent"])
    assert cli("submit", str(book)).exit_code == 0  # not close enough to "Email"
    near = tmp_path / "near.xlsx"
    write_book(near, [[8, "Cy", "x"]], header=["Contact ID", "Customer", "E-mails"])
    assert cli("submit", str(near)).exit_code == 2
    result = cli("submit", str(near), "--ignore", "E-mails", "--quiet")
    assert result.exit_code == 0, result.stderr
    job = jobs.get_job(conn, max(j.id for j in jobs.list_jobs(conn)))
    assert job.column_map == {"E-mails": ""}


def test_a_missing_required_column_names_its_near_miss(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "typo.xlsx"
    write_book(book, [[1, "Ann", 3]], header=["Order ID", "Custmer", "Amount"])
    result = cli("submit", str(book), "--form", "orders")
    assert result.exit_code == 2
    assert "missing required column 'Customer'" in result.stderr
    assert "did you mean --map 'Custmer=customer'?" in result.stderr
    fixed = cli("submit", str(book), "--form", "orders", "--map", "Custmer=customer", "--quiet")
    assert fixed.exit_code == 0, fixed.stderr


def test_the_map_is_kept_with_the_job_for_the_worker_that_runs_it(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "qty.xlsx"
    write_book(book, [[1, "Ann", 3], [2, "Bo", 4]], header=["Order No", "Client", "Amount"])
    queued = cli(
        "submit", str(book), "--form", "orders", "--detach", "--json",
        "--map", "Order No=order_id", "--map", "Client=customer",
    )  # fmt: skip
    assert queued.exit_code == 0, queued.stderr
    assert json.loads(queued.stdout)["column_map"] == {
        "Order No": "order_id",
        "Client": "customer",
    }
    assert cli("worker", "--once").exit_code == 0
    job_id = only_job_id(conn)
    assert jobs.get_job(conn, job_id).status == "succeeded"
    assert [d["customer"] for d in stored(conn, job_id).values()] == ["Ann", "Bo"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--map", "Client=client_name"), "form 'orders' has no field 'client_name'"),
        (("--map", "Shop=customer"), "the sheet has no column 'Shop'"),
        (("--map", "no equals sign"), 'use "Sheet header=field"'),
        (("--ignore", "Nothing"), "--ignore 'Nothing': the sheet has no column"),
    ],
)
def test_a_map_that_does_not_fit_is_one_line(
    cli: Cli,
    conn: Connection,
    cli_env: dict[str, str],
    tmp_path: Path,
    args: tuple[str, ...],
    message: str,
) -> None:
    add_form(conn)
    book = tmp_path / "orders.xlsx"
    write_book(book, [[1, "Ann", 3]], header=["Order ID", "Client", "Amount"])
    result = cli("submit", str(book), "--form", "orders", *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_unknown_form_name_suggests_the_closest_and_lists_the_forms(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    add_form(conn, CONTACTS_FORM)
    book = tmp_path / "orders.xlsx"
    write_book(book, [[1, "Ann", 3]])
    result = cli("submit", str(book), "--form", "ordrs")
    assert result.exit_code == 2
    assert "no form named 'ordrs'; did you mean 'orders'?" in result.stderr
    assert "(forms: contacts, orders;" in result.stderr


def test_matching_takes_exact_texts_before_normalized_ones() -> None:
    form = parse_form_text(
        'name = "n"\n[[fields]]\nname = "plus"\nheader = "100"\ntype = "integer"\n'
        '[[fields]]\nname = "minus"\nheader = "-100"\ntype = "integer"\n'
    )
    match = match_header(form, ["-100", "100"])
    assert match.columns == {"minus": 0, "plus": 1}
    with pytest.raises(InputError, match="both match field"):
        match_header(form, ["-100", "100", "100 "])
