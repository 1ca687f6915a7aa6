"""The database layer: the connector, the translation of errors, named queries, migrations
and the embedded server. Only this package and importer.repositories import psycopg."""

from importer.database.connection import Connection, Database, connect
from importer.database.migrations import available_migrations, migrate
from importer.database.queries import queries
from importer.database.urls import describe_target, mask_url, resolve_url

__all__ = [
    "Connection",
    "Database",
    "available_migrations",
    "connect",
    "describe_target",
    "mask_url",
    "migrate",
    "queries",
    "resolve_url",
]
