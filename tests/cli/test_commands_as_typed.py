"""`importer submit FILE` and `importer resume`, typed exactly as the README shows them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from importer.database import Connection
from importer.repositories import jobs
from tests.conftest import Cli
from tests.support.jobs import (
    ORDERS_FORM,
    PEOPLE_FORM,
    add_form,
    assert_exactly_once,
    counts,
    only_job_id,
    orders_book,
    write_book,
)

# The orders form without its Amount: it matches one column fewer of the orders sheet.
ORDER_REFS_FORM = ORDERS_FORM.split('[[fields]]\nname = "amount"')[0].replace(
    'name = "orders"', 'name = "order_refs"', 1
)


def test_submit_without_form_takes_the_form_the_header_fits_best(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    for text in (ORDERS_FORM, PEOPLE_FORM, ORDER_REFS_FORM):
        add_form(conn, text)
    book = orders_book(tmp_path / "orders.xlsx", 25)
    result = cli("submit", str(book.path), "--quiet")
    assert result.exit_code == 3, result.stderr  # imported, with its rejected rows
    job_id = only_job_id(conn)
    assert jobs.get_job(conn, job_id).form == "orders"  # 3 columns matched beat 2
    assert_exactly_once(conn, job_id, book)


def test_submit_without_form_refuses_a_tie_naming_the_candidates(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    add_form(conn, ORDERS_FORM.replace('name = "orders"', 'name = "orders_copy"', 1))
    book = orders_book(tmp_path / "orders.xlsx", 15)
    result = cli("submit", str(book.path))
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1
    assert "orders and orders_copy" in line and "--form" in line
    assert "orders (3 of 3)" in line and "orders_copy (3 of 3)" in line
    assert counts(conn)["jobs"] == 0 and counts(conn)["files"] == 0

    named = cli("submit", str(book.path), "--form", "orders_copy", "--quiet")
    assert named.exit_code == 3 and jobs.get_job(conn, only_job_id(conn)).form == "orders_copy"


def test_submit_without_form_refuses_a_header_no_form_fits(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    add_form(conn, PEOPLE_FORM)
    path = tmp_path / "stock.xlsx"
    write_book(path, [["A-1", 3], ["B-2", 5]], header=["SKU", "Quantity"])
    result = cli("submit", str(path))
    assert result.exit_code == 2
    assert "no form fits this header" in result.stderr
    assert "importer forms infer" in result.stderr and "people (0 of 2)" in result.stderr
    assert counts(conn)["jobs"] == 0


def test_submit_without_form_and_no_forms_says_how_to_add_one(
    cli: Cli, cli_env: dict[str, str], tmp_path: Path
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 3)
    result = cli("submit", str(book.path))
    assert result.exit_code == 2 and "importer forms add" in result.stderr


def test_bare_resume_continues_every_job_that_can_be_continued(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    first = orders_book(tmp_path / "first.xlsx", 30)
    second = orders_book(tmp_path / "second.xlsx", 12, start_id=100)
    for book in (first, second):
        assert cli("submit", str(book.path), "--detach", "--quiet").exit_code == 0
    result = cli("resume", "--json")
    assert result.exit_code == 3, result.stderr
    done = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert [job["status"] for job in done] == ["partially_succeeded"] * 2
    assert "resuming jobs 1, 2" in result.stderr
    assert_exactly_once(conn, int(done[0]["id"]), first)
    assert_exactly_once(conn, int(done[1]["id"]), second)
    assert cli("resume").stdout.strip() == "nothing to resume"


def test_bare_resume_leaves_a_job_a_live_process_holds_and_says_until_when(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 10)
    assert cli("submit", str(book.path), "--detach", "--quiet").exit_code == 0
    # Another host's worker holds the lease (its pid means nothing here).
    [held] = jobs.claim_jobs(conn, owner="other-host:4242", limit=1, lease_seconds=600)
    result = cli("resume")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "nothing to resume"
    assert f"job {held.id} is being run by other-host:4242" in result.stderr
    assert "lease expires in 9m" in result.stderr or "lease expires in 10m" in result.stderr
    job = jobs.get_job(conn, held.id)
    assert (job.status, job.lease_owner, job.cursor) == ("running", "other-host:4242", 0)
    assert job.lease_expires_at is not None and job.lease_expires_at > datetime.now(UTC)


def test_user_text_in_an_error_is_printed_as_written(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    path = tmp_path / "br.csv"
    path.write_text("Order No.,Price [/EUR],Note [b]\n1,2,x\n", encoding="utf-8")
    result = cli("submit", str(path), "--form", "orders")
    assert result.exit_code == 2, result.stderr
    assert "Price [/EUR]" in result.stderr and "Note [b]" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
