"""Connection URLs made safe to print, and the choice of server."""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit, urlunsplit

import psycopg

from importer.config import Settings
from importer.errors import ConfigError

EXPECTED_URL = "postgresql://user@host:5432/dbname"


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
    """The configured server, else the embedded one (started on first use). A configured URL
    that is no connection string at all is refused naming where it came from."""
    if settings.database_url:
        check_url(settings.database_url)
        return settings.database_url
    from importer.database.embedded import EmbeddedServer

    return EmbeddedServer(settings.home).ensure_running()


def check_url(url: str) -> None:
    """ConfigError (exit 2) for a URL libpq cannot parse: its own message ('missing "=" after
    "notaurl" in connection info string') names neither the setting nor what is wanted."""
    try:
        psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        raise ConfigError(
            url_source(url), mask_url(url), f"not a PostgreSQL URL; expected {EXPECTED_URL}"
        ) from None


def url_source(url: str) -> str:
    """Where the URL was given, as the user wrote it (the variables come before the file)."""
    for variable in ("IMPORTER_DATABASE_URL", "DATABASE_URL"):
        if os.environ.get(variable) == url:
            return variable
    return "database.url"
