"""Connections, the choice of server, schema migrations and psycopg error translation.

This is the one place that turns psycopg's exceptions into the tool's own (see errors.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.rows import dict_row

from importer.config import Settings
from importer.errors import DatabaseError, DatabaseUnavailable, SchemaError

Connection = psycopg.Connection[dict[str, Any]]

# pg_advisory_lock key for migrations: any constant unique to this tool.
_MIGRATION_LOCK = 0x1A9_0A7E


def mask_url(url: str) -> str:
    """The URL with any password replaced by ***; safe to print."""
    if "://" in url:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, _, hostport = netloc.rpartition("@")
            if ":" in userinfo:
                userinfo = userinfo.split(":", 1)[0] + ":***"
            netloc = f"{userinfo}@{hostport}"
        query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    # key=value conninfo
    return re.sub(r"(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", url)


def describe_target(url: str) -> str:
    """host:port/database of a URL, for error messages (never the password)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return mask_url(url)
    host = str(info.get("host") or "localhost")
    port = str(info.get("port") or "5432")
    dbname = str(info.get("dbname") or info.get("user") or "")
    return f"{host}:{port}/{dbname}"


def resolve_url(settings: Settings) -> str:
    """The configured server, else the embedded one (started on first use)."""
    if settings.database_url:
        return settings.database_url
    from importer.embedded import EmbeddedServer

    return EmbeddedServer(settings.home).ensure_running()


def translate(exc: psycopg.Error, url: str | None = None) -> DatabaseError:
    """Map a psycopg error to ours; the message carries no password."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if url:
        text = text.replace(url, mask_url(url))
    text = mask_url(text) if "password" in text.lower() else text
    if isinstance(exc, psycopg.OperationalError):
        where = f" ({describe_target(url)})" if url else ""
        return DatabaseUnavailable(f"cannot reach PostgreSQL{where}: {text}")
    return DatabaseError(f"database error: {text}")


def connect(
    url: str, *, autocommit: bool = False, application_name: str = "importer"
) -> Connection:
    try:
        return psycopg.connect(
            url,
            autocommit=autocommit,
            row_factory=dict_row,
            connect_timeout=10,
            application_name=application_name,
        )
    except psycopg.Error as exc:
        raise translate(exc, url) from None


@contextmanager
def translated(url: str | None = None) -> Iterator[None]:
    """Run a block with psycopg errors mapped to ours."""
    try:
        yield
    except psycopg.Error as exc:
        raise translate(exc, url) from exc


# --- named queries -------------------------------------------------------------------------

_NAME = re.compile(r"^--\s*name:\s*([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)


class Queries:
    """Named SQL statements from importer/sql/queries/*.sql, loaded once.

    A file holds blocks introduced by a line ``-- name: some_query``; the block runs until
    the next such line. Parameters use psycopg's ``%(name)s`` style.
    """

    def __init__(self) -> None:
        self._queries: dict[str, str] = {}
        folder = resources.files("importer.sql") / "queries"
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".sql"):
                self._parse(entry.read_text(encoding="utf-8"), entry.name)

    def _parse(self, text: str, origin: str) -> None:
        matches = list(_NAME.finditer(text))
        for index, match in enumerate(matches):
            end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
            body = text[match.end() : end].strip()
            name = match.group(1)
            if name in self._queries:
                raise ValueError(f"query {name} defined twice ({origin})")
            self._queries[name] = body

    def __getattr__(self, name: str) -> str:
        try:
            return self._queries[name]
        except KeyError:
            raise AttributeError(f"no query named {name}") from None

    def __contains__(self, name: str) -> bool:
        return name in self._queries


_queries: Queries | None = None


def queries() -> Queries:
    global _queries
    if _queries is None:
        _queries = Queries()
    return _queries


# --- migrations ----------------------------------------------------------------------------


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
    exists = conn.execute("SELECT to_regclass('schema_migrations') AS t").fetchone()
    if not exists or exists["t"] is None:
        return set()
    return {row["version"] for row in conn.execute("SELECT version FROM schema_migrations")}


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
    known = available_migrations()
    applied = _applied_versions(conn)
    conn.commit()
    _check_not_newer(applied, known)
    if all(m.version in applied for m in known):
        return []
    done: list[Migration] = []
    conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
    try:
        conn.commit()
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        conn.commit()
        applied = _applied_versions(conn)  # another process may have migrated meanwhile
        conn.commit()
        _check_not_newer(applied, known)
        for migration in known:
            if migration.version in applied:
                continue
            # Each migration and its record commit together, before the lock is released.
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
            conn.commit()
            done.append(migration)
    except psycopg.Error as exc:
        conn.rollback()
        raise SchemaError(f"migration failed: {str(exc).strip().splitlines()[0]}") from exc
    finally:
        if not conn.closed and not conn.broken:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))
            conn.commit()
    return done


class Database:
    """The resolved server; the CLI calls ensure_schema() once before any command's work."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = resolve_url(settings)

    def connect(self, *, autocommit: bool = False) -> Connection:
        return connect(self.url, autocommit=autocommit)

    def ensure_schema(self) -> list[Migration]:
        with connect(self.url) as conn, translated(self.url):
            return migrate(conn)
