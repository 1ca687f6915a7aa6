"""The schema made current, with what its migrations need beyond their SQL.

The database layer's migrator applies sql/migrations/ and knows nothing above it; a
migration whose file has a ``-- step:`` line needs a step given by its caller, and the
steps are given from here, the layer that knows what they do. Make the schema current
through ``migrate`` or ``ensure_schema`` (not the migrator alone), so that a database of an
earlier release gets them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from importer.database import Connection, Database, Migration, MigrationStep
from importer.database import migrate as migrate_sql
from importer.repositories import form_views

# 0004 creates the forms schema; the typed views of the forms stored before it are built
# by the one builder `forms add` uses (typed from Python's field type registry).
MIGRATION_STEPS: Mapping[int, MigrationStep] = MappingProxyType({4: form_views.refresh_all})


def migrate(conn: Connection) -> list[Migration]:
    """Apply pending migrations with their steps; return those applied now."""
    return migrate_sql(conn, steps=MIGRATION_STEPS)


def ensure_schema(database: Database) -> list[Migration]:
    """``migrate`` on a connection of its own to ``database``."""
    return database.ensure_schema(steps=MIGRATION_STEPS)
