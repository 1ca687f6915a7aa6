"""Stored rows of keyed forms, looked up by key in the form's table (what a re-import would
change: `importer check`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import sql
from psycopg.rows import tuple_row

from importer.database import Connection, queries
from importer.repositories.form_tables import FormTable

# Keys per statement: a large sheet's keys go in slices, never one huge array.
_CHUNK = 5000


def stored_records(
    conn: Connection, table: FormTable, keys: Sequence[tuple[Any, ...]]
) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """key (the key columns' values, typed as the table's) -> the stored values of every
    field column (table order), for the keys that have a row."""
    key_types = {c.name: c.pg_type for c in table.columns}
    statement = sql.SQL(queries().stored_rows_by_key).format(
        table=table.identifier,
        key_columns=sql.SQL(", ").join(map(sql.Identifier, table.key)),
        value_columns=sql.SQL(", ").join(sql.Identifier(c.name) for c in table.columns),
        key_arrays=sql.SQL(", ").join(
            sql.SQL("{}::{}[]").format(sql.Placeholder(f"k{i}"), sql.SQL(key_types[name]))
            for i, name in enumerate(table.key)
        ),
    )
    width = len(table.key)
    found: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for start in range(0, len(keys), _CHUNK):
        part = keys[start : start + _CHUNK]
        params = {f"k{i}": [key[i] for key in part] for i in range(width)}
        # Tuples: a key column is also among the value columns, which a dict would merge.
        with conn.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(statement, params)
            for row in cursor.fetchall():
                found[row[:width]] = row[width:]
    return found
