"""A workbook that is not there: the one line said, and nothing before it."""

from __future__ import annotations

from pathlib import Path

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import add_form, counts


def test_a_missing_file_says_file_not_found_and_nothing_else(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    result = cli("submit", "nosuch.xlsx")
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", "error: nosuch.xlsx: file not found\n")
    assert counts(conn)["jobs"] == 0
