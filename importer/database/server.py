"""The database this process uses: its resolved URL, connections to it, its schema."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from importer.config import Settings
from importer.database.connection import Connection, connect
from importer.database.migrations import (
    Migration,
    MigrationStep,
    available_migrations,
    migrate,
    schema_version,
)
from importer.database.urls import check_url, describe_target, resolve_url
from importer.errors import ImporterError

if TYPE_CHECKING:
    from importer.database.pool import SharedConnections


class Database:
    """The resolved server; the CLI makes its schema current once before any command's work."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = resolve_url(settings)
        self._shared: SharedConnections | None = None

    def connect(self, *, autocommit: bool = False) -> Connection:
        return connect(self.url, autocommit=autocommit)

    @contextmanager
    def autocommit(self) -> Iterator[Connection]:
        """An autocommit connection for the block: one of the shared ones while
        sharing_connections() is on, otherwise a new one closed after it."""
        shared = self._shared
        if shared is not None:
            with shared.lend() as conn:
                yield conn
        else:
            with connect(self.url, autocommit=True) as conn:
                yield conn

    @contextmanager
    def sharing_connections(self, size: int) -> Iterator[None]:
        """Within the block, autocommit() lends one of up to ``size`` connections kept open
        (a server answering many short requests) instead of opening one each time."""
        from importer.database.pool import SharedConnections

        shared = SharedConnections(self.url, size)
        shared.open()
        self._shared = shared
        try:
            yield
        finally:
            self._shared = None
            shared.close()

    def ensure_schema(self, steps: Mapping[int, MigrationStep] | None = None) -> list[Migration]:
        """Apply pending migrations; ``steps``: what they need beyond their SQL, given by the
        layer that knows it (see migrations.migrate)."""
        with connect(self.url) as conn:
            return migrate(conn, steps=steps)


@dataclass(frozen=True)
class SchemaPeek:
    """What `importer --version` says of the database this process would use."""

    where: str  # host:port/database (never a password), or "the embedded server"
    latest: int  # the newest schema version this code knows
    version: int | None = None  # the database's; None: no schema yet (or unknown)
    unreachable: str | None = None  # why it could not be read


def peek_schema(settings: Settings) -> SchemaPeek:
    """The schema version of the configured database, read without migrating anything and
    without starting an embedded server that is not running."""
    latest = available_migrations()[-1].version
    url = settings.database_url
    if not url:
        from importer.database.embedded import EmbeddedServer

        server = EmbeddedServer(settings.home)
        if not server.info().running:
            return SchemaPeek(
                "the embedded server",
                latest,
                unreachable="not running (the first command starts it)",
            )
        url = server.url()
        where = "the embedded server"
    else:
        check_url(url)
        where = describe_target(url)
    try:
        with connect(url, autocommit=True, dead_after=3) as conn:
            return SchemaPeek(where, latest, version=schema_version(conn))
    except ImporterError as exc:
        # libpq's last words say why ("Connection refused", "database ... does not exist").
        why = str(exc).rsplit("failed: ", 1)[-1].removeprefix("FATAL:").strip()
        return SchemaPeek(where, latest, unreachable=f"not reachable ({why})")
