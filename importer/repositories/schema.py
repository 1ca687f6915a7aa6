"""The schema made current, with what its migrations need beyond their SQL.

The database layer's migrator applies sql/migrations/ and knows nothing above it; a
migration whose file has a ``-- step:`` line needs a step given by its caller, and the
steps are given from here, the layer that knows what they do. Make the schema current
through ``migrate`` or ``ensure_schema`` (not the migrator alone), so that a database of an
earlier release gets them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from psycopg import sql

from importer.database import Connection, Database, Migration, MigrationStep, queries
from importer.database import migrate as migrate_sql
from importer.errors import DatabaseError, FormError
from importer.forms.definition import Form
from importer.repositories.form_tables import (
    FormTable,
    TableColumn,
    comment_statement,
    create_statements,
    names_for,
    table_for,
)
from importer.repositories.history import prepare_history


def _no_views(conn: Connection) -> None:
    """0004's step built typed views over form_data; 0008, which always follows it, drops
    them and builds each form's table instead, so an upgrade from before 0004 needs none."""


# A column's type wide enough for each set of types its field had across versions.
_WIDEST = {
    frozenset({"bigint", "numeric"}): "numeric",
    frozenset({"date", "timestamptz"}): "timestamptz",
}


def _widest(types: set[str]) -> str:
    if len(types) == 1:
        return next(iter(types))
    return _WIDEST.get(frozenset(types), "text")  # versions that disagree otherwise: text


def _stored_versions(conn: Connection, name: str) -> dict[int, Form]:
    versions: dict[int, Form] = {}
    for row in conn.execute(queries().form_versions_all, {"name": name}).fetchall():
        try:
            versions[int(row["version"])] = Form.from_json(row["definition"])
        except FormError as exc:
            raise DatabaseError(
                f"form {name!r} version {row['version']} cannot be read ({exc}): its rows "
                "cannot be moved out of form_data"
            ) from None
    return versions


def merged_table(versions: Mapping[int, Form]) -> FormTable:
    """The table of a form stored under form_data: its current version's fields, then the
    fields only earlier versions had (their rows keep their values), each column of a type
    every version's values fit (text where versions disagree beyond a widening)."""
    current = versions[max(versions)]
    types: dict[str, set[str]] = {}
    for number in sorted(versions, reverse=True):
        for field in versions[number].fields:
            types.setdefault(field.name, set()).add(field.spec.pg_type)
    fields = list(types)  # the current version's first, in its order: dicts keep insertion
    columns = tuple(
        TableColumn(field, name, _widest(types[field]))
        for field, name in zip(fields, names_for(fields), strict=True)
    )
    return replace(table_for(current), columns=columns)


def _value(column: TableColumn) -> sql.Composable:
    """The stored JSON value as the column's type: its text, cast (JSON null: NULL)."""
    text = sql.SQL("(d.data ->> {})").format(sql.Literal(column.field))
    if column.pg_type == "text":
        return text
    return sql.SQL("{}::{}").format(text, sql.SQL(column.pg_type))


def _move_rows(conn: Connection, table: FormTable, form: str) -> int:
    assert table.job_column and table.row_column and table.written_column
    statement = sql.SQL(queries().form_data_move_rows).format(
        table=table.identifier,
        job=sql.Identifier(table.job_column),
        row=sql.Identifier(table.row_column),
        written=sql.Identifier(table.written_column),
        columns=sql.SQL("").join(sql.SQL(", ") + sql.Identifier(c.name) for c in table.columns),
        values=sql.SQL("").join(sql.SQL(", ") + _value(c) for c in table.columns),
        form=sql.Literal(form),
    )
    return int(conn.execute(statement).rowcount)


def move_off_form_data(conn: Connection) -> None:
    """0008's step: each stored form's table, the rows of its jobs moved into it, and
    form_data dropped once every row has moved (a row of no stored form's job stops it)."""
    q = queries()
    row = conn.execute(q.form_data_exists).fetchone()
    present = bool(row and row["present"])
    moved = 0
    for name in [r["name"] for r in conn.execute(q.form_names).fetchall()]:
        versions = _stored_versions(conn, name)
        if not versions:
            continue
        table = merged_table(versions)
        for statement in create_statements(table):
            conn.execute(statement)
        conn.execute(comment_statement(table, name, max(versions)))
        if present:
            moved += _move_rows(conn, table, name)
    if not present:
        return
    total = conn.execute(q.form_data_count).fetchone()
    left = int(total["n"]) - moved if total else 0
    if left:
        raise DatabaseError(
            f"{left} rows of form_data belong to jobs of no stored form; they were not moved "
            "and form_data stays until they are removed"
        )
    conn.execute(q.form_data_drop)


def prepare_all_histories(conn: Connection) -> None:
    """0013's step: a history table for every stored keyed form."""
    from importer.repositories.forms import current_forms

    for form, _ in current_forms(conn):
        prepare_history(conn, form)


MIGRATION_STEPS: Mapping[int, MigrationStep] = MappingProxyType(
    {4: _no_views, 8: move_off_form_data, 13: prepare_all_histories}
)


def migrate(conn: Connection) -> list[Migration]:
    """Apply pending migrations with their steps; return those applied now."""
    return migrate_sql(conn, steps=MIGRATION_STEPS)


def ensure_schema(database: Database) -> list[Migration]:
    """``migrate`` on a connection of its own to ``database``."""
    return database.ensure_schema(steps=MIGRATION_STEPS)
