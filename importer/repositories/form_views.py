"""Typed views of each form's data: ``forms.<form name>``, created or replaced whenever the
form is stored (SQL template in sql/queries/form_views.sql).

A view has ``import_job_id``, ``row_number``, for forms with a key ``record_key`` (the key as
stored: a JSON array of the key fields' values), then one column per field of the current
version, typed by its field type's ``pg_type``. Only rows of the form's jobs are shown.

Casts cannot fail: a field's column casts a stored value only for rows of form versions
whose type for that field stored values of that shape (an integer read as numeric, a date
as timestamptz: yes; a text field's values as bigint: no, those rows show NULL). Names are
quoted with psycopg.sql.Identifier whatever the form or a field is called; a field named
like one of the fixed columns gets ``_field`` appended, and names longer than PostgreSQL's
63 bytes are cut and numbered so that no two collide.

The views depend on form_data (import_job_id, row_number, record_key, data) and import_jobs
(id, form, form_version): a migration that drops or retypes one of those columns drops the
views first and makes them again with refresh_all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from psycopg import sql

from importer.database import Connection, queries
from importer.errors import DatabaseError, FormError
from importer.fields.field import Field
from importer.forms.definition import Form

SCHEMA = "forms"
FIXED_COLUMNS = ("import_job_id", "row_number")
KEY_COLUMN = "record_key"
_MAX_NAME_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1

# A column of this PostgreSQL type reads, without a failing cast, the values stored by field
# types of these PostgreSQL types. Text reads every stored value (JSON's text of it).
_READS: dict[str, frozenset[str]] = {
    "bigint": frozenset({"bigint"}),
    "numeric": frozenset({"numeric", "bigint"}),
    "date": frozenset({"date"}),
    "timestamptz": frozenset({"timestamptz", "date"}),
    "boolean": frozenset({"boolean"}),
}


def view_identifier(form_name: str) -> sql.Identifier:
    return sql.Identifier(SCHEMA, form_name)


def _unique(name: str, used: set[str]) -> str:
    """The name, cut to 63 bytes and numbered when taken (ASCII: field names are)."""
    candidate = name[:_MAX_NAME_BYTES]
    number = 2
    while candidate in used:
        suffix = f"_{number}"
        candidate = name[: _MAX_NAME_BYTES - len(suffix)] + suffix
        number += 1
    used.add(candidate)
    return candidate


def column_names(form: Form) -> list[str]:
    """The view's column for each field, in field order."""
    used = set(FIXED_COLUMNS) | ({KEY_COLUMN} if form.key else set())
    reserved = set(used)
    return [_unique(f"{f.name}_field" if f.name in reserved else f.name, used) for f in form.fields]


def _safe_versions(field: Field, versions: Mapping[int, Form]) -> list[int] | None:
    """The versions whose stored values of this field the column can cast; None: all."""
    pg_type = field.spec.pg_type
    if pg_type == "text":
        return None
    readable = _READS.get(pg_type, frozenset({pg_type}))
    safe = []
    for number, version in versions.items():
        earlier = next((f for f in version.fields if f.name == field.name), None)
        if earlier is None or earlier.spec.pg_type in readable:
            safe.append(number)  # a field a version lacks stored nothing
    return None if len(safe) == len(versions) else sorted(safe)


def column_expression(field: Field, versions: Mapping[int, Form]) -> sql.Composable:
    value = sql.SQL("(d.data ->> {})").format(sql.Literal(field.name))
    pg_type = field.spec.pg_type
    if pg_type == "text":
        return value
    cast = sql.SQL("{}::{}").format(value, sql.SQL(pg_type))
    safe = _safe_versions(field, versions)
    if safe is None:
        return cast
    return sql.SQL("CASE WHEN j.form_version = ANY({}::integer[]) THEN {} END").format(
        sql.Literal(safe), cast
    )


def view_statement(form: Form, versions: Mapping[int, Form]) -> sql.Composed:
    """CREATE OR REPLACE VIEW forms.<name> for the form (its current version) given every
    stored version (number -> form)."""
    columns: list[sql.Composable] = []
    if form.key:
        columns.append(sql.SQL("d.record_key AS {}").format(sql.Identifier(KEY_COLUMN)))
    for field, name in zip(form.fields, column_names(form), strict=True):
        expression = column_expression(field, versions)
        columns.append(sql.SQL("{} AS {}").format(expression, sql.Identifier(name)))
    listed = sql.SQL("").join(sql.SQL(",\n       ") + column for column in columns)
    return sql.SQL(queries().create_form_view).format(
        view=view_identifier(form.name), columns=listed, form=sql.Literal(form.name)
    )


def _stored_versions(conn: Connection, name: str) -> dict[int, Form]:
    versions: dict[int, Form] = {}
    for row in conn.execute(queries().form_versions_all, {"name": name}).fetchall():
        try:
            versions[int(row["version"])] = Form.from_json(row["definition"])
        except FormError:
            continue  # a definition this code cannot read stored nothing it could cast
    return versions


def refresh_view(conn: Connection, name: str) -> None:
    """Create or replace the form's view from its stored versions (the newest is current).

    When the columns changed in a way CREATE OR REPLACE refuses (a field removed, renamed
    or retyped), the view is dropped and created again; objects of the user's that depend on
    it then have to go first (the error says so)."""
    versions = _stored_versions(conn, name)
    if not versions:
        return
    form = versions[max(versions)]
    statement = view_statement(form, versions)
    view = view_identifier(form.name)
    with conn.transaction():
        try:
            with conn.transaction():
                conn.execute(statement)
        except DatabaseError:  # the columns changed: drop and create, in this transaction
            conn.execute(sql.SQL(queries().drop_form_view).format(view=view))
            conn.execute(statement)
        comment = f"importer: rows of form {form.name!r}, version {max(versions)}, typed"
        conn.execute(
            sql.SQL(queries().view_comment).format(view=view, comment=sql.Literal(comment))
        )


def refresh_all(conn: Connection, names: Iterable[str] | None = None) -> None:
    """The views of every stored form (or of these)."""
    wanted = (
        list(names)
        if names is not None
        else [row["name"] for row in conn.execute(queries().form_names).fetchall()]
    )
    for name in wanted:
        refresh_view(conn, name)
