"""Migrations, URL masking and error translation against a real server."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

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
from importer.errors import DatabaseUnavailable, SchemaError
from tests.conftest import Cli

EXPECTED_TABLES = {
    "forms",
    "form_versions",
    "import_files",
    "import_jobs",
    "form_data",
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


def test_only_0004_declares_a_step_beyond_its_sql() -> None:
    stepped = {m.version: m.step for m in available_migrations() if m.step}
    assert stepped == {4: "the typed views of the forms already stored"}


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
        applied = migrate(conn, steps={4: step})
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
