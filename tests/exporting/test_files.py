"""`export` to real files, read back by other readers: Parquet by pyarrow, CSV by polars,
.xlsx by openpyxl; whole or not at all."""

from __future__ import annotations

import hashlib
import signal
import subprocess
import threading
import time
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import openpyxl
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from importer.api import Importer
from importer.config import Settings
from importer.database import Connection
from importer.errors import DatabaseError, UsageError
from importer.exporting import files, xlsx
from tests.conftest import IMPORTER_CMD, Cli
from tests.exporting.samples import ROWS, add_typed_form, expected, insert_rows

ARROW_TYPES = {
    "n": pa.int64(),
    "label": pa.large_string(),
    "amount": pa.decimal128(38, 3),
    "day": pa.date32(),
    "at": pa.timestamp("us", tz="UTC"),
    "ok": pa.bool_(),
    "mail": pa.large_string(),
    "row_number_field": pa.int64(),
    "import_job_id": pa.int64(),
    "row_number": pa.int64(),
    "written_at": pa.timestamp("us", tz="UTC"),
}


@pytest.fixture
def importer(settings: Settings) -> Importer:
    return Importer(settings=settings)


@pytest.fixture
def typed(conn: Connection) -> None:
    add_typed_form(conn)
    insert_rows(conn)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_parquet_reads_back_with_pyarrow_with_the_same_rows_and_types(
    importer: Importer, typed: None, tmp_path: Path
) -> None:
    target = tmp_path / "typed.parquet"
    done = importer.export_rows("typed", target)
    assert (done.rows, done.format, done.path) == (len(ROWS), "parquet", target)
    assert done.bytes == target.stat().st_size
    table = pq.read_table(target)
    assert {f.name: f.type for f in table.schema} == ARROW_TYPES
    assert [{k: v for k, v in r.items() if k != "written_at"} for r in table.to_pylist()] == (
        expected()
    )
    assert leftovers(tmp_path) == []


def test_csv_round_trips_through_polars(importer: Importer, typed: None, tmp_path: Path) -> None:
    target = tmp_path / "typed.csv"
    importer.export_rows("typed", target)
    frame = importer.frame("typed")
    back = pl.read_csv(target, schema=frame.schema)
    assert back.equals(frame, null_equal=True)
    text = target.read_text(encoding="utf-8")
    assert text.splitlines()[0] == ",".join(frame.columns)
    assert "1,3," in text and ',"",' in text  # a NULL is empty, an empty text quoted
    assert "2026-01-31T23:59:59.123456+0000" in text


def test_xlsx_round_trips_through_openpyxl(importer: Importer, typed: None, tmp_path: Path) -> None:
    target = tmp_path / "typed.xlsx"
    done = importer.export_rows("typed", target)
    assert done.rows == len(ROWS)
    book = openpyxl.load_workbook(target)
    sheet = book.active
    assert sheet is not None and sheet.title == "typed"
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[0] == list(ARROW_TYPES)
    assert sheet.freeze_panes == "A2"
    first, empty, odd, big = (dict(zip(rows[0], r, strict=True)) for r in rows[1:])
    assert first["n"] == 1 and first["label"] == "plain" and first["ok"] is True
    assert first["amount"] == 1.5
    assert first["day"] == datetime(2026, 1, 31)  # Excel dates: a date is a date-time at 0:00
    assert first["at"] == datetime(2026, 1, 31, 23, 59, 59, 123000)  # UTC, to Excel's ms
    assert all(empty[k] in (None, "") for k in ("n", "amount", "day", "at", "ok", "mail"))
    # A carriage return is kept as OOXML escapes it (Excel shows it; openpyxl leaves it so).
    assert odd["label"] == 'say "hi", then\nleave_x000D_\nnow' and odd["ok"] is False
    assert odd["day"] == "0001-01-01"  # before Excel's first date (1900): its ISO text
    assert odd["n"] == "-9007199254740993"  # beyond 2^53: its digits, never a rounded number
    assert big["label"] == "=1+1"  # text stays text, never a formula
    assert sheet["C2"].number_format == "0.000"
    assert sheet["D2"].number_format == "yyyy-mm-dd"
    assert leftovers(tmp_path) == []


def test_an_xlsx_over_a_sheets_rows_is_refused_before_anything_is_written(
    importer: Importer, typed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert xlsx.MAX_ROWS == 1_048_576 - 1  # Excel's rows, less the header
    monkeypatch.setattr(files, "MAX_ROWS", len(ROWS) - 1)
    with pytest.raises(UsageError, match="4 rows do not fit in one Excel sheet"):
        importer.export_rows("typed", tmp_path / "typed.xlsx")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["typed.parquet", "typed.csv"])
def test_a_failure_half_way_leaves_the_earlier_file_and_no_temporary_one(
    importer: Importer, typed: None, conn: Connection, tmp_path: Path, name: str
) -> None:
    target = tmp_path / name
    target.write_text("the earlier export")
    conn.execute(
        "INSERT INTO forms.typed (import_job_id, row_number, day) VALUES (3, 9, 'infinity')"
    )
    with pytest.raises(DatabaseError, match="infinite"):
        importer.export_rows("typed", target)
    assert target.read_text() == "the earlier export"
    assert leftovers(tmp_path) == []
    conn.execute("DELETE FROM forms.typed WHERE import_job_id = 3")
    importer.export_rows("typed", target)  # and a success replaces it
    back = pl.read_parquet(target) if name.endswith("parquet") else pl.read_csv(target)
    assert back.height == len(ROWS)


def test_a_writer_stopped_before_it_opened_its_file_cannot_leave_it_behind(
    tmp_path: Path,
) -> None:
    # As polars' sink stopped by Ctrl-C: the call returns while its writer has yet to open
    # the file it was given.
    late: list[BaseException] = []

    def write(temp: str) -> int:
        def open_late() -> None:
            time.sleep(0.2)
            try:
                Path(temp).write_text("half")
            except OSError as exc:  # its folder is gone
                late.append(exc)

        threading.Thread(target=open_late).start()
        raise KeyboardInterrupt

    target = tmp_path / "rows.parquet"
    with pytest.raises(KeyboardInterrupt):
        files._write_atomically(target, write)
    time.sleep(0.4)
    assert list(tmp_path.iterdir()) == [] and isinstance(late[0], FileNotFoundError)


@pytest.mark.slow
def test_ctrl_c_stops_an_export_with_130_and_leaves_nothing(
    conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_typed_form(conn)
    conn.execute(
        "INSERT INTO forms.typed (import_job_id, row_number, n, label)"
        " SELECT 1, g, g, repeat('x', 50) || g FROM generate_series(1, 2000000) g"
    )
    target = tmp_path / "out" / "rows.parquet"
    target.parent.mkdir()
    target.write_text("the earlier export")
    child = subprocess.Popen(
        [*IMPORTER_CMD, "export", "typed", "-o", str(target)],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)  # past the start, into the rows
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, (out, err)
    assert "Traceback" not in err and out == ""
    assert sorted(p.name for p in target.parent.iterdir()) == ["rows.parquet"]
    assert target.read_text() == "the earlier export"


def test_an_xlsx_cell_too_long_is_refused_and_nothing_is_left(
    importer: Importer, typed: None, conn: Connection, tmp_path: Path
) -> None:
    conn.execute("UPDATE forms.typed SET label = repeat('x', 32768) WHERE row_number = 4")
    with pytest.raises(UsageError, match="column label holds a text of 32,768 characters"):
        importer.export_rows("typed", tmp_path / "typed.xlsx")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("out.json", "the file name must end in .parquet, .csv or .xlsx"),
        ("missing/out.csv", "missing does not exist"),
        ("folder.csv", "it is a folder"),
    ],
)
def test_a_target_that_cannot_be_written_is_refused_before_the_database_is_asked(
    tmp_path: Path, name: str, said: str
) -> None:
    (tmp_path / "folder.csv").mkdir()
    nowhere = Importer("postgresql://nobody@127.0.0.1:1/none")  # never connected to
    with pytest.raises(UsageError, match=said):
        nowhere.export_rows("typed", tmp_path / name)


@pytest.mark.slow
def test_a_million_rows_to_parquet_read_back_with_pyarrow(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    form = tmp_path / "big.form.toml"
    form.write_text(
        'name = "big"\n'
        + "".join(
            f'[[fields]]\nname = "{name}"\ntype = "{kind}"\n'
            for name, kind in (
                ("n", "integer"),
                ("label", "string"),
                ("amount", "decimal"),
                ("day", "date"),
                ("at", "datetime"),
                ("ok", "boolean"),
            )
        )
    )
    assert cli("forms", "add", str(form)).exit_code == 0
    conn.execute(
        "INSERT INTO forms.big (import_job_id, row_number, n, label, amount, day, at, ok)"
        " SELECT g / 250000 + 1, g % 250000 + 2, g::bigint * 7919 - 3000000000,"
        "  CASE WHEN g % 11 <> 0 THEN 'row ' || g END, (g % 100003) * 0.001,"
        "  date '1950-01-01' + g % 40000,"
        "  CASE WHEN g % 5 <> 0"
        "   THEN timestamptz '2000-01-01 00:00+00' + g * interval '1.001 s' END,"
        "  CASE WHEN g % 7 <> 0 THEN g % 2 = 0 END"
        " FROM generate_series(0, 999999) g"
    )
    target = tmp_path / "big.parquet"
    result = cli("export", "big", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("exported 1,000,000 rows of form big to ")
    table = pq.read_table(target)
    assert table.num_rows == 1_000_000
    assert {f.name: f.type for f in table.schema} == {
        "n": pa.int64(),
        "label": pa.large_string(),
        "amount": pa.decimal128(38, 3),
        "day": pa.date32(),
        "at": pa.timestamp("us", tz="UTC"),
        "ok": pa.bool_(),
        "import_job_id": pa.int64(),
        "row_number": pa.int64(),
        "written_at": pa.timestamp("us", tz="UTC"),
    }
    # Every value, column by column, against the same figures computed by PostgreSQL.
    sums = conn.execute(
        "SELECT sum(n) AS n, count(label) AS labels, sum(amount) AS amount,"
        " sum(day - date '1970-01-01') AS days, count(at) AS ats,"
        " sum((extract(epoch FROM at) * 1000000)::bigint) AS at,"
        " count(ok) AS oks, count(*) FILTER (WHERE ok) AS trues,"
        " md5(string_agg(label, '|' ORDER BY import_job_id, row_number)) AS labels_md5,"
        " md5(string_agg(import_job_id || ':' || row_number, '|'"
        "     ORDER BY import_job_id, row_number)) AS order_md5"
        " FROM forms.big"
    ).fetchone()
    assert sums is not None
    assert pc.sum(table["n"]).as_py() == sums["n"]
    assert pc.sum(table["amount"]).as_py() == Decimal(sums["amount"])
    days = pc.sum(table["day"].cast(pa.int32()).cast(pa.int64())).as_py()
    assert days == sums["days"]
    assert table["at"].null_count == 1_000_000 - sums["ats"]
    micros = table["at"].cast(pa.int64()).to_pylist()
    assert sum(m for m in micros if m is not None) == sums["at"]  # beyond int64: Python's sum
    assert table["ok"].null_count == 1_000_000 - sums["oks"]
    assert pc.sum(table["ok"].cast(pa.int64())).as_py() == sums["trues"]
    labels = [v for v in table["label"].to_pylist() if v is not None]
    assert len(labels) == sums["labels"]
    assert hashlib.md5("|".join(labels).encode()).hexdigest() == sums["labels_md5"]
    order = "|".join(
        f"{j}:{r}"
        for j, r in zip(
            table["import_job_id"].to_pylist(), table["row_number"].to_pylist(), strict=True
        )
    )
    assert hashlib.md5(order.encode()).hexdigest() == sums["order_md5"]  # in (job, row) order
    first = table.slice(0, 1).to_pylist()[0]
    assert (first["day"], first["at"]) == (date(1950, 1, 1), None)  # g = 0: at is NULL
    assert table.slice(1, 1).to_pylist()[0]["at"] == datetime(2000, 1, 1, 0, 0, 1, 1000, UTC)
