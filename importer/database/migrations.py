"""Schema migrations: sql/migrations/NNNN_name.sql, applied in order under an advisory lock
and recorded in schema_migrations; a schema newer than the code is refused."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from importlib import resources

from importer.database.connection import Connection
from importer.database.queries import queries
from importer.errors import DatabaseError, SchemaError

# pg_advisory_lock key for migrations: any constant unique to this tool.
_MIGRATION_LOCK = 0x1A9_0A7E

# What a migration needs done besides its SQL, in its transaction: "module:function" taking
# the connection. 0004 creates the typed views of the forms already stored with the one
# builder `forms add` uses (the views are typed from Python's field type registry).
_AFTER_SQL = {4: "importer.repositories.form_views:refresh_all"}


def _run_after_sql(conn: Connection, version: int) -> None:
    target = _AFTER_SQL.get(version)
    if target is not None:
        module, function = target.split(":")
        getattr(importlib.import_module(module), function)(conn)


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available_migrations() -> list[Migration]:
    folder = resources.files("importer.sql") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = re.fullmatch(r"(\d{4})_([a-z0-9_]+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    return found


def _applied_versions(conn: Connection) -> set[int]:
    q = queries()
    exists = conn.execute(q.migrations_table_exists).fetchone()
    if not exists or exists["t"] is None:
        return set()
    return {row["version"] for row in conn.execute(q.applied_migrations)}


def _check_not_newer(applied: set[int], known: list[Migration]) -> None:
    latest = known[-1].version if known else 0
    newer = sorted(v for v in applied if v > latest)
    if newer:
        raise SchemaError(
            f"the database schema is at version {newer[-1]}, newer than this importer "
            f"(knows up to {latest}); upgrade importer"
        )


def migrate(conn: Connection) -> list[Migration]:
    """Apply pending migrations under an advisory lock; return those applied now."""
    q = queries()
    known = available_migrations()
    applied = _applied_versions(conn)
    conn.commit()
    _check_not_newer(applied, known)
    if all(m.version in applied for m in known):
        return []
    done: list[Migration] = []
    conn.execute(q.lock_migrations, {"key": _MIGRATION_LOCK})
    try:
        conn.commit()
        conn.execute(q.create_migrations_table)
        conn.commit()
        applied = _applied_versions(conn)  # another process may have migrated meanwhile
        conn.commit()
        _check_not_newer(applied, known)
        for migration in known:
            if migration.version in applied:
                continue
            # Each migration and its record commit together, before the lock is released.
            conn.execute(migration.sql.encode())
            _run_after_sql(conn, migration.version)
            conn.execute(q.record_migration, {"version": migration.version, "name": migration.name})
            conn.commit()
            done.append(migration)
    except SchemaError:
        raise
    except DatabaseError as exc:
        if not conn.broken:
            conn.rollback()
        text = str(exc).split(": ", 1)[-1]
        raise SchemaError(f"migration failed: {text}") from exc
    finally:
        if not conn.closed and not conn.broken:
            conn.execute(q.unlock_migrations, {"key": _MIGRATION_LOCK})
            conn.commit()
    return done
