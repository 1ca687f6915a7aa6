"""The schema made current with the steps its migrations need beyond their SQL, given to the
database layer's migrator from here."""

from __future__ import annotations

from pathlib import Path

from importer.config import Settings
from importer.database import Database, available_migrations, connect
from importer.repositories import schema


def test_every_step_a_migration_declares_is_given_and_no_other() -> None:
    declared = {m.version for m in available_migrations() if m.step}
    assert declared and set(schema.MIGRATION_STEPS) == declared


def test_ensure_schema_migrates_a_database_and_then_finds_nothing_to_do(
    empty_database_url: str, tmp_path: Path
) -> None:
    database = Database(Settings(database_url=empty_database_url, home=tmp_path / "home"))
    applied = schema.ensure_schema(database)
    assert [m.version for m in applied] == [m.version for m in available_migrations()]
    assert schema.ensure_schema(database) == []
    with connect(empty_database_url) as conn:
        found = conn.execute("SELECT to_regnamespace('forms') IS NOT NULL AS made").fetchone()
    assert found == {"made": True}
