"""`importer export FORM [--job N] [--since D] -o FILE [--json]` as typed: the files, the
summary line (whole in a pipe, fitted at a terminal's 80 columns), --json, and exit 2 for
what is refused, with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from rich.cells import cell_len

from importer.database import Connection
from importer.exporting import files
from tests.cli.test_narrow_terminals import assert_fits, on_terminal
from tests.conftest import Cli
from tests.exporting.samples import ROWS, add_typed_form, insert_rows
from tests.support.jobs import add_form

LEDGER = """
name = "ledger"
table = "public.ledger"
[[fields]]
name = "id"
type = "integer"
"""


@pytest.fixture
def typed(conn: Connection, cli_env: dict[str, str]) -> None:
    add_typed_form(conn)
    insert_rows(conn)


def test_export_writes_each_format_and_says_so_in_one_line(
    cli: Cli, typed: None, tmp_path: Path
) -> None:
    for name in ("rows.parquet", "rows.csv", "rows.xlsx"):
        result = cli("export", "typed", "-o", name)
        assert result.exit_code == 0, result.stderr
        size = (tmp_path / name).stat().st_size
        line = result.stdout.strip()
        assert line.startswith(f"exported 4 rows of form typed to {name} (")
        assert (f"{size:,} bytes" if size < 1024 else f"{size / 1024:,.1f} KB") in line
        assert line.endswith(" s)") and result.stderr == ""
    assert pq.read_table(tmp_path / "rows.parquet").num_rows == len(ROWS)
    assert pl.read_csv(tmp_path / "rows.csv").height == len(ROWS)


def test_job_and_since_pick_the_rows_and_json_says_what_was_written(
    cli: Cli, typed: None, conn: Connection, tmp_path: Path
) -> None:
    conn.execute("UPDATE forms.typed SET written_at = now() - interval '3 days' WHERE n = 1")
    result = cli("export", "typed", "--job", "1", "--since", "2d", "-o", "job1.csv", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {k: data[k] for k in ("form", "path", "format", "rows")} == {
        "form": "typed",
        "path": "job1.csv",
        "format": "csv",
        "rows": 2,
    }
    assert data["bytes"] == (tmp_path / "job1.csv").stat().st_size
    assert isinstance(data["seconds"], float)
    assert data["columns"][:3] == [
        {"name": "n", "type": "Int64"},
        {"name": "label", "type": "String"},
        {"name": "amount", "type": "Decimal(precision=38, scale=3)"},
    ]
    assert [c["name"] for c in data["columns"]][-3:] == [
        "import_job_id",
        "row_number",
        "written_at",
    ]
    assert pl.read_csv(tmp_path / "job1.csv")["row_number"].to_list() == [3, 4]


def test_what_is_refused_exits_2_in_one_line_and_writes_nothing(
    cli: Cli, typed: None, conn: Connection, tmp_path: Path
) -> None:
    conn.execute("CREATE TABLE public.ledger (id bigint)")
    add_form(conn, LEDGER)  # a table of the user's with no job column
    refused = {
        ("export", "nope", "-o", "a.csv"): "no form named 'nope'",
        ("export", "typed", "-o", "a.json"): "must end in .parquet, .csv or .xlsx",
        ("export", "typed", "-o", "a"): "must end in .parquet, .csv or .xlsx",
        ("export", "typed", "--job", "99", "-o", "a.csv"): "no import job with id 99",
        ("export", "typed", "--job", "x", "-o", "a.csv"): "job ids are whole numbers",
        ("export", "typed", "--since", "soon", "-o", "a.csv"): "--since 'soon'",
        ("export", "ledger", "--job", "1", "-o", "a.csv"): 'name it with job_column = "..."',
        ("export", "ledger", "--since", "1d", "-o", "a.csv"): "no written_at column",
    }
    for args, said in refused.items():
        result = cli(*args)
        assert result.exit_code == 2, (args, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0], (args, result.stderr)
        assert result.stdout == ""
    assert [p.name for p in tmp_path.iterdir() if p.name != "home"] == []


def test_an_xlsx_of_more_rows_than_a_sheet_holds_exits_2_before_writing(
    cli: Cli, typed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "MAX_ROWS", 3)  # the real limit, 1,048,575, made reachable
    result = cli("export", "typed", "-o", "all.xlsx")
    assert result.exit_code == 2
    assert "4 rows do not fit in one Excel sheet (at most 3 below the header)" in result.stderr
    assert "write .parquet or .csv" in result.stderr
    assert not list(tmp_path.glob("*all.xlsx*"))
    assert cli("export", "typed", "--job", "2", "-o", "all.xlsx").exit_code == 0


def test_an_existing_file_is_replaced_whole(cli: Cli, typed: None, tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_text("old")
    assert cli("export", "typed", "-o", "rows.csv").exit_code == 0
    assert pl.read_csv(tmp_path / "rows.csv").height == len(ROWS)


@pytest.mark.slow
def test_at_80_columns_the_summary_line_fits_and_keeps_the_file_name(
    typed: None, cli_env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / ("a_rather_long_folder_name_for_exports_" * 2).rstrip("_")
    folder.mkdir()
    target = folder / "orders_of_the_whole_quarter.parquet"
    screen = [
        line for line in on_terminal(["export", "typed", "-o", str(target)], 80, cli_env) if line
    ]
    assert_fits(screen, 80)
    assert len(screen) == 1, screen
    line = screen[0]
    assert line.startswith("exported 4 rows of form typed to ")
    assert "…" in line and ".parquet (" in line and line.endswith(" s)")
    assert cell_len(line) == 80  # the path takes exactly the room there is
    assert target.exists()
