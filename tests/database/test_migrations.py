"""Migrations, URL masking and error translation against a real server."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import psycopg
import pytest
from psycopg.types.json import Jsonb

from importer.database import (
    Connection,
    available_migrations,
    connect,
    describe_target,
    mask_url,
    migrate,
    queries,
)
from importer.database.errors import translate
from importer.errors import DatabaseUnavailable, SchemaError, UniqueViolation
from importer.forms.definition import parse_form_text
from importer.repositories import schema
from tests.conftest import Cli

EXPECTED_TABLES = {
    "forms",
    "form_versions",
    "import_files",
    "import_jobs",
    "import_rejected_rows",
    "import_row_errors",
    "timer_jobs",
    "workers",
    "schema_migrations",
}


def _tables(url: str) -> set[str]:
    with connect(url) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchall()
    return {r["tablename"] for r in rows}


def test_empty_database_migrates_to_latest_and_rerun_is_noop(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn:
        applied = migrate(conn)
    assert [m.version for m in applied] == [m.version for m in available_migrations()]
    assert _tables(empty_database_url) >= EXPECTED_TABLES
    with connect(empty_database_url) as conn:
        assert migrate(conn) == []
        count = conn.execute("SELECT count(*) AS n FROM schema_migrations").fetchone()
    assert count is not None and count["n"] == len(available_migrations())


def test_versions_run_from_1_with_one_gap_0005_which_never_existed() -> None:
    versions = [m.version for m in available_migrations()]
    assert versions == sorted(versions)
    assert [v for v in range(1, versions[-1] + 1) if v not in versions] == [5]


def test_only_0004_0008_and_0013_declare_a_step_beyond_their_sql() -> None:
    stepped = {m.version: m.step for m in available_migrations() if m.step}
    assert stepped == {
        4: "the typed views of the forms already stored",
        8: "each stored form's typed table, with its rows moved out of form_data",
        13: "a history table for each keyed form's table",
    }
    assert set(schema.MIGRATION_STEPS) == set(stepped)


def _database_of_the_release_before_0004(conn: Connection) -> None:
    for migration in available_migrations():
        if migration.version < 4:
            conn.execute(migration.sql)
    conn.execute(queries().create_migrations_table)
    conn.execute(
        "INSERT INTO schema_migrations (version, name) SELECT v, 'earlier'"
        " FROM unnest(%s::integer[]) AS v",
        ([m.version for m in available_migrations() if m.version < 4],),
    )
    conn.commit()


def _database_at(conn: Connection, version: int) -> None:
    """A database of the release whose last migration was ``version``."""
    for migration in available_migrations():
        if migration.version <= version:
            conn.execute(migration.sql)
    conn.execute(queries().create_migrations_table)
    conn.execute(
        "INSERT INTO schema_migrations (version, name) SELECT v, 'earlier'"
        " FROM unnest(%s::integer[]) AS v",
        ([m.version for m in available_migrations() if m.version <= version],),
    )
    conn.commit()


STOCK_V1 = """
name = "stock"
[[fields]]
name = "sku"
required = true
[[fields]]
name = "qty"
type = "integer"
[[fields]]
name = "day"
type = "date"
[[fields]]
name = "price"
type = "integer"
[[fields]]
name = "gone"
type = "boolean"
"""
STOCK_V2 = """
name = "stock"
[[fields]]
name = "sku"
required = true
[[fields]]
name = "qty"
type = "decimal"
[[fields]]
name = "day"
type = "datetime"
[[fields]]
name = "price"
[[fields]]
name = "note"
"""
LEDGER = """
name = "ledger"
key = ["code"]
[[fields]]
name = "code"
type = "integer"
required = true
[[fields]]
name = "total"
type = "decimal"
"""


def _store_the_old_way(conn: Connection, versions: dict[str, list[str]]) -> None:
    for name, texts in versions.items():
        definitions = [Jsonb(parse_form_text(t).to_json()) for t in texts]
        row = conn.execute(
            "INSERT INTO forms (name, version, definition) VALUES (%s, %s, %s) RETURNING id",
            (name, len(texts), definitions[-1]),
        ).fetchone()
        assert row is not None
        for number, definition in enumerate(definitions, start=1):
            conn.execute(
                "INSERT INTO form_versions (form_id, version, definition) VALUES (%s, %s, %s)",
                (row["id"], number, definition),
            )
    conn.execute("INSERT INTO import_files (sha256, size_bytes, content) VALUES ('f', 0, '')")


def _versions_from(first: int) -> list[int]:
    """The migrations a database at the one before ``first`` is given: every later one."""
    return [m.version for m in available_migrations() if m.version >= first]


def _job(conn: Connection, form: str, version: int) -> int:
    row = conn.execute(
        "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts)"
        " VALUES (%s, %s, 'f', 'a.xlsx', 3) RETURNING id",
        (form, version),
    ).fetchone()
    assert row is not None
    return int(row["id"])


def _row(
    conn: Connection, job: int, number: int, form: str, data: dict[str, object], key: str | None
) -> None:
    conn.execute(
        "INSERT INTO form_data (import_job_id, row_number, form, record_key, data, created_at,"
        " updated_at) VALUES (%s, %s, %s, %s, %s, '2024-01-01 10:00+00',"
        " '2024-01-01 10:00+00'::timestamptz + make_interval(mins => %s))",
        (job, number, form, key, Jsonb(data), number),
    )


def test_migration_0008_moves_every_row_of_every_version_into_typed_tables(
    empty_database_url: str,
) -> None:
    with connect(empty_database_url) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        _database_at(conn, 7)
        _store_the_old_way(conn, {"stock": [STOCK_V1, STOCK_V2], "ledger": [LEDGER]})
        one, two, three = _job(conn, "stock", 1), _job(conn, "stock", 2), _job(conn, "ledger", 1)
        first = {"sku": "A", "qty": 12, "day": "2024-03-05", "price": 5, "gone": True}
        _row(conn, one, 2, "stock", first, None)
        _row(conn, one, 3, "stock", {"sku": "B", "qty": None, "day": None, "price": -7}, None)
        second = {"sku": "C", "qty": 0.3, "day": "2024-03-05T13:45:00", "price": "7 EUR"}
        _row(conn, two, 2, "stock", {**second, "note": "é'\"\\"}, None)
        _row(conn, three, 2, "ledger", {"code": 10, "total": 19.99}, "[10]")
        _row(conn, three, 3, "ledger", {"code": 11, "total": 1e-05}, "[11]")
        # the typed view 0004 / `forms add` laid over form_data
        conn.execute(
            "CREATE VIEW forms.stock AS SELECT d.import_job_id, d.row_number FROM form_data d"
        )
        conn.commit()
        applied = [m.version for m in schema.migrate(conn)]
        assert applied == _versions_from(8)
        assert conn.execute("SELECT to_regclass('form_data') AS t").fetchone() == {"t": None}
        types = conn.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'forms' ORDER BY table_name, ordinal_position"
        ).fetchall()
        assert [(t["table_name"], t["column_name"], t["data_type"]) for t in types] == [
            ("ledger", "import_job_id", "bigint"),
            ("ledger", "row_number", "integer"),
            ("ledger", "written_at", "timestamp with time zone"),
            ("ledger", "code", "bigint"),
            ("ledger", "total", "numeric"),
            ("stock", "import_job_id", "bigint"),
            ("stock", "row_number", "integer"),
            ("stock", "written_at", "timestamp with time zone"),
            ("stock", "sku", "text"),
            ("stock", "qty", "numeric"),  # integer, then decimal
            ("stock", "day", "timestamp with time zone"),  # date, then datetime
            ("stock", "price", "text"),  # integer, then string: they disagree
            ("stock", "note", "text"),
            ("stock", "gone", "boolean"),  # version 1's only: its values stay
        ]
        stock = conn.execute("SELECT * FROM forms.stock ORDER BY 1, 2").fetchall()
        at = datetime(2024, 1, 1, 10, 0, tzinfo=UTC)
        assert stock == [
            {
                "import_job_id": one,
                "row_number": 2,
                "written_at": at + timedelta(minutes=2),
                "sku": "A",
                "qty": Decimal(12),
                "day": datetime(2024, 3, 5, tzinfo=UTC),
                "price": "5",
                "note": None,
                "gone": True,
            },
            {
                "import_job_id": one,
                "row_number": 3,
                "written_at": at + timedelta(minutes=3),
                "sku": "B",
                "qty": None,
                "day": None,
                "price": "-7",
                "note": None,
                "gone": None,
            },
            {
                "import_job_id": two,
                "row_number": 2,
                "written_at": at + timedelta(minutes=2),
                "sku": "C",
                "qty": Decimal("0.3"),
                "day": datetime(2024, 3, 5, 13, 45, tzinfo=UTC),
                "price": "7 EUR",
                "note": "é'\"\\",
                "gone": None,
            },
        ]
        ledger = conn.execute("SELECT code, total FROM forms.ledger ORDER BY 1").fetchall()
        assert ledger == [
            {"code": 10, "total": Decimal("19.99")},
            {"code": 11, "total": Decimal("0.00001")},
        ]
        described = conn.execute(
            "SELECT obj_description('forms.stock'::regclass, 'pg_class') AS c"
        ).fetchone()
        assert described == {"c": "importer: rows of form 'stock', version 2"}
        with pytest.raises(UniqueViolation):  # the key moved with the rows
            conn.execute(
                "INSERT INTO forms.ledger (import_job_id, row_number, code) VALUES (%s, 9, 10)",
                (three,),
            )
        conn.rollback()


def test_migration_0008_keeps_form_data_when_a_row_has_no_stored_form(
    empty_database_url: str,
) -> None:
    with connect(empty_database_url) as conn:
        _database_at(conn, 7)
        _store_the_old_way(conn, {"ledger": [LEDGER]})
        _row(conn, _job(conn, "deleted", 1), 2, "deleted", {"x": 1}, None)
        conn.commit()
        with pytest.raises(SchemaError, match="1 rows of form_data belong to jobs of no stored"):
            schema.migrate(conn)
        assert conn.execute("SELECT count(*) AS n FROM form_data").fetchone() == {"n": 1}
        assert conn.execute("SELECT to_regclass('forms.ledger') AS t").fetchone() == {"t": None}
        assert conn.execute("SELECT max(version) AS v FROM schema_migrations").fetchone() == {
            "v": 7
        }
        conn.commit()


def test_a_database_from_before_0004_gets_the_tables_of_its_forms(
    empty_database_url: str,
) -> None:
    with connect(empty_database_url) as conn:
        _database_at(conn, 3)
        _store_the_old_way(conn, {"ledger": [LEDGER]})
        conn.commit()
        assert [m.version for m in schema.migrate(conn)] == _versions_from(4)
        found = conn.execute("SELECT count(*) AS n FROM forms.ledger").fetchone()
        assert found == {"n": 0}
        assert conn.execute("SELECT to_regclass('form_data') AS t").fetchone() == {"t": None}


def test_an_upgrade_whose_step_is_not_given_is_refused_and_changes_nothing(
    empty_database_url: str,
) -> None:
    with connect(empty_database_url) as conn:
        _database_of_the_release_before_0004(conn)
        with pytest.raises(SchemaError, match="0004_forms_schema needs a step beyond its SQL"):
            migrate(conn)
        applied = conn.execute("SELECT max(version) AS v FROM schema_migrations").fetchone()
        assert applied == {"v": 3}
        conn.commit()


def test_a_given_step_runs_in_its_migrations_transaction(empty_database_url: str) -> None:
    seen: list[tuple[bool, bool]] = []

    def step(conn: Connection) -> None:
        schema = conn.execute("SELECT to_regnamespace('forms') IS NOT NULL AS made").fetchone()
        recorded = conn.execute("SELECT 4 IN (SELECT version FROM schema_migrations) AS r")
        seen.append((bool(schema and schema["made"]), bool(recorded.fetchone() == {"r": True})))

    with connect(empty_database_url) as conn:
        _database_of_the_release_before_0004(conn)
        applied = migrate(conn, steps={4: step, 8: lambda c: None, 13: lambda c: None})
    assert [m.version for m in applied] == [m.version for m in available_migrations()][3:]
    assert seen == [(True, False)]  # after the file's SQL, before its record


def test_a_step_for_a_migration_that_declares_none_is_refused(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn, pytest.raises(ValueError, match=r"\[3\]"):
        migrate(conn, steps={3: lambda c: None})
    assert _tables(empty_database_url) == set()


def test_concurrent_migrate_from_two_processes(empty_database_url: str) -> None:
    code = (
        "import sys; from importer.database import connect, migrate\n"
        "with connect(sys.argv[1]) as c: print(len(migrate(c)))\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, empty_database_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    applied_counts = sorted(int(out.strip()) for out, _ in outputs)
    # exactly one process applied everything; the others found it done
    assert applied_counts == [0, 0, 0, len(available_migrations())]
    assert _tables(empty_database_url) >= EXPECTED_TABLES


def test_schema_newer_than_code_is_refused(
    database_url: str, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    with connect(database_url) as conn:
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')")
        conn.commit()
        with pytest.raises(SchemaError, match="newer than this importer"):
            migrate(conn)
    result = cli("db", "migrate")
    assert result.exit_code == 1
    assert "9999" in result.stderr and "upgrade importer" in result.stderr


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("postgresql://bob:s3cret@db.example:5433/app", "postgresql://bob:***@db.example:5433/app"),
        ("postgresql://bob@db/app", "postgresql://bob@db/app"),
        (
            "postgresql://db/app?password=s3cret&sslmode=require",
            "postgresql://db/app?password=***&sslmode=require",
        ),
        ("host=db password=s3cret dbname=app", "host=db password=*** dbname=app"),
        ("host=db password='s 3cret' dbname=app", "host=db password=*** dbname=app"),
    ],
)
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked
    assert "s3cret" not in mask_url(url)


def test_describe_target_never_shows_password() -> None:
    assert describe_target("postgresql://bob:s3cret@db.example:5433/app") == "db.example:5433/app"


def test_unreachable_server_names_target_without_password(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "postgresql://bob:hunter2@127.0.0.1:1/nowhere"
    monkeypatch.setenv("IMPORTER_DATABASE_URL", url)
    result = cli("db", "migrate")
    assert result.exit_code == 1
    assert "127.0.0.1:1/nowhere" in result.stderr
    assert "hunter2" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1
    with pytest.raises(DatabaseUnavailable):
        connect(url)


def test_translate_masks_passwords_in_messages() -> None:
    exc = psycopg.OperationalError("failed for postgresql://u:pw123@h/d")
    assert "pw123" not in str(translate(exc, url="postgresql://u:pw123@h/d"))


def test_named_queries_load_once() -> None:
    assert queries() is queries()


def test_migration_0015_counts_the_jobs_notices_and_failures_already_there(
    empty_database_url: str,
) -> None:
    """The totals that `stats` reads start from what the database holds when it upgrades."""
    from importer.repositories.fleet import job_totals

    with connect(empty_database_url) as conn:
        _database_at(conn, 14)
        conn.execute("INSERT INTO import_files (sha256, size_bytes, content) VALUES ('f', 0, '')")
        conn.execute(
            "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts, status,"
            " success_rows, failed_rows)"
            " SELECT 'f', 1, 'f', 'a.xlsx', 3, s, 10, 1"
            " FROM unnest(ARRAY['succeeded', 'succeeded', 'failed', 'pending']) s"
        )
        conn.execute(
            "INSERT INTO import_attempt_failures (import_job_id, error)"
            " SELECT id, 'boom' FROM import_jobs WHERE status = 'failed'"
        )
        conn.execute(
            "INSERT INTO timer_jobs (kind, target, status, due_at, max_attempts)"
            " VALUES ('notify', 'n1', 'completed', now(), 3), ('notify', 'n2', 'pending', now(), 3)"
        )
        conn.commit()
        assert [m.version for m in schema.migrate(conn)] == _versions_from(15)
        totals = job_totals(conn)
    jobs = {str(status): n for status, n in totals.jobs.items()}
    assert (jobs["succeeded"], jobs["failed"], jobs["pending"]) == (2, 1, 1)
    assert (totals.rows_imported, totals.rows_rejected, totals.attempts_failed) == (40, 4, 1)
    notices = {str(status): n for status, n in totals.notices.items()}
    assert (notices["completed"], notices["pending"]) == (1, 1)
