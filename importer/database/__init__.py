"""The database layer: the connector, the translation of errors, named queries, migrations
and the embedded server. Only this package and the repositories import psycopg; it
imports nothing of the layers above (what a migration needs beyond its SQL is given to it)."""

from importer.database.connection import Connection, connect
from importer.database.migrations import Migration, MigrationStep, available_migrations, migrate
from importer.database.queries import queries
from importer.database.server import Database, SchemaPeek, peek_schema
from importer.database.urls import describe_target, mask_url, resolve_url

__all__ = [
    "Connection",
    "Database",
    "Migration",
    "MigrationStep",
    "SchemaPeek",
    "available_migrations",
    "connect",
    "describe_target",
    "mask_url",
    "migrate",
    "peek_schema",
    "queries",
    "resolve_url",
]
