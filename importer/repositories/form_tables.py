"""Where a form's rows live: a typed table, ``forms.<form name>`` by default.

A form's table has one column per field, typed by its field type's ``pg_type`` (bigint,
numeric, date, timestamptz, boolean, text), and the tool's own columns: ``import_job_id``
(the job that wrote the row), ``row_number`` (its Excel row) and ``written_at`` (when its
values were last written). ``(import_job_id, row_number)`` is unique (the second guard of
exactly once) and, for a form with a ``key``, so are the key's columns. Field columns are
nullable: validation decides what is required, and a column added by a later version must
not refuse the rows already there.

Names are quoted with psycopg.sql.Identifier whatever the form or a field is called; a field
named like one of the tool's columns gets ``_field`` appended, and names longer than
PostgreSQL's 63 bytes are cut and numbered so that no two collide.

``FormTable`` is what the batch writer, the check's preview and the readers know of a table:
they never build its names themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from psycopg import sql

from importer.forms.definition import Form

SCHEMA = "forms"
JOB_COLUMN = "import_job_id"
ROW_COLUMN = "row_number"
WRITTEN_COLUMN = "written_at"
TOOL_COLUMNS = (JOB_COLUMN, ROW_COLUMN, WRITTEN_COLUMN)
_MAX_NAME_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1


@dataclass(frozen=True)
class TableColumn:
    field: str  # the form's field
    name: str  # its column in the table
    pg_type: str  # bigint | numeric | date | timestamptz | boolean | text


@dataclass(frozen=True)
class FormTable:
    """A form's table as the writers and readers see it."""

    schema: str
    name: str
    columns: tuple[TableColumn, ...]  # one per field, in field order
    key: tuple[str, ...]  # the key's column names (empty: an append form)
    job_column: str | None  # None: a table of the user's with no column for the job
    row_column: str | None
    written_column: str | None
    owned: bool  # created and changed by the tool (False: the user's own table)

    @property
    def identifier(self) -> sql.Identifier:
        return sql.Identifier(self.schema, self.name)

    def column(self, field: str) -> TableColumn:
        for column in self.columns:
            if column.field == field:
                return column
        raise KeyError(field)


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
    """The table's column for each field, in field order."""
    used = set(TOOL_COLUMNS)
    return [
        _unique(f"{f.name}_field" if f.name in TOOL_COLUMNS else f.name, used)
        for f in form.fields
    ]


def table_for(form: Form) -> FormTable:
    """The tool's own table of the form: ``forms.<name>``."""
    columns = tuple(
        TableColumn(f.name, name, f.spec.pg_type)
        for f, name in zip(form.fields, column_names(form), strict=True)
    )
    by_field = {c.field: c.name for c in columns}
    return FormTable(
        schema=SCHEMA,
        name=form.name,
        columns=columns,
        key=tuple(by_field[k] for k in form.key),
        job_column=JOB_COLUMN,
        row_column=ROW_COLUMN,
        written_column=WRITTEN_COLUMN,
        owned=True,
    )


def create_statements(table: FormTable) -> list[sql.Composed]:
    """CREATE TABLE IF NOT EXISTS for a table the tool owns, with its unique indexes."""
    assert table.owned and table.job_column and table.row_column and table.written_column
    fields = [
        sql.SQL("{} {}").format(sql.Identifier(c.name), sql.SQL(c.pg_type))
        for c in table.columns
    ]
    own = [
        sql.SQL("{} bigint NOT NULL").format(sql.Identifier(table.job_column)),
        sql.SQL("{} integer NOT NULL").format(sql.Identifier(table.row_column)),
        sql.SQL("{} timestamptz NOT NULL DEFAULT now()").format(
            sql.Identifier(table.written_column)
        ),
    ]
    statements = [
        sql.SQL("CREATE TABLE IF NOT EXISTS {} ({})").format(
            table.identifier, sql.SQL(", ").join(own + fields)
        ),
        sql.SQL("CREATE UNIQUE INDEX IF NOT EXISTS {} ON {} ({}, {})").format(
            sql.Identifier(_unique(f"{table.name}_job_row", set())),
            table.identifier,
            sql.Identifier(table.job_column),
            sql.Identifier(table.row_column),
        ),
    ]
    if table.key:
        statements.append(
            sql.SQL("CREATE UNIQUE INDEX IF NOT EXISTS {} ON {} ({})").format(
                sql.Identifier(_unique(f"{table.name}_key", set())),
                table.identifier,
                sql.SQL(", ").join(sql.Identifier(k) for k in table.key),
            )
        )
    return statements
