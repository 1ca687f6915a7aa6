"""Edges a new user hits in the first hour: a file that is no workbook, a cell the form's
`missing` empties, a lookup its table cannot decide, and what each command's help says."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import add_form, counts

SCRIPT = '''"""Make the sample books."""
import openpyxl

book = openpyxl.Workbook()
book.save("orders.xlsx")
'''
NOTES = "Remember: send the orders, then the invoices.\nCall Ann on Monday.\n"


@pytest.mark.parametrize(
    ("name", "text"), [("make_books.py", SCRIPT), ("notes.txt", NOTES)], ids=["script", "notes"]
)
@pytest.mark.parametrize(
    "command", [("submit",), ("check",), ("forms", "infer")], ids=["submit", "check", "infer"]
)
def test_a_file_that_is_no_workbook_is_refused_as_such(
    cli: Cli,
    conn: Connection,
    cli_env: dict[str, str],
    tmp_path: Path,
    name: str,
    text: str,
    command: tuple[str, ...],
) -> None:
    add_form(conn)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli(*command, str(path))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {name}: "), result.stderr
    assert "not a workbook" in lines[0] and "no form fits" not in result.stdout + lines[0]
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


def test_a_table_of_text_under_a_name_that_is_not_csv_is_still_read(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    path = tmp_path / "orders.txt"  # Excel's "Text (Tab delimited)" is saved so
    path.write_text("Order ID\tCustomer\tAmount\n1\tAcme\t5\n2\tInitech\t7\n", encoding="utf-8")
    result = cli("check", str(path))
    assert result.exit_code == 0, result.stderr
