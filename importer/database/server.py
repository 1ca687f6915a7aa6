"""The database this process uses: its resolved URL, connections to it, its schema."""

from __future__ import annotations

from collections.abc import Mapping

from importer.config import Settings
from importer.database.connection import Connection, connect
from importer.database.migrations import Migration, MigrationStep, migrate
from importer.database.urls import resolve_url


class Database:
    """The resolved server; the CLI makes its schema current once before any command's work."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = resolve_url(settings)

    def connect(self, *, autocommit: bool = False) -> Connection:
        return connect(self.url, autocommit=autocommit)

    def ensure_schema(self, steps: Mapping[int, MigrationStep] | None = None) -> list[Migration]:
        """Apply pending migrations; ``steps``: what they need beyond their SQL, given by the
        layer that knows it (see migrations.migrate)."""
        with connect(self.url) as conn:
            return migrate(conn, steps=steps)
