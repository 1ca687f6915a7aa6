"""A submit that would import nothing: a header-only sheet is refused before any job; a job
whose every row was rejected says so and ends with exit code 4."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.database import Connection
from importer.repositories import jobs
from tests.conftest import Cli
from tests.support.jobs import add_form, counts, only_job_id, write_book


@pytest.mark.parametrize("how", [(), ("--detach",), ("--in", "10m")])
def test_a_sheet_with_a_header_and_no_rows_is_refused_before_any_job(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path, how: tuple[str, ...]
) -> None:
    add_form(conn)
    book = tmp_path / "empty.xlsx"
    write_book(book, [])
    # Run here, queued or scheduled: a queued submit reads only the header, and one row more.
    result = cli("submit", str(book), "--quiet", *how)
    assert result.exit_code == 2
    assert result.stderr == "error: sheet 'Orders' has a header but no rows to import\n"
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


def test_a_job_whose_every_row_was_rejected_says_nothing_was_imported_and_exits_4(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "allbad.xlsx"
    write_book(book, [[1, "Ann", -1], [2, "Bo", -2], [3, "Cy", -3]])
    result = cli("submit", str(book))
    assert result.exit_code == 4, result.stderr
    assert "job 1: nothing was imported: all 3 rows were rejected:" in result.stdout
    assert "next: importer errors 1 -o rejected.xlsx" in result.stdout
    job = jobs.get_job(conn, only_job_id(conn))
    assert (job.status, job.success_rows, job.failed_rows) == ("partially_succeeded", 0, 3)

    checked = cli("check", str(book))
    assert checked.exit_code == 4 and "0 good, 3 would be rejected" in checked.stdout


def test_some_rows_imported_keep_exit_3_and_the_usual_words(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = tmp_path / "somebad.xlsx"
    write_book(book, [[1, "Ann", 1], [2, "Bo", -2]])
    result = cli("submit", str(book))
    assert result.exit_code == 3, result.stderr
    assert "job 1: 1 row rejected:" in result.stdout
    assert "nothing was imported" not in result.stdout
