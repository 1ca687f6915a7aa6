"""What a purged job's refusal advises: a submit with force, or the same purged job returns."""

from __future__ import annotations

from pathlib import Path

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import add_form, orders_book


def test_a_purged_job_says_to_submit_again_with_force(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 10)
    assert cli("submit", str(book.path), "-q").exit_code == 3
    conn.execute("UPDATE import_jobs SET status = 'failed', finished_at = now()")
    assert cli("purge", "--older-than", "0s").exit_code == 0
    refused = cli("retry", "1")
    assert refused.exit_code == 2
    assert (
        "it can no longer be retried: submit the file again with --force (force=True in"
        " Python), since without it the submit returns this same purged job" in refused.stderr
    ), refused.stderr
    again = cli("submit", str(book.path), "-q")  # what the message warns of
    assert "already submitted for form orders as job 1" in again.stderr
    forced = cli("submit", str(book.path), "-q", "--force")
    assert forced.exit_code == 3, forced.stderr


def test_the_errors_of_a_purged_job_say_they_are_gone_not_an_empty_table(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 10)
    assert cli("submit", str(book.path), "-q").exit_code == 3
    assert cli("purge", "--older-than", "0s").exit_code == 0
    shown = cli("errors", "1")
    assert shown.exit_code == 2, shown.stdout
    assert "Row  Column" not in shown.stdout
    assert "import job 1 was purged on" in shown.stderr
    assert "it can no longer be shown" in shown.stderr
