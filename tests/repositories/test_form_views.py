"""Typed views of a form's data (forms.<name>): created by `forms add` for every version and
by migration 0004 for forms already stored; typed columns, safe casts, any names."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, available_migrations, connect
from importer.forms.definition import parse_form_text
from importer.repositories import schema
from importer.repositories.forms import save_form
from tests.conftest import Cli
from tests.support.jobs import write_book

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def view_columns(conn: Connection, name: str) -> dict[str, str]:
    rows = conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = 'forms' AND table_name = %s ORDER BY ordinal_position",
        (name,),
    ).fetchall()
    return {r["column_name"]: r["data_type"] for r in rows}


def test_an_imported_form_reads_back_typed(cli: Cli, conn: Connection) -> None:
    assert cli("forms", "add", str(SAMPLES / "types.form.toml")).exit_code == 0
    submitted = cli("submit", str(SAMPLES / "types_xlsxwriter.xlsx"), "--form", "types", "-q")
    assert submitted.exit_code == 3, submitted.stderr  # the sample has rejected rows
    assert view_columns(conn, "types") == {
        "import_job_id": "bigint",
        "row_number": "integer",
        "text": "text",
        "whole": "bigint",
        "amount": "numeric",
        "day": "date",
        "moment": "timestamp with time zone",
        "flag": "boolean",
        "email": "text",
        "status": "text",
        "zip": "text",
    }
    conn.execute("SET TimeZone = 'UTC'")
    rows = {r["row_number"]: r for r in conn.execute("SELECT * FROM forms.types").fetchall()}
    stored = conn.execute("SELECT count(*) AS n FROM form_data WHERE form = 'types'").fetchone()
    assert stored is not None and len(rows) == stored["n"] > 0
    first = rows[2]
    assert (first["text"], first["whole"], first["amount"]) == ("Alpha", 12, Decimal("19.99"))
    assert first["day"] == date(2024, 3, 5) and first["flag"] is True
    assert first["moment"].replace(tzinfo=None) == datetime(2024, 3, 5, 13, 45)
    assert (first["status"], first["zip"]) == ("paid", "00123")
    assert rows[4]["amount"] == Decimal("0.3") and rows[10]["email"] is None
    assert rows[10]["flag"] is False and rows[10]["whole"] == -7


def test_keyed_forms_show_their_key_and_only_their_own_rows(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    assert cli("forms", "add", str(SAMPLES / "orders.form.toml")).exit_code == 0
    assert cli("forms", "add", str(SAMPLES / "types.form.toml")).exit_code == 0
    assert cli("submit", str(SAMPLES / "orders.xlsx"), "-q").exit_code == 3
    assert cli("submit", str(SAMPLES / "types_xlsxwriter.xlsx"), "-q").exit_code == 3
    columns = view_columns(conn, "orders")
    assert list(columns)[:3] == ["import_job_id", "row_number", "record_key"]
    assert columns["order_date"] == "date" and columns["gift_wrap"] == "boolean"
    counted = conn.execute("SELECT count(*) AS n FROM forms.orders").fetchone()
    assert counted is not None and counted["n"] == 285  # 300 rows, 15 rejected
    row = conn.execute(
        "SELECT record_key, order_id FROM forms.orders ORDER BY row_number LIMIT 1"
    ).fetchone()
    assert row is not None and row["record_key"] == f"[{row['order_id']}]"


HOSTILE = """
name = "Odd-Name.v2"
[[fields]]
name = "row_number"
header = "Row"
type = "integer"
[[fields]]
name = "Select"
header = "Select"
type = "string"
[[fields]]
name = "{long}"
header = "Long one"
type = "boolean"
[[fields]]
name = "{long}x"
header = "Long two"
type = "date"
"""


def test_any_form_or_field_name_makes_a_valid_view(conn: Connection, tmp_path: Path) -> None:
    long = "a" * 70
    save_form(conn, parse_form_text(HOSTILE.format(long=long)))
    columns = view_columns(conn, "Odd-Name.v2")
    assert columns == {
        "import_job_id": "bigint",
        "row_number": "integer",
        "row_number_field": "bigint",
        "Select": "text",
        "a" * 63: "boolean",
        "a" * 61 + "_2": "date",
    }
    assert conn.execute('SELECT * FROM forms."Odd-Name.v2"').fetchall() == []


def test_a_retyped_field_shows_null_for_rows_stored_under_the_old_type(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    v1 = 'name = "codes"\n[[fields]]\nname = "code"\nheader = "Code"\ntype = "string"\n'
    (tmp_path / "v1.toml").write_text(v1)
    (tmp_path / "v2.toml").write_text(v1.replace('"string"', '"integer"'))
    assert cli("forms", "add", str(tmp_path / "v1.toml")).exit_code == 0
    write_book(tmp_path / "a.xlsx", [["AB-1"], ["17"]], header=["Code"])
    assert cli("submit", str(tmp_path / "a.xlsx"), "-q").exit_code == 0
    assert view_columns(conn, "codes")["code"] == "text"
    added = cli("forms", "add", str(tmp_path / "v2.toml"))
    assert added.exit_code == 0 and "version 2" in added.stdout
    write_book(tmp_path / "b.xlsx", [[5], [6]], header=["Code"])
    assert cli("submit", str(tmp_path / "b.xlsx"), "-q").exit_code == 0
    assert view_columns(conn, "codes")["code"] == "bigint"
    found = conn.execute("SELECT row_number, code FROM forms.codes ORDER BY import_job_id, 1")
    assert [(r["row_number"], r["code"]) for r in found] == [(2, None), (3, None), (2, 5), (3, 6)]


def definition(text: str) -> dict[str, Any]:
    return parse_form_text(text).to_json()


def test_migration_0004_creates_views_for_forms_already_stored(empty_database_url: str) -> None:
    form = definition(
        'name = "stock"\n[[fields]]\nname = "qty"\nheader = "Qty"\ntype = "integer"\n'
    )
    with connect(empty_database_url) as conn:
        for migration in available_migrations():
            if migration.version < 4:  # a database of the release before
                conn.execute(migration.sql)
        conn.execute(
            "INSERT INTO forms (name, version, definition) VALUES ('stock', 1, %s)", (Jsonb(form),)
        )
        conn.execute(
            "INSERT INTO form_versions (form_id, version, definition)"
            " SELECT id, 1, definition FROM forms"
        )
        conn.commit()
        conn.execute(
            "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        conn.execute(
            "INSERT INTO schema_migrations (version, name) SELECT v, 'earlier'"
            " FROM unnest(%s::integer[]) AS v",
            ([m.version for m in available_migrations() if m.version < 4],),
        )
        conn.commit()
        applied = [m.version for m in schema.migrate(conn)]
        assert 4 in applied
        assert view_columns(conn, "stock") == {
            "import_job_id": "bigint",
            "row_number": "integer",
            "qty": "bigint",
        }
